import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ProjectionRunner } from '../../../projections/projection-runner.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { EventMetadata } from '../../eventstore/event-metadata.js';
import { EVENT_STORE, type EventStore, type NewEvent } from '../../eventstore/event-store.port.js';
import type { Request } from 'express';
import type { RequestContext } from '../../kernel/request-context.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { auditMarks, settleFailure } from '../../kernel/audit-attribution.js';
import { AppError } from '../../common/app-error.js';
import { refusalOf } from './refusal-of.js';
import {
  DEFAULT_COALESCER_LIMITS,
  RefusalCoalescer,
  type Refusal,
  type RefusalRecord,
} from './refusal-coalescer.js';
import {
  REFUSALS_STREAM,
  refusalEventType,
  type RefusalData,
} from '../../events/refusal.events.js';
import { errorForLog } from '../../common/log-text.js';

const logger = new Logger('AuditRefusals');
const SWEEP_MS = 5_000;

/**
 * Writes `AccessDenied`, `CommandRejected` and `CommandHadNoEffect`. The first call of a kind is
 * appended before the caller gets its answer (if that append fails, so does the answer, and the
 * window is dropped so the next one tries again: fail closed); repeats inside the window are
 * counted in memory and written as one event when it closes.
 */
@Injectable()
export class RefusalRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly coalescer: RefusalCoalescer;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    private readonly personal: PersonalData,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.coalescer = new RefusalCoalescer({
      ...DEFAULT_COALESCER_LIMITS,
      windowMs: config.audit.refusalWindowSeconds * 1000,
    });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweep(true);
  }

  /** Records one refusal; resolves once it is durable (or coalesced into an open window). */
  async record(refusal: Refusal): Promise<void> {
    const closed: RefusalRecord[] = [];
    const now = this.clock.now();
    const record = this.coalescer.admit(refusal, now, closed);
    if (closed.length > 0) void this.write(closed).catch(logWriteFailure);
    if (!record) return;
    let lastPosition: bigint;
    try {
      ({ lastPosition } = await this.write([record]));
    } catch (error) {
      this.coalescer.forget(record.refusal);
      throw error;
    }
    // The refusal is durable; showing it in the trail at once is a courtesy, not a condition.
    await this.projections.waitFor(lastPosition).catch(() => undefined);
  }

  /**
   * A failed call, put on the trail when it is a refusal worth recording (every refused command,
   * every access refusal), once per call however many layers see the error. Answers the error to
   * send: SERVICE_UNAVAILABLE when the record cannot be written, so no refusal goes unrecorded.
   */
  async recordFailure(req: Request, error: AppError, thrown: unknown): Promise<AppError> {
    if (!settleFailure(req)) return error;
    const refusal = refusalOf(req, error, thrown);
    if (!refusal) return error;
    try {
      await this.record(refusal);
      return error;
    } catch (writeError) {
      logger.error(
        `Could not record the refusal of request ${refusal.requestId ?? 'unknown'}`,
        errorForLog(writeError),
      );
      return new AppError('SERVICE_UNAVAILABLE', 'The audit trail could not record this call');
    }
  }

  /** A command that succeeded without appending anything: recorded, coalesced like refusals. */
  recordNoEffect(req: Request, ctx: RequestContext): Promise<void> {
    const { target, inputFields } = auditMarks(req);
    if (!target) return Promise.resolve();
    return this.record({
      target,
      caller: {
        principalId: ctx.principal?.id ?? null,
        kind: ctx.principal?.kind ?? 'anonymous',
        role: ctx.principal?.role ?? null,
        authMethod: ctx.authMethod,
        tokenId: ctx.tokenId,
      },
      clientAddress: ctx.clientAddress,
      code: null,
      inputFields: inputFields?.() ?? [],
      requestId: ctx.requestId,
    });
  }

  /** Writes the windows that have closed (all of them when `everything`). */
  sweep(everything = false): Promise<void> {
    this.sweeping = this.sweeping.then(async () => {
      const closed = this.coalescer.closeDue(this.clock.now(), everything);
      if (closed.length > 0) await this.write(closed).catch(logWriteFailure);
    });
    return this.sweeping;
  }

  /** Sealed like any event's address: the authenticated user's key, else the month's. */
  private async toEvent(record: RefusalRecord): Promise<NewEvent> {
    const { kind, principalId } = record.refusal.caller;
    const subject = this.personal.addressSubject(kind, principalId);
    const address = record.refusal.clientAddress;
    return eventOf(record, address === null ? null : await this.personal.protect(subject, address));
  }

  private async write(records: RefusalRecord[]) {
    return this.store.append(
      REFUSALS_STREAM,
      await Promise.all(records.map((r) => this.toEvent(r))),
      'any',
    );
  }
}

function logWriteFailure(error: unknown): void {
  logger.error('Could not record coalesced refusals', errorForLog(error));
}

function eventOf(
  { refusal, count, coalesced, firstAt, lastAt }: RefusalRecord,
  sealedAddress: EventMetadata['clientAddress'],
): NewEvent {
  const data: RefusalData = {
    surface: refusal.target.surface,
    target: refusal.target.name,
    lane: refusal.target.lane,
    code: refusal.code,
    inputFields: refusal.inputFields,
    count,
    coalesced,
    firstAt: firstAt.toISOString(),
    lastAt: lastAt.toISOString(),
    ...(refusal.target.channel === 'mcp' ? { channel: 'mcp' as const } : {}),
  };
  const { caller } = refusal;
  const metadata: EventMetadata = {
    actor: { principalId: caller.principalId, kind: caller.kind, role: caller.role },
    authMethod: caller.authMethod,
    tokenId: caller.tokenId,
    requestId: coalesced ? null : refusal.requestId,
    correlationId: coalesced ? null : refusal.requestId,
    causationId: coalesced ? null : refusal.requestId,
    clientAddress: sealedAddress,
    ...(refusal.target.channel === 'mcp' ? { channel: 'mcp' as const } : {}),
  };
  return { type: refusalEventType(refusal.code), schemaVersion: 1, data, metadata };
}
