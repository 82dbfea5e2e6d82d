/**
 * Shell lines run over SSH for named-volume backups. Names are never spliced into the text: the
 * compose project, the volume and the image are the script's positional parameters (`$1`...),
 * quoted by the session like every argument.
 *
 * The volume is found by Compose's own labels, so a volume given its own `name:` is found too.
 */
const FIND_VOLUME =
  'v=$(docker volume ls -q --filter "label=com.docker.compose.project=$1" --filter "label=com.docker.compose.volume=$2"); ' +
  '[ -n "$v" ] || { echo "no volume $2 in compose project $1" >&2; exit 3; }';

/** A tar of the volume on standard output, read-only, from a container without a network. */
export const VOLUME_BACKUP = `${FIND_VOLUME}; exec docker run --rm --network none -v "$v:/volume:ro" "$3" tar -C /volume -cf - .`;

/**
 * The tar on standard input replaces the volume's content: the containers that use the volume
 * are stopped first and started again after, whatever the outcome.
 */
export const VOLUME_RESTORE =
  `${FIND_VOLUME}; ids=$(docker ps -q --filter "volume=$v"); ` +
  '[ -z "$ids" ] || docker stop $ids >/dev/null; ' +
  `docker run --rm -i --network none -v "$v:/volume" "$3" sh -c 'cd /volume && rm -rf ./* ./.[!.]* ./..?* && tar -xf -'; ` +
  'code=$?; [ -z "$ids" ] || docker start $ids >/dev/null; exit $code';

/**
 * A restore test: the artifact on standard input of a one-shot container (`$1` its name, `$2`
 * the image, the test command after), without a network, with a scratch file system at
 * /restore; never the service's volumes.
 */
export const RESTORE_TEST =
  'name=$1; image=$2; shift 2; exec docker run --rm -i --network none --tmpfs /restore --name "$name" "$image" "$@"';

/** What a volume backup is test-restored with, when its schedule names no test: it unpacks. */
export const VOLUME_RESTORE_TEST = ['tar', '-C', '/restore', '-xf', '-'];
