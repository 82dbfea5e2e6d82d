import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import { composeProject } from '../deployments/compose-project.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import type { RemoteStep } from './deployment-step.js';

/**
 * How many deployment directories of a compose project stay on its server after a deployment
 * succeeded: its own and those of the two deployments that succeeded before it. Nothing reads
 * an older directory again (a rollback writes a directory of its own; jobs and gapless switches
 * use the running deployment's), but what the containers wrote in its relative bind mounts
 * (`./data`) is there: a few are kept for a person to copy from; more would only grow the disk.
 */
export const DIRECTORIES_KEPT = 3;

/**
 * `$1` the compose project's directory, `$2` the project, `$3` the deployment that succeeded,
 * then the other deployments whose directories are kept. In every other directory, `.env` and
 * `compose.yaml` (which hold the variables with secrets opened) are removed; a directory neither
 * kept nor mounted by a container of the project (one compose did not recreate, a job's) is
 * removed whole. Nothing here fails the deployment, which serves already: what could not be
 * removed is said, and tried again after the next one.
 */
const PRUNE_OLDER = `base=$1 project=$2 current=$3; shift 3
[ -d "$base/$current" ] || { echo "no directory $current in $base: nothing removed" >&2; exit 0; }
cd -- "$base" || exit 0
logical=$(pwd -L) physical=$(pwd -P)
if ids=$(docker ps -aq --no-trunc --filter "label=com.docker.compose.project=$project") &&
  mounts=$(if [ -n "$ids" ]; then docker inspect -f '{{range .Mounts}}{{println .Source}}{{end}}' $ids; fi)
then :; else
  echo "could not read what the containers mount: no directory removed whole" >&2
  mounts=
  unknown=1
fi
mounted() {
  [ -z "\${unknown:-}" ] || return 0
  printf '%s\\n' "$mounts" | (
    while IFS= read -r m; do
      for d in "$logical/$1" "$physical/$1"; do
        case $m in "$d" | "$d"/*) exit 0 ;; esac
      done
    done
    exit 1
  )
}
for path in "$base"/*; do
  id=\${path##*/}
  [ "$id" != "$current" ] && [ -d "$path" ] && [ ! -L "$path" ] || continue
  keep=
  for k in "$@"; do [ "$k" != "$id" ] || keep=1; done
  if [ -z "$keep" ] && ! mounted "$id"; then
    if rm -rf -- "$path"; then echo "removed $id"; else echo "could not remove all of $id" >&2; fi
  elif [ -e "$path/.env" ] || [ -e "$path/compose.yaml" ]; then
    if rm -f -- "$path/.env" "$path/compose.yaml"; then echo "removed the secrets of $id"
    else echo "could not remove the secrets of $id" >&2; fi
  fi
done
exit 0`;

/** The deployments that succeeded before this one on its server, newest first, whose directories stay. */
export async function olderDirectoriesKept(
  reads: ReadStore,
  deployment: DeploymentDoc,
): Promise<string[]> {
  const { items } = await reads.collection<DeploymentDoc>('deployments').find(
    {
      serviceId: deployment.serviceId,
      serverId: deployment.serverId,
      status: 'succeeded',
      order: { $lt: deployment.order },
    },
    { sort: { order: -1 }, limit: DIRECTORIES_KEPT - 1 },
  );
  return items.map((d) => d.id);
}

/**
 * The last step of a deployment, run once every other step succeeded: the compose project's
 * other deployment directories lose their secrets, and the older ones go (PRUNE_OLDER). A
 * deployment that fails never gets here, so the directory of the one still running stays.
 */
export function pruneOlderStep(
  remoteDir: string,
  deployment: DeploymentDoc,
  kept: readonly string[],
): RemoteStep {
  const project = composeProject(deployment.serviceName, deployment.environment);
  return {
    name: 'prune-older',
    args: [
      'sh',
      '-c',
      PRUNE_OLDER,
      'slipway',
      `${remoteDir}/${project}`,
      project,
      deployment.id,
      ...kept,
    ],
  };
}
