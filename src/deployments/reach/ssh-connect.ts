import type { Client } from 'ssh2';
import { fingerprintOf, hostKeyType } from './host-key.js';

export interface SshTarget {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** The pinned fingerprint; any other host key is refused before authentication. */
  hostKeyFingerprint: string;
}

export class HostKeyMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly presented: string,
  ) {
    super(`host key ${presented} does not match the pinned ${expected}; refused to connect`);
    this.name = 'HostKeyMismatchError';
  }
}

/** Loaded on first use: the API process should not pay for ssh2 at start-up. */
async function newClient(): Promise<Client> {
  const { Client: SshClient } = await import('ssh2');
  return new SshClient();
}

/**
 * Connects and authenticates with the target's key. The host key must match the pinned
 * fingerprint, or the connection is refused before authentication (HostKeyMismatchError).
 * `timeoutMs` bounds everything up to an authenticated session.
 */
export async function connectPinned(target: SshTarget, timeoutMs: number): Promise<Client> {
  const client = await newClient();
  return new Promise((resolve, reject) => {
    let mismatch: HostKeyMismatchError | null = null;
    client
      .on('ready', () => resolve(client))
      .on('error', (error) => reject(mismatch ?? error))
      .connect({
        host: target.host,
        port: target.port,
        username: target.username,
        privateKey: target.privateKey,
        readyTimeout: timeoutMs,
        hostVerifier: (key: Buffer) => {
          const presented = fingerprintOf(key);
          if (presented === target.hostKeyFingerprint) return true;
          mismatch = new HostKeyMismatchError(target.hostKeyFingerprint, presented);
          return false;
        },
      });
  });
}

export interface PresentedHostKey {
  fingerprint: string;
  keyType: string | null;
}

/**
 * Runs the SSH key exchange with `address:port` and hangs up before authentication: no user
 * name that exists, no key, nothing run. The key exchange completing proves the server holds
 * the private half of the host key it presented. With `pinned`, any other key is refused
 * (HostKeyMismatchError); without, the key is taken as presented (a scan, to be approved).
 *
 * The key is the one ssh2 negotiates with its default algorithms, which is the one every later
 * connection (deployments, backups, checks) will be shown: a fingerprint pinned from this
 * matches them, where one of several keys listed by ssh-keyscan might not.
 */
export async function exchangeHostKey(
  address: string,
  port: number,
  pinned: string | null,
  timeoutMs: number,
): Promise<PresentedHostKey> {
  const client = await newClient();
  return new Promise((resolve, reject) => {
    let presented: PresentedHostKey | null = null;
    let mismatch: HostKeyMismatchError | null = null;
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.destroy();
      if (error) reject(error);
      else resolve(presented!);
    };
    // ssh2's readyTimeout waits for authentication, which never comes: this bounds the exchange.
    const timer = setTimeout(() => {
      const error = new Error('Timed out while waiting for handshake') as Error & {
        level?: string;
      };
      error.level = 'client-timeout';
      settle(error);
    }, timeoutMs);
    client
      .on('handshake', () => settle(null))
      .on('error', (error) => settle(mismatch ?? error))
      .on('close', () => settle(mismatch ?? new Error('Connection lost before handshake')))
      .connect({
        host: address,
        port,
        username: 'slipway-keyscan',
        readyTimeout: timeoutMs,
        hostVerifier: (key: Buffer) => {
          presented = { fingerprint: fingerprintOf(key), keyType: hostKeyType(key) };
          if (pinned === null || presented.fingerprint === pinned) return true;
          mismatch = new HostKeyMismatchError(pinned, presented.fingerprint);
          return false;
        },
      });
  });
}
