import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FINGERPRINT, PRIVATE_KEY, data, runToSuccess } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const IMAGE = 'ghcr.io/acme/api';
const compose = (extra: string) => `services:\n  api:\n    image: ${IMAGE}:1.0.0\n${extra}`;
const PRIVILEGED = compose('    privileged: true\n');
const HOST_NETWORK = compose('    network_mode: host\n');
const DOCKER_SOCKET = compose('    volumes: ["/var/run/docker.sock:/var/run/docker.sock"]\n');
const DOCKER_SOCKET_LONG = compose(
  '    volumes:\n      - type: bind\n        source: /run/docker.sock\n        target: /s\n',
);
const HOST_ROOT = compose('    volumes: ["/:/host"]\n');
const HOST_PID = compose('    pid: host\n');
const PLAIN = compose('    ports: ["8080:80"]\n');

describe('the per-server compose policy', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let adminCookie: string;
  let admin: Record<string, string>;
  let operator: Record<string, string>;
  let serverId: string;

  const register = (name: string, text: string, server = serverId) =>
    call(t.url, 'POST', 'registerService', operator, {
      name,
      environment: 'production',
      serverId: server,
      imageRepository: IMAGE,
      compose: text,
    });
  const setPolicy = (auth: Record<string, string>, allow: string[], server = serverId) =>
    call(t.url, 'POST', 'setServerComposePolicy', auth, { serverId: server, allow });
  const newServer = async (name: string) => {
    const id = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', operator, {
        name,
        host: '10.0.0.20',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
      }),
    ).serverId;
    data(
      await call(t.url, 'POST', 'approveServerHostKey', operator, {
        serverId: id,
        fingerprint: FINGERPRINT,
      }),
    );
    return id;
  };
  const planChecks = async (input: Record<string, string>, name: string) => {
    const plan = data<{
      isReady: boolean;
      preflightChecks: { check: string; status: string; detail: string }[];
    }>(await call(t.url, 'GET', name, operator, input));
    return {
      isReady: plan.isReady,
      check: plan.preflightChecks.find((c) => c.check === 'compose-policy'),
    };
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    adminCookie = admin.Cookie;
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    serverId = await newServer('web-1');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['privileged', PRIVILEGED, 'compose.services.api.privileged'],
    ['hostNetwork', HOST_NETWORK, 'compose.services.api.network_mode'],
    ['dockerSocket', DOCKER_SOCKET, 'compose.services.api.volumes[0]'],
    ['dockerSocket', DOCKER_SOCKET_LONG, 'compose.services.api.volumes[0]'],
    ['hostRoot', HOST_ROOT, 'compose.services.api.volumes[0]'],
    ['hostPid', HOST_PID, 'compose.services.api.pid'],
  ])('refuses a %s compose at registration, naming where', async (capability, text, path) => {
    const res = await register('rooted', text);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toContain(capability);
    expect(res.body.error.data.issues).toEqual([
      { path, message: expect.stringContaining(`${capability}:`) },
    ]);
  });

  it('judges the compose as it will run: extends, merge keys and variables resolved first', async () => {
    // What each file asks for is only visible once it is read as Compose reads it.
    const viaExtends = `services:\n  base: {image: "${IMAGE}:1.0.0", privileged: true}\n  api: {extends: base}\n`;
    const extended = await register('extended', viaExtends);
    expect([extended.status, extended.body.error.data.issues]).toEqual([
      400,
      expect.arrayContaining([
        {
          path: 'compose.services.api.privileged',
          message: expect.stringContaining('privileged:'),
        },
      ]),
    ]);
    const viaVariable = compose('    volumes: ["${DATA:-./data}:/data"]\n');
    const withRoot = await call(t.url, 'POST', 'registerService', operator, {
      name: 'variable-root',
      environment: 'production',
      serverId,
      imageRepository: IMAGE,
      compose: viaVariable,
      env: [{ name: 'DATA', value: '/' }],
    });
    expect([withRoot.status, withRoot.body.error.data.issues]).toEqual([
      400,
      [{ path: 'compose.services.api.volumes[0]', message: expect.stringContaining('hostRoot:') }],
    ]);
    // A secret's value is never judged (nor echoed): its place is judged as unknown.
    const withSecret = await call(t.url, 'POST', 'registerService', operator, {
      name: 'secret-root',
      environment: 'production',
      serverId,
      imageRepository: IMAGE,
      compose: viaVariable,
      env: [{ name: 'DATA', value: '/etc', secret: true }],
    });
    expect(withSecret.status).toBe(400);
    expect(JSON.stringify(withSecret.body)).not.toContain('/etc');
    // The default is a directory of the deployment's own: allowed; a later variable is judged too.
    const { serviceId } = data<{ serviceId: string }>(
      await register('variable-later', viaVariable),
    );
    const changed = await call(t.url, 'POST', 'updateService', operator, {
      serviceId,
      setEnv: [{ name: 'DATA', value: '/var/run/docker.sock' }],
    });
    expect([changed.status, changed.body.error.message]).toEqual([
      400,
      expect.stringContaining('dockerSocket'),
    ]);
  });

  it('shows a failing preflight check in the compose plan', async () => {
    const { isReady, check } = await planChecks(
      { serverId, compose: PRIVILEGED },
      'composeDeploymentPlan',
    );
    expect(isReady).toBe(false);
    expect(check).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('does not allow privileged'),
    });
    expect(
      (await planChecks({ serverId, compose: PLAIN }, 'composeDeploymentPlan')).check,
    ).toMatchObject({ status: 'ok' });
  });

  it('lets neither an operator nor a token without server:write set the policy', async () => {
    const byOperator = await setPolicy(operator, ['privileged']);
    expect([byOperator.status, byOperator.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const narrow = await createToken(t.url, adminCookie, ['server:read', 'deploy:read']);
    const byNarrowToken = await setPolicy(bearer(narrow.token), ['privileged']);
    expect([byNarrowToken.status, byNarrowToken.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const unknown = await setPolicy(admin, ['root']);
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const inventory = data<{ servers: { id: string; composePolicy: { allow: string[] } }[] }>(
      await call(t.url, 'GET', 'infrastructureInventory', operator),
    );
    expect(inventory.servers.find((s) => s.id === serverId)?.composePolicy.allow).toEqual([]);
  });

  it('allows what an admin allowed on that server, shown in the read model', async () => {
    expect(data(await setPolicy(admin, ['privileged']))).toEqual({
      serverId,
      allow: ['privileged'],
    });
    const inventory = data<{
      servers: { id: string; composePolicy: { allow: string[]; setBy: string } }[];
    }>(await call(t.url, 'GET', 'infrastructureInventory', operator));
    expect(inventory.servers.find((s) => s.id === serverId)?.composePolicy.allow).toEqual([
      'privileged',
    ]);
    const { serviceId } = data<{ serviceId: string }>(await register('rooted', PRIVILEGED));
    expect(
      (await planChecks({ serviceId, imageTag: `${IMAGE}:1.0.1` }, 'deploymentPlan')).check,
    ).toMatchObject({ status: 'ok' });
    expect((await register('netted', HOST_NETWORK)).status).toBe(400);
    // A service on another server is held to that server's (default) policy.
    const other = await newServer('web-2');
    expect((await register('rooted', PRIVILEGED, other)).status).toBe(400);
    const moved = await call(t.url, 'POST', 'updateService', operator, {
      serviceId,
      serverId: other,
    });
    expect(moved.status).toBe(400);
  });

  it('refuses the deploy and fails the plan once the policy no longer allows it', async () => {
    data(await setPolicy(admin, ['privileged']));
    const { serviceId } = data<{ serviceId: string }>(await register('later', PRIVILEGED));
    data(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: `${IMAGE}:1.0.0`,
      }),
    );
    data(await setPolicy(owner, []));
    const refused = await call(t.url, 'POST', 'triggerDeploy', operator, {
      serviceId,
      imageTag: `${IMAGE}:1.0.2`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('does not allow: privileged');
    const { isReady, check } = await planChecks(
      { serviceId, imageTag: `${IMAGE}:1.0.2` },
      'deploymentPlan',
    );
    expect([isReady, check?.status]).toEqual([false, 'fail']);
    const update = await call(t.url, 'POST', 'updateService', operator, {
      serviceId,
      compose: DOCKER_SOCKET,
    });
    expect(update.status).toBe(400);
  });

  it('fails the rollback plan when the target’s frozen compose is no longer allowed', async () => {
    data(await setPolicy(admin, ['privileged']));
    const { serviceId } = data<{ serviceId: string }>(await register('rolled', PRIVILEGED));
    const deploy = async (tag: string) => {
      const imageTag = `${IMAGE}:${tag}`;
      const { deploymentId } = data<{ deploymentId: string }>(
        await call(t.url, 'POST', 'triggerDeploy', operator, { serviceId, imageTag }),
      );
      await runToSuccess(t.app, deploymentId, serviceId, imageTag);
      return deploymentId;
    };
    const first = await deploy('1.0.0');
    data(await call(t.url, 'POST', 'updateService', operator, { serviceId, compose: PLAIN }));
    await deploy('1.0.1');
    const input = { serviceId, targetDeploymentId: first };
    expect((await planChecks(input, 'rollbackPlan')).check?.status).toBe('ok');
    data(await setPolicy(owner, []));
    const { isReady, check } = await planChecks(input, 'rollbackPlan');
    expect([isReady, check?.status]).toEqual([false, 'fail']);
    expect(check?.detail).toContain('privileged');
  });
});
