import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AuditSigningKey } from '../audit/audit-signing-key.js';
import { AuditVerification } from '../audit/audit-verification.js';
import { AuditMarkFile } from '../audit/mark/audit-mark-file.js';
import type { EventStore } from '../eventstore/event-store.port.js';
import { copyEvents } from '../eventstore/migrate-events.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { SqliteEventStore } from '../eventstore/sqlite/sqlite-event-store.js';
import { EVENTSTORE_URL, POSTGRES_URL } from '../config/storage-config.js';
import { copyCollections } from '../readstore/move-collections.js';
import { PRIMARY_STORE_COLLECTIONS } from './primary-collections.js';
import { importLegacySubjectKeys } from '../privacy/legacy-subject-keys.js';

/**
 * `node dist/src/app/migrate-events-command.js <events.sqlite> <postgres://... | esdb://...>`:
 * copies an embedded event store into PostgreSQL or EventStoreDB/KurrentDB (or into a new SQLite
 * file), then reads the target back and compares. Into PostgreSQL, the primary data of the same
 * data directory (`primary.sqlite`: deployment output, usage times, the outbox...) is copied
 * too; the read models are rebuilt from the events when Slipway starts on it.
 * Run it with Slipway stopped; the target's streams must not exist yet (a second run is refused
 * with CONFLICT rather than doubling events). Afterwards it verifies the audit chain on the
 * target with the audit key of the source's data directory (or SLIPWAY_AUDIT_SIGNING_KEY).
 */
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  // A new events file holds what the old one did: for this user only, as the server's are.
  process.umask(0o077);
  const [file, to] = process.argv.slice(2);
  // A new SQLite file is a target too: to move a data directory, and to run this command here.
  const toFile = to !== undefined && /\.sqlite$/.test(to) && !existsSync(to);
  const toServer = to !== undefined && (EVENTSTORE_URL.test(to) || POSTGRES_URL.test(to));
  if (!file || !to || !existsSync(file) || !(toServer || toFile)) {
    console.error(
      'usage: migrate-events-command <events.sqlite> ' +
        '<postgres://user:password@host/db | esdb://host:2113?tls=false | new.sqlite>',
    );
    return 2;
  }
  const source = new SqliteEventStore(file);
  const target = toFile ? new SqliteEventStore(to) : await serverStore(to);
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
    say('The target reads back as the source (ids, streams, revisions, times, data, metadata)');
    if (!(await verifyChain(target, dirname(file)))) return 1;
    if (POSTGRES_URL.test(to)) await copyPrimaryData(dirname(file), to);
    return 0;
  } finally {
    await source.close();
    await target.close();
  }
}

async function serverStore(url: string): Promise<EventStore> {
  if (POSTGRES_URL.test(url)) {
    const { PostgresEventStore } = await import('../eventstore/postgres/postgres-event-store.js');
    return PostgresEventStore.connect(url);
  }
  const { EsdbEventStore } = await import('../eventstore/esdb/esdb-event-store.js');
  return new EsdbEventStore(url);
}

/**
 * The primary store's collections into PostgreSQL's `pd_` tables, with the subject keys of a
 * data directory that still has `subject-keys.db`; the source is left as it is.
 */
async function copyPrimaryData(dataDir: string, url: string): Promise<void> {
  const file = join(dataDir, 'primary.sqlite');
  const { PostgresReadStore } = await import('../readstore/postgres/postgres-read-store.js');
  const to = await PostgresReadStore.connect(url, { tablePrefix: 'pd_' });
  try {
    if (existsSync(file)) {
      const from = new SqliteReadStore(file);
      try {
        const copied = await copyCollections(from, to, PRIMARY_STORE_COLLECTIONS);
        const list = Object.entries(copied).map(([name, n]) => `${name} ${n}`);
        say(`Primary data copied: ${list.join(', ')}`);
      } finally {
        await from.close();
      }
    } else {
      say(`No primary data beside the events (${file})`);
    }
    const keys = await importLegacySubjectKeys(join(dataDir, 'subject-keys.db'), to, false);
    if (keys > 0) say(`Subject keys copied from subject-keys.db: ${keys}`);
  } finally {
    await to.close();
  }
}

/** The audit chain on the copy, checkpoints included: what an auditor of the target will run. */
async function verifyChain(target: EventStore, dataDir: string): Promise<boolean> {
  const fromEnv = process.env.SLIPWAY_AUDIT_SIGNING_KEY;
  if (!fromEnv && !existsSync(join(dataDir, 'audit-signing.key'))) {
    say(`No audit key in ${dataDir} (nor SLIPWAY_AUDIT_SIGNING_KEY): the chain was not verified`);
    return true;
  }
  // No recorded links: the chain is recomputed from the events and checked against the
  // signed checkpoints alone, as on a fresh read store.
  const links = new SqliteReadStore(':memory:');
  try {
    const key = AuditSigningKey.load(dataDir, fromEnv);
    // The mark beside the key names the last checkpoint signed there: the copy must hold it.
    const mark = AuditMarkFile.in(dataDir, key);
    const report = await new AuditVerification(target, links, key, mark, null).verify();
    if (report.ok) say(`Audit chain on the target: ${report.message}`);
    else console.error(`Audit chain on the target: ${report.problem}: ${report.message}`);
    return report.ok;
  } finally {
    await links.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
