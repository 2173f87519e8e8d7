#!/usr/bin/env bash
# Real MongoDB servers for the integration lane, launched through the
# playbooks' own m/mlaunch layer (playbooks/lib).
#
#   tests/servers/mongod.sh install X.Y    install MongoDB X.Y (or X.Y.Z) with m under .tools/m
#                                          (needs the network); prints its bin folder
#   tests/servers/mongod.sh bin            the bin folder of the binaries found
#   tests/servers/mongod.sh build          nothing to build: finds the binaries (exit 77 without)
#   tests/servers/mongod.sh start [LAYOUT] start LAYOUT on free loopback ports; prints its URI
#   tests/servers/mongod.sh uri [LAYOUT]   the URI of the running LAYOUT
#   tests/servers/mongod.sh stop [LAYOUT]  stop it (every layout when none is named), delete its data
#
# LAYOUT: replset (default: a one-node replica set), single, sharded (2 shards
# of one node, one config server, one mongos).
# Binaries: DBA_LAB_MONGODB_BINARIES=DIR (a folder with mongod and mongos), or
# a version m installed under .tools/m (DBA_LAB_MONGODB_VERSION=X.Y[.Z] picks
# one; default the newest). Only install downloads.
# Exit 77: no binaries on this machine, said in one line (tests/run.sh shows
# the lane as skipped, also with CI=true); 1: binaries found but unusable.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly NOT_AVAILABLE=77
# One state folder per layout: run id, data folder, port, URI.
readonly STATE_ROOT="${DBA_LAB_MONGOD_STATE:-${ROOT}/.tools/mongod-test}"

# shellcheck source=playbooks/lib/playbook.sh
source "${ROOT}/playbooks/lib/playbook.sh"

usage() {
  sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

fail() {
  printf 'mongod.sh: %s\n' "$1" >&2
  exit "${2:-1}"
}

# The framework outside pb::main: its messages on stderr (stdout is the URI),
# none of its cleanup traps (the cluster must outlive this script: only a
# start that failed stops what it launched), a work folder of our own.
framework_init() {
  PB_NAME=mongod-test
  PB_TITLE="integration test server"
  PB_FD=2
  pb::log_init
  PB_WORK=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-mongod-test.XXXXXX")
  PB_LOG="${PB_WORK}/run.log"
  PB_RECORDS="${PB_WORK}/records.jsonl"
  PB_DRY_RUN=0 PB_KEEP=0 PB_STEP=0 PB_YES=1 PB_FORCE=0
  PB_URI=''
  PB_REPLSET_NAME=dbalab
  STARTING=''
  trap on_exit EXIT
}

# A start that did not get to print its URI leaves nothing running.
on_exit() {
  local rc=$?
  if [[ -n "$STARTING" ]]; then
    cp "$PB_LOG" "$(state_dir "$STARTING")-launch.log" 2>/dev/null || true
    stop_layout "$STARTING" >/dev/null 2>&1 || true
    printf 'mongod.sh: the %s layout did not start (log: %s-launch.log)\n' "$STARTING" "$(state_dir "$STARTING")" >&2
  fi
  rm -rf "$PB_WORK"
  exit "$rc"
}

# Sets BIN_DIR and BIN_VERSION from the environment or m's installs, or
# exits 77 with the one line that says why not.
find_binaries() {
  local shown=$PB_FD
  # The commands of the search go to the run log only: a machine without
  # binaries gets one line, the one that says so.
  exec {PB_FD}>/dev/null
  find_binaries_quietly
  PB_FD=$shown
}

find_binaries_quietly() {
  local prefix="${DBA_LAB_M_PREFIX:-${M_PREFIX:-${ROOT}/.tools/m}}" want="${DBA_LAB_MONGODB_VERSION:-}" v
  if [[ -n "${DBA_LAB_MONGODB_BINARIES:-}" ]]; then
    [[ -x "${DBA_LAB_MONGODB_BINARIES}/mongod" ]] \
      || fail "DBA_LAB_MONGODB_BINARIES=${DBA_LAB_MONGODB_BINARIES} holds no executable mongod"
    pb::mongod_version "$DBA_LAB_MONGODB_BINARIES" \
      || fail "${DBA_LAB_MONGODB_BINARIES}/mongod --version failed (a loader error? see ${PB_LOG})"
    BIN_DIR=$DBA_LAB_MONGODB_BINARIES
    BIN_VERSION=$PB_M_RESULT
    return 0
  fi
  if [[ -n "$want" ]]; then
    pb::m_resolve "$want" || fail "no real MongoDB binaries here: ${PB_M_ERROR}" "$NOT_AVAILABLE"
    v=$PB_M_RESULT
  else
    v=$( (find "${prefix}/m/versions" -mindepth 3 -maxdepth 3 -path '*/bin/mongod' 2>/dev/null || true) \
      | awk -F/ '{print $(NF - 2)}' | sort -V | tail -n 1)
    [[ -n "$v" ]] || fail "no real MongoDB binaries here: set DBA_LAB_MONGODB_BINARIES=DIR or install one with m (M_PREFIX=${prefix})" "$NOT_AVAILABLE"
  fi
  DBA_LAB_M_PREFIX=$prefix pb::m_binpath "$v" || fail "no real MongoDB binaries here: MongoDB ${v} is not installed under ${prefix}" "$NOT_AVAILABLE"
  BIN_DIR=$PB_M_RESULT
  # The folder's own mongod says what it is (and fails now if it cannot load).
  pb::mongod_version "$BIN_DIR" || fail "${BIN_DIR}/mongod --version failed (a loader error? see ${PB_LOG})"
  BIN_VERSION=$PB_M_RESULT
}

# m through the framework (X.Y resolved to X.Y.Z, the install checked with
# m bin, since m exits 0 on failures), then the binary run once: a build
# that cannot load here (OpenSSL 1.1 missing) fails now, not in mlaunch.
install() {
  local want="$1"
  [[ "$want" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || fail "install expects X.Y or X.Y.Z, got '${want}'" 2
  pb::m_resolve "$want" || fail "$PB_M_ERROR"
  pb::m_ensure "$PB_M_RESULT" || fail "$PB_M_ERROR"
  BIN_DIR=$PB_M_RESULT
  pb::mongod_version "$BIN_DIR" \
    || fail "${BIN_DIR}/mongod --version failed: $(tail -n 3 "$PB_LOG" | tr '\n' ' ')"
  pb::info "MongoDB ${PB_M_RESULT} in ${BIN_DIR}"
  printf '%s\n' "$BIN_DIR"
}

# The topology variables pb::launch reads, for LAYOUT.
set_layout() {
  PB_NODES=1 PB_ARBITER=0 PB_SHARDS=2 PB_CONFIG_SERVERS=1 PB_MONGOS=1
  case "$1" in
    single) PB_TOPOLOGY=single ;;
    replset) PB_TOPOLOGY=replset ;;
    sharded) PB_TOPOLOGY=sharded ;;
    *) fail "unknown layout '$1' (single, replset, sharded)" 2 ;;
  esac
  # Small caches and oplog: CI runners have 7 GB for up to four mongods.
  PB_MONGOD_ARGS=(--wiredTigerCacheSizeGB 0.25)
  [[ "$PB_TOPOLOGY" == single ]] || PB_MONGOD_ARGS+=(--oplogSize 1024)
}

# A first port with every port of the layout free, below the ephemeral ports
# (32768 and up on Linux), which any client connection may hold at any moment.
choose_port() {
  local try port busy
  for ((try = 0; try < 20; try++)); do
    PB_PORT=$(python3 -c 'import random; print(random.randrange(20000, 32000))')
    busy=0
    while IFS= read -r port; do
      pb::port_free "$port" || busy=1
    done < <(pb::cluster_ports)
    ((busy)) || return 0
  done
  fail "no free range of ports for the ${PB_TOPOLOGY} layout after 20 tries"
}

state_dir() {
  printf '%s/%s' "$STATE_ROOT" "$1"
}

running_uri() {
  local state
  state=$(state_dir "$1")
  [[ -f "${state}/uri" ]] || return 1
  cat "${state}/uri"
}

start() {
  local layout="$1" state data
  if running_uri "$layout"; then
    return 0
  fi
  framework_init
  set_layout "$layout"
  find_binaries
  choose_port
  state=$(state_dir "$layout")
  rm -rf "$state"
  mkdir -p "$state"
  data=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-mongod.XXXXXX")
  # As mlaunch will store it (macOS's TMPDIR ends in "/": no "//" inside).
  data=$(pb::_absolute "$data")
  PB_RUN_ID="mongod-test-$$-${RANDOM}"
  PB_DIR=$data
  printf '%s\n' "$PB_RUN_ID" >"${state}/run-id"
  printf '%s\n' "$data" >"${state}/data"
  printf '%s\n' "$PB_PORT" >"${state}/port"
  printf '%s\n' "$BIN_VERSION" >"${state}/version"
  printf '%s\n' "$BIN_DIR" >"${state}/bin"
  pb::info "MongoDB ${BIN_VERSION} (${BIN_DIR}): ${layout} on ports from ${PB_PORT}"
  STARTING=$layout
  pb::launch "$BIN_VERSION" "$BIN_DIR"
  [[ -n "$PB_CONN_URI" ]] || fail "pb::launch gave no connection string"
  printf '%s\n' "$PB_CONN_URI" >"${state}/uri"
  STARTING=''
  printf '%s\n' "$PB_CONN_URI"
}

# Stops one layout through the framework's teardown (only processes started
# in its folder; the folder goes only when its marker names that run).
stop_layout() {
  local layout="$1" state data
  state=$(state_dir "$layout")
  [[ -d "$state" ]] || return 0
  set_layout "$layout"
  PB_RUN_ID=$(cat "${state}/run-id" 2>/dev/null || true)
  data=$(cat "${state}/data" 2>/dev/null || true)
  PB_PORT=$(cat "${state}/port" 2>/dev/null || printf 0)
  if [[ -n "$data" && -n "$PB_RUN_ID" ]]; then
    PB_DIR=$data
    PB_CLUSTER_DIR="${data}/$(cat "${state}/version")"
    pb::cluster_teardown "$PB_CLUSTER_DIR" || true
    [[ "$data" != */dba-lab-mongod.* ]] || rmdir "$data" 2>/dev/null || true
  fi
  rm -rf "$state"
}

stop() {
  local layout
  framework_init
  if (($#)); then
    stop_layout "$1"
  else
    for layout in single replset sharded; do stop_layout "$layout"; done
  fi
}

main() {
  local action="${1:-}"
  (($#)) && shift
  case "$action" in
    install)
      framework_init
      install "${1:-}"
      ;;
    bin)
      framework_init
      find_binaries
      printf '%s\n' "$BIN_DIR"
      ;;
    # tests/run.sh builds every server before starting it; there is nothing
    # to build here, only binaries to find (exit 77 when there are none).
    build)
      framework_init
      find_binaries
      ;;
    start) start "${1:-replset}" ;;
    uri) running_uri "${1:-replset}" || fail "the ${1:-replset} layout is not running (tests/servers/mongod.sh start ${1:-replset})" ;;
    stop) stop "$@" ;;
    -h|--help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

main "$@"
