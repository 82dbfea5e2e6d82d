import { Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';
import { EVENTSTORE_URL, MONGODB_URL, POSTGRES_URL, READ_MODEL_PREFIX } from './storage-config.js';
import { toInt } from './variable-transforms.js';

/**
 * The variables of where events and read models live and how the projections keep up with
 * them; EnvironmentVariables extends this class (property names are the variable names).
 */
export class StorageVariables {
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  SLIPWAY_PROJECTION_WAIT_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  SLIPWAY_PROJECTION_POLL_MS = 500;

  /**
   * Events the projections may be behind at start before they catch up in a process of their
   * own, started with Node's default memory settings (0: always in the server's process).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  SLIPWAY_CATCH_UP_PROCESS_EVENTS = 50_000;

  /** Events in EventStoreDB/KurrentDB (`esdb://`); absent: the embedded SQLite file. */
  @Omittable()
  @Matches(EVENTSTORE_URL, {
    message: 'SLIPWAY_EVENTSTORE_URL must be an esdb:// or esdb+discover:// connection string',
  })
  SLIPWAY_EVENTSTORE_URL?: string = undefined;

  /** Read models in MongoDB (a replica set); absent: the embedded SQLite file. */
  @Omittable()
  @Matches(MONGODB_URL, {
    message: 'SLIPWAY_MONGODB_URL must be a mongodb:// or mongodb+srv:// connection string',
  })
  SLIPWAY_MONGODB_URL?: string = undefined;

  /** Events, read models and the primary store in PostgreSQL; absent: the embedded SQLite files. */
  @Omittable()
  @Matches(POSTGRES_URL, {
    message: 'SLIPWAY_POSTGRES_URL must be a postgres:// or postgresql:// connection string',
  })
  SLIPWAY_POSTGRES_URL?: string = undefined;

  /** The read models' table prefix on PostgreSQL; another one rebuilds them blue-green. */
  @Matches(READ_MODEL_PREFIX, {
    message:
      'SLIPWAY_POSTGRES_READ_MODEL_PREFIX must be 2-16 lower-case letters and digits ending in _ (not pd_ or slipway_)',
  })
  SLIPWAY_POSTGRES_READ_MODEL_PREFIX = 'rm_';

  /** API processes sharing the stores. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SLIPWAY_REPLICAS = 1;
}
