import { createReadStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';
import { connectPinned, type SshTarget } from '../deployments/reach/ssh-connect.js';
import { commandLine } from './shell-quote.js';

export interface ExecOptions {
  /** Written to the command's standard input, then closed (text, or a binary artifact). */
  stdin?: string | Buffer;
  /** Piped to the remote command's stdin instead (a `docker load` tarball); errors abort. */
  stdinStream?: Readable;
  onLine(stream: 'stdout' | 'stderr', text: string): void;
  /** Raw stdout bytes go here instead of being split into lines (binary artifacts). */
  onStdoutData?: (chunk: Buffer) => void;
  /** Or piped here, at the pace it takes them (an image on its way to another server). */
  stdoutStream?: Writable;
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
    return new SshSession(await connectPinned(target, timeoutMs));
  }

  /** Runs an argument vector (each argument quoted), streaming output line by line. */
  exec(args: string[], options: ExecOptions): Promise<ExecResult> {
    // Aborted already (the caller left while the connection was made): run nothing, as an
    // abort listener added now would never fire and the command would run to its own end.
    if (options.signal?.aborted) return Promise.resolve({ code: null, signal: 'TERM' });
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
        // Aborted while the channel was opening: the listener above came too late to hear it.
        if (options.signal?.aborted) {
          abort();
          return;
        }
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
        if (options.stdoutStream) channel.pipe(options.stdoutStream);
        else
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
        if (options.stdinStream) {
          pipeline(options.stdinStream, channel).catch((e: unknown) => {
            if (settled) return;
            settled = true;
            options.signal?.removeEventListener('abort', abort);
            channel.signal('TERM');
            channel.close();
            reject(e instanceof Error ? e : new Error(String(e)));
          });
        } else if (options.stdin !== undefined) channel.end(options.stdin);
        else channel.end();
      });
    });
  }

  /** Copies a local file to `remotePath` over SFTP (created with mode 0600); the bytes sent. */
  async upload(localPath: string, remotePath: string, signal?: AbortSignal): Promise<number> {
    return this.withSftp(async (sftp) => {
      let bytes = 0;
      const source = createReadStream(localPath);
      source.on('data', (chunk) => (bytes += chunk.length));
      await pipeline(source, sftp.createWriteStream(remotePath, { mode: 0o600 }), { signal });
      return bytes;
    });
  }

  /** Reads `remotePath` over SFTP, chunk by chunk, into `onChunk`. */
  async download(remotePath: string, onChunk: (chunk: Buffer) => void): Promise<void> {
    await this.withSftp(
      (sftp) =>
        new Promise<void>((resolve, reject) => {
          const source = sftp.createReadStream(remotePath);
          source.on('data', (chunk: Buffer) => onChunk(chunk));
          source.on('error', reject);
          source.on('end', () => resolve());
        }),
    );
  }

  /** Makes `dir` and its parents over SFTP (mode 0700), as `mkdir -p` would. */
  async makeDirectories(dir: string): Promise<void> {
    await this.withSftp(async (sftp) => {
      const parts = dir.split('/').filter(Boolean);
      let path = dir.startsWith('/') ? '' : '.';
      for (const part of parts) {
        path = `${path}/${part}`;
        const exists = await new Promise<boolean>((resolve) =>
          sftp.stat(path, (error) => resolve(!error)),
        );
        if (exists) continue;
        await new Promise<void>((resolve, reject) =>
          sftp.mkdir(path, { mode: 0o700 }, (error) => (error ? reject(error) : resolve())),
        );
      }
    });
  }

  /** Deletes `remotePath` over SFTP; a file already gone is not an error. */
  async remove(remotePath: string): Promise<void> {
    await this.withSftp(
      (sftp) => new Promise<void>((resolve) => sftp.unlink(remotePath, () => resolve())),
    );
  }

  private async withSftp<T>(use: (sftp: SFTPWrapper) => Promise<T>): Promise<T> {
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
      this.client.sftp((error, wrapper) => (error ? reject(error) : resolve(wrapper))),
    );
    try {
      return await use(sftp);
    } finally {
      sftp.end();
    }
  }

  close(): void {
    this.client.end();
  }
}
