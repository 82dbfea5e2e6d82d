import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cliHome } from './support/cli.js';
import { PASSWORD } from './support/identity.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The README's "First deploy in five minutes": the block after the walk-through marker, as the
 * commands a reader types (a here-document is one command with its lines).
 */
function walkThrough(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const after = readme.slice(readme.indexOf('<!-- walk-through:'));
  const block = /```sh\n([\s\S]*?)```/.exec(after)![1];
  const commands: string[] = [];
  const lines = block.trimEnd().split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const heredoc = /<<'(\w+)'$/.exec(lines[i]);
    if (!heredoc) {
      commands.push(lines[i]);
      continue;
    }
    const end = lines.indexOf(heredoc[1], i + 1);
    commands.push(lines.slice(i, end + 1).join('\n'));
    i = end;
  }
  return commands;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(line: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { cwd, env: { ...process.env, ...env } }, (e, out, err) =>
      resolve({
        code: e ? Number((e as { code?: number }).code ?? 1) : 0,
        stdout: out,
        stderr: err,
      }),
    );
  });
}

/** `npm start` as the README says, on a fresh data directory; the URL is read from its log. */
function npmStart(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${log}`)), 60_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const url = /Listening on (http:\/\/[\d.]+:\d+)/.exec(log)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
  });
}

describe('README: first deploy in five minutes, line by line', () => {
  let sshd: TestSshd;
  let server: ChildProcess | undefined;
  let url: string;
  const work = mkdtempSync(join(tmpdir(), 'slipway-walk-'));
  const home = cliHome();

  beforeAll(async () => {
    sshd = await startSshd();
    ({ url, child: server } = await npmStart({
      PORT: '0',
      SLIPWAY_DATA_DIR: join(work, 'data'),
      SLIPWAY_SERVER_ADDRESS_POLICY: ALLOW_LOOPBACK,
      SLIPWAY_RUNNER_REMOTE_DIR: sshd.remoteDir,
    }));
  });
  afterAll(async () => {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
    await sshd?.stop();
    rmSync(work, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('runs every command of the walk-through, and the service is deployed', async () => {
    const keyFile = join(work, 'id_ed25519');
    writeFileSync(keyFile, sshd.clientKey, { mode: 0o600 });
    // What the reader names as theirs, and what the CLI needs from its environment.
    const env: Record<string, string> = {
      URL: url,
      HOST: sshd.host,
      PORT: String(sshd.port),
      SSH_USER: sshd.user,
      KEY_FILE: keyFile,
      SLIPWAY_PASSWORD: PASSWORD,
      PATH: `${join(home, 'bin')}:${process.env.PATH}`,
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    const commands = walkThrough();
    expect(commands.length).toBeGreaterThanOrEqual(8);
    const outputs: Ran[] = [];
    for (const command of commands) {
      const ran = await sh(command, work, env);
      outputs.push(ran);
      expect({ command, ...ran }).toMatchObject({ command, code: 0 });
      if (command.startsWith('slipway servers keyscan')) {
        // The reader compares the printed key with the server's own, then names it.
        const printed = /SHA256:[A-Za-z0-9+/]+/.exec(ran.stdout)?.[0];
        expect(printed).toBe(sshd.fingerprint);
        env.FINGERPRINT = printed!;
      }
    }
    const last = outputs[outputs.length - 1].stdout;
    expect(last).toMatch(/api@production.*ghcr\.io\/acme\/api:1\.0\.0.*succeeded/);
    expect(sshd.dockerCalls().some((call) => call.includes('up'))).toBe(true);
  });
  // After the walk-through: the service it deployed, backed up through the CLI.
  it('takes a backup of the deployed service over SSH, then lists it and plans its restore', async () => {
    const env = {
      PATH: `${join(home, 'bin')}:${process.env.PATH}`,
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    const update = await sh(
      "slipway services update api --backup-command 'docker exec db pg_dump app' --yes",
      work,
      env,
    );
    expect(update.stdout.trim()).toBe('Service api updated (backupCommand)');
    const taken = await sh('slipway backups trigger api --yes --json', work, env);
    const backup = JSON.parse(taken.stdout).data as { backupId: string; location: string };
    expect(readFileSync(backup.location).subarray(0, 5).toString()).toBe('PGDMP');
    const list = await sh('slipway backups list --service api', work, env);
    expect(list.stdout).toContain(backup.backupId);
    const plan = await sh(`slipway backups restore-plan ${backup.backupId}`, work, env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/^Run: slipway approvals request --action restore /m);
  });
});
