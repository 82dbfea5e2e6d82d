import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { typeCheck } from './support/type-check.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A TypeScript user's program against the package as it ships (`npm pack` of client/): typed
 * inputs and answers, and refusals read by their string codes. The `@ts-expect-error` lines
 * must be errors: they prove the types say something.
 */
const PROGRAM = `import { SlipwayClient, SlipwayError, type Answer } from '@slipway/client';

const url = process.env.SLIPWAY_URL!;
const client = new SlipwayClient({ baseUrl: url, token: process.env.SLIPWAY_TOKEN });
const results: Record<string, unknown> = {};

const viewer: Answer<'viewer'> = await client.query('viewer');
results.viewer = viewer.principal.kind;
const servers = await client.query('servers', { limit: 5 });
results.servers = servers.items.length;

try {
  await client.query('serviceDetails', { serviceId: '00000000-0000-4000-8000-000000000000' });
} catch (error) {
  if (error instanceof SlipwayError && error.code === 'NOT_FOUND') results.missing = error.status;
}
try {
  // @ts-expect-error serverId is a UUID string, not a number
  await client.query('serverDetails', { serverId: 7 });
} catch (error) {
  if (error instanceof SlipwayError && error.code === 'BAD_REQUEST') results.issues = error.issues;
}
try {
  await client.mutate('createAgent', { name: 'reporter' });
} catch (error) {
  if (error instanceof SlipwayError) results.forbidden = [error.code, error.data.requiredScopes];
}
try {
  await new SlipwayClient({ baseUrl: url, token: 'slw_not-a-token' }).query('viewer');
} catch (error) {
  if (error instanceof SlipwayError) results.badToken = error.code;
}
try {
  await new SlipwayClient({ baseUrl: 'http://127.0.0.1:9' }).query('health');
} catch (error) {
  if (error instanceof SlipwayError) results.unreachable = error.code;
}

export function typeChecks(error: SlipwayError) {
  // @ts-expect-error not an error code of the API
  if (error.code === 'NOT_A_CODE') return;
  // @ts-expect-error no such procedure
  void client.query('noSuchProcedure');
  // @ts-expect-error a command is not read with query
  void client.query('triggerDeploy', { serviceId: 'x', imageTag: '1' });
  // @ts-expect-error serviceId is required
  void client.mutate('triggerDeploy', { imageTag: '1.0.0' });
  void client.mutate('triggerDeploy', { serviceId: 'x', imageTag: '1' }, { idempotencyKey: 'k-1' });
}

console.log(JSON.stringify(results));
`;

/** The typed client package (client/), built and packed as it ships, used from outside. */
describe('the typed client package', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    dir = mkdtempSync(join(tmpdir(), 'slipway-typed-client-'));
    execFileSync('npm', ['run', 'build'], { cwd: join(root, 'client'), stdio: 'ignore' });
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: join(root, 'client'),
      encoding: 'utf8',
    }).trim();
    // Installed as npm would, without a registry: the tarball unpacked, its dependency linked.
    const installed = join(dir, 'node_modules/@slipway/client');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, packed), '-C', installed, '--strip-components=1']);
    symlinkSync(join(root, 'node_modules/superjson'), join(dir, 'node_modules/superjson'));
    mkdirSync(join(dir, 'node_modules/@types'));
    symlinkSync(join(root, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks a program written against it, and the program reads refusals by code', async () => {
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: ['node'],
          outDir: 'out',
        },
        files: ['program.ts'],
      }),
    );
    expect(typeCheck(dir)).toBe('');

    const { cookie } = await signUp(t.url, 'owner@example.com');
    const { token } = await createToken(
      t.url,
      cookie,
      ['deploy:read', 'server:read', 'service:read'],
      1,
    );
    // Asynchronously: the app answering it runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'out/program.js')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, SLIPWAY_URL: t.url, SLIPWAY_TOKEN: token },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      viewer: 'user',
      servers: 0,
      missing: 404,
      issues: [{ path: 'serverId', message: expect.any(String) }],
      forbidden: ['FORBIDDEN', expect.arrayContaining([expect.any(String)])],
      badToken: 'TOKEN_INVALID',
      unreachable: 'NETWORK',
    });
  }, 120_000);
});
