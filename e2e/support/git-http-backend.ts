import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * In `dir`: a test CA (ca.pem), and a certificate for IP 127.0.0.1 signed by it (cert.pem,
 * key.pem). P-256 keys, valid two days.
 */
export function testCertificates(dir: string): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'];
  openssl(
    ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=Test git CA'],
    dir,
  );
  openssl(
    [
      'req',
      '-x509',
      ...key,
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-subj',
      '/CN=127.0.0.1',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:FALSE',
    ],
    dir,
  );
}

export const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** Where the CGI header block ends: a blank line, CRLF or LF. */
function headerEnd(buffer: Buffer): { at: number; length: number } | null {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf === -1 && lf === -1) return null;
  if (lf === -1 || (crlf !== -1 && crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/** A request as the server saw it: never the password, only whether it was the token. */
export interface GitHttpRequest {
  /** `http` or `https`: which of the host's servers it reached. */
  scheme: 'http' | 'https';
  method: string;
  /** Path and query. */
  path: string;
  /** The basic-auth user name presented, or null when no basic credentials came. */
  user: string | null;
  /** Let in: no token required, or the right one presented. */
  authorized: boolean;
}

/**
 * git-http-backend as CGI behind a node:http server on a free loopback port (node:https with
 * `tls`'s key and certificate): the request body streamed to it, its CGI headers parsed and the
 * rest streamed back. With a token (read at each request), HTTP basic authentication whose
 * password is the token is required. Every request's path is appended to `requests`, and what
 * it presented to `log`.
 */
export async function startGitHttpBackend(
  reposDir: string,
  currentToken: () => string | null,
  requests: string[],
  options: { tls?: { key: string; cert: string }; log?: GitHttpRequest[] } = {},
): Promise<Server | HttpsServer> {
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push(req.url ?? '');
    let remoteUser: string | undefined;
    const token = currentToken();
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const decoded = /^basic$/i.test(scheme ?? '')
      ? Buffer.from(encoded ?? '', 'base64').toString('utf8')
      : '';
    const colon = decoded.indexOf(':');
    const authorized = token === null || (colon !== -1 && decoded.slice(colon + 1) === token);
    options.log?.push({
      scheme: options.tls ? 'https' : 'http',
      method: req.method ?? 'GET',
      path: req.url ?? '',
      user: colon === -1 ? null : decoded.slice(0, colon),
      authorized,
    });
    if (token !== null) {
      if (!authorized) {
        req.resume();
        res.writeHead(401, {
          'WWW-Authenticate': 'Basic realm="git"',
          'Content-Type': 'text/plain',
        });
        res.end('authentication required\n');
        return;
      }
      remoteUser = decoded.slice(0, colon) || 'token';
    }
    const url = new URL(req.url ?? '/', 'http://git-host');
    const cgiEnv: NodeJS.ProcessEnv = {
      PATH: '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: reposDir,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      ...(req.headers['content-type'] ? { CONTENT_TYPE: req.headers['content-type'] } : {}),
      // Unset for a chunked body: the backend then reads to the end of its input.
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      // git gzips larger requests; the backend inflates them when told.
      ...(req.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
        : {}),
      ...(typeof req.headers['git-protocol'] === 'string'
        ? { GIT_PROTOCOL: req.headers['git-protocol'] }
        : {}),
      ...(remoteUser ? { REMOTE_USER: remoteUser, AUTH_TYPE: 'Basic' } : {}),
    };
    const child = spawn(HTTP_BACKEND, [], { env: cgiEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The backend may answer (an error) before reading the whole body.
    child.stdin.on('error', () => undefined);
    req.pipe(child.stdin);
    const fail = (status: number, why: string) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(status, { 'Content-Type': 'text/plain' }).end(`${why}\n`);
    };
    child.on('error', (error) => fail(500, `git-http-backend: ${error.message}`));
    res.on('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = headerEnd(head);
      if (!end) return;
      child.stdout.off('data', onHead);
      child.stdout.off('end', onEndBeforeHead);
      child.stdout.pause();
      let status = 200;
      let statusMessage: string | undefined;
      const headers: Record<string, string | string[]> = {};
      for (const line of head.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const key = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (key.toLowerCase() === 'status') {
          status = Number.parseInt(value, 10);
          statusMessage = value.slice(String(status).length).trim() || undefined;
        } else {
          const previous = headers[key];
          headers[key] = previous === undefined ? value : [previous, value].flat();
        }
      }
      res.writeHead(status, statusMessage, headers);
      res.write(head.subarray(end.at + end.length));
      child.stdout.pipe(res);
    };
    const onEndBeforeHead = () => {
      child.once('close', (code) => fail(502, `git-http-backend exited ${code}: ${stderr}`));
    };
    child.stdout.on('data', onHead);
    child.stdout.once('end', onEndBeforeHead);
  };
  const http = options.tls ? createHttpsServer(options.tls, serve) : createServer(serve);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  return http;
}
