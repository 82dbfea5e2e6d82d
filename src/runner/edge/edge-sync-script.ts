/**
 * Brings a server's edge proxy to the configuration on stdin, over SSH, idempotently. Arguments:
 * the edge network, the container's name, the image, the configuration's directory on the
 * server, the `-p` mappings (comma-separated), the name and PEM of the ACME CA's root file (two
 * empty arguments when there is none), the upstream slot files (a `<file> <host>` line each),
 * then a (compose project, compose service, alias) triple per routed compose service. Prints
 * `action: <what it did>` for each change; nothing when the proxy already ran this configuration
 * and dialled these hosts. A configuration Caddy refuses is never put in place: the proxy keeps
 * serving the one before, and the hosts it dialled.
 */
export const EDGE_SYNC_SCRIPT = `set -u
net=$1 name=$2 image=$3 dir=$4 publish=$5 root_file=$6 root_pem=$7 upstreams=$8; shift 8
umask 022
next="$dir/caddy.json.next.$$"
ups="$dir/upstreams"
mkdir -p "$dir" "$ups" && cat > "$next" || exit
# Named after its content: written once, before the configuration that names it is loaded.
if [ -n "$root_file" ] && [ ! -f "$dir/$root_file" ]; then
  printf '%s' "$root_pem" > "$dir/$root_file.next.$$" && mv "$dir/$root_file.next.$$" "$dir/$root_file" || exit
fi
# The hosts the proxy dials, read by Caddy at each request: a slot file that is not there yet is
# written before a configuration names it; one that is there is rewritten (the switch, by rename,
# so a request reads the old host or the new) once the configuration that reads it is loaded.
put() { printf '%s\\n' "$2" > "$ups/$1.next.$$" && mv "$ups/$1.next.$$" "$ups/$1"; }
switched=0 keep=" "
write_upstreams() {
  while read -r file host; do
    [ -n "$file" ] || continue
    keep="$keep$file "
    if [ ! -f "$ups/$file" ]; then put "$file" "$host" || return 1
    elif [ "$1" = all ] && [ "$(cat "$ups/$file")" != "$host" ]; then
      put "$file" "$host" || return 1; switched=1
    fi
  done <<UPSTREAMS
$upstreams
UPSTREAMS
}
write_upstreams new || exit
admin() { docker exec "$name" caddy reload --config /etc/slipway-edge/caddy.json --address unix//run/caddy-admin.sock "$@"; }
start() {
  set -- ; old_ifs=$IFS; IFS=,; for p in $publish; do set -- "$@" -p "$p"; done; IFS=$old_ifs
  # Connections queued on a listener a reload closes move to the new one (Linux 5.14 and later).
  [ -f /proc/sys/net/ipv4/tcp_migrate_req ] && set -- "$@" --sysctl net.ipv4.tcp_migrate_req=1
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
# The upstream slot files are read with {file.*}, which Caddy has since 2.8: an older image would
# dial the placeholder's text. It is refused, and not left running.
recent() {
  v=$(docker exec "$name" caddy version 2>/dev/null) || v=unknown
  case $v in v2.[0-7].* | 2.[0-7].* | unknown)
    echo "the edge proxy's image runs Caddy $v; Slipway needs Caddy 2.8 or later" >&2
    docker rm -f "$name" >/dev/null 2>&1; return 1 ;;
  esac
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
  ready && recent || exit
fi
rm -f "$next"
write_upstreams all || exit
[ "$switched" = 1 ] && echo "action: switched"
# Slots no configuration names any more (a route or a replica gone).
for f in "$ups"/*; do
  n=\${f##*/}
  case $n in *.next.*) continue ;; esac
  case $keep in *" $n "*) ;; *) [ -f "$f" ] && rm -f "$f" ;; esac
done
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
