import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_SCOPES } from '../src/kernel/scopes.js';
import { flushRefusals, trail, type EntryView } from './support/audit.js';
import { openPreview } from './support/previews.js';
import { COMPOSE, data, readyService, runToSuccess } from './support/deployments.js';
import {
  PASSWORD,
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
  type Account,
} from './support/identity.js';
import { codeAt, enrol } from './support/mfa.js';
import {
  registerLoopbackServer,
  startSshd,
  type TestSshd,
  ALLOW_LOOPBACK,
} from './support/sshd.js';
import { SERVICE_ID, seed, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TestClock } from './support/test-clock.js';

interface Prepared {
  auth: Record<string, string>;
  input?: unknown;
  /** The credential the audit record must name: a token id, or null for a session. */
  tokenId: string | null;
  actorId: string;
}

/**
 * Every command procedure of the published contract, called once successfully and once
 * refused: each outcome must leave audit entries naming actor, auth method and token.
 */
describe('audit: every command procedure leaves a record when it succeeds and when it is refused', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let owner: Account;
  let ownerCookie: Record<string, string>;
  let asOwner: (input?: unknown) => Prepared;
  let readOnly: string;
  const clock = new TestClock();
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${(n += 1)}`;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      clock,
      config: { serverAddressPolicy: ALLOW_LOOPBACK },
    });
    owner = await signUp(t.url, 'owner@example.com', 'Olive Owner');
    ownerCookie = cookieAuth(owner.cookie);
    const all = await createToken(t.url, owner.cookie, [...ALL_SCOPES], 30);
    asOwner = (input) => ({
      auth: bearer(all.token),
      input,
      tokenId: all.tokenId,
      actorId: owner.userId,
    });
    readOnly = (await createToken(t.url, owner.cookie, ['deploy:read'], 30)).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });
  // Server checks stay off (fixture servers are not contacted) except for the two calls below.
  const checkServers = () => (t.config.serverCheckTimeoutSeconds = 10);
  afterEach(async () => {
    t.config.serverCheckTimeoutSeconds = 0;
    // Each procedure's refusal opens a coalescing window of its own; closing them keeps the
    // refusals of one client under the per-window limit of kinds, however many procedures.
    await flushRefusals(t);
  });

  const service = () => readyService(t.url, ownerCookie, { name: unique('svc') });
  const trigger = async (serviceId: string, tag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', ownerCookie, {
        serviceId,
        imageTag: `ghcr.io/acme/api:${tag}`,
      }),
    ).deploymentId;
  const viewer = async () => {
    const email = `${unique('user')}@example.com`;
    return { email, account: await signUp(t.url, email) };
  };
  const asSession = (account: Account, input?: unknown): Prepared => ({
    auth: cookieAuth(account.cookie),
    input,
    tokenId: null,
    actorId: account.userId,
  });
  const approvalByAdmin = async () => {
    const email = `${unique('admin')}@example.com`;
    const requester = await memberWithRole(t.url, ownerCookie, email, 'admin');
    const { serviceId } = await service();
    return data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', requester, {
        action: 'deploy',
        serviceId,
        imageTag: 'ghcr.io/acme/api:2.0.0',
        reason: 'release 2.0.0 for the audit test',
      }),
    ).approvalId;
  };

  let projects = 0;
  const project = () => `audit-${(projects += 1)}`;
  const newProject = async () => {
    const projectId = project();
    data(await call(t.url, 'POST', 'createProject', asOwner().auth, { projectId, name: 'Audit' }));
    return projectId;
  };
  let providers = 0;
  const identityProvider = () => ({
    providerId: `idp-${(providers += 1)}`,
    displayName: 'Audit IdP',
    issuer: 'https://idp.example',
    clientId: 'slipway',
    clientSecret: 'audit-client-secret',
  });

  let seeded = false;
  const alertRule = async () => ({
    serviceId: (await service()).serviceId,
    name: unique('rule'),
    metric: 'memoryPercent',
    warning: 90,
  });
  let s3Targets = 0;
  const s3Target = () => ({
    targetId: `bucket-${(s3Targets += 1)}`,
    displayName: 'Audit bucket',
    endpoint: 'https://s3.invalid',
    region: 'us-east-1',
    bucket: 'audit-backups',
    accessKeyId: 'AUDIT',
    secretAccessKey: 'audit-secret',
  });
  /** A service with a backup command (its server is never reached by these calls). */
  const backedUpService = async () => {
    const { serviceId } = await service();
    data(
      await call(t.url, 'POST', 'updateService', ownerCookie, {
        serviceId,
        backupCommand: 'pg_dump app',
      }),
    );
    return serviceId;
  };
  const scheduledJob = async () =>
    data<{ jobId: string }>(
      await call(t.url, 'POST', 'defineScheduledJob', ownerCookie, {
        serviceId: (await service()).serviceId,
        name: unique('job'),
        schedule: '@daily',
        command: ['true'],
      }),
    ).jobId;
  let drainCount = 0;
  const drain = () => ({
    drainId: `drain-${(drainCount += 1)}`,
    displayName: 'Audit drain',
    kind: 'otlp',
    endpoint: 'https://collector.invalid/v1/logs',
    headers: [{ name: 'x-api-key', value: 'audit-key' }],
    sources: ['audit'],
  });

  /** How to call each command procedure successfully. A procedure missing here fails the test. */
  const SUCCESS: Record<string, () => Promise<Prepared>> = {
    createAgent: async () => asOwner({ name: unique('agent') }),
    createToken: async () =>
      asOwner({ tokenName: unique('token'), scopes: ['deploy:read'], expiresInDays: 1 }),
    generateAgentToken: async () => {
      const agent = data<{ principalId: string }>(
        await call(t.url, 'POST', 'createAgent', ownerCookie, { name: unique('agent') }),
      );
      return asOwner({ principalId: agent.principalId, tokenName: 'ci', expiresInDays: 1 });
    },
    revokeToken: async () =>
      asOwner({ tokenId: (await createToken(t.url, owner.cookie, ['deploy:read'], 1)).tokenId }),
    rotateToken: async () =>
      asOwner({
        tokenId: (await createToken(t.url, owner.cookie, ['deploy:read'], 1)).tokenId,
        overlapMinutes: 0,
      }),
    invalidatePrincipal: async () => {
      const agent = data<{ principalId: string }>(
        await call(t.url, 'POST', 'createAgent', ownerCookie, { name: unique('agent') }),
      );
      return asOwner({ principalId: agent.principalId });
    },
    changeUserRole: async () =>
      asOwner({ userId: (await viewer()).account.userId, role: 'operator' }),
    deactivateUser: async () => asOwner({ userId: (await viewer()).account.userId }),
    inviteMember: async () =>
      asOwner({ email: `${unique('invitee')}@example.com`, role: 'viewer' }),
    revokeInvite: async () => {
      const invite = data<{ inviteId: string }>(
        await call(t.url, 'POST', 'inviteMember', ownerCookie, {
          email: `${unique('invitee')}@example.com`,
          role: 'operator',
        }),
      );
      return asOwner({ inviteId: invite.inviteId });
    },
    eraseSubjectData: async () => {
      const { account } = await viewer();
      data(await call(t.url, 'POST', 'deactivateUser', ownerCookie, { userId: account.userId }));
      return asOwner({ userId: account.userId });
    },
    updateAccountSecurityPolicy: async () => asOwner({ policy: 'privileged' }),
    configureIdentityProvider: async () => asOwner(identityProvider()),
    createProject: async () => asOwner({ projectId: project(), name: 'Audit project' }),
    renameProject: async () => {
      const projectId = await newProject();
      return asOwner({ projectId, name: 'Renamed project' });
    },
    grantProjectRole: async () => {
      const projectId = await newProject();
      return asOwner({ projectId, principalId: (await viewer()).account.userId, role: 'operator' });
    },
    revokeProjectRole: async () => {
      const projectId = await newProject();
      const userId = (await viewer()).account.userId;
      data(
        await call(t.url, 'POST', 'grantProjectRole', asOwner().auth, {
          projectId,
          principalId: userId,
          role: 'viewer',
        }),
      );
      return asOwner({ projectId, principalId: userId });
    },
    moveToProject: async () => {
      const projectId = await newProject();
      const { serviceId } = await service();
      return asOwner({ kind: 'service', resourceId: serviceId, projectId });
    },
    configureDrain: async () => asOwner(drain()),
    removeDrain: async () => {
      const configured = drain();
      data(await call(t.url, 'POST', 'configureDrain', ownerCookie, configured));
      return asOwner({ drainId: configured.drainId });
    },
    defineScheduledJob: async () =>
      asOwner({
        serviceId: (await service()).serviceId,
        name: 'audit-job',
        schedule: '@daily',
        command: ['true'],
      }),
    removeScheduledJob: async () => asOwner({ jobId: await scheduledJob() }),
    runScheduledJob: async () => {
      // A service with a succeeded deployment to run from (its server is not reached here: the
      // run is recorded as started by the caller, then as failed by the runner).
      if (!seeded) await seed(t, serviceWithHistory());
      seeded = true;
      const jobId = data<{ jobId: string }>(
        await call(t.url, 'POST', 'defineScheduledJob', ownerCookie, {
          serviceId: SERVICE_ID,
          name: unique('job'),
          schedule: '@yearly',
          command: ['true'],
        }),
      ).jobId;
      return asOwner({ jobId });
    },
    copyBackup: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('vault'));
      const { serviceId } = data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', ownerCookie, {
          name: unique('db'),
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          backupCommand: 'echo dump',
        }),
      );
      const { backupId } = data<{ backupId: string }>(
        await call(t.url, 'POST', 'triggerBackup', ownerCookie, { serviceId }),
      );
      return asOwner({ backupId, serverId, directory: `${sshd.remoteDir}/copies` });
    },
    verifyBackupCopies: async () => asOwner({ serviceId: (await service()).serviceId }),
    setAlertRule: async () => asOwner(await alertRule()),
    removeAlertRule: async () => {
      const { ruleId } = data<{ ruleId: string }>(
        await call(t.url, 'POST', 'setAlertRule', ownerCookie, await alertRule()),
      );
      return asOwner({ ruleId });
    },
    configureS3Target: async () => asOwner(s3Target()),
    removeS3Target: async () => {
      const target = s3Target();
      data(await call(t.url, 'POST', 'configureS3Target', ownerCookie, target));
      return asOwner({ targetId: target.targetId });
    },
    setBackupSchedule: async () =>
      asOwner({ serviceId: await backedUpService(), schedule: '@daily', keepLast: 3 }),
    removeBackupSchedule: async () => {
      const serviceId = await backedUpService();
      data(
        await call(t.url, 'POST', 'setBackupSchedule', ownerCookie, {
          serviceId,
          schedule: '@daily',
        }),
      );
      return asOwner({ serviceId });
    },
    removeIdentityProvider: async () => {
      const provider = identityProvider();
      data(await call(t.url, 'POST', 'configureIdentityProvider', ownerCookie, provider));
      return asOwner({ providerId: provider.providerId });
    },
    updateSsoPolicy: async () => {
      const provider = identityProvider();
      data(await call(t.url, 'POST', 'configureIdentityProvider', asOwner().auth, provider));
      return asOwner({ required: true });
    },
    startMfaEnrollment: async () => asSession((await viewer()).account, { password: PASSWORD }),
    confirmMfaEnrollment: async () => {
      const { account } = await viewer();
      const started = data<{ secret: string }>(
        await call(t.url, 'POST', 'startMfaEnrollment', cookieAuth(account.cookie), {
          password: PASSWORD,
        }),
      );
      return asSession(account, { code: await codeAt(started.secret, clock) });
    },
    rotateRecoveryCodes: async () => {
      const { account } = await viewer();
      const { secret } = await enrol(t.url, account.cookie, clock);
      return asSession(account, { code: await codeAt(secret, clock) });
    },
    disableMfa: async () => {
      const { account } = await viewer();
      const { secret } = await enrol(t.url, account.cookie, clock);
      return asSession(account, { password: PASSWORD, code: await codeAt(secret, clock) });
    },
    registerServer: async () =>
      asOwner({
        name: unique('server'),
        host: '10.0.0.4',
        sshUser: 'deploy',
        privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
        hostKeyFingerprint: `SHA256:${'B'.repeat(43)}`,
      }),
    approveServerHostKey: async () => {
      const fingerprint = `SHA256:${'C'.repeat(43)}`;
      const server = data<{ serverId: string }>(
        await call(t.url, 'POST', 'registerServer', ownerCookie, {
          name: unique('server'),
          host: '10.0.0.5',
          sshUser: 'deploy',
          privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
          hostKeyFingerprint: fingerprint,
        }),
      );
      return asOwner({ serverId: server.serverId, fingerprint });
    },
    scanServerHostKey: async () => {
      checkServers();
      return asOwner({ host: sshd.host, port: sshd.port });
    },
    checkServer: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('checked'));
      checkServers();
      return asOwner({ serverId });
    },
    // The stand-in docker of this sshd answers pull, image rm and image prune.
    pullServerImage: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('images'));
      return asOwner({ serverId, reference: 'ghcr.io/acme/api:1.0.0' });
    },
    removeServerImage: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('images'));
      return asOwner({ serverId, reference: 'ghcr.io/acme/api:1.0.0' });
    },
    pruneServerImages: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('images'));
      return asOwner({ serverId, all: true });
    },
    // The stand-in docker has no proxy running: the sync starts one.
    syncServerEdge: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('edge'));
      return asOwner({ serverId });
    },
    setServerComposePolicy: async () => {
      const { serverId } = await service();
      return asOwner({ serverId, allow: ['privileged', 'hostNetwork'] });
    },
    registerService: async () => {
      const { serverId } = await service();
      return asOwner({
        name: unique('api'),
        environment: 'staging',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      });
    },
    updateServer: async () =>
      asOwner({ serverId: (await service()).serverId, labels: ['tier=web'], sshUser: 'deploy2' }),
    decommissionServer: async () => {
      const fingerprint = `SHA256:${'D'.repeat(43)}`;
      const server = data<{ serverId: string }>(
        await call(t.url, 'POST', 'registerServer', ownerCookie, {
          name: unique('server'),
          host: '10.0.0.6',
          sshUser: 'deploy',
          privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
          hostKeyFingerprint: fingerprint,
        }),
      );
      return asOwner({ serverId: server.serverId });
    },
    archiveService: async () => asOwner({ serviceId: (await service()).serviceId }),
    updateService: async () =>
      asOwner({ serviceId: (await service()).serviceId, approvalRule: 'agents' }),
    triggerDeploy: async () =>
      asOwner({ serviceId: (await service()).serviceId, imageTag: 'ghcr.io/acme/api:1.0.0' }),
    cancelDeployment: async () => {
      const { serviceId } = await service();
      return asOwner({ deploymentId: await trigger(serviceId, '1.0.0') });
    },
    executeRollback: async () => {
      const { serviceId } = await service();
      const v1 = await trigger(serviceId, '1.0.0');
      await runToSuccess(t.app, v1, serviceId, 'ghcr.io/acme/api:1.0.0');
      const v2 = await trigger(serviceId, '2.0.0');
      await runToSuccess(t.app, v2, serviceId, 'ghcr.io/acme/api:2.0.0');
      return asOwner({ serviceId, targetDeploymentId: v1 });
    },
    requestApproval: async () =>
      asOwner({
        action: 'deploy',
        serviceId: (await service()).serviceId,
        imageTag: 'ghcr.io/acme/api:3.0.0',
        reason: 'a release that needs a second pair of eyes',
      }),
    // Requested by an admin, decided by the owner: nobody decides their own request.
    approveRequest: async () => asOwner({ approvalId: await approvalByAdmin() }),
    rejectRequest: async () => asOwner({ approvalId: await approvalByAdmin() }),
    recordBackup: async () =>
      asOwner({
        serviceId: (await service()).serviceId,
        location: 's3://backups/app.dump',
        checksum: `sha256:${'a'.repeat(64)}`,
        sizeBytes: 42,
      }),
    // A backup Slipway does not hold: the test is recorded as failed (artifact-unavailable).
    testBackupRestore: async () => {
      const { backupId } = data<{ backupId: string }>(
        await call(t.url, 'POST', 'recordBackup', ownerCookie, {
          serviceId: (await service()).serviceId,
          location: 's3://backups/app.dump',
          checksum: `sha256:${'a'.repeat(64)}`,
          sizeBytes: 42,
        }),
      );
      return asOwner({ backupId, image: 'busybox:1.37', command: ['true'] });
    },
    triggerBackup: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('loopback'));
      const registered = data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', ownerCookie, {
          name: unique('db'),
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          backupCommand: 'docker exec db pg_dump app',
        }),
      );
      return asOwner({ serviceId: registered.serviceId });
    },
    restoreBackup: async () => {
      const serverId = await registerLoopbackServer(t.url, ownerCookie, sshd, unique('restore'));
      const { serviceId } = data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', ownerCookie, {
          name: unique('db'),
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          backupCommand: 'docker exec db pg_dump app',
          restoreCommand: 'cat > /dev/null',
        }),
      );
      const { backupId } = data<{ backupId: string }>(
        await call(t.url, 'POST', 'triggerBackup', ownerCookie, { serviceId }),
      );
      const requester = await memberWithRole(
        t.url,
        ownerCookie,
        `${unique('admin')}@example.com`,
        'admin',
      );
      const { approvalId } = data<{ approvalId: string }>(
        await call(t.url, 'POST', 'requestApproval', requester, {
          action: 'restore',
          serviceId,
          backupId,
          reason: 'restore for the audit test',
        }),
      );
      data(await call(t.url, 'POST', 'approveRequest', ownerCookie, { approvalId }));
      return asOwner({ backupId, approvalId });
    },
    sealAuditCheckpoint: async () => asOwner(undefined),
    createNotificationChannel: async () =>
      asOwner({
        name: unique('ops'),
        kind: 'webhook',
        target: 'https://hooks.example.invalid/slipway',
        subscriptions: ['deployment.failed'],
      }),
    updateNotificationChannel: async () =>
      asOwner({ channelId: await channel(), subscriptions: ['deployment.succeeded'] }),
    testNotificationChannel: async () => asOwner({ channelId: await channel() }),
    createDeployWebhook: async () =>
      asOwner({
        serviceId: (await service()).serviceId,
        name: unique('hook'),
        rules: [{ source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}' }],
      }),
    revokeDeployWebhook: async () => {
      const hook = data<{ hookId: string }>(
        await call(t.url, 'POST', 'createDeployWebhook', ownerCookie, {
          serviceId: (await service()).serviceId,
          name: unique('hook'),
          rules: [{ source: 'tag', pattern: '*', image: 'ghcr.io/acme/api:{tag}' }],
        }),
      );
      return asOwner({ hookId: hook.hookId });
    },
    setServiceGitSource: async () =>
      asOwner({
        serviceId: (await service()).serviceId,
        repository: 'https://git.example.com/acme/api.git',
        rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
      }),
    removeServiceGitSource: async () => {
      const { serviceId } = await service();
      await call(t.url, 'POST', 'setServiceGitSource', ownerCookie, {
        serviceId,
        repository: 'https://git.example.com/acme/api.git',
      });
      return asOwner({ serviceId });
    },
    deployServiceCommit: async () => {
      const { serviceId } = await service();
      await call(t.url, 'POST', 'setServiceGitSource', ownerCookie, {
        serviceId,
        repository: 'https://git.example.com/acme/api.git',
      });
      return asOwner({ serviceId, commit: 'b'.repeat(40), ref: 'refs/heads/main' });
    },
    approveServicePreview: async () =>
      asOwner({ ...(await openPreviewOf(true)), headCommit: 'c'.repeat(40) }),
    closeServicePreview: async () => asOwner(await openPreviewOf(false)),
  };

  /** A pull request's preview of a new service, as a delivery would open it (a fork's waits). */
  async function openPreviewOf(fromFork: boolean): Promise<{ serviceId: string; number: number }> {
    const { serviceId } = await service();
    await openPreview(t, { serviceId, number: 7, fromFork });
    return { serviceId, number: 7 };
  }

  /** A notification channel of the owner's (email: nothing is posted anywhere). */
  async function channel(): Promise<string> {
    return data<{ channelId: string }>(
      await call(t.url, 'POST', 'createNotificationChannel', ownerCookie, {
        name: unique('channel'),
        kind: 'email',
        target: 'ops@example.com',
        subscriptions: [],
      }),
    ).channelId;
  }

  const LAST = ['updateAccountSecurityPolicy', 'updateSsoPolicy'];
  const contract = JSON.parse(
    readFileSync(new URL('../contract/api-contract.json', import.meta.url), 'utf8'),
  ) as { procedures: { name: string; lane: string }[] };
  const commandProcedures = contract.procedures
    .filter((p) => p.lane === 'command')
    .map((p) => p.name)
    // The policy changes go last: MFA would hold the owner's later sessions to it, SSO required
    // would refuse the password sign-ups of later cases.
    .sort((a, b) => Number(LAST.includes(a)) - Number(LAST.includes(b)));

  const entriesOf = async (requestId: string): Promise<EntryView[]> =>
    (await trail(t, asOwner().auth, { requestId, limit: 500 })).entries;

  it('knows how to call every command procedure of the contract', () => {
    expect(commandProcedures.filter((name) => !SUCCESS[name])).toEqual([]);
    expect(commandProcedures.length).toBeGreaterThanOrEqual(27);
  });

  it.each(commandProcedures)(
    '%s: a success and a refusal, each on the trail with actor, method and token',
    async (name) => {
      const prepared = await SUCCESS[name]();
      const ok = await call(t.url, 'POST', name, prepared.auth, prepared.input);
      expect([name, ok.status, ok.body.error ?? null]).toEqual([name, 200, null]);
      const succeeded = await entriesOf(ok.headers['x-request-id']);
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      for (const entry of succeeded) {
        expect(entry).toMatchObject({
          outcome: 'succeeded',
          actor: { id: prepared.actorId },
          authMethod: prepared.tokenId ? 'token' : 'session',
          token: prepared.tokenId ? { id: prepared.tokenId } : null,
          requestId: ok.headers['x-request-id'],
        });
      }

      const refused = await call(t.url, 'POST', name, bearer(readOnly), prepared.input);
      expect([401, 403]).toContain(refused.status);
      const denied = await entriesOf(refused.headers['x-request-id']);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({
        action: 'AccessDenied',
        outcome: 'denied',
        resource: `procedure:${name}`,
        code: refused.body.error.code,
        actor: { id: owner.userId, kind: 'user' },
        authMethod: 'token',
        token: { id: expect.any(String) },
      });
    },
    30_000,
  );
});
