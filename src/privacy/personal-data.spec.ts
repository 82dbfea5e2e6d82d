import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { systemClock, type Clock } from '../common/clock.js';
import { postgresClusterForSuite } from '../common/testing/postgres-cluster-suite.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import { PostgresReadStore } from '../readstore/postgres/postgres-read-store.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { SecretBox } from '../secrets/secret-box.js';
import { ERASED } from '../events/personal-value.js';
import { importLegacySubjectKeys } from './legacy-subject-keys.js';
import { PersonalData } from './personal-data.js';
import { SUBJECT_KEYS, SubjectKeyVault } from './subject-key-vault.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Processes sharing one primary store: each opens its own connection and its own vault. */
interface Backend {
  name: string;
  /** A new connection to the same store as `of` (or a new store). */
  connect(of?: string): Promise<{ store: ReadStore; place: string }>;
}

const stores: ReadStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const sqlite: Backend = {
  name: 'SQLite (primary.sqlite)',
  async connect(of) {
    const dir = of ?? mkdtempSync(join(tmpdir(), 'slipway-pii-'));
    if (!of) dirs.push(dir);
    const store = new SqliteReadStore(join(dir, 'primary.sqlite'), { durable: true });
    stores.push(store);
    return { store, place: dir };
  },
};

const cluster = postgresClusterForSuite();
const postgres: Backend = {
  name: 'PostgreSQL (pd_ tables)',
  async connect(of) {
    let url = of;
    if (!url) url = await cluster().createDatabase();
    const store = await PostgresReadStore.connect(url, { tablePrefix: 'pd_', maxConnections: 2 });
    stores.push(store);
    return { store, place: url };
  },
};

async function open(
  backend: Backend,
  of?: string,
  key = randomBytes(32),
  clock: Clock = systemClock,
) {
  const { store, place } = await backend.connect(of);
  const box = new SecretBox(key);
  const vault = await SubjectKeyVault.open(store, box);
  return { place, key, store, personal: new PersonalData(vault, clock, box) };
}

describe.each([sqlite, postgres])('personal data (crypto-shredding) on $name', (backend) => {
  it('is erased for every process sharing the store, not only the one that erased', async () => {
    const a = await open(backend);
    const b = await open(backend, a.place, a.key);
    const sealed = (await a.personal.protect('user-1', 'ann@example.com'))!;
    // b reads the same key, and keeps it...
    expect(await b.personal.reveal(sealed)).toBe('ann@example.com');
    expect(await b.personal.reveal(sealed)).toBe('ann@example.com');
    // ... until a erases the subject: then, from its next turn of the event loop, b cannot
    // open it either.
    expect(await a.personal.erase('user-1')).toBe(true);
    await nextTurn();
    expect(await b.personal.reveal(sealed)).toBe(ERASED);
    expect(await b.personal.isErased('user-1')).toBe(true);
  });

  // Two SQLite connections of one process cannot hold write transactions across awaits at once
  // (the second waits on the first, which waits on the event loop): across processes they can.
  const maybe = backend === postgres ? it : it.skip;
  maybe('makes one key per subject when processes ask for it at once', async () => {
    const a = await open(backend);
    const b = await open(backend, a.place, a.key);
    const sealed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).personal.protect('user-9', `v${i}`)),
    );
    // Whoever sealed it, either process opens every value: there was only ever one key.
    for (const [i, value] of sealed.entries()) {
      expect(await a.personal.reveal(value)).toBe(`v${i}`);
      expect(await b.personal.reveal(value)).toBe(`v${i}`);
    }
  });

  it('seals a value under its subject and opens it, until the subject is erased', async () => {
    const { personal } = await open(backend);
    const sealed = (await personal.protect('user-1', 'ann@example.com'))!;
    expect(JSON.stringify(sealed)).not.toContain('ann@example.com');
    expect(await personal.reveal(sealed)).toBe('ann@example.com');
    const other = await personal.protect('user-2', 'bob@example.com');
    expect(await personal.erase('user-1')).toBe(true);
    expect(await personal.reveal(sealed)).toBe(ERASED);
    expect(await personal.reveal(other)).toBe('bob@example.com');
    expect(await personal.erase('user-1')).toBe(false);
    // Erasure is final: a new value for the subject is not stored readable either.
    expect(await personal.reveal(await personal.protect('user-1', 'again'))).toBe(ERASED);
  });

  it('keeps keys sealed in the store, and erasure survives a reconnection', async () => {
    const first = await open(backend);
    const sealed = await first.personal.protect('user-1', 'ann@example.com');
    const doc = await first.store.collection(SUBJECT_KEYS.name).get('user-1');
    expect(JSON.stringify(doc)).not.toContain(first.key.toString('base64'));
    await first.personal.erase('user-1');
    const again = await open(backend, first.place, first.key);
    expect(await again.personal.reveal(sealed)).toBe(ERASED);
  });

  it('erases the monthly keys older than the retention period, and only those', async () => {
    let now = new Date('2026-01-15T00:00:00Z');
    const { personal } = await open(backend, undefined, randomBytes(32), { now: () => now });
    const january = await personal.protect(personal.anonymousSubject(), '203.0.113.1');
    now = new Date('2026-02-10T00:00:00Z');
    const february = await personal.protect(personal.anonymousSubject(), '203.0.113.2');
    now = new Date('2026-03-01T00:00:00Z');
    // Opened once before expiry: the value is then held in memory, which expiry must empty.
    expect(await personal.reveal(january)).toBe('203.0.113.1');
    expect(await personal.expireAnonymous(0)).toEqual([]);
    expect(await personal.expireAnonymous(1)).toEqual(['anonymous-2026-01']);
    expect(await personal.reveal(january)).toBe(ERASED);
    expect(await personal.reveal(february)).toBe('203.0.113.2');
  });
});

describe('personal data on SQLite files', () => {
  it('leaves no copy of an erased key in the primary store files', async () => {
    const { place, personal, store } = await open(sqlite);
    await personal.protect('user-1', 'ann@example.com');
    const doc = await store.collection(SUBJECT_KEYS.name).get('user-1');
    const sealedKey = Buffer.from(String(doc?.sealedKey));
    await personal.erase('user-1');
    for (const file of ['primary.sqlite', 'primary.sqlite-wal']) {
      const path = join(place, file);
      if (existsSync(path)) expect(readFileSync(path).includes(sealedKey)).toBe(false);
    }
  });

  it('takes the keys of subject-keys.db (from older releases) over, erasures included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-pii-legacy-'));
    dirs.push(dir);
    const key = randomBytes(32);
    const box = new SecretBox(key);
    const file = join(dir, 'subject-keys.db');
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE subject_keys (subject TEXT PRIMARY KEY, sealed_key TEXT,
      created_at TEXT NOT NULL, erased_at TEXT)`);
    const add = legacy.prepare('INSERT INTO subject_keys VALUES (?, ?, ?, ?)');
    const liveKey = randomBytes(32);
    add.run('user-1', box.seal(liveKey.toString('base64')), '2025-01-01T00:00:00Z', null);
    add.run('user-2', null, '2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z');
    legacy.close();

    const { store, personal } = await open(sqlite, dir, key);
    expect(await importLegacySubjectKeys(file, store, true)).toBe(2);
    expect(existsSync(file)).toBe(false);
    expect(await personal.isErased('user-2')).toBe(true);
    expect(await personal.isErased('user-1')).toBe(false);
    // The key is the old one, so values sealed before still open.
    const doc = await store.collection(SUBJECT_KEYS.name).get('user-1');
    expect(box.open(String(doc?.sealedKey))).toBe(liveKey.toString('base64'));
    const sealed = await personal.protect('user-1', 'kept@example.com');
    const again = await open(sqlite, dir, key);
    expect(await again.personal.reveal(sealed)).toBe('kept@example.com');
  });
});
