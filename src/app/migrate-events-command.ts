import { existsSync } from 'node:fs';
import { copyEvents } from '../eventstore/migrate-events.js';
import { SqliteEventStore } from '../eventstore/sqlite/sqlite-event-store.js';
import { EVENTSTORE_URL } from '../config/storage-config.js';

/**
 * `node dist/src/app/migrate-events-command.js <events.sqlite> <esdb://...>`: copies an
 * embedded event store into EventStoreDB/KurrentDB, then reads the target back and compares.
 * Run it with Slipway stopped; the target's streams must not exist yet (a second run is refused
 * with CONFLICT rather than doubling events).
 */
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const [file, url] = process.argv.slice(2);
  if (!file || !url || !existsSync(file) || !EVENTSTORE_URL.test(url)) {
    console.error('usage: migrate-events-command <events.sqlite> <esdb://host:2113?tls=false>');
    return 2;
  }
  const { EsdbEventStore } = await import('../eventstore/esdb/esdb-event-store.js');
  const source = new SqliteEventStore(file);
  const target = new EsdbEventStore(url);
  try {
    const report = await copyEvents(source, target, (p) => {
      if (p.appends % 1000 === 0) say(`${p.events} events copied`);
    });
    say(`${report.events} events copied in ${report.appends} appends`);
    if (report.mismatches.length > 0) {
      console.error('The target does not read back as the source:');
      for (const line of report.mismatches) console.error(`  ${line}`);
      return 1;
    }
    say('The target reads back as the source (ids, streams, revisions, data, metadata)');
    return 0;
  } finally {
    await source.close();
    await target.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
