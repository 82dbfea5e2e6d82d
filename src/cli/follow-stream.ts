import type { ApiClient } from './api-client.js';
import { CliError } from './cli-error.js';
import { readSse, type SseEvent } from './sse-reader.js';

/** No byte (not even a heartbeat) for this long: the connection is taken for dead. */
const IDLE_MS = 60_000;
const MAX_RECONNECTS = 5;

/**
 * Follows a server-sent event stream until its `end` event, reconnecting after a dropped
 * connection with `Last-Event-ID` (the last id received), at most a few times in a row.
 * Returns the end event's data.
 */
export async function followStream(
  client: ApiClient,
  path: string,
  onEvent: (event: SseEvent) => void,
  resume = true,
): Promise<unknown> {
  let lastId: string | undefined;
  let failures = 0;
  for (;;) {
    const abort = new AbortController();
    let idle = setTimeout(() => abort.abort(), IDLE_MS);
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(), IDLE_MS);
    };
    let end: SseEvent | null = null;
    try {
      const res = await client.openStream(
        path,
        abort.signal,
        resume && lastId ? { 'Last-Event-ID': lastId } : {},
      );
      await readSse(res, {
        onEvent: (e) => {
          alive();
          failures = 0;
          if (e.id !== undefined) lastId = e.id;
          if (e.event === 'end') end = e;
          else onEvent(e);
        },
        onComment: alive,
      });
    } catch (error) {
      if (error instanceof CliError && error.code !== 'UNREACHABLE') throw error;
    } finally {
      clearTimeout(idle);
      abort.abort();
    }
    if (end) return endData((end as SseEvent).data);
    if (!resume || ++failures > MAX_RECONNECTS) {
      throw new CliError('STREAM_LOST', 'The stream ended before its end event');
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The end event's data; an end that names a refusal (`{reason, code}`: the credential was
 * revoked, invalidated or expired while the stream was open) fails like a refused request.
 */
function endData(raw: string): unknown {
  const data = JSON.parse(raw) as unknown;
  const { reason, code } = (data ?? {}) as { reason?: unknown; code?: unknown };
  if (typeof reason === 'string' && typeof code === 'string') {
    throw new CliError(code, `The stream ended: ${reason}`, { reason });
  }
  return data;
}
