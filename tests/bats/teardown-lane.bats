#!/usr/bin/env bats
# Teardown and data folders as a newcomer meets them, on the real mlaunch
# 1.7.2 with the stand-in servers of the mlaunch lane (TEST FIXTURES ONLY,
# tests/fixtures/mlaunch-lane/): --dir typed in every form mlaunch
# normalises with os.path.abspath, symlinked folders, a working folder
# reached through a symlink, paths with a space, mlaunch failing to list, and
# Ctrl-C during the teardown between two versions, all run from a checkout
# whose path holds a space (tests/lib/spaced-checkout.bash). After each run no stand-in
# of the run is left, the run's folder is gone and nothing beside it is.

# shellcheck disable=SC2034 # the PB_* globals (and FAKE_MONGOD) are read by the framework and fake m
# test-runner: long
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  # shellcheck source=tests/lib/spaced-checkout.bash
  source "${DBA_LAB_ROOT}/tests/lib/spaced-checkout.bash"
  # Run from a checkout whose path holds a space, as "~/My Labs/dba-lab".
  CHECKOUT=$(spaced_checkout "${BATS_TEST_TMPDIR}/home")
  LANE="${CHECKOUT}/tests/fixtures/mlaunch-lane"
  export HOME="${BATS_TEST_TMPDIR}/home"
  mkdir -p "$HOME"
  LABS="${BATS_TEST_TMPDIR}/My Labs"
  mkdir -p "${LABS}/work"
  # Something the run did not create, beside what it does.
  printf 'mine\n' >"${LABS}/notes.txt"
  REPORT="${BATS_TEST_TMPDIR}/report"
  PORT=$(lane_port_base)
}

teardown() {
  # A failed test must not leave stand-ins behind for the next one.
  local pids
  mapfile -t pids < <(standins)
  ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
}

# Stand-ins of this test, by their ports (whatever form their paths take).
standins() {
  pgrep -f -- "standin.py mongo[ds] .*--port $((PORT))( |$)" || true
  pgrep -f -- "standin.py mongo[ds] .*--port $((PORT + 1))( |$)" || true
}

# lab_in FOLDER ARG...: the lane playbook, a single node, started from FOLDER.
lab_in() {
  local folder="$1"
  shift
  (cd "$folder" && "${LANE}/lane-lab.sh" --binarypath "${LANE}/bin" --port "$PORT" \
    --report-dir "$REPORT" --topology single "$@")
}

# The run ended with its cluster stopped and no folder of its own left.
assert_clean_end() {
  assert_equal "$(standins | wc -l | tr -d ' ')" 0
  run ls -A "$LABS"
  assert_success
  assert_output "$(printf '%s\n' "$@" | sort)"
}

@test "--dir relative with a trailing slash (data/x/): the cluster is stopped, then its folder deleted" {
  run lab_in "${LABS}/work" --dir data/x/
  assert_success
  refute_output --partial 'which this run did not start'
  # The parent mkdir -p made stays (empty): only the run's own folder goes.
  run ls -A "${LABS}/work/data"
  assert_success
  assert_output ''
  assert_clean_end notes.txt work
}

@test "--dir ./x: the cluster is stopped, then its folder deleted" {
  run lab_in "${LABS}/work" --dir ./x
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/work"
  assert_success
  assert_output ''
}

@test "--dir x//y (a doubled slash): the cluster is stopped, then its folder deleted" {
  mkdir -p "${LABS}/work/x"
  run lab_in "${LABS}/work" --dir x//y
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/work/x"
  assert_success
  assert_output ''
  assert_clean_end notes.txt work
}

@test "--dir ../p/x (up and down again): the cluster is stopped, then its folder deleted" {
  run lab_in "${LABS}/work" --dir ../p/x
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/p"
  assert_success
  assert_output ''
  assert_clean_end notes.txt p work
}

@test "--dir that is a symlink to a folder: the version's folder inside goes, the link and its target stay" {
  mkdir -p "${LABS}/real"
  ln -s real "${LABS}/link"
  run lab_in "${LABS}/work" --dir "${LABS}/link"
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/real"
  assert_success
  assert_output ''
  assert_clean_end link notes.txt real work
}

@test "--dir under a symlinked folder: the cluster is stopped, then its folder deleted" {
  mkdir -p "${LABS}/real"
  ln -s real "${LABS}/link"
  run lab_in "${LABS}/work" --dir "${LABS}/link/lab"
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/real"
  assert_success
  assert_output ''
}

@test "a relative --dir from a working folder reached through a symlink (mlaunch resolves it, the shell does not)" {
  mkdir -p "${LABS}/real"
  ln -s real "${LABS}/link"
  run lab_in "${LABS}/link" --dir x
  assert_success
  refute_output --partial 'which this run did not start'
  run ls -A "${LABS}/real"
  assert_success
  assert_output ''
  assert_clean_end link notes.txt real work
}

# An mlaunch on PATH that fails to list (as a pymongo timeout or an answer we
# cannot parse does) and otherwise is the real one.
mlaunch_that_cannot_list() {
  local real
  real=$(command -v mlaunch)
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # shellcheck disable=SC2016 # the wrapper's own "$1" and "$@"
  printf '#!/usr/bin/env bash\nif [[ "$1" == list ]]; then echo "no list today" >&2; exit 1; fi\nexec %q "$@"\n' "$real" \
    >"${BATS_TEST_TMPDIR}/bin/mlaunch"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mlaunch"
}

@test "when mlaunch cannot list, a mongod of another folder on the cluster's port is left alone" {
  local dir="${LABS}/run/7.0.12" other="${LABS}/other" pid
  load_framework
  PB_TOPOLOGY=single PB_PORT=$PORT
  pb::claim_dir "$dir"
  pb::mlaunch_init_args "$dir" "${LANE}/bin"
  pb::run --quiet "${PB_MLAUNCH_ARGS[@]}"
  pid=$(foreign_mongod_on "$PORT" "$other" "${LANE}/bin")
  mlaunch_that_cannot_list
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::cluster_teardown "$dir"
  assert_success
  assert_output --partial "cannot list the processes of ${dir}"
  [[ ! -e "$dir" ]]
  # No signal reached it (the stand-in logs each one), and it still runs.
  run grep -c 'received signal' "${other}/mongod.log"
  assert_failure 1
  run kill -0 "$pid"
  assert_success
}

@test "the run's processes are found without a word on stderr where SIGPIPE is ignored (a playbook started from Python)" {
  local dir="${LABS}/run" pid
  mkdir -p "${dir}/db"
  "${LANE}/bin/mongod" --port "$PORT" --dbpath "${dir}/db" --logpath "${dir}/mongod.log" --fork >/dev/null
  pid=$(pgrep -f -- "standin.py mongod .*--port ${PORT}( |$)")
  # The framework in a shell started from Python, which ignores SIGPIPE, as
  # what it starts does then.
  # shellcheck disable=SC2016 # the inner shell's own "$1" and "$2"
  run --separate-stderr python3 -c 'import os, sys; os.execvp("bash", ["bash", "-c"] + sys.argv[1:])' \
    'set -euo pipefail; PB_ROOT=$1; source "${PB_ROOT}/playbooks/lib/playbook.sh"; for _ in 1 2 3 4 5 6 7 8 9 10; do pb::dir_pids "$2"; done' \
    bash "$CHECKOUT" "$dir"
  assert_success
  assert_output "$(printf "${pid}%.0s\n" 1 2 3 4 5 6 7 8 9 10)"
  assert_equal "$stderr" ''
  kill "$pid"
}

# An mlaunch on PATH whose first stop hangs (a slow machine), so the test can
# press Ctrl-C during the teardown between two versions.
mlaunch_with_slow_first_stop() {
  local real
  real=$(command -v mlaunch)
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # shellcheck disable=SC2016 # the wrapper's own "$1" and "$@"
  printf '#!/usr/bin/env bash\nif [[ "$1" == stop && ! -e %q ]]; then : >%q; sleep 120; fi\nexec %q "$@"\n' \
    "${BATS_TEST_TMPDIR}/stop-held" "${BATS_TEST_TMPDIR}/stop-held" "$real" >"${BATS_TEST_TMPDIR}/bin/mlaunch"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mlaunch"
}

@test "Ctrl-C during the teardown between two versions: that cluster is still stopped at exit, then the folder goes" {
  local _
  use_fake_m
  # m's installs are the stand-in (it answers --version as each version).
  FAKE_MONGOD="${LANE}/bin/mongod"
  fake_m_installed 6.0.20 7.0.12
  mlaunch_with_slow_first_stop
  # The checkout's tools named on PATH after the slow mlaunch: setup/env.sh
  # then leaves PATH as it is instead of putting them before it.
  PATH="${BATS_TEST_TMPDIR}/bin:${CHECKOUT}/.tools/bin:${PATH}" start_with_sigint "${BATS_TEST_TMPDIR}/out" "${LANE}/lane-lab.sh" \
    --mongodb-version 6.0.20,7.0.12 --dir "${LABS}/run" --port "$PORT" --report-dir "$REPORT" --topology single
  for _ in $(seq 600); do
    [[ -e "${BATS_TEST_TMPDIR}/stop-held" ]] && break
    sleep 0.1
  done
  run grep -F 'stopping the 6.0.20 cluster before the next version' "${BATS_TEST_TMPDIR}/out"
  assert_success
  kill -INT "$BG_PID"
  wait_background 90
  assert_equal "$BG_STATUS" 130
  run cat "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_line --partial "cleanup: stop the 6.0.20 cluster and delete ${LABS}/run/6.0.20"
  assert_clean_end notes.txt work
}

@test "Ctrl-C while the teardown reads the process table: the table is read again, the cluster stopped, the folder deleted" {
  local record="${BATS_TEST_TMPDIR}/record"
  DBA_LAB_FAILPOINT_RECORD="$record" DBA_LAB_FAILPOINT=$'match:^cleanup\tps ' \
    run lab_in "${LABS}/work" --dir "${LABS}/run"
  # The run had succeeded: a signal in its exit handler does not change that.
  assert_success
  refute_output --partial 'could not read the process table'
  run cat "${record}.fired"
  assert_success
  assert_output --regexp '^[0-9]+$'
  assert_clean_end notes.txt work
}

# A ps on PATH that fails as a missing one does (slim images without procps;
# BusyBox's ps refuses -A -ww -o and fails too).
ps_that_fails() {
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  printf '#!/bin/sh\necho "sh: 1: ps: not found" >&2\nexit 127\n' >"${BATS_TEST_TMPDIR}/bin/ps"
  chmod +x "${BATS_TEST_TMPDIR}/bin/ps"
}

@test "without a working ps the run's processes are read from /proc: the cluster is stopped, then its folder deleted" {
  ps_that_fails
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run lab_in "${LABS}/work" --dir "${LABS}/run"
  assert_success
  refute_output --partial 'could not read the process table'
  refute_output --partial 'which this run did not start'
  assert_clean_end notes.txt work
}

@test "without a working ps and without /proc nothing is signalled and the folder stays, saying why" {
  local pids
  ps_that_fails
  PB_PROC="${BATS_TEST_TMPDIR}/no-proc" PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run lab_in "${LABS}/work" --dir "${LABS}/run"
  assert_output --partial 'could not read the process table'
  assert_output --partial "not deleting ${LABS}/run/"
  refute_output --partial 'stopping the cluster'
  # The run's own server was not shown to be its own: it still runs, on its data.
  mapfile -t pids < <(standins)
  assert_equal "${#pids[@]}" 1
  run kill -0 "${pids[0]}"
  assert_success
  run find "${LABS}/run" -name mongod.lock
  assert_success
  assert_output --regexp 'mongod\.lock$'
}
