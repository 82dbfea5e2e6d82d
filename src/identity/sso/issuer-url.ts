import { httpsUrlOf } from '../../common/https-url.js';

/**
 * Why a string is not an acceptable OpenID issuer, or null. Issuers are https; plain http is
 * accepted for loopback addresses only (a provider on the same machine, in development and tests).
 */
export function issuerProblem(value: string): string | null {
  const url = httpsUrlOf(value);
  if (typeof url === 'string') return url;
  if (url.username || url.password) return 'must not carry credentials';
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return 'must have no query or fragment';
  }
  return null;
}
