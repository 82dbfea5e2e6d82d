import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { Omittable } from '../common/omittable.js';
import { addressPolicyProblems } from './address-policy.js';
import { IsPublicUrlList } from './public-urls.js';
import { StreamVariables } from './stream-variables.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { toBool, toInt } from './variable-transforms.js';

const isProblem = (v: TrustProxy | { problem: string }): v is { problem: string } =>
  typeof v === 'object' && 'problem' in v;

export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting comes from an environment variable; the property names below are the
 * variable names, so a validation message names the variable to fix. The storage variables
 * are declared in StorageVariables, the streams' in StreamVariables.
 */
export class EnvironmentVariables extends StreamVariables {
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer port number' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  SLIPWAY_HOST = '127.0.0.1';

  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  SLIPWAY_DATA_DIR = './data';

  @IsIn(LOG_LEVELS)
  SLIPWAY_LOG_LEVEL: LogLevel = 'log';

  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !isProblem(parseTrustProxy(value)),
      defaultMessage: (args) => {
        const parsed = parseTrustProxy(String(args?.value));
        return `SLIPWAY_TRUST_PROXY is false, true (one proxy), a number of proxies or their addresses and ranges: ${isProblem(parsed) ? parsed.problem : ''}`;
      },
    },
  })
  SLIPWAY_TRUST_PROXY = 'false';

  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(10_080)
  SLIPWAY_SESSION_IDLE_MINUTES = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  SLIPWAY_SESSION_MAX_HOURS = 12;

  /** 32 bytes, base64: encrypts TOTP secrets. Absent: a key file in the data directory. */
  @Omittable()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'SLIPWAY_SECRET_KEY must be 32 bytes, base64-encoded',
  })
  SLIPWAY_SECRET_KEY?: string = undefined;

  @Omittable()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SLIPWAY_SMTP_URL must be an smtp:// or smtps:// URL' })
  SLIPWAY_SMTP_URL?: string = undefined;

  @IsString()
  @MaxLength(200)
  SLIPWAY_MAIL_FROM = 'Slipway <no-reply@slipway.invalid>';

  @IsIn(['embedded', 'off'])
  SLIPWAY_RUNNER: 'embedded' | 'off' = 'embedded';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(32)
  SLIPWAY_RUNNER_MAX_PER_SERVER = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  SLIPWAY_RUNNER_STEP_TIMEOUT_SECONDS = 900;

  /** The longest a build of a commit may take, fetch included, however much it prints. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400)
  SLIPWAY_BUILD_TIMEOUT_SECONDS = 1800;

  /**
   * How often pull-request previews are looked over, in seconds: those past their time to live
   * are closed, and closed ones not yet torn down are torn down; 0: only as deliveries come.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  SLIPWAY_PREVIEW_SWEEP_SECONDS = 300;

  @Transform(toInt)
  @IsInt()
  @Min(20)
  @Max(60_000)
  SLIPWAY_RUNNER_POLL_MS = 1000;

  @Matches(/^\/[A-Za-z0-9._/-]{1,200}$/, {
    message: 'SLIPWAY_RUNNER_REMOTE_DIR must be an absolute path',
  })
  SLIPWAY_RUNNER_REMOTE_DIR = '/srv/slipway';

  /**
   * Which server and health-check addresses Slipway may connect to, beyond the built-in refusals
   * (loopback, link-local, cloud metadata, unspecified, multicast, broadcast):
   * `allow:<class|address|cidr>` / `deny:<...>`, comma-separated. Empty: the built-in rules.
   */
  @IsString()
  @MaxLength(4096)
  @ValidateBy({
    name: 'addressPolicy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && addressPolicyProblems(value).length === 0,
      defaultMessage: (args) =>
        `SLIPWAY_SERVER_ADDRESS_POLICY: ${addressPolicyProblems(String(args?.value)).join('; ')}`,
    },
  })
  SLIPWAY_SERVER_ADDRESS_POLICY = '';

  /**
   * How long one server check may take (keyscan, connection check, the approval's and the
   * plans' reachability checks), the address lookup aside. 0: Slipway connects to servers only
   * to deploy and back up, and those checks answer that they are off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60)
  SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS = 10;

  /**
   * Which addresses notification channels may post to, over the built-in refusals and the
   * private ranges (refused for notifications by default): same syntax as the server policy.
   */
  @IsString()
  @MaxLength(4096)
  @ValidateBy({
    name: 'notificationAddressPolicy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && addressPolicyProblems(value).length === 0,
      defaultMessage: (args) =>
        `SLIPWAY_NOTIFICATION_ADDRESS_POLICY: ${addressPolicyProblems(String(args?.value)).join('; ')}`,
    },
  })
  SLIPWAY_NOTIFICATION_ADDRESS_POLICY = '';

  /** How long one notification delivery may take (connect, send, answer). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  SLIPWAY_NOTIFICATION_TIMEOUT_MS = 5_000;

  /** First retry delay of a failed delivery; doubled at each attempt (capped at one hour). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  SLIPWAY_NOTIFICATION_RETRY_BASE_MS = 30_000;

  /** Attempts before a delivery is given up as failed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  SLIPWAY_NOTIFICATION_MAX_ATTEMPTS = 6;

  /** Deliveries in flight at once, all channels together. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SLIPWAY_NOTIFICATION_CONCURRENCY = 4;

  /** How often each drain looks for audit records and deployment output to ship (ms). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  SLIPWAY_DRAIN_INTERVAL_MS = 1_000;

  /** The longest one shipment to a drain may take (connect, send, answer), in ms. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  SLIPWAY_DRAIN_TIMEOUT_MS = 10_000;

  /** A drain's first wait after a failed shipment (ms); doubled at each failure, up to 5 minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(300_000)
  SLIPWAY_DRAIN_RETRY_BASE_MS = 1_000;

  /** Minutes between scans for API tokens expiring within 7 days; 0: no scan. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1440)
  SLIPWAY_TOKEN_EXPIRY_SCAN_MINUTES = 60;

  /** PKCS#8 PEM of the Ed25519 key that signs audit checkpoints; absent: a 0600 key file. */
  @Omittable()
  @Matches(/^-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----\s*$/, {
    message: 'SLIPWAY_AUDIT_SIGNING_KEY must be a PKCS#8 PEM private key',
  })
  SLIPWAY_AUDIT_SIGNING_KEY?: string = undefined;

  /** Seal a checkpoint once this many events are unsealed (0: never by count). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  SLIPWAY_AUDIT_SEAL_EVERY_EVENTS = 1000;

  /** ... or once this many seconds passed with unsealed events (0: never by time). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  SLIPWAY_AUDIT_SEAL_SECONDS = 300;

  /** Verify the next stretch of the audit trail every this many seconds (0: never by itself). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(604_800)
  SLIPWAY_AUDIT_VERIFY_SECONDS = 3600;

  /** Identical refusals from one client inside this window are recorded as one event + count. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  SLIPWAY_AUDIT_REFUSAL_WINDOW_SECONDS = 60;

  /** Months the client addresses of unauthenticated calls stay readable (0: forever). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1200)
  SLIPWAY_ANONYMOUS_ADDRESS_RETENTION_MONTHS = 12;

  /** A request's headers must arrive within this time, counted from its first byte. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300_000)
  SLIPWAY_HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** A whole request (headers and body) must arrive within this time. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  SLIPWAY_HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** An idle keep-alive connection is closed after this time. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  SLIPWAY_HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /** Open connections one client address may hold; more are refused (0: no cap). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  SLIPWAY_HTTP_MAX_CONNECTIONS_PER_ADDRESS = 128;

  /** Largest gzip tar of a build context `PUT /api/v1/deploy/uploads/{id}` takes (bytes). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(8 * 1024 ** 3)
  SLIPWAY_UPLOAD_MAX_BYTES = 100 * 1024 ** 2;

  /** Largest `docker save` tarball `PUT /api/v1/servers/{id}/images` streams on (bytes). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 ** 3)
  SLIPWAY_IMAGE_UPLOAD_MAX_BYTES = 2 * 1024 ** 3;

  /**
   * Whether anyone may sign up once the team has its owner (they join as viewers). Off: later
   * members join only through an invite.
   */
  @Transform(toBool)
  @IsBoolean({ message: 'SLIPWAY_OPEN_SIGNUP must be true or false' })
  SLIPWAY_OPEN_SIGNUP = false;

  /**
   * Where users reach the dashboard, links point (the first URL), and the hosts the server
   * answers to: one http(s) URL or several, separated by commas.
   */
  @IsPublicUrlList()
  @Omittable()
  SLIPWAY_PUBLIC_URL?: string = undefined;
}
