import { createParser } from 'eventsource-parser';

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  onComment?(comment: string): void;
}

/**
 * Reads a server-sent event response body (`text/event-stream`) until it ends or the signal
 * aborts, handing each event to `onEvent`. The parser is `eventsource-parser`.
 */
export async function readSse(res: Response, handlers: SseHandlers): Promise<void> {
  if (!res.body) return;
  const parser = createParser({
    onEvent: (e) => handlers.onEvent({ id: e.id, event: e.event, data: e.data }),
    onComment: (c) => handlers.onComment?.(c),
  });
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
