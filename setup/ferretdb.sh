#!/usr/bin/env bash
# A local MongoDB-compatible server without a MongoDB download: FerretDB v1 on
# SQLite, for the playbooks that run with --uri (and for the integration
# tests, through tests/servers/ferretdb.sh). `setup/ferretdb.sh --help` is the
# user's guide; this header is for whoever changes the script.
#
# The server is built once from the Go module proxy into .tools/ferretdb (a
# copy is kept in the user's cache for new clones); each start gets a fresh
# data folder under TMPDIR, which stop deletes. One server per state folder
# (DBA_LAB_FERRETDB_STATE, default .tools/ferretdb/run): the test runner gives
# each run its own.
set -euo pipefail
# shellcheck source=setup/require-bash.sh
. "$(dirname "$0")/require-bash.sh"
dba_lab_require_bash "setup/ferretdb.sh" 1

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly VERSION="v1.24.2"
readonly HOME_DIR="${ROOT}/.tools/ferretdb"
readonly BINARY="${HOME_DIR}/ferretdb-${VERSION}"
readonly STATE="${DBA_LAB_FERRETDB_STATE:-${HOME_DIR}/run}"
readonly ME="setup/ferretdb.sh"

die() {
  printf '%s: %s\n' "$ME" "$*" >&2
  exit 1
}

usage_error() {
  printf '%s: %s (see %s --help)\n' "$ME" "$*" "$ME" >&2
  exit 2
}

usage() {
  cat <<EOF
Usage: ${ME} start [--port N] | uri | stop | build | --help

A local MongoDB-compatible server for the playbooks' --uri, when no MongoDB can be downloaded.

  start [--port N]  start it on 127.0.0.1 (a free port, or N); prints its URI on stdout.
                    Already running: prints that server's URI.
  uri               print the running server's URI
  stop              stop it and delete its data
  build             only build it (start builds it when needed)

What it is: FerretDB ${VERSION}, an open-source server that speaks MongoDB's wire protocol
and keeps its data in SQLite. It is not MongoDB: no replica set, oplog, change streams,
setParameter, transactions or sharding, and its speed is its own. The first start builds it
from the Go module proxy (Go 1.24+ and the network, about 2 minutes) into .tools/ferretdb/;
later starts take a second.

Playbooks that run there (each --help has a "Where it runs" section):
  uri=\$(${ME} start)
  playbooks/mongodump-raw-bson.sh --uri "\$uri" --scale tiny
  playbooks/capped-pubsub.sh --uri "\$uri" --scale tiny --compare none
  ${ME} stop
Their reports name FerretDB and judge each claim with no prediction (the predictions are
MongoDB's); the claims that need a replica set, sharding or a restart are NOT APPLICABLE.
array-push-oplog needs a replica set (it stops at its preflight, exit 3); change-stream-resume
and routing-refresh launch their own cluster and refuse --uri.

Where things live: the data in a new folder under \$TMPDIR at each start, deleted
by stop; the pid, port, log and data folder's name in the state folder
(DBA_LAB_FERRETDB_STATE chooses another). It listens on 127.0.0.1 only, without
authentication. On this machine:
  \$TMPDIR  ${TMPDIR:-/tmp}
  state    ${STATE}

Exit codes: 0 done, 1 failure (said on stderr, with what to do), 2 usage error.
EOF
}

# The module zip lacks the generated build/version/version.txt that the
# version package embeds, so the source is copied and the file written
# before building (docs/mongodb-facts.md#ferretdb-build).
build() {
  [[ -x "$BINARY" ]] && return 0
  mkdir -p "$HOME_DIR"
  if from_user_cache; then return 0; fi
  command -v go >/dev/null 2>&1 \
    || die "go not found: FerretDB is built once, from the Go module proxy, which needs Go 1.24+ (https://go.dev/dl/) and the network"
  local src work
  work=$(mktemp -d "${HOME_DIR}/build.XXXXXX")
  printf '%s: building FerretDB %s from the Go module proxy (about 2 minutes the first time)\n' "$ME" "$VERSION" >&2
  if ! src=$(cd "$work" && go mod download -json "github.com/FerretDB/FerretDB@${VERSION}" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p') || [[ -z "$src" ]]; then
    rm -rf "$work"
    die "could not download github.com/FerretDB/FerretDB@${VERSION} (check GOPROXY and the network)"
  fi
  cp -R "$src" "${work}/src"
  chmod -R u+w "${work}/src"
  printf '%s\n' "$VERSION" >"${work}/src/build/version/version.txt"
  if ! (cd "${work}/src" && GOFLAGS=-buildvcs=false go build -trimpath -o "${work}/ferretdb" ./cmd/ferretdb) >"${HOME_DIR}/build.log" 2>&1; then
    rm -rf "$work"
    die "building FerretDB failed (log: ${HOME_DIR}/build.log)"
  fi
  mv "${work}/ferretdb" "$BINARY"
  rm -rf "$work"
  to_user_cache
}

# A built server is kept beside the user's other build caches (Go's own is
# there too), so a new clone of the checkout, as CI makes for every run, does
# not compile FerretDB again: that took 2 min 13 s of the suite's wall time,
# on the path every integration test waits on. Each copy is written under a
# temporary name and renamed, so a build that stops halfway leaves none.
USER_CACHE=''
if [[ -n "${XDG_CACHE_HOME:-}" ]]; then USER_CACHE="${XDG_CACHE_HOME}/dba-lab"; elif [[ -n "${HOME:-}" ]]; then USER_CACHE="${HOME}/.cache/dba-lab"; fi
readonly USER_CACHE
cached_binary() {
  printf '%s/ferretdb-%s-%s-%s' "$USER_CACHE" "$VERSION" "$(uname -s)" "$(uname -m)"
}

from_user_cache() {
  local cached tmp
  [[ -n "$USER_CACHE" ]] || return 1
  cached=$(cached_binary)
  [[ -x "$cached" ]] || return 1
  "$cached" --version >/dev/null 2>&1 || return 1
  tmp=$(mktemp "${HOME_DIR}/ferretdb.XXXXXX")
  cp "$cached" "$tmp" && chmod +x "$tmp" && mv "$tmp" "$BINARY"
}

to_user_cache() {
  local cached tmp
  [[ -n "$USER_CACHE" ]] || return 0
  cached=$(cached_binary)
  mkdir -p "$USER_CACHE" 2>/dev/null || return 0
  tmp=$(mktemp "${cached}.XXXXXX" 2>/dev/null) || return 0
  if cp "$BINARY" "$tmp" && chmod +x "$tmp"; then mv "$tmp" "$cached"; else rm -f "$tmp"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

running_pid() {
  local pid
  [[ -f "${STATE}/pid" ]] || return 1
  pid=$(cat "${STATE}/pid")
  kill -0 "$pid" 2>/dev/null || return 1
  printf '%s\n' "$pid"
}

uri() {
  running_pid >/dev/null || die "not running (start it with ${ME} start)"
  printf 'mongodb://127.0.0.1:%s/\n' "$(cat "${STATE}/port")"
}

# forget: deletes what a server left, its data folder only when it is one
# that start made (the state file could name any path).
forget() {
  local data
  if [[ -f "${STATE}/data" ]]; then
    data=$(cat "${STATE}/data")
    [[ "$data" == */dba-lab-ferretdb.* ]] && rm -rf "$data"
  fi
  rm -rf "$STATE"
}

start() {
  local want="${1:-}" port debug_port data pid i
  if pid=$(running_pid); then
    port=$(cat "${STATE}/port")
    if [[ -n "$want" && "$want" != "$port" ]]; then
      die "already running on port ${port}, not ${want} (pid ${pid}): stop it first with ${ME} stop"
    fi
    printf '%s: already running (pid %s); its URI:\n' "$ME" "$pid" >&2
    uri
    return
  fi
  # Checked before a build: two minutes of compiling end in the same refusal.
  if [[ -n "$want" ]] && port_open "$want"; then
    die "port ${want} on 127.0.0.1 is in use (another server?): choose another --port, or leave --port out for a free one"
  fi
  build
  # A server that ended without stop (a reboot, kill -9) left its state and data.
  forget
  port=${want:-$(free_port)}
  debug_port=$(free_port)
  mkdir -p "$STATE"
  data=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-ferretdb.XXXXXX")
  printf '%s\n' "$data" >"${STATE}/data"
  printf '%s\n' "$port" >"${STATE}/port"
  "$BINARY" --handler=sqlite --sqlite-url="file:${data}/" --state-dir="$data" \
    --listen-addr="127.0.0.1:${port}" --debug-addr="127.0.0.1:${debug_port}" \
    --telemetry=disable --log-level=warn >"${STATE}/log" 2>&1 </dev/null &
  pid=$!
  printf '%s\n' "$pid" >"${STATE}/pid"
  for ((i = 0; i < 100; i++)); do
    if port_open "$port"; then
      printf '%s: FerretDB %s on 127.0.0.1:%s (pid %s, data in %s); stop it with %s stop\n' \
        "$ME" "$VERSION" "$port" "$pid" "$data" "$ME" >&2
      uri
      return
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  # Another program can take a free port between the check and the bind.
  if grep -q 'address already in use' "${STATE}/log" 2>/dev/null; then
    stop_pid "$pid"
    forget
    die "port ${port} on 127.0.0.1 was taken before FerretDB could listen on it: choose another --port, or leave --port out for a free one"
  fi
  cp "${STATE}/log" "${HOME_DIR}/last-failed-start.log" 2>/dev/null || true
  stop_pid "$pid"
  forget
  die "FerretDB did not start listening on 127.0.0.1:${port} (its log: ${HOME_DIR}/last-failed-start.log)"
}

# stop_pid PID: TERM, up to 5 s to exit, then KILL.
stop_pid() {
  local pid="$1" i
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  local pid
  if ! pid=$(running_pid); then
    if [[ -e "$STATE" ]]; then
      forget
      die "not running: it had already stopped; what it left (its data folder) is deleted"
    fi
    die "not running: nothing to stop"
  fi
  stop_pid "$pid"
  forget
}

main() {
  local cmd="${1:-}" port=''
  (($#)) && shift
  case "$cmd" in
    start)
      while (($#)); do
        case "$1" in
          --port)
            (($# > 1)) || usage_error "--port needs a number"
            port=$2
            shift 2
            ;;
          --port=*) port=${1#--port=}; shift ;;
          *) usage_error "start takes only --port N, got '$1'" ;;
        esac
      done
      if [[ -n "$port" ]] && { [[ ! "$port" =~ ^[0-9]{1,5}$ ]] || ((10#$port < 1024 || 10#$port > 65535)); }; then
        usage_error "--port must be a number from 1024 to 65535, got '${port}'"
      fi
      [[ -z "$port" ]] || port=$((10#$port))
      start "$port"
      ;;
    build|uri|stop)
      (($# == 0)) || usage_error "${cmd} takes no arguments"
      "$cmd"
      ;;
    -h|--help|help) usage ;;
    '') usage >&2; exit 2 ;;
    *) usage_error "unknown command '${cmd}'" ;;
  esac
}

main "$@"
