/**
 * Brings a server's edge proxy to the configuration on stdin, over SSH, idempotently. Arguments:
 * the edge network, the container's name, the image, the configuration's directory on the
 * server, the `-p` mappings (comma-separated), the name and PEM of the ACME CA's root file (two
 * empty arguments when there is none), then a (compose project, compose service, alias) triple
 * per routed compose service. Prints `action: <what it did>` for each change; nothing
 * when the proxy already ran this configuration. A configuration Caddy refuses is never put in
 * place: the proxy keeps serving the one before.
 */
export const EDGE_SYNC_SCRIPT = `set -u
net=$1 name=$2 image=$3 dir=$4 publish=$5 root_file=$6 root_pem=$7; shift 7
umask 022
next="$dir/caddy.json.next.$$"
mkdir -p "$dir" && cat > "$next" || exit
# Named after its content: written once, before the configuration that names it is loaded.
if [ -n "$root_file" ] && [ ! -f "$dir/$root_file" ]; then
  printf '%s' "$root_pem" > "$dir/$root_file.next.$$" && mv "$dir/$root_file.next.$$" "$dir/$root_file" || exit
fi
admin() { docker exec "$name" caddy reload --config /etc/slipway-edge/caddy.json --address unix//run/caddy-admin.sock "$@"; }
start() {
  set -- ; old_ifs=$IFS; IFS=,; for p in $publish; do set -- "$@" -p "$p"; done; IFS=$old_ifs
  docker run -d --name "$name" --restart unless-stopped --network "$net" "$@" \\
    --label slipway.edge=1 -v "$dir":/etc/slipway-edge:ro \\
    -v slipway-edge-data:/data -v slipway-edge-config:/config \\
    "$image" caddy run --config /etc/slipway-edge/caddy.json >/dev/null
}
ready() {
  i=0; until admin >/dev/null 2>&1; do
    i=$((i + 1)); [ "$i" -ge 20 ] && { echo "the edge proxy did not come up" >&2; docker logs --tail 20 "$name" >&2; return 1; }
    sleep 0.5; done
}
state=$(docker inspect -f '{{.State.Running}} {{.Config.Image}}' "$name" 2>/dev/null) || state=missing
# A running proxy is on its network: only otherwise is the network looked for (one docker call
# less on the path of a deployment's switch).
[ "$state" = "true $image" ] || docker network inspect "$net" >/dev/null 2>&1 || {
  docker network create "$net" >/dev/null || exit; echo "action: network-created"; }
if [ "$state" = "true $image" ]; then
  if ! cmp -s "$next" "$dir/caddy.json" 2>/dev/null; then
    # Loaded from where it was written: a configuration Caddy refuses never takes the place of
    # the one it runs (which a restart reads).
    out=$(docker exec "$name" caddy reload --config "/etc/slipway-edge/\${next##*/}" --address unix//run/caddy-admin.sock 2>&1) || {
      printf '%s\n' "$out" | tail -5 >&2; rm -f "$next"; exit 1; }
    mv "$next" "$dir/caddy.json" || exit
    echo "action: reloaded"
  fi
else
  mv "$next" "$dir/caddy.json" || exit
  case $state in
    missing) start || exit; echo "action: started" ;;
    "false $image") docker start "$name" >/dev/null || exit; echo "action: restarted" ;;
    *) docker rm -f "$name" >/dev/null && start || exit; echo "action: upgraded" ;;
  esac
  ready || exit
fi
rm -f "$next"
while [ $# -ge 3 ]; do
  project=$1 service=$2 alias=$3; shift 3
  for c in $(docker ps -q --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$service"); do
    nets=" $(docker inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' "$c") "
    case $nets in *" $net "*) ;; *)
      docker network connect --alias "$alias" "$net" "$c" || exit
      echo "action: connected $project/$service" ;;
    esac
  done
done`;
