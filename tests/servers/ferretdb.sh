#!/usr/bin/env bash
# A real wire-protocol server for integration tests: FerretDB v1 on SQLite.
#
#   tests/servers/ferretdb.sh build   build .tools/ferretdb/ferretdb once (Go module proxy;
#                                     the user's cache keeps a copy for new clones)
#   tests/servers/ferretdb.sh start   start on a free loopback port; prints the URI
#   tests/servers/ferretdb.sh uri     print the URI of the running server
#   tests/servers/ferretdb.sh stop    stop it and delete its data
#
# FerretDB is a test stand-in only: no change streams, oplog, replica set
# commands, setParameter, transactions or sharding. Product code targets
# MongoDB and must not special-case it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly VERSION="v1.24.2"
readonly HOME_DIR="${ROOT}/.tools/ferretdb"
readonly BINARY="${HOME_DIR}/ferretdb-${VERSION}"
# One running instance per checkout; its pid, port and data dir live here.
readonly STATE="${DBA_LAB_FERRETDB_STATE:-${HOME_DIR}/run}"

die() {
  printf 'ferretdb.sh: %s\n' "$*" >&2
  exit 1
}

usage() {
  sed -n '2,12s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# The module zip lacks the generated build/version/version.txt that the
# version package embeds, so the source is copied and the file written
# before building (docs/mongodb-facts.md#ferretdb-build).
build() {
  [[ -x "$BINARY" ]] && return 0
  mkdir -p "$HOME_DIR"
  if from_user_cache; then return 0; fi
  command -v go >/dev/null 2>&1 || die "go not found: FerretDB is built from the Go module proxy (install Go 1.22+)"
  local src work
  work=$(mktemp -d "${HOME_DIR}/build.XXXXXX")
  printf 'ferretdb.sh: building FerretDB %s from the Go module proxy (about 2 minutes the first time)\n' "$VERSION" >&2
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
  running_pid >/dev/null || die "not running (tests/servers/ferretdb.sh start)"
  printf 'mongodb://127.0.0.1:%s/\n' "$(cat "${STATE}/port")"
}

start() {
  if running_pid >/dev/null; then
    uri
    return
  fi
  build
  local port debug_port data pid i
  port=$(free_port)
  debug_port=$(free_port)
  rm -rf "$STATE"
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
      uri
      return
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  stop
  die "FerretDB did not start listening on 127.0.0.1:${port} (log: ${STATE}/log)"
}

stop() {
  local pid data i
  if pid=$(running_pid); then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  if [[ -f "${STATE}/data" ]]; then
    data=$(cat "${STATE}/data")
    [[ "$data" == */dba-lab-ferretdb.* ]] && rm -rf "$data"
  fi
  rm -rf "$STATE"
}

main() {
  case "${1:-}" in
    build) build ;;
    start) start ;;
    uri) uri ;;
    stop) stop ;;
    -h|--help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

main "$@"
