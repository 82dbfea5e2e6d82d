import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      edge: {
        image: 'caddy:2',
        publish: ['80:80', '443:443'],
        watchSeconds: 60,
        drainSeconds: 10,
        acme: {
          ca: 'https://acme-v02.api.letsencrypt.org/directory',
          caRootPem: null,
          email: null,
        },
        certExpiryWarnDays: 14,
      },
      logLevel: 'log',
      projectionWaitTimeoutMs: 10_000,
      projectionPollMs: 500,
      projectionCatchUpProcessEvents: 50_000,
      trustProxy: false,
      sessionIdleMinutes: 60,
      sessionMaxHours: 12,
      secretKey: null,
      smtpUrl: null,
      mailFrom: 'Slipway <no-reply@slipway.invalid>',
      openSignup: false,
      publicUrl: 'http://localhost:3000',
      publicUrlAliases: [],
      serverAddressPolicy: '',
      serverCheckTimeoutSeconds: 10,
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnectionsPerAddress: 128,
      },
      audit: {
        signingKey: null,
        refusalWindowSeconds: 60,
        anonymousAddressRetentionMonths: 12,
        sealEveryEvents: 1000,
        sealSeconds: 300,
        verifySeconds: 3600,
      },
      storage: {
        eventStoreUrl: null,
        mongoUrl: null,
        postgresUrl: null,
        postgresReadModelPrefix: 'rm_',
        replicas: 1,
      },
      uploads: { contextMaxBytes: 100 * 1024 ** 2, imageMaxBytes: 2 * 1024 ** 3 },
      streams: {
        heartbeatMs: 15_000,
        crossProcessPollMs: 250,
        credentialCheckMs: 2000,
        containerLogsPerPrincipal: 4,
        containerLogsPerServer: 16,
      },
      drains: { intervalMs: 1000, timeoutMs: 10000, retryBaseMs: 1000 },
      metrics: { intervalSeconds: 60, rawHours: 48, hourlyDays: 90 },
      volumeHelperImage: 'busybox:1.37',
      notifications: {
        addressPolicy: '',
        sending: true,
        timeoutMs: 5_000,
        retryBaseMs: 30_000,
        maxAttempts: 6,
        concurrency: 4,
        tokenScanMinutes: 60,
      },
      runner: {
        mode: 'embedded',
        maxPerServer: 2,
        stepTimeoutSeconds: 900,
        buildTimeoutSeconds: 1800,
        previewSweepSeconds: 300,
        pollMs: 1000,
        remoteDir: '/srv/slipway',
      },
    });
  });

  it('reads variables and converts their types', () => {
    const config = loadConfig({
      PORT: '8080',
      SLIPWAY_DATA_DIR: '/var/lib/slipway',
      SLIPWAY_TRUST_PROXY: 'true',
      SLIPWAY_LOG_LEVEL: 'debug',
      SLIPWAY_OPEN_SIGNUP: 'true',
      SLIPWAY_SERVER_ADDRESS_POLICY: 'allow:loopback, deny:private,allow:10.1.0.0/16',
    });
    expect(config).toMatchObject({
      serverAddressPolicy: 'allow:loopback, deny:private,allow:10.1.0.0/16',
      port: 8080,
      dataDir: '/var/lib/slipway',
      trustProxy: 1,
      logLevel: 'debug',
      openSignup: true,
    });
  });

  it.each([
    ['false', false],
    ['true', 1],
    ['2', 2],
    [
      'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7',
      ['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7'],
    ],
  ] as const)('reads SLIPWAY_TRUST_PROXY=%s as the proxies to believe', (value, trustProxy) => {
    expect(loadConfig({ SLIPWAY_TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['SLIPWAY_LOG_LEVEL', 'loud'],
    ['SLIPWAY_TRUST_PROXY', 'maybe'],
    ['SLIPWAY_TRUST_PROXY', '11'],
    ['SLIPWAY_TRUST_PROXY', '10.0.0.0/33'],
    ['SLIPWAY_TRUST_PROXY', 'loopback,everyone'],
    ['SLIPWAY_PROJECTION_WAIT_TIMEOUT_MS', '5'],
    ['SLIPWAY_CATCH_UP_PROCESS_EVENTS', '-1'],
    ['SLIPWAY_CATCH_UP_PROCESS_EVENTS', 'many'],
    ['SLIPWAY_CATCH_UP_PROCESS_EVENTS', '1e6'],
    ['SLIPWAY_SECRET_KEY', 'too-short'],
    ['SLIPWAY_SMTP_URL', 'http://mail'],
    ['SLIPWAY_SERVER_ADDRESS_POLICY', 'allow:everything'],
    ['SLIPWAY_SERVER_ADDRESS_POLICY', 'permit:127.0.0.1'],
    ['SLIPWAY_SERVER_ADDRESS_POLICY', 'allow:0x7f.1'],
    ['SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS', '61'],
    ['SLIPWAY_HTTP_HEADERS_TIMEOUT_MS', '10'],
    ['SLIPWAY_HTTP_REQUEST_TIMEOUT_MS', 'soon'],
    ['SLIPWAY_HTTP_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['SLIPWAY_HTTP_MAX_CONNECTIONS_PER_ADDRESS', '-1'],
    ['SLIPWAY_EVENTSTORE_URL', 'http://db:2113'],
    ['SLIPWAY_MONGODB_URL', 'postgres://db'],
    ['SLIPWAY_POSTGRES_URL', 'mongodb://db'],
    ['SLIPWAY_REPLICAS', '0'],
    ['SLIPWAY_REPLICAS', '65'],
    ['SLIPWAY_NOTIFICATION_ADDRESS_POLICY', 'allow:everything'],
    ['SLIPWAY_NOTIFICATION_TIMEOUT_MS', '50'],
    ['SLIPWAY_NOTIFICATION_RETRY_BASE_MS', 'often'],
    ['SLIPWAY_NOTIFICATION_MAX_ATTEMPTS', '0'],
    ['SLIPWAY_NOTIFICATION_CONCURRENCY', '65'],
    ['SLIPWAY_TOKEN_EXPIRY_SCAN_MINUTES', '1441'],
    ['SLIPWAY_PUBLIC_URL', 'slipway.example.com'],
    ['SLIPWAY_PUBLIC_URL', 'ftp://slipway.example.com'],
    ['SLIPWAY_PUBLIC_URL', 'https://slipway.example.com, http://[::1'],
    ['SLIPWAY_PUBLIC_URL', ' , '],
    // A stream must learn of a revoked credential within seconds.
    ['SLIPWAY_STREAM_CREDENTIAL_CHECK_MS', '60000'],
    ['SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL', '0'],
    ['SLIPWAY_CONTAINER_LOG_STREAMS_PER_SERVER', 'many'],
    // A whole request cannot have less time than its headers.
    ['SLIPWAY_HTTP_REQUEST_TIMEOUT_MS', '5000'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${name}=`);
  });

  it('reads SLIPWAY_PUBLIC_URL as a list: the first URL for links, the others as aliases', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      publicUrl: 'http://localhost:8080',
      publicUrlAliases: [],
    });
    expect(loadConfig({ SLIPWAY_PUBLIC_URL: 'https://slipway.example.com/' })).toMatchObject({
      publicUrl: 'https://slipway.example.com',
      publicUrlAliases: [],
    });
    expect(
      loadConfig({
        SLIPWAY_PUBLIC_URL:
          'https://slipway.example.com, http://slipway.lan:8080/,http://10.0.0.7:3000',
      }),
    ).toMatchObject({
      publicUrl: 'https://slipway.example.com',
      publicUrlAliases: ['http://slipway.lan:8080', 'http://10.0.0.7:3000'],
    });
  });

  it('refuses a user name or password in SLIPWAY_PUBLIC_URL: every link would carry it', () => {
    expect(() =>
      loadConfig({ SLIPWAY_PUBLIC_URL: 'https://admin:hunter2@slipway.example' }),
    ).toThrow(/user name or password/);
  });

  it('reads the stream settings', () => {
    expect(
      loadConfig({
        SLIPWAY_STREAM_CREDENTIAL_CHECK_MS: '500',
        SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL: '2',
        SLIPWAY_CONTAINER_LOG_STREAMS_PER_SERVER: '40',
      }).streams,
    ).toMatchObject({
      credentialCheckMs: 500,
      containerLogsPerPrincipal: 2,
      containerLogsPerServer: 40,
    });
  });

  it('reads the notification settings', () => {
    expect(
      loadConfig({
        SLIPWAY_NOTIFICATION_ADDRESS_POLICY: 'allow:loopback',
        SLIPWAY_NOTIFICATION_TIMEOUT_MS: '2000',
        SLIPWAY_NOTIFICATION_RETRY_BASE_MS: '100',
        SLIPWAY_NOTIFICATION_MAX_ATTEMPTS: '3',
        SLIPWAY_NOTIFICATION_CONCURRENCY: '8',
        SLIPWAY_TOKEN_EXPIRY_SCAN_MINUTES: '0',
      }).notifications,
    ).toEqual({
      addressPolicy: 'allow:loopback',
      sending: true,
      timeoutMs: 2000,
      retryBaseMs: 100,
      maxAttempts: 3,
      concurrency: 8,
      tokenScanMinutes: 0,
    });
  });

  it('reads the HTTP timeouts and the per-address connection cap', () => {
    expect(
      loadConfig({
        SLIPWAY_HTTP_HEADERS_TIMEOUT_MS: '2000',
        SLIPWAY_HTTP_REQUEST_TIMEOUT_MS: '4000',
        SLIPWAY_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        SLIPWAY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
      }).http,
    ).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 1000,
      maxConnectionsPerAddress: 0,
    });
  });

  it('refuses an edge publish that is not onto the proxy’s 80 or 443', () => {
    expect(() => loadConfig({ SLIPWAY_EDGE_PUBLISH: '8080:8080' })).toThrow(
      /SLIPWAY_EDGE_PUBLISH is comma-separated/,
    );
    expect(loadConfig({ SLIPWAY_EDGE_PUBLISH: '127.0.0.1:8080:80' }).edge.publish).toEqual([
      '127.0.0.1:8080:80',
    ]);
  });

  describe('the ACME settings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-acme-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const root = readFileSync(
      new URL('../runner/edge/fixtures/shop.example.com.crt', import.meta.url),
      'utf8',
    );
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads the CA root file once, certificates only', () => {
      const acme = loadConfig({
        SLIPWAY_ACME_CA: 'https://ca.internal:14000/dir',
        SLIPWAY_ACME_CA_ROOT: file('root.pem', `# our CA\n${root}`),
        SLIPWAY_ACME_EMAIL: 'ops@example.com',
      }).edge.acme;
      expect(acme).toEqual({
        ca: 'https://ca.internal:14000/dir',
        caRootPem: root,
        email: 'ops@example.com',
      });
    });

    it('refuses a root file that is missing, holds a key or no parsable certificate', () => {
      expect(() => loadConfig({ SLIPWAY_ACME_CA_ROOT: join(dir, 'absent.pem') })).toThrow(
        /SLIPWAY_ACME_CA_ROOT: cannot read/,
      );
      const withKey = file(
        'key.pem',
        `${root}-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----\n`,
      );
      expect(() => loadConfig({ SLIPWAY_ACME_CA_ROOT: withKey })).toThrow(/1 to 20 certificates/);
      const broken = file(
        'broken.pem',
        '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      );
      expect(() => loadConfig({ SLIPWAY_ACME_CA_ROOT: broken })).toThrow(/does not parse/);
    });

    it('refuses a CA that is not an https URL, and an address that is not one', () => {
      expect(() => loadConfig({ SLIPWAY_ACME_CA: 'http://ca.internal/dir' })).toThrow(
        /SLIPWAY_ACME_CA must be the https:\/\/ URL/,
      );
      expect(() => loadConfig({ SLIPWAY_ACME_EMAIL: 'ops' })).toThrow(/SLIPWAY_ACME_EMAIL/);
    });
  });
  it('reads the metrics settings, refusing an interval under 5 seconds but for 0 (off)', () => {
    expect(loadConfig({ SLIPWAY_METRICS_INTERVAL_SECONDS: '0' }).metrics.intervalSeconds).toBe(0);
    expect(loadConfig({ SLIPWAY_METRICS_INTERVAL_SECONDS: '15' }).metrics.intervalSeconds).toBe(15);
    expect(() => loadConfig({ SLIPWAY_METRICS_INTERVAL_SECONDS: '2' })).toThrow(
      /SLIPWAY_METRICS_INTERVAL_SECONDS/,
    );
  });
});
