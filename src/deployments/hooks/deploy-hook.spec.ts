import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { given } from '../../storage/testing/given.js';
import {
  DeployHookCreated,
  DeployHookDeliveryAccepted,
  DeployHookRevoked,
} from '../../events/notifications.events.js';
import {
  deployHookDecider,
  REMEMBERED_DELIVERY_IDS,
  REMEMBERED_IMAGES,
} from './deploy-hook.decider.js';
import { announcedBy, globPattern, imageFor } from './hook-rules.js';
import { hmacHex, verifyHookSignature } from './hook-signature.js';

const hook = {
  hookId: 'h1',
  serviceId: 's1',
  name: 'ci',
  secretCiphertext: 'v1.x',
  rules: [{ source: 'tag' as const, pattern: 'v*', image: 'ghcr.io/acme/api:{version}' }],
};

describe('deploy hook decider', () => {
  it('creates once, revokes once (a second revoke changes nothing), unknown is 404', () => {
    given(deployHookDecider).when({ kind: 'create', event: hook }).then(DeployHookCreated(hook));
    given(deployHookDecider, DeployHookCreated(hook))
      .when({ kind: 'create', event: hook })
      .thenRefused('CONFLICT');
    given(deployHookDecider, DeployHookCreated(hook))
      .when({ kind: 'revoke', hookId: 'h1' })
      .then(DeployHookRevoked({ hookId: 'h1' }));
    given(deployHookDecider, DeployHookCreated(hook), DeployHookRevoked({ hookId: 'h1' }))
      .when({ kind: 'revoke', hookId: 'h1' })
      .thenNothing();
    given(deployHookDecider).when({ kind: 'revoke', hookId: 'h1' }).thenRefused('NOT_FOUND');
  });

  /** A delivery of `imageRef`; the history's have ids `d-<image>`, the new one `new`. */
  const delivery = (imageRef: string, deliveryId = `d-${imageRef}`) => ({
    hookId: 'h1',
    serviceId: 's1',
    deliveryId,
    digest: createHash('sha256').update(deliveryId).digest('hex'),
    form: 'github' as const,
    source: 'tag' as const,
    tag: imageRef.split(':')[1],
    imageRef,
  });
  const accepted = (imageRef: string, deliveryId?: string) =>
    DeployHookDeliveryAccepted(delivery(imageRef, deliveryId));
  const accept = (imageRef: string, allowRollback = false, deliveryId = 'new') => ({
    kind: 'accept' as const,
    delivery: delivery(imageRef, deliveryId),
    allowRollback,
  });

  it('accepts a new image, or the current one again; refuses one it moved past unless allowed', () => {
    given(deployHookDecider, DeployHookCreated(hook))
      .when(accept('api:1.0.0'))
      .then(accepted('api:1.0.0', 'new'));
    const history = [DeployHookCreated(hook), accepted('api:1.0.0'), accepted('api:1.1.0')];
    given(deployHookDecider, ...history)
      .when(accept('api:1.1.0'))
      .then(accepted('api:1.1.0', 'new'));
    given(deployHookDecider, ...history)
      .when(accept('api:0.9.0'))
      .then(accepted('api:0.9.0', 'new'));
    given(deployHookDecider, ...history)
      .when(accept('api:1.0.0'))
      .thenRefused('CONFLICT', /moved past api:1\.0\.0/);
    given(deployHookDecider, ...history)
      .when(accept('api:1.0.0', true))
      .then(accepted('api:1.0.0', 'new'));
    // Going back (allowed) makes the older image current; the newer one is now behind it.
    given(deployHookDecider, ...history, accepted('api:1.0.0', 'back'))
      .when(accept('api:1.1.0'))
      .thenRefused('CONFLICT', /moved past api:1\.1\.0/);
  });

  it("refuses a delivery id it accepted lately (a sender's retry, signed again)", () => {
    given(deployHookDecider, DeployHookCreated(hook), accepted('api:1.0.0', 'd-7'))
      .when(accept('api:1.0.0', false, 'd-7'))
      .thenRefused('CONFLICT', /replay/);
    const many = Array.from({ length: REMEMBERED_DELIVERY_IDS }, (_, i) =>
      accepted('api:1.0.0', `later-${i}`),
    );
    // Only the last REMEMBERED_DELIVERY_IDS are kept: the state does not grow with deliveries.
    given(deployHookDecider, DeployHookCreated(hook), accepted('api:1.0.0', 'd-7'), ...many)
      .when(accept('api:1.0.0', false, 'd-7'))
      .then(accepted('api:1.0.0', 'd-7'));
  });

  it('refuses deliveries to a revoked or unknown hook', () => {
    given(deployHookDecider, DeployHookCreated(hook), DeployHookRevoked({ hookId: 'h1' }))
      .when(accept('api:1.0.0'))
      .thenRefused('TOKEN_REVOKED');
    given(deployHookDecider).when(accept('api:1.0.0')).thenRefused('NOT_FOUND');
  });

  it('remembers the last REMEMBERED_IMAGES distinct images, however many deliveries it took', () => {
    const many = Array.from({ length: REMEMBERED_IMAGES + 5 }, (_, i) => accepted(`api:${i}`));
    const state = [DeployHookCreated(hook), ...many, accepted('api:7')].reduce(
      (s, e) => deployHookDecider.evolve(s, e),
      deployHookDecider.initialState(),
    );
    expect(state.images).toHaveLength(REMEMBERED_IMAGES);
    expect(state.images[state.images.length - 1]).toBe('api:7');
    expect(state.images).not.toContain('api:0');
  });
});

describe('hook signatures', () => {
  const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
  const secret = 'whsec_test';
  const body = Buffer.from('{"ref":"refs/tags/v1.2.3"}');
  const now = 1_800_000_000_000;
  const headers = (h: Record<string, string>) => (name: string) => h[name];

  it("accepts Slipway's form inside the window and refuses forged, stale and unsigned ones", () => {
    const ts = String(now / 1000);
    const good = {
      'x-slipway-timestamp': ts,
      'x-slipway-delivery': 'd-1',
      'x-slipway-signature': `sha256=${hmacHex(secret, `${ts}.${body.toString()}`)}`,
    };
    expect(verifyHookSignature(headers(good), body, secret, now)).toEqual({
      form: 'slipway',
      deliveryId: 'd-1',
      event: null,
      digest: sha256(`${ts}.${body.toString()}`),
    });
    expect(verifyHookSignature(headers(good), body, 'other', now)).toMatchObject({
      refused: 'forged',
    });
    expect(verifyHookSignature(headers(good), Buffer.from('{}'), secret, now)).toMatchObject({
      refused: 'forged',
    });
    expect(verifyHookSignature(headers(good), body, secret, now + 301_000)).toMatchObject({
      refused: 'stale',
    });
    expect(verifyHookSignature(headers(good), body, secret, now - 301_000)).toMatchObject({
      refused: 'stale',
    });
    expect(verifyHookSignature(headers({}), body, secret, now)).toMatchObject({
      refused: 'unsigned',
    });
    expect(
      verifyHookSignature(headers({ ...good, 'x-slipway-delivery': '' }), body, secret, now),
    ).toMatchObject({ refused: 'unsigned' });
  });

  it('identifies a delivery by its signed bytes, not by its (unsigned) delivery id', () => {
    const ts = String(now / 1000);
    const signature = `sha256=${hmacHex(secret, `${ts}.${body.toString()}`)}`;
    const as = (deliveryId: string, at = ts, sig = signature) =>
      verifyHookSignature(
        headers({
          'x-slipway-timestamp': at,
          'x-slipway-delivery': deliveryId,
          'x-slipway-signature': sig,
        }),
        body,
        secret,
        now,
      );
    const first = as('d-1');
    expect(as('d-2')).toEqual({ ...first, deliveryId: 'd-2' });
    // Signed again a second later: another delivery of the same body, another digest.
    const later = String(now / 1000 + 1);
    const resigned = as('d-3', later, `sha256=${hmacHex(secret, `${later}.${body.toString()}`)}`);
    expect(resigned).toMatchObject({ form: 'slipway' });
    expect((resigned as { digest: string }).digest).not.toBe((first as { digest: string }).digest);
  });

  it("accepts GitHub's form (body only) and refuses it forged", () => {
    const good = {
      'x-hub-signature-256': `sha256=${hmacHex(secret, body)}`,
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'x-github-event': 'push',
    };
    expect(verifyHookSignature(headers(good), body, secret, now)).toEqual({
      form: 'github',
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      event: 'push',
      digest: sha256(body),
    });
    expect(
      verifyHookSignature(
        headers({ ...good, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }),
        body,
        secret,
        now,
      ),
    ).toMatchObject({ refused: 'forged' });
  });
});

describe('hook rules', () => {
  it('reads a git tag push, a GitHub package publish, a Docker Hub push and the plain forms', () => {
    expect(announcedBy({ ref: 'refs/tags/v1.2.3' })).toEqual({
      source: 'tag',
      tag: 'v1.2.3',
      repository: null,
    });
    expect(announcedBy({ ref: 'refs/heads/main' })).toBeNull();
    expect(
      announcedBy({
        registry_package: {
          package_version: {
            package_url: 'ghcr.io/acme/api:1.4.0',
            container_metadata: { tag: { name: '1.4.0' } },
          },
        },
      }),
    ).toEqual({ source: 'image', tag: '1.4.0', repository: 'ghcr.io/acme/api' });
    expect(
      announcedBy({ push_data: { tag: 'latest' }, repository: { repo_name: 'acme/api' } }),
    ).toEqual({ source: 'image', tag: 'latest', repository: 'acme/api' });
    expect(announcedBy({ tag: '$(rm -rf /)' })).toBeNull();
    expect(announcedBy(null)).toBeNull();
  });

  it('maps the first matching rule; {version} drops a leading v', () => {
    const rules = [
      { source: 'tag' as const, pattern: 'v*', image: 'ghcr.io/acme/api:{version}' },
      { source: 'image' as const, pattern: '*', image: 'ghcr.io/acme/api:{tag}' },
    ];
    expect(imageFor(rules, { source: 'tag', tag: 'v2.0.1', repository: null })).toBe(
      'ghcr.io/acme/api:2.0.1',
    );
    expect(imageFor(rules, { source: 'tag', tag: 'release-1', repository: null })).toBeNull();
    expect(imageFor(rules, { source: 'image', tag: 'sha-abc', repository: null })).toBe(
      'ghcr.io/acme/api:sha-abc',
    );
    expect(globPattern('v1.*').test('v1.2')).toBe(true);
    expect(globPattern('v1.*').test('v1x2')).toBe(false);
  });
});
