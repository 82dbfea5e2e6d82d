import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { serviceGitStream } from '../src/events/git-sources.events.js';
import { FINGERPRINT, data, readyService } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { eventsText } from './support/audit.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SSH_REPO = 'git@git.example.com:acme/shop.git';
const TOKEN = 'glpat-0123456789abcdefSECRET';

interface Answer {
  serviceId: string;
  transport: string;
  auth: string;
  deployKey: { publicKey: string; fingerprint: string } | null;
  changed: boolean;
}
interface Details {
  gitSource: {
    repository: string;
    auth: string;
    deployKey: { publicKey: string; fingerprint: string } | null;
    tokenUsername: string | null;
    rules: unknown[];
    hostKeyFingerprint: string | null;
  } | null;
}

const issuePaths = (body: { error?: { data?: { issues?: { path: string }[] } } }) =>
  (body.error?.data?.issues ?? []).map((i) => i.path);

/** Git sources over HTTP as their callers and attackers meet them. */
describe('a service follows a git repository', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let serviceId: string;

  const set = (auth: Record<string, string>, input: Record<string, unknown>) =>
    call(t.url, 'POST', 'setServiceGitSource', auth, { serviceId, ...input });
  const details = async () =>
    data<Details>(await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }));

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
    ({ serviceId } = await readyService(t.url, owner));
  });
  afterAll(() => t?.close());

  it('generates a deploy key for an SSH repository and never shows its private half', async () => {
    const res = await set(owner, {
      repository: SSH_REPO,
      hostKeyFingerprint: FINGERPRINT,
      rules: [
        { kind: 'branch', pattern: 'main', action: 'deploy' },
        { kind: 'tag', pattern: 'v*', action: 'approval' },
      ],
    });
    const answer = data<Answer>(res);
    expect([answer.transport, answer.auth, answer.changed]).toEqual(['ssh', 'deploy-key', true]);
    const key = answer.deployKey!;
    expect(key.publicKey).toMatch(/^ssh-ed25519 [A-Za-z0-9+/]+=* slipway-api-production$/);
    // The fingerprint is the one `ssh-keygen -lf` and the providers show for that key.
    const blob = Buffer.from(key.publicKey.split(' ')[1], 'base64');
    expect(key.fingerprint).toBe(
      `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
    );
    const shown = await details();
    expect(shown.gitSource).toMatchObject({
      repository: SSH_REPO,
      auth: 'deploy-key',
      deployKey: key,
      hostKeyFingerprint: FINGERPRINT,
      tokenUsername: null,
    });
    expect(JSON.stringify(res.body) + JSON.stringify(shown)).not.toMatch(/PRIVATE|iphertext/);
    // Stored sealed: the event holds no private key in the clear.
    const events = await t.app.get<EventStore>(EVENT_STORE).readStream(serviceGitStream(serviceId));
    const recorded = JSON.stringify(events.map((e) => e.data));
    expect(recorded).toContain('privateKeyCiphertext');
    expect(recorded).not.toContain('OPENSSH PRIVATE KEY');
  });

  it('keeps the deploy key across changes, records nothing for the same source, rotates on request', async () => {
    const before = (await details()).gitSource!.deployKey!;
    const same = data<Answer>(
      await set(owner, {
        repository: SSH_REPO,
        hostKeyFingerprint: FINGERPRINT,
        rules: [
          { kind: 'branch', pattern: 'main', action: 'deploy' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
      }),
    );
    expect([same.changed, same.deployKey]).toEqual([false, before]);
    const changed = data<Answer>(
      await set(owner, { repository: SSH_REPO, hostKeyFingerprint: FINGERPRINT, rules: [] }),
    );
    expect([changed.changed, changed.deployKey]).toEqual([true, before]);
    const rotated = data<Answer>(
      await set(owner, {
        repository: SSH_REPO,
        hostKeyFingerprint: FINGERPRINT,
        rotateDeployKey: true,
      }),
    );
    expect(rotated.changed).toBe(true);
    expect(rotated.deployKey!.publicKey).not.toBe(before.publicKey);
  });

  it('seals an HTTPS token and never returns it', async () => {
    const res = await set(owner, {
      repository: 'https://gitlab.example.com/acme/shop.git',
      token: TOKEN,
      tokenUsername: 'oauth2',
    });
    expect(data<Answer>(res)).toMatchObject({ transport: 'https', auth: 'token', deployKey: null });
    const shown = await details();
    expect(shown.gitSource).toMatchObject({
      auth: 'token',
      tokenUsername: 'oauth2',
      deployKey: null,
    });
    const events = await t.app.get<EventStore>(EVENT_STORE).readStream(serviceGitStream(serviceId));
    const everything = JSON.stringify([res.body, shown, events.map((e) => e.data)]);
    expect(everything).not.toContain(TOKEN);
  });

  it.each([
    [{ repository: SSH_REPO }, 'hostKeyFingerprint'],
    [{ repository: 'http://git.example.com/a.git' }, 'repository'],
    [{ repository: 'ext::sh -c id' }, 'repository'],
    [{ repository: 'git@-oProxyCommand=id:a.git', hostKeyFingerprint: FINGERPRINT }, 'repository'],
    [{ repository: 'https://u:p@git.example.com/a.git' }, 'repository'],
    [{ repository: SSH_REPO, hostKeyFingerprint: FINGERPRINT, token: TOKEN }, 'token'],
    [
      { repository: 'https://git.example.com/a.git', hostKeyFingerprint: FINGERPRINT },
      'hostKeyFingerprint',
    ],
    [{ repository: 'https://git.example.com/a.git', tokenUsername: 'x' }, 'tokenUsername'],
    [
      {
        repository: 'https://git.example.com/a.git',
        rules: [{ kind: 'branch', pattern: 'a b', action: 'deploy' }],
      },
      'rules.0.pattern',
    ],
    [
      {
        repository: 'https://git.example.com/a.git',
        rules: [{ kind: 'pr', pattern: 'a', action: 'deploy' }],
      },
      'rules.0.kind',
    ],
    [{ repository: 'https://git.example.com/a.git', contextPath: '../up' }, 'contextPath'],
    [{ repository: 'https://git.example.com/a.git', dockerfile: '/etc/passwd' }, 'dockerfile'],
    [{ repository: 'x'.repeat(301) }, 'repository'],
  ])('refuses %j with a 400 naming %s', async (input, path) => {
    const res = await set(owner, input);
    expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(issuePaths(res.body)).toContain(path);
  });

  it('reports commit statuses with a sealed API token, never shown; refuses half a setting', async () => {
    const STATUS_TOKEN = 'ghp_statusTOKEN0123456789';
    const repository = 'https://github.com/acme/shop.git';
    const ok = await set(owner, {
      repository,
      statusProvider: 'github',
      statusToken: STATUS_TOKEN,
    });
    expect(ok.status).toBe(200);
    const shown = await call(t.url, 'GET', 'serviceDetails', owner, { serviceId });
    expect(data<{ gitSource: { commitStatus: unknown } }>(shown).gitSource.commitStatus).toEqual({
      provider: 'github',
      apiUrl: 'https://api.github.com',
    });
    expect(JSON.stringify(shown.body) + JSON.stringify(ok.body)).not.toContain(STATUS_TOKEN);
    expect(await eventsText(t)).not.toContain(STATUS_TOKEN);
    const cases: [Record<string, unknown>, string][] = [
      [{ statusToken: STATUS_TOKEN }, 'statusProvider'],
      [{ statusProvider: 'github' }, 'statusToken'],
      [{ statusProvider: 'gitea', statusToken: STATUS_TOKEN }, 'statusApiUrl'],
      [{ statusProvider: 'bitbucket', statusToken: STATUS_TOKEN }, 'statusProvider'],
      [
        {
          statusProvider: 'gitea',
          statusApiUrl: 'ftp://git.example.com',
          statusToken: STATUS_TOKEN,
        },
        'statusApiUrl',
      ],
      [
        {
          statusProvider: 'gitea',
          statusApiUrl: 'https://user:pw@git.example.com/api/v1',
          statusToken: STATUS_TOKEN,
        },
        'statusApiUrl',
      ],
    ];
    for (const [input, path] of cases) {
      const res = await set(owner, { repository, ...input });
      expect([res.status, issuePaths(res.body)]).toEqual([400, [path]]);
    }
  });

  it('builds only on a registered server', async () => {
    const unknown = await set(owner, {
      repository: 'https://github.com/acme/shop.git',
      buildServerId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    const notAnId = await set(owner, {
      repository: 'https://github.com/acme/shop.git',
      buildServerId: 'builder-1',
    });
    expect([notAnId.status, issuePaths(notAnId.body)]).toEqual([400, ['buildServerId']]);
  });

  it('refuses the unauthenticated, a bad token, viewers and a token without deploy:start', async () => {
    const input = { repository: 'https://git.example.com/a.git' };
    expect((await set({}, input)).status).toBe(401);
    expect((await set(bearer('slw_not-a-token'), input)).status).toBe(401);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect((await set(viewer, input)).status).toBe(403);
    const narrow = await createToken(t.url, ownerCookie, ['service:write'], 1);
    const refused = await set(bearer(narrow.token), input);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const wide = await createToken(t.url, ownerCookie, ['service:write', 'deploy:start'], 1);
    expect((await set(bearer(wide.token), input)).status).toBe(200);
  });

  it('removes the source once, and takes none on an archived service', async () => {
    const removed = data<{ removed: boolean }>(
      await call(t.url, 'POST', 'removeServiceGitSource', owner, { serviceId }),
    );
    expect(removed.removed).toBe(true);
    expect((await details()).gitSource).toBeNull();
    const again = data<{ removed: boolean }>(
      await call(t.url, 'POST', 'removeServiceGitSource', owner, { serviceId }),
    );
    expect(again.removed).toBe(false);
    expect((await call(t.url, 'POST', 'archiveService', owner, { serviceId })).status).toBe(200);
    const refused = await set(owner, { repository: 'https://git.example.com/a.git' });
    expect(refused.status).toBe(409);
  });
});
