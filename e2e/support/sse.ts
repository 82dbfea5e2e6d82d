import { readSse, type SseEvent } from '../../src/cli/sse-reader.js';

/** A server-sent event stream opened by a test: what arrived so far, and waits on it. */
export interface SseStream {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  comments: string[];
  /** Resolves once the server ended the stream (or it was closed). */
  ended: Promise<void>;
  /** The first event (from the start) that matches, within `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const ended = readSse(res, {
    onEvent: (e) => {
      events.push(e);
      for (const l of listeners) l();
    },
    onComment: (c) => {
      comments.push(c);
      for (const l of listeners) l();
    },
  })
    .catch(() => undefined)
    .finally(() => {
      for (const l of listeners) l();
    });
  let over = false;
  void ended.then(() => (over = true));
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended,
    close: () => abort.abort(),
    waitFor: (match, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found || over) {
            listeners.delete(check);
            clearTimeout(timer);
            if (found) resolve(found);
            else reject(new Error('stream ended without the expected event'));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
