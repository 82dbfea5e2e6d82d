import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data, readyService } from './support/deployments.js';
import { commitOf, githubBody, githubDelivery, REPOSITORY } from './support/git-push.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Auth = Record<string, string>;
type Reply = Awaited<ReturnType<typeof call>>;

const expectTwoHumans = (res: Reply) =>
  expect([res.status, res.body.error?.code, res.body.error?.data?.rule]).toEqual([
    403,
    'FORBIDDEN',
    'two-humans',
  ]);

/**
 * A git source's webhook files requests as its service; whoever set the source (and so was shown
 * its secret, or chose what it deploys) controls it, as a deploy hook's creator controls the hook:
 * they cannot approve what it files. Replayed as that operator would: sign a push, then approve.
 */
describe('requests a git source’s webhook files are approved by someone who did not set it', () => {
  let t: TestApp;
  let owner: Auth;
  let setter: Auth;
  let other: Auth;
  let serviceId: string;

  const setSource = (auth: Auth, rotateWebhookSecret = false) =>
    call(t.url, 'POST', 'setServiceGitSource', auth, {
      serviceId,
      repository: REPOSITORY,
      rules: [{ kind: 'branch', pattern: 'master', action: 'approval' }],
      rotateWebhookSecret,
    });
  /** A push to master signed with `secret`: the approval request it filed. */
  const push = async (secret: string, n: number) => {
    const res = await githubDelivery(
      t.url,
      serviceId,
      secret,
      githubBody('refs/heads/master', commitOf(n)),
    );
    expect([res.status, res.body.status]).toEqual([202, 'pending_approval']);
    return res.body.approvalId as string;
  };
  const approve = (auth: Auth, approvalId: string) =>
    call(t.url, 'POST', 'approveRequest', auth, { approvalId });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    setter = await memberWithRole(t.url, owner, 'setter@example.com', 'operator');
    other = await memberWithRole(t.url, owner, 'other@example.com', 'operator');
    ({ serviceId } = await readyService(t.url, owner));
  });
  afterAll(async () => t?.close());

  it('refuses the setter’s approval of a push they signed; another operator’s is accepted', async () => {
    const { webhook } = data<{ webhook: { secret: string } }>(await setSource(setter));
    const approvalId = await push(webhook.secret, 1);
    expectTwoHumans(await approve(setter, approvalId));
    const approved = data<{ status: string }>(await approve(other, approvalId));
    expect(approved.status).toBe('approved');
  });

  it('counts whoever rotated the secret too, and the earlier setters still', async () => {
    const { webhook } = data<{ webhook: { secret: string } }>(await setSource(owner, true));
    const approvalId = await push(webhook.secret, 2);
    expectTwoHumans(await approve(owner, approvalId));
    expectTwoHumans(await approve(setter, approvalId));
    expect(data<{ status: string }>(await approve(other, approvalId)).status).toBe('approved');
  });
});
