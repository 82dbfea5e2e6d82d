import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A PostgreSQL server of the tests' own: Debian's binaries, a cluster in a temporary folder. */
export interface PostgresCluster {
  /** The address of one database of the cluster, as `SLIPWAY_POSTGRES_URL` takes it. */
  url(database: string): string;
  /** A new, empty database; its address. */
  createDatabase(): Promise<string>;
  /** Stops the server at once (immediate shutdown: recovery at the next start) and starts it. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Where Debian puts the server's binaries (`postgresql-NN`); the newest version wins. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

/** The server refuses to run as root: as root, its binaries run as the `postgres` user. */
async function serverIdentity(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Where the server runs: by default this machine's loopback. A test network's host gives its
 * address and a way to start a program inside it (a network namespace).
 */
export interface ServerPlace {
  address: string;
  /** The program line that runs `command` there, as the user given (the server is not root). */
  wrap(command: string, args: string[], user: string | null): [string, string[]];
}

const LOOPBACK: ServerPlace = { address: '127.0.0.1', wrap: (command, args) => [command, args] };

/**
 * initdb into a new temporary folder, then the server on a free port of `place` (loopback
 * unless told; no socket file, password authentication), fsync on as in production. About two
 * seconds.
 */
export async function startPostgresCluster(
  place: ServerPlace = LOOPBACK,
): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
  const identity = await serverIdentity();
  const dir = mkdtempSync(join(tmpdir(), 'slipway-postgres-'));
  const data = join(dir, 'data');
  const passwordFile = join(dir, 'password');
  const password = randomBytes(12).toString('hex');
  writeFileSync(passwordFile, password);
  if (identity.uid !== undefined && identity.gid !== undefined) {
    chownSync(dir, identity.uid, identity.gid);
    chownSync(passwordFile, identity.uid, identity.gid);
  }
  await run(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'slipway',
      '--auth=scram-sha-256',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      // Byte order for strings, as SQLite compares them.
      '--no-locale',
      '--no-instructions',
    ],
    identity,
  );
  // Clients on other hosts of a test network: by password, as on loopback.
  if (place !== LOOPBACK)
    appendFileSync(join(data, 'pg_hba.conf'), 'host all all 0.0.0.0/0 scram-sha-256\n');
  const port = await freePort();
  let server: ChildProcess | null = null;
  const start = async () => {
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      `listen_addresses=${place.address}`,
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ];
    const child =
      place === LOOPBACK
        ? spawn(join(bin, 'postgres'), args, { ...identity, stdio: ['ignore', 'ignore', 'pipe'] })
        : spawn(...place.wrap(join(bin, 'postgres'), args, identity.uid ? 'postgres' : null), {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
    server = child;
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    await waitForReady(bin, place.address, port, child, () => log);
  };
  await start();
  const url = (database: string) =>
    `postgres://slipway:${password}@${place.address}:${port}/${database}`;
  const stopServer = async (signal: 'SIGTERM' | 'SIGQUIT') => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    url,
    createDatabase: async () => {
      const name = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    restart: async () => {
      await stopServer('SIGQUIT');
      await start();
    },
    stop: async () => {
      await stopServer('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Until the server accepts connections (`pg_isready`); its log when it exits or takes over 30 s. */
async function waitForReady(
  bin: string,
  address: string,
  port: number,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited:\n${log()}`);
    try {
      await run(join(bin, 'pg_isready'), ['-q', '-h', address, '-p', String(port)]);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
