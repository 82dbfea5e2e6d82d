import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ApiTokenDoc } from '../../projections/api-tokens.projection.js';
import type { AppConfig } from '../config/app-config.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import type { EventWriter } from '../storage/event-writer.js';
import { TokenExpiryScan } from './token-expiry-scan.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const HOUR = 3_600_000;

/** The writer's rule the scan relies on: a notice stream is appended to only while it is new. */
function noticeWriter(streams: Set<string>): EventWriter {
  return {
    append: (stream: string) => {
      if (streams.has(stream)) throw new WrongExpectedRevisionError(stream, 'no_stream', 0n);
      streams.add(stream);
      return Promise.resolve({ lastPosition: BigInt(streams.size) });
    },
  } as unknown as EventWriter;
}

function token(n: number, expiresInHours: number): ApiTokenDoc {
  return {
    id: `token-${String(n).padStart(3, '0')}`,
    digest: `d${n}`,
    principalId: 'user-1',
    name: `t${n}`,
    scopes: ['deploy:read'],
    lane: 'read',
    createdAt: NOW.toISOString(),
    createdBy: 'user-1',
    expiresAt: new Date(NOW.getTime() + expiresInHours * HOUR).toISOString(),
    revokedAt: null,
    rotatedFrom: null,
    replacedBy: null,
    refuseAfter: null,
    projects: null,
  };
}

describe('TokenExpiryScan pages through the tokens inside the window', () => {
  let dir: string;
  let store: SqliteReadStore;
  let streams: Set<string>;
  let scan: TokenExpiryScan;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-expiry-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.ensureCollection({ name: 'api_tokens' });
    streams = new Set();
    scan = new TokenExpiryScan(
      store,
      { now: () => NOW },
      { notifications: { sending: false } } as AppConfig,
      noticeWriter(streams),
    );
    scan.pageSize = 3;
    scan.pages = 2;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given more tokens than one scan reads, when scans follow, then each is noticed once and the next scan goes on where the last stopped', async () => {
    // Given: 10 live tokens inside the 7 days (two expire at the same moment), one outside,
    // one revoked, one expired.
    const tokens = store.collection<ApiTokenDoc>('api_tokens');
    for (let n = 0; n < 10; n++) await tokens.put(token(n, 10 + (n === 5 ? 4 : n)));
    await tokens.put(token(90, 8 * 24));
    await tokens.put({ ...token(91, 5), revokedAt: NOW.toISOString() });
    await tokens.put(token(92, -1));

    // When / Then: 2 pages of 3 per scan.
    expect(await scan.scan()).toBe(6);
    expect(await scan.scan()).toBe(4);
    expect(await scan.scan()).toBe(0);
    expect([...streams].sort()).toEqual(
      Array.from(
        { length: 10 },
        (_, n) => `token-expiry-notice-token-${String(n).padStart(3, '0')}`,
      ),
    );

    // A token that enters the window later is noticed by a later scan.
    await tokens.put(token(20, 1));
    let later = 0;
    for (let i = 0; i < 3; i++) later += await scan.scan();
    expect(later).toBe(1);
    expect(streams.size).toBe(11);
  });
});
