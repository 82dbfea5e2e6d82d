import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { CqrsModule, EventsHandler } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import type { CommittedEventOf } from '../../eventstore/committed-event.js';
import { defineEvent } from '../../eventstore/define-event.js';
import { EVENT_STORE } from '../../eventstore/event-store.port.js';
import { SqliteEventStore } from '../../eventstore/sqlite/sqlite-event-store.js';
import { testMetadata } from '../../eventstore/testing/test-events.js';
import { PRIMARY_STORE } from '../../readstore/read-store.port.js';
import { SqliteReadStore } from '../../readstore/sqlite/sqlite-read-store.js';
import { Reaction } from './reaction.js';
import { ReactionCheckpoints } from './reaction-checkpoints.js';
import { REACTION_CONSUMER, ReactionFeed } from './reaction-feed.js';

// Version 2 reads version 1 events (`count`) in the current shape (`n`).
const Ticked = defineEvent<{ n: number }>('FeedTicked', 2, (data) => ({ n: Number(data.count) }));
const Unrelated = defineEvent<{ note: string }>('FeedUnrelated', 1);
type TickedEvent = CommittedEventOf<typeof Ticked>;

/** What the test's reaction does with each event: by default, record it. */
let behaviour: (event: TickedEvent) => Promise<void>;
const seen: number[] = [];

@EventsHandler(Ticked.Committed)
class RecordTicks extends Reaction<TickedEvent> {
  protected react(event: TickedEvent): Promise<void> {
    return behaviour(event);
  }
}

/** Resolves once `check` holds, polling briefly; fails after a generous bound. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

describe('ReactionFeed: the event log onto the EventBus, from a stored checkpoint', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let app: INestApplicationContext | null;

  const tick = async (n: number) =>
    (await events.append('ticks', [{ ...Ticked({ n }), metadata: testMetadata }], 'any'))
      .lastPosition;
  const checkpoint = () => new ReactionCheckpoints(reads).position('test');
  const start = async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: EVENT_STORE, useValue: events },
        { provide: PRIMARY_STORE, useValue: reads },
        { provide: REACTION_CONSUMER, useValue: 'test' },
        ReactionCheckpoints,
        ReactionFeed,
        RecordTicks,
      ],
    }).compile();
    app = await moduleRef.init();
  };
  const stop = async () => {
    await app?.close();
    app = null;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-reactions-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 50 });
    reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    seen.length = 0;
    behaviour = async (event) => {
      seen.push(event.data.n);
    };
  });
  afterEach(async () => {
    await stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts at the head on a fresh install: history is not replayed into reactions', async () => {
    await tick(1);
    const head = await tick(2);
    await start();
    expect(await checkpoint()).toBe(head);
    await tick(3);
    await until(() => seen.length > 0, 'the new event handled');
    expect(seen).toEqual([3]);
  });

  it('resumes from its checkpoint after a restart, so events appended meanwhile are handled', async () => {
    await start();
    await tick(1);
    await until(() => seen.length === 1, 'the first event handled');
    await stop();
    await tick(2);
    await events.append('other', [{ ...Unrelated({ note: 'x' }), metadata: testMetadata }], 'any');
    await tick(3);
    await start();
    await until(() => seen.length === 3, 'the events appended while stopped handled');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('publishes older schema versions in the current shape', async () => {
    await start();
    await events.append(
      'ticks',
      [{ type: 'FeedTicked', schemaVersion: 1, data: { count: 7 }, metadata: testMetadata }],
      'any',
    );
    await until(() => seen.length === 1, 'the version 1 event handled');
    expect(seen).toEqual([7]);
  });

  it('moves its checkpoint past an event only once the reaction finished', async () => {
    let release = (): void => undefined;
    let started = false;
    behaviour = (event) => {
      started = true;
      return new Promise<void>((resolve) => {
        release = () => {
          seen.push(event.data.n);
          resolve();
        };
      });
    };
    await start();
    const before = await checkpoint();
    const position = await tick(1);
    await until(() => started, 'the reaction started');
    expect(await checkpoint()).toBe(before);
    release();
    await until(async () => (await checkpoint()) === position, 'the checkpoint moved');
    expect(seen).toEqual([1]);
  });

  it('delivers an event again when its reaction failed, and moves on only after', async () => {
    let failures = 1;
    behaviour = async (event) => {
      if (failures-- > 0) throw new Error('the reaction failed once');
      seen.push(event.data.n);
    };
    await start();
    const position = await tick(1);
    await until(async () => (await checkpoint()) === position, 'the checkpoint moved');
    expect(seen).toEqual([1]);
    expect(failures).toBe(-1);
  });
});
