import type { Client, ClientChannel } from 'ssh2';
import { fingerprintOf } from './host-key.js';
import { commandLine } from './shell-quote.js';

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

export interface ExecOptions {
  stdin?: string;
  onLine(stream: 'stdout' | 'stderr', text: string): void;
  /** Raw stdout bytes go here instead of being split into lines (binary artifacts). */
  onStdoutData?: (chunk: Buffer) => void;
  /** Aborting signals the remote command (TERM) and closes the channel. */
  signal?: AbortSignal;
}

export interface ExecResult {
  code: number | null;
  signal: string | null;
}

/** One SSH connection to a registered server, host key verified against the pinned one. */
export class SshSession {
  private constructor(private readonly client: Client) {}

  static async connect(target: SshTarget, timeoutMs = 15_000): Promise<SshSession> {
    // Loaded on first use: the API process should not pay for ssh2 at start-up.
    const { Client: SshClient } = await import('ssh2');
    return new Promise((resolve, reject) => {
      const client = new SshClient();
      let mismatch: HostKeyMismatchError | null = null;
      client
        .on('ready', () => resolve(new SshSession(client)))
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

  /** Runs an argument vector (each argument quoted), streaming output line by line. */
  exec(args: string[], options: ExecOptions): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      this.client.exec(commandLine(args), (error, channel: ClientChannel) => {
        if (error) return reject(error);
        let settled = false;
        const settle = (result: ExecResult) => {
          if (settled) return;
          settled = true;
          options.signal?.removeEventListener('abort', abort);
          resolve(result);
        };
        // Signal the remote command and stop waiting for it: the caller moves on at once.
        const abort = () => {
          channel.signal('TERM');
          channel.close();
          settle({ code: null, signal: 'TERM' });
        };
        options.signal?.addEventListener('abort', abort, { once: true });
        const splitter = (stream: 'stdout' | 'stderr') => {
          let rest = '';
          return {
            push: (chunk: Buffer) => {
              rest += chunk.toString('utf8');
              const lines = rest.split('\n');
              rest = lines.pop() ?? '';
              for (const line of lines) options.onLine(stream, line.replace(/\r$/, ''));
            },
            flush: () => {
              if (rest) options.onLine(stream, rest);
              rest = '';
            },
          };
        };
        const out = splitter('stdout');
        const err = splitter('stderr');
        let result: ExecResult = { code: null, signal: null };
        channel.on('data', (c: Buffer) =>
          options.onStdoutData ? options.onStdoutData(c) : out.push(c),
        );
        channel.stderr.on('data', (c: Buffer) => err.push(c));
        channel.on('exit', (code: number | null, signal?: string) => {
          result = { code: code ?? null, signal: signal ?? null };
        });
        channel.on('close', () => {
          out.flush();
          err.flush();
          settle(options.signal?.aborted ? { code: null, signal: 'TERM' } : result);
        });
        if (options.stdin !== undefined) channel.end(options.stdin);
        else channel.end();
      });
    });
  }

  close(): void {
    this.client.end();
  }
}

/** The SSH target of a registered server, its private key unsealed for this connection only. */
export function sshTargetOf(
  server: {
    host: string;
    sshPort: number;
    sshUser: string;
    credentialCiphertext: string;
    hostKeyFingerprint: string;
  },
  unseal: (ciphertext: string) => string,
): SshTarget {
  return {
    host: server.host,
    port: server.sshPort,
    username: server.sshUser,
    privateKey: unseal(server.credentialCiphertext),
    hostKeyFingerprint: server.hostKeyFingerprint,
  };
}
