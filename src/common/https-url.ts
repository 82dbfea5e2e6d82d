const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const NOT_HTTPS = 'must be an https URL (http only on a loopback address)';

/** Whether `url` is https, or plain http to a loopback address (development and tests). */
export function isHttpsOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/**
 * `value` as an absolute https URL, or why it is not one. Plain http is accepted for loopback
 * addresses only (a server on the same machine, in development and tests).
 */
export function httpsUrlOf(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  return isHttpsOrLoopback(url) ? url : NOT_HTTPS;
}
