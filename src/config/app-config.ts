import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { acmeConfig, type AcmeConfig } from './acme-config.js';
import { EnvironmentVariables, type LogLevel } from './environment-variables.js';
import { parsePublicUrls } from './public-urls.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { CREDENTIAL_VARIABLES, storageProblems, type StorageConfig } from './storage-config.js';

export { LOG_LEVELS, type LogLevel } from './environment-variables.js';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  logLevel: LogLevel;
  projectionWaitTimeoutMs: number;
  projectionPollMs: number;
  /** SLIPWAY_CATCH_UP_PROCESS_EVENTS; 0: the projections always catch up in the server. */
  projectionCatchUpProcessEvents: number;
  /** The proxies believed about the client's address and protocol (see trust-proxy.ts). */
  trustProxy: TrustProxy;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  secretKey: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** SLIPWAY_OPEN_SIGNUP: sign-up after the owner without an invite (as viewer). */
  openSignup: boolean;
  /** Where links point: SLIPWAY_PUBLIC_URL's first URL (default `http://localhost:<PORT>`). */
  publicUrl: string;
  /** SLIPWAY_PUBLIC_URL's other URLs: further names the server answers to, never in links. */
  publicUrlAliases: string[];
  /** SLIPWAY_SERVER_ADDRESS_POLICY as written (validated); see config/address-policy.ts. */
  serverAddressPolicy: string;
  /** 0: server checks are off (SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS). */
  serverCheckTimeoutSeconds: number;
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** 0: no cap. */
    maxConnectionsPerAddress: number;
  };
  audit: {
    signingKey: string | null;
    sealEveryEvents: number;
    sealSeconds: number;
    /** 0: no periodic verification (the worker and the tests). */
    verifySeconds: number;
    refusalWindowSeconds: number;
    anonymousAddressRetentionMonths: number;
  };
  storage: StorageConfig;
  notifications: {
    /** SLIPWAY_NOTIFICATION_ADDRESS_POLICY as written (validated). */
    addressPolicy: string;
    /** false in `worker.js`: the API process sends notifications. */
    sending: boolean;
    timeoutMs: number;
    retryBaseMs: number;
    maxAttempts: number;
    concurrency: number;
    /** SLIPWAY_TOKEN_EXPIRY_SCAN_MINUTES; 0: tokens expiring soon are not looked for. */
    tokenScanMinutes: number;
  };
  drains: {
    /** SLIPWAY_DRAIN_INTERVAL_MS: how often each drain looks for what to ship. */
    intervalMs: number;
    timeoutMs: number;
    retryBaseMs: number;
  };
  metrics: {
    /** SLIPWAY_METRICS_INTERVAL_SECONDS; 0: no metrics, no alerts. */
    intervalSeconds: number;
    /** SLIPWAY_METRICS_RAW_HOURS: how long samples are kept as read. */
    rawHours: number;
    /** SLIPWAY_METRICS_HOURLY_DAYS: how long hourly means are kept. */
    hourlyDays: number;
  };
  /** SLIPWAY_VOLUME_HELPER_IMAGE: the image that backs up, restores and test-restores volumes. */
  volumeHelperImage: string;
  runner: {
    mode: 'embedded' | 'off';
    maxPerServer: number;
    stepTimeoutSeconds: number;
    /** SLIPWAY_BUILD_TIMEOUT_SECONDS: the longest a commit's build step may take. */
    buildTimeoutSeconds: number;
    /** SLIPWAY_PREVIEW_SWEEP_SECONDS; 0: previews expire only when a delivery moves them. */
    previewSweepSeconds: number;
    pollMs: number;
    remoteDir: string;
  };
  edge: {
    /** SLIPWAY_EDGE_IMAGE. */
    image: string;
    /** SLIPWAY_EDGE_PUBLISH, one `docker run -p` mapping each. */
    publish: string[];
    /** SLIPWAY_EDGE_WATCH_SECONDS; 0: no periodic check. */
    watchSeconds: number;
    /** SLIPWAY_EDGE_DRAIN_SECONDS: between the switch and retiring the old containers. */
    drainSeconds: number;
    /** What the edge proxies obtain certificates with. */
    acme: AcmeConfig;
    /** SLIPWAY_CERT_EXPIRY_WARN_DAYS. */
    certExpiryWarnDays: number;
  };
  uploads: {
    /** SLIPWAY_UPLOAD_MAX_BYTES: a build context's gzip tar. */
    contextMaxBytes: number;
    /** SLIPWAY_IMAGE_UPLOAD_MAX_BYTES: a `docker save` tarball. */
    imageMaxBytes: number;
  };
  streams: {
    heartbeatMs: number;
    /** Only with the runner in another process: see SLIPWAY_LOG_STREAM_POLL_MS. */
    crossProcessPollMs: number;
    /** SLIPWAY_STREAM_CREDENTIAL_CHECK_MS: how often a long-lived response re-runs the guard. */
    credentialCheckMs: number;
    /** SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL. */
    containerLogsPerPrincipal: number;
    /** SLIPWAY_CONTAINER_LOG_STREAMS_PER_SERVER. */
    containerLogsPerServer: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new EnvironmentVariables());
  const raw: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const vars = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(vars, { forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map((e) => {
        const shown = CREDENTIAL_VARIABLES.has(e.property)
          ? '(hidden)'
          : JSON.stringify(raw[e.property] ?? null);
        return `${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join('; ')}`;
      }),
    );
  }
  if (vars.SLIPWAY_HTTP_REQUEST_TIMEOUT_MS < vars.SLIPWAY_HTTP_HEADERS_TIMEOUT_MS) {
    throw new ConfigError([
      `SLIPWAY_HTTP_REQUEST_TIMEOUT_MS=${vars.SLIPWAY_HTTP_REQUEST_TIMEOUT_MS}: must be at least SLIPWAY_HTTP_HEADERS_TIMEOUT_MS (${vars.SLIPWAY_HTTP_HEADERS_TIMEOUT_MS})`,
    ]);
  }
  const storage: StorageConfig = {
    eventStoreUrl: vars.SLIPWAY_EVENTSTORE_URL ?? null,
    mongoUrl: vars.SLIPWAY_MONGODB_URL ?? null,
    postgresUrl: vars.SLIPWAY_POSTGRES_URL ?? null,
    postgresReadModelPrefix: vars.SLIPWAY_POSTGRES_READ_MODEL_PREFIX,
    replicas: vars.SLIPWAY_REPLICAS,
  };
  const inconsistent = storageProblems(storage);
  if (inconsistent.length > 0) throw new ConfigError(inconsistent);
  const acme = acmeConfig(vars);
  if ('problem' in acme) throw new ConfigError([acme.problem]);
  const { publicUrl, aliases } = parsePublicUrls(vars.SLIPWAY_PUBLIC_URL, vars.PORT);
  return {
    port: vars.PORT,
    storage,
    host: vars.SLIPWAY_HOST,
    dataDir: vars.SLIPWAY_DATA_DIR,
    logLevel: vars.SLIPWAY_LOG_LEVEL,
    projectionWaitTimeoutMs: vars.SLIPWAY_PROJECTION_WAIT_TIMEOUT_MS,
    projectionPollMs: vars.SLIPWAY_PROJECTION_POLL_MS,
    projectionCatchUpProcessEvents: vars.SLIPWAY_CATCH_UP_PROCESS_EVENTS,
    trustProxy: parseTrustProxy(vars.SLIPWAY_TRUST_PROXY) as TrustProxy,
    sessionIdleMinutes: vars.SLIPWAY_SESSION_IDLE_MINUTES,
    sessionMaxHours: vars.SLIPWAY_SESSION_MAX_HOURS,
    secretKey: vars.SLIPWAY_SECRET_KEY ?? null,
    smtpUrl: vars.SLIPWAY_SMTP_URL ?? null,
    mailFrom: vars.SLIPWAY_MAIL_FROM,
    openSignup: vars.SLIPWAY_OPEN_SIGNUP,
    serverAddressPolicy: vars.SLIPWAY_SERVER_ADDRESS_POLICY,
    serverCheckTimeoutSeconds: vars.SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS,
    http: {
      headersTimeoutMs: vars.SLIPWAY_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: vars.SLIPWAY_HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: vars.SLIPWAY_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerAddress: vars.SLIPWAY_HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    audit: {
      signingKey: vars.SLIPWAY_AUDIT_SIGNING_KEY ?? null,
      sealEveryEvents: vars.SLIPWAY_AUDIT_SEAL_EVERY_EVENTS,
      sealSeconds: vars.SLIPWAY_AUDIT_SEAL_SECONDS,
      verifySeconds: vars.SLIPWAY_AUDIT_VERIFY_SECONDS,
      refusalWindowSeconds: vars.SLIPWAY_AUDIT_REFUSAL_WINDOW_SECONDS,
      anonymousAddressRetentionMonths: vars.SLIPWAY_ANONYMOUS_ADDRESS_RETENTION_MONTHS,
    },
    notifications: {
      addressPolicy: vars.SLIPWAY_NOTIFICATION_ADDRESS_POLICY,
      sending: true,
      timeoutMs: vars.SLIPWAY_NOTIFICATION_TIMEOUT_MS,
      retryBaseMs: vars.SLIPWAY_NOTIFICATION_RETRY_BASE_MS,
      maxAttempts: vars.SLIPWAY_NOTIFICATION_MAX_ATTEMPTS,
      concurrency: vars.SLIPWAY_NOTIFICATION_CONCURRENCY,
      tokenScanMinutes: vars.SLIPWAY_TOKEN_EXPIRY_SCAN_MINUTES,
    },
    drains: {
      intervalMs: vars.SLIPWAY_DRAIN_INTERVAL_MS,
      timeoutMs: vars.SLIPWAY_DRAIN_TIMEOUT_MS,
      retryBaseMs: vars.SLIPWAY_DRAIN_RETRY_BASE_MS,
    },
    metrics: {
      intervalSeconds: vars.SLIPWAY_METRICS_INTERVAL_SECONDS,
      rawHours: vars.SLIPWAY_METRICS_RAW_HOURS,
      hourlyDays: vars.SLIPWAY_METRICS_HOURLY_DAYS,
    },
    volumeHelperImage: vars.SLIPWAY_VOLUME_HELPER_IMAGE,
    runner: {
      mode: vars.SLIPWAY_RUNNER,
      maxPerServer: vars.SLIPWAY_RUNNER_MAX_PER_SERVER,
      stepTimeoutSeconds: vars.SLIPWAY_RUNNER_STEP_TIMEOUT_SECONDS,
      buildTimeoutSeconds: vars.SLIPWAY_BUILD_TIMEOUT_SECONDS,
      previewSweepSeconds: vars.SLIPWAY_PREVIEW_SWEEP_SECONDS,
      pollMs: vars.SLIPWAY_RUNNER_POLL_MS,
      remoteDir: vars.SLIPWAY_RUNNER_REMOTE_DIR,
    },
    edge: {
      image: vars.SLIPWAY_EDGE_IMAGE,
      publish: vars.SLIPWAY_EDGE_PUBLISH.split(','),
      watchSeconds: vars.SLIPWAY_EDGE_WATCH_SECONDS,
      drainSeconds: vars.SLIPWAY_EDGE_DRAIN_SECONDS,
      acme,
      certExpiryWarnDays: vars.SLIPWAY_CERT_EXPIRY_WARN_DAYS,
    },
    uploads: {
      contextMaxBytes: vars.SLIPWAY_UPLOAD_MAX_BYTES,
      imageMaxBytes: vars.SLIPWAY_IMAGE_UPLOAD_MAX_BYTES,
    },
    streams: {
      heartbeatMs: vars.SLIPWAY_SSE_HEARTBEAT_MS,
      crossProcessPollMs: vars.SLIPWAY_LOG_STREAM_POLL_MS,
      credentialCheckMs: vars.SLIPWAY_STREAM_CREDENTIAL_CHECK_MS,
      containerLogsPerPrincipal: vars.SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL,
      containerLogsPerServer: vars.SLIPWAY_CONTAINER_LOG_STREAMS_PER_SERVER,
    },
    publicUrl,
    publicUrlAliases: aliases,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
