import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { applicationProjections } from '../projections/index.js';
import { catchUpProcess } from '../src/app/catch-up-process.js';
import { loadConfig } from '../src/config/app-config.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { testEvent } from '../src/eventstore/testing/test-events.js';
import { data } from './support/deployments.js';
import { call, cookieAuth, logIn } from './support/identity.js';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
const entry = fileURLToPath(new URL('../dist/src/catch-up.js', import.meta.url));
const legacy = fileURLToPath(new URL('./fixtures/legacy-store-9ccf61e', import.meta.url));
const fixture = JSON.parse(readFileSync(join(legacy, 'fixture.json'), 'utf8')) as {
  email: string;
  succeeded: string;
};

interface Server {
  child: ChildProcess;
  log: () => string;
  /** Resolves with the first match of `pattern` in the log (30 s at most). */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

/** The built server as `npm start` runs it (its Node flags), on a free port, runner off. */
function start(dataDir: string, env: Record<string, string> = {}): Server {
  const child = spawn(process.execPath, ['--max-semi-space-size=2', '--optimize-for-size', main], {
    env: { ...process.env, PORT: '0', SLIPWAY_DATA_DIR: dataDir, SLIPWAY_RUNNER: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const hear = (chunk: Buffer) => {
    out += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', hear);
  child.stderr!.on('data', hear);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(look);
        reject(new Error(`${pattern} not in the log:\n${out}`));
      }, 30_000);
      const look = () => {
        const match = pattern.exec(out);
        if (!match) return;
        clearTimeout(timer);
        listeners.delete(look);
        resolve(match);
      };
      listeners.add(look);
      look();
    });
  return { child, log: () => out, waitFor, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 300 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

/** Events no projection but the audit trail reads, appended straight into the store. */
async function appendFiller(file: string, count: number): Promise<void> {
  const store = new SqliteEventStore(file, { watch: false });
  for (let i = 0; i < count; i += 500) {
    const batch = Array.from({ length: Math.min(500, count - i) }, (_, j) =>
      testEvent('CatchUpFillerRecorded', { n: i + j }),
    );
    await store.append(`filler-${i % 7}`, batch, 'any');
  }
  await store.close();
}

describe('projections far behind catch up in a process of their own (node dist/src/main.js)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-catch-up-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hands the catch-up to the catch-up process, then serves what it built', async () => {
    const dataDir = join(dir, 'legacy');
    cpSync(legacy, dataDir, { recursive: true });
    const server = start(dataDir, { SLIPWAY_CATCH_UP_PROCESS_EVENTS: '5' });
    try {
      const handedOff = await server.waitFor(
        /(\d+) events behind: catching up to position (\d+) in a process of its own \(pid (\d+)\)/,
      );
      expect(Number(handedOff[1])).toBeGreaterThanOrEqual(12);
      await server.waitFor(/Caught up \d+ events in [\d.]+ s/);
      expect(await gone(Number(handedOff[3]))).toBe(true);
      const url = (await server.waitFor(/Listening on (http:\/\/[\d.]+:\d+)/))[1];
      const auth = cookieAuth(await logIn(url, fixture.email));
      const details = data<{ status: string }>(
        await call(url, 'GET', 'deploymentDetails', auth, { deploymentId: fixture.succeeded }),
      );
      expect(details.status).toBe('succeeded');
      expect(server.log()).not.toMatch(/Projection .* failed/);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('stops the catch-up process with a killed server; a restart goes on from its checkpoints', async () => {
    const dataDir = join(dir, 'filled');
    mkdirSync(dataDir);
    await appendFiller(join(dataDir, 'events.sqlite'), 60_000);
    const checkpoints = () => {
      const db = new Database(join(dataDir, 'read-models.sqlite'), { readonly: true });
      try {
        if (
          !db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'rm_projection_checkpoints'`).get()
        )
          return [0];
        const rows = db.prepare('SELECT doc FROM rm_projection_checkpoints').all() as {
          doc: string;
        }[];
        return rows.map((r) => (JSON.parse(r.doc) as { position: number }).position);
      } finally {
        db.close();
      }
    };
    // No seal: a seal is an event of its own, and the count below is of the filler's entries.
    const settings = {
      SLIPWAY_CATCH_UP_PROCESS_EVENTS: '1000',
      SLIPWAY_AUDIT_SEAL_EVERY_EVENTS: '0',
      SLIPWAY_AUDIT_SEAL_SECONDS: '0',
    };
    const first = start(dataDir, settings);
    const handedOff = await first.waitFor(/in a process of its own \(pid (\d+)\)/);
    first.child.kill('SIGKILL');
    await first.exited;
    // Told by its closed channel: it commits what is in flight and exits, no writer left over.
    expect(await gone(Number(handedOff[1]))).toBe(true);
    expect(Math.min(...checkpoints())).toBeLessThan(60_000);

    const second = start(dataDir, settings);
    try {
      let lowest = -1;
      for (let i = 0; i < 600 && lowest !== 60_000; i++) {
        lowest = Math.min(...checkpoints());
        if (lowest !== 60_000) await new Promise((r) => setTimeout(r, 50));
      }
      expect(lowest).toBe(60_000);
      expect(second.log()).not.toMatch(/Projection .* failed/);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
    const db = new Database(join(dataDir, 'read-models.sqlite'), { readonly: true });
    const entries = db.prepare('SELECT count(*) AS n FROM rm_audit_trail').get() as { n: number };
    db.close();
    expect(entries.n).toBe(60_000);
  });

  it('starts the process on the data directory of the configuration, not of the environment', async () => {
    const dataDir = join(dir, 'configured');
    cpSync(legacy, dataDir, { recursive: true });
    const config = loadConfig({ SLIPWAY_DATA_DIR: dataDir, SLIPWAY_CATCH_UP_PROCESS_EVENTS: '1' });
    const logged: string[] = [];
    const logger = {
      log: (m: string) => logged.push(m),
      warn: () => undefined,
      error: () => undefined,
    };
    const elsewhere = catchUpProcess(config, applicationProjections, logger, entry);
    const before = process.env.SLIPWAY_DATA_DIR;
    // An app built from a configuration object: the environment names another directory.
    process.env.SLIPWAY_DATA_DIR = join(dir, 'elsewhere');
    try {
      await elsewhere!.run(12, 12, new AbortController().signal);
      // A position past the store's end is refused at once, not waited for.
      await expect(elsewhere!.run(1, 13, new AbortController().signal)).rejects.toThrow(
        'the catch-up process exited with 1',
      );
    } finally {
      if (before === undefined) delete process.env.SLIPWAY_DATA_DIR;
      else process.env.SLIPWAY_DATA_DIR = before;
    }
    const db = new Database(join(dataDir, 'read-models.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT doc FROM rm_projection_checkpoints').all() as { doc: string }[];
    db.close();
    expect(rows.map((r) => (JSON.parse(r.doc) as { position: number }).position)).toEqual(
      applicationProjections.map(() => 12),
    );
    expect(logged[1]).toMatch(/^Caught up 12 events/);
  });
});
