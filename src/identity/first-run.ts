import { Inject, Injectable } from '@nestjs/common';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

/**
 * Whether the team has its owner yet: the first account to sign up becomes it. Asked after the
 * start (the log's hint) and by the dashboard's first-run page, which is no secret: anyone may
 * sign up, and the first to do so is the owner whether or not they were told.
 */
@Injectable()
export class FirstRun {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionRunner,
  ) {}

  /** Waits for the principals read model to reach the store's head (SERVICE_UNAVAILABLE if not). */
  async ownerExists(): Promise<boolean> {
    await this.projections.waitFor(await this.events.headPosition(), ['principals']);
    return (await this.reads.collection('principals').count({ kind: 'user' })) > 0;
  }
}
