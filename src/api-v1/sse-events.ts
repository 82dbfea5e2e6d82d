import type { MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import type { CredentialLease } from '../access/credential-watch.js';
import { badRequest } from '../common/app-error.js';

/** Characters of events that may wait for a client that does not read before it is dropped. */
export const MAX_PENDING_EVENT_CHARS = 1024 * 1024;

/** How the OpenAPI document names the header a reconnecting EventSource sends. */
export const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  description:
    'The id of the last event received: the stream resumes after it (`end`: it ended, 204)',
} as const;

/**
 * The id of a stream's closing `end` event. A client that reconnects anyway (an EventSource
 * reconnects after every close) sends it back as `Last-Event-ID` and is answered `204 No
 * Content`, which tells an EventSource to stop; the event's `retry` asks it to wait a day first.
 */
export const END_EVENT_ID = 'end';
const END_RETRY_MS = 86_400_000;

/** The closing event of a stream that has nothing more to send. */
export function endEvent(data: unknown): MessageEvent {
  return { type: 'end', id: END_EVENT_ID, retry: END_RETRY_MS, data: JSON.stringify(data) };
}

/**
 * A reconnect after the stream's end: answered `204 No Content` at once (nothing runs, nothing
 * is read), and true. Nest sends nothing more on a response that has ended.
 */
export function answeredEnded(req: Request): boolean {
  if (req.headers['last-event-id'] !== END_EVENT_ID || !req.res) return false;
  req.res.status(204).end();
  return true;
}

/** The resume point a reconnecting client sent: `Last-Event-ID`, a line number. */
export function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^\d{1,10}$/.test(header) || Number(header) > 1e9) {
    return Number.NaN;
  }
  return Number(header);
}

/**
 * The line a log stream resumes after: its `Last-Event-ID` (what an `EventSource` sends on
 * reconnecting) over `?after=`, else 0; a Last-Event-ID that is not a line number is a 400.
 */
export function resumeAfter(req: Request, after: number | undefined): number {
  const resume = lastEventId(req.headers['last-event-id']);
  if (Number.isNaN(resume)) {
    throw badRequest('Last-Event-ID must be a line number', [
      { path: 'Last-Event-ID', message: 'must be an integer from 0 to 1000000000' },
    ]);
  }
  return resume ?? after ?? 0;
}

/** Adds a `: ping` comment every `heartbeatMs` to a stream of events. */
export function withHeartbeat(
  events: Observable<MessageEvent>,
  heartbeatMs: number,
): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    const ping = setInterval(() => subscriber.next({ comment: 'ping' }), heartbeatMs);
    const inner = events.subscribe(subscriber);
    return () => {
      clearInterval(ping);
      inner.unsubscribe();
    };
  });
}

/**
 * Ends a stream when its credential does (see CredentialWatch): the producer is stopped first
 * (a followed log, a remote command), then an `end` event says why, `{reason, code}`, and the
 * stream closes. The watch is released however the stream ends.
 */
export function untilCredentialEnds(
  events: Observable<MessageEvent>,
  lease: CredentialLease,
): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    // An observer of its own: given the subscriber itself, `inner` would be that subscriber,
    // and unsubscribing it would close the stream before the end event could be sent.
    const inner = events.subscribe({
      next: (event) => subscriber.next(event),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    const end = () => {
      inner.unsubscribe();
      subscriber.next({ type: 'end', data: JSON.stringify(lease.ended) });
      subscriber.complete();
    };
    if (lease.signal.aborted) end();
    else lease.signal.addEventListener('abort', end, { once: true });
    return () => {
      lease.signal.removeEventListener('abort', end);
      inner.unsubscribe();
      lease.stop();
    };
  });
}
