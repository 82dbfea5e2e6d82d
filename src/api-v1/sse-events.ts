import type { MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';

/** Characters of events that may wait for a client that does not read before it is dropped. */
export const MAX_PENDING_EVENT_CHARS = 1024 * 1024;

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
