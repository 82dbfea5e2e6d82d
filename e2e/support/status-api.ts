import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALLOW_LOOPBACK } from './sshd.js';

export interface RecordedStatus {
  path: string;
  authorization: string | undefined;
  body: { state: string; target_url: string; description: string; context: string };
}

export interface StatusApi {
  server: Server;
  url: string;
  seen: RecordedStatus[];
  /** The notifications' address policy that lets Slipway reach it (it is on loopback). */
  policy: typeof ALLOW_LOOPBACK;
}

/** Stands in for a provider's API (which cannot be reached from here): records each status set. */
export async function startStatusApi(): Promise<StatusApi> {
  const seen: RecordedStatus[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(body) as RecordedStatus['body'],
      });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, seen, policy: ALLOW_LOOPBACK };
}
