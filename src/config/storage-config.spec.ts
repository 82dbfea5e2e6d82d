import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig: where events, read models and primary data live', () => {
  it('selects the server stores and counts the replicas', () => {
    expect(
      loadConfig({
        SLIPWAY_EVENTSTORE_URL: 'esdb://kurrentdb:2113?tls=false',
        SLIPWAY_MONGODB_URL: 'mongodb://mongo:27017/slipway?replicaSet=rs0',
        SLIPWAY_REPLICAS: '2',
      }).storage,
    ).toEqual({
      eventStoreUrl: 'esdb://kurrentdb:2113?tls=false',
      mongoUrl: 'mongodb://mongo:27017/slipway?replicaSet=rs0',
      postgresUrl: null,
      postgresReadModelPrefix: 'rm_',
      replicas: 2,
    });
    // PostgreSQL holds every store, for any number of replicas.
    expect(
      loadConfig({ SLIPWAY_POSTGRES_URL: 'postgresql://slipway@db/slipway', SLIPWAY_REPLICAS: '4' })
        .storage,
    ).toEqual({
      eventStoreUrl: null,
      mongoUrl: null,
      postgresUrl: 'postgresql://slipway@db/slipway',
      postgresReadModelPrefix: 'rm_',
      replicas: 4,
    });
    // A second set of read-model tables beside the first, for a blue-green rebuild.
    expect(
      loadConfig({
        SLIPWAY_POSTGRES_URL: 'postgres://db/s',
        SLIPWAY_POSTGRES_READ_MODEL_PREFIX: 'rm2_',
      }).storage.postgresReadModelPrefix,
    ).toBe('rm2_');
    for (const prefix of ['pd_', 'slipway_', 'RM_', 'rm', 'rm_x_', '_', 'r m_'])
      expect(() =>
        loadConfig({
          SLIPWAY_POSTGRES_URL: 'postgres://db/s',
          SLIPWAY_POSTGRES_READ_MODEL_PREFIX: prefix,
        }),
      ).toThrow(/SLIPWAY_POSTGRES_READ_MODEL_PREFIX must be/);
    // Several replicas on the embedded pair share one data directory.
    expect(loadConfig({ SLIPWAY_REPLICAS: '3' }).storage.replicas).toBe(3);
    // One process on server events may keep its read models in its own SQLite file.
    expect(loadConfig({ SLIPWAY_EVENTSTORE_URL: 'esdb://k:2113' }).storage.mongoUrl).toBeNull();
  });

  it.each([
    [
      { SLIPWAY_MONGODB_URL: 'mongodb://m/?replicaSet=rs0' },
      ['SLIPWAY_MONGODB_URL', 'SLIPWAY_EVENTSTORE_URL'],
    ],
    [
      { SLIPWAY_MONGODB_URL: 'mongodb://m/?replicaSet=rs0', SLIPWAY_REPLICAS: '2' },
      ['SLIPWAY_MONGODB_URL', 'SLIPWAY_EVENTSTORE_URL'],
    ],
    [
      { SLIPWAY_EVENTSTORE_URL: 'esdb://k:2113', SLIPWAY_REPLICAS: '2' },
      ['SLIPWAY_EVENTSTORE_URL', 'SLIPWAY_REPLICAS=2', 'SLIPWAY_MONGODB_URL'],
    ],
    [
      {
        SLIPWAY_POSTGRES_URL: 'postgres://db/s',
        SLIPWAY_MONGODB_URL: 'mongodb://m/?replicaSet=rs0',
      },
      ['SLIPWAY_POSTGRES_URL', 'SLIPWAY_MONGODB_URL', 'SLIPWAY_EVENTSTORE_URL'],
    ],
  ])('refuses the inconsistent mix %j, naming the variables', (env, names) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of names) expect((error as ConfigError).message).toContain(name);
  });

  it('never echoes a connection string, which may hold a password', () => {
    expect(() => loadConfig({ SLIPWAY_MONGODB_URL: 'mysql://root:hunter2@db' })).toThrow(
      /SLIPWAY_MONGODB_URL=\(hidden\)/,
    );
    expect(() => loadConfig({ SLIPWAY_MONGODB_URL: 'mysql://root:hunter2@db' })).not.toThrow(
      /hunter2/,
    );
    expect(() => loadConfig({ SLIPWAY_POSTGRES_URL: 'mysql://root:hunter2@db' })).not.toThrow(
      /hunter2/,
    );
  });
});
