import { ProjectionRunner } from '../../projections/projection-runner.js';
import type { PendingEvent } from '../../src/eventstore/define-event.js';
import { systemMetadata } from '../../src/eventstore/event-metadata.js';
import { EVENT_STORE, type EventStore } from '../../src/eventstore/event-store.port.js';
import type { TestApp } from './test-app.js';

/**
 * Given: history appended straight to the app's event store (as the system), stream by stream
 * in the order given, and every read model caught up with it. Much faster than reaching the
 * same state through commands, for tests of what procedures answer about a history.
 */
export async function seed(t: TestApp, history: [stream: string, events: PendingEvent[]][]) {
  const store = t.app.get<EventStore>(EVENT_STORE);
  for (const [stream, events] of history) {
    await store.append(
      stream,
      events.map((e) => ({ ...e, metadata: systemMetadata() })),
      'any',
    );
  }
  await t.app.get(ProjectionRunner).waitFor(await store.headPosition());
}
