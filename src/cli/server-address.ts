import { isIP } from 'node:net';
import { CliError } from './cli-error.js';

/** Whether a host name is this machine (a plain-http URL to it never crosses a network). */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The server address a credential (or a password) may be sent to: https, or http to this
 * machine only, unless SLIPWAY_ALLOW_HTTP=true says the network between is trusted. Plain http
 * elsewhere shows the token, session or password to everyone on the path.
 */
export function checkedServerUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError('BAD_USAGE', `Not a server address: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol === 'https:') return url;
  if (parsed.protocol !== 'http:')
    throw new CliError('BAD_USAGE', 'The server address starts with https:// (or http://)');
  if (isLoopback(parsed.hostname) || process.env.SLIPWAY_ALLOW_HTTP === 'true') return url;
  throw new CliError(
    'INSECURE_URL',
    `Refusing to send credentials over plain http to ${parsed.host}: use https://, or set SLIPWAY_ALLOW_HTTP=true if the network between is yours`,
  );
}

/** Two addresses name the same server (scheme, host and port). */
export function sameServer(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
