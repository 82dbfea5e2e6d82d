import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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
import { SqliteEventStore } from '../eventstore/sqlite/sqlite-event-store.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { EventWriter } from '../storage/event-writer.js';
import { READ_MODELS } from '../storage/read-models.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { PROJECTIONS, type ProjectionList } from './storage.tokens.js';
import { errorForLog } from '../common/log-text.js';

const logger = new Logger('Projections');

/**
 * Event store, read store and projection runner: the embedded SQLite pair by default,
 * EventStoreDB/KurrentDB and MongoDB when their connection strings are set (see config).
 */
@Global()
@Module({})
export class StorageModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  static forRoot(projections: ProjectionList): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: PROJECTIONS, useValue: projections },
        {
          provide: EVENT_STORE,
          inject: [APP_CONFIG, CLOCK],
          useFactory: async (config: AppConfig, clock: Clock): Promise<EventStore> => {
            // The server clients (gRPC, the MongoDB driver) load only when they are configured.
            if (config.storage.eventStoreUrl) {
              const { EsdbEventStore } = await import('../eventstore/esdb/esdb-event-store.js');
              return new EsdbEventStore(config.storage.eventStoreUrl);
            }
            mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
            return new SqliteEventStore(join(config.dataDir, 'events.sqlite'), { clock });
          },
        },
        {
          provide: READ_STORE,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig): Promise<ReadStore> => {
            if (config.storage.mongoUrl) {
              const { MongoReadStore } = await import('../readstore/mongo/mongo-read-store.js');
              return MongoReadStore.connect(config.storage.mongoUrl);
            }
            mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
            return new SqliteReadStore(join(config.dataDir, 'read-models.sqlite'));
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
            return new ProjectionRunner(events, reads, list, {
              pollIntervalMs: config.projectionPollMs,
              // A command waits out a dead holder's lease (and the takeover's catch-up) rather
              // than answer 503 for a write that is stored.
              waitTimeoutMs: leases
                ? Math.max(config.projectionWaitTimeoutMs, leases.ttlMs + 10_000)
                : config.projectionWaitTimeoutMs,
              ...(leases ? { leases } : {}),
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
      exports: [EVENT_STORE, READ_STORE, READ_MODELS, ProjectionRunner, EventWriter, DeciderRunner],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.events.close();
    await this.reads.close();
  }
}
