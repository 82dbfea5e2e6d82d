import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGitHost, type GitHost } from './support/git-host.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test git host, read by the real git and ssh clients. */
describe('a git host on loopback', () => {
  let host: GitHost;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let knownHosts: string;
  let first: string;
  let second: string;
  let release: string;
  const TOKEN = 'glpat-git-host-0123456789';
  let n = 0;
  const scratch = () => join(dir, `c${++n}`);

  /** A client program run asynchronously (the HTTP server shares this process's event loop). */
  const run = (file: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        file,
        args,
        { env: { ...env, ...extra }, timeout: 30_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error.code as number) ?? -1) : 0, stdout, stderr }),
      );
    });
  const sshOptions = (key: string, pinned = knownHosts) => [
    '-F',
    '/dev/null',
    '-i',
    key,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    `UserKnownHostsFile=${pinned}`,
    '-o',
    'GlobalKnownHostsFile=/dev/null',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
  ];
  const overSsh = (key: string, pinned?: string) => ({
    GIT_SSH_COMMAND: ['ssh', ...sshOptions(key, pinned)].join(' '),
  });
  const git = (args: string[], extra: NodeJS.ProcessEnv = {}) => run('git', args, extra);
  const keyPair = (name: string) => {
    const key = join(dir, name);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', key]);
    return { key, publicKey: readFileSync(`${key}.pub`, 'utf8') };
  };
  const basic = (user: string, password: string) =>
    `http.extraHeader=Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  let deployKey: string;
  let strangerKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-git-client-'));
    const home = join(dir, 'home');
    mkdirSync(home);
    env = { PATH: process.env.PATH, HOME: home, LC_ALL: 'C' };
    Object.assign(env, {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
    });
    host = await startGitHost({ name: 'shop' });
    knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, `${host.knownHostsLine}\n`);
    const deploy = keyPair('deploy');
    deployKey = deploy.key;
    host.authorize(deploy.publicKey);
    strangerKey = keyPair('stranger').key;
    first = host.commit({
      files: { Dockerfile: 'FROM scratch\nCOPY . /app\n', 'bin/run.sh': '#!/bin/sh\necho run\n' },
      executable: ['bin/run.sh'],
      symlinks: { run: 'bin/run.sh' },
      message: 'First',
      author: 'Ada Lovelace <ada@example.com>',
    });
    second = host.commit({ files: { VERSION: '2\n' }, message: 'Second' });
    release = host.commit({ files: { VERSION: '1.0.0\n' }, message: 'Release', tag: 'v1.0.0' });
  });
  afterAll(async () => {
    await host?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('clones over SSH with an authorized key and the host key pinned', async () => {
    expect([first, second, release]).toEqual(
      Array(3).fill(expect.stringMatching(/^[0-9a-f]{40}$/)),
    );
    expect(host.sshUrl).toBe(`ssh://${host.sshUser}@127.0.0.1:${host.sshPort}${host.repoPath}`);
    expect(execFileSync('ssh-keygen', ['-lf', knownHosts]).toString()).toContain(host.fingerprint);

    const out = scratch();
    const clone = await git(['clone', '-q', host.sshUrl, out], overSsh(deployKey));
    expect(clone).toMatchObject({ code: 0 });
    expect((await git(['-C', out, 'rev-parse', 'HEAD'])).stdout.trim()).toBe(second);
    expect(readFileSync(join(out, 'VERSION'), 'utf8')).toBe('2\n');
    // The modes as committed: a regular file, an executable, a symbolic link.
    const staged = (await git(['-C', out, 'ls-files', '-s'])).stdout;
    expect(staged).toMatch(/^100644 \S+ 0\tDockerfile$/m);
    expect(staged).toMatch(/^100755 \S+ 0\tbin\/run\.sh$/m);
    expect(staged).toMatch(/^120000 \S+ 0\trun$/m);
    const authored = await git(['-C', out, 'log', '-1', '--format=%an <%ae>|%cn', first]);
    expect(authored.stdout.trim()).toBe('Ada Lovelace <ada@example.com>|Slipway Test Git Host');

    // The tag's commit is on no branch; the annotated tag peels to it.
    const refs = (await git(['ls-remote', host.sshUrl], overSsh(deployKey))).stdout;
    expect(refs).toContain(`${second}\trefs/heads/main`);
    expect(refs).toContain(`${release}\trefs/tags/v1.0.0^{}`);
    expect(refs).not.toContain(`${release}\trefs/heads/`);
  });

  it('refuses a key it has not authorized, and a client expecting another host key', async () => {
    const stranger = await git(['ls-remote', host.sshUrl], overSsh(strangerKey));
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toMatch(/Permission denied \(publickey\)/);

    const otherHost = join(dir, 'other_known_hosts');
    const otherKey = readFileSync(`${strangerKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    writeFileSync(otherHost, `[127.0.0.1]:${host.sshPort} ${otherKey}\n`);
    const spoofed = await git(['ls-remote', host.sshUrl], overSsh(deployKey, otherHost));
    expect(spoofed.code).not.toBe(0);
    expect(spoofed.stderr).toMatch(/Host key verification failed/);

    expect(() => host.authorize(`ssh-ed25519 AAAA\ncommand="sh" ssh-ed25519 AAAA`)).toThrow();
  });

  it('lets an authorized key run git only: no command, no shell', async () => {
    const target = `${host.sshUser}@127.0.0.1`;
    const ssh = (...args: string[]) =>
      run('ssh', [...sshOptions(deployKey), '-p', String(host.sshPort), ...args]);
    const id = await ssh(target, 'id');
    expect(id.code).not.toBe(0);
    expect(id.stdout).not.toMatch(/uid=/);
    expect(id.stderr).toMatch(/unrecognized command 'id'/);
    const shell = await ssh('-tt', target);
    expect(shell.code).not.toBe(0);
    expect(shell.stdout + shell.stderr).not.toMatch(/uid=|[#$] $/m);
  });

  it('fetches a commit no ref points at by SHA, at depth 1, over SSH and HTTP', async () => {
    for (const [url, extra] of [
      [host.sshUrl, overSsh(deployKey)],
      [host.httpUrl, {}],
    ] as const) {
      for (const version of ['0', '2']) {
        const out = scratch();
        const trace = `${out}.trace`;
        expect(await git(['init', '-q', out])).toMatchObject({ code: 0 });
        const fetch = await git(
          [
            '-C',
            out,
            '-c',
            `protocol.version=${version}`,
            'fetch',
            '-q',
            '--depth',
            '1',
            url,
            first,
          ],
          { ...extra, GIT_TRACE_PACKET: trace },
        );
        expect([url, version, fetch]).toEqual([url, version, expect.objectContaining({ code: 0 })]);
        expect((await git(['-C', out, 'rev-parse', 'FETCH_HEAD'])).stdout.trim()).toBe(first);
        expect((await git(['-C', out, 'rev-list', '--count', 'FETCH_HEAD'])).stdout.trim()).toBe(
          '1',
        );
        // Version 2 really spoken (over SSH it needs the server's AcceptEnv GIT_PROTOCOL).
        if (version === '2') expect(readFileSync(trace, 'utf8')).toMatch(/< version 2$/m);
      }
    }
  });

  it('serves HTTP anonymously, or only with the token once one is required', async () => {
    const anonymous = await git(['ls-remote', host.httpUrl]);
    expect(anonymous.stdout).toContain(`${second}\trefs/heads/main`);

    host.requireToken(TOKEN);
    try {
      const raw = await fetch(`${host.httpUrl}/info/refs?service=git-upload-pack`);
      expect([raw.status, raw.headers.get('www-authenticate')]).toEqual([401, 'Basic realm="git"']);

      const without = await git(['clone', '-q', host.httpUrl, scratch()]);
      expect(without.code).not.toBe(0);
      expect(without.stderr).toMatch(/could not read Username|Authentication failed/);
      const wrong = await git([
        '-c',
        basic('x-access-token', 'nope'),
        'clone',
        '-q',
        host.httpUrl,
        scratch(),
      ]);
      expect(wrong.code).not.toBe(0);

      const out = scratch();
      const clone = await git([
        '-c',
        basic('x-access-token', TOKEN),
        'clone',
        '-q',
        host.httpUrl,
        out,
      ]);
      expect(clone).toMatchObject({ code: 0 });
      expect((await git(['-C', out, 'rev-parse', 'HEAD'])).stdout.trim()).toBe(second);
      expect(host.httpRequests()).toEqual(
        expect.arrayContaining([
          '/shop.git/info/refs?service=git-upload-pack',
          '/shop.git/git-upload-pack',
        ]),
      );
    } finally {
      host.requireToken(null);
    }
  });

  it('serves HTTPS with a certificate its CA vouches for, under the same token', async () => {
    const tls = await startGitHost({ name: 'secure', tls: true });
    try {
      const commit = tls.commit({ files: { VERSION: '3\n' }, message: 'Over TLS' });
      expect(tls.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/secure\.git$/);
      const trusting = { GIT_SSL_CAINFO: tls.caFile };
      // A client that does not know the CA refuses the certificate before anything is read.
      const untrusted = await git(['ls-remote', tls.httpsUrl]);
      expect(untrusted.code).not.toBe(0);
      expect(untrusted.stderr).toMatch(/certificate/i);
      expect((await git(['ls-remote', tls.httpsUrl], trusting)).stdout).toContain(
        `${commit}\trefs/heads/main`,
      );

      tls.requireToken(TOKEN);
      const without = await git(['ls-remote', tls.httpsUrl], trusting);
      expect(without.code).not.toBe(0);
      const out = scratch();
      const clone = await git(
        ['-c', basic('x-access-token', TOKEN), 'clone', '-q', tls.httpsUrl, out],
        trusting,
      );
      expect(clone).toMatchObject({ code: 0 });
      expect(readFileSync(join(out, 'VERSION'), 'utf8')).toBe('3\n');
      expect(tls.httpLog()).toEqual(
        expect.arrayContaining([
          {
            scheme: 'https',
            method: 'POST',
            path: '/secure.git/git-upload-pack',
            user: 'x-access-token',
            authorized: true,
          },
        ]),
      );
      expect(JSON.stringify(tls.httpLog())).not.toContain(TOKEN);
    } finally {
      await tls.stop();
    }
  });

  it('commits on a new branch, removes files, tags lightly, and never writes through a link', async () => {
    const feature = host.commit({
      branch: 'feature/x',
      files: { 'src/app.txt': 'feature\n' },
      remove: ['VERSION'],
      symlinks: { etc: '/etc' },
      message: 'Feature',
    });
    const light = host.commit({
      branch: 'feature/x',
      files: { 'src/app.txt': 'tagged\n' },
      message: 'Tagged',
      tag: 'build-1',
      tagKind: 'lightweight',
    });
    // A path under a committed link, an escape, an existing tag: refused, nothing written.
    expect(() =>
      host.commit({ branch: 'feature/x', files: { 'etc/x': 'no' }, message: 'm' }),
    ).toThrow(/symbolic link etc/);
    expect(() => host.commit({ files: { '../x': 'no' }, message: 'm' })).toThrow(/not a path/);
    expect(() => host.commit({ files: {}, message: 'm', tag: 'v1.0.0' })).toThrow();

    const refs = (await git(['ls-remote', host.httpUrl])).stdout;
    expect(refs).toContain(`${feature}\trefs/heads/feature/x`);
    expect(refs).toContain(`${light}\trefs/tags/build-1`);
    expect(refs).not.toContain('refs/tags/build-1^{}');
    expect(refs).toContain(`${second}\trefs/heads/main`);
    const out = scratch();
    expect(await git(['clone', '-q', '-b', 'feature/x', host.httpUrl, out])).toMatchObject({
      code: 0,
    });
    const files = (await git(['-C', out, 'ls-files', '-s'])).stdout;
    expect(files).toMatch(/^120000 \S+ 0\tetc$/m);
    expect(files).toMatch(/\tsrc\/app\.txt$/m);
    expect(files).not.toMatch(/\tVERSION$/m);
    // Branched from main: its history is main's and then this commit.
    expect((await git(['-C', out, 'rev-parse', 'HEAD~1'])).stdout.trim()).toBe(second);
  });

  it('inflates a gzip request body (a fetch with many haves)', async () => {
    const out = scratch();
    expect(await git(['init', '-q', out])).toMatchObject({ code: 0 });
    // A hundred local commits the host does not have: every negotiation round sends more
    // haves, and git gzips a request over 1 KiB.
    const stream = Array.from(
      { length: 100 },
      (_, i) =>
        `commit refs/heads/local\ncommitter L <l@example.com> ${1_700_000_000 + i} +0000\ndata 4\nc${String(i).padStart(2, '0')}\n\n`,
    ).join('');
    execFileSync('git', ['-C', out, 'fast-import', '--quiet'], { input: stream, env });
    const trace = `${out}.trace`;
    const fetch = await git(['-C', out, 'fetch', '-q', host.httpUrl, second], {
      GIT_TRACE_CURL: trace,
      GIT_TRACE_CURL_NO_DATA: '1',
    });
    expect(fetch).toMatchObject({ code: 0 });
    expect((await git(['-C', out, 'rev-parse', 'FETCH_HEAD'])).stdout.trim()).toBe(second);
    expect(readFileSync(trace, 'utf8')).toMatch(/Send header: Content-Encoding: gzip/i);
  });
});
