import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { rmSync } from 'node:fs';
import { allEvents, eventsText } from './support/audit.js';
import { cli, cliHome, spawnCli } from './support/cli.js';
import { PASSWORD, call, cookieAuth, createToken, logIn, signUp } from './support/identity.js';
import { enrol, mfaLogin } from './support/mfa.js';
import {
  IDP_CLIENT_ID,
  IDP_CLIENT_SECRET,
  startTestIdp,
  type TestIdp,
} from './support/oidc-idp.js';
import { freePort } from './support/ports.js';
import { RedirectWalker } from './support/redirect-walker.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TestClock } from './support/test-clock.js';

/**
 * Single sign-on through a real OpenID provider (the certified `oidc-provider` package) on
 * loopback: the authorization code flow with PKCE, state and nonce, joins by allowed domain and
 * invite, the claim mapping, the MFA policy, "SSO required" with the owners' break-glass, the
 * CLI's hand-off, and every refusal recorded.
 */
describe('single sign-on with OpenID Connect', () => {
  const clock = new TestClock();
  let idp: TestIdp;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let publicUrl: string;
  let ownerSecret: string;
  let smtp: TestSmtp;

  const isCallback = (u: URL) => u.pathname === '/api/auth/sso/callback';
  const atSlipway = (u: URL) => u.origin === publicUrl && !u.pathname.startsWith('/api/');

  /** A whole sign-in as `sub`, in a fresh browser: where it lands, and that browser. */
  async function signInAs(sub: string, providerId = 'corp', query = '') {
    idp.autoLogin = sub;
    const browser = new RedirectWalker();
    const landed = await browser.walk(
      `${publicUrl}/api/auth/sso/${providerId}/start${query}`,
      atSlipway,
    );
    const session = browser.cookie(publicUrl, 'slipway_session');
    return { landed, browser, auth: session ? cookieAuth(`slipway_session=${session}`) : null };
  }

  const viewer = async (auth: Record<string, string>) => {
    const res = await call(t.url, 'GET', 'viewer', auth);
    expect(res.status).toBe(200);
    return res.body.result.data.json;
  };

  const refusalsFor = async (reason: string) =>
    (await allEvents(t)).filter((e) => e.type === 'SsoSignInRefused' && e.data.reason === reason);

  const CORP = {
    providerId: 'corp',
    displayName: 'Corp SSO',
    issuer: '',
    clientId: IDP_CLIENT_ID,
    clientSecret: IDP_CLIENT_SECRET,
    allowedDomains: ['corp.example'],
    roleClaim: 'groups',
    roleRules: [
      { value: 'platform-admins', role: 'admin' },
      { value: 'devs', role: 'operator' },
    ],
    defaultRole: 'viewer',
  };
  const configure = (providerId: string, extra: Record<string, unknown> = {}) =>
    call(t.url, 'POST', 'configureIdentityProvider', owner, { ...CORP, providerId, ...extra });

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    idp = await startTestIdp([`${publicUrl}/api/auth/sso/callback`]);
    CORP.issuer = idp.issuer;
    idp.users.set('alice', { email: 'alice@corp.example', name: 'Alice', groups: ['devs'] });
    idp.users.set('carol', { email: 'carol@elsewhere.example', name: 'Carol' });
    idp.users.set('dave', { email: 'dave@corp.example', emailVerified: false });
    idp.users.set('erin', { email: 'erin@partner.example', name: 'Erin' });
    idp.users.set('mallory', { email: 'mallory@corp.example', groups: ['devs'] });
    idp.users.set('nina', { email: 'nina@corp.example', groups: ['sales'] });
    smtp = await startSmtp();
    t = await startTestApp({
      notes: false,
      clock,
      listenPort: port,
      // Open sign-up is on here: single sign-on must not let anyone in because of it.
      config: { publicUrl, openSignup: true, smtpUrl: `smtp://127.0.0.1:${smtp.port}` },
    });
    ownerCookie = (await signUp(t.url, 'owner@corp.example')).cookie;
    owner = cookieAuth(ownerCookie);
    expect((await configure('corp')).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await idp?.stop();
    await smtp?.stop();
  });

  it('lists enabled providers on the sign-in page, and never the client secret', async () => {
    const open = await request(t.url).get('/api/auth/sso/providers');
    expect(open.body).toEqual({ providers: [{ providerId: 'corp', displayName: 'Corp SSO' }] });
    const listed = await call(t.url, 'GET', 'identityProviders', owner);
    expect(listed.body.result.data.json).toMatchObject({
      redirectUri: `${publicUrl}/api/auth/sso/callback`,
      providers: [
        {
          providerId: 'corp',
          issuer: idp.issuer,
          allowedDomains: ['corp.example'],
          roleMapping: { claim: 'groups', defaultRole: 'viewer' },
          trustProviderMfa: false,
          enabled: true,
        },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain(IDP_CLIENT_SECRET);
    expect(await eventsText(t)).not.toContain(IDP_CLIENT_SECRET);
  });

  it('refuses to configure providers to anyone but an owner, and bad issuers to anyone', async () => {
    const admin = cookieAuth((await signUp(t.url, 'admin@corp.example')).cookie);
    const adminId = (await viewer(admin)).principal.id;
    await call(t.url, 'POST', 'changeUserRole', owner, { userId: adminId, role: 'admin' });
    const byAdmin = await call(t.url, 'POST', 'configureIdentityProvider', admin, {
      providerId: 'x',
      displayName: 'X',
      issuer: idp.issuer,
      clientId: 'x',
      clientSecret: 'y',
    });
    expect(byAdmin.status).toBe(403);
    for (const issuer of [
      'http://idp.example',
      'https://idp.example/?q=1',
      'https://user:pw@idp.example',
      'not a url',
    ]) {
      const res = await configure('bad', { issuer });
      expect(res.status).toBe(400);
      expect(res.body.error.data.issues[0].path).toBe('issuer');
    }
    const noSecret = await configure('fresh', { clientSecret: undefined });
    expect(noSecret.status).toBe(409);
    const rulesWithoutClaim = await configure('fresh', { roleClaim: undefined });
    expect(rulesWithoutClaim.status).toBe(400);
  });

  it('keeps a client secret only for the issuer it was given for', async () => {
    expect((await configure('moving', { issuer: idp.issuer })).status).toBe(200);
    // Pointed at another issuer without the secret: it would be sent there at the next sign-in.
    const moved = await configure('moving', { issuer: idp.backendUrl, clientSecret: undefined });
    expect([moved.status, moved.body.error.code, moved.body.error.data.field]).toEqual([
      409,
      'CONFLICT',
      'clientSecret',
    ]);
    expect(
      (await configure('moving', { issuer: idp.issuer, clientSecret: undefined })).status,
    ).toBe(200);
    expect((await configure('moving', { issuer: idp.backendUrl })).status).toBe(200);
    await call(t.url, 'POST', 'removeIdentityProvider', owner, { providerId: 'moving' });
  });

  it('lets a verified email of an allowed domain join with the role its groups map to', async () => {
    const { landed, auth } = await signInAs('alice', 'corp', '?returnTo=%2Fservices');
    expect(landed.pathname).toBe('/services');
    expect(auth).not.toBeNull();
    const me = await viewer(auth!);
    expect(me.principal).toMatchObject({ email: 'alice@corp.example', role: 'operator' });
    expect(me.session).toMatchObject({ method: 'sso', providerId: 'corp', amr: ['pwd'] });
    const linked = (await allEvents(t)).find((e) => e.type === 'SsoIdentityLinked');
    expect(linked?.data).toMatchObject({ providerId: 'corp', through: 'domain' });
    expect(JSON.stringify(linked?.data)).not.toContain('alice');
  });

  it('applies the mapping again at every sign-in, and records the role change it makes', async () => {
    idp.users.get('alice')!.groups = ['platform-admins'];
    const { auth } = await signInAs('alice');
    expect((await viewer(auth!)).principal.role).toBe('admin');
    const change = (await allEvents(t)).filter(
      (e) => e.type === 'UserRoleChanged' && e.data.providerId === 'corp',
    );
    expect(change.at(-1)?.data).toMatchObject({ from: 'operator', to: 'admin' });
    idp.users.get('alice')!.groups = ['devs'];
    expect((await viewer((await signInAs('alice')).auth!)).principal.role).toBe('operator');
  });

  it('takes a live invite for the verified email, once, outside the allowed domains', async () => {
    const invited = await call(t.url, 'POST', 'inviteMember', owner, {
      email: 'erin@partner.example',
      role: 'viewer',
    });
    expect(invited.status).toBe(200);
    const { auth } = await signInAs('erin');
    expect((await viewer(auth!)).principal).toMatchObject({ email: 'erin@partner.example' });
    const invites = await call(t.url, 'GET', 'invites', owner, {});
    const erin = invites.body.result.data.json.items.find(
      (i: { inviteId: string }) => i.inviteId === invited.body.result.data.json.inviteId,
    );
    expect(erin.status).toBe('accepted');
    const linked = (await allEvents(t)).filter((e) => e.type === 'SsoIdentityLinked');
    expect(linked.at(-1)?.data.through).toBe('invite');
  });

  it('refuses a domain that is not allowed and an unverified email, with open sign-up on', async () => {
    const carol = await signInAs('carol');
    expect(carol.landed.pathname).toBe('/login');
    expect(carol.landed.searchParams.get('sso_error')).toBe('domain-not-allowed');
    expect(carol.auth).toBeNull();
    const dave = await signInAs('dave');
    expect(dave.landed.searchParams.get('sso_error')).toBe('email-unverified');
    const [refused] = await refusalsFor('domain-not-allowed');
    expect(refused?.data).toMatchObject({ providerId: 'corp', reason: 'domain-not-allowed' });
    expect(refused?.data.emailDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify([refused?.data, refused?.metadata])).not.toContain('carol');
    expect(await refusalsFor('email-unverified')).toHaveLength(1);
  });

  it('refuses people no rule maps to a role when there is no default role, before they join', async () => {
    expect((await configure('strict', { defaultRole: undefined })).status).toBe(200);
    const nina = await signInAs('nina', 'strict');
    expect(nina.landed.searchParams.get('sso_error')).toBe('no-role');
    const members = await call(t.url, 'GET', 'members', owner, { limit: 100 });
    expect(JSON.stringify(members.body)).not.toContain('nina@corp.example');
    // The owner is never refused nor changed by a mapping.
    idp.users.set('boss', { email: 'owner@corp.example', groups: [] });
    const boss = await signInAs('boss', 'strict');
    expect((await viewer(boss.auth!)).principal.role).toBe('owner');
    await call(t.url, 'POST', 'removeIdentityProvider', owner, { providerId: 'strict' });
  });

  it('refuses a callback whose state was changed, and one from another browser', async () => {
    idp.autoLogin = 'alice';
    const browser = new RedirectWalker();
    const callback = await browser.walk(`${publicUrl}/api/auth/sso/corp/start`, isCallback);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    const landed = await browser.walk(forged.href, atSlipway);
    expect(landed.searchParams.get('sso_error')).toBe('state-mismatch');
    expect(browser.cookie(publicUrl, 'slipway_session')).toBeUndefined();

    const other = new RedirectWalker();
    const fresh = await new RedirectWalker().walk(
      `${publicUrl}/api/auth/sso/corp/start`,
      isCallback,
    );
    const elsewhere = await other.walk(fresh.href, atSlipway);
    expect(elsewhere.searchParams.get('sso_error')).toBe('no-transaction');
    expect(await refusalsFor('state-mismatch')).toHaveLength(1);
    expect((await refusalsFor('no-transaction')).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses an ID token issued for another nonce', async () => {
    idp.autoLogin = 'alice';
    const browser = new RedirectWalker();
    const atIdp = await browser.walk(
      `${publicUrl}/api/auth/sso/corp/start`,
      (u) => u.origin === idp.issuer,
    );
    atIdp.searchParams.set('nonce', 'a-nonce-slipway-never-sent');
    const landed = await browser.walk(atIdp.href, atSlipway);
    expect(landed.searchParams.get('sso_error')).toBe('nonce-mismatch');
    expect(await refusalsFor('nonce-mismatch')).toHaveLength(1);
  });

  it('refuses ID tokens tampered with on the way, signature or claims', async () => {
    for (const tamper of ['id-token-signature', 'id-token-payload'] as const) {
      idp.tamper = tamper;
      const { landed, auth } = await signInAs('alice');
      idp.tamper = 'none';
      expect(landed.searchParams.get('sso_error')).toBe('id-token-invalid');
      expect(auth).toBeNull();
    }
    expect(await refusalsFor('id-token-invalid')).toHaveLength(2);
  });

  it('refuses an expired code and a replayed one', async () => {
    idp.autoLogin = 'alice';
    idp.codeTtl = 1;
    const browser = new RedirectWalker();
    const callback = await browser.walk(`${publicUrl}/api/auth/sso/corp/start`, isCallback);
    idp.codeTtl = 60;
    await new Promise((r) => setTimeout(r, 2_100));
    const landed = await browser.walk(callback.href, atSlipway);
    expect(landed.searchParams.get('sso_error')).toBe('code-rejected');

    // A used code, presented again with a transaction of its own, is refused by the provider.
    const first = new RedirectWalker();
    const used = await first.walk(`${publicUrl}/api/auth/sso/corp/start`, isCallback);
    const sealed = first.cookie(publicUrl, 'slipway_sso')!;
    expect((await first.walk(used.href, atSlipway)).pathname).toBe('/');
    const replay = new RedirectWalker();
    replay.setCookie(publicUrl, 'slipway_sso', sealed);
    const again = await replay.walk(used.href, atSlipway);
    expect(again.searchParams.get('sso_error')).toBe('code-rejected');
    expect(replay.cookie(publicUrl, 'slipway_session')).toBeUndefined();
  });

  it('refuses a provider whose discovery names another issuer, and unknown providers', async () => {
    expect((await configure('rogue', { issuer: idp.backendUrl })).status).toBe(200);
    const rogue = await signInAs('alice', 'rogue');
    expect(rogue.landed.searchParams.get('sso_error')).toBe('issuer-mismatch');
    const unknown = await signInAs('alice', 'nobody-here');
    expect(unknown.landed.searchParams.get('sso_error')).toBe('unknown-provider');
    await call(t.url, 'POST', 'removeIdentityProvider', owner, { providerId: 'rogue' });
    const removed = await signInAs('alice', 'rogue');
    expect(removed.landed.searchParams.get('sso_error')).toBe('unknown-provider');
    const bad = await request(t.url).get('/api/auth/sso/..%2Fx/start');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it("counts the provider's MFA toward the team policy only when the owner trusts it", async () => {
    // The owner passes the policy with TOTP; the people signing in through the provider with it.
    ownerSecret = (await enrol(t.url, ownerCookie, clock)).secret;
    const ownerMfa = cookieAuth(await mfaLogin(t.url, 'owner@corp.example', ownerSecret, clock));
    const policy = (value: string) =>
      call(t.url, 'POST', 'updateAccountSecurityPolicy', ownerMfa, { policy: value });
    expect((await policy('all')).status).toBe(200);
    try {
      idp.users.get('alice')!.amr = ['pwd', 'otp'];
      const untrusted = await signInAs('alice');
      const refused = await call(t.url, 'GET', 'members', untrusted.auth!, {});
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('MFA_REQUIRED');

      const trust = await call(t.url, 'POST', 'configureIdentityProvider', ownerMfa, {
        ...CORP,
        trustProviderMfa: true,
      });
      expect(trust.status).toBe(200);
      const trusted = await signInAs('alice');
      expect((await viewer(trusted.auth!)).session).toMatchObject({
        mfaVerified: true,
        amr: ['pwd', 'otp'],
      });
      expect((await call(t.url, 'GET', 'members', trusted.auth!, {})).status).toBe(200);

      idp.users.get('alice')!.amr = ['pwd'];
      const single = await signInAs('alice');
      const again = await call(t.url, 'GET', 'members', single.auth!, {});
      expect(again.body.error.code).toBe('MFA_REQUIRED');
    } finally {
      expect((await policy('optional')).status).toBe(200);
    }
  });

  it('hands a CLI sign-in to its loopback listener, redeemable only with its verifier', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    idp.autoLogin = 'alice';
    const browser = new RedirectWalker();
    const atCli = await browser.walk(
      `${publicUrl}/api/auth/sso/corp/start?cliPort=45678&cliChallenge=${challenge}`,
      (u) => u.port === '45678',
    );
    expect(atCli.origin).toBe('http://127.0.0.1:45678');
    const handoff = atCli.searchParams.get('handoff')!;
    expect(browser.cookie(publicUrl, 'slipway_session')).toBeUndefined();
    const wrong = await request(t.url)
      .post('/api/auth/sso/cli-session')
      .send({ handoff, verifier: randomBytes(32).toString('base64url') });
    expect(wrong.status).toBe(400);
    const right = await request(t.url)
      .post('/api/auth/sso/cli-session')
      .send({ handoff, verifier });
    expect(right.status).toBe(200);
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    expect((await viewer({ Cookie: cookie })).session.method).toBe('sso');
  });

  /**
   * The real `slipway login --sso`: it prints the address, this test plays the browser, and the
   * provider's answer reaches the CLI's loopback listener. `npm run build` makes the binary.
   */
  async function cliSignIn(sub: string, home: string) {
    const child = spawnCli(home, ['login', '--url', t.url, '--sso', 'corp', '--json']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
    const address = await new Promise<string>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /^(http:\/\/\S+)$/m.exec(stderr);
        if (found) resolve(found[1]!);
      });
    });
    idp.autoLogin = sub;
    const browser = new RedirectWalker();
    const atCli = await browser.walk(address, (u) => u.pathname === '/callback');
    const page = await browser.step(atCli.href);
    return { code: await exited, json: JSON.parse(stdout), page: page.body };
  }

  it('signs the real CLI in through the provider (slipway login --sso)', async () => {
    const home = cliHome();
    try {
      const ok = await cliSignIn('alice', home);
      expect(ok.page).toContain('Signed in to Slipway');
      expect([ok.code, ok.json.ok]).toEqual([0, true]);
      expect(ok.json.data.authMethod).toBe('session');
      const who = await cli(home, ['whoami', '--json']);
      expect(who.json.data).toMatchObject({
        principal: { email: 'alice@corp.example' },
        session: { method: 'sso', providerId: 'corp' },
      });

      const refused = await cliSignIn('carol', home);
      expect(refused.code).not.toBe(0);
      expect(refused.json.error).toMatchObject({
        code: 'SSO_REFUSED',
        data: { reason: 'domain-not-allowed' },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('lets an owner manage providers from the CLI, the secret read from standard input', async () => {
    const home = cliHome();
    try {
      const { token } = await createToken(
        t.url,
        ownerCookie,
        ['security:manage', 'members:read'],
        1,
      );
      expect((await cli(home, ['login', '--url', t.url, '--token', token, '--json'])).code).toBe(0);
      const set = await cli(
        home,
        [
          'sso',
          'set',
          'cli-partner',
          '--name',
          'Partner',
          '--issuer',
          'https://login.partner.example',
          '--client-id',
          'slipway',
          '--client-secret-stdin',
          '--role-claim',
          'groups',
          '--rule',
          'ops=operator',
          '--domain',
          'partner.example',
          '--json',
        ],
        {},
        'cli-partner-secret\n',
      );
      expect(set.json).toEqual({ ok: true, data: { providerId: 'cli-partner', changed: true } });
      const list = await cli(home, ['sso', 'providers', '--json']);
      expect(list.json.data?.providers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            providerId: 'cli-partner',
            allowedDomains: ['partner.example'],
            roleMapping: {
              claim: 'groups',
              rules: [{ value: 'ops', role: 'operator' }],
              defaultRole: null,
            },
          }),
        ]),
      );
      expect(list.stdout).not.toContain('cli-partner-secret');
      const bad = await cli(home, [
        'sso',
        'set',
        'x',
        '--name',
        'X',
        '--issuer',
        'http://x.example',
        '--client-id',
        'x',
        '--rule',
        'nope',
        '--json',
      ]);
      expect(bad.json.error?.code).toBe('BAD_USAGE');
      const removed = await cli(home, ['sso', 'remove', 'cli-partner', '--yes', '--json']);
      expect(removed.json.ok).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('requires SSO for humans: passwords refused, owners break glass with TOTP, audited', async () => {
    const password = await signUp(t.url, 'pat@corp.example');
    const patId = (await viewer(cookieAuth(password.cookie))).principal.id;
    await call(t.url, 'POST', 'changeUserRole', owner, { userId: patId, role: 'operator' });

    const channel = await call(t.url, 'POST', 'createNotificationChannel', owner, {
      name: 'security desk',
      kind: 'email',
      target: 'security-desk@corp.example',
      subscriptions: ['security.break-glass'],
    });
    expect(channel.status).toBe(200);
    const required = await call(t.url, 'POST', 'updateSsoPolicy', owner, { required: true });
    expect(required.body.result.data.json).toEqual({ required: true, changed: true });
    const status = await call(t.url, 'GET', 'accountSecurityStatus', owner);
    expect(status.body.result.data.json.ssoRequired).toBe(true);

    const pat = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'pat@corp.example', password: PASSWORD });
    expect(pat.status).toBe(403);
    expect(pat.body.error.data.rule).toBe('sso-required');
    const walkIn = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'new@corp.example', password: PASSWORD, name: 'New' });
    expect(walkIn.status).toBe(403);
    expect(walkIn.body.error.data.rule).toBe('sso-required');

    // SSO itself still works, and the owner breaks glass with password and TOTP.
    expect((await signInAs('alice')).auth).not.toBeNull();
    const glass = await mfaLogin(t.url, 'owner@corp.example', ownerSecret, clock);
    expect((await viewer(cookieAuth(glass))).principal.role).toBe('owner');
    const broke = (await allEvents(t)).filter((e) => e.type === 'BreakGlassSignIn');
    expect(broke).toHaveLength(1);
    expect(broke[0]!.metadata.actor).toMatchObject({ kind: 'user', role: 'owner' });
    const mail = await smtp.mailTo('security-desk@corp.example', /single sign-on is required/);
    expect(mail.text).toContain('BreakGlassSignIn');

    await call(t.url, 'POST', 'updateSsoPolicy', owner, { required: false });
    expect(await logIn(t.url, 'pat@corp.example')).toContain('slipway_session');
  });

  it('gives people who joined through SSO no password that works', async () => {
    const res = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'alice@corp.example', password: PASSWORD });
    expect(res.status).toBe(401);
  });

  it('keeps a subject to the member it was first linked to', async () => {
    // mallory's provider account later claims alice's address: the subject stays mallory's.
    const first = await signInAs('mallory');
    const malloryId = (await viewer(first.auth!)).principal.id;
    idp.users.get('mallory')!.email = 'alice@corp.example';
    const later = await signInAs('mallory');
    expect((await viewer(later.auth!)).principal.id).toBe(malloryId);
  });
});
