# shellcheck shell=bash
# shellcheck disable=SC2034 # the PB_* globals set here are read by the framework
# Shared by the playbook framework's bats files: the demo playbook, the fake
# server binaries (they answer --version only), and a way to source the
# framework into the test shell for unit tests of its functions.
DEMO="${DBA_LAB_ROOT}/tests/fixtures/playbooks/demo-lab.sh"
FAKE_BIN="${DBA_LAB_ROOT}/tests/fixtures/fake-server/bin"
export DEMO FAKE_BIN

# A port range nobody listens on (each test file gets its own start).
free_port_base() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# A first port for a lane's servers, in 20000-31999: below the ephemeral
# ports (Linux 32768-60999, ip_local_port_range; macOS from 49152), where any
# job's client connection can hold a port at any moment and a server then
# fails to bind it (mongod's exit 48). Spread by a free ephemeral port.
lane_port_base() {
  local port
  port=$(free_port_base)
  printf '%d\n' $(((port % 12000) + 20000))
}

# The "$ command" lines of a plan, with the run's own paths replaced: the
# checkout by ROOT. A checkout whose path holds a space comes quoted
# (pb::quote); once ROOT stands for it, a word left with only the characters
# pb::quote leaves bare loses its quotes, so a plan reads the same from any
# checkout.
plan_lines() {
  grep '^\$ ' | sed -E \
    -e "s#$(sed_literal "$DBA_LAB_ROOT")#ROOT#g" \
    -e "s#'(ROOT[A-Za-z0-9_@%+=:,./-]*)'#\\1#g" \
    -e 's#/data/demo-lab-[0-9TZ]+#/data/demo-lab-STAMP#g' \
    -e 's#"records":"[^"]*"#"records":"RECORDS"#; s#"runId":"[^"]*"#"runId":"RUN"#'
}

# Sources the framework into the test shell, ready for unit calls.
load_framework() {
  # shellcheck source=playbooks/lib/playbook.sh
  source "${DBA_LAB_ROOT}/playbooks/lib/playbook.sh"
  PB_NAME="unit-lab"
  PB_TITLE="unit"
  PB_FD=1
  pb::log_init
  PB_WORK="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$PB_WORK"
  PB_RECORDS="${PB_WORK}/records.jsonl"
  : >"$PB_RECORDS"
  PB_LOG="${PB_WORK}/run.log"
  PB_DRY_RUN=0 PB_KEEP=0 PB_STEP=0 PB_YES=0
  PB_RUN_ID="unit-$$"
  PB_VERSION=''
  PB_ROOT=$DBA_LAB_ROOT
  PB_DB_NAME=dbalab_unit
  PB_SCALE_NAME=small
  PB_URI=''
  PB_REPORT_DIR="${BATS_TEST_TMPDIR}/report"
  PB_STARTED=2026-01-01T00:00:00Z
  PB_ARGV=()
  PB_T0=$SECONDS
}

# load_playbook NAME: load_framework, then playbooks/NAME.sh sourced (its
# guard keeps pb::main from running) with its options at their defaults and
# its scale loaded: ready for unit calls of its scenario:: functions and pb::check.
load_playbook() {
  load_framework
  # shellcheck source=/dev/null
  source "${DBA_LAB_ROOT}/playbooks/$1.sh"
  PB_FD=1
  pb::scenario_init
  pb::_declare_common_options
  pb::parse_args
  pb::_load_scale
}

# The scripted fake m (tests/fixtures/fake-m) first on PATH, m's prefix in the
# test's temporary folder; fake_m_installed lists versions it "has".
use_fake_m() {
  export DBA_LAB_M_PREFIX="${BATS_TEST_TMPDIR}/m" M_PREFIX="${BATS_TEST_TMPDIR}/m" FAKE_M_LOG="${BATS_TEST_TMPDIR}/m.log" FAKE_MONGOD="${FAKE_BIN}/mongod"
  export PATH="${DBA_LAB_ROOT}/tests/fixtures/fake-m:${PATH}"
}

fake_m_installed() {
  local v
  for v in "$@"; do
    mkdir -p "${M_PREFIX}/m/versions/${v}/bin"
    ln -s "$FAKE_MONGOD" "${M_PREFIX}/m/versions/${v}/bin/mongod"
  done
}

# start_with_sigint OUT COMMAND [ARG...]: COMMAND in the background, output to
# OUT, with SIGINT at its default disposition (a background job of a
# non-interactive shell inherits SIGINT ignored, and bash cannot trap a signal
# ignored on entry); BG_PID is its pid.
start_with_sigint() {
  local out="$1"
  shift
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" >"$out" 2>&1 &
  BG_PID=$!
}

# wait_background SECONDS: BG_STATUS = the exit status of BG_PID; fails when
# it still runs after SECONDS.
wait_background() {
  local limit=$(($1 * 10)) _
  BG_STATUS=0
  for _ in $(seq "$limit"); do
    kill -0 "$BG_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$BG_PID" 2>/dev/null; then
    printf 'still running %d s after the signal\n' "$1" >&2
    return 1
  fi
  wait "$BG_PID" || BG_STATUS=$?
}

# foreign_mongod_on PORT FOLDER LANE_BIN: the stand-in mongod on PORT (a
# cluster's) goes away and another one, of FOLDER, serves PORT instead, as
# when a user's own server takes over the port; prints its pid. What
# mlaunch stop would signal: it matches processes by --port only.
foreign_mongod_on() {
  local port="$1" folder="$2" bin="$3" pid
  pid=$(pgrep -f -- "standin.py mongod .*--port ${port}( |$)")
  kill "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  mkdir -p "${folder}/db"
  "${bin}/mongod" --port "$port" --dbpath "${folder}/db" --logpath "${folder}/mongod.log" --fork >/dev/null
  pgrep -f -- "standin.py mongod .*--port ${port}( |$)"
}
