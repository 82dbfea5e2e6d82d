import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import { checkpointDigest, type SignedCheckpoint } from '../../events/audit.events.js';
import {
  missingCheckpoint,
  NOTHING_SEEN,
  sight,
  type KnownCheckpoint,
  type MarkBreak,
  type Sighting,
} from '../mark/audit-mark.js';
import { viewBreak, type EntryBreak } from '../trail/entry-check.js';
import { csvEntryBreak } from './export-entries.js';

export type LastCheckpoint = { sequence: number; digest: string; position: number } | null;

/**
 * What an export's verification finds besides the chain, in constant memory: whether each
 * entry says what its event says, the last checkpoint, and whether the checkpoint an auditor
 * kept (`--expect`) is there.
 */
export class ExportFindings {
  entries = 0;
  last: LastCheckpoint = null;
  private entryBreak: EntryBreak | null = null;
  private seen: Sighting = NOTHING_SEEN;

  constructor(private readonly expect: KnownCheckpoint | undefined) {}

  checkpoint(c: SignedCheckpoint, position: number): void {
    const digest = checkpointDigest(c);
    if (this.expect) this.seen = sight(this.expect, this.seen, { ...c, digest, position });
    this.last = { sequence: c.sequence, digest, position };
  }

  /** The entry beside `event`: NDJSON's `entry`, or for CSV the row its columns are in. */
  entry(event: RecordedEvent, entry: unknown, row: Record<string, string> | undefined): void {
    if (this.entryBreak) return;
    const found = row ? csvEntryBreak(event, row) : viewBreak(event, entry);
    if (found) this.entryBreak = found;
    else this.entries += 1;
  }

  /** What was expected and is missing, else the first entry that does not match. */
  problem(): MarkBreak | EntryBreak | null {
    const missing =
      this.expect && missingCheckpoint(this.expect, this.seen, 'the export', 'expected');
    return missing || this.entryBreak;
  }
}
