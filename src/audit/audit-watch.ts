import { Inject, Injectable, Logger } from '@nestjs/common';
import { PeriodicPass } from '../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../eventstore/event-store.port.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import {
  AUDIT_CHECKPOINTS_STREAM,
  AuditCheckpointSealed,
  AuditVerificationFailed,
  auditBreakStream,
} from '../events/audit.events.js';
import { systemContext } from '../kernel/request-context.js';
import { EventWriter } from '../storage/event-writer.js';
import { AuditVerification, type VerificationReport } from './audit-verification.js';
import { nextStretch } from './watch-stretch.js';

const logger = new Logger('Audit');
/** At most this many events are verified per pass (plus those back to the anchoring checkpoint). */
export const VERIFY_WINDOW = 10_000;

export interface WatchPass {
  report: VerificationReport;
  /** True when this pass found a break not noticed before (and appended AuditVerificationFailed). */
  noticed: boolean;
}

/**
 * Verifies the audit trail a bounded stretch at a time, every `SLIPWAY_AUDIT_VERIFY_SECONDS`:
 * each pass checks at most VERIFY_WINDOW events from where the last one stopped (anchored at the
 * signed checkpoint before them, as `verifyAuditTrail` does for a range), and starts again at
 * the beginning once it reaches the head. A break is recorded as `AuditVerificationFailed` on a
 * stream of its own (problem and position), appended only while that stream is new: once per
 * break, however often it is found again. After a break the next pass resumes past the first
 * checkpoint that covers it, so one break does not hide what follows.
 */
@Injectable()
export class AuditWatch extends PeriodicPass<WatchPass | null> {
  private cursor = 1;
  /** The highest head a pass saw: a head below it means the end of the store was cut off. */
  private highestHead = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verification: AuditVerification,
    private readonly writer: EventWriter,
  ) {
    super({ logger, failure: 'The audit verification pass failed' });
  }

  protected override intervalSeconds(): number {
    return this.config.audit.verifySeconds;
  }

  /** One pass (never two at once): null when the store is empty. */
  verifyNow(): Promise<WatchPass | null> {
    return this.tick();
  }

  protected async pass(): Promise<WatchPass | null> {
    const head = Number(await this.events.headPosition());
    if (head === 0 && this.highestHead === 0) return null;
    const { from: fromPosition, wentBack } = nextStretch(this.cursor, this.highestHead, head);
    const lostEnd = `the event store's head went back from ${this.highestHead} to ${head}: events were removed from its end`;
    this.highestHead = head;
    // The stretch that reaches the head is verified open-ended, so a tail cut off after its
    // checkpoint (sealed positions beyond the head) is noticed too.
    const windowEnd = await this.windowEnd(fromPosition);
    const verified = await this.verification.verify({
      fromPosition,
      ...(windowEnd < head ? { toPosition: windowEnd } : {}),
    });
    // The store's own finding names the position more exactly; else the lost end is the break.
    const report: VerificationReport =
      wentBack && verified.ok
        ? {
            ...verified,
            ok: false,
            problem: 'truncated',
            firstBadPosition: head + 1,
            message: lostEnd,
          }
        : verified;
    const toPosition = report.toPosition ?? Math.min(windowEnd, head);
    if (report.ok) {
      this.cursor = toPosition + 1;
      return { report, noticed: false };
    }
    const firstBadPosition = report.firstBadPosition ?? fromPosition;
    this.cursor = await this.resumeAfter(firstBadPosition);
    const noticed = await this.record({
      problem: report.problem ?? 'modified',
      firstBadPosition,
      reason: report.message,
      fromPosition: report.fromPosition,
      toPosition,
    });
    if (noticed) logger.error(`Audit verification failed: ${report.message}`);
    return { report, noticed };
  }

  /**
   * The position of the VERIFY_WINDOW-th event from `from`: arithmetic on a dense store; on a
   * sparse one (where positions are byte offsets) found by reading that window's positions.
   */
  private async windowEnd(from: number): Promise<number> {
    if (this.events.positions === 'dense') return from + VERIFY_WINDOW - 1;
    const window = await this.events.readAll(BigInt(from), VERIFY_WINDOW);
    return window.length === VERIFY_WINDOW ? Number(window[window.length - 1].position) : Infinity;
  }

  /**
   * Past the first checkpoint that covers the break, or back to the start when none does. A
   * checkpoint seals places, which on a dense store are positions; on a sparse one the first
   * checkpoint after the break is taken.
   */
  private async resumeAfter(position: number): Promise<number> {
    const checkpoints = await this.events.readStream(AUDIT_CHECKPOINTS_STREAM);
    const dense = this.events.positions === 'dense';
    const covering = checkpoints.find(
      (c: RecordedEvent) =>
        Number(c.position) > position &&
        (!dense || AuditCheckpointSealed.dataOf(c).toPosition >= position),
    );
    return covering ? Number(covering.position) + 1 : 1;
  }

  private async record(data: Parameters<typeof AuditVerificationFailed>[0]): Promise<boolean> {
    try {
      await this.writer.append(
        auditBreakStream(data.problem, data.firstBadPosition),
        [AuditVerificationFailed(data)],
        'no_stream',
        systemContext('audit-watch'),
      );
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return false;
      throw error;
    }
  }
}
