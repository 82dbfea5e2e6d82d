import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import { catalogDecider, catalogHasService } from './catalog.decider.js';
import { ServiceRegistered, ServiceUpdated } from '../events/deployments.events.js';
import { serviceDecider } from './service.decider.js';
import { SERVICE as service } from './testing/catalog-fixtures.js';

describe('service decider (one service on the stream of its name and environment)', () => {
  it('registers once: the stream of a name and environment holds one service', () => {
    expect(decideFrom(serviceDecider, [], { kind: 'register', event: service })).toEqual([
      ServiceRegistered(service),
    ]);
    expect(() =>
      decideFrom(serviceDecider, [ServiceRegistered(service)], {
        kind: 'register',
        event: { ...service, serviceId: 'x' },
      }),
    ).toThrow(/already exists in production/);
  });

  it('updates only its own service, and an empty change is no event', () => {
    const given = [ServiceRegistered(service)];
    const update = (serviceId: string, changes = {}) => ({
      kind: 'update' as const,
      event: { serviceId, changes },
    });
    expect(decideFrom(serviceDecider, given, update('svc', { approvalRule: 'agents' }))).toEqual([
      ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'agents' } }),
    ]);
    expect(decideFrom(serviceDecider, given, update('svc'))).toEqual([]);
    expect(() => decideFrom(serviceDecider, given, update('other'))).toThrow(/No such service/);
    expect(() => decideFrom(serviceDecider, [], update('svc'))).toThrow(/No such service/);
  });

  it('given a service moved once, when moved again, then the event names the server it left', () => {
    const given = [
      ServiceRegistered(service),
      ServiceUpdated({ serviceId: 'svc', changes: { serverId: 's2' } }),
    ];
    const move = (serverId: string) => ({
      kind: 'update' as const,
      event: { serviceId: 'svc', changes: { serverId } },
    });
    expect(decideFrom(serviceDecider, given, move('s3'))).toEqual([
      ServiceUpdated({ serviceId: 'svc', changes: { serverId: 's3' }, movedFrom: 's2' }),
    ]);
    // Set to the server it is on: no move.
    expect(decideFrom(serviceDecider, given, move('s2'))).toEqual([
      ServiceUpdated({ serviceId: 'svc', changes: { serverId: 's2' } }),
    ]);
  });

  it('given routes recorded by a concurrent change, when routes are set, then the event names the domains they drop', () => {
    const route = (domain: string) => ({
      domain,
      pathPrefix: null,
      service: 'web',
      port: 80,
      tls: 'auto' as const,
      hsts: false,
    });
    const given = [
      ServiceRegistered({ ...service, routes: [route('a.example.com')] }),
      // Recorded after the caller read the service (its read model still said a.example.com).
      ServiceUpdated({ serviceId: 'svc', changes: { routes: [route('b.example.com')] } }),
    ];
    const routes = (...domains: string[]) => ({
      kind: 'update' as const,
      event: { serviceId: 'svc', changes: { routes: domains.map(route) } },
    });
    expect(decideFrom(serviceDecider, given, routes('c.example.com'))).toEqual([
      ServiceUpdated({
        serviceId: 'svc',
        changes: { routes: [route('c.example.com')] },
        releasedDomains: ['b.example.com'],
      }),
    ]);
    // Keeping a domain releases nothing.
    expect(decideFrom(serviceDecider, given, routes('b.example.com'))).toEqual([
      ServiceUpdated({ serviceId: 'svc', changes: { routes: [route('b.example.com')] } }),
    ]);
  });

  it('given a legacy catalog service, the same rules hold', () => {
    const given = [ServiceRegistered(service)];
    const move = (serverId: string) => ({
      kind: 'update' as const,
      event: { serviceId: 'svc', changes: { serverId } },
    });
    expect(decideFrom(catalogDecider, given, move('s9'))).toEqual([
      ServiceUpdated({ serviceId: 'svc', changes: { serverId: 's9' }, movedFrom: 's1' }),
    ]);
  });
});

describe('env patches apply to the variables the stream recorded', () => {
  const v = (name: string, value: string) => ({
    name,
    value,
    secretCiphertext: null,
    secretDigest: null,
  });
  const patch = (set: ReturnType<typeof v>[], remove: string[] = []) => ({
    kind: 'update' as const,
    event: { serviceId: 'svc', changes: {} },
    envPatch: { set, remove },
  });

  it('given a change recorded since the caller read the service, when patched, then both land', () => {
    const given = [
      ServiceRegistered({ ...service, env: [v('A', '1')] }),
      // A concurrent patch, recorded first.
      ServiceUpdated({ serviceId: 'svc', changes: { env: [v('A', '1'), v('B', '2')] } }),
    ];
    const expected = [
      ServiceUpdated({ serviceId: 'svc', changes: { env: [v('A', '9'), v('C', '3')] } }),
    ];
    const command = patch([v('C', '3'), v('A', '9')], ['B']);
    expect(decideFrom(serviceDecider, given, command)).toEqual(expected);
    expect(decideFrom(catalogDecider, given, command)).toEqual(expected);
  });

  it('refuses a patch that would leave more than 200 variables', () => {
    const many = Array.from({ length: 201 }, (_, i) => v(`V${i}`, 'x'));
    expect(() => decideFrom(serviceDecider, [ServiceRegistered(service)], patch(many))).toThrow(
      /at most 200 env vars/,
    );
  });
});

describe('legacy catalog decider (services registered before they had their own streams)', () => {
  const given = [ServiceRegistered(service)];

  it('keeps updating its services and knows which names it holds in which environment', () => {
    expect(
      decideFrom(catalogDecider, given, {
        kind: 'update',
        event: { serviceId: 'svc', changes: { approvalRule: 'agents' } },
      }),
    ).toEqual([ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'agents' } })]);
    const state = given.reduce(
      (s, e) => catalogDecider.evolve(s, e),
      catalogDecider.initialState(),
    );
    expect(catalogHasService(state, 'api', 'production')).toBe(true);
    expect(catalogHasService(state, 'api', 'staging')).toBe(false);
  });
});
