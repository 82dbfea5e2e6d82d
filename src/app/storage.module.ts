import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ProjectionLeases } from '../../projections/projection-lease.js';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { EventWriter } from '../storage/event-writer.js';
import { READ_MODELS } from '../storage/read-models.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { PROJECTIONS, type ProjectionList } from './storage.tokens.js';
import { errorForLog } from '../common/log-text.js';
import { catchUpProcess } from './catch-up-process.js';
import { movePrimaryData } from './move-primary-data.js';
import { openEventStore, openPrimaryStore, openReadStore } from './open-stores.js';

const logger = new Logger('Projections');

/**
 * Event store, read store, primary store and projection runner: SQLite files in the data
 * directory by default, EventStoreDB/KurrentDB and MongoDB when their connection strings are set
 * (see config). The projection runner is given the read store only.
 */
@Global()
@Module({})
export class StorageModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
  ) {}

  static forRoot(projections: ProjectionList): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: PROJECTIONS, useValue: projections },
        {
          provide: EVENT_STORE,
          inject: [APP_CONFIG, CLOCK],
          useFactory: (config: AppConfig, clock: Clock) => openEventStore(config, { clock }),
        },
        {
          provide: READ_STORE,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => openReadStore(config),
        },
        {
          // Apart from the read models, so that no rebuild reaches it; filled from them once.
          provide: PRIMARY_STORE,
          inject: [APP_CONFIG, READ_STORE],
          useFactory: async (config: AppConfig, reads: ReadStore) => {
            const primary = await openPrimaryStore(config);
            try {
              await movePrimaryData(reads, primary);
            } catch (error) {
              await primary.close();
              throw error;
            }
            return primary;
          },
        },
        {
          provide: ProjectionRunner,
          inject: [EVENT_STORE, READ_STORE, PROJECTIONS, APP_CONFIG],
          useFactory: (
            events: EventStore,
            reads: ReadStore,
            list: ProjectionList,
            config: AppConfig,
          ) => {
            // Several replicas: one applies each projection, the others follow its checkpoint.
            const leases = config.storage.replicas > 1 ? new ProjectionLeases(reads) : null;
            // Alone on the embedded pair and far behind: the catch-up runs in its own process.
            const elsewhere = catchUpProcess(config, list, logger);
            return new ProjectionRunner(events, reads, list, {
              pollIntervalMs: config.projectionPollMs,
              // A command waits out a dead holder's lease (and the takeover's catch-up) rather
              // than answer 503 for a write that is stored.
              waitTimeoutMs: leases
                ? Math.max(config.projectionWaitTimeoutMs, leases.ttlMs + 10_000)
                : config.projectionWaitTimeoutMs,
              ...(leases ? { leases } : {}),
              ...(elsewhere ? { catchUpElsewhere: elsewhere } : {}),
              onError: (name, error) =>
                logger.error(`Projection ${name} failed`, errorForLog(error)),
              onNotice: (name, message) => logger.warn(`Projection ${name}: ${message}`),
            });
          },
        },
        // The write path waits for read models through its own small interface.
        { provide: READ_MODELS, useExisting: ProjectionRunner },
        EventWriter,
        DeciderRunner,
      ],
      exports: [
        EVENT_STORE,
        READ_STORE,
        PRIMARY_STORE,
        READ_MODELS,
        ProjectionRunner,
        EventWriter,
        DeciderRunner,
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.events.close();
    await this.reads.close();
    await this.primary.close();
  }
}
