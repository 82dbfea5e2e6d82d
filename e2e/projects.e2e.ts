import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import request from 'supertest';
import type { ContractProcedure } from '../contract/build-contract.js';
import { capabilitiesOf } from '../src/access/capabilities.js';
import { ALL_SCOPES } from '../src/kernel/scopes.js';
import { DiscoveredRoutes } from '../src/api-v1/openapi/discovered-routes.js';
import { cli, cliHome } from './support/cli.js';
import { data, readyService } from './support/deployments.js';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { MATRIX_INPUTS } from './support/matrix-inputs.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const contract = JSON.parse(
  readFileSync(new URL('../contract/api-contract.json', import.meta.url), 'utf8'),
) as { procedures: ContractProcedure[] };

type Auth = Record<string, string>;

/**
 * Access per project, over HTTP: services and servers belong to projects; members and agents
 * hold a role per project (owners and admins everywhere); tokens may be limited to projects.
 * The matrix sends every procedure that acts on something in a project, with a real target in
 * `payments`, from callers of each kind of standing there.
 */
describe('projects: roles per project, tokens limited to projects', () => {
  let t: TestApp;
  let owner: Auth;
  let ownerCookie: string;
  const ids: Record<string, string> = {};
  const principals: Record<string, string> = {};

  const member = async (email: string, role: 'operator' | 'viewer') => {
    const account = await signUp(t.url, email);
    if (role !== 'viewer') {
      data(await call(t.url, 'POST', 'changeUserRole', owner, { userId: account.userId, role }));
    }
    principals[email] = account.userId;
    return cookieAuth(account.cookie);
  };
  const grant = async (projectId: string, principalId: string, role: string) =>
    data(await call(t.url, 'POST', 'grantProjectRole', owner, { projectId, principalId, role }));
  const deploy = (auth: Auth, serviceId: string) =>
    call(t.url, 'POST', 'triggerDeploy', auth, { serviceId, imageTag: 'ghcr.io/acme/api:2' });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    ownerCookie = account.cookie;
    owner = cookieAuth(account.cookie);
    data(
      await call(t.url, 'POST', 'createProject', owner, {
        projectId: 'payments',
        name: 'Payments',
      }),
    );
    data(
      await call(t.url, 'POST', 'createProject', owner, { projectId: 'search', name: 'Search' }),
    );
    const pay = await readyService(t.url, owner, { name: 'pay', projectId: 'payments' });
    const def = await readyService(t.url, owner, { name: 'web' });
    ids.payService = pay.serviceId;
    ids.payServer = pay.serverId;
    ids.defService = def.serviceId;
    const deployment = data<{ deploymentId: string }>(await deploy(owner, pay.serviceId));
    ids.payDeployment = deployment.deploymentId;
    const backup = data<{ backupId: string }>(
      await call(t.url, 'POST', 'recordBackup', owner, {
        ...(MATRIX_INPUTS.recordBackup as object),
        serviceId: pay.serviceId,
      }),
    );
    ids.payBackup = backup.backupId;
    const approval = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', owner, {
        ...(MATRIX_INPUTS.requestApproval as object),
        serviceId: pay.serviceId,
      }),
    );
    ids.payApproval = approval.approvalId;
    const job = data<{ jobId: string }>(
      await call(t.url, 'POST', 'defineScheduledJob', owner, {
        ...(MATRIX_INPUTS.defineScheduledJob as object),
        serviceId: pay.serviceId,
      }),
    );
    ids.payJob = job.jobId;
    const rule = data<{ ruleId: string }>(
      await call(t.url, 'POST', 'setAlertRule', owner, {
        ...(MATRIX_INPUTS.setAlertRule as object),
        serviceId: pay.serviceId,
      }),
    );
    ids.payAlertRule = rule.ruleId;
    const hook = data<{ hookId: string }>(
      await call(t.url, 'POST', 'createDeployWebhook', owner, {
        ...(MATRIX_INPUTS.createDeployWebhook as object),
        serviceId: pay.serviceId,
      }),
    );
    ids.payHook = hook.hookId;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('places services and servers in the project they were registered in', async () => {
    const services = data<{ items: { id: string; projectId: string }[] }>(
      await call(t.url, 'GET', 'services', owner, { limit: 50 }),
    );
    const placed = Object.fromEntries(services.items.map((s) => [s.id, s.projectId]));
    expect(placed[ids.payService!]).toBe('payments');
    expect(placed[ids.defService!]).toBe('default');
    const unknown = await call(t.url, 'POST', 'registerServer', owner, {
      ...(MATRIX_INPUTS.registerServer as object),
      name: 'nowhere-host',
      projectId: 'nowhere',
    });
    expect(unknown.status).toBe(404);
  });

  it('judges a member by their role in the target project, the default by the team role', async () => {
    const op = await member('op@example.com', 'operator');
    const payOp = await member('pay-op@example.com', 'viewer');
    await grant('payments', principals['pay-op@example.com']!, 'operator');

    expect((await deploy(op, ids.defService!)).status).toBe(200);
    const outside = await deploy(op, ids.payService!);
    expect(outside.status).toBe(403);
    expect(outside.body.error.data).toMatchObject({ rule: 'project', project: 'payments' });

    expect((await deploy(payOp, ids.payService!)).status).toBe(200);
    const asViewer = await deploy(payOp, ids.defService!);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.data.requiredRoles).toBeDefined();

    const projects = data<{ items: { projectId: string; role: string | null }[] }>(
      await call(t.url, 'GET', 'projects', payOp),
    );
    expect(projects.items).toEqual([
      expect.objectContaining({ projectId: 'default', role: 'viewer' }),
      expect.objectContaining({ projectId: 'payments', role: 'operator' }),
    ]);
  });

  it('limits a token to its projects, and a token made with it to some of them', async () => {
    const limited = await call(t.url, 'POST', 'createToken', owner, {
      tokenName: 'payments only',
      scopes: ['deploy:start', 'deploy:read', 'tokens:manage'],
      expiresInDays: 1,
      projects: ['payments'],
    });
    const { token } = data<{ token: string }>(limited);
    expect((await deploy(bearer(token), ids.payService!)).status).toBe(200);
    const elsewhere = await deploy(bearer(token), ids.defService!);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.data).toMatchObject({ rule: 'token-projects' });

    const wider = await call(t.url, 'POST', 'createToken', bearer(token), {
      tokenName: 'wider',
      scopes: ['deploy:read'],
      expiresInDays: 1,
    });
    expect(wider.status).toBe(403);
    expect(wider.body.error.data.rule).toBe('narrowing');
    const within = await call(t.url, 'POST', 'createToken', bearer(token), {
      tokenName: 'within',
      scopes: ['deploy:read'],
      expiresInDays: 1,
      projects: ['payments'],
    });
    expect(within.status).toBe(200);
    const who = data<{ token: { projects: string[] } }>(
      await call(t.url, 'GET', 'viewer', bearer(token)),
    );
    expect(who.token.projects).toEqual(['payments']);
  });

  it('lets an agent into the projects it is granted, its preset still its ceiling', async () => {
    const agent = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, {
        name: 'deployer',
        preset: 'agent:minimal-write',
      }),
    );
    await grant('payments', agent.principalId, 'agent');
    const { token } = data<{ token: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: agent.principalId,
        tokenName: 'ci',
        expiresInDays: 1,
      }),
    );
    expect((await deploy(bearer(token), ids.payService!)).status).toBe(200);
    expect((await deploy(bearer(token), ids.defService!)).status).toBe(200);
    const archive = await call(t.url, 'POST', 'archiveService', bearer(token), {
      serviceId: ids.payService,
    });
    expect(archive.status).toBe(403);
    const misplaced = await grant('search', agent.principalId, 'operator').catch((e: unknown) => e);
    expect(String(misplaced)).toContain('400');
  });

  it('moves a service between projects, and access follows it', async () => {
    const op = await member('mover@example.com', 'operator');
    expect((await deploy(op, ids.payService!)).status).toBe(403);
    data(
      await call(t.url, 'POST', 'moveToProject', owner, {
        kind: 'service',
        resourceId: ids.payService,
        projectId: 'default',
      }),
    );
    expect((await deploy(op, ids.payService!)).status).toBe(200);
    data(
      await call(t.url, 'POST', 'moveToProject', owner, {
        kind: 'service',
        resourceId: ids.payService,
        projectId: 'payments',
      }),
    );
    expect((await deploy(op, ids.payService!)).status).toBe(403);
    const moves = await call(t.url, 'POST', 'moveToProject', op, {
      kind: 'service',
      resourceId: ids.payService,
      projectId: 'default',
    });
    expect(moves.status).toBe(403);
  });

  describe('the matrix: every procedure that acts in a project × the caller’s standing there', () => {
    const inProject = contract.procedures.filter((p) => p.project !== null);
    /** The matrix input of a procedure, its target ids pointing at `payments`' real ones. */
    const inputFor = (p: ContractProcedure) => {
      const base = { ...((MATRIX_INPUTS[p.name] as Record<string, unknown>) ?? {}) };
      const real: Record<string, string | undefined> = {
        serviceId: ids.payService,
        serverId: ids.payServer,
        deploymentId: ids.payDeployment,
        fromDeploymentId: ids.payDeployment,
        toDeploymentId: ids.payDeployment,
        backupId: ids.payBackup,
        jobId: ids.payJob,
        projectId: 'payments',
      };
      for (const key of Object.keys(base)) if (real[key]) base[key] = real[key];
      // The field the procedure is judged by always names the real target in payments.
      const byKind: Record<string, string | undefined> = {
        service: ids.payService,
        server: ids.payServer,
        deployment: ids.payDeployment,
        backup: ids.payBackup,
        approval: ids.payApproval,
        job: ids.payJob,
        hook: ids.payHook,
        alert: ids.payAlertRule,
        project: 'payments',
      };
      const [[kind, field]] = Object.entries(p.project!);
      // A call on alerts names the server or service watched (judged by it), or the rule.
      if (kind !== 'alert' || field! in base) base[field!] = byKind[kind!];
      if (p.name === 'registerService' || p.name === 'registerServer') {
        base.name = `matrix-${p.name.toLowerCase()}`;
      }
      return base;
    };

    it('covers every procedure the contract says acts in a project', () => {
      expect(inProject.map((p) => p.name)).toEqual(
        expect.arrayContaining([
          'triggerDeploy',
          'serviceDetails',
          'serverDetails',
          'cancelDeployment',
        ]),
      );
      expect(inProject.length).toBeGreaterThanOrEqual(40);
    });

    it('refuses callers without a role there and tokens limited elsewhere; judges the rest by that role', async () => {
      const nobody = await member('nobody-there@example.com', 'operator');
      const viewerThere = await member('viewer-there@example.com', 'operator');
      await grant('payments', principals['viewer-there@example.com']!, 'viewer');
      const operatorThere = await member('operator-there@example.com', 'viewer');
      await grant('payments', principals['operator-there@example.com']!, 'operator');
      const elsewhere = data<{ token: string }>(
        await call(t.url, 'POST', 'createToken', owner, {
          tokenName: 'search only',
          scopes: [...capabilitiesOf({ kind: 'user', role: 'owner' })].slice(0, 32),
          expiresInDays: 1,
          projects: ['search'],
        }),
      ).token;
      const READS = ['deploy:read', 'service:read', 'server:read', 'logs:read'];
      const readsHere = data<{ token: string }>(
        await call(t.url, 'POST', 'createToken', owner, {
          tokenName: 'payments reads',
          scopes: READS,
          expiresInDays: 1,
          projects: ['payments'],
        }),
      ).token;
      /** `ceiling`: the most the caller holds in any project (what admits it to a call). */
      const callers: {
        label: string;
        auth: Auth;
        role: string | null;
        ceiling: string;
        limited?: true;
        tokenScopes?: string[];
      }[] = [
        {
          label: 'operator with no role in payments',
          auth: nobody,
          role: null,
          ceiling: 'operator',
        },
        { label: 'viewer in payments', auth: viewerThere, role: 'viewer', ceiling: 'operator' },
        {
          label: 'operator in payments',
          auth: operatorThere,
          role: 'operator',
          ceiling: 'operator',
        },
        {
          label: 'owner token limited to search',
          auth: bearer(elsewhere),
          role: null,
          ceiling: 'owner',
          limited: true,
        },
        {
          label: 'owner token of read scopes limited to payments',
          auth: bearer(readsHere),
          role: 'owner',
          ceiling: 'owner',
          tokenScopes: READS,
        },
      ];
      const outcomes: unknown[] = [];
      const expected: unknown[] = [];
      for (const p of inProject) {
        for (const caller of callers) {
          const res = await call(t.url, p.method, p.name, caller.auth, inputFor(p));
          const rule = res.status === 403 ? (res.body.error?.data?.rule ?? 'role') : 'allowed';
          outcomes.push([p.name, caller.label, rule]);
          // Admitted by the most the caller holds anywhere (its team role, an owner's for the
          // token), then judged by its role in payments.
          const may = (role: string) => {
            const caps: readonly string[] = capabilitiesOf({
              kind: 'user',
              role: role as 'viewer',
            });
            return p.roles.includes(role) && p.scopes.every((s) => caps.includes(s));
          };
          let want: string;
          if (caller.tokenScopes) {
            const within = p.scopes.every((s) => caller.tokenScopes!.includes(s));
            want = may(caller.role!) && within ? 'allowed' : 'role';
          } else if (caller.limited) want = may('owner') ? 'token-projects' : 'role';
          else if (caller.role === null) want = may(caller.ceiling) ? 'project' : 'role';
          else want = may(caller.role) ? 'allowed' : 'role';
          expected.push([p.name, caller.label, want]);
        }
      }
      expect(outcomes).toEqual(expected);
    }, 120_000);
  });

  it('lists only what lives in the projects the caller reads', async () => {
    const listed = async (auth: Auth) => {
      const services = data<{ items: { id: string }[] }>(
        await call(t.url, 'GET', 'services', auth, { limit: 100 }),
      ).items.map((s) => s.id);
      const deployments = data<{ items: { serviceId: string }[] }>(
        await call(t.url, 'GET', 'recentDeployments', auth, { limit: 100 }),
      ).items.map((d) => d.serviceId);
      const servers = data<{ items: { projectId: string }[] }>(
        await call(t.url, 'GET', 'servers', auth, { limit: 100 }),
      ).items.map((s) => s.projectId);
      const inventory = data<{ servers: { services: { id: string }[] }[] }>(
        await call(t.url, 'GET', 'infrastructureInventory', auth),
      ).servers.flatMap((server) => server.services.map((s) => s.id));
      return {
        services,
        deployments: [...new Set(deployments)],
        servers: [...new Set(servers)],
        inventory,
      };
    };
    const outsider = await member('lists-outsider@example.com', 'operator');
    const mine = await listed(outsider);
    expect(mine.services).toContain(ids.defService);
    expect(mine.services).not.toContain(ids.payService);
    expect(mine.deployments).not.toContain(ids.payService);
    expect(mine.servers).toEqual(['default']);
    expect(mine.inventory).not.toContain(ids.payService);

    const { token } = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'payments reader',
        scopes: ['service:read', 'deploy:read', 'server:read'],
        expiresInDays: 1,
        projects: ['payments'],
      }),
    );
    const limited = await listed(bearer(token));
    expect(limited.services).toContain(ids.payService);
    expect(limited.services).not.toContain(ids.defService);
    expect(limited.deployments).toContain(ids.payService);
    expect(limited.deployments).not.toContain(ids.defService);
    expect(limited.servers).toEqual(['payments']);

    const all = await listed(owner);
    expect(all.services).toEqual(expect.arrayContaining([ids.payService, ids.defService]));
  });

  it('lists nothing of another project when narrowed to its service by id', async () => {
    const narrowed = contract.procedures.filter(
      (p) =>
        p.projectList &&
        'serviceId' in ((p.input?.properties as Record<string, unknown> | undefined) ?? {}),
    );
    expect(narrowed.map((p) => p.name)).toEqual(
      expect.arrayContaining(['recentDeployments', 'backups', 'deployWebhooks', 'deliveryMetrics']),
    );
    const outsider = await member('narrow-outsider@example.com', 'operator');
    const { token } = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'default reader',
        scopes: ['service:read', 'deploy:read', 'server:read'],
        expiresInDays: 1,
        projects: ['default'],
      }),
    );
    const payments = [ids.payService, ids.payDeployment, ids.payBackup, ids.payHook];
    for (const auth of [outsider, bearer(token)]) {
      for (const p of narrowed) {
        const res = await call(t.url, 'GET', p.name, auth, { serviceId: ids.payService });
        const text = JSON.stringify(res.body);
        expect([p.name, payments.filter((id) => text.includes(id))]).toEqual([p.name, []]);
      }
    }
    // The owner, who reads payments, still gets them narrowed to the service.
    const own = data<{ items: { serviceId: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId: ids.payService }),
    );
    expect(own.items.map((d) => d.serviceId)).toContain(ids.payService);
  });

  it("plans no rollback onto another project's deployment, and reads nothing of it", async () => {
    const outsider = await member('rollback-outsider@example.com', 'operator');
    const answer = data<{ preflightChecks: { check: string; status: string }[]; steps: string[] }>(
      await call(t.url, 'GET', 'rollbackPlan', outsider, {
        serviceId: ids.defService,
        targetDeploymentId: ids.payDeployment,
      }),
    );
    const checks = answer.preflightChecks;
    expect(checks.find((c) => c.check === 'rollback-target')?.status).toBe('fail');
    expect(checks.map((c) => c.check)).not.toContain('target-succeeded');
    expect(answer.steps).toEqual([]);
  });

  it('judges every route that acts in a project: no role there, or a token limited elsewhere', async () => {
    const files = [
      { path: 'compose.yaml', contents: 'services:\n  api:\n    image: ghcr.io/acme/api:4\n' },
    ];
    const service = `/api/v1/services/${ids.payService}`;
    const server = `/api/v1/servers/${ids.payServer}`;
    /** A valid call to each route on payments' things; a route missing here fails the test. */
    const CALLS: Record<
      string,
      { method: 'get' | 'post' | 'put' | 'delete'; path: string; body?: object }
    > = {
      'GET /api/v1/services/:id/status': { method: 'get', path: `${service}/status` },
      'GET /api/v1/services/:id/stats': { method: 'get', path: `${service}/stats` },
      'GET /api/v1/services/:id/logs/stream': {
        method: 'get',
        path: `${service}/logs/stream?follow=false`,
      },
      'GET /api/v1/deployments/:id/logs/stream': {
        method: 'get',
        path: `/api/v1/deployments/${ids.payDeployment}/logs/stream`,
      },
      'GET /api/v1/jobs/:jobId/runs/:runId/logs/stream': {
        method: 'get',
        path: `/api/v1/jobs/${ids.payJob}/runs/${ids.payJob}@manual-0/logs/stream`,
      },
      'POST /api/v1/servers/:id/check': { method: 'post', path: `${server}/check`, body: {} },
      'POST /api/v1/servers/:id/edge/sync': {
        method: 'post',
        path: `${server}/edge/sync`,
        body: {},
      },
      'GET /api/v1/servers/:id/images': { method: 'get', path: `${server}/images` },
      'GET /api/v1/servers/:id/metrics': { method: 'get', path: `${server}/metrics?hours=1` },
      'GET /api/v1/services/:id/metrics': { method: 'get', path: `${service}/metrics` },
      'GET /api/v1/servers/:id/alerts': { method: 'get', path: `${server}/alerts?status=all` },
      'GET /api/v1/services/:id/alerts': { method: 'get', path: `${service}/alerts` },
      'POST /api/v1/servers/:id/images/pull': {
        method: 'post',
        path: `${server}/images/pull`,
        body: { reference: 'ghcr.io/acme/api:1' },
      },
      'POST /api/v1/servers/:id/images/prune': {
        method: 'post',
        path: `${server}/images/prune`,
        body: {},
      },
      'DELETE /api/v1/servers/:id/images': {
        method: 'delete',
        path: `${server}/images?reference=ghcr.io%2Facme%2Fapi%3A1`,
      },
      'PUT /api/v1/servers/:id/images': { method: 'put', path: `${server}/images` },
      'POST /api/v1/deploy/compose': {
        method: 'post',
        path: '/api/v1/deploy/compose',
        body: { serviceId: ids.payService, files },
      },
    };
    const declared = t.app
      .get(DiscoveredRoutes)
      .list('/api/')
      .filter((r) => r.declaration.auth === 'guarded' && r.declaration.project)
      .map((r) => (r.declaration as { name: string }).name)
      .sort();
    expect(declared).toEqual(Object.keys(CALLS).sort());

    const outsider = await member('route-outsider@example.com', 'operator');
    const { token } = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'search routes',
        scopes: [...ALL_SCOPES],
        expiresInDays: 1,
        projects: ['search'],
      }),
    );
    const outcomes: unknown[] = [];
    for (const [name, c] of Object.entries(CALLS)) {
      for (const [who, auth] of [
        ['no role in payments', outsider],
        ['token limited to search', bearer(token)],
      ] as const) {
        let pending = request(t.url)[c.method](c.path).set(auth);
        if (c.method === 'put')
          pending = pending.set('Content-Type', 'application/x-tar').send(Buffer.alloc(0));
        else if (c.body) pending = pending.send(c.body);
        const res = await pending;
        outcomes.push([name, who, res.status, res.body?.error?.data?.rule ?? null]);
      }
    }
    expect(outcomes).toEqual(
      Object.keys(CALLS).flatMap((name) => [
        [name, 'no role in payments', 403, 'project'],
        [name, 'token limited to search', 403, 'token-projects'],
      ]),
    );
  });

  it("judges the server a service is placed on in the server's own project", async () => {
    const payOnly = await member('pay-only@example.com', 'viewer');
    await grant('payments', principals['pay-only@example.com']!, 'operator');
    const defServer = data<{ items: { id: string; projectId: string }[] }>(
      await call(t.url, 'GET', 'servers', owner, { limit: 100 }),
    ).items.find((s) => s.projectId === 'default')!.id;
    const onOtherProjectsServer = await call(t.url, 'POST', 'registerService', payOnly, {
      ...(MATRIX_INPUTS.registerService as object),
      name: 'misplaced',
      serverId: defServer,
      projectId: 'payments',
    });
    expect(onOtherProjectsServer.status).toBe(403);
    const onOwnServer = await call(t.url, 'POST', 'registerService', payOnly, {
      ...(MATRIX_INPUTS.registerService as object),
      name: 'placed',
      serverId: ids.payServer,
      projectId: 'payments',
    });
    expect(onOwnServer.status).toBe(200);
    const moveAway = await call(t.url, 'POST', 'updateService', payOnly, {
      serviceId: onOwnServer.body.result.data.json.serviceId,
      serverId: defServer,
    });
    expect(moveAway.status).toBe(403);
  });

  it("lists with a server only the services of the caller's projects", async () => {
    const shared = await readyService(t.url, owner, { name: 'shared' });
    data(
      await call(t.url, 'POST', 'registerService', owner, {
        ...(MATRIX_INPUTS.registerService as object),
        name: 'guest',
        serverId: shared.serverId,
        projectId: 'payments',
      }),
    );
    const op = await member('server-reader@example.com', 'operator');
    const names = async (auth: Auth) =>
      data<{ services: { name: string }[] }>(
        await call(t.url, 'GET', 'serverDetails', auth, { serverId: shared.serverId }),
      ).services.map((s) => s.name);
    expect(await names(op)).toEqual(['shared']);
    expect(await names(owner)).toEqual(['shared', 'guest']);
  });

  it('judges both deployments a config diff compares', async () => {
    const op = await member('differ@example.com', 'operator');
    const mine = data<{ deploymentId: string }>(await deploy(op, ids.defService!)).deploymentId;
    const across = await call(t.url, 'GET', 'configDiff', op, {
      fromDeploymentId: mine,
      toDeploymentId: ids.payDeployment,
    });
    expect([across.status, across.body.error?.data?.rule]).toEqual([403, 'project']);
    const own = await call(t.url, 'GET', 'configDiff', op, {
      fromDeploymentId: mine,
      toDeploymentId: mine,
    });
    expect(own.status).toBe(200);
  });

  it('is managed from the real CLI too', async () => {
    const home = cliHome();
    try {
      const { token } = data<{ token: string }>(
        await call(t.url, 'POST', 'createToken', owner, {
          tokenName: 'cli',
          // Granting operator needs a credential that holds what an operator may do (narrowing).
          scopes: [...ALL_SCOPES],
          expiresInDays: 1,
        }),
      );
      expect((await cli(home, ['login', '--url', t.url, '--token', token, '--json'])).code).toBe(0);
      const created = await cli(home, ['projects', 'create', 'ops', 'Operations', '--json']);
      expect(created.json.ok).toBe(true);
      await member('cli-member@example.com', 'viewer');
      const granted = await cli(home, [
        'projects',
        'grant',
        'ops',
        'cli-member@example.com',
        'operator',
        '--yes',
        '--json',
      ]);
      expect([granted.json, granted.stderr]).toMatchObject([
        { ok: true, data: { role: 'operator', changed: true } },
        '',
      ]);
      const moved = await cli(home, [
        'projects',
        'move',
        'service',
        'web@production',
        'ops',
        '--yes',
        '--json',
      ]);
      expect(moved.json).toMatchObject({ ok: true, data: { projectId: 'ops', changed: true } });
      const listed = await cli(home, ['projects', 'list', '--json']);
      expect(listed.json.data?.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ projectId: 'ops', name: 'Operations' })]),
      );
      await cli(home, [
        'projects',
        'move',
        'service',
        'web@production',
        'default',
        '--yes',
        '--json',
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('lets owners and team admins into every project', async () => {
    expect((await deploy(cookieAuth(ownerCookie), ids.payService!)).status).toBe(200);
  });
});
