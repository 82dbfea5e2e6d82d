import { chmodSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const DEFAULT_BRANCH = 'main';
/** Every commit and tag the host makes names this committer, so only content and time vary. */
const COMMITTER = { name: 'Slipway Test Git Host', email: 'git-host@slipway.test' };
const DEFAULT_AUTHOR = 'Test Author <author@example.com>';

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
  /**
   * Makes the commit reachable only from this full ref, moved there whatever it held, as a
   * provider keeps a pull request's head (`refs/pull/7/head`, a fork's too): its parent is
   * `branch`'s tip, and no branch moves.
   */
  ref?: string;
  /** `annotated` (as `git tag -a`, the message as the tag's, the default) or `lightweight`. */
  tagKind?: 'annotated' | 'lightweight';
  /** Paths (among `files` or already in the tree) given mode 100755. */
  executable?: string[];
  /** Symbolic links committed as such: path -> target, kept as given (it may point anywhere). */
  symlinks?: Record<string, string>;
  /** Paths removed from the tree. */
  remove?: string[];
}

/** What the host's own git commands run with: no user or system config, no inherited GIT_*. */
export function hermeticEnv(home: string): NodeJS.ProcessEnv {
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

type Git = (cwd: string, args: string[], extraEnv?: NodeJS.ProcessEnv) => string;

/**
 * Commits into the host's repository from the scratch clone `work`: the files given over the
 * branch's tree (a new branch starts from the default branch's tip), with a fixed committer,
 * pushed to the bare repository; the commit's id.
 */
export function gitCommitter(
  work: string,
  git: Git,
  tryGit: (cwd: string, args: string[]) => string | null,
): (o: GitCommitOptions) => string {
  const committerEnv = {
    GIT_COMMITTER_NAME: COMMITTER.name,
    GIT_COMMITTER_EMAIL: COMMITTER.email,
  };

  return (o: GitCommitOptions): string => {
    const branch = o.branch ?? DEFAULT_BRANCH;
    if (o.tag !== undefined) git(work, ['check-ref-format', `refs/tags/${o.tag}`]);
    if (o.ref !== undefined) git(work, ['check-ref-format', o.ref]);
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
    if (o.ref !== undefined) {
      git(work, ['push', '-q', 'origin', `+${sha}:${o.ref}`]);
    } else if (o.tag === undefined) {
      git(work, ['push', '-q', 'origin', `${sha}:refs/heads/${branch}`]);
    } else if ((o.tagKind ?? 'annotated') === 'annotated') {
      git(work, ['tag', '-a', '-m', o.message, o.tag, sha], committerEnv);
      git(work, ['push', '-q', 'origin', `refs/tags/${o.tag}`]);
    } else {
      git(work, ['push', '-q', 'origin', `${sha}:refs/tags/${o.tag}`]);
    }
    return sha;
  };
}
