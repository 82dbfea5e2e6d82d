import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProjectionRunner } from '../../../projections/projection-runner.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { EVENT_STORE, type EventStore } from '../../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { SubjectErasure } from './subject-erasure.js';
import { errorForLog } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';

const logger = new Logger('Privacy');

/**
 * After start, carries out again every recorded erasure (SubjectErasure: idempotent), which
 * completes any a crash interrupted. Runs in the background once the read models have caught
 * up; never delays start-up. Its periodic pass is the retention of anonymous callers'
 * addresses: at start, then daily.
 */
@Injectable()
export class PrivacyReconciler extends PeriodicPass<string[]> {
  private reconciling: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionRunner,
    private readonly personal: PersonalData,
    private readonly erasure: SubjectErasure,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super({ logger, failure: 'Expiring client addresses failed' });
  }

  /** Retention runs daily; a month boundary is at most a day late. */
  protected override intervalMs(): number {
    return 24 * 3600_000;
  }

  protected pass(): Promise<string[]> {
    return this.expireAddresses();
  }

  /** Anonymous callers' addresses become unreadable after the retention period. */
  async expireAddresses(): Promise<string[]> {
    const expired = await this.personal.expireAnonymous(
      this.config.audit.anonymousAddressRetentionMonths,
    );
    if (expired.length > 0)
      logger.log(`Erased anonymous client addresses of ${expired.join(', ')}`);
    return expired;
  }

  override async onApplicationBootstrap(): Promise<void> {
    await this.tick();
    super.onApplicationBootstrap();
    this.reconciling = this.reconcile().then(
      () => undefined,
      (error: unknown) => logger.error('Reconciling erasures failed', errorForLog(error)),
    );
  }

  override async onApplicationShutdown(): Promise<void> {
    // Sets `stopped` first, which ends reconcile()'s wait for the read models.
    await super.onApplicationShutdown();
    await this.reconciling;
  }

  async reconcile(): Promise<number> {
    const head = await this.events.headPosition();
    for (;;) {
      if (this.stopped) return 0;
      try {
        await this.projections.waitFor(head, ['principals', 'invites']);
        break;
      } catch {
        // Still catching up after a long downtime: keep waiting.
      }
    }
    const erased: PrincipalDoc[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.reads
        .collection<PrincipalDoc>('principals')
        .find({ dataErasedAt: { $gt: '' } }, { limit: 500, cursor });
      erased.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const { completed } = await this.erasure.carryOut(erased);
    if (completed.size > 0)
      logger.warn(`Completed ${completed.size} recorded erasure(s) left undone`);
    return completed.size;
  }
}
