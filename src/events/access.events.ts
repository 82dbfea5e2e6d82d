import { defineEvent } from '../eventstore/define-event.js';

/** Stream `principal-<id>`. */
export const AgentCreated = defineEvent<{
  principalId: string;
  name: string;
  preset: string;
  createdBy: string;
}>('AgentCreated', 1);

/** Every token of the principal is refused from now on, and no new one can be minted. */
export const PrincipalInvalidated = defineEvent<{ principalId: string; reason: string }>(
  'PrincipalInvalidated',
  1,
);

/** Tokens minted before `before` are refused; later ones work (used when a user is deactivated). */
export const TokensInvalidatedBefore = defineEvent<{ principalId: string; before: string }>(
  'TokensInvalidatedBefore',
  1,
);

/** Stream `token-<id>`. Only the SHA-256 digest of the value is recorded. */
export const TokenMinted = defineEvent<{
  tokenId: string;
  principalId: string;
  name: string;
  scopes: string[];
  lane: string;
  digest: string;
  expiresAt: string | null;
  createdBy: string;
  rotatedFrom: string | null;
  /** The projects the token is limited to; absent or null: not limited. */
  projects?: string[] | null;
}>('TokenMinted', 1);

export const TokenRevoked = defineEvent<{ tokenId: string }>('TokenRevoked', 1);

/** The token keeps working until `refuseAfter`, then is refused with TOKEN_INVALIDATED. */
export const TokenRotated = defineEvent<{
  tokenId: string;
  replacedBy: string;
  refuseAfter: string;
}>('TokenRotated', 1);

export const principalStream = (principalId: string) => `principal-${principalId}`;
export const tokenStream = (tokenId: string) => `token-${tokenId}`;
