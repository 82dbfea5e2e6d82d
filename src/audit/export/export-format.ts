import type { EventMetadata } from '../../eventstore/event-metadata.js';
import type { EventData, RecordedEvent } from '../../eventstore/event-store.port.js';
import type { SignedCheckpoint } from '../../events/audit.events.js';
import type { AuditEntryView } from '../trail/audit-entry-view.js';

export const EXPORT_FORMAT = 'slipway-audit-export';
/** 2: credential fields redacted (`redactedFields`, `redaction`); 1 exported events as stored. */
export const EXPORT_VERSION = 2;

/** First record: what the export covers and how to check it. */
export interface ExportHeader {
  kind: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  /** Ed25519 public key (SPKI PEM) that signs checkpoints and this export. */
  publicKey: string;
  fromPosition: number;
  toPosition: number | null;
  /**
   * Whether the store's positions are dense (a gap is a deleted event) or sparse (EventStoreDB).
   * Absent in exports made before it existed, all of them from SQLite: dense.
   */
  positions?: 'dense' | 'sparse';
  /** The signed checkpoint the chain resumes from when the export does not start at 1. */
  anchor: (SignedCheckpoint & { position: number }) | null;
  /** Data fields shown only as `[redacted sha256:…]` wherever they occur. Absent in version 1. */
  redactedFields?: string[];
}

/**
 * An event exactly as stored (what the chain hashes) and the readable entry beside it; or, with
 * `redaction`, the event with its credential fields replaced and the link the chain continues from.
 */
export interface ExportEvent {
  kind: 'event';
  event: RawEvent;
  entry: AuditEntryView | null;
  redaction?: Redaction;
}

/** How an exported event differs from the stored one: which fields, and its chain link. */
export interface Redaction {
  fields: string[];
  /**
   * The event's link, computed by the exporter from the stored event (never copied from what
   * was sealed), so that an event changed in the store still breaks the chain at the checkpoint.
   */
  link: string;
}

/** Last record: Ed25519 signature over the SHA-256 of every byte before this record. */
export interface ExportSignature {
  kind: 'signature';
  sha256: string;
  signature: string;
  events: number;
}

export type ExportRecord = ExportHeader | ExportEvent | ExportSignature;

/** JSON-safe form of a recorded event (bigints as decimal strings). */
export interface RawEvent {
  position: string;
  id: string;
  type: string;
  stream: string;
  revision: string;
  schemaVersion: number;
  recordedAt: string;
  data: EventData;
  metadata: EventMetadata;
}

export function rawEventOf(e: RecordedEvent): RawEvent {
  return {
    position: e.position.toString(),
    id: e.id,
    type: e.type,
    stream: e.stream,
    revision: e.revision.toString(),
    schemaVersion: e.schemaVersion,
    recordedAt: e.recordedAt,
    data: e.data,
    metadata: e.metadata,
  };
}

export function recordedEventOf(raw: RawEvent): RecordedEvent {
  return {
    ...raw,
    position: BigInt(raw.position),
    revision: BigInt(raw.revision),
  };
}
