/**
 * The server side of a gapless deployment, as constant shell scripts: every value is an argument.
 * They share `$dir` (the deployment's directory) and keep, per compose service, the ids of the
 * containers that ran before (`gapless/<service>.old`) and of those this deployment started
 * (`gapless/<service>.new`), so each step finds what the one before it did.
 */

/** `dc`: docker compose on the deployment's project, as the other steps run it. */
const COMPOSE = `dc() { docker compose --project-name "$project" --project-directory "$dir" -f "$dir/compose.yaml" --env-file "$dir/.env" "$@"; }`;

/**
 * `$1` dir, `$2` project, `$3` the edge network, then `<compose service>=<count>` pairs: starts
 * `count` new containers of each (the replicas the new definition asks for; 0: as many as are
 * running, at least one) beside the old ones, with the new definition; the old ones are not
 * touched (--no-recreate). Prints `new <service> <container name> <address on the edge
 * network>` for each.
 */
export const START_NEW = `dir=$1 project=$2 net=$3; shift 3
${COMPOSE}
mkdir -p "$dir/gapless" || exit
for pair in "$@"; do
  s=\${pair%=*} want=\${pair##*=}
  dc ps -q --all "$s" > "$dir/gapless/$s.old" || exit
  all=$(wc -l < "$dir/gapless/$s.old")
  [ "$want" -gt 0 ] || want=$(dc ps -q "$s" | wc -l)
  [ "$want" -gt 0 ] || want=1
  dc up -d --no-deps --no-recreate --scale "$s=$((all + want))" "$s" || exit
  dc ps -q --all "$s" | grep -vxF -f "$dir/gapless/$s.old" > "$dir/gapless/$s.new"
  [ -s "$dir/gapless/$s.new" ] || { echo "no new container of $s started" >&2; exit 1; }
  for c in $(cat "$dir/gapless/$s.new"); do
    docker inspect -f 'new '"$s"' {{.Name}} {{(index .NetworkSettings.Networks "'"$net"'").IPAddress}}' "$c" | sed 's| /| |'
  done
done`;

/**
 * `$1` dir, `$2` project, then compose services: removes the containers this deployment started
 * (those not in the old list), whatever step it stopped at.
 */
export const REMOVE_NEW = `dir=$1 project=$2; shift 2
${COMPOSE}
for s in "$@"; do
  [ -f "$dir/gapless/$s.old" ] || continue
  new=$(dc ps -q --all "$s" | grep -vxF -f "$dir/gapless/$s.old")
  [ -z "$new" ] || docker rm -f $new >/dev/null || exit
  echo "removed the new containers of $s"
done`;

/**
 * `$1` limit in seconds, `$2` dir, then compose services: waits until every new container runs
 * and its health check (if any) passed; fails at once on one that exited or is unhealthy.
 */
export const WAIT_NEW_HEALTHY = `limit=$1 dir=$2; shift 2
waited=0
while :; do
  bad= starting=
  for s in "$@"; do
    for c in $(cat "$dir/gapless/$s.new"); do
      st=$(docker inspect -f '{{.State.Status}}/{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$c") || exit
      case $st in running/healthy|running/) ;; running/starting) starting=1 ;; *) bad="$bad $s:$st" ;; esac
    done
  done
  [ -z "$bad" ] || { echo "unhealthy:$bad" >&2; exit 1; }
  [ -n "$starting" ] || break
  [ "$waited" -lt "$limit" ] || { echo "health checks still starting after $waited s" >&2; exit 1; }
  sleep 1; waited=$((waited + 1))
  echo "health checks still starting after $waited s" >&2
done
echo "new containers running and healthy"`;

/**
 * `$1` tries, `$2` dir, `$3` the edge network, `$4` path, `$5` 1: only 2xx/3xx passes (the
 * service's health check URL), 0: any answer below 500; then (compose service, port, domain)
 * triples: the request names the routed domain as its Host, as the proxy's requests will.
 * Asks each new container directly at its address on the edge network (what the proxy will
 * dial), from the server, once a second until it passes or the tries run out.
 */
export const PROBE_NEW = `tries=$1 dir=$2 net=$3 path=$4 strict=$5; shift 5
passes() { case $1 in [23]??) return 0 ;; 4??) [ "$strict" = 0 ] ;; *) return 1 ;; esac; }
while [ $# -ge 3 ]; do
  s=$1 port=$2 domain=$3; shift 3
  for c in $(cat "$dir/gapless/$s.new"); do
    ip=$(docker inspect -f '{{(index .NetworkSettings.Networks "'"$net"'").IPAddress}}' "$c") || exit
    url="http://$ip:$port$path" n=0
    until status=$(curl -gs -o /dev/null -w '%{http_code}' --max-time 5 --proto =http --max-redirs 0 -H "Host: $domain" "$url"); passes "$status"; do
      n=$((n + 1))
      [ "$n" -lt "$tries" ] || { echo "$s at $url answered \${status:-nothing}" >&2; exit 1; }
      sleep 1
    done
    echo "$s at $url answered $status"
  done
done`;

/**
 * `$1` seconds to stop, `$2` dir, then compose services: stops and removes the containers that
 * ran before this deployment.
 */
export const RETIRE_OLD = `grace=$1 dir=$2; shift 2
for s in "$@"; do
  old=$(cat "$dir/gapless/$s.old")
  [ -n "$old" ] || continue
  # One removed by hand meanwhile is no failure: the new version serves either way.
  docker stop -t "$grace" $old >/dev/null 2>&1
  docker rm -f $old >/dev/null 2>&1
  left=$(docker ps -aq --no-trunc | grep -F -f "$dir/gapless/$s.old")
  [ -z "$left" ] || { echo "could not remove old containers of $s: $left" >&2; exit 1; }
  echo "retired $(echo $old | wc -w) old container(s) of $s"
done`;
