import { Inject, Injectable, Logger } from '@nestjs/common';
import { systemContext, type RequestContext } from '../kernel/request-context.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import {
  PRIMARY_STORE,
  type CollectionSpec,
  type Doc,
  type ReadStore,
} from '../readstore/read-store.port.js';
import { EventWriter } from '../storage/event-writer.js';
import { AUDIT_SIGNING_KEY, AuditSigningKey } from './audit-signing-key.js';
import {
  AUDIT_CHECKPOINTS_STREAM,
  AuditCheckpointSealed,
  checkpointDigest,
  type CheckpointFields,
} from '../events/audit.events.js';
import { chainLink, GENESIS } from './hash-chain.js';
import { positionAfter } from './chain-places.js';
import { PeriodicPass } from '../common/periodic-pass.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import { AuditMarks, TrailBehindMark } from './mark/audit-marks.js';
import { refusalToSign, type PlacedCheckpoint } from './mark/audit-mark.js';

export { AUDIT_SIGNING_KEY };

/** The link recorded for one place of the global order (`position`: the place, 1, 2, 3…). */
export interface ChainLinkDoc extends Doc {
  position: number;
  hash: string;
}

/**
 * `audit_chain`: written here only (not a projection: in the primary store), one link per
 * sealed place.
 */
export const AUDIT_CHAIN: CollectionSpec = {
  name: 'audit_chain',
  indexes: [{ fields: ['position'] }],
};

export interface SealedCheckpoint {
  sequence: number;
  toPosition: number;
  chainHash: string;
  /** What the next checkpoint links to; `<sequence>:<digest>` is what `--expect` takes. */
  digest: string;
}

/** Where the store's global order continues after the last checkpoint. */
interface Resume {
  sequence: number;
  from: bigint;
}

const logger = new Logger('Audit');

/**
 * Extends the hash chain over events not yet sealed, records each link in `audit_chain` (so a
 * later verification can name the exact event that changed), and appends a checkpoint signed
 * with the audit key. Runs on demand and, when configured, every N events or T seconds.
 */
@Injectable()
export class AuditSealer extends PeriodicPass {
  private lastSealAt = Date.now();
  private sealing: Promise<SealedCheckpoint | null> | null = null;
  private resume: Resume | null = null;
  private startupCheck: Promise<unknown> | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: EventWriter,
    private readonly marks: AuditMarks,
  ) {
    super({ logger, failure: 'Sealing failed' });
  }

  /** When sealing is configured, every 2 s: whether enough events or time have passed. */
  protected override intervalMs(): number {
    const { sealEveryEvents, sealSeconds } = this.config.audit;
    return sealEveryEvents === 0 && sealSeconds === 0 ? 0 : 2000;
  }

  override async onApplicationBootstrap(): Promise<void> {
    await this.primary.ensureCollection(AUDIT_CHAIN);
    // A trail cut back while the process was down is said at start (logged and recorded), not
    // at the next seal; in the background, so a store still unreachable does not hold start up.
    this.startupCheck = this.marks.newest().catch(() => undefined);
    super.onApplicationBootstrap();
  }

  override async onApplicationShutdown(): Promise<void> {
    await super.onApplicationShutdown();
    await this.startupCheck;
    await this.sealing;
  }

  /** Seals when due; a failed pass is logged (PeriodicPass) and the next one tries again. */
  protected async pass(): Promise<void> {
    try {
      const last = await this.lastCheckpoint();
      const { sealEveryEvents, sealSeconds } = this.config.audit;
      const unsealed = await this.unsealedCount(last, Math.max(sealEveryEvents, 2));
      const byCount = sealEveryEvents > 0 && unsealed >= sealEveryEvents;
      const byTime =
        sealSeconds > 0 && unsealed > 1 && Date.now() - this.lastSealAt >= sealSeconds * 1000;
      if (byCount || byTime) await this.seal(systemContext('audit-sealer'));
    } catch (error) {
      // Another replica sealed the same events first: its checkpoint stands, nothing failed.
      // (The next pass reads the checkpoints again from the mark: had the stream been cut
      // short instead, it says so there.)
      if (error instanceof WrongExpectedRevisionError) return;
      // Raised once already (logged and recorded); every 2 s would only repeat it.
      if (error instanceof TrailBehindMark) return;
      throw error;
    }
  }

  /** One seal at a time; null when there is nothing new to seal. */
  seal(ctx: RequestContext): Promise<SealedCheckpoint | null> {
    const run = (this.sealing ?? Promise.resolve(null)).then(() => this.sealOnce(ctx));
    this.sealing = run.catch(() => null);
    return run;
  }

  /** The newest checkpoint, once the store is found to hold the marked one (else it throws). */
  private async lastCheckpoint(): Promise<PlacedCheckpoint | null> {
    return (await this.marks.newest()).newest;
  }

  /** At most `cap`: on a sparse store the unsealed events are counted, not subtracted. */
  private async unsealedCount(last: PlacedCheckpoint | null, cap: number): Promise<number> {
    if (this.events.positions === 'dense') {
      return Number(await this.events.headPosition()) - (last?.toPosition ?? 0);
    }
    return (await this.events.readAll(await this.resumeFrom(last), cap)).length;
  }

  /** The store position after the last sealed event, looked up once per checkpoint. */
  private async resumeFrom(last: CheckpointFields | null): Promise<bigint> {
    const sequence = last?.sequence ?? 0;
    if (this.resume?.sequence !== sequence) {
      this.resume = { sequence, from: await positionAfter(this.events, last) };
    }
    return this.resume.from;
  }

  private async sealOnce(ctx: RequestContext): Promise<SealedCheckpoint | null> {
    const { newest: last, mark } = await this.marks.newest();
    const next = {
      sequence: (last?.sequence ?? 0) + 1,
      previousCheckpointHash: last ? checkpointDigest(last) : GENESIS,
    };
    // Before any link is recorded: links of a chain that will not be signed would overwrite
    // the ones verification names changed events by.
    const refusal = refusalToSign(mark, last, next);
    if (refusal) {
      logger.error(`Audit trail: refusing to sign: ${refusal}`);
      throw new TrailBehindMark({ problem: 'truncated', firstBadPosition: null, message: refusal });
    }
    const head = await this.events.headPosition();
    let from = await this.resumeFrom(last);
    if (head < from) return null;
    let link = last?.chainHash ?? GENESIS;
    let place = last?.toPosition ?? 0;
    let end: { stream: string; revision: bigint; position: bigint } | null = null;
    while (from <= head) {
      const batch = await this.events.readAll(from, 1000);
      const upTo = batch.filter((e) => e.position <= head);
      if (upTo.length === 0) break;
      const docs: ChainLinkDoc[] = upTo.map((e) => {
        place += 1;
        link = chainLink(link, e, place);
        return { id: String(place).padStart(15, '0'), position: place, hash: link };
      });
      await this.primary.transaction(async (session) => {
        for (const doc of docs) await session.collection<ChainLinkDoc>(AUDIT_CHAIN.name).put(doc);
      });
      end = upTo[upTo.length - 1];
      from = end.position + 1n;
    }
    if (!end) return null;
    const fields = {
      sequence: next.sequence,
      toPosition: place,
      toStream: end.stream,
      toRevision: Number(end.revision),
      chainHash: link,
      previousCheckpointHash: next.previousCheckpointHash,
    };
    const digest = checkpointDigest(fields);
    const signature = this.key.sign(digest);
    const appended = await this.writer.append(
      AUDIT_CHECKPOINTS_STREAM,
      [AuditCheckpointSealed({ ...fields, signature })],
      last ? last.revision : 'no_stream',
      ctx,
    );
    // Only once the store took it: a seal another replica won must not leave a mark ahead.
    this.marks.signed({
      ...fields,
      signature,
      position: Number(appended.lastPosition),
      revision: appended.nextExpectedRevision,
      recordedAt: new Date().toISOString(),
    });
    this.lastSealAt = Date.now();
    this.resume = { sequence: fields.sequence, from };
    return { sequence: fields.sequence, toPosition: place, chainHash: link, digest };
  }
}
