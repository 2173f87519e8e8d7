#!/usr/bin/env bash
# A real wire-protocol server for integration tests: FerretDB v1 on SQLite.
#
#   tests/servers/ferretdb.sh build   build .tools/ferretdb/ferretdb once (Go module proxy)
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
  sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# The module zip lacks the generated build/version/version.txt that the
# version package embeds, so the source is copied and the file written
# before building (docs/mongodb-facts.md#ferretdb-build).
build() {
  [[ -x "$BINARY" ]] && return 0
  command -v go >/dev/null 2>&1 || die "go not found: FerretDB is built from the Go module proxy (install Go 1.22+)"
  mkdir -p "$HOME_DIR"
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
