import type { DeploymentGitBuild } from '../events/deployments.events.js';
import type { GitSourceData } from '../events/git-sources.events.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { REFUSE_LINKS_OUT } from './checkout-links.js';
import type { DeploymentStep, RemoteStep } from './deployment-step.js';

/**
 * Fetches one commit of a repository into a clean directory and builds its image, on the server,
 * unless the server has that image already (a rollback, a retry): then nothing is fetched.
 *
 * Arguments: $1 the deployment's directory, $2 the repository's address, $3 the commit, $4 the
 * context path, $5 the Dockerfile, $6 the image to tag, $7 ssh|https, $8 host, $9 port, $10 the
 * pinned host key (SSH), $11 a ref that holds the commit (a pull request's head), or empty, $12
 * the repository's compose file to keep as `repository-compose.yaml` in $1, or empty (with one,
 * an image already there is not built again, but the commit is still fetched for the file; the
 * checkout is kept in $1/git/src for the file's services that build; and a repository with no
 * Dockerfile where the source says builds only those).
 * Standard input: the deploy key (SSH) or `user:token` (HTTPS), or
 * nothing. The credential lives in a 0600 file or the git process's environment, never on a
 * command line, and is removed when the script exits, whatever the outcome.
 *
 * Over SSH the host's keys are scanned and only a key with the pinned fingerprint is trusted
 * (StrictHostKeyChecking): a host presenting another key is refused before anything is read.
 * The commit is fetched alone (`--depth 1`, as GitHub, GitLab and Gitea allow); a server that
 * refuses a want by id is fetched by the ref that holds the commit, or in full (any other failure is shown and ends the build), and
 * the checkout must be the commit asked for.
 * BuildKit builds when the server's docker has it (buildx), the engine's build cache kept
 * between builds; the classic builder otherwise.
 */
const GIT_BUILD = `set -eu
dir=$1 url=$2 commit=$3 context=$4 dockerfile=$5 image=$6 transport=$7 host=$8 port=$9 pin=\${10}
fetchref=\${11:-} composefile=\${12:-}
built=
if docker image inspect --format '{{.Id}}' "$image" >/dev/null 2>&1; then
  echo "$image is on this server already: not built again"
  if [ -z "$composefile" ]; then cat >/dev/null; exit 0; fi
  built=yes
fi
if [ "$transport" = gone ]; then
  cat >/dev/null
  echo "the service no longer follows $url: nothing to build from" >&2
  exit 1
fi
work="$dir/git"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work/.cred"' EXIT
mkdir -m 700 "$work/.cred"
(umask 077 && cat > "$work/.cred/secret")
export GIT_TERMINAL_PROMPT=0 GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
if [ "$transport" = ssh ]; then
  ssh-keyscan -T 10 -p "$port" -- "$host" 2>/dev/null > "$work/.cred/scanned" || true
  : > "$work/.cred/known_hosts"
  while IFS= read -r line; do
    fp=$(printf '%s\\n' "$line" | ssh-keygen -lf - 2>/dev/null | awk '{print $2}')
    [ "$fp" = "$pin" ] && printf '%s\\n' "$line" >> "$work/.cred/known_hosts"
  done < "$work/.cred/scanned"
  if [ ! -s "$work/.cred/known_hosts" ]; then
    echo "the repository host $host:$port does not present the pinned key $pin" >&2
    exit 1
  fi
  echo "repository host key $pin"
  export GIT_SSH_COMMAND="ssh -i '$work/.cred/secret' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile='$work/.cred/known_hosts' -o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=15"
elif [ -s "$work/.cred/secret" ]; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraHeader
  GIT_CONFIG_VALUE_0="Authorization: Basic $(base64 -w0 < "$work/.cred/secret")"
  export GIT_CONFIG_VALUE_0
fi
git init -q "$work/src"
cd "$work/src"
git remote add origin "$url"
if ! git fetch -q --depth 1 origin "$commit" 2> "$work/.cred/fetch-error"; then
  if grep -qiE 'unadvertised object|not our ref|does not allow request' "$work/.cred/fetch-error"; then
    if [ -n "$fetchref" ]; then
      echo "the repository does not serve a commit alone: fetching $fetchref"
      git fetch -q origin "$fetchref"
    else
      echo "the repository does not serve a commit alone: fetching it whole"
      git fetch -q origin
    fi
  else
    cat "$work/.cred/fetch-error" >&2
    if grep -qiE 'terminal prompts disabled|authentication failed|permission denied|403' "$work/.cred/fetch-error"; then
      echo "the repository refused the source's credentials" >&2
    fi
    exit 1
  fi
fi
git -c advice.detachedHead=false checkout -q --detach "$commit"
[ "$(git rev-parse HEAD)" = "$commit" ] || { echo "checked out $(git rev-parse HEAD), not $commit" >&2; exit 1; }
rm -rf "$work/.cred"
echo "checked out $commit"
( set -- "$work/src"
${REFUSE_LINKS_OUT}
) || exit 1
if [ -n "$composefile" ]; then
  # The repository's file itself, inside the checkout: never through a link to elsewhere.
  real=$(realpath -e -- "$work/src/$composefile" 2>/dev/null) || real=
  case $real in
    "$work/src/"*) [ -f "$real" ] && [ ! -L "$work/src/$composefile" ] || real= ;;
    *) real= ;;
  esac
  [ -n "$real" ] || { echo "the repository has no file $composefile at $commit" >&2; exit 1; }
  cp -- "$real" "$dir/repository-compose.yaml"
  echo "kept $composefile of $commit"
fi
# With a compose file, the checkout stays for its services' builds (removed after them).
done_here() { cd "$dir"; [ -n "$composefile" ] || rm -rf "$work"; exit 0; }
[ -z "$built" ] || done_here
if [ -n "$composefile" ] && [ ! -f "$work/src/$context/$dockerfile" ]; then
  echo "no $dockerfile in $context at $commit: only the compose file's services are built"
  done_here
fi
cd "$work/src/$context"
# BuildKit's plain progress is a line per event; the classic builder takes no --progress.
if docker buildx version >/dev/null 2>&1; then
  export DOCKER_BUILDKIT=1
  set -- --progress=plain
else
  export DOCKER_BUILDKIT=0
  set --
fi
docker build "$@" -f "$dockerfile" -t "$image" \\
  --label "org.opencontainers.image.revision=$commit" . 2>&1
done_here`;

/** What the runner reads for a build: the source's credentials, unsealed only to be sent. */
export interface GitBuildAccess {
  /** `gone`: the source was removed or points elsewhere; only an image already built runs. */
  transport: GitSourceData['transport'] | 'gone';
  host: string;
  port: number;
  hostKeyFingerprint: string | null;
  /** Standard input of the build: the private key, `user:token`, or empty. */
  secret: string;
}

/**
 * The source's current credentials for a build of `git`; `gone` when the service no longer
 * follows that repository (removed, or pointed elsewhere since the deployment was asked for):
 * a rollback to an image the server still has runs, anything else fails saying so.
 */
export function gitBuildAccess(
  source: GitSourceData | null,
  git: DeploymentGitBuild,
  box: SecretBox,
): GitBuildAccess {
  if (!source || source.repository !== git.repository)
    return { transport: 'gone', host: '', port: 0, hostKeyFingerprint: null, secret: '' };
  const secret = source.deployKey
    ? `${box.open(source.deployKey.privateKeyCiphertext).trimEnd()}\n`
    : source.token
      ? `${source.token.username}:${box.open(source.token.ciphertext)}`
      : '';
  return {
    transport: source.transport,
    host: source.host,
    port: source.port,
    hostKeyFingerprint: source.hostKeyFingerprint,
    secret,
  };
}

/**
 * What a commit's deployment runs before its compose steps: the build (on the build server when
 * there is one), then the image pushed to its repository from there, or copied to the
 * deployment's server; nothing more when it was built there.
 */
export function gitSteps(
  git: DeploymentGitBuild,
  imageRef: string,
  dir: string,
  access: GitBuildAccess,
  limitSeconds: number,
): DeploymentStep[] {
  const on = git.buildServerId ? ({ on: 'builder' } as const) : {};
  const build = { ...gitBuildStep(git, imageRef, dir, access, limitSeconds), ...on };
  if (git.pushImage)
    return [build, { name: 'push-image', args: pushArgs(imageRef, !!git.composeFile), ...on }];
  return git.buildServerId ? [build, { name: 'transfer-image', local: 'transfer-image' }] : [build];
}

/** With a compose file, the commit's own image is built only when the repository has its Dockerfile. */
function pushArgs(imageRef: string, composeFile: boolean): string[] {
  if (!composeFile) return ['docker', 'push', '--', imageRef];
  const script =
    'docker image inspect -- "$1" >/dev/null 2>&1 || { echo "$1 was not built: nothing to push"; exit 0; }; docker push -- "$1"';
  return ['sh', '-c', script, 'slipway', imageRef];
}

/** coreutils' `timeout` exits with this when the command ran out of time. */
export const TIMED_OUT = 124;

/**
 * The step that fetches and builds a deployment's commit in `dir/git` on the server, stopped
 * (TERM, then KILL 10 s later) after `limitSeconds` however much it prints.
 */
export function gitBuildStep(
  git: DeploymentGitBuild,
  imageRef: string,
  dir: string,
  access: GitBuildAccess,
  limitSeconds: number,
): RemoteStep {
  return {
    name: 'build',
    exitReasons: { [TIMED_OUT]: `the build ran over its time limit of ${limitSeconds} s` },
    args: [
      'timeout',
      '-k',
      '10',
      String(limitSeconds),
      'sh',
      '-c',
      GIT_BUILD,
      'slipway',
      dir,
      git.repository,
      git.commit,
      git.contextPath,
      git.dockerfile,
      imageRef,
      access.transport,
      access.host,
      String(access.port),
      access.hostKeyFingerprint ?? '',
      git.fetchRef ?? '',
      git.composeFile ?? '',
    ],
    stdin: access.secret,
  };
}
