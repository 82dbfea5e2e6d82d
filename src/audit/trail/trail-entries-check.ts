import {
  auditTrailProjection,
  type AuditEntryDoc,
} from '../../../projections/audit-trail.projection.js';
import {
  CHECKPOINT_COLLECTION,
  type ProjectionCheckpoint,
} from '../../../projections/projection.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import type { ReadStore } from '../../readstore/read-store.port.js';
import { storedEntryBreak, type EntryBreak } from './entry-check.js';

/**
 * Holds the `audit_trail` read model (what `auditTrail`, the export and drains show) against
 * the events verification walks, batch by batch, up to where the projection has got: an entry
 * changed or removed in the read store is a break, an event it has not reached yet is not.
 */
export class TrailEntriesCheck {
  checked = 0;
  failure: EntryBreak | null = null;
  private projectedTo: number | null = null;

  constructor(private readonly reads: ReadStore) {}

  async accept(batch: RecordedEvent[]): Promise<void> {
    if (this.failure || batch.length === 0) return;
    this.projectedTo ??= await this.projected();
    const upTo = this.projectedTo;
    const within = batch.filter((e) => Number(e.position) <= upTo);
    if (within.length === 0) return;
    const found = await this.reads.collection<AuditEntryDoc>('audit_trail').find(
      {
        position: {
          $gte: Number(within[0].position),
          $lte: Number(within[within.length - 1].position),
        },
      },
      { sort: { position: 1 }, limit: within.length },
    );
    const entries = new Map(found.items.map((doc) => [doc.position, doc]));
    for (const event of within) {
      const problem = storedEntryBreak(event, entries.get(Number(event.position)));
      if (problem) {
        this.failure = problem;
        return;
      }
      this.checked += 1;
    }
  }

  /** Where the projection stands; 0 while it is being rebuilt for a new version. */
  private async projected(): Promise<number> {
    const checkpoint = await this.reads
      .collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION)
      .get(auditTrailProjection.name);
    return checkpoint?.version === auditTrailProjection.version ? checkpoint.position : 0;
  }
}
