const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a string is not an acceptable OpenID issuer, or null. Issuers are https; plain http is
 * accepted for loopback addresses only (a provider on the same machine, in development and tests).
 */
export function issuerProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return 'must be an https URL (http only on a loopback address)';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return 'must have no query or fragment';
  }
  return null;
}
