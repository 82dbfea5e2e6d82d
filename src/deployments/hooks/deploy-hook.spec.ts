import { describe, expect, it } from '@jest/globals';
import { given } from '../../storage/testing/given.js';
import { DeployHookCreated, DeployHookRevoked } from '../../events/notifications.events.js';
import { deployHookDecider } from './deploy-hook.decider.js';
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
});

describe('hook signatures', () => {
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
