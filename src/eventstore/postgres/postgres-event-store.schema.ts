/**
 * The event log on PostgreSQL. `data` and `metadata` are kept as the text that was appended
 * (not `jsonb`, which reorders keys): the audit chain hashes events as they were written.
 * `(stream, revision)` is unique, so no two writers can both take a stream's next revision,
 * whatever the application checks first.
 */
export const POSTGRES_EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS slipway_events (
  position bigint PRIMARY KEY,
  id text NOT NULL UNIQUE,
  stream text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  schema_version integer NOT NULL,
  recorded_at text NOT NULL,
  data text NOT NULL,
  metadata text NOT NULL,
  UNIQUE (stream, revision)
);
`;

/** The channel `LISTEN`/`NOTIFY` wakes other processes' subscriptions on; the payload is the head. */
export const APPENDED_CHANNEL = 'slipway_events_appended';

/**
 * The transaction-level advisory lock every append takes (an arbitrary 64-bit key, the same in
 * every process). Appends then commit one after another, each numbering its events from the
 * head the previous one committed: positions are dense and commit in order, so a reader that
 * has seen position n has seen everything below it (no gap a later commit could fill).
 */
export const APPEND_LOCK_KEY = '7305748129450517012';
