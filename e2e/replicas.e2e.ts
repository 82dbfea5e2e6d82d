import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SHARED_STORE_BACKENDS, type SharedStores } from './support/shared-stores.js';

const fixture = fileURLToPath(new URL('../dist/e2e/fixtures/replica.js', import.meta.url));
const TTL_MS = 600;

/** A replica process and a line-at-a-time conversation with it. */
class Replica {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  readonly exited: Promise<void>;

  constructor(
    dir: string,
    readonly name: string,
    version = 1,
    env: Record<string, string> = {},
  ) {
    this.child = spawn(process.execPath, [fixture, dir, name, String(TTL_MS), String(version)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
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

  async holds(): Promise<boolean> {
    return (await this.ask('holds')) === 'holds counters';
  }

  async append(key: string, by: number): Promise<{ total: number; count: number }> {
    const answer = await this.ask(`append ${key} ${by}`);
    expect(answer).toMatch(/^appended \d+ /);
    return JSON.parse(answer.split(' ').slice(2).join(' ')) as { total: number; count: number };
  }

  async status(): Promise<{ status: string; supersededBy?: number; rebuilds: number }> {
    const answer = await this.ask('status');
    return JSON.parse(answer.slice('status '.length)) as {
      status: string;
      supersededBy?: number;
      rebuilds: number;
    };
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
 * Several real processes on shared stores: one holds the projection's lease and applies it,
 * the others follow the shared checkpoint; killing the holder hands the lease to another; a
 * non-idempotent projection shows that nothing is applied twice.
 */
describe.each(SHARED_STORE_BACKENDS)('several replicas on %s', (_name, backend) => {
  let dir: string;
  let replicas: Replica[] = [];
  let stores: SharedStores | undefined;
  const replica = (name: string, version = 1) => new Replica(dir, name, version, stores?.env);

  beforeAll(async () => {
    expect(existsSync(fixture)).toBe(true); // built by `npm run build`
    stores = await backend();
    dir = mkdtempSync(join(tmpdir(), 'slipway-replicas-'));
    replicas = ['r1', 'r2', 'r3'].map((name) => replica(name));
    for (const r of replicas) expect(await r.next()).toBe(`ready ${r.name}`);
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop().catch(() => undefined);
    await stores?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function holders(list: Replica[]): Promise<Replica[]> {
    const out: Replica[] = [];
    for (const r of list) if (await r.holds()) out.push(r);
    return out;
  }

  /** Exactly one holder, asked until the leases settle (bounded by the test timeout). */
  async function theHolder(list: Replica[]): Promise<Replica> {
    for (;;) {
      const found = await holders(list);
      if (found.length === 1) return found[0];
      expect(found.length).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, TTL_MS / 4));
    }
  }

  it('one replica applies, another answers its own command with its write visible', async () => {
    const holder = await theHolder(replicas);
    const other = replicas.find((r) => r !== holder)!;
    expect(await other.append('k', 5)).toMatchObject({ total: 5, count: 1 });
    expect(await holder.append('k', 2)).toMatchObject({ total: 7, count: 2 });
    expect(await holders(replicas)).toEqual([holder]);
  });

  it('hands the lease over when its holder dies, applying nothing twice', async () => {
    const holder = await theHolder(replicas);
    await holder.kill();
    const alive = replicas.filter((r) => r !== holder);
    replicas = alive;
    // A command through a survivor waits until the lease expires and is taken over.
    expect(await alive[0].append('k', 10)).toMatchObject({ total: 17, count: 3 });
    const next = await theHolder(alive);
    expect(alive).toContain(next);
    // Commands through every survivor at once: each sees at least its own event, once.
    const answers = await Promise.all(alive.flatMap((r) => [1, 2, 3].map(() => r.append('k', 1))));
    expect(Math.max(...answers.map((a) => a.count))).toBe(3 + answers.length);
    const final = await alive[1].append('k', 0);
    expect(final).toMatchObject({ total: 17 + answers.length, count: 4 + answers.length });
  });

  it('a new projection version is rebuilt once, by one new replica; the old ones stop', async () => {
    // Given the version 1 replicas, and the read model as they see it
    const before = await replicas[0].append('k', 0);
    // When two replicas start with version 2 of the projection (it multiplies by 2)
    const upgraded = ['v2a', 'v2b'].map((name) => replica(name, 2));
    for (const r of upgraded) expect(await r.next()).toBe(`ready ${r.name}`);
    const old = replicas;
    replicas = [...old, ...upgraded];
    // Then a command through one of them sees every event once, under version 2's logic
    expect(await upgraded[1].append('k', 1)).toMatchObject({
      total: (before.total + 1) * 2,
      count: before.count + 1,
    });
    // ... the old replicas stop applying it and say why (an old holder believes it holds the
    // lease until its next renewal finds version 2 there; its writes were fenced out already)
    for (const r of old) {
      for (let i = 0; (await r.status()).status !== 'superseded'; i++) {
        expect(i).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, TTL_MS / 4));
      }
      expect(await r.status()).toMatchObject({ supersededBy: 2 });
    }
    const holder = await theHolder(replicas);
    expect(upgraded).toContain(holder);
    const statuses = await Promise.all(upgraded.map((r) => r.status()));
    expect(statuses.reduce((n, s) => n + s.rebuilds, 0)).toBe(1);
    // ... a command through an old replica is recorded, but its wait for the read model is
    // refused rather than left hanging
    expect(await old[0].ask('append k 1')).toMatch(/^error .*superseded by 2/);
    // ... and nothing is lost or applied twice, whichever new replica applies
    expect(await upgraded[0].append('k', 0)).toMatchObject({
      total: (before.total + 2) * 2,
      count: before.count + 3,
    });
    expect((await Promise.all(upgraded.map((r) => r.status()))).map((s) => s.rebuilds)).toEqual(
      statuses.map((s) => s.rebuilds),
    );
  });
});
