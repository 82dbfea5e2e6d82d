import { describe, it } from '@jest/globals';
import { describeEventStoreContract } from '../testing/event-store.contract-suite.js';
import { namespacedHarness } from '../testing/namespaced-event-store.js';
import { EsdbEventStore } from './esdb-event-store.js';

const url = process.env.SLIPWAY_EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('EventStoreDB/KurrentDB', async () =>
    namespacedHarness(() => new EsdbEventStore(url)),
  );
} else {
  process.stderr.write(
    'EventStore contract on EventStoreDB/KurrentDB: skipped, SLIPWAY_EVENTSTORE_URL is not set\n',
  );
  describe('EventStore contract: EventStoreDB/KurrentDB', () => {
    it.skip('skipped: SLIPWAY_EVENTSTORE_URL is not set (esdb://host:2113?tls=false)', () => {});
  });
}
