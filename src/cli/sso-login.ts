import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from './api-client.js';
import { CliError } from './cli-error.js';
import { escapeControls } from './terminal-text.js';

const PAGE = (message: string) =>
  `<!doctype html><meta charset="utf-8"><title>Slipway</title><p>${message}</p>`;

/** What came back to the listener: the sealed hand-off, or the reason the sign-in was refused. */
type Callback = { handoff: string } | { error: string };

function waitForCallback(server: Server, timeoutMs: number): Promise<Callback> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new CliError('SSO_TIMEOUT', 'No sign-in came back in time; run the command again')),
      timeoutMs,
    );
    timer.unref();
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.statusCode = 404;
        res.end();
        return;
      }
      const handoff = url.searchParams.get('handoff');
      const error = url.searchParams.get('error');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(
        PAGE(
          handoff
            ? 'Signed in to Slipway. You can close this window and go back to the terminal.'
            : 'The sign-in was refused. The terminal says why.',
        ),
      );
      clearTimeout(timer);
      if (handoff) resolve({ handoff });
      else resolve({ error: (error ?? 'unknown').slice(0, 64) });
    });
  });
}

/**
 * `slipway login --sso <provider>`: a listener on a loopback port takes the provider's answer
 * back from the browser (RFC 8252's loopback redirect). The session comes sealed and opens only
 * with the PKCE verifier kept here, so a program that catches the redirect gets nothing.
 */
export async function ssoSession(
  url: string,
  providerId: string,
  timeoutMs: number,
): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const start = new URL(`/api/auth/sso/${encodeURIComponent(providerId)}/start`, url);
    start.search = new URLSearchParams({
      cliPort: String(port),
      cliChallenge: challenge,
    }).toString();
    process.stderr.write(
      `Open this address in a browser to sign in through ${escapeControls(providerId)}:\n${start.href}\n`,
    );
    const answer = await waitForCallback(server, timeoutMs);
    if ('error' in answer) {
      throw new CliError(
        'SSO_REFUSED',
        `The sign-in was refused: ${escapeControls(answer.error)}`,
        {
          reason: answer.error,
        },
      );
    }
    const anon = new ApiClient({ url, credential: null });
    const { session } = await anon.rest('/api/auth/sso/cli-session', {
      handoff: answer.handoff,
      verifier,
    });
    if (!session) throw new CliError('BAD_RESPONSE', 'The server set no session');
    return session;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
