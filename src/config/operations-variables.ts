import { Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';
import { EdgeVariables } from './edge-variables.js';
import { toInt } from './variable-transforms.js';

/**
 * The settings of day-to-day operations (metrics and alerts, volume backups); property names are
 * the variable names. StreamVariables extends this class.
 */
export class OperationsVariables extends EdgeVariables {
  /**
   * How often the runner reads each ready server's and its services' containers' metrics over
   * SSH, in seconds (at least 5); 0: none are collected (and no alert is evaluated).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  @ValidateIf((_o, v: unknown) => v !== 0)
  @Min(5)
  SLIPWAY_METRICS_INTERVAL_SECONDS = 60;

  /** How long each sample is kept as read, in hours; older ones survive as hourly means. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 14)
  SLIPWAY_METRICS_RAW_HOURS = 48;

  /** How long the hourly means are kept, in days. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3660)
  SLIPWAY_METRICS_HOURLY_DAYS = 90;

  /**
   * The image whose `tar` backs up and restores named volumes, and in which volume backups are
   * test-restored (pulled by the server's engine).
   */
  @Matches(/^[a-z0-9][a-z0-9._\-/:@]{0,254}$/)
  SLIPWAY_VOLUME_HELPER_IMAGE = 'busybox:1.37';
}
