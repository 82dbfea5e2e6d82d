import { Inject, Injectable } from '@nestjs/common';
import { metadataFor, type RequestContext } from '../kernel/request-context.js';
import { PersonalData } from '../privacy/personal-data.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import {
  EVENT_STORE,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
} from '../eventstore/event-store.port.js';
import { appended } from './append-count.js';
import { READ_MODELS, type ReadModels } from './read-models.js';

/** Events decided for one request, recorded with its audit metadata. */
export interface AppendPart {
  events: PendingEvent[];
  ctx: RequestContext;
}

/**
 * How command handlers record facts: events get the request's audit metadata, are appended
 * with the expected revision, and the call returns only when the read models they affect
 * include them.
 */
@Injectable()
export class EventWriter {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly personal: PersonalData,
  ) {}

  async append(
    stream: string,
    events: PendingEvent[],
    expected: ExpectedRevision,
    ctx: RequestContext,
    /** Called once the events are durable, before waiting for the read models. */
    onStored?: () => void,
  ): Promise<AppendResult> {
    const result = await this.appendParts(stream, [{ events, ctx }], expected, onStored);
    appended(events.length);
    return result;
  }

  /**
   * Events of several requests (each with its own audit metadata) in one append. Not counted
   * for `countingAppends`: the caller counts each request's own (see DeciderRunner).
   */
  async appendParts(
    stream: string,
    parts: AppendPart[],
    expected: ExpectedRevision,
    onStored?: () => void,
  ): Promise<AppendResult> {
    const sealed = await Promise.all(parts.map(({ ctx }) => this.metadata(ctx)));
    const events = parts.flatMap(({ events }, i) =>
      events.map((e) => ({ ...e, metadata: sealed[i] })),
    );
    const result = await this.store.append(stream, events, expected);
    onStored?.();
    // Read-your-writes for the read models these events change; the others may lag.
    await this.readModels.caughtUp(result.lastPosition, new Set(events.map((e) => e.type)));
    return result;
  }

  private async metadata(ctx: RequestContext) {
    const metadata = metadataFor(ctx);
    const address = metadata.clientAddress;
    if (typeof address === 'string') {
      const subject = this.personal.addressSubject(metadata.actor.kind, metadata.actor.principalId);
      metadata.clientAddress = await this.personal.protect(subject, address);
    }
    return metadata;
  }
}
