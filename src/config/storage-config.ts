/** Where events and read models live, and how many processes share them. */
export interface StorageConfig {
  /** `esdb://...`: events in EventStoreDB/KurrentDB; null: `events.sqlite` in the data dir. */
  eventStoreUrl: string | null;
  /**
   * `mongodb://...`: read models in MongoDB (the URL's database) and the primary store in the
   * database of that name + `_primary` on the same server; null: `read-models.sqlite` and
   * `primary.sqlite` in the data dir.
   */
  mongoUrl: string | null;
  /**
   * `postgres://...`: events, read models and the primary store in that PostgreSQL database
   * (tables `slipway_events`, `rm_*` and `pd_*`); exclusive of the two above.
   */
  postgresUrl: string | null;
  /**
   * On PostgreSQL, the prefix of the read models' tables (SLIPWAY_POSTGRES_READ_MODEL_PREFIX,
   * `rm_` unless set): another prefix builds a second set beside the first from the same events,
   * for a blue-green rebuild. Absent: `rm_`.
   */
  postgresReadModelPrefix?: string;
  /** API processes sharing these stores (SLIPWAY_REPLICAS). */
  replicas: number;
}

export const EVENTSTORE_URL = /^esdb(\+discover)?:\/\/\S+$/;
export const MONGODB_URL = /^mongodb(\+srv)?:\/\/\S+$/;
export const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;
/** A read-model table prefix: lower-case letters and digits ending in `_`; never the primary's. */
export const READ_MODEL_PREFIX = /^(?!pd_$)(?!slipway_$)[a-z][a-z0-9]{0,14}_$/;

/** Variables whose values may hold credentials: never echoed in a message. */
export const CREDENTIAL_VARIABLES = new Set([
  'SLIPWAY_EVENTSTORE_URL',
  'SLIPWAY_MONGODB_URL',
  'SLIPWAY_POSTGRES_URL',
]);

/**
 * Mixes that cannot be consistent, each named by its variables:
 *
 * - read models in MongoDB over events in one process's SQLite file: the checkpoints in the
 *   shared database would count positions of a file only one machine has, and a second process
 *   with another file would corrupt them;
 * - events in EventStoreDB/KurrentDB read by several replicas each with its own SQLite read
 *   models: a command answered by one replica waits only for that replica's projections, so a
 *   read through another one may not see it, and lease and checkpoints are not shared.
 *
 * - PostgreSQL beside either server: it holds every store itself, so there would be two
 *   sources of truth.
 *
 * Several replicas on the embedded SQLite pair share one data directory (one machine).
 */
export function storageProblems(storage: StorageConfig): string[] {
  const problems: string[] = [];
  if (storage.postgresUrl && (storage.eventStoreUrl || storage.mongoUrl)) {
    problems.push(
      'SLIPWAY_POSTGRES_URL holds the events, the read models and the primary store: ' +
        'unset SLIPWAY_EVENTSTORE_URL and SLIPWAY_MONGODB_URL, or SLIPWAY_POSTGRES_URL',
    );
  }
  if (storage.mongoUrl && !storage.eventStoreUrl) {
    problems.push(
      'SLIPWAY_MONGODB_URL is set but SLIPWAY_EVENTSTORE_URL is not: read models in MongoDB ' +
        "must be built from events every process shares, not from one process's SQLite file; " +
        'set SLIPWAY_EVENTSTORE_URL too, or unset SLIPWAY_MONGODB_URL',
    );
  }
  if (storage.eventStoreUrl && !storage.mongoUrl && storage.replicas > 1) {
    problems.push(
      `SLIPWAY_EVENTSTORE_URL with SLIPWAY_REPLICAS=${storage.replicas} needs SLIPWAY_MONGODB_URL: ` +
        'with read models in each replica’s own SQLite file, what one replica wrote is not ' +
        'guaranteed visible through another; set SLIPWAY_MONGODB_URL, or SLIPWAY_REPLICAS=1',
    );
  }
  return problems;
}
