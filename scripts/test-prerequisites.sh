#!/usr/bin/env bash
# What the end-to-end tests need besides npm packages: a real OpenSSH server and ssh-keygen
# (the tests start sshd on loopback), Debian's chromium for the dashboard's browser tests
# (driven by playwright-core; no browser is downloaded), and a real Docker engine
# (scripts/docker-engine.sh: Debian's docker.io, docker-registry and busybox-static, and the
# Compose v2 and buildx plugins), and git (the test git host, e2e/support/git-host.ts, serves
# through git-shell behind that sshd and through git-http-backend), and PostgreSQL's server
# binaries (the PostgreSQL stores' suites initdb a cluster of their own), and iproute2 and
# util-linux's setpriv (the fault suite runs PostgreSQL, the replicas and the worker as hosts in
# network namespaces of its own; it needs root, as the CI runs), and rsyslog with its OpenSSL
# TLS driver, rsyslog-openssl (e2e/support/rsyslog.ts runs rsyslogd as a syslog-over-TLS
# receiver with a configuration of its own; the system daemon the package starts is stopped).
# Installed here when missing and this is root with apt-get; otherwise the test command stops at
# once with the command that would. The engine itself is started by the first suite that needs it.
set -euo pipefail
missing=()
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
[ -x "${SLIPWAY_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x /usr/lib/git-core/git-http-backend ] && command -v git-shell >/dev/null 2>&1 || missing+=(git)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
[ -x /usr/sbin/rsyslogd ] || missing+=(rsyslog)
compgen -G '/usr/lib/*/rsyslog/lmnsd_ossl.so' >/dev/null || missing+=(rsyslog-openssl)
if [ ${#missing[@]} -gt 0 ]; then
  install="apt-get install -y ${missing[*]}"
  why="a real sshd for the runner's tests, chromium for the dashboard's, git for the git host, PostgreSQL for the stores' (each suite starts a cluster of its own), iproute2 for the fault suite's hosts, rsyslog with TLS for the syslog receiver"
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "npm test needs ${missing[*]} ($why). Install with:" >&2
    echo "  sudo $install" >&2
    exit 1
  fi
  echo "npm test: installing ${missing[*]} ($why)" >&2
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    echo "Could not install ${missing[*]}; run as root: $install" >&2
    exit 1
  fi
  # Installing rsyslog starts the system daemon where services may start; the tests run their
  # own rsyslogd, so a freshly installed one is stopped (and, under systemd, not started again).
  if [[ " ${missing[*]} " == *" rsyslog "* ]]; then
    if [ -d /run/systemd/system ]; then
      systemctl disable --now rsyslog.service syslog.socket >/dev/null 2>&1 || true
    fi
    start-stop-daemon --stop --quiet --oknodo --pidfile /run/rsyslogd.pid --exec /usr/sbin/rsyslogd || true
  fi
fi
bash "$(dirname "$0")/docker-engine.sh" install
