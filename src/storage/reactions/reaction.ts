import type { IEventHandler } from '@nestjs/cqrs';
import type { CommittedEvent } from '../../eventstore/committed-event.js';

/**
 * An `@EventsHandler` the reaction feed waits for: the feed moves its checkpoint past an event
 * only once every reaction to it finished, and delivers the event again (to every handler of
 * its type) when one failed. So a reaction runs at least once and must be safe to repeat: an
 * effect that must happen once is decided on its stream, not here. Keep reactions in the
 * default (singleton) scope: the bus calls those while it publishes, which is what lets the feed
 * collect their work.
 */
export abstract class Reaction<E extends CommittedEvent> implements IEventHandler<E> {
  handle(event: E): void {
    event.track(this.react(event));
  }

  protected abstract react(event: E): Promise<void>;
}
