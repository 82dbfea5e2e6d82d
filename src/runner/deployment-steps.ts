import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { PinnedProbe } from '../deployments/reach/health-check-url.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { runningVariables } from '../deployments/compose-reading/compose-variables.js';
import { composeForDeployment } from './compose-image.js';
import { composeProject } from '../deployments/compose-project.js';
import { UNPACK_CONTEXT } from './context-unpack.js';
import type { DeploymentStep, LocalStep, RemoteStep } from './deployment-step.js';
import { gaplessSteps, upTargets } from './edge/gapless-steps.js';
import { gitSteps, type GitBuildAccess } from './git-build-step.js';

export type { DeploymentStep, LocalStep, RemoteStep } from './deployment-step.js';

/** Writes stdin to `$2` under `$1` (a checked relative path: no `..`, no leading `/`). */
const WRITE_FILE = 'umask 077 && mkdir -p "$(dirname -- "$1/$2")" && cat > "$1/$2"';

/** The steps that bring an uploaded build context and intake files to the directory. */
function contextSteps(
  deployment: DeploymentDoc,
  dir: string,
  localContext: string | null,
): RemoteStep[] {
  const context = deployment.snapshot.context;
  if (!context || !localContext) return [];
  return [
    {
      name: 'upload-context',
      args: ['sh', '-c', 'umask 077 && mkdir -p "$1"', 'slipway', dir],
      upload: { localPath: localContext, remotePath: `${dir}/context.tar.gz` },
    },
    { name: 'unpack-context', args: ['sh', '-c', UNPACK_CONTEXT, 'slipway', dir, context.sha256] },
  ];
}

/** Where a deployment's files are on its server (and on its build server). */
export function deploymentDir(remoteDir: string, deployment: DeploymentDoc): string {
  return `${remoteDir}/${composeProject(deployment.serviceName, deployment.environment)}/${deployment.id}`;
}

/** `docker compose` on a deployment's project, with the compose file and `.env` in its `dir`. */
export function deploymentCompose(project: string, dir: string): string[] {
  return [
    'docker',
    'compose',
    '--project-name',
    project,
    '--project-directory',
    dir,
    '-f',
    `${dir}/compose.yaml`,
    '--env-file',
    `${dir}/.env`,
  ];
}

/** `KEY="value"` lines for compose's --env-file, escaped so values stay literal. */
export function envFile(deployment: DeploymentDoc, box: SecretBox): string {
  return deployment.snapshot.env
    .map((v) => {
      const value = v.secretCiphertext ? box.open(v.secretCiphertext) : (v.value ?? '');
      const escaped = value
        .replace(/\\/g, '\\\\')
        .replace(/"/g, '\\"')
        .replace(/\$/g, '$$$$')
        .replace(/\n/g, '\\n');
      return `${v.name}="${escaped}"\n`;
    })
    .join('');
}

function composeHealth(stdout: string[]): string | null {
  const containers = stdout
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as { Name?: string; State?: string; Health?: string });
  if (containers.length === 0) return 'no container is running';
  const bad = containers.filter(
    (c) =>
      c.State !== 'running' ||
      (c.Health !== undefined && c.Health !== '' && c.Health !== 'healthy'),
  );
  return bad.length
    ? `unhealthy: ${bad.map((c) => `${c.Name} ${c.State}${c.Health ? `/${c.Health}` : ''}`).join(', ')}`
    : null;
}

/**
 * Runs the command given after the limit (`docker compose ps`) until no container's health check
 * is still starting, or the limit in seconds has passed, then prints its last output. `up -d`
 * returns as soon as the containers are started: a health check reports `starting` until its
 * first success (or its start period and retries run out), and a container that exits at start
 * may still be running. A line on stderr each second is the watchdog's sign of progress.
 */
const WAIT_FOR_HEALTH = `limit=$1; shift; waited=0
while out=$("$@") || exit; do
  case $out in *'"Health":"starting"'*) ;; *) break ;; esac
  [ "$waited" -ge "$limit" ] && break
  sleep 1; waited=$((waited + 1))
  echo "health checks still starting after $waited s" >&2
done
printf '%s\n' "$out"`;

/**
 * The remote work of a compose deployment. Every value travels as its own quoted argument or on
 * stdin; the only shell scripts are constants, which take the directory (or a number) as `$1`.
 * The health step waits for starting health checks at most the step timeout.
 */
/**
 * After `up`, when routed compose services were recreated in place: they are dialled by their
 * edge alias again (their addresses pinned by an earlier gapless deployment are gone).
 */
const UNPIN: LocalStep = { name: 'edge-unpin', local: 'unpin' };

export function deploymentSteps(
  deployment: DeploymentDoc,
  runner: { remoteDir: string; stepTimeoutSeconds: number; buildTimeoutSeconds: number },
  box: SecretBox,
  probe: PinnedProbe | null = null,
  /** The uploaded build context's tarball on the control plane, when the deployment has one. */
  localContext: string | null = null,
  /** The git source's credentials, when the deployment builds a commit. */
  gitAccess: GitBuildAccess | null = null,
): DeploymentStep[] {
  const git = deployment.snapshot.git ?? null;
  if (git && !gitAccess) throw new Error('a deployment of a commit needs its source’s access');
  const building = !!deployment.snapshot.context;
  const { remoteDir } = runner;
  const project = composeProject(deployment.serviceName, deployment.environment);
  const dir = deploymentDir(remoteDir, deployment);
  const compose = deploymentCompose(project, dir);
  const edge = deployment.snapshot.routes?.length
    ? gaplessSteps(deployment, dir, project, runner)
    : { before: [], after: [], services: [] };
  const steps: DeploymentStep[] = [
    // A commit is built first: the image it makes is the one the compose file runs.
    ...(git && gitAccess
      ? gitSteps(git, deployment.imageRef, dir, gitAccess, runner.buildTimeoutSeconds)
      : []),
    ...contextSteps(deployment, dir, localContext),
    git?.composeFile
      ? { name: 'write-compose', local: 'repository-compose' }
      : {
          name: 'write-compose',
          args: [
            'sh',
            '-c',
            'umask 077 && mkdir -p "$1" && cat > "$1/compose.yaml"',
            'slipway',
            dir,
          ],
          stdin: composeForDeployment(
            deployment.snapshot.compose,
            runningVariables(deployment.snapshot.env, (sealed) => box.open(sealed)),
            deployment.imageRef,
            { project, routes: deployment.snapshot.routes ?? [] },
            git !== null && git.pushImage !== true,
          ),
        },
    ...(deployment.snapshot.files ?? []).map((file) => ({
      name: 'write-file',
      args: ['sh', '-c', WRITE_FILE, 'slipway', dir, file.path],
      stdin: file.contents,
    })),
    {
      name: 'write-env',
      args: ['sh', '-c', 'umask 077 && cat > "$1/.env"', 'slipway', dir],
      stdin: envFile(deployment, box),
    },
    // With a context, the services that build are built on the server, not pulled.
    { name: 'pull', args: [...compose, 'pull', ...(building ? ['--ignore-buildable'] : [])] },
    ...(building ? [{ name: 'build', args: [...compose, 'build'] }] : []),
    // Routed compose services that can go beside their running version do so first.
    ...edge.before,
    ...edge.after,
    {
      name: 'up',
      args: [...compose, 'up', '-d', '--remove-orphans', ...upTargets(deployment, edge.services)],
    },
    ...((deployment.snapshot.routes ?? []).some((r) => !edge.services.includes(r.service))
      ? [UNPIN]
      : []),
    {
      name: 'health',
      args: [
        'sh',
        '-c',
        WAIT_FOR_HEALTH,
        'slipway',
        String(runner.stepTimeoutSeconds),
        ...compose,
        'ps',
        '--all',
        '--format',
        'json',
      ],
      check: composeHealth,
    },
  ];
  if (probe) {
    // Silent (no -S): curl's error text would tell refused from timed out to every reader of
    // the log. Only http(s), no redirects, and the address checked by the policy (--resolve).
    steps.push({
      name: 'http-probe',
      args: [
        'curl',
        '-fs',
        '--proto',
        '=http,https',
        '--max-redirs',
        '0',
        '--max-time',
        '10',
        ...(probe.resolve ? ['--resolve', probe.resolve] : []),
        '-o',
        '/dev/null',
        '--',
        probe.url,
      ],
    });
  }
  steps.push({
    name: 'record-digest',
    args: ['docker', 'compose', '--project-name', project, 'images', '--format', 'json'],
  });
  return steps;
}

/** The image ID of the deployed repository's container, from `docker compose images --format json`. */
export function digestFrom(stdout: string[], imageRef: string): string | null {
  try {
    const rows = JSON.parse(stdout.join('\n')) as { Repository?: string; ID?: string }[];
    const repo = imageRef.split('@')[0].replace(/:[^/:]+$/, '');
    return rows.find((r) => r.Repository === repo)?.ID ?? rows[0]?.ID ?? null;
  } catch {
    return null;
  }
}
