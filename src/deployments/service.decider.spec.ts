import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import { decideFrom, type EventLike } from '../storage/decider.js';
import { given } from '../storage/testing/given.js';
import { catalogDecider, catalogHasService } from './catalog.decider.js';
import {
  ServiceRegistered,
  ServiceUpdated,
  type ApprovalRule,
  type ServiceSettings,
} from '../events/deployments.events.js';
import type { RuleSubject } from './approval-rules.js';
import { serviceDecider } from './service.decider.js';
import { SERVICE as service } from './testing/catalog-fixtures.js';
import { ADMIN, AGENT, OPERATOR, OWNER, SYSTEM } from './testing/rule-subjects.js';

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
      by: OWNER,
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
      by: OWNER,
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
      by: OWNER,
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
      by: OWNER,
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
    by: OWNER,
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
        by: OWNER,
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

describe('a caller the service’s approval rule holds back cannot get around it', () => {
  const under = (approvalRule: ApprovalRule, backupCommand: string | null = 'pg_dump app') =>
    ServiceRegistered({ ...service, approvalRule, backupCommand, restoreCommand: 'pg_restore' });
  const change = (changes: Partial<ServiceSettings>, by: RuleSubject) => ({
    kind: 'update' as const,
    event: { serviceId: 'svc', changes },
    by,
  });
  /** The refusal's answer data, or null when the change was decided. */
  const refusedData = (history: EventLike[], command: ReturnType<typeof change>) => {
    try {
      decideFrom(serviceDecider, history, command);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('FORBIDDEN');
      return (error as AppError).data;
    }
  };

  it('Given all-but-admins, When an operator weakens or removes the rule, Then refused; an admin, Then changed', () => {
    const history = [under('all-but-admins')];
    for (const approvalRule of ['none', 'agents'] as const) {
      expect(refusedData(history, change({ approvalRule }, OPERATOR))).toEqual({
        requiredScopes: [],
        grantedScopes: ['deploy:start', 'service:write'],
        rule: 'approval-rule',
        approvalRule: 'all-but-admins',
        field: 'approvalRule',
      });
      given(serviceDecider, ...history)
        .when(change({ approvalRule }, ADMIN))
        .then(ServiceUpdated({ serviceId: 'svc', changes: { approvalRule } }));
    }
    given(serviceDecider, ...history)
      .when(change({ approvalRule: 'none' }, AGENT))
      .thenRefused('FORBIDDEN', /an owner or admin, whom the rule does not hold back, must/);
  });

  it('Given agents, When an agent removes the rule, Then refused; tightens it, Then changed; a human, Then changed', () => {
    const history = [under('agents')];
    given(serviceDecider, ...history)
      .when(change({ approvalRule: 'none' }, AGENT))
      .thenRefused('FORBIDDEN', /approval rule \(agents\).*a human, whom the rule does not/);
    given(serviceDecider, ...history)
      .when(change({ approvalRule: 'all-but-admins' }, AGENT))
      .then(ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'all-but-admins' } }));
    given(serviceDecider, ...history)
      .when(change({ approvalRule: 'none' }, OPERATOR))
      .then(ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'none' } }));
  });

  it('Given agents, When an agent sets, changes or clears a server command, Then refused; keeps it as is, Then changed', () => {
    for (const changes of [
      { backupCommand: 'docker run --rm evil' },
      { restoreCommand: 'sh -c evil' },
      { backupCommand: null },
    ]) {
      expect(refusedData([under('agents')], change(changes, AGENT))).toMatchObject({
        rule: 'approval-rule',
        field: Object.keys(changes)[0],
      });
    }
    expect(refusedData([under('agents', null)], change({ backupCommand: 'x' }, AGENT))).toEqual(
      expect.objectContaining({ field: 'backupCommand' }),
    );
    const same = { backupCommand: 'pg_dump app', restoreCommand: 'pg_restore', env: [] };
    given(serviceDecider, under('agents'))
      .when(change(same, AGENT))
      .then(ServiceUpdated({ serviceId: 'svc', changes: same }));
  });

  it('Given agents, When an operator changes a command (the rule does not hold them back), Then changed', () => {
    given(serviceDecider, under('agents'))
      .when(change({ backupCommand: 'pg_dumpall' }, OPERATOR))
      .then(ServiceUpdated({ serviceId: 'svc', changes: { backupCommand: 'pg_dumpall' } }));
  });

  it('Given a rule tightened since registration, When an operator changes a command, Then the rule as recorded refuses it', () => {
    const tightened = ServiceUpdated({
      serviceId: 'svc',
      changes: { approvalRule: 'all-but-admins', restoreCommand: 'psql' },
    });
    given(serviceDecider, under('none'), tightened)
      .when(change({ restoreCommand: 'psql' }, OPERATOR))
      .then(ServiceUpdated({ serviceId: 'svc', changes: { restoreCommand: 'psql' } }));
    given(serviceDecider, under('none'), tightened)
      .when(change({ backupCommand: 'evil' }, OPERATOR))
      .thenRefused('FORBIDDEN', /all-but-admins/);
    given(catalogDecider, under('none'), tightened)
      .when(change({ backupCommand: 'evil' }, OPERATOR))
      .thenRefused('FORBIDDEN', /all-but-admins/);
  });

  it('Given no rule, or Slipway itself asking, When anything is changed, Then changed', () => {
    given(serviceDecider, under('none'))
      .when(change({ backupCommand: 'evil', approvalRule: 'agents' }, AGENT))
      .then(
        ServiceUpdated({
          serviceId: 'svc',
          changes: { backupCommand: 'evil', approvalRule: 'agents' },
        }),
      );
    given(serviceDecider, under('all-but-admins'))
      .when(change({ approvalRule: 'none' }, SYSTEM))
      .then(ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'none' } }));
  });
});
