import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { canonicalJson } from '../src/common/canonical-json.js';
import {
  DeploymentTriggered,
  serviceDeploymentsStream,
  type RecordedEnvVar,
} from '../src/events/deployments.events.js';
import { allEvents } from './support/audit.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { answer, mcpClient, toolError } from './support/mcp.js';
import { SERVER_ID, SERVICE_ID, seed, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET_KEY = randomBytes(32);
const IMAGE = 'ghcr.io/acme/api:3.0.0';

/** The keyed digest earlier versions recorded for a secret env value (and signed plan ids with). */
const oldDigest = (value: string) =>
  createHmac('sha256', SECRET_KEY).update(value, 'utf8').digest('hex');

/** A secret sealed the way earlier versions sealed it: `v1`, under the secret key itself. */
function oldSeal(value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', SECRET_KEY, iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join('.');
}

const oldSecret = (name: string, value: string): RecordedEnvVar => ({
  name,
  value: null,
  secretCiphertext: oldSeal(value),
  secretDigest: oldDigest(value),
});

/**
 * One secret key, one key per purpose: a secret env value an owner sets is recorded with no
 * keyed digest (the audit export used to hand out HMAC(key, value) for any value), and a plan id
 * MACed under the old shared scheme (what those digests amounted to) is refused over MCP. Plans
 * still tell changed from unchanged secrets, for events of either kind.
 */
describe('the secret key is no oracle: no digest of chosen values, plan ids under their own key', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerId: string;
  let serviceId: string;

  const exportText = async () => {
    const res = await request(t.url)
      .get('/api/v1/audit/export')
      .set(owner)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    expect(res.status).toBe(200);
    return res.body as string;
  };
  const setEnv = async (id: string, env: { name: string; value: string; secret?: boolean }[]) =>
    data(await call(t.url, 'POST', 'updateService', owner, { serviceId: id, setEnv: env }));
  const trigger = async (id: string, imageTag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId: id, imageTag }),
    ).deploymentId;
  const envDiff = async (fromDeploymentId: string, toDeploymentId: string) =>
    data<{ diff: { env: { name: string; change: string; secret: boolean }[] } }>(
      await call(t.url, 'GET', 'configDiff', owner, { fromDeploymentId, toDeploymentId }),
    ).diff.env;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { secretKey: SECRET_KEY.toString('base64') } });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    ownerId = account.userId;
    ({ serviceId } = await readyService(t.url, owner, { name: 'web' }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records a secret env value sealed only: the audit export holds no digest of it', async () => {
    const chosen = 'slipway:mcp-plan-claim:v1\nany message the owner wants MACed';
    await setEnv(serviceId, [
      { name: 'FIRST', value: chosen, secret: true },
      { name: 'SECOND', value: chosen, secret: true },
    ]);
    const text = await exportText();
    expect(text).not.toContain(oldDigest(chosen));
    const updated = (await allEvents(t)).filter((e) => e.type === 'ServiceUpdated').at(-1)!;
    const env = (updated.data as { changes: { env: RecordedEnvVar[] } }).changes.env;
    const recorded = env.filter((v) => v.name === 'FIRST' || v.name === 'SECOND');
    expect(recorded.map((v) => v.secretDigest)).toEqual([null, null]);
    // Nothing that repeats with the value either: the same value seals differently each time.
    expect(recorded[0].secretCiphertext).not.toBe(recorded[1].secretCiphertext);
    expect(text).not.toContain(chosen.split('\n')[1]);
  });

  it('refuses over MCP a plan id MACed under the old shared scheme, and takes a planned one', async () => {
    const token = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'owner-mcp',
        scopes: ['deploy:read', 'deploy:plan', 'deploy:start'],
        expiresInDays: 1,
      }),
    ).token;
    const client = await mcpClient(t.url, token);
    try {
      // Each MAC below is HMAC(secret key, text) of a text an owner could store as a secret env
      // value and read back as its digest in the audit export, before values went undigested
      // (and still can in events written then).
      const domain = 'slipway:mcp-plan-claim:v1\n';
      const subject = { serviceId, imageTag: IMAGE };
      const body = {
        v: 1,
        p: ownerId,
        c: 'triggerDeploy',
        s: oldDigest(`${domain}subject\n${canonicalJson(subject)}`),
        t: Date.now(),
      };
      const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
      const forged = `pln_${encoded}.${oldDigest(`${domain}${encoded}`)}`;
      const refused = toolError(
        await client.callTool({ name: 'triggerDeploy', arguments: { ...subject, planId: forged } }),
      );
      expect(refused).toMatchObject({
        code: 'FORBIDDEN',
        data: { rule: 'plan-first', reason: 'invalid' },
      });

      const plan = answer<{ planId: string }>(
        await client.callTool({ name: 'deploymentPlan', arguments: subject }),
      );
      const queued = answer<{ status: string }>(
        await client.callTool({
          name: 'triggerDeploy',
          arguments: { ...subject, planId: plan.planId },
        }),
      );
      expect(queued.status).toBe('queued');
    } finally {
      await client.close();
    }
  });

  it('still tells a changed secret from an unchanged one, comparing sealed values', async () => {
    await setEnv(serviceId, [
      { name: 'KEPT', value: 'same value', secret: true },
      { name: 'ROTATED', value: 'old value', secret: true },
    ]);
    const from = await trigger(serviceId, 'ghcr.io/acme/api:3.1.0');
    await setEnv(serviceId, [
      { name: 'KEPT', value: 'same value', secret: true },
      { name: 'ROTATED', value: 'new value', secret: true },
    ]);
    const to = await trigger(serviceId, 'ghcr.io/acme/api:3.2.0');
    const env = await envDiff(from, to);
    expect(env.filter((v) => v.name === 'KEPT' || v.name === 'ROTATED')).toEqual([
      { name: 'KEPT', change: 'unchanged', secret: true },
      { name: 'ROTATED', change: 'changed', secret: true },
    ]);
  });

  it('reads deployments recorded with old-style digests and v1 seals, against either kind', async () => {
    const history = serviceWithHistory();
    const [D4, D5] = [
      '00000000-0000-4000-8000-000000000004',
      '00000000-0000-4000-8000-000000000005',
    ];
    const oldTriggered = (deploymentId: string, sequence: number, env: RecordedEnvVar[]) =>
      DeploymentTriggered({
        deploymentId,
        serviceId: SERVICE_ID,
        sequence,
        imageRef: `ghcr.io/acme/api:1.${sequence}.0`,
        trigger: 'session',
        requestedBy: {
          principalId: 'seed',
          kind: 'user',
          role: 'owner',
          authMethod: 'session',
          tokenId: null,
        },
        snapshot: {
          serviceName: 'api',
          environment: 'production',
          serverId: SERVER_ID,
          imageRef: `ghcr.io/acme/api:1.${sequence}.0`,
          compose: 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n',
          env,
          healthCheckUrl: null,
        },
        rollbackOf: null,
        approvalId: null,
        idempotencyKey: null,
        inputDigest: null,
      });
    history[2][1].push(
      oldTriggered(D4, 4, [oldSecret('KEPT', 'same value'), oldSecret('ROTATED', 'old value')]),
      oldTriggered(D5, 5, [oldSecret('KEPT', 'same value'), oldSecret('ROTATED', 'new value')]),
    );
    await seed(t, history);
    expect(history[2][0]).toBe(serviceDeploymentsStream(SERVICE_ID));
    const changes = [
      { name: 'KEPT', change: 'unchanged', secret: true },
      { name: 'ROTATED', change: 'changed', secret: true },
    ];
    expect(await envDiff(D4, D5)).toEqual(changes);
    // A deployment recorded now (no digest) against one recorded then (a digest, a v1 seal).
    await setEnv(SERVICE_ID, [
      { name: 'KEPT', value: 'same value', secret: true },
      { name: 'ROTATED', value: 'new value', secret: true },
    ]);
    const now = await trigger(SERVICE_ID, 'ghcr.io/acme/api:1.6.0');
    expect(await envDiff(D4, now)).toEqual(changes);
    expect(await envDiff(D5, now)).toEqual(changes.map((c) => ({ ...c, change: 'unchanged' })));
  });
});
