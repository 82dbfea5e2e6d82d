import SuperJSON from 'superjson';
import type { Answer } from './answers.js';
import { PROCEDURES, type ProcedureInputs, type ProcedureName } from './contract.js';
import { errorFromAnswer, networkError, SlipwayError } from './slipway-error.js';

type MethodOf<N extends ProcedureName> = (typeof PROCEDURES)[N]['method'];

/** The procedures read with GET: reads and plans. */
export type QueryName = {
  [N in ProcedureName]: MethodOf<N> extends 'GET' ? N : never;
}[ProcedureName];

/** The procedures sent with POST: commands. */
export type MutationName = Exclude<ProcedureName, QueryName>;

/** No argument for a procedure without input; optional when every field is. */
export type InputArgs<N extends ProcedureName> = ProcedureInputs[N] extends undefined
  ? []
  : Record<never, never> extends ProcedureInputs[N]
    ? [input?: ProcedureInputs[N]]
    : [input: ProcedureInputs[N]];

/** A command's input, then its options. */
export type MutateArgs<N extends ProcedureName> = ProcedureInputs[N] extends undefined
  ? [input?: undefined, options?: MutationOptions]
  : Record<never, never> extends ProcedureInputs[N]
    ? [input?: ProcedureInputs[N], options?: MutationOptions]
    : [input: ProcedureInputs[N], options?: MutationOptions];

export interface SlipwayClientOptions {
  /** Where Slipway answers (`https://slipway.example.com`); empty: the page's own origin. */
  baseUrl?: string;
  /** An API token (`slw_…`), sent as `Authorization: Bearer`. Without one: the session cookie. */
  token?: string;
  /** Extra headers on every call (a CLI's session cookie, say). */
  headers?: Record<string, string>;
  /** Revive answers with superjson (Dates as Dates; default), or keep them as JSON has them. */
  revive?: boolean;
  /** How long a call may take, in milliseconds (default 60,000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface MutationOptions {
  /** `Idempotency-Key`: a retried command with the same key answers as the first did. */
  idempotencyKey?: string;
}

/**
 * Slipway's procedures, typed from the contract: each call takes the input the server
 * validates and resolves with the answer its declaration names, or rejects with a
 * `SlipwayError` whose `code` is the API's string code. One HTTP request per call (the API does
 * not batch), in the wire format the contract's conventions state.
 */
export class SlipwayClient {
  private readonly baseUrl: string;
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: SlipwayClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** A read or planning procedure (GET), by name. */
  query<N extends QueryName>(name: N, ...input: InputArgs<N>): Promise<Answer<N>> {
    return this.call(name, input[0]) as Promise<Answer<N>>;
  }

  /** A command procedure (POST), by name. */
  mutate<N extends MutationName>(name: N, ...args: MutateArgs<N>): Promise<Answer<N>> {
    const [input, options] = args;
    return this.call(name, input ?? {}, options) as Promise<Answer<N>>;
  }

  /**
   * Any procedure by name, untyped: for callers that hold names at run time (a CLI's command
   * table). Its method is the contract's.
   */
  async call(name: string, input?: unknown, options: MutationOptions = {}): Promise<unknown> {
    const method = (PROCEDURES as Record<string, { method: string }>)[name]?.method ?? 'POST';
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(this.options.token ? { Authorization: `Bearer ${this.options.token}` } : {}),
      ...this.options.headers,
    };
    let url = `${this.baseUrl}/trpc/${encodeURIComponent(name)}`;
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (method === 'GET') {
      if (input !== undefined)
        url += `?input=${encodeURIComponent(JSON.stringify(SuperJSON.serialize(input)))}`;
    } else {
      headers['Content-Type'] = 'application/json';
      if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
      init.body = JSON.stringify(SuperJSON.serialize(input ?? {}));
    }
    let res: Response;
    try {
      res = await this.fetcher(url, {
        ...init,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw networkError(error);
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) throw errorFromAnswer(res.status, body, res.headers.get('retry-after'));
    const data = (body as { result?: { data?: { json: unknown; meta?: unknown } } } | null)?.result
      ?.data;
    if (!data || !('json' in data))
      throw new SlipwayError(res.status, 'UNKNOWN', 'The answer is not a procedure answer');
    if (this.options.revive === false) return data.json;
    return SuperJSON.deserialize(data as Parameters<typeof SuperJSON.deserialize>[0]);
  }
}
