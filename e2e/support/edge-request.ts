import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface EdgeAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** The SHA-256 fingerprint of the certificate an HTTPS answer came with. */
  peer?: string;
}

/**
 * One request through an edge proxy published on 127.0.0.1 (`port`), for `host` (SNI too):
 * status, headers and body, or status 0 and why there was none. Over HTTPS the certificate must
 * chain to `ca` when given.
 */
export function edgeRequest(options: {
  scheme: 'http' | 'https';
  port: number;
  host: string;
  path: string;
  ca?: string;
}): Promise<EdgeAnswer> {
  const { scheme, port, host, path, ca } = options;
  return new Promise((resolve) => {
    const settings = {
      host: '127.0.0.1',
      port,
      path,
      headers: { Host: host },
      servername: host,
      ca,
      timeout: 5000,
      agent: false as const,
    };
    const req = (scheme === 'https' ? httpsRequest : httpRequest)(settings, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        const socket = res.socket as { getPeerCertificate?: () => { fingerprint256: string } };
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: body.trim(),
          peer: socket.getPeerCertificate?.().fingerprint256,
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ status: 0, headers: {}, body: error.message }));
    req.end();
  });
}

/** Polls `check` every 250 ms for at most `ms`. */
export async function until<T>(check: () => Promise<T | undefined>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
