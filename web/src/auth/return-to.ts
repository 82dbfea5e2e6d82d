/** Pages a login must not return to: they would only lead back here. */
const AUTH_PAGES = new Set(['/login', '/setup', '/forgot-password', '/reset-password']);

/**
 * Where to go after logging in: `raw` when it is a path on this very site, otherwise null (the
 * caller then goes to the overview). Only a path is accepted: one leading `/`, no second `/` or
 * `\` after it (`//host` and `/\host` are other sites to a browser), no scheme, no backslash,
 * space or control character anywhere, and no encoded `/` or `\` where a second slash would be.
 * The result is the path as the browser resolves it against `origin`, which must stay the same
 * origin and must not start with `//` after dot segments are removed (`/.//host`).
 */
export function safeReturnTo(raw: unknown, origin: string): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  if (raw[0] !== '/' || raw[1] === '/' || raw[1] === '\\') return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u0020\u007f-\u009f]/.test(raw)) return null;
  if (/^\/(%2f|%5c)/i.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  if (AUTH_PAGES.has(url.pathname)) return null;
  return path;
}

/**
 * `/login?returnTo=<the page the visitor was on>`; null on the auth pages themselves, which a
 * visitor without a session is meant to be on (a refusal of one of their queries must not take
 * the visitor off the page, nor drop where the login is to return to).
 */
export function loginPathFor(location: { pathname: string; search: string }): string | null {
  if (AUTH_PAGES.has(location.pathname)) return null;
  return `/login?returnTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
