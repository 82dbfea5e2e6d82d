import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  startPostgresCluster,
  type PostgresCluster,
} from '../../src/common/testing/postgres-cluster.js';
import { TestNetwork, type Host } from './netns.js';
import { startSshd, type TestSshd } from './sshd.js';

const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
export const API_PORT = 3000;

/** One Slipway process on a host of the network: an API replica or the runner worker. */
export class SlipwayProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  /** Exits nobody asked for (a crash): each with its code or signal. */
  readonly crashes: string[] = [];

  constructor(
    readonly host: Host,
    private readonly script: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return `http://${this.host.address}:${API_PORT}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): void {
    const child = this.host.spawn(process.execPath, [this.script], {
      env: this.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (!this.killing.has(child)) this.crashes.push(`${this.host.name}: ${signal ?? code}`);
        resolve();
      }),
    );
  }

  /** The processes this test killed on purpose. */
  private readonly killing = new WeakSet<ChildProcess>();

  /** kill -9, as a crashed host or the OOM killer does. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      this.killing.add(child);
      child.kill('SIGKILL');
    }
    await this.exited;
  }
}

/**
 * Slipway spread over hosts of a test network, as an operator would run it on several machines:
 * PostgreSQL on a host of its own, two API replicas and one runner worker on three others (each
 * with its own data directory, sharing only the database and the two keys), and a server to
 * deploy to (a real sshd with a stand-in docker) on this process's own address.
 */
export class FaultCluster {
  readonly apis: SlipwayProcess[] = [];
  worker!: SlipwayProcess;
  loadHost!: Host;
  postgres!: PostgresCluster;
  databaseUrl = '';
  sshd!: TestSshd;
  private readonly dir = mkdtempSync(join(tmpdir(), 'slipway-faults-'));
  private admin: pg.Pool | null = null;

  private constructor(readonly net: TestNetwork) {}

  static async start(): Promise<FaultCluster> {
    const cluster = new FaultCluster(await TestNetwork.create());
    try {
      await cluster.boot();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  private async boot(): Promise<void> {
    const dbHost = await this.net.addHost('db');
    const apiHosts = [await this.net.addHost('api1'), await this.net.addHost('api2')];
    const workerHost = await this.net.addHost('worker');
    this.loadHost = await this.net.addHost('load');
    this.postgres = await startPostgresCluster(dbHost);
    this.databaseUrl = await this.postgres.createDatabase();
    this.admin = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
    this.admin.on('error', () => undefined);
    this.sshd = await startSshd({ listenAddress: this.net.ownAddress });
    const shared = {
      PATH: process.env.PATH,
      SLIPWAY_POSTGRES_URL: this.databaseUrl,
      // Every process that applies projections: the two replicas and the worker.
      SLIPWAY_REPLICAS: '3',
      SLIPWAY_PROJECTION_WAIT_TIMEOUT_MS: '20000',
      SLIPWAY_SECRET_KEY: randomBytes(32).toString('base64'),
      SLIPWAY_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      SLIPWAY_LOG_LEVEL: 'error',
      SLIPWAY_OPEN_SIGNUP: 'true',
      SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0',
      SLIPWAY_PUBLIC_URL: apiHosts.map((h) => `http://${h.address}:${API_PORT}`).join(','),
    };
    const dataDir = (name: string) => {
      const path = join(this.dir, name);
      mkdirSync(path, { mode: 0o700 });
      return path;
    };
    for (const host of apiHosts) {
      this.apis.push(
        new SlipwayProcess(host, dist('src/main.js'), {
          ...shared,
          SLIPWAY_DATA_DIR: dataDir(host.name),
          SLIPWAY_HOST: host.address,
          PORT: String(API_PORT),
          SLIPWAY_RUNNER: 'off',
        }),
      );
    }
    this.worker = new SlipwayProcess(workerHost, dist('src/worker.js'), {
      ...shared,
      SLIPWAY_DATA_DIR: dataDir('worker'),
    });
    // One at a time: the first creates the tables.
    for (const api of this.apis) {
      api.start();
      await this.waitUntilServing(api, 60_000);
    }
    this.worker.start();
  }

  /** Whether the replica answers a read that goes to the database (not only `health`). */
  async serves(api: SlipwayProcess, cookie?: string): Promise<boolean> {
    try {
      const res = await fetch(`${api.url}/trpc/${cookie ? 'servers' : 'health'}`, {
        headers: cookie ? { cookie } : {},
        signal: AbortSignal.timeout(2_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  /** Whether a command through the replica is acknowledged (it waits for the read models). */
  async commands(api: SlipwayProcess, cookie: string): Promise<boolean> {
    try {
      const res = await fetch(`${api.url}/trpc/createToken`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          json: { tokenName: `probe-${Date.now()}`, scopes: ['deploy:read'], expiresInDays: 1 },
        }),
        signal: AbortSignal.timeout(25_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  /**
   * Milliseconds until `api` serves (polled every 100 ms): answers `health`, or with a cookie a
   * read from the database and a command; throws after `limitMs`.
   */
  async waitUntilServing(api: SlipwayProcess, limitMs: number, cookie?: string): Promise<number> {
    const from = Date.now();
    const serving = async () =>
      (await this.serves(api, cookie)) && (!cookie || (await this.commands(api, cookie)));
    while (!(await serving())) {
      if (Date.now() - from > limitMs)
        throw new Error(`${api.host.name} did not serve within ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Date.now() - from;
  }

  /** A query on the shared database, as an operator's psql would run it. */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (!this.admin) throw new Error('no database yet');
    return (await this.admin.query<R>(sql, params)).rows;
  }

  loadScript(): string {
    return dist('e2e/fixtures/fault-load.js');
  }

  async stop(): Promise<void> {
    for (const api of this.apis) await api.kill();
    await this.worker?.kill();
    await this.admin?.end().catch(() => undefined);
    await this.postgres?.stop().catch(() => undefined);
    await this.sshd?.stop().catch(() => undefined);
    await this.net.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
