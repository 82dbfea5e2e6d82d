import type { SsoRefusalReason } from '../../events/sso.events.js';

/** What a person is told when a sign-in through a provider is refused, per reason. */
export const REFUSAL_MESSAGES: Record<SsoRefusalReason, string> = {
  'unknown-provider': 'No such identity provider',
  'provider-disabled': 'This identity provider is disabled',
  'no-transaction':
    'The sign-in expired or was started in another browser: start it again from the sign-in page',
  'state-mismatch': 'The answer from the identity provider does not belong to this sign-in',
  'provider-error': 'The identity provider refused the sign-in',
  'code-rejected': 'The identity provider did not accept the sign-in code (used or expired)',
  'id-token-invalid': 'The identity provider sent an ID token that does not verify',
  'nonce-mismatch': 'The ID token was issued for another sign-in',
  'issuer-mismatch': 'The identity provider does not answer as the configured issuer',
  'provider-unreachable': 'The identity provider could not be reached',
  'email-unverified': 'The identity provider has not verified this email address',
  'domain-not-allowed': 'This email domain may not join: ask an owner or admin for an invite',
  'not-invited': 'There is no account or invite for this email: ask an owner or admin for one',
  'no-role': 'Your groups at the identity provider give you no role here',
  deactivated: 'This account is deactivated',
  'subject-mismatch': 'The identity provider answered for another person',
};

/** A refused sign-in through a provider: recorded (`SsoSignInRefused`), then told to the person. */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoRefusalReason,
    readonly providerId: string | null,
    readonly subjectDigest: string | null = null,
    readonly emailDigest: string | null = null,
  ) {
    super(REFUSAL_MESSAGES[reason]);
  }
}
