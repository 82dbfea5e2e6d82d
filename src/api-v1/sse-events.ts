import type { MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { CredentialLease } from '../access/credential-watch.js';

/** Characters of events that may wait for a client that does not read before it is dropped. */
export const MAX_PENDING_EVENT_CHARS = 1024 * 1024;

/** How the OpenAPI document names the header a reconnecting EventSource sends. */
export const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  description: 'The id of the last event received: the stream resumes after it',
} as const;

/** The resume point a reconnecting client sent: `Last-Event-ID`, a line number. */
export function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^\d{1,10}$/.test(header) || Number(header) > 1e9) {
    return Number.NaN;
  }
  return Number(header);
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
