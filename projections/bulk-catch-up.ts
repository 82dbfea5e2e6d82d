import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { BulkWriter, DocChange, ReadStore } from '../src/readstore/read-store.port.js';
import { applyIn } from './apply-events.js';
import { handlersFor, writeOnlyCollections, type Projection } from './projection.js';
import type { BatchHooks, RunnerState as State } from './runner-state.js';
import { StagedDocuments, StagingSession } from './staged-documents.js';

/**
 * Submissions that may wait for their commit while the next batch is computed. Batches are
 * kept small (the runner's plain batch size) so that a batch's events and documents die young
 * in a small young generation (`--max-semi-space-size`, `--optimize-for-size`); the writer
 * commits the ones queued together.
 */
const IN_FLIGHT = 4;

interface Moved {
  state: State;
  position: number;
  /** No handler for any of its events: nothing written, checkpoint saved later. */
  skipped: boolean;
}

/**
 * Catching up through a BulkWriter: each batch's changes are computed and submitted, and the
 * next batch is computed while the store commits them, so the two halves of the work share
 * the machine's cores. A projection's position moves (and who waits for it is answered) only
 * once the submission holding its events has committed; until then, the documents it wrote
 * are read from the staged ones.
 */
export class BulkCatchUp {
  private readonly staged: StagedDocuments;
  private readonly ahead = new Map<State, number>();
  private inFlight: Promise<void>[] = [];
  private seq = 0;
  private firstFailure: unknown = null;

  constructor(
    private readonly writer: BulkWriter,
    store: ReadStore,
    projections: Projection[],
    private readonly hooks: BatchHooks,
  ) {
    // Held until committed, the audit trail's documents would outlive the young generation
    // for nothing: no handler reads them.
    this.staged = new StagedDocuments(store, writeOnlyCollections(projections));
  }

  /** A submission failed: later ones were refused; positions are where the last commit left them. */
  get failure(): unknown {
    return this.firstFailure;
  }

  /** The last event submitted for the projection, committed or not. */
  positionOf(state: State): number {
    return this.ahead.get(state) ?? state.position;
  }

  /** Applies the batch to each ready projection and submits the changes; true if one moved. */
  async apply(ready: State[], batch: RecordedEvent[]): Promise<boolean> {
    const seq = ++this.seq;
    const changes: DocChange[] = [];
    const moved: Moved[] = [];
    for (const state of ready) {
      const pending = batch.filter((e) => Number(e.position) > this.positionOf(state));
      if (pending.length === 0) continue;
      const skipped = !pending.some((e) => handlersFor(state.projection, e.type).length > 0);
      if (!skipped) {
        const session = new StagingSession(this.staged);
        try {
          await applyIn(session, state.projection, pending);
        } catch (error) {
          // Nothing of it was held or submitted: it is retried later from where it was.
          this.hooks.failed(state, error);
          continue;
        }
        this.staged.hold(session.changes, seq);
        changes.push(...session.changes);
      }
      const position = Number(pending[pending.length - 1].position);
      this.ahead.set(state, position);
      moved.push({ state, position, skipped });
    }
    if (moved.length === 0) return false;
    this.inFlight.push(this.commit(seq, changes, moved));
    if (this.inFlight.length > IN_FLIGHT) await this.inFlight.shift();
    return true;
  }

  /** Waits for every submission and releases the writer; the first failure, if any. */
  async finish(): Promise<unknown> {
    await Promise.all(this.inFlight.splice(0));
    await this.writer.close();
    return this.firstFailure;
  }

  /** Submits at once (submissions commit in call order), then records the commit. */
  private async commit(seq: number, changes: DocChange[], moved: Moved[]): Promise<void> {
    try {
      await this.writer.submit(changes);
    } catch (error) {
      this.firstFailure ??= error;
      return;
    }
    this.staged.release(seq);
    for (const { state, position, skipped } of moved) this.hooks.applied(state, position, skipped);
    this.hooks.committed();
  }
}
