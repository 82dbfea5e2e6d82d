import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { SlipwayClient, SlipwayError, type MutationOptions } from '../../client/src/index.js';
import { CliError } from './cli-error.js';
import { checkedServerUrl } from './server-address.js';

export interface Connection {
  url: string;
  credential: string | null;
}

interface ErrorBody {
  error?: { code?: string; message?: string; data?: Record<string, unknown> };
}

/** Calls Slipway: `slw_` tokens as `Authorization: Bearer`, anything else as the session cookie. */
export class ApiClient {
  private readonly slipway: SlipwayClient;

  constructor(readonly connection: Connection) {
    checkedServerUrl(connection.url);
    // Answers stay as JSON has them (dates as ISO strings), as the CLI prints them.
    this.slipway = new SlipwayClient({
      baseUrl: connection.url,
      headers: this.headers(),
      revive: false,
    });
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const { credential } = this.connection;
    const auth: Record<string, string> = !credential
      ? {}
      : credential.startsWith('slw_')
        ? { Authorization: `Bearer ${credential}` }
        : { Cookie: `slipway_session=${credential}` };
    return { Accept: 'application/json', ...auth, ...extra };
  }

  /** A read or plan, by name, through the typed client (answers as JSON has them). */
  query<T>(name: string, input?: unknown): Promise<T> {
    return this.procedure<T>(name, input);
  }

  /** A command, by name, through the typed client. */
  mutation<T>(name: string, input: unknown, options: MutationOptions = {}): Promise<T> {
    return this.procedure<T>(name, input, options);
  }

  private async procedure<T>(name: string, input: unknown, options?: MutationOptions) {
    try {
      return (await this.slipway.call(name, input, options)) as T;
    } catch (error) {
      if (!(error instanceof SlipwayError)) throw error;
      if (error.code === 'NETWORK')
        throw new CliError('UNREACHABLE', `Cannot reach ${this.connection.url}: ${error.message}`);
      throw new CliError(
        error.code === 'UNKNOWN' ? `HTTP_${error.status}` : error.code,
        error.message,
        error.data,
      );
    }
  }

  /** A REST call (e.g. /api/auth/login); returns body and the session cookie it set, if any. */
  async rest<T>(path: string, body: unknown): Promise<{ body: T; session: string | null }> {
    const res = await this.send(path, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
    });
    const parsed = (await this.parse(res)) as T;
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('slipway_session='));
    return {
      body: parsed,
      session: cookie ? cookie.split(';')[0].slice('slipway_session='.length) : null,
    };
  }

  /** A JSON call to a REST route under /api/v1 (its answer is the body itself). */
  async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.headers = this.headers({ 'Content-Type': 'application/json', ...headers });
      init.body = JSON.stringify(body);
    }
    return (await this.parse(await this.send(path, init, 600_000))) as T;
  }

  /**
   * PUTs a stream (never held whole in memory) to a REST route; `onBytes` hears of every chunk
   * sent, for progress. A long transfer may last up to an hour.
   */
  async upload<T>(
    path: string,
    body: Readable,
    contentType: string,
    onBytes: (sent: number) => void,
  ): Promise<T> {
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        onBytes(sent);
        done(null, chunk);
      },
    });
    body.on('error', (e) => counter.destroy(e));
    const res = await this.send(
      path,
      {
        method: 'PUT',
        headers: this.headers({ 'Content-Type': contentType }),
        body: Readable.toWeb(body.pipe(counter)) as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit,
      3_600_000,
    );
    return (await this.parse(res)) as T;
  }

  /** Streams a GET response body into `file` (never held whole in memory); returns bytes. */
  async download(path: string, file: string): Promise<number> {
    // A large export takes a while: the whole transfer may last up to an hour.
    const res = await this.send(
      path,
      { method: 'GET', headers: this.headers({ Accept: '*/*' }) },
      3_600_000,
    );
    if (!res.ok || !res.body) await this.parse(res);
    const out = createWriteStream(file, { mode: 0o600 });
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), counter, out);
    return bytes;
  }

  /** A REST GET answered with JSON (e.g. /api/v1/services/{id}/status). */
  async get<T>(path: string): Promise<T> {
    return (await this.parse(
      await this.send(path, { method: 'GET', headers: this.headers() }),
    )) as T;
  }

  /**
   * Opens a server-sent event stream (a GET answered with text/event-stream). An error answer
   * is thrown as CliError; the caller reads the body and aborts `signal` to close it.
   */
  async openStream(
    path: string,
    signal: AbortSignal,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.connection.url), {
        method: 'GET',
        headers: this.headers({ Accept: 'text/event-stream', ...headers }),
        signal,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CliError('UNREACHABLE', `Cannot reach ${this.connection.url}: ${reason}`);
    }
    if (!res.ok || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await this.parse(res);
    }
    return res;
  }

  private async send(path: string, init: RequestInit, timeoutMs = 60_000): Promise<Response> {
    try {
      return await fetch(new URL(path, this.connection.url), {
        ...init,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      throw new CliError('UNREACHABLE', `Cannot reach ${this.connection.url}: ${reason}`);
    }
  }

  private async parse(res: Response) {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CliError('BAD_RESPONSE', `Unexpected answer from the server (HTTP ${res.status})`);
    }
    if (!res.ok) {
      const error = (body as ErrorBody).error ?? {};
      throw new CliError(
        error.code ?? `HTTP_${res.status}`,
        error.message ?? `HTTP ${res.status}`,
        error.data ?? {},
      );
    }
    return body;
  }
}
