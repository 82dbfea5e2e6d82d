import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, call, cookieAuth, createToken, logIn, signUp } from './support/identity.js';
import { freePort } from './support/ports.js';
import { SHARED_STORE_BACKENDS, type SharedStores } from './support/shared-stores.js';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
const FINGERPRINT = `SHA256:${'Qm9vdHN0cmFwcGVkIGhvc3Qga2V5IGZvciB0ZXN0cyE'.slice(0, 43)}`;
const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----\n';

/** One API process of the service, as users start it, on the shared data directory. */
class Replica {
  readonly url: string;
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;

  constructor(dataDir: string, port: number, stores: Record<string, string>) {
    this.url = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        ...stores,
        PORT: String(port),
        SLIPWAY_DATA_DIR: dataDir,
        SLIPWAY_REPLICAS: '2',
        SLIPWAY_RUNNER: 'off',
        SLIPWAY_LOG_LEVEL: 'error',
        SLIPWAY_OPEN_SIGNUP: 'true',
        SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  async ready(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${this.url}/trpc/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${this.url} did not start`);
  }

  stop(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** Asks until the answer passes `check` (a replica that just took a lease over catches up). */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let last: T = await ask();
  for (let i = 0; i < 300 && !check(last); i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await ask();
  }
  return last;
}

describe.each(SHARED_STORE_BACKENDS)(
  'two API processes on %s (SLIPWAY_REPLICAS=2)',
  (_name, backend) => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-replica-procs-'));
    const dataDir = join(dir, 'data');
    let a: Replica;
    let b: Replica;
    let cookie: string;
    let stores: SharedStores | undefined;

    beforeAll(async () => {
      stores = await backend();
      a = new Replica(dataDir, await freePort(), stores.env);
      await a.ready();
      b = new Replica(dataDir, await freePort(), stores.env);
      await b.ready();
    });
    afterAll(async () => {
      await a?.stop('SIGKILL');
      await b?.stop('SIGKILL');
      await stores?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const servers = async (replica: Replica) => {
      const res = await call(replica.url, 'GET', 'servers', cookieAuth(cookie), {});
      expect(res.status).toBe(200);
      return res.body.result.data.json.items as { id: string; name: string }[];
    };
    const register = (replica: Replica, name: string) =>
      call(replica.url, 'POST', 'registerServer', cookieAuth(cookie), {
        name,
        host: '10.0.0.2',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
      });

    it('a session opened through one replica is valid through the other', async () => {
      cookie = (await signUp(a.url, 'owner@example.com')).cookie;
      const me = await call(b.url, 'GET', 'viewer', cookieAuth(cookie));
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body.result.data.json)).toContain('owner');
      // And a login through the other replica works against the same account.
      expect(await logIn(b.url, 'owner@example.com')).toMatch(/^slipway_session=/);
    });

    it('reads its write through the other replica as soon as the command answers', async () => {
      for (const [writer, reader, name] of [
        [b, a, 'from-b'],
        [a, b, 'from-a'],
      ] as const) {
        // The reader's answer is kept until something commits: it must not outlive the write.
        await servers(reader);
        const res = await register(writer, name);
        expect(res.status).toBe(200);
        const { serverId } = res.body.result.data.json as { serverId: string };
        // No waiting: the command returned once the shared read model held its event.
        expect((await servers(reader)).map((s) => s.id)).toContain(serverId);
      }
    });

    it('a token revoked through one replica is refused through the other at once', async () => {
      const minted = await createToken(a.url, cookie, ['deploy:read'], 7);
      // Used through b twice: its documents are kept there now.
      for (let i = 0; i < 2; i++)
        expect((await call(b.url, 'GET', 'viewer', bearer(minted.token))).status).toBe(200);
      const revoked = await call(a.url, 'POST', 'revokeToken', cookieAuth(cookie), {
        tokenId: minted.tokenId,
      });
      expect(revoked.status).toBe(200);
      const after = await call(b.url, 'GET', 'viewer', bearer(minted.token));
      expect([after.status, after.body.error?.code]).toEqual([401, 'TOKEN_REVOKED']);
    });

    it('goes on when one replica is killed, applying nothing twice', async () => {
      expect(await a.stop('SIGKILL')).toBe(null);
      // The survivor takes the dead one's leases over once they expire (10 s) and applies; a
      // command made at once waits for that (its wait outlasts a lease) and answers 200.
      const registered = await register(b, 'after-the-kill');
      expect(registered.status).toBe(200);
      const names = (
        await eventually(
          () => servers(b),
          (list) => list.some((s) => s.name === 'after-the-kill'),
        )
      ).map((s) => s.name);
      expect(names.sort()).toEqual(['after-the-kill', 'from-a', 'from-b']);
      // Each registration appears once in the audit trail, whoever applied it.
      const trail = await call(b.url, 'GET', 'auditTrail', cookieAuth(cookie), {
        action: 'ServerRegistered',
      });
      expect(trail.status).toBe(200);
      expect(trail.body.result.data.json.entries).toHaveLength(3);
    });
  },
);
