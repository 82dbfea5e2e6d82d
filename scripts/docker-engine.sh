#!/usr/bin/env bash
# A real Docker engine for the end-to-end tests, all from Debian's packages and all on loopback:
#   - dockerd (docker.io, engine 20.10) started by hand with its own data root, exec root, pidfile
#     and socket; --iptables=false --ip-masq=false --ip-forward=false and no default bridge, so
#     containers reach nothing but the ports they publish on 127.0.0.1;
#   - Compose v2 as a CLI plugin in $DOCKER_CONFIG/cli-plugins, unpacked from Debian trixie's
#     docker-compose package (Debian 12 ships only Compose v1), fetched with apt through a private
#     source list, state and cache that name the machine's own Debian mirror;
#   - buildx as a CLI plugin beside it, from Debian's docker-buildx package (trixie, else forky;
#     Debian 12 ships none): a docker client of 23 or later builds with BuildKit only through
#     buildx and refuses `docker build` without it;
#   - docker-registry serving on 127.0.0.1 (a loopback registry needs no TLS: dockerd treats
#     127.0.0.0/8 as insecure by default);
#   - small images built FROM scratch with busybox-static (e2e/fixtures/docker-images), pushed
#     to that registry as <registry>/acme/api:1.0.0, :1.1.0, :exits and :slow;
#   - the edge proxy's image, Caddy 2.11 (Debian forky's caddy, fetched like Compose; Debian 12
#     ships 2.6, older than the 2.8 the edge needs) in a scratch image, pushed as
#     <registry>/slipway/caddy:2;
#   - pebble (Debian's ACME test CA and its DNS server, pebble-challtestsrv) for the TLS suite,
#     which starts them itself.
#
#   docker-engine.sh install            install what is missing (root), or print the command
#   docker-engine.sh start [--owner ID] start engine and registry if not running, build and push
#                                       the images, write the env file and print its path
#   docker-engine.sh stop [--owner ID]  stop both by pid; with --owner only if ID started them
#   docker-engine.sh status             running or not (exit 0 / 1)
#
# State lives in $SLIPWAY_DOCKER_DIR (default /tmp/slipway-docker); the env file there names
# DOCKER_HOST, DOCKER_CONFIG and SLIPWAY_TEST_REGISTRY.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${SLIPWAY_DOCKER_DIR:-/tmp/slipway-docker}"
RUN="$DIR/run"
SOCK="$RUN/docker.sock"
CONFIG="$DIR/config"
PLUGIN="$CONFIG/cli-plugins/docker-compose"
BUILDX="$CONFIG/cli-plugins/docker-buildx"
CADDY="$DIR/bin/caddy"
ENV_FILE="$DIR/env"
PACKAGES=(docker.io docker-registry busybox-static pebble)
export PATH="/usr/sbin:/usr/bin:/sbin:/bin:$PATH"
# Debian's client (20.10, like the engine), never another docker earlier on PATH.
DOCKER=/usr/bin/docker

say() { echo "docker-engine: $*" >&2; }

missing_packages() {
  local missing=() package
  for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  echo "${missing[@]}"
}

# The machine's own Debian mirror, from its apt sources (deb822 or one-line format).
debian_mirror() {
  local mirror
  mirror=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
    grep -E '/debian/?$' | head -1 || true)
  [ -n "$mirror" ] || mirror=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
    awk '{for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /\/debian\/?$/) {print $i; exit}}' | head -1 || true)
  echo "${mirror:-http://deb.debian.org/debian}"
}

# One package's files from another Debian suite, unpacked into $2/x, fetched with apt through a
# private source list, state and cache that name the machine's own mirror (nothing installed).
fetch_deb() {
  local suite=$1 package=$2 work=$3 apt mirror
  apt="$work/apt"
  mkdir -p "$apt/lists/partial" "$apt/archives/partial"
  mirror=$(debian_mirror)
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::Archives=$apt/archives"
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq)
  say "fetching $package from Debian $suite ($mirror)"
  apt-get "${opts[@]}" update
  (cd "$work" && apt-get "${opts[@]}" download "$package")
  dpkg-deb -x "$work/${package}"_*.deb "$work/x"
}

install_compose_plugin() {
  local work
  work=$(mktemp -d)
  # Debian 12 ships only Compose v1.
  fetch_deb trixie docker-compose "$work"
  mkdir -p "$(dirname "$PLUGIN")"
  install -m 0755 "$work/x/usr/libexec/docker/cli-plugins/docker-compose" "$PLUGIN"
  rm -rf "$work"
  "$DOCKER" compose version >&2
}

# A docker client of 23 or later (a server may have one on PATH before Debian's 20.10) refuses a
# BuildKit build without buildx ("BuildKit is enabled but the buildx component is missing");
# Debian 12 has no docker-buildx package. The plugin builds through the engine's own BuildKit
# (the docker driver), so it needs no builder container.
install_buildx_plugin() {
  local work suite binary=usr/libexec/docker/cli-plugins/docker-buildx
  for suite in trixie forky; do
    work=$(mktemp -d)
    # Under `if`, set -e is off inside fetch_deb: the unpacked binary is the test.
    if fetch_deb "$suite" docker-buildx "$work" && [ -x "$work/x/$binary" ]; then break; fi
    say "no docker-buildx from Debian $suite"
    rm -rf "$work"
    work=
  done
  [ -n "$work" ] || { say "docker-buildx found in neither trixie nor forky"; return 1; }
  mkdir -p "$(dirname "$BUILDX")"
  install -m 0755 "$work/x/$binary" "$BUILDX"
  rm -rf "$work"
  "$DOCKER" buildx version >&2
}

# The edge proxy switches upstreams by rewriting files Caddy reads per request ({file.*}, Caddy
# 2.8 and later); Debian 12 and 13 ship 2.6, Debian forky ships 2.11, which runs on Debian 12.
install_caddy() {
  local work
  work=$(mktemp -d)
  fetch_deb forky caddy "$work"
  mkdir -p "$(dirname "$CADDY")"
  install -m 0755 "$work/x/usr/bin/caddy" "$CADDY"
  rm -rf "$work"
  "$CADDY" version >&2
}

cmd_install() {
  local missing
  missing=$(missing_packages)
  if [ -z "$missing" ] && [ -x "$PLUGIN" ] && [ -x "$BUILDX" ] && [ -x "$CADDY" ]; then return 0; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "the real Docker engine for the tests needs root (dockerd runs as root). Run:"
    say "  sudo bash scripts/docker-engine.sh install && sudo bash scripts/docker-engine.sh start"
    exit 1
  fi
  if [ -n "$missing" ]; then
    say "installing $missing"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -qq $missing >/dev/null
  fi
  [ -x "$PLUGIN" ] || DOCKER_CONFIG="$CONFIG" install_compose_plugin
  [ -x "$BUILDX" ] || DOCKER_CONFIG="$CONFIG" install_buildx_plugin
  [ -x "$CADDY" ] || install_caddy
}

# A pid from a pidfile, if that process is alive and is what the file says it is.
live_pid() {
  local file=$1 name=$2 pid
  [ -f "$file" ] || return 1
  pid=$(cat "$file")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$name" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$DIR" || return 1
  echo "$pid"
}

engine_up() { live_pid "$RUN/dockerd.pid" dockerd >/dev/null && DOCKER_HOST="unix://$SOCK" "$DOCKER" version >/dev/null 2>&1; }

registry_port() { [ -f "$RUN/registry.port" ] && cat "$RUN/registry.port"; }

registry_up() {
  local port
  port=$(registry_port) || return 1
  live_pid "$RUN/registry.pid" docker-registry >/dev/null &&
    curl -fsS --max-time 2 "http://127.0.0.1:$port/v2/" >/dev/null 2>&1
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local port=${SLIPWAY_DOCKER_REGISTRY_PORT:-5000}
  while port_busy "$port"; do port=$((port + 1)); done
  echo "$port"
}

wait_for() {
  local what=$1 seconds=$2 log=$3
  shift 3
  for _ in $(seq $((seconds * 10))); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  say "$what did not start within ${seconds} s; the end of $log:"
  tail -20 "$log" >&2
  return 1
}

start_engine() {
  mkdir -p "$DIR/data" "$DIR/exec" "$DIR/logs" "$RUN"
  rm -f "$SOCK" "$RUN/dockerd.pid"
  setsid dockerd \
    --data-root "$DIR/data" --exec-root "$DIR/exec" --pidfile "$RUN/dockerd.pid" \
    --host "unix://$SOCK" --iptables=false --ip-masq=false --ip-forward=false --bridge=none \
    --shutdown-timeout 2 --log-level warn \
    </dev/null >"$DIR/logs/dockerd.log" 2>&1 9>&- &
  wait_for dockerd 60 "$DIR/logs/dockerd.log" engine_up
}

start_registry() {
  local port
  port=$(free_port)
  mkdir -p "$DIR/registry" "$DIR/logs" "$RUN"
  cat >"$DIR/registry.yml" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $DIR/registry
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$port
EOF
  echo "$port" >"$RUN/registry.port"
  setsid docker-registry serve "$DIR/registry.yml" </dev/null >"$DIR/logs/registry.log" 2>&1 9>&- &
  echo $! >"$RUN/registry.pid"
  wait_for docker-registry 20 "$DIR/logs/registry.log" registry_up
}

# The images the tests deploy: busybox-static in a scratch image, /www/version naming the tag.
build_images() {
  local registry=$1 ctx tag kind
  ctx=$(mktemp -d)
  mkdir -p "$ctx/bin" "$ctx/www"
  cp /bin/busybox "$ctx/bin/busybox"
  # The applets the images and the tests use (a backup runs tar in the container).
  for applet in sh httpd wget sleep tar cat echo false true kill ls rm; do
    ln -s busybox "$ctx/bin/$applet"
  done
  echo ok >"$ctx/www/health"
  for spec in api:1.0.0 api:1.1.0 exits:exits slow:slow; do
    kind=${spec%%:*}
    tag=${spec#*:}
    echo "$tag" >"$ctx/www/version"
    DOCKER_BUILDKIT=0 "$DOCKER" build -q -f "$ROOT/e2e/fixtures/docker-images/$kind.Dockerfile" \
      -t "$registry/acme/api:$tag" "$ctx" >/dev/null
    "$DOCKER" push -q "$registry/acme/api:$tag" >/dev/null
    # Only the registry keeps it: a deployment's pull fetches it for real.
    "$DOCKER" image rm "$registry/acme/api:$tag" >/dev/null
  done
  rm -rf "$ctx"
}

# The edge proxy's image: Caddy from Debian forky (dynamically linked: the libraries and loader
# ldd names go in at the same paths), busybox for sh and cat (no wget: a static busybox resolving
# names beside the copied glibc crashes), empty /data, /config, /tmp and /etc/slipway-edge (the
# config's bind mount).
build_caddy_image() {
  local registry=$1 ctx lib image="$1/slipway/caddy:2"
  ctx=$(mktemp -d)
  mkdir -p "$ctx/bin" "$ctx/usr/bin" "$ctx/data" "$ctx/config" "$ctx/tmp" "$ctx/run" \
    "$ctx/etc/slipway-edge"
  chmod 1777 "$ctx/tmp"
  cp /bin/busybox "$ctx/bin/busybox"
  for applet in sh cat ls echo sleep true false; do
    ln -s busybox "$ctx/bin/$applet"
  done
  cp "$CADDY" "$ctx/usr/bin/caddy"
  # Nothing to copy for a static build: ldd then names no path.
  for lib in $(ldd "$CADDY" 2>/dev/null | grep -o '/[^ ]*' || true); do
    mkdir -p "$ctx$(dirname "$lib")"
    cp -L "$lib" "$ctx$lib"
  done
  DOCKER_BUILDKIT=0 "$DOCKER" build -q -f "$ROOT/e2e/fixtures/docker-images/caddy.Dockerfile" \
    -t "$image" "$ctx" >/dev/null
  "$DOCKER" push -q "$image" >/dev/null
  "$DOCKER" image rm "$image" >/dev/null
  rm -rf "$ctx"
}

cmd_start() {
  local owner=${1:-} started=0
  mkdir -p "$DIR"
  exec 9>"$DIR/lock"
  flock 9
  cmd_install
  if live_pid "$RUN/dockerd.pid" dockerd >/dev/null; then
    wait_for dockerd 60 "$DIR/logs/dockerd.log" engine_up
  else
    start_engine
    started=1
  fi
  registry_up || start_registry
  local registry="127.0.0.1:$(registry_port)"
  export DOCKER_HOST="unix://$SOCK" DOCKER_CONFIG="$CONFIG"
  build_images "$registry"
  build_caddy_image "$registry"
  # Only who started the engine may stop it with --owner; started by hand, nobody's run does.
  if [ "$started" = 1 ]; then
    if [ -n "$owner" ]; then echo "$owner" >"$RUN/owner"; else rm -f "$RUN/owner"; fi
  fi
  cat >"$ENV_FILE" <<EOF
DOCKER_HOST=unix://$SOCK
DOCKER_CONFIG=$CONFIG
SLIPWAY_TEST_REGISTRY=$registry
EOF
  echo "$ENV_FILE"
}

stop_pid() {
  local pid=$1 seconds=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  say "pid $pid did not stop within ${seconds} s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

cmd_stop() {
  local owner=${1:-} pid
  [ -d "$DIR" ] || return 0
  exec 9>"$DIR/lock"
  flock 9
  if [ -n "$owner" ] && [ "$(cat "$RUN/owner" 2>/dev/null)" != "$owner" ]; then
    return 0
  fi
  if pid=$(live_pid "$RUN/dockerd.pid" dockerd); then
    local containers
    containers=$(DOCKER_HOST="unix://$SOCK" "$DOCKER" ps -aq 2>/dev/null || true)
    # shellcheck disable=SC2086
    [ -z "$containers" ] || DOCKER_HOST="unix://$SOCK" "$DOCKER" rm -f $containers >/dev/null 2>&1 || true
    stop_pid "$pid" 30
  fi
  if pid=$(live_pid "$RUN/registry.pid" docker-registry); then stop_pid "$pid" 10; fi
  rm -f "$RUN/dockerd.pid" "$RUN/registry.pid" "$RUN/owner" "$SOCK" "$ENV_FILE"
}

cmd_status() {
  if engine_up && registry_up; then
    echo "running: DOCKER_HOST=unix://$SOCK registry 127.0.0.1:$(registry_port)"
  else
    echo "not running"
    return 1
  fi
}

owner_arg() { if [ "${1:-}" = --owner ]; then echo "${2:?--owner needs an id}"; fi; }

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start "$(owner_arg "${@:2}")" ;;
  stop) cmd_stop "$(owner_arg "${@:2}")" ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 install | start [--owner ID] | stop [--owner ID] | status" >&2
    exit 2
    ;;
esac
