import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';

export interface PostResult {
  statusCode: number;
}

/**
 * POSTs `body` to `url`, connecting only to `address` (checked by the caller against the
 * notification address policy), following no redirect, and giving up after `timeoutMs` in
 * all (connect, send, answer). Node's own HTTP client: TLS names and certificates are checked
 * against the URL's host as usual.
 */
export function postTo(
  url: URL,
  address: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const family = isIP(address) === 6 ? 6 : 4;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      signal: AbortSignal.timeout(timeoutMs),
    });
    req.on('response', (res) => {
      // The answer's body is not needed: read and dropped, so the socket can close.
      res.resume();
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', (error) => {
      reject(error.name === 'AbortError' ? new Error(`timed out after ${timeoutMs} ms`) : error);
    });
    req.end(body);
  });
}
