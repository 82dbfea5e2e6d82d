import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '../eventstore/event-store.port.js';
import { systemMetadata } from '../eventstore/event-metadata.js';
import { canonicalJson } from '../common/canonical-json.js';
import { chainLink, GENESIS } from './hash-chain.js';

const event = (position: number, data: Record<string, unknown>): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type: 'Thing',
  schemaVersion: 1,
  stream: 's',
  revision: BigInt(position - 1),
  position: BigInt(position),
  recordedAt: '2026-11-22T00:00:00.000Z',
  data,
  metadata: systemMetadata(),
});

describe('canonical JSON', () => {
  it('sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"x":2,"y":1}]},"b":1}',
    );
  });
});

describe('hash chain', () => {
  const events = [event(1, { a: 1 }), event(2, { b: 2 }), event(3, { c: 3 })];
  const chain = (list: RecordedEvent[]) =>
    list.reduce<string[]>((acc, e, i) => [...acc, chainLink(acc.at(-1) ?? GENESIS, e, i + 1)], []);

  it('is deterministic and independent of key order', () => {
    expect(chain(events)).toEqual(
      chain(
        events.map((e) => ({ ...e, data: Object.fromEntries(Object.entries(e.data).reverse()) })),
      ),
    );
  });

  it('changes from the first modified, removed or reordered event on', () => {
    const base = chain(events);
    const modified = chain([events[0], { ...events[1], data: { b: 3 } }, events[2]]);
    expect(modified[0]).toBe(base[0]);
    expect(modified[1]).not.toBe(base[1]);
    expect(modified[2]).not.toBe(base[2]);
    expect(chain([events[1], events[0], events[2]])[2]).not.toBe(base[2]);
    expect(chain([events[0], events[2]])[1]).not.toBe(base[2]);
  });

  it('hashes the place in the global order, not the position: a sparse copy links the same', () => {
    const copied = events.map((e) => ({ ...e, position: e.position * 1000n + 17n }));
    expect(chain(copied)).toEqual(chain(events));
  });

  it('on SQLite (place = position) gives the links sealed when the position was hashed', () => {
    // The body as chains sealed before places existed hashed it, written out by hand.
    const e = events[0];
    const body = canonicalJson({
      position: e.position.toString(),
      id: e.id,
      type: e.type,
      stream: e.stream,
      revision: e.revision.toString(),
      schemaVersion: e.schemaVersion,
      recordedAt: e.recordedAt,
      data: e.data,
      metadata: e.metadata,
    });
    const before = createHash('sha256').update(GENESIS).update('\n').update(body).digest('hex');
    expect(chainLink(GENESIS, e, 1)).toBe(before);
  });
});
