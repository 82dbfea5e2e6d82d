import { describe, expect, it } from '@jest/globals';
import { deployStrategies } from './deploy-strategy.js';

const route = (service: string) => ({
  domain: 'a.example.com',
  pathPrefix: null,
  service,
  port: 80,
});

describe('deploy strategies', () => {
  it('deploys a routed service without host ports beside its running version', () => {
    const document = {
      services: {
        web: { image: 'a/web:1' },
        worker: { image: 'a/worker:1' },
        db: { image: 'postgres:16', 'x-slipway': { strategy: 'recreate' } },
        admin: { image: 'a/admin:1', ports: ['127.0.0.1:9000:9000'] },
        named: { image: 'a/named:1', container_name: 'named' },
      },
    };
    const routes = ['web', 'db', 'admin', 'named'].map(route);
    expect(deployStrategies(document, routes)).toEqual([
      { service: 'web', strategy: 'gapless', why: 'routed; starts beside the running version' },
      { service: 'worker', strategy: 'recreate', why: 'no route: nothing to switch' },
      { service: 'db', strategy: 'recreate', why: 'x-slipway.strategy is recreate' },
      {
        service: 'admin',
        strategy: 'recreate',
        why: 'publishes ports on the host (two versions cannot bind them at once)',
      },
      {
        service: 'named',
        strategy: 'recreate',
        why: 'sets container_name (one name, one container)',
      },
    ]);
  });

  it('recreates everything of a service without routes', () => {
    expect(deployStrategies({ services: { web: {} } }, undefined)).toEqual([
      { service: 'web', strategy: 'recreate', why: 'no route: nothing to switch' },
    ]);
  });
});
