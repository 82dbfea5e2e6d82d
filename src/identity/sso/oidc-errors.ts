import type { SsoRefusalReason } from '../../events/sso.events.js';

interface Coded {
  code?: unknown;
  error?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The claim a comparison failed on, wherever in the chain of causes the library put it. */
function claimOf(cause: unknown): unknown {
  for (let c = cause, depth = 0; typeof c === 'object' && c !== null && depth < 4; depth += 1) {
    if ('claim' in c) return c.claim;
    c = 'cause' in c ? c.cause : undefined;
  }
  return undefined;
}

/** Why openid-client refused the provider's answer, as a refusal reason. */
export function refusalReasonOf(error: unknown): SsoRefusalReason {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Coded;
  // The library's error classes, told apart by their codes (it is loaded lazily).
  if (e.code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') return 'provider-error';
  if (e.code === 'OAUTH_RESPONSE_BODY_ERROR') {
    return e.error === 'invalid_grant' ? 'code-rejected' : 'provider-error';
  }
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    const claim = claimOf(e.cause);
    if (claim === 'nonce') return 'nonce-mismatch';
    if (claim === 'iss') return 'issuer-mismatch';
    return 'id-token-invalid';
  }
  if (/"state"/.test(message)) return 'state-mismatch';
  if (
    e.code === 'OAUTH_INVALID_RESPONSE' ||
    e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' ||
    e.code === 'OAUTH_KEY_SELECTION_FAILED' ||
    e.code === 'OAUTH_PARSE_ERROR' ||
    e.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
  ) {
    return 'id-token-invalid';
  }
  return 'provider-unreachable';
}
