import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data, readyService } from './support/deployments.js';
import { bearer, call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('approvals', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let agentToken: string;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    ({ serviceId } = await readyService(t.url, owner, { approvalRule: 'agents' }));
    const agent = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, {
        name: 'ci',
        preset: 'agent:minimal-write',
      }),
    );
    agentToken = data<{ token: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: agent.principalId,
        tokenName: 'ci',
        expiresInDays: 7,
      }),
    ).token;
  });
  afterAll(async () => t.close());

  it('turns an agent’s deploy into a pending approval; an operator approves; the deployment is created once', async () => {
    const pending = data<{ status: string; approvalId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', bearer(agentToken), {
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.0.0',
        reason: 'release 3.0 for the billing fix',
      }),
    );
    expect(pending.status).toBe('pending_approval');
    expect(
      data<{ items: unknown[] }>(
        await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
      ).items,
    ).toHaveLength(0);
    const queue = data<{ items: { id: string; status: string; reason: string }[] }>(
      await call(t.url, 'GET', 'approvalQueue', operator, { status: 'pending' }),
    );
    expect(queue.items).toEqual([
      expect.objectContaining({
        id: pending.approvalId,
        status: 'pending',
        reason: 'release 3.0 for the billing fix',
      }),
    ]);
    const agentDecides = await call(t.url, 'POST', 'approveRequest', bearer(agentToken), {
      approvalId: pending.approvalId,
    });
    expect(agentDecides.status).toBe(403);

    const approved = data<{ status: string; deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', operator, { approvalId: pending.approvalId }),
    );
    expect(approved.status).toBe('approved');
    const retried = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', operator, { approvalId: pending.approvalId }),
    );
    expect(retried.deploymentId).toBe(approved.deploymentId);
    const deployments = data<{
      items: { id: string; trigger: string; requestedBy: { kind: string } }[];
    }>(await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }));
    expect(deployments.items).toHaveLength(1);
    expect(deployments.items[0]).toMatchObject({
      id: approved.deploymentId,
      trigger: 'approval',
      requestedBy: { kind: 'agent' },
    });
    const reject = await call(t.url, 'POST', 'rejectRequest', owner, {
      approvalId: pending.approvalId,
    });
    expect(reject.status).toBe(409);
  });

  it('refuses self-approval and lets a human deploy directly under the agents rule', async () => {
    const asked = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', operator, {
        action: 'deploy',
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.1.0',
        reason: 'please double-check this one',
      }),
    );
    const self = await call(t.url, 'POST', 'approveRequest', operator, {
      approvalId: asked.approvalId,
    });
    expect([self.status, self.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const rejected = data<{ status: string }>(
      await call(t.url, 'POST', 'rejectRequest', owner, {
        approvalId: asked.approvalId,
        note: 'not this week',
      }),
    );
    expect(rejected.status).toBe('rejected');
    const direct = data<{ status: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.1.0',
      }),
    );
    expect(direct.status).toBe('queued');
    const short = await call(t.url, 'POST', 'requestApproval', operator, {
      action: 'deploy',
      serviceId,
      imageTag: 'ghcr.io/acme/api:3.1.0',
      reason: 'too short',
    });
    expect(short.status).toBe(400);
  });

  it('files one request per input while it is pending: the requester gets it again, others are refused', async () => {
    const input = {
      action: 'deploy',
      serviceId,
      imageTag: 'ghcr.io/acme/api:3.2.0',
      reason: 'the same request, sent in parallel',
    };
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => call(t.url, 'POST', 'requestApproval', operator, input)),
    );
    const answers = parallel.map((r) => data<{ approvalId: string; created: boolean }>(r));
    const ids = new Set(answers.map((a) => a.approvalId));
    expect([ids.size, answers.filter((a) => a.created).length]).toEqual([1, 1]);
    const [approvalId] = ids;
    const pending = data<{ items: { id: string; payload: { imageRef: string } }[] }>(
      await call(t.url, 'GET', 'approvalQueue', owner, { status: 'pending', limit: 100 }),
    );
    expect(pending.items.filter((a) => a.payload.imageRef === 'ghcr.io/acme/api:3.2.0')).toEqual([
      expect.objectContaining({ id: approvalId }),
    ]);

    const other = await call(t.url, 'POST', 'requestApproval', owner, input);
    expect([other.status, other.body.error.code, other.body.error.data]).toEqual([
      409,
      'CONFLICT',
      expect.objectContaining({ approvalId }),
    ]);
    // A different payload is a different request.
    const next = await call(t.url, 'POST', 'requestApproval', operator, {
      ...input,
      imageTag: 'ghcr.io/acme/api:3.2.1',
    });
    expect(data<{ created: boolean }>(next).created).toBe(true);

    // Once decided, the same input may be asked for again.
    await call(t.url, 'POST', 'rejectRequest', owner, { approvalId, note: 'not yet' });
    const again = data<{ approvalId: string; created: boolean }>(
      await call(t.url, 'POST', 'requestApproval', operator, input),
    );
    expect(again.created).toBe(true);
    expect(again.approvalId).not.toBe(approvalId);
  });
});
