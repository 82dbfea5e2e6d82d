import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresClusterForSuite } from '../src/common/testing/postgres-cluster-suite.js';
import { call, cookieAuth, logIn, signUp } from './support/identity.js';
import { startTestApp } from './support/test-app.js';

const cluster = postgresClusterForSuite();

describe('a blue-green rebuild of the read models on PostgreSQL', () => {
  // The same keys for both (as SLIPWAY_SECRET_KEY would give them on other hosts).
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-blue-green-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const app = (url: string, prefix: string) =>
    startTestApp({
      notes: false,
      config: {
        dataDir,
        storage: {
          postgresUrl: url,
          postgresReadModelPrefix: prefix,
          eventStoreUrl: null,
          mongoUrl: null,
          replicas: 1,
        },
      },
    });
  const tables = async (url: string, prefix: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE starts_with(tablename, $1) ORDER BY 1`,
        [prefix],
      );
      return rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  };

  it('builds a second set of tables from the same events while the first stays as it was', async () => {
    const url = await cluster().createDatabase();
    // Blue: the service as it runs, with activity.
    const blue = await app(url, 'rm_');
    const owner = await signUp(blue.url, 'owner@example.com');
    await call(blue.url, 'POST', 'createAgent', cookieAuth(owner.cookie), { name: 'bot' });
    const blueTables = await tables(url, 'rm_');
    // Green: a new set built beside it (blue may keep serving meanwhile).
    const green = await app(url, 'rm2_');
    try {
      const cookie = await logIn(green.url, 'owner@example.com');
      const agents = await call(green.url, 'GET', 'agents', cookieAuth(cookie), {});
      expect(agents.status).toBe(200);
      expect(JSON.stringify(agents.body)).toContain('bot');
      // The same read models, under the new prefix; the primary data (pd_) is shared, not copied.
      expect((await tables(url, 'rm2_')).map((t) => t.slice(4))).toEqual(
        blueTables.map((t) => t.slice(3)),
      );
      // Blue still answers from its own tables.
      const members = await call(blue.url, 'GET', 'members', cookieAuth(owner.cookie), {});
      expect(JSON.stringify(members.body)).toContain('owner@example.com');
    } finally {
      await green.close();
      await blue.close();
    }
  });
});
