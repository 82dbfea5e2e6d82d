import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLoopbackSshd } from '../fixtures/loopback-sshd.js';
import { HTTP_BACKEND, startGitHttpBackend } from './git-http-backend.js';

const DEFAULT_BRANCH = 'main';
/** Every commit and tag the host makes names this committer, so only content and time vary. */
const COMMITTER = { name: 'Slipway Test Git Host', email: 'git-host@slipway.test' };
const DEFAULT_AUTHOR = 'Test Author <author@example.com>';
/** An OpenSSH public key line: type, base64 blob, optional comment; nothing before or after. */
const PUBLIC_KEY =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-\S+) [A-Za-z0-9+/]+=*( [^\r\n]*)?$/;

export interface GitCommitOptions {
  /** The branch the commit goes on (created from the default branch's tip if new); `main`. */
  branch?: string;
  /** Files written (path relative to the repository root -> contents) over the branch's tree. */
  files: Record<string, string>;
  message: string;
  /** `Name <email>`; a fixed test author when unset. */
  author?: string;
  /**
   * Makes the commit reachable only from this new tag: its parent is `branch`'s tip (or the
   * default branch's), and no branch moves. Refused when the tag exists.
   */
  tag?: string;
  /** `annotated` (as `git tag -a`, the message as the tag's, the default) or `lightweight`. */
  tagKind?: 'annotated' | 'lightweight';
  /** Paths (among `files` or already in the tree) given mode 100755. */
  executable?: string[];
  /** Symbolic links committed as such: path -> target, kept as given (it may point anywhere). */
  symlinks?: Record<string, string>;
  /** Paths removed from the tree. */
  remove?: string[];
}

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
  /** Every request the HTTP server saw, as its path and query, refused ones included. */
  httpRequests(): string[];
  stop(): Promise<void>;
}

/** What the host's own git commands run with: no user or system config, no inherited GIT_*. */
function hermeticEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C',
  };
}

/**
 * `path` inside the work tree `root`, refused when it would leave it: absolute, `..`, `.git`, or
 * under a directory that is a symbolic link (a link committed earlier may point anywhere).
 */
function inside(root: string, path: string): string {
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git'))
    throw new Error(`git host: not a path inside the repository: ${JSON.stringify(path)}`);
  for (let i = 1; i < parts.length; i++) {
    const ancestor = join(root, ...parts.slice(0, i));
    if (lstatSync(ancestor, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new Error(
        `git host: ${path} is under the symbolic link ${parts.slice(0, i).join('/')}`,
      );
  }
  return join(root, ...parts);
}

function parseAuthor(author: string): { name: string; email: string } {
  const match = /^(.+?)\s*<([^<>]*)>$/.exec(author.trim());
  if (!match) throw new Error(`git host: author must be "Name <email>": ${author}`);
  return { name: match[1], email: match[2] };
}

/**
 * A real git host on loopback: one bare repository, read over SSH by OpenSSH's sshd (keys
 * authorized through `authorize`, each confined to git-shell) and over HTTP by
 * git-http-backend, which a node:http server runs as CGI. Fetching any commit by SHA is
 * allowed (`uploadpack.allowReachableSHA1InWant`, `allowAnySHA1InWant`), as GitHub, GitLab and
 * Gitea allow a shallow fetch of one commit. The HTTP server runs on this process's event loop:
 * run clients against it asynchronously (execFile, not execFileSync).
 */
export async function startGitHost(options: { name?: string } = {}): Promise<GitHost> {
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

  const committerEnv = {
    GIT_COMMITTER_NAME: COMMITTER.name,
    GIT_COMMITTER_EMAIL: COMMITTER.email,
  };

  const commit = (o: GitCommitOptions): string => {
    const branch = o.branch ?? DEFAULT_BRANCH;
    if (o.tag !== undefined) git(work, ['check-ref-format', `refs/tags/${o.tag}`]);
    git(work, ['check-ref-format', `refs/heads/${branch}`]);
    git(work, [
      'fetch',
      '-q',
      '--prune',
      'origin',
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
    ]);
    const tip = (b: string) =>
      tryGit(work, ['rev-parse', '-q', '--verify', `refs/remotes/origin/${b}^{commit}`]);
    const parent = tip(branch) ?? tip(DEFAULT_BRANCH);
    if (parent) git(work, ['checkout', '-q', '-f', '--detach', parent]);
    else git(work, ['read-tree', '--empty']);
    git(work, ['clean', '-q', '-f', '-d', '-x']);
    for (const path of o.remove ?? []) rmSync(inside(work, path), { recursive: true, force: true });
    // Whatever was at a path is replaced, never written through (it may be a link).
    for (const [path, contents] of Object.entries(o.files)) {
      const file = inside(work, path);
      mkdirSync(dirname(file), { recursive: true });
      rmSync(file, { recursive: true, force: true });
      writeFileSync(file, contents, { mode: 0o644 });
    }
    for (const [path, target] of Object.entries(o.symlinks ?? {})) {
      const link = inside(work, path);
      mkdirSync(dirname(link), { recursive: true });
      rmSync(link, { recursive: true, force: true });
      symlinkSync(target, link);
    }
    for (const path of o.executable ?? []) {
      const file = inside(work, path);
      if (!lstatSync(file).isFile()) throw new Error(`git host: ${path} is not a regular file`);
      chmodSync(file, 0o755);
    }
    // What the caller lists is what is committed, whatever a committed .gitignore says.
    git(work, ['add', '-A', '-f']);
    const tree = git(work, ['write-tree']);
    const author = parseAuthor(o.author ?? DEFAULT_AUTHOR);
    const identity = {
      ...committerEnv,
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
    };
    const sha = git(
      work,
      ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', o.message],
      identity,
    );
    if (o.tag === undefined) {
      git(work, ['push', '-q', 'origin', `${sha}:refs/heads/${branch}`]);
    } else if ((o.tagKind ?? 'annotated') === 'annotated') {
      git(work, ['tag', '-a', '-m', o.message, o.tag, sha], committerEnv);
      git(work, ['push', '-q', 'origin', `refs/tags/${o.tag}`]);
    } else {
      git(work, ['push', '-q', 'origin', `${sha}:refs/tags/${o.tag}`]);
    }
    return sha;
  };

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

  // HTTP: git-http-backend as CGI (git-http-backend.ts).
  let token: string | null = null;
  const requests: string[] = [];
  const http = await startGitHttpBackend(reposDir, () => token, requests).catch(
    async (error: unknown) => {
      await sshd.stop();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    },
  );
  const httpPort = (http.address() as AddressInfo).port;

  return {
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
    stop: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await sshd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
