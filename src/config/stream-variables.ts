import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { OperationsVariables } from './operations-variables.js';
import { toInt } from './variable-transforms.js';

/**
 * The settings of long-lived responses (server-sent event streams, followed logs); property
 * names are the variable names. EnvironmentVariables extends this class.
 */
export class StreamVariables extends OperationsVariables {
  /** Heartbeat comment on server-sent event streams (`: ping`), in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(300_000)
  SLIPWAY_SSE_HEARTBEAT_MS = 15_000;

  /**
   * How often an open stream or MCP wait verifies its credential again (revoked, expired,
   * invalidated, deactivated, session ended), in milliseconds: it ends within about this long.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(10_000)
  SLIPWAY_STREAM_CREDENTIAL_CHECK_MS = 2000;

  /** Container log streams (`docker compose logs -f` over SSH) one principal may hold at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL = 4;

  /** Container log streams open at once against one server, whoever holds them. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  SLIPWAY_CONTAINER_LOG_STREAMS_PER_SERVER = 16;

  /**
   * With SLIPWAY_RUNNER=off (the runner in a worker process), how often a followed deployment's
   * log is read for lines the other process wrote, besides the read store's change
   * notifications (a fallback for when they are missed).
   */
  @Transform(toInt)
  @IsInt()
  @Min(20)
  @Max(60_000)
  SLIPWAY_LOG_STREAM_POLL_MS = 250;
}
