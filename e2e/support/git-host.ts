import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoopbackSshd } from '../fixtures/loopback-sshd.js';
import {
  DEFAULT_BRANCH,
  gitCommitter,
  hermeticEnv,
  type GitCommitOptions,
} from './git-host-commits.js';
import {
  HTTP_BACKEND,
  startGitHttpBackend,
  testCertificates,
  type GitHttpRequest,
} from './git-http-backend.js';

/** An OpenSSH public key line: type, base64 blob, optional comment; nothing before or after. */
const PUBLIC_KEY =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-\S+) [A-Za-z0-9+/]+=*( [^\r\n]*)?$/;

export interface GitHost {
  /** The bare repository's name, without `.git`. */
  name: string;
  /** `main`: what the repository's HEAD names. */
  defaultBranch: string;
  /** ssh://<user>@127.0.0.1:<port><absolute path of the bare repository> */
  sshUrl: string;
  /** http://127.0.0.1:<port>/<name>.git, served by git http-backend (reads only). */
  httpUrl: string;
  sshHost: string;
  sshPort: number;
  /** The account the SSH server lets in (the user running the tests). */
  sshUser: string;
  /** `SHA256:...` of the SSH server's host key. */
  fingerprint: string;
  /** `[127.0.0.1]:<port> ssh-ed25519 AAAA...`: the host key pinned, for a known_hosts file. */
  knownHostsLine: string;
  /** The bare repository on disk. */
  repoPath: string;
  /**
   * Lets this OpenSSH public key line read (and push) over SSH, restricted to git-shell: no
   * shell, no pty, no forwarding. Refuses anything but one public key line.
   */
  authorize(publicKey: string): void;
  /** Commits from a scratch clone and updates the bare repository; returns the commit's SHA. */
  commit(options: GitCommitOptions): string;
  /**
   * HTTP basic auth required from now on when set (any user, the token as password); null lets
   * anyone read.
   */
  requireToken(token: string | null): void;
  /** Every request the HTTP (and HTTPS) servers saw, as path and query, refused ones included. */
  httpRequests(): string[];
  /**
   * Every request the HTTP and HTTPS servers saw: method, path, the basic-auth user presented
   * and whether it was let in (never the password).
   */
  httpLog(): GitHttpRequest[];
  stop(): Promise<void>;
}

/** A git host started with `tls: true`: the same repository over HTTPS as well. */
export interface TlsGitHost extends GitHost {
  /** https://127.0.0.1:<port>/<name>.git: git-http-backend behind node:https, same token. */
  httpsUrl: string;
  /**
   * The test CA (PEM) that signed the HTTPS certificate (for IP 127.0.0.1), made at start: what
   * a client trusts to read over HTTPS (GIT_SSL_CAINFO, http.sslCAInfo).
   */
  caFile: string;
}

/**
 * A real git host on loopback: one bare repository, read over SSH by OpenSSH's sshd (keys
 * authorized through `authorize`, each confined to git-shell) and over HTTP by
 * git-http-backend, which a node:http server runs as CGI. Fetching any commit by SHA is
 * allowed (`uploadpack.allowReachableSHA1InWant`, `allowAnySHA1InWant`), as GitHub, GitLab and
 * Gitea allow a shallow fetch of one commit. With `tls: true` the same backend is served over
 * node:https too (`httpsUrl`), with a certificate for 127.0.0.1 signed by a CA made at start
 * (`caFile`), which clients must be told to trust. The HTTP servers run on this process's event
 * loop: run clients against them asynchronously (execFile, not execFileSync).
 */
export async function startGitHost(options: { name?: string; tls: true }): Promise<TlsGitHost>;
export async function startGitHost(options?: { name?: string; tls?: false }): Promise<GitHost>;
export async function startGitHost(
  options: { name?: string; tls?: boolean } = {},
): Promise<GitHost | TlsGitHost> {
  if (!existsSync(HTTP_BACKEND))
    throw new Error(`${HTTP_BACKEND} not found: install git (scripts/test-prerequisites.sh does)`);
  const name = options.name ?? 'app';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.endsWith('.git'))
    throw new Error(`git host: a repository name without .git: ${name}`);
  const dir = mkdtempSync(join(tmpdir(), 'slipway-git-'));
  chmodSync(dir, 0o755);
  const reposDir = join(dir, 'repos');
  const repoPath = join(reposDir, `${name}.git`);
  const work = join(dir, 'work');
  const env = hermeticEnv(dir);
  const git = (cwd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): string =>
    execFileSync('git', args, {
      cwd,
      env: { ...env, ...extraEnv },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  const tryGit = (cwd: string, args: string[]): string | null => {
    try {
      return git(cwd, args);
    } catch {
      return null;
    }
  };

  mkdirSync(reposDir);
  git(dir, ['init', '-q', '--bare', '-b', DEFAULT_BRANCH, repoPath]);
  // A shallow fetch of one commit by SHA, as the big hosts allow (protocol v0 asks for these;
  // v2 serves any SHA the repository has).
  git(repoPath, ['config', 'uploadpack.allowReachableSHA1InWant', 'true']);
  git(repoPath, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  // Reads only over HTTP, even for an authenticated user (REMOTE_USER would enable pushes).
  git(repoPath, ['config', 'http.receivepack', 'false']);
  git(dir, ['clone', '-q', repoPath, work]);

  const commit = gitCommitter(work, git, tryGit);

  // SSH: a key authorized here runs nothing but git-shell, which runs only git-upload-pack,
  // git-receive-pack and git-upload-archive on the path the client names. AcceptEnv lets the
  // client ask for protocol v2, as over HTTP (the Git-Protocol header).
  const sshd = await startLoopbackSshd({
    authorizedKeys: [],
    config: ['AcceptEnv GIT_PROTOCOL'],
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const hostKey = readFileSync(join(sshd.dir, 'host_ed25519.pub'), 'utf8').trim().split(' ');
  const authorize = (publicKey: string): void => {
    const line = publicKey.trim();
    if (!PUBLIC_KEY.test(line))
      throw new Error(`git host: not one OpenSSH public key line: ${line}`);
    appendFileSync(
      sshd.authorizedKeysFile,
      `restrict,command="git-shell -c \\"$SSH_ORIGINAL_COMMAND\\"" ${line}\n`,
    );
  };

  // HTTP, and HTTPS when asked: git-http-backend as CGI (git-http-backend.ts), one token.
  let token: string | null = null;
  const requests: string[] = [];
  const log: GitHttpRequest[] = [];
  const servers: Awaited<ReturnType<typeof startGitHttpBackend>>[] = [];
  const closeServers = async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  const tlsDir = join(dir, 'tls');
  try {
    servers.push(await startGitHttpBackend(reposDir, () => token, requests, { log }));
    if (options.tls) {
      mkdirSync(tlsDir);
      testCertificates(tlsDir);
      const tls = {
        key: readFileSync(join(tlsDir, 'key.pem'), 'utf8'),
        cert: readFileSync(join(tlsDir, 'cert.pem'), 'utf8'),
      };
      servers.push(await startGitHttpBackend(reposDir, () => token, requests, { tls, log }));
    }
  } catch (error) {
    await closeServers();
    await sshd.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const [httpPort, httpsPort] = servers.map((server) => (server.address() as AddressInfo).port);

  const host: GitHost = {
    name,
    defaultBranch: DEFAULT_BRANCH,
    sshUrl: `ssh://${sshd.user}@${sshd.host}:${sshd.port}${repoPath}`,
    httpUrl: `http://127.0.0.1:${httpPort}/${name}.git`,
    sshHost: sshd.host,
    sshPort: sshd.port,
    sshUser: sshd.user,
    fingerprint: sshd.fingerprint,
    knownHostsLine: `[${sshd.host}]:${sshd.port} ${hostKey[0]} ${hostKey[1]}`,
    repoPath,
    authorize,
    commit,
    requireToken: (value) => {
      token = value;
    },
    httpRequests: () => [...requests],
    httpLog: () => log.map((entry) => ({ ...entry })),
    stop: async () => {
      await closeServers();
      await sshd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (!options.tls) return host;
  return {
    ...host,
    httpsUrl: `https://127.0.0.1:${httpsPort}/${name}.git`,
    caFile: join(tlsDir, 'ca.pem'),
  };
}
