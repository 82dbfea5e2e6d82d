import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../event-store.port.js';
import type { EventMetadata } from '../event-metadata.js';

/** An event as `pg` reads it: 64-bit integers as text. */
export interface EventRow {
  position: string;
  id: string;
  stream: string;
  revision: string;
  type: string;
  schema_version: number;
  recorded_at: string;
  data: string;
  metadata: string;
}

export const SELECT_COLUMNS =
  'position, id, stream, revision, type, schema_version, recorded_at, data, metadata';

/** The rows of one batch, column by column, as `unnest` takes them. */
export class EventColumns {
  private readonly columns: unknown[][] = [[], [], [], [], [], [], [], [], []];

  add(position: bigint, stream: string, revision: bigint, event: NewEvent, recordedAt: string) {
    const row = [
      position.toString(),
      event.id ?? randomUUID(),
      stream,
      revision.toString(),
      event.type,
      event.schemaVersion,
      event.recordedAt ?? recordedAt,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata),
    ];
    row.forEach((value, i) => this.columns[i].push(value));
  }

  values(): unknown[][] {
    return this.columns;
  }
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    schemaVersion: row.schema_version,
    stream: row.stream,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    recordedAt: row.recorded_at,
    data: JSON.parse(row.data) as RecordedEvent['data'],
    metadata: JSON.parse(row.metadata) as EventMetadata,
  };
}
