/** Socket errors of a connection to a store's server that went away or cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The PostgreSQL driver's own words for a connection it gave up on (they carry no code). */
const DRIVER_MESSAGES = [
  /^Query read timeout$/,
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/,
  /is not queryable$/,
];

/**
 * Whether `error` says the store's server could not be reached or went away (a restart, a cut
 * link, a host down), rather than anything about the request: such a call is answered
 * SERVICE_UNAVAILABLE (503, try again), not as a bug. PostgreSQL's connection classes count
 * too: 08 (connection exception) and 57P (the server shutting down or starting up).
 */
export function isStoreUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || /^(08|57P)/.test(code)) return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}
