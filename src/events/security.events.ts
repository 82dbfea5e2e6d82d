import { defineEvent } from '../eventstore/define-event.js';

export const MFA_POLICIES = ['optional', 'privileged', 'all'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

/** Stream `team-security`. */
export const MfaPolicyChanged = defineEvent<{ policy: MfaPolicy; previous: MfaPolicy }>(
  'MfaPolicyChanged',
  1,
);

export const TEAM_SECURITY_STREAM = 'team-security';

/** Stream `team-security`: whether humans must sign in through an identity provider. */
export const SsoPolicyChanged = defineEvent<{ required: boolean; previous: boolean }>(
  'SsoPolicyChanged',
  1,
);
