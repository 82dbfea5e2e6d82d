import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { errorForLog } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { PreviewEnvironments } from './preview-environments.js';

const logger = new Logger('Previews');

/**
 * Every SLIPWAY_PREVIEW_SWEEP_SECONDS (with the runner on): each service that previews pull
 * requests, or has preview services still up, has its previews past their time to live closed
 * and is reconciled (a teardown or deployment that failed is tried again).
 */
@Injectable()
export class PreviewSweep extends PeriodicPass {
  constructor(
    private readonly previews: PreviewEnvironments,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected override intervalSeconds(): number {
    return this.config.runner.mode === 'off' ? 0 : this.config.runner.previewSweepSeconds;
  }

  protected pass(): Promise<void> {
    return this.sweep(new Date());
  }

  /** Closes what is past its time to live at `now`, then reconciles. */
  async sweep(now: Date): Promise<void> {
    const services = await readAll(this.reads.collection<ServiceDoc>('services'), {});
    const ids = new Set<string>();
    for (const s of services) {
      if (s.gitSource?.previews) ids.add(s.id);
      if (s.preview && s.status !== 'archived') ids.add(s.preview.serviceId);
    }
    for (const id of ids) {
      try {
        await this.previews.expire(id, now);
        await this.previews.reconcile(id);
      } catch (error) {
        logger.warn(`The previews of service ${id} could not be swept: ${errorForLog(error)}`);
      }
    }
  }
}
