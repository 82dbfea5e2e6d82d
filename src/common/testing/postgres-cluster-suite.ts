import { afterAll, beforeAll } from '@jest/globals';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

/**
 * A cluster for the suite that calls this (started before its tests, stopped after them): the
 * function returned gives it once started.
 */
export function postgresClusterForSuite(): () => PostgresCluster {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not started yet');
    return cluster;
  };
}
