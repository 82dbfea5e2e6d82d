import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { allEvents, flushRefusals } from './support/audit.js';
import { data } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { tarball } from './support/tarballs.js';
import { DeploymentLookup } from '../src/deployments/deployment-lookup.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CAP = 64 * 1024;
const COMPOSE = 'services:\n  api:\n    image: registry.example.com/acme/api:1.0.0\n';

/**
 * The deploy routes as an attacker meets them: no credentials, a viewer, a token without the
 * scope, malformed and unknown ids, oversized bodies, tar entries that escape or link. Never a 500.
 */
describe('deploy intake and image routes refuse bad calls', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  let serverId: string;
  let serviceId: string;
  const statuses: number[] = [];
  const seen = <T extends { status: number }>(res: T): T => {
    statuses.push(res.status);
    return res;
  };
  const openUpload = async (auth = owner) =>
    seen(await request(t.url).post('/api/v1/deploy/uploads').set(auth).send({})).body as {
      uploadId: string;
      uploadUrl: string;
    };
  const putUpload = async (url: string, body: Buffer, auth = owner) =>
    seen(
      await request(t.url).put(url).set(auth).set('Content-Type', 'application/gzip').send(body),
    );
  const intake = async (body: Record<string, unknown>, auth = owner) =>
    seen(await request(t.url).post('/api/v1/deploy/compose').set(auth).send(body));
  const composeFile = { path: 'compose.yaml', contents: COMPOSE };

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: {
        serverAddressPolicy: ALLOW_LOOPBACK,
        uploads: { contextMaxBytes: CAP, imageMaxBytes: CAP },
      },
    });
    const signedUp = await signUp(t.url, 'owner@example.com');
    ownerCookie = signedUp.cookie;
    owner = cookieAuth(ownerCookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: 'registry.example.com/acme/api',
        compose: COMPOSE,
      }),
    ).serviceId;
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('answers 401 without credentials on every route', async () => {
    const id = `upl_${'A'.repeat(22)}`;
    const calls = [
      request(t.url)
        .post('/api/v1/deploy/compose')
        .send({ serviceId, files: [composeFile] }),
      request(t.url).post('/api/v1/deploy/uploads').send({}),
      request(t.url).put(`/api/v1/deploy/uploads/${id}`).send(Buffer.from('x')),
      request(t.url).get(`/api/v1/servers/${serverId}/images`),
      request(t.url).post(`/api/v1/servers/${serverId}/images/pull`).send({ reference: 'a:1' }),
      request(t.url).post(`/api/v1/servers/${serverId}/images/prune`).send({}),
      request(t.url).delete(`/api/v1/servers/${serverId}/images?reference=a:1`),
      request(t.url).put(`/api/v1/servers/${serverId}/images`).send(Buffer.from('x')),
    ];
    for (const res of await Promise.all(calls)) {
      expect([seen(res).status, res.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    }
  });

  it('refuses a viewer every change, and lets it list images', async () => {
    const res = await intake({ serviceId, files: [composeFile] }, viewer);
    expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const upload = seen(await request(t.url).post('/api/v1/deploy/uploads').set(viewer).send({}));
    expect(upload.status).toBe(403);
    const pull = seen(
      await request(t.url)
        .post(`/api/v1/servers/${serverId}/images/pull`)
        .set(viewer)
        .send({ reference: 'registry.example.com/acme/api:1.0.0' }),
    );
    expect(pull.status).toBe(403);
    const list = seen(await request(t.url).get(`/api/v1/servers/${serverId}/images`).set(viewer));
    expect(list.status).toBe(200); // the stand-in docker of this sshd lists no images
    expect(list.body).toEqual({ serverId, images: [] });
  });

  it('answers 403 with requiredScopes and grantedScopes to a token without the scope', async () => {
    const reader = bearer((await createToken(t.url, ownerCookie, ['deploy:read'], 1)).token);
    const res = await intake({ serviceId, files: [composeFile] }, reader);
    expect(res.status).toBe(403);
    expect(res.body.error.data).toMatchObject({
      requiredScopes: ['deploy:start'],
      grantedScopes: ['deploy:read'],
    });
    const load = seen(
      await request(t.url)
        .put(`/api/v1/servers/${serverId}/images`)
        .set(reader)
        .set('Content-Type', 'application/x-tar')
        .send(Buffer.from('x')),
    );
    expect(load.status).toBe(403);
    expect(load.body.error.data).toMatchObject({ requiredScopes: ['server:write'] });
  });

  it('answers 400 for malformed ids and 404 for unknown ones', async () => {
    for (const bad of [
      'nope',
      `upl_${'A'.repeat(21)}`,
      `upl_${'A'.repeat(23)}`,
      `upl_${'A'.repeat(21)}%2F`,
    ]) {
      const res = await putUpload(`/api/v1/deploy/uploads/${bad}`, Buffer.from('x'));
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    }
    const unknown = await putUpload(
      `/api/v1/deploy/uploads/upl_${'A'.repeat(22)}`,
      Buffer.from('x'),
    );
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const badServer = seen(
      await request(t.url).get('/api/v1/servers/not-a-uuid/images').set(owner),
    );
    expect(badServer.status).toBe(400);
    const noServer = seen(
      await request(t.url).get(`/api/v1/servers/${randomUUID()}/images`).set(owner),
    );
    expect([noServer.status, noServer.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const noLoad = seen(
      await request(t.url)
        .put(`/api/v1/servers/${randomUUID()}/images`)
        .set(owner)
        .set('Content-Type', 'application/x-tar')
        .send(Buffer.from('x')),
    );
    expect(noLoad.status).toBe(404);
    expect((await intake({ serviceId: randomUUID(), files: [composeFile] })).status).toBe(404);
    expect(
      (await intake({ serverId: randomUUID(), serviceName: 'api', files: [composeFile] })).status,
    ).toBe(404);
    expect((await intake({ serverId, serviceName: 'other', files: [composeFile] })).status).toBe(
      404,
    );
  });

  it("treats another principal's upload as unknown", async () => {
    const { uploadUrl } = await openUpload(admin);
    const res = await putUpload(uploadUrl, await tarball([{ name: 'a', contents: 'a' }]));
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers 413 for bodies over the caps: declared or streamed', async () => {
    const { uploadUrl } = await openUpload();
    const big = await tarball([
      { name: 'big', contents: randomBytes(150 * 1024).toString('base64') },
    ]);
    expect(big.length).toBeGreaterThan(CAP);
    const declared = await putUpload(uploadUrl, big);
    expect([declared.status, declared.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Chunked, without a length: refused once the cap is passed.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${t.url}${uploadUrl}`, {
        method: 'PUT',
        headers: { ...owner, 'Content-Type': 'application/gzip', 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (let i = 0; i < big.length; i += 8192) req.write(big.subarray(i, i + 8192));
      req.end();
    });
    expect(seen(streamed).status).toBe(413);
    expect(JSON.parse(streamed.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    const image = seen(
      await request(t.url)
        .put(`/api/v1/servers/${serverId}/images`)
        .set(owner)
        .set('Content-Type', 'application/x-tar')
        .send(Buffer.alloc(CAP + 1)),
    );
    expect([image.status, image.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const huge = await intake({
      serviceId,
      files: [composeFile, { path: 'big', contents: 'x'.repeat(21 * 1024 * 1024) }],
    });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('refuses tar entries that escape the directory or link, and anything not a gzip tar', async () => {
    const { uploadUrl } = await openUpload();
    const refused: [string, Buffer][] = [
      ['traversal', await tarball([{ name: '../evil', contents: 'x' }])],
      ['nested traversal', await tarball([{ name: 'a/../../evil', contents: 'x' }])],
      ['absolute', await tarball([{ name: '/etc/evil', contents: 'x' }])],
      ['symlink', await tarball([{ name: 'link', type: 'symlink', linkname: '/etc/passwd' }])],
      [
        'hard link',
        await tarball([
          { name: 'a', contents: 'x' },
          { name: 'b', type: 'link', linkname: 'a' },
        ]),
      ],
      ['device', await tarball([{ name: 'dev', type: 'character-device' }])],
      ['plain tar', await tarball([{ name: 'a', contents: 'x' }], false)],
      ['not a tar', Buffer.from('hello')],
      ['empty', await tarball([])],
    ];
    for (const [what, body] of refused) {
      const res = await putUpload(uploadUrl, body);
      expect([what, res.status, res.body.error.code]).toEqual([what, 400, 'BAD_REQUEST']);
    }
    const wrongType = seen(
      await request(t.url).put(uploadUrl).set(owner).set('Content-Type', 'text/plain').send('x'),
    );
    expect(wrongType.status).toBe(400);
    // Refusals leave the upload open: a good context is taken, once.
    const good = await tarball([{ name: 'Dockerfile', contents: 'FROM scratch\n' }]);
    expect((await putUpload(uploadUrl, good)).status).toBe(200);
    expect((await putUpload(uploadUrl, good)).status).toBe(409);
  });

  it('refuses compose files outside the directory, oversized, duplicated or without one compose file', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['traversal', { files: [composeFile, { path: '../x', contents: 'x' }] }],
      ['dot segment', { files: [composeFile, { path: 'a/./x', contents: 'x' }] }],
      ['absolute', { files: [composeFile, { path: '/etc/x', contents: 'x' }] }],
      ['the env file', { files: [composeFile, { path: '.env', contents: 'A=1' }] }],
      [
        'duplicate',
        { files: [composeFile, { path: 'a', contents: '' }, { path: 'a', contents: '' }] },
      ],
      ['no compose file', { files: [{ path: 'a', contents: 'x' }] }],
      ['two compose files', { files: [composeFile, { ...composeFile, path: 'compose.yml' }] }],
      ['over 1 MiB', { files: [composeFile, { path: 'a', contents: 'é'.repeat(600 * 1024) }] }],
      [
        'too many files',
        {
          files: [
            composeFile,
            ...Array.from({ length: 16 }, (_, i) => ({ path: `f${i}`, contents: '' })),
          ],
        },
      ],
      ['null files', { files: null }],
      ['unknown field', { files: [composeFile], extra: 1 }],
      ['bad compose', { files: [{ path: 'compose.yaml', contents: 'services: [' }] }],
      [
        'image of another repository',
        { files: [{ path: 'compose.yaml', contents: 'services:\n  a:\n    image: other/x:1\n' }] },
      ],
      ['malformed upload id', { files: [composeFile], contextUploadId: 'upl_x' }],
    ];
    for (const [what, body] of cases) {
      const res = await intake({ serviceId, ...body });
      expect([what, res.status, res.body.error?.code]).toEqual([what, 400, 'BAD_REQUEST']);
    }
    const { uploadId } = await openUpload();
    const empty = await intake({ serviceId, files: [composeFile], contextUploadId: uploadId });
    expect([empty.status, empty.body.error.code]).toEqual([409, 'CONFLICT']);
  });

  it('refuses to deploy a compose that builds its image without a build context, before queueing', async () => {
    const builds = 'services:\n  api:\n    build: .\n  cache:\n    image: redis:7.2-alpine\n';
    const registered = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'built',
        environment: 'production',
        serverId,
        imageRepository: 'registry.example.com/acme/built',
        compose: builds,
      }),
    );
    const deploy = seen(
      await call(t.url, 'POST', 'triggerDeploy', owner, {
        serviceId: registered.serviceId,
        imageTag: '1.0.0',
      }),
    );
    expect([deploy.status, deploy.body.error.data.issues]).toEqual([
      400,
      [
        {
          path: 'compose.services.api.build',
          message: expect.stringContaining('deploy it with its build context'),
        },
      ],
    ]);
    const byIntake = await intake({
      serviceId: registered.serviceId,
      files: [{ path: 'compose.yaml', contents: builds }],
    });
    expect([byIntake.status, byIntake.body.error.message]).toEqual([
      400,
      'The compose file builds images, and the deployment brings no build context',
    ]);
  });

  it("holds an intake for approval under the service's rule, then queues exactly the frozen intake", async () => {
    const gated = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'gated',
        environment: 'production',
        serverId,
        imageRepository: 'registry.example.com/acme/api',
        compose: COMPOSE,
        approvalRule: 'all-but-admins',
      }),
    ).serviceId;
    const operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    const files = [composeFile, { path: 'conf/app.ini', contents: 'mode=gated\n' }];
    const env = [{ name: 'TOKEN', value: 'very secret value', secret: true }];
    const asked = await intake({ serviceId: gated, files, env }, operator);
    expect([asked.status, asked.body.status]).toEqual([202, 'pending_approval']);
    // Asked again: the same pending request (the sealed env differs, the intake does not).
    const again = await intake({ serviceId: gated, files, env }, operator);
    expect([again.body.approvalId, again.body.created]).toEqual([asked.body.approvalId, false]);
    const queue = data<{ items: { id: string; payload: Record<string, unknown> }[] }>(
      await call(t.url, 'GET', 'approvalQueue', owner, {}),
    ).items.find((a) => a.id === asked.body.approvalId)!;
    expect(queue.payload).toEqual({
      serviceId: gated,
      imageRef: 'registry.example.com/acme/api:1.0.0',
      serverId: expect.any(String),
      intake: { digest: expect.any(String), files: ['conf/app.ini'], contextUploadId: null },
    });
    expect(JSON.stringify(queue)).not.toContain('very secret value');
    const approved = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', owner, { approvalId: asked.body.approvalId }),
    );
    const deployment = await t.app.get(DeploymentLookup).deployment(approved.deploymentId);
    expect(deployment.snapshot.files).toEqual([{ path: 'conf/app.ini', contents: 'mode=gated\n' }]);
    expect(deployment.snapshot.env.map((v) => [v.name, v.value])).toEqual([['TOKEN', null]]);
    expect(deployment.snapshot.compose).toBe(COMPOSE);
  });

  it('records refused command routes on the audit trail with who called and the input fields', async () => {
    await flushRefusals(t);
    const rejected = (await allEvents(t)).filter(
      (e) =>
        e.type === 'CommandRejected' &&
        (e.data as { target: string }).target === 'POST /api/v1/deploy/compose',
    );
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0].data).toMatchObject({ surface: 'route', lane: 'command' });
    expect((rejected[0].data as { inputFields: string[] }).inputFields).toContain('files');
    expect(rejected[0].metadata).toMatchObject({
      actor: expect.objectContaining({ kind: 'user' }),
    });
  });

  it('never answered 500', () => {
    expect(statuses.length).toBeGreaterThan(40);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
