import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Hook {
  hookId: string;
  url: string;
  secret: string;
  unsignedUrl: string | null;
}

/** GitHub's own sample deliveries, as its webhooks send them. */
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
) as WebhookDefinition[];
const sample = (event: string, pick: (p: Record<string, unknown>) => boolean = () => true) =>
  (examples.find((e) => e.name === event)!.examples as Record<string, unknown>[]).find(pick)!;

const hmac = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Inbound deploy hooks take deliveries exactly as each sender sends them: GitHub's JSON and form
 * encodings, its `package` and `registry_package` events, GitLab's secret token and signing token
 * (Standard Webhooks), Docker Hub's unsigned deliveries at a hook's unsigned URL; a deleted tag
 * never deploys; each refusal names the setting that fixes it.
 */
describe('deploy hooks take each provider’s deliveries as sent', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let hook: Hook;
  let dockerHub: Hook;

  const create = async (serviceId: string, unsignedUrl = false) =>
    data<Hook>(
      await call(t.url, 'POST', 'createDeployWebhook', owner, {
        serviceId,
        name: unsignedUrl ? 'docker-hub' : 'providers',
        rules: [
          { source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}' },
          { source: 'image', pattern: '*', image: 'ghcr.io/acme/api:{tag}' },
        ],
        ...(unsignedUrl ? { unsignedUrl: true } : {}),
      }),
    );
  const post = (path: string) => request(t.url).post(new URL(path).pathname);
  /** As GitHub sends it: JSON, or its default `application/x-www-form-urlencoded`. */
  const github = (event: string, payload: unknown, form = false, secret = hook.secret) => {
    const json = JSON.stringify(payload);
    const body = form ? `payload=${encodeURIComponent(json)}` : json;
    return post(hook.url)
      .set('Content-Type', form ? 'application/x-www-form-urlencoded' : 'application/json')
      .set('X-GitHub-Event', event)
      .set('X-GitHub-Delivery', randomUUID())
      .set('X-Hub-Signature-256', hmac(secret, body))
      .send(body);
  };
  const tagPush = (tag: string, extra: Record<string, unknown> = {}) => ({
    ...sample('push'),
    ref: `refs/tags/${tag}`,
    after: 'a'.repeat(40),
    deleted: false,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const { serviceId } = await readyService(t.url, owner);
    hook = await create(serviceId);
    dockerHub = await create((await readyService(t.url, owner, { name: 'hub' })).serviceId, true);
  });
  afterAll(() => t?.close());

  it('makes a secret GitLab takes as a signing token, and an unsigned URL only when asked', () => {
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(32);
    expect(hook.unsignedUrl).toBeNull();
    expect(dockerHub.unsignedUrl).toMatch(
      new RegExp(`/api/v1/hooks/${dockerHub.hookId}/[A-Za-z0-9_-]{43}$`),
    );
  });

  it('GitHub: its default form encoding answers the ping and deploys a tag', async () => {
    const ping = await github('ping', sample('ping'), true);
    expect([ping.status, ping.body.status]).toEqual([202, 'pong']);
    const tag = await github('push', tagPush('v1.2.0'), true);
    expect([tag.status, tag.body.status, tag.body.imageRef]).toEqual([
      202,
      'queued',
      'ghcr.io/acme/api:1.2.0',
    ]);
  });

  it('GitHub: a push that deletes a tag deploys nothing', async () => {
    const deleted = await github(
      'push',
      tagPush('v1.3.0', { deleted: true, after: '0'.repeat(40) }),
    );
    expect([deleted.status, deleted.body.status, deleted.body.reason]).toEqual([
      202,
      'ignored',
      'the delivery deletes the ref: nothing is deployed from it',
    ]);
  });

  it('GitHub: a container published, as the package event and as registry_package', async () => {
    const published = (event: string, tag: string) => ({
      action: 'published',
      [event]: {
        package_type: 'CONTAINER',
        package_version: {
          package_url: `ghcr.io/acme/api:${tag}`,
          container_metadata: { tag: { name: tag, digest: `sha256:${'b'.repeat(64)}` } },
        },
      },
    });
    const pkg = await github('package', published('package', '2.0.0'));
    expect([pkg.body.status, pkg.body.imageRef]).toEqual(['queued', 'ghcr.io/acme/api:2.0.0']);
    const registry = await github('registry_package', published('registry_package', '2.0.1'));
    expect([registry.body.status, registry.body.imageRef]).toEqual([
      'queued',
      'ghcr.io/acme/api:2.0.1',
    ]);
  });

  it('GitLab: the secret token, and the signing token (Standard Webhooks)', async () => {
    // As GitLab documents its Tag Push Hook.
    const tagHook = (tag: string) =>
      JSON.stringify({
        object_kind: 'tag_push',
        ref: `refs/tags/${tag}`,
        before: '0'.repeat(40),
        after: 'c'.repeat(40),
        checkout_sha: 'c'.repeat(40),
        project: { path_with_namespace: 'acme/api' },
      });
    const token = await post(hook.url)
      .set('Content-Type', 'application/json')
      .set('X-Gitlab-Event', 'Tag Push Hook')
      .set('X-Gitlab-Token', hook.secret)
      .send(tagHook('v3.0.0'));
    expect([token.status, token.body.imageRef]).toEqual([202, 'ghcr.io/acme/api:3.0.0']);
    const wrong = await post(hook.url)
      .set('Content-Type', 'application/json')
      .set('X-Gitlab-Token', 'whsec_not-it')
      .send(tagHook('v3.0.1'));
    expect([wrong.status, wrong.body.error.message]).toEqual([
      401,
      expect.stringContaining('“Secret token”'),
    ]);
    const body = tagHook('v3.1.0');
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    const signed = () =>
      post(hook.url)
        .set('Content-Type', 'application/json')
        .set('X-Gitlab-Event', 'Tag Push Hook')
        .set('webhook-id', id)
        .set('webhook-timestamp', String(Math.floor(now.getTime() / 1000)))
        .set('webhook-signature', new Webhook(hook.secret).sign(id, now, body))
        .send(body);
    const ok = await signed();
    expect([ok.status, ok.body.imageRef]).toEqual([202, 'ghcr.io/acme/api:3.1.0']);
    const replay = await signed();
    expect([replay.status, replay.body.error.data.reason]).toEqual([409, 'replayed']);
    const forged = await post(hook.url)
      .set('Content-Type', 'application/json')
      .set('webhook-id', id)
      .set('webhook-timestamp', String(Math.floor(now.getTime() / 1000)))
      .set('webhook-signature', new Webhook(`whsec_${'A'.repeat(43)}=`).sign(id, now, body))
      .send(body);
    expect([forged.status, forged.body.error.message]).toEqual([
      401,
      expect.stringContaining('“Signing token”'),
    ]);
  });

  it('Docker Hub: unsigned, only at the unsigned URL of a hook made for it', async () => {
    // As Docker Hub documents its push delivery.
    const push = (tag: string) => ({
      push_data: { tag, pushed_at: Date.now(), pusher: 'acme' },
      repository: { repo_name: 'ghcr.io/acme/api', name: 'api', namespace: 'acme' },
    });
    const res = await post(dockerHub.unsignedUrl!)
      .set('Content-Type', 'application/json')
      .send(push('4.0.0'));
    expect([res.status, res.body.imageRef]).toEqual([202, 'ghcr.io/acme/api:4.0.0']);
    const guessed = await post(`${dockerHub.url}/${'x'.repeat(43)}`)
      .set('Content-Type', 'application/json')
      .send(push('4.0.1'));
    expect(guessed.status).toBe(401);
    const signedOnly = await post(`${hook.url}/${'x'.repeat(43)}`)
      .set('Content-Type', 'application/json')
      .send(push('4.0.2'));
    expect([signedOnly.status, signedOnly.body.error.message]).toEqual([
      401,
      expect.stringContaining('signed deliveries only'),
    ]);
    const unsigned = await post(hook.url)
      .set('Content-Type', 'application/json')
      .send(push('4.0.3'));
    expect([unsigned.status, unsigned.body.error.message]).toEqual([
      401,
      expect.stringContaining('Docker Hub signs nothing'),
    ]);
  });
});
