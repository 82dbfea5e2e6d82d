import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { verifyGitDelivery } from './git-push-delivery.js';

const SECRET = 'whsec_test-secret';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main' }));
const headers =
  (values: Record<string, string>) =>
  (name: string): string | undefined =>
    values[name.toLowerCase()];
const giteaSignature = (payload: Buffer, secret = SECRET) =>
  createHmac('sha256', secret).update(payload).digest('hex');

describe('verifyGitDelivery', () => {
  it('accepts a GitHub delivery signed as GitHub signs it', async () => {
    const verified = verifyGitDelivery(
      headers({
        'x-hub-signature-256': await sign(SECRET, body.toString()),
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'x-github-event': 'push',
      }),
      body,
      SECRET,
    );
    expect(verified).toMatchObject({
      provider: 'github',
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      event: 'push',
    });
  });

  it('refuses a GitHub delivery signed with another secret, or over other bytes', async () => {
    const other = await sign('another secret', body.toString());
    expect(verifyGitDelivery(headers({ 'x-hub-signature-256': other }), body, SECRET)).toEqual({
      refused: 'forged',
      message: expect.any(String),
    });
    const tampered = Buffer.from(body.toString().replace('main', 'evil'));
    const signed = await sign(SECRET, body.toString());
    expect(verifyGitDelivery(headers({ 'x-hub-signature-256': signed }), tampered, SECRET)).toEqual(
      { refused: 'forged', message: expect.any(String) },
    );
    expect(
      verifyGitDelivery(headers({ 'x-hub-signature-256': 'sha256=zz' }), body, SECRET),
    ).toMatchObject({ refused: 'forged' });
  });

  it('reads Gitea and Forgejo by their own signature, though they send GitHub headers too', () => {
    const forged = giteaSignature(body, 'wrong');
    const gitea = verifyGitDelivery(
      headers({
        'x-gitea-signature': giteaSignature(body),
        'x-gitea-delivery': 'd1',
        'x-gitea-event': 'push',
        'x-hub-signature-256': `sha256=${forged}`,
        'x-github-event': 'push',
      }),
      body,
      SECRET,
    );
    expect(gitea).toMatchObject({ provider: 'gitea', deliveryId: 'd1', event: 'push' });
    const forgejo = verifyGitDelivery(
      headers({ 'x-forgejo-signature': giteaSignature(body), 'x-forgejo-event': 'push' }),
      body,
      SECRET,
    );
    expect(forgejo).toMatchObject({ provider: 'gitea', event: 'push' });
    expect(verifyGitDelivery(headers({ 'x-gitea-signature': forged }), body, SECRET)).toMatchObject(
      { refused: 'forged' },
    );
  });

  it('compares GitLab’s token with the secret', () => {
    const ok = verifyGitDelivery(
      headers({
        'x-gitlab-token': SECRET,
        'x-gitlab-event': 'Tag Push Hook',
        'x-gitlab-event-uuid': '13792a34-cac6-4fda-95a8-c58e00a3954e',
      }),
      body,
      SECRET,
    );
    expect(ok).toMatchObject({ provider: 'gitlab', event: 'Tag Push Hook' });
    expect(
      verifyGitDelivery(headers({ 'x-gitlab-token': `${SECRET}x` }), body, SECRET),
    ).toMatchObject({ refused: 'forged' });
  });

  it('refuses a delivery with no credential at all', () => {
    expect(verifyGitDelivery(headers({ 'x-github-event': 'push' }), body, SECRET)).toMatchObject({
      refused: 'unsigned',
    });
  });

  it('keeps only well-formed ids and event names, else an id from the body', () => {
    const verified = verifyGitDelivery(
      headers({
        'x-hub-signature-256': `sha256=${giteaSignature(body)}`,
        'x-github-delivery': 'id with\nnewline',
        'x-github-event': 'push\u202e',
      }),
      body,
      SECRET,
    );
    expect(verified).toMatchObject({ deliveryId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(verified).toMatchObject({ event: null });
  });
});
