import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDeploymentsStream } from '../src/events/deployments.events.js';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import { PostgresEventStore } from '../src/eventstore/postgres/postgres-event-store.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { SHARED_STORE_BACKENDS, type SharedStores } from './support/shared-stores.js';

const fixture = fileURLToPath(new URL('../dist/e2e/fixtures/claimer.js', import.meta.url));

/** A runner process (the application with its real DeploymentRunner) on the shared directory. */
class Claimer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  readonly exited: Promise<void>;

  constructor(dir: string, name: string, stores: Record<string, string>) {
    this.child = spawn(process.execPath, [fixture], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...stores,
        SLIPWAY_DATA_DIR: dir,
        SLIPWAY_REPLICAS: '3',
        SLIPWAY_RUNNER_POLL_MS: '20',
        SLIPWAY_PROJECTION_POLL_MS: '20',
        SLIPWAY_LOG_LEVEL: 'error',
      },
    });
    this.child.stderr.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async ask(command: string): Promise<string> {
    this.child.stdin.write(`${command}\n`);
    return this.next();
  }

  async queue(serviceId: string, count: number): Promise<string[]> {
    const answer = await this.ask(`queue ${serviceId} ${count}`);
    expect(answer).toMatch(/^queued /);
    return answer.slice('queued '.length).split(',');
  }

  async claims(): Promise<string[]> {
    return JSON.parse((await this.ask('claims')).slice('claims '.length)) as string[];
  }

  kill(): Promise<void> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  async stop(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}

/**
 * Deployment claiming with several runner processes on shared stores (the SQLite files of one
 * data directory, or one PostgreSQL database): the real DeploymentRunner in each, the executor
 * replaced by one that records the claim and succeeds the deployment (the claim is under test,
 * not SSH).
 */
describe.each(SHARED_STORE_BACKENDS)(
  'deployment claims across runner processes on %s',
  (_name, backend) => {
    let dir: string;
    let events: EventStore;
    let stores: SharedStores | undefined;
    const claimers: Claimer[] = [];

    const started = async (name: string) => {
      const claimer = new Claimer(dir, name, stores?.env ?? {});
      claimers.push(claimer);
      expect(await claimer.next()).toBe('ready');
      return claimer;
    };

    /** The service queue's events, as `type deploymentId [reason]`. */
    async function history(serviceId: string): Promise<string[]> {
      const stream = await events.readStream(serviceDeploymentsStream(serviceId));
      return stream.map((e) =>
        [
          e.type,
          String(e.data.deploymentId),
          ...(e.data.reason ? [String(e.data.reason)] : []),
        ].join(' '),
      );
    }

    async function allClaims(list: Claimer[]): Promise<string[]> {
      return (await Promise.all(list.map((c) => c.claims()))).flat();
    }

    beforeAll(async () => {
      expect(existsSync(fixture)).toBe(true); // built by `npm run build`
      stores = await backend();
      dir = mkdtempSync(join(tmpdir(), 'slipway-claims-'));
      // One after the other: the first creates the data directory's keys.
      await started('a');
      await started('b');
      const postgres = stores.env.SLIPWAY_POSTGRES_URL;
      events = postgres
        ? await PostgresEventStore.connect(postgres)
        : new SqliteEventStore(join(dir, 'events.sqlite'));
    });
    afterAll(async () => {
      for (const c of claimers.splice(0)) await c.kill().catch(() => undefined);
      await events?.close();
      await stores?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('starts each queued deployment exactly once, in FIFO order per service, none lost', async () => {
      const [a, b] = claimers;
      // Given two runner processes, when 24 deployments are queued on four services through
      // both at once, and a third runner process starts while they run
      const services = ['s1', 's2', 's3', 's4'];
      const queuing = Promise.all(services.map((s, i) => (i % 2 ? b : a).queue(s, 6)));
      const third = started('c');
      const queued = await queuing;
      const c = await third;
      const all = queued.flat();
      for (let i = 0; (await allClaims([a, b, c])).length < all.length; i++) {
        expect(i).toBeLessThan(600);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300)); // would a late duplicate claim show up?

      // Then each was run by exactly one process, and none is missing
      const ran = await allClaims([a, b, c]);
      expect([...ran].sort()).toEqual([...all].sort());
      // ... and on each service's queue: started in the order queued, each once, the next only
      // after the previous finished, none failed (the third runner's start failed nothing)
      for (const [i, service] of services.entries()) {
        const expected = queued[i].flatMap((id) => [
          `DeploymentStarted ${id}`,
          `DeploymentSucceeded ${id}`,
        ]);
        const lifecycle = (await history(service)).filter((h) => !h.startsWith('DeploymentTrig'));
        expect(lifecycle).toEqual(expected);
      }
    });

    it('leaves alone what a live runner runs; fails what a killed one left, then starts the next', async () => {
      // Given one runner whose deployments run until it is killed
      const [a, b, c] = claimers;
      await a.stop();
      await c.stop();
      expect(await b.ask('hold')).toBe('holding');
      const [first, second] = await b.queue('s5', 2);
      for (let i = 0; !(await b.claims()).includes(first); i++) {
        expect(i).toBeLessThan(600);
        await new Promise((r) => setTimeout(r, 50));
      }
      const lifecycle = async () =>
        (await history('s5')).filter((h) => !h.startsWith('DeploymentTrig'));
      // When another runner starts beside it, the deployment it runs is left running
      const d = await started('d');
      await new Promise((r) => setTimeout(r, 500));
      expect(await lifecycle()).toEqual([`DeploymentStarted ${first}`]);
      // ... and once it is killed
      await b.kill();
      for (let i = 0; !(await d.claims()).includes(second); i++) {
        expect(i).toBeLessThan(600);
        await new Promise((r) => setTimeout(r, 50));
      }
      // Then the orphan is failed, and the next deployment of the service is started, once
      for (let i = 0; (await lifecycle()).length < 4; i++) {
        expect(i).toBeLessThan(600);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await lifecycle()).toEqual([
        `DeploymentStarted ${first}`,
        `DeploymentFailed ${first} runner restarted`,
        `DeploymentStarted ${second}`,
        `DeploymentSucceeded ${second}`,
      ]);
      expect(await d.claims()).toEqual([second]);
    });
  },
);
