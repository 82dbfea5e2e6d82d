import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { startPostgresCluster } from '../src/common/testing/postgres-cluster.js';
import { call, cookieAuth, createToken, logIn, signUp } from './support/identity.js';
import { startTestApp } from './support/test-app.js';

const command = fileURLToPath(
  new URL('../dist/src/app/migrate-events-command.js', import.meta.url),
);
const run = (...args: string[]) =>
  spawnSync(process.execPath, [command, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('the migration command copies a store made by the service and verifies its audit chain', () => {
  let dir: string;
  let source: string;

  beforeAll(async () => {
    // Given a data directory the service wrote: activity, and a signed checkpoint over it
    dir = mkdtempSync(join(tmpdir(), 'slipway-migrate-cmd-'));
    const t = await startTestApp({ notes: false, config: { dataDir: dir } });
    try {
      const owner = await signUp(t.url, 'owner@example.com');
      await createToken(t.url, owner.cookie, ['deploy:read'], 7);
      const sealed = await call(t.url, 'POST', 'sealAuditCheckpoint', cookieAuth(owner.cookie));
      expect(sealed.status).toBe(200);
      await call(t.url, 'POST', 'createAgent', cookieAuth(owner.cookie), { name: 'bot' });
    } finally {
      await t.close();
    }
    source = join(dir, 'events.sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies every event and verifies the chain, checkpoint included, on the copy', () => {
    const copy = join(dir, 'copy.sqlite');
    const result = run(source, copy);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/The target reads back as the source/);
    expect(result.stdout).toMatch(/Audit chain on the target: \d+ events, 1 checkpoints verified/);
    // Each event kept its time: the chain hashes it.
    const times = (file: string) =>
      new Database(file, { readonly: true })
        .prepare('SELECT id, recorded_at FROM events ORDER BY position')
        .all();
    expect(times(copy)).toEqual(times(source));
  });

  it('moves the data directory into PostgreSQL, where the service carries on', async () => {
    const cluster = await startPostgresCluster();
    try {
      const url = await cluster.createDatabase();
      const result = run(source, url);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/The target reads back as the source/);
      expect(result.stdout).toMatch(
        /Audit chain on the target: \d+ events, 1 checkpoints verified/,
      );
      expect(result.stdout).toMatch(/Primary data copied: .*token_usage \d+/);
      expect(result.stdout).toMatch(/Primary data copied: .*subject_keys [1-9]/);
      // A second run would double nothing: the streams exist.
      expect(run(source, url).status).not.toBe(0);
      // The service started on PostgreSQL (the key files still in the data directory) rebuilds its
      // read models from the copied events: the owner signs in, the agent is there.
      const t = await startTestApp({
        notes: false,
        config: {
          dataDir: dir,
          storage: { postgresUrl: url, eventStoreUrl: null, mongoUrl: null, replicas: 1 },
        },
      });
      try {
        const cookie = await logIn(t.url, 'owner@example.com');
        const agents = await call(t.url, 'GET', 'agents', cookieAuth(cookie), {});
        expect(agents.status).toBe(200);
        expect(JSON.stringify(agents.body)).toContain('bot');
        // The subject keys came along: personal data still opens on the copy.
        const members = await call(t.url, 'GET', 'members', cookieAuth(cookie), {});
        expect(JSON.stringify(members.body)).toContain('owner@example.com');
        const verified = await call(t.url, 'GET', 'verifyAuditTrail', cookieAuth(cookie), {});
        expect(verified.status).toBe(200);
        expect(verified.body.result.data.json).toMatchObject({ ok: true });
      } finally {
        await t.close();
      }
    } finally {
      await cluster.stop();
    }
  });

  it('refuses a target that exists, and says how to call it', () => {
    const result = run(source, source);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/usage: migrate-events-command/);
  });

  it('fails when the copy does not verify against the signed checkpoint', () => {
    // A source altered after it was sealed copies faithfully, and the check on the copy says so.
    const altered = join(dir, 'altered.sqlite');
    expect(run(source, altered).status).toBe(0);
    const db = new Database(altered);
    db.prepare(
      "UPDATE events SET data = json_set(data, '$.name', 'mallory') WHERE position = 2",
    ).run();
    db.close();
    const result = run(altered, join(dir, 'altered-copy.sqlite'));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Audit chain on the target: modified/);
  });
});
