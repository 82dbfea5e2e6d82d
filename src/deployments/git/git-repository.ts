/** Where a repository is, as Slipway will reach it: over SSH or HTTPS, nothing else. */
export interface GitRepository {
  transport: 'ssh' | 'https';
  host: string;
  port: number;
  /** The SSH user (`git` when the URL names none); null over HTTPS. */
  user: string | null;
  path: string;
}

export const MAX_REPOSITORY_LENGTH = 300;

const HOST =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
/** Path segments of letters, digits and `._~-`; none is `.` or `..`, none starts with `-`. */
const PATH = /^[A-Za-z0-9._~/-]{1,250}$/;
const SCP_LIKE = /^([A-Za-z0-9._-]{1,64})@([^:/\s]+):(.+)$/;

function checkedPath(path: string): string | null {
  const trimmed = path.replace(/^\/+/, '');
  if (!PATH.test(trimmed)) return null;
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.startsWith('-'))) return null;
  return trimmed;
}

/**
 * Reads a repository address: `user@host:path` (the scp-like form providers show),
 * `ssh://[user@]host[:port]/path` or `https://host[:port]/path`. Refused: plain `http://`,
 * `git://`, `file://`, transports through helpers (`ext::`), credentials in the URL (a token is
 * given apart and sealed), a query or fragment, and any host, user or path segment that begins
 * with `-` (git and ssh would read it as an option). Hosts are names or IPv4 addresses; whether
 * Slipway may connect there is the server address policy's to say when it does.
 */
export function parseGitRepository(text: string): GitRepository | { error: string } {
  if (text.length > MAX_REPOSITORY_LENGTH || /[\s\p{Cc}]/u.test(text))
    return { error: `at most ${MAX_REPOSITORY_LENGTH} characters, no spaces` };
  const scp = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? null : SCP_LIKE.exec(text);
  if (scp) {
    const [, user, host, rawPath] = scp;
    const path = checkedPath(rawPath);
    if (!USER.test(user)) return { error: 'the SSH user is letters, digits, . _ -' };
    if (!HOST.test(host.toLowerCase())) return { error: `${host} is not a host name` };
    if (!path) return { error: 'the path is letters, digits, . _ ~ - and /, no . or .. segments' };
    return { transport: 'ssh', host: host.toLowerCase(), port: 22, user, path };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      error: 'not a repository address: use git@host:path, ssh://host/path or https://host/path',
    };
  }
  const transport = url.protocol === 'ssh:' ? 'ssh' : url.protocol === 'https:' ? 'https' : null;
  if (!transport)
    return { error: `${url.protocol.replace(/:$/, '')}:// is refused: use ssh:// or https://` };
  if (url.password || (transport === 'https' && url.username))
    return { error: 'no credentials in the address: give the token apart, it is stored sealed' };
  if (url.search || url.hash) return { error: 'no query or fragment in the address' };
  const host = url.hostname.toLowerCase();
  if (!HOST.test(host)) return { error: `${url.hostname} is not a host name` };
  // What git connects to is the text: its authority must be the one the URL parser read (a `\`
  // is `/` to the parser, not to curl, so `https://a.com\@b/x` would fetch from b).
  const defaultPort = transport === 'ssh' ? ':22' : ':443';
  const written = (/^[a-z]+:\/\/([^/]*)/i.exec(text)?.[1]?.toLowerCase() ?? '').replace(
    new RegExp(`${defaultPort}$`),
    '',
  );
  const read = `${url.username ? `${url.username}@` : ''}${host}${url.port ? `:${url.port}` : ''}`;
  if (written !== read.toLowerCase())
    return { error: `write the host plainly: ${written} is not read as ${read} by every client` };
  // The path as written: the URL parser would resolve `..` and decode `%2e` before it is seen.
  const path = checkedPath(/^[a-z]+:\/\/[^/]*(\/.*)?$/i.exec(text)?.[1] ?? '');
  if (!path) return { error: 'the path is letters, digits, . _ ~ - and /, no . or .. segments' };
  const user = transport === 'ssh' ? decodeURIComponent(url.username) || 'git' : null;
  if (user !== null && !USER.test(user)) return { error: 'the SSH user is letters, digits, . _ -' };
  const port = url.port ? Number(url.port) : transport === 'ssh' ? 22 : 443;
  return { transport, host, port, user, path };
}
