import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../sqlite/sqlite-event-store.js';
import { describeEventStoreContract } from './event-store.contract-suite.js';
import { namespacedHarness } from './namespaced-event-store.js';

// The harness the server adapters run under, checked on one SQLite file that every test shares
// (as they share a server): each test still sees a fresh, empty store.
const shared = join(mkdtempSync(join(tmpdir(), 'slipway-ns-')), 'events.sqlite');

describeEventStoreContract('namespaced view over one shared sqlite store', async () =>
  namespacedHarness(() => new SqliteEventStore(shared, { pollIntervalMs: 20 })),
);
