import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { verifyExportFile } from '../src/audit/export/export-verifier.js';
import { PrivacyReconciler } from '../src/audit/privacy/privacy-reconciler.js';
import { privacyStream, SubjectDataErased, userSubject } from '../src/events/privacy.events.js';
import { anonymousContext } from '../src/kernel/request-context.js';
import { EventWriter } from '../src/storage/event-writer.js';
import { allEvents, eventsText } from './support/audit.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, PASSWORD, sessionCookie, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface InviteView {
  inviteId: string;
  email: string | null;
  status: string;
  acceptedUserId: string | null;
}

/** Every stored mail, as text a reader sees it (quoted-printable soft breaks and `=3D` undone). */
function mailTexts(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.map((n) =>
    readFileSync(join(dir, n), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/gi, '='),
  );
}

/**
 * Without SMTP, mail is kept as files: an invited person's address is in the invite (sealed
 * under the invite's own key) and in the mail sent to them. Erasing them reaches both.
 */
describe("erasure reaches a person's invites and the mail kept for them", () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let mailDir: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { openSignup: false } });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com', 'Olive Owner')).cookie);
    mailDir = join(t.config.dataDir, 'mail');
  });
  afterAll(async () => t?.close());

  async function invite(email: string): Promise<string> {
    const res = await call(t.url, 'POST', 'inviteMember', owner, { email, role: 'operator' });
    expect(res.status).toBe(200);
    return res.body.result.data.json.inviteId as string;
  }

  /** Accepts the last invite mailed to `email`; the new user's id and session. */
  async function acceptInvite(
    email: string,
    name: string,
  ): Promise<{ id: string; cookie: string }> {
    const mail = mailTexts(mailDir)
      .filter((m) => m.includes(`To: ${email}`))
      .at(-1);
    const token = /invite\?token=([A-Za-z0-9_.-]+)/.exec(mail ?? '')?.[1];
    const res = await request(t.url)
      .post('/api/auth/accept-invite')
      .send({ token, password: PASSWORD, name });
    expect(res.status).toBe(201);
    return { id: res.body.user.id as string, cookie: sessionCookie(res.headers['set-cookie']) };
  }

  async function resetMailTo(email: string): Promise<void> {
    await request(t.url).post('/api/auth/request-password-reset').send({ email });
    // The link is mailed after the answer.
    for (let i = 0; i < 100; i++) {
      if (mailTexts(mailDir).some((m) => m.includes(`To: ${email}`) && /Reset your/.test(m)))
        return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no reset mail to ${email}`);
  }

  const invites = async (): Promise<InviteView[]> =>
    (await call(t.url, 'GET', 'invites', owner, { limit: 100 })).body.result.data.json.items;

  it('erases the invites accepted by or sent to them and removes the mail addressed to them', async () => {
    const unused = await invite('leaver@example.com');
    const used = await invite('leaver@example.com');
    const joined = await acceptInvite('leaver@example.com', 'Lee Leaver');
    const leaver = joined.id;
    await resetMailTo('leaver@example.com');
    // They cancel a deployment without a reason: the reason recorded does not name them.
    const { serviceId } = await readyService(t.url, owner);
    const deploy = { serviceId, imageTag: 'ghcr.io/acme/api:1.0.0' };
    const as = cookieAuth(joined.cookie);
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', as, deploy),
    );
    data(await call(t.url, 'POST', 'cancelDeployment', as, { deploymentId }));
    const stayerInvite = await invite('stayer@example.com');
    expect(mailTexts(mailDir).filter((m) => m.includes('leaver@example.com'))).toHaveLength(3);

    await call(t.url, 'POST', 'deactivateUser', owner, { userId: leaver });
    const erased = await call(t.url, 'POST', 'eraseSubjectData', owner, { userId: leaver });
    expect(erased.status).toBe(200);
    expect(erased.body.result.data.json).toMatchObject({ invitesErased: 2, mailFilesRemoved: 3 });

    const after = await invites();
    expect(JSON.stringify(after)).not.toContain('leaver@example.com');
    expect(after.find((i) => i.inviteId === used)).toMatchObject({
      status: 'accepted',
      acceptedUserId: leaver,
      email: '[erased]',
    });
    expect(after.find((i) => i.inviteId === unused)?.email).toBe('[erased]');
    expect(after.find((i) => i.inviteId === stayerInvite)?.email).toBe('stayer@example.com');

    const mail = mailTexts(mailDir);
    expect(mail.join('\n')).not.toMatch(/leaver@example\.com/i);
    expect(await eventsText(t)).not.toMatch(/Lee Leaver|leaver@example\.com/);
    expect(mail.filter((m) => m.includes('stayer@example.com'))).toHaveLength(1);

    // Recorded, with the invite keys it reached, and refused when asked again.
    const record = (await allEvents(t)).find((e) => e.type === SubjectDataErased.type)!;
    expect(record.data.invites).toEqual([`invite-${unused}`, `invite-${used}`].sort());
    const again = await call(t.url, 'POST', 'eraseSubjectData', owner, { userId: leaver });
    expect(again.status).toBe(409);

    // The rest of the trail still verifies, on the server and offline, and names nobody erased.
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    const report = (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
    expect(report).toMatchObject({ ok: true });
    const exported = await request(t.url).get('/api/v1/audit/export').set(owner).buffer(true);
    const file = join(mkdtempSync(join(tmpdir(), 'slipway-erasure-')), 'trail.ndjson');
    writeFileSync(file, exported.text);
    expect(exported.text).not.toContain('leaver@example.com');
    expect(await verifyExportFile(file, report.publicKey as string)).toMatchObject({ ok: true });
  });

  it('completes the reach of an erasure recorded but not carried out', async () => {
    const invited = await invite('crashed@example.com');
    const { id: userId } = await acceptInvite('crashed@example.com', 'Cora Crash');
    await call(t.url, 'POST', 'deactivateUser', owner, { userId });
    const ctx = { ...anonymousContext('test', 'test', null), authMethod: 'system' as const };
    // As an erasure recorded before invites were reached: no `invites` in it.
    await t.app
      .get(EventWriter)
      .append(
        privacyStream(userId),
        [SubjectDataErased({ userId, subject: userSubject(userId) })],
        'no_stream',
        ctx,
      );
    expect(await t.app.get(PrivacyReconciler).reconcile()).toBe(1);
    expect((await invites()).find((i) => i.inviteId === invited)?.email).toBe('[erased]');
    expect(mailTexts(mailDir).join('\n')).not.toContain('crashed@example.com');
    expect(await t.app.get(PrivacyReconciler).reconcile()).toBe(0);
  });
});
