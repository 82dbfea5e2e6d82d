import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AddressGate } from '../src/deployments/reach/address-gate.js';
import { DeploymentRunner } from '../src/runner/deployment-runner.js';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { ALLOW_LOOPBACK, startRunnerFor, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { freePort } from './support/ports.js';

interface Details {
  status: string;
  failureReason: string | null;
  failedStep: string | null;
  steps: { step: string; ok: boolean | null; detail: string | null; finishedAt: string | null }[];
}

describe("the runner's reach: pinned addresses and uniform connection failures", () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let admin: Record<string, string>;
  let operator: Record<string, string>;

  async function waitForEnd(deploymentId: string): Promise<Details> {
    for (let i = 0; i < 400; i++) {
      t.app.get(DeploymentRunner).poke();
      const d = data<Details>(
        await call(t.url, 'GET', 'deploymentDetails', owner, { deploymentId }),
      );
      if (['succeeded', 'failed', 'cancelled'].includes(d.status)) return d;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`deployment ${deploymentId} never finished`);
  }

  /** A ready server at host:port and a service on it (with a backup command), by the operator. */
  async function serviceOn(name: string, host: string, port: number) {
    const { serverId } = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', operator, {
        name,
        host,
        sshPort: port,
        sshUser: sshd.user,
        privateKey: sshd.clientKey,
        hostKeyFingerprint: sshd.fingerprint,
      }),
    );
    data(
      await call(t.url, 'POST', 'approveServerHostKey', operator, {
        serverId,
        fingerprint: sshd.fingerprint,
      }),
    );
    return data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', operator, {
        name,
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
        backupCommand: 'docker exec db pg_dump app',
      }),
    ).serviceId;
  }
  const deploy = async (serviceId: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    ).deploymentId;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('tells an operator only "could not connect"; the admin reads the cause', async () => {
    const id = await deploy(await serviceOn('closed', '127.0.0.1', await freePort()));
    expect((await waitForEnd(id)).status).toBe('failed');
    const asOperator = data<Details>(
      await call(t.url, 'GET', 'deploymentDetails', operator, { deploymentId: id }),
    );
    expect(asOperator).toMatchObject({
      failedStep: 'connect',
      failureReason: 'could not connect to the server',
    });
    // The step itself ended failed (not left running), with the same words.
    expect(asOperator.steps.at(-1)).toMatchObject({
      step: 'connect',
      ok: false,
      detail: 'could not connect to the server',
      finishedAt: expect.any(String),
    });
    const logs = data<{ lines: { text: string }[] }>(
      await call(t.url, 'GET', 'deploymentLogs', operator, { deploymentId: id }),
    );
    expect(logs.lines.map((l) => l.text).join('\n')).not.toMatch(/ECONNREFUSED|refused|timed/i);
    const asAdmin = data<Details>(
      await call(t.url, 'GET', 'deploymentDetails', admin, { deploymentId: id }),
    );
    expect(asAdmin.failureReason).toContain('ECONNREFUSED');
  });

  it('answers a backup on an unreachable server the same way: generic for an operator', async () => {
    const serviceId = await serviceOn('closed-backup', '127.0.0.1', await freePort());
    const asOperator = await call(t.url, 'POST', 'triggerBackup', operator, { serviceId });
    expect(asOperator.status).toBe(409);
    expect(asOperator.body.error.message).toBe('The backup could not connect to the server');
    const asAdmin = await call(t.url, 'POST', 'triggerBackup', admin, { serviceId });
    expect(asAdmin.status).toBe(409);
    expect(asAdmin.body.error.message).toContain('ECONNREFUSED');
  });

  it('connects to the address it checked, never re-resolving the name', async () => {
    // The name resolves nowhere but through the gate: only a pinned connection can succeed.
    const gate = t.app.get(AddressGate);
    const original = gate.resolver;
    gate.resolver = async (host) => (host === 'pinned.example.invalid' ? ['127.0.0.1'] : []);
    try {
      const id = await deploy(await serviceOn('pinned', 'pinned.example.invalid', sshd.port));
      expect(await waitForEnd(id)).toMatchObject({ status: 'succeeded', failureReason: null });
    } finally {
      gate.resolver = original;
    }
  });

  it('refuses at connect time a name that now resolves into a refused range (DNS rebinding)', async () => {
    const gate = t.app.get(AddressGate);
    const original = gate.resolver;
    let answer = '203.0.113.20';
    gate.resolver = async () => [answer];
    try {
      const serviceId = await serviceOn('rebind', 'rebind.example.invalid', sshd.port);
      answer = '169.254.169.254';
      const before = sshd.dockerCalls().length;
      const id = await deploy(serviceId);
      expect(await waitForEnd(id)).toMatchObject({ status: 'failed', failedStep: 'connect' });
      const asAdmin = data<Details>(
        await call(t.url, 'GET', 'deploymentDetails', admin, { deploymentId: id }),
      );
      expect(asAdmin.failureReason).toContain('metadata address');
      expect(sshd.dockerCalls().length).toBe(before);
    } finally {
      gate.resolver = original;
    }
  });

  it('checks the health-check URL again when it is used, and pins what curl connects to', async () => {
    const gate = t.app.get(AddressGate);
    const original = gate.resolver;
    let answer = '203.0.113.30';
    gate.resolver = async (host) => (host === 'probe.example.invalid' ? [answer] : original(host));
    try {
      const serviceId = await serviceOn('probed', '127.0.0.1', sshd.port);
      data(
        await call(t.url, 'POST', 'updateService', operator, {
          serviceId,
          healthCheckUrl: 'http://probe.example.invalid:8080/healthz',
        }),
      );
      answer = '169.254.169.254';
      const before = sshd.dockerCalls().length;
      const id = await deploy(serviceId);
      expect(await waitForEnd(id)).toMatchObject({ status: 'failed', failedStep: 'http-probe' });
      expect(sshd.dockerCalls().length).toBe(before);
      const asOperator = data<Details>(
        await call(t.url, 'GET', 'deploymentDetails', operator, { deploymentId: id }),
      );
      expect(asOperator.failureReason).toBe('the health check did not succeed');
      const asAdmin = data<Details>(
        await call(t.url, 'GET', 'deploymentDetails', admin, { deploymentId: id }),
      );
      expect(asAdmin.failureReason).toContain('metadata address');
    } finally {
      gate.resolver = original;
    }
  });
});
