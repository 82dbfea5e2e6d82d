import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, FINGERPRINT, PRIVATE_KEY, data, readyService } from './support/deployments.js';
import { bearer, call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Lifecycle commands fired together with the commands they exclude. Whatever order the two
 * land in, the outcome is one a single order could give: never a deployment left queued on an
 * archived service, never an active service on a decommissioned server.
 */
describe('lifecycle races', () => {
  const ROUNDS = 20;
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let agentToken: string;
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${(n += 1)}`;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
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
  }, 60_000);
  afterAll(async () => t?.close());

  /** The service's status and its deployments still open, as the read models answer. */
  async function outcome(serviceId: string) {
    const service = data<{ status: string }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    );
    const deployments = data<{ items: { status: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
    ).items;
    return {
      archived: service.status === 'archived',
      open: deployments.filter((d) => d.status === 'queued' || d.status === 'running').length,
    };
  }

  it('archiveService and triggerDeploy together: never a deployment queued on an archived service', async () => {
    const broken: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { serviceId } = await readyService(t.url, owner, { name: unique('arch') });
      // With an idempotency key on every other round: claiming it is one more write between
      // the trigger's checks and its append, where an archiving may slip in.
      const key: Record<string, string> = round % 2 ? {} : { 'Idempotency-Key': `race-${round}` };
      const trigger = () =>
        call(
          t.url,
          'POST',
          'triggerDeploy',
          { ...owner, ...key },
          {
            serviceId,
            imageTag: 'ghcr.io/acme/api:2.0.0',
          },
        );
      // Either one sent first, so that each gets to start ahead of the other.
      const archive = () => call(t.url, 'POST', 'archiveService', owner, { serviceId });
      const [first, second] = await Promise.all(
        round % 4 < 2 ? [archive(), trigger()] : [trigger(), archive()],
      );
      const [archived, triggered] = round % 4 < 2 ? [first, second] : [second, first];
      // Each is answered as a single order would: done, or refused as a conflict.
      expect([200, 409]).toContain(archived.status);
      expect([200, 409]).toContain(triggered.status);
      const after = await outcome(serviceId);
      if (
        (after.archived && after.open > 0) ||
        (archived.status === 200 && triggered.status === 200)
      )
        broken.push(round);
    }
    expect(broken).toEqual([]);
  }, 120_000);

  it('approveRequest and archiveService together: never a deployment queued on an archived service', async () => {
    const broken: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { serviceId } = await readyService(t.url, owner, {
        name: unique('appr'),
        approvalRule: 'agents',
      });
      const pending = data<{ status: string; approvalId: string }>(
        await call(t.url, 'POST', 'triggerDeploy', bearer(agentToken), {
          serviceId,
          imageTag: 'ghcr.io/acme/api:3.0.0',
        }),
      );
      expect(pending.status).toBe('pending_approval');
      const [approved, archived] = await Promise.all([
        call(t.url, 'POST', 'approveRequest', operator, { approvalId: pending.approvalId }),
        call(t.url, 'POST', 'archiveService', owner, { serviceId }),
      ]);
      expect([200, 409]).toContain(approved.status);
      expect([200, 409]).toContain(archived.status);
      const after = await outcome(serviceId);
      if (
        (after.archived && after.open > 0) ||
        (archived.status === 200 && approved.status === 200)
      )
        broken.push(round);
    }
    expect(broken).toEqual([]);
  }, 120_000);

  it('registerService and decommissionServer together: never an active service on a decommissioned server', async () => {
    const broken: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const name = unique('deco');
      const { serverId } = data<{ serverId: string }>(
        await call(t.url, 'POST', 'registerServer', owner, {
          name: `${name}-host`,
          host: '10.0.0.2',
          sshUser: 'deploy',
          privateKey: PRIVATE_KEY,
          hostKeyFingerprint: FINGERPRINT,
        }),
      );
      data(
        await call(t.url, 'POST', 'approveServerHostKey', owner, {
          serverId,
          fingerprint: FINGERPRINT,
        }),
      );
      const register = () =>
        call(t.url, 'POST', 'registerService', owner, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          // Every other round, a health check URL: checking it is one more wait between the
          // registration's checks and its append.
          ...(round % 2 ? {} : { healthCheckUrl: 'https://health.example.invalid/up' }),
        });
      const decommission = () => call(t.url, 'POST', 'decommissionServer', owner, { serverId });
      const [first, second] = await Promise.all(
        round % 4 < 2 ? [register(), decommission()] : [decommission(), register()],
      );
      const [registered, decommissioned] = round % 4 < 2 ? [first, second] : [second, first];
      expect([200, 409]).toContain(registered.status);
      expect([200, 409]).toContain(decommissioned.status);
      const server = data<{ status: string }>(
        await call(t.url, 'GET', 'serverDetails', owner, { serverId }),
      );
      if (server.status === 'decommissioned' && registered.status === 200) broken.push(round);
    }
    expect(broken).toEqual([]);
  }, 120_000);

  /** A ready server registered through the API. */
  async function readyServer(name: string): Promise<string> {
    const { serverId } = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name,
        host: '10.0.0.2',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
      }),
    );
    data(
      await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId,
        fingerprint: FINGERPRINT,
      }),
    );
    return serverId;
  }

  it('lets go of a server when a registration is refused, a service moves away or is archived', async () => {
    const name = unique('move');
    const { serverId: home, serviceId } = await readyService(t.url, owner, { name });
    const other = await readyServer(unique('other-host'));
    // A name already taken: refused, and the server it named stays free.
    const taken = await call(t.url, 'POST', 'registerService', owner, {
      name,
      environment: 'production',
      serverId: other,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });
    expect(taken.status).toBe(409);
    data(await call(t.url, 'POST', 'updateService', owner, { serviceId, serverId: other }));
    // Moved away: the old server may go; the new one is held.
    data(await call(t.url, 'POST', 'decommissionServer', owner, { serverId: home }));
    expect(
      (await call(t.url, 'POST', 'decommissionServer', owner, { serverId: other })).status,
    ).toBe(409);
    data(await call(t.url, 'POST', 'archiveService', owner, { serviceId }));
    data(await call(t.url, 'POST', 'decommissionServer', owner, { serverId: other }));
  });
});
