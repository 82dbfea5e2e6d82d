/**
 * One table in global order. `position` is assigned as max + 1 inside the write
 * transaction, so positions are dense; (stream, revision) is unique, so two writers
 * can never both claim the same revision of a stream.
 */
export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position       INTEGER PRIMARY KEY,
  id             TEXT    NOT NULL UNIQUE,
  stream         TEXT    NOT NULL,
  revision       INTEGER NOT NULL,
  type           TEXT    NOT NULL,
  schema_version INTEGER NOT NULL,
  recorded_at    TEXT    NOT NULL,
  data           TEXT    NOT NULL,
  metadata       TEXT    NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
CREATE INDEX IF NOT EXISTS events_type ON events (type);
`;
