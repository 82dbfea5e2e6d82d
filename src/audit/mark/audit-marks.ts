import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { errorForLog } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { EVENT_STORE, type EventStore } from '../../eventstore/event-store.port.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import {
  AUDIT_CHECKPOINTS_STREAM,
  AuditVerificationFailed,
  auditBreakStream,
} from '../../events/audit.events.js';
import { systemContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { AUDIT_SIGNING_KEY, type AuditSigningKey } from '../audit-signing-key.js';
import { AuditMarkFile, type MarkRead, type MarkReader } from './audit-mark-file.js';
import {
  judgeStore,
  markOf,
  placedCheckpoint,
  type AuditMark,
  type MarkBreak,
  type PlacedCheckpoint,
} from './audit-mark.js';

const logger = new Logger('Audit');

/** The event store no longer holds what was signed: nothing is sealed over it. */
export class TrailBehindMark extends AppError {
  constructor(readonly verdict: MarkBreak) {
    super(
      'CONFLICT',
      `The audit trail does not hold what was signed: ${verdict.message}. Nothing is sealed until it does.`,
      { problem: verdict.problem, firstBadPosition: verdict.firstBadPosition },
    );
  }
}

export interface MarkedCheckpoint {
  /** The newest checkpoint of the store, which extends the mark. */
  newest: PlacedCheckpoint | null;
  mark: AuditMark | null;
}

/**
 * Keeps the high-water mark (`audit-mark.json`) and judges the event store against it: the
 * sealer asks before every seal and tells it after one. The mark also follows checkpoints other
 * processes sealed, once they are found signed and linked to it, so every replica holds it.
 */
@Injectable()
export class AuditMarks implements MarkReader {
  readonly file: AuditMarkFile;
  /** What this process has marked: a file removed while it runs does not lower it. */
  private known: AuditMark | null = null;
  private readonly raised = new Set<string>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
    private readonly writer: EventWriter,
  ) {
    this.file = AuditMarkFile.in(config.dataDir, key);
  }

  read(): MarkRead {
    const read = this.file.read();
    if (read.kind === 'invalid') return read;
    const fromFile = read.kind === 'mark' ? read.mark : null;
    if (this.known && (!fromFile || fromFile.sequence < this.known.sequence)) {
      return { kind: 'mark', mark: this.known };
    }
    return read;
  }

  /**
   * The newest checkpoint, judged against the mark. When the store does not hold the marked
   * checkpoint, or what follows it is not a signed continuation, the alarm is raised (an error
   * log line and `AuditVerificationFailed`, once per process) and TrailBehindMark thrown.
   */
  async newest(): Promise<MarkedCheckpoint> {
    const read = this.read();
    if (read.kind === 'invalid') {
      return this.raise({
        problem: 'bad-signature',
        firstBadPosition: null,
        message: `the audit mark ${read.reason}`,
      });
    }
    const mark = read.kind === 'mark' ? read.mark : null;
    const pem = this.key.publicKeyPem;
    // Checkpoint n is revision n-1: normally only the marked one and those after it are read;
    // the whole stream only to say where a break starts.
    let verdict = judgeStore(mark, await this.checkpoints(mark ? mark.sequence - 1 : 0), pem);
    if (!verdict.ok && mark) verdict = judgeStore(mark, await this.checkpoints(0), pem);
    if (!verdict.ok) return this.raise(verdict);
    const { newest } = verdict;
    if (newest && (!mark || newest.sequence > mark.sequence)) {
      if (!mark) {
        logger.warn(
          `No audit mark at ${this.file.path}: checkpoint ${newest.sequence} of the event store is taken as it`,
        );
      }
      this.advance(markOf(newest));
    }
    return { newest, mark: this.known ?? mark };
  }

  /** After this process signed and appended `checkpoint`. */
  signed(checkpoint: PlacedCheckpoint): void {
    this.advance(markOf(checkpoint));
  }

  private advance(mark: AuditMark): void {
    if (this.known && this.known.sequence >= mark.sequence) return;
    this.known = mark;
    try {
      this.file.write(mark);
    } catch (error) {
      // The checkpoint stands; only the evidence beside the key lags until the next one.
      logger.error(`The audit mark could not be written to ${this.file.path}`, errorForLog(error));
    }
  }

  private async checkpoints(fromRevision: number): Promise<PlacedCheckpoint[]> {
    const events = await this.events.readStream(AUDIT_CHECKPOINTS_STREAM, {
      fromRevision: BigInt(fromRevision),
    });
    return events.map(placedCheckpoint);
  }

  private async raise(verdict: MarkBreak): Promise<never> {
    const once = `${verdict.problem}:${verdict.firstBadPosition}`;
    if (!this.raised.has(once)) {
      this.raised.add(once);
      logger.error(`Audit trail: ${verdict.message}. Nothing is sealed until it holds it again.`);
      await this.record(verdict).catch((error: unknown) =>
        logger.error('The audit alarm could not be recorded', errorForLog(error)),
      );
    }
    throw new TrailBehindMark(verdict);
  }

  /** On the stream the periodic verification uses for the same break: recorded once. */
  private async record({ problem, firstBadPosition, message }: MarkBreak): Promise<void> {
    if (firstBadPosition === null) return;
    const head = Number(await this.events.headPosition());
    try {
      await this.writer.append(
        auditBreakStream(problem, firstBadPosition),
        [
          AuditVerificationFailed({
            problem,
            firstBadPosition,
            reason: message,
            fromPosition: firstBadPosition,
            toPosition: head,
          }),
        ],
        'no_stream',
        systemContext('audit-sealer'),
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}
