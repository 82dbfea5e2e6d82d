import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ALL_SCOPES } from '../src/kernel/scopes.js';
import { refusals } from './support/audit.js';
import {
  PASSWORD,
  bearer,
  call,
  cookieAuth,
  createToken,
  logIn,
  sessionCookie,
  signUp,
} from './support/identity.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { DAY, TestClock } from './support/test-clock.js';

const linkIn = (text: string) =>
  /https:\/\/slipway\.example\/api\/auth\/invite\?token=([0-9a-f-]{36}\.[A-Za-z0-9_-]{43})/.exec(
    text,
  )?.[1];

/**
 * Registration with the production default (SLIPWAY_OPEN_SIGNUP off): the owner signs up, then
 * people join by invite, mailed through a real SMTP server.
 */
describe('invites and closed registration', () => {
  const clock = new TestClock();
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: Record<string, string>;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      notes: false,
      clock,
      config: {
        openSignup: false,
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        publicUrl: 'https://slipway.example',
      },
    });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  /** Invites `email` as `role` by `by`, and returns the link's token from the mail. */
  async function invite(by: Record<string, string>, role: string, email?: string) {
    const to = email ?? `invitee-${(n += 1)}@example.com`;
    const res = await call(t.url, 'POST', 'inviteMember', by, { email: to, role });
    expect(res.status).toBe(200);
    const mail = await smtp.mailTo(to, /invited to Slipway/);
    const token = linkIn(mail.text);
    expect(token).toBeDefined();
    return { email: to, token: token!, inviteId: res.body.result.data.json.inviteId as string };
  }
  const accept = (token: string, name = 'New Member') =>
    request(t.url).post('/api/auth/accept-invite').send({ token, password: PASSWORD, name });

  it('refuses sign-up after the owner by default', async () => {
    const res = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'walk-in@example.com', password: PASSWORD, name: 'Walk In' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', data: { rule: 'invite-only' } });
    const first = await request(t.url).get('/api/auth/first-run');
    expect(first.body).toEqual({ ownerExists: true, openSignup: false });
  });

  it('mails a link that opens the dashboard, creates the user with the role once, then is refused', async () => {
    const { email, token, inviteId } = await invite(owner, 'operator');
    const opened = await request(t.url).get(`/api/auth/invite?token=${token}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(`/accept-invite?token=${token}`);

    const accepted = await accept(token);
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toMatchObject({ email, role: 'operator', name: 'New Member' });
    const session = cookieAuth(sessionCookie(accepted.headers['set-cookie']));
    const viewer = await call(t.url, 'GET', 'viewer', session);
    expect(viewer.body.result.data.json.principal).toMatchObject({ role: 'operator' });
    expect(await logIn(t.url, email)).toMatch(/^slipway_session=/);

    const replay = await accept(token, 'Someone Else');
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('BAD_REQUEST');
    const reopened = await request(t.url).get(`/api/auth/invite?token=${token}`);
    expect(reopened.headers.location).toBe('/accept-invite?error=INVALID_TOKEN');

    const list = await call(t.url, 'GET', 'invites', owner, { limit: 50 });
    const entry = list.body.result.data.json.items.find(
      (i: { inviteId: string }) => i.inviteId === inviteId,
    );
    expect(entry).toMatchObject({ email, role: 'operator', status: 'accepted' });
    // The link's secret is in the mail only.
    expect(JSON.stringify(list.body)).not.toContain(token.split('.')[1]);
  });

  it('refuses a link with a forged secret, and a malformed one', async () => {
    const { token } = await invite(owner, 'viewer');
    const [id] = token.split('.');
    expect((await accept(`${id}.${'A'.repeat(43)}`)).status).toBe(400);
    expect((await accept('not-a-token-at-all-000')).status).toBe(400);
    expect((await request(t.url).post('/api/auth/accept-invite').send({ token })).status).toBe(400);
    // The real one still works.
    expect((await accept(token)).status).toBe(201);
  });

  it('refuses an expired link', async () => {
    const { token, inviteId } = await invite(owner, 'viewer');
    clock.advance(8 * DAY);
    expect((await accept(token)).status).toBe(400);
    // The owner's session expired too.
    owner = cookieAuth(await logIn(t.url, 'owner@example.com'));
    const list = await call(t.url, 'GET', 'invites', owner, { status: 'expired', limit: 50 });
    expect(list.body.result.data.json.items.map((i: { inviteId: string }) => i.inviteId)).toContain(
      inviteId,
    );
  });

  it('refuses a revoked link', async () => {
    const { token, inviteId } = await invite(owner, 'viewer');
    const revoked = await call(t.url, 'POST', 'revokeInvite', owner, { inviteId });
    expect(revoked.status).toBe(200);
    expect((await accept(token)).status).toBe(400);
    const again = await call(t.url, 'POST', 'revokeInvite', owner, { inviteId });
    expect(again.body.result.data.json.changed).toBe(false);
  });

  it('holds the rank rules: an admin cannot invite an owner nor revoke an owner’s invite', async () => {
    const { token } = await invite(owner, 'admin');
    const admin = cookieAuth(sessionCookie((await accept(token)).headers['set-cookie']));
    const up = await call(t.url, 'POST', 'inviteMember', admin, {
      email: 'boss@example.com',
      role: 'owner',
    });
    expect(up.status).toBe(403);
    expect(up.body.error.data).toMatchObject({ rule: 'rank' });
    const ownerInvite = await invite(owner, 'owner');
    const revoke = await call(t.url, 'POST', 'revokeInvite', admin, {
      inviteId: ownerInvite.inviteId,
    });
    expect(revoke.status).toBe(403);
    // An admin may invite an operator.
    await invite(admin, 'operator');
  });

  it('judges an invite against its inviter at acceptance: demoted or deactivated, their invites stop granting', async () => {
    const joined = await accept((await invite(owner, 'admin')).token, 'Ada Admin');
    const adminId = joined.body.user.id as string;
    const admin = cookieAuth(sessionCookie(joined.headers['set-cookie']));
    const toAdmin = await invite(admin, 'admin');
    const toOperator = await invite(admin, 'operator');

    const demoted = await call(t.url, 'POST', 'changeUserRole', owner, {
      userId: adminId,
      role: 'operator',
    });
    expect(demoted.status).toBe(200);
    const before = (await refusals(t)).length;
    for (const { token } of [toAdmin, toOperator]) {
      const refused = await accept(token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/no longer valid.*can no longer grant/),
        data: { rule: 'inviter-standing' },
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
      const opened = await request(t.url).get(`/api/auth/invite?token=${token}`);
      expect(opened.headers.location).toBe('/accept-invite?error=INVALID_TOKEN');
    }
    const recorded = (await refusals(t)).slice(before);
    expect(recorded.map((e) => [e.data.target, e.data.code])).toContainEqual([
      'POST /api/auth/accept-invite',
      'FORBIDDEN',
    ]);
    // No account was made: the emails are still free, the invites still pending.
    const pending = await call(t.url, 'GET', 'invites', owner, { status: 'pending', limit: 50 });
    const ids = pending.body.result.data.json.items.map((i: { inviteId: string }) => i.inviteId);
    expect(ids).toEqual(expect.arrayContaining([toAdmin.inviteId, toOperator.inviteId]));

    // Judged now, not when sent: made admin again, their invite works again.
    await call(t.url, 'POST', 'changeUserRole', owner, { userId: adminId, role: 'admin' });
    expect((await accept(toOperator.token)).status).toBe(201);

    // Deactivated (the reported case), an admin's invite to admin no longer makes an admin.
    const deactivated = await call(t.url, 'POST', 'deactivateUser', owner, { userId: adminId });
    expect(deactivated.status).toBe(200);
    const refused = await accept(toAdmin.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/can no longer grant admin/);
  });

  it('refuses callers without the role, the scope or credentials', async () => {
    const { token } = await invite(owner, 'operator');
    const operator = cookieAuth(sessionCookie((await accept(token)).headers['set-cookie']));
    const asOperator = await call(t.url, 'POST', 'inviteMember', operator, {
      email: 'x@example.com',
      role: 'viewer',
    });
    expect(asOperator.status).toBe(403);
    const ownerCookie = owner.Cookie;
    const narrow = await createToken(t.url, ownerCookie, ['members:read'], 1);
    const byToken = await call(t.url, 'POST', 'inviteMember', bearer(narrow.token), {
      email: 'x@example.com',
      role: 'viewer',
    });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.data).toMatchObject({
      requiredScopes: ['members:manage'],
      grantedScopes: ['members:read'],
    });
    const anonymous = await call(
      t.url,
      'POST',
      'inviteMember',
      {},
      { email: 'x@example.com', role: 'viewer' },
    );
    expect(anonymous.status).toBe(401);
    const full = await createToken(t.url, ownerCookie, [...ALL_SCOPES], 1);
    const bad = await call(t.url, 'POST', 'inviteMember', bearer(full.token), {
      email: 'not an email',
      role: 'king',
      expiresInDays: 31,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'expiresInDays',
      'role',
    ]);
    const nulls = await call(t.url, 'POST', 'inviteMember', bearer(full.token), {
      email: null,
      role: null,
    });
    expect(nulls.status).toBe(400);
  });

  it('refuses to invite an email that already has an account', async () => {
    const res = await call(t.url, 'POST', 'inviteMember', owner, {
      email: 'Owner@Example.com',
      role: 'viewer',
    });
    expect(res.status).toBe(409);
  });
});

describe('open sign-up when enabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { openSignup: true } });
  });
  afterAll(async () => t?.close());

  it('makes later users viewers, as the spec says', async () => {
    expect((await signUp(t.url, 'first@example.com')).role).toBe('owner');
    expect((await signUp(t.url, 'second@example.com')).role).toBe('viewer');
  });
});
