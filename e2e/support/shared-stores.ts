import { startPostgresCluster } from '../../src/common/testing/postgres-cluster.js';

/** Stores several processes share, as the environment each process is started with. */
export interface SharedStores {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The backends replica suites run on, by name: the SQLite files of one data directory (the
 * processes are given the same one), or one PostgreSQL database of a cluster of the suite's own.
 */
export const SHARED_STORE_BACKENDS: [string, () => Promise<SharedStores>][] = [
  ['the embedded SQLite files', async () => ({ env: {}, stop: async () => undefined })],
  [
    'PostgreSQL',
    async () => {
      const cluster = await startPostgresCluster();
      const url = await cluster.createDatabase();
      return { env: { SLIPWAY_POSTGRES_URL: url }, stop: () => cluster.stop() };
    },
  ],
];
