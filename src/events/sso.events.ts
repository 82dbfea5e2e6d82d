import { defineEvent } from '../eventstore/define-event.js';
import type { HUMANS } from '../kernel/roles.js';

type HumanRole = (typeof HUMANS)[number];

/** A role the claim mapping may give: never owner (owners are made by people, not by an IdP). */
export type MappedRole = Exclude<HumanRole, 'owner'>;

/** `claim` value → role; the highest role among the rules that match wins. */
export type RoleRule = {
  value: string;
  role: MappedRole;
};

/** How an identity provider's claims become a role at every sign-in through it. */
export type RoleMapping = {
  /** The ID token (or userinfo) claim read: a string or an array of strings, e.g. `groups`. */
  claim: string | null;
  rules: RoleRule[];
  /** The role when no rule matches; null refuses people no rule matches. */
  defaultRole: MappedRole | null;
};

/** What an owner configures about one OpenID provider. The client secret is sealed. */
export type IdentityProviderSettings = {
  providerId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** Sealed with the service's key; never in a read model nor an answer. */
  sealedClientSecret: string;
  /** Lower-case domains whose verified emails may join without an invite; empty: invites only. */
  allowedDomains: string[];
  roleMapping: RoleMapping;
  /** Count the provider's MFA (its `amr`) toward the team MFA policy. */
  trustProviderMfa: boolean;
  enabled: boolean;
};

/** Stream `identity-provider-<providerId>`: the provider as configured (whole, every time). */
export const IdentityProviderConfigured = defineEvent<IdentityProviderSettings>(
  'IdentityProviderConfigured',
  1,
);

export const IdentityProviderRemoved = defineEvent<{ providerId: string }>(
  'IdentityProviderRemoved',
  1,
);

/**
 * Stream `sso-subject-<digest of provider and subject>`: this provider's subject is this user.
 * Claimed once (expected revision: no stream), so a subject never signs in as two people.
 */
export const SsoIdentityLinked = defineEvent<{
  userId: string;
  providerId: string;
  subjectDigest: string;
  /** How the person was first recognised: an invite, an allowed domain or an existing account. */
  through: 'invite' | 'domain' | 'email';
}>('SsoIdentityLinked', 1);

export const SSO_REFUSAL_REASONS = [
  'unknown-provider',
  'provider-disabled',
  'no-transaction',
  'state-mismatch',
  'provider-error',
  'code-rejected',
  'id-token-invalid',
  'nonce-mismatch',
  'issuer-mismatch',
  'provider-unreachable',
  'email-unverified',
  'domain-not-allowed',
  'not-invited',
  'no-role',
  'deactivated',
  'subject-mismatch',
] as const;
export type SsoRefusalReason = (typeof SSO_REFUSAL_REASONS)[number];

/**
 * Stream `sso-refusals`: a sign-in through a provider that was refused, and why. The subject and
 * email are recorded only as keyed digests, when the provider got that far.
 */
export const SsoSignInRefused = defineEvent<{
  providerId: string | null;
  reason: SsoRefusalReason;
  subjectDigest: string | null;
  emailDigest: string | null;
}>('SsoSignInRefused', 1);

/**
 * Stream `user-<id>`: an owner signed in with password and second factor while the team requires
 * single sign-on (break-glass).
 */
export const BreakGlassSignIn = defineEvent<{ userId: string }>('BreakGlassSignIn', 1);

export const identityProviderStream = (providerId: string) => `identity-provider-${providerId}`;
export const ssoSubjectStream = (subjectDigest: string) => `sso-subject-${subjectDigest}`;
export const SSO_REFUSALS_STREAM = 'sso-refusals';
