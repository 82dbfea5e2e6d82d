import { startPostgresCluster } from '../src/common/testing/postgres-cluster.js';

/**
 * A PostgreSQL server of the benchmark's own (Debian's binaries, a cluster in a temporary folder,
 * fsync on), and for each server started on it a database of its own: the environment that
 * puts a Slipway's stores there.
 */
export async function benchPostgres(): Promise<{
  database(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}> {
  const cluster = await startPostgresCluster();
  return {
    database: async () => ({ SLIPWAY_POSTGRES_URL: await cluster.createDatabase() }),
    stop: () => cluster.stop(),
  };
}
