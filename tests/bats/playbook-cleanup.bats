#!/usr/bin/env bats
# Cleanup (playbooks/lib/cleanup.sh): after a failing stage, Ctrl-C (SIGINT) or
# TERM the registered steps run, the running command is stopped, temporary
# files go, a partial report says what happened; a second Ctrl-C forces.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
  MARKER="${BATS_TEST_TMPDIR}/cleaned"
  # The run's temporary folder lands here, so the test can see it go.
  export TMPDIR="${BATS_TEST_TMPDIR}/tmp"
  mkdir -p "$TMPDIR"
  # A sleep length no other process on the machine uses.
  NAP=$((3000 + RANDOM % 5000))
}

# After a failed test: the demo and the commands it started (each in a
# process group of its own), by their ids.
teardown() {
  local child
  if [[ -n "${PLAYBOOK_PID:-}" ]] && kill -0 "$PLAYBOOK_PID" 2>/dev/null; then
    for child in $(pgrep -P "$PLAYBOOK_PID"); do
      kill -- "-${child}" 2>/dev/null || kill "$child" 2>/dev/null || true
    done
    kill -KILL "$PLAYBOOK_PID" 2>/dev/null || true
  fi
  # A nap a failed test left (it would hold the runner's output open).
  pkill -x -f "sleep ${NAP}" 2>/dev/null || true
}

demo() {
  "$DEMO" --topology none --report-dir "$REPORT" --cleanup-marker "$MARKER" "$@"
}

# Starts the demo in the background with SIGINT at its default disposition:
# a background job of a non-interactive shell, and everything started under a
# test runner that was itself put in the background, inherit SIGINT ignored,
# and bash cannot trap a signal ignored on entry.
start_demo() {
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' \
    "$DEMO" --topology none --report-dir "$REPORT" --cleanup-marker "$MARKER" "$@" >"${BATS_TEST_TMPDIR}/out" 2>&1 &
  PLAYBOOK_PID=$!
}

wait_for_output() {
  local pattern="$1" _
  for _ in $(seq 100); do
    grep -q -- "$pattern" "${BATS_TEST_TMPDIR}/out" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "${BATS_TEST_TMPDIR}/out" >&2
  return 1
}

nap_processes() {
  pgrep -c -x -f "sleep ${NAP}" || true
}

# The runner prints "$ sleep N" before it starts the command: wait (bounded)
# until the process is there, so a loaded machine does not fail the count.
wait_for_nap() {
  local _
  for _ in $(seq 100); do
    [[ "$(nap_processes)" -ge 1 ]] && return 0
    sleep 0.1
  done
  return 1
}

# The background demo's exit status (run would wait in a subshell, which
# cannot); a demo still running after 60 s fails the test instead of hanging it.
wait_demo() {
  local _
  DEMO_STATUS=0
  for _ in $(seq 600); do
    kill -0 "$PLAYBOOK_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$PLAYBOOK_PID" 2>/dev/null; then
    printf 'the playbook did not exit within 60 s of the signal\n' >&2
    cat "${BATS_TEST_TMPDIR}/out" >&2
    return 1
  fi
  wait "$PLAYBOOK_PID" || DEMO_STATUS=$?
}

@test "a failing stage: exit 1, cleanup runs, the report says failed and why" {
  run demo --fail-at run
  assert_failure 1
  assert_line --partial 'cleanup: mark the cleanup'
  assert_line --partial 'FAILED: command failed: false (exit 1) in stage run'
  run cat "$MARKER"
  assert_success
  assert_output cleaned
  run jq -r '.status, .failure' "${REPORT}/results.json"
  assert_success
  assert_output $'failed\ncommand failed: false (exit 1) in stage run'
  run grep -F '**Failure:** command failed: false (exit 1) in stage run' "${REPORT}/report.md"
  assert_success
}

@test "a failure in any stage runs the cleanup once" {
  local stage
  for stage in prepare analyze report; do
    rm -rf "$REPORT" "$MARKER"
    run demo --fail-at "$stage"
    assert_failure 1
    run cat "$MARKER"
    assert_success
    assert_output cleaned
  done
}

@test "the temporary folder of the run is removed after success and after failure" {
  run demo
  assert_success
  run demo --fail-at run --report-dir "${REPORT}2"
  assert_failure 1
  run ls -A "$TMPDIR"
  assert_success
  assert_output ''
}

@test "Ctrl-C (SIGINT) stops the running command, cleans up, exit 130" {
  start_demo --sleep "$NAP"
  wait_for_output "\$ sleep ${NAP}"
  wait_for_nap
  assert_equal "$(nap_processes)" 1
  kill -INT "$PLAYBOOK_PID"
  wait_demo
  assert_equal "$DEMO_STATUS" 130
  run cat "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_line --partial 'interrupted by SIGINT during run: cleaning up (press Ctrl-C again to force)'
  assert_line --partial 'interrupted after'
  assert_equal "$(nap_processes)" 0
  run cat "$MARKER"
  assert_success
  assert_output cleaned
  run jq -r .status "${REPORT}/results.json"
  assert_success
  assert_output interrupted
  run ls -A "$TMPDIR"
  assert_success
  assert_output ''
}

@test "TERM does the same cleanup, exit 143" {
  start_demo --sleep "$NAP"
  wait_for_output "\$ sleep ${NAP}"
  kill -TERM "$PLAYBOOK_PID"
  wait_demo
  assert_equal "$DEMO_STATUS" 143
  assert_equal "$(nap_processes)" 0
  run cat "$MARKER"
  assert_success
  assert_output cleaned
}

# demo_on_closed_terminal NAP ARG...: the demo (--sleep NAP) on a terminal of
# its own (a pty whose master side this test holds), which the test closes once
# the nap runs, as closing a terminal window or losing an SSH session does: the
# kernel sends the demo SIGHUP, and its writes to the terminal fail from then
# on. DEMO_STATUS is its exit status.
demo_on_closed_terminal() {
  DEMO_STATUS=$(python3 - "$1" "$DEMO" --topology none --report-dir "$REPORT" --cleanup-marker "$MARKER" --sleep "$1" "${@:2}" <<'PY'
import glob, os, pty, sys, time
nap = b'sleep\0' + sys.argv[1].encode() + b'\0'
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])

def napping():
    for f in glob.glob('/proc/[0-9]*/cmdline'):
        try:
            if open(f, 'rb').read() == nap:
                return True
        except OSError:
            pass
    return False

# The terminal's output is read all along (a full pty would block the demo).
deadline = time.time() + 60
os.set_blocking(fd, False)
while not napping() and time.time() < deadline:
    try:
        os.read(fd, 4096)
    except (BlockingIOError, OSError):
        pass
    time.sleep(0.1)
os.close(fd)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
PY
)
}

@test "a hang-up (the terminal closed) stops the running command and cleans up like Ctrl-C, exit 129, report interrupted" {
  demo_on_closed_terminal "$NAP"
  assert_equal "$DEMO_STATUS" 129
  assert_equal "$(nap_processes)" 0
  run cat "$MARKER"
  assert_success
  assert_output cleaned
  run jq -r '"\(.status) \(.failure)"' "${REPORT}/results.json"
  assert_success
  assert_output --regexp '^interrupted interrupted by SIGHUP'
  run ls -A "$TMPDIR"
  assert_success
  assert_output ''
}

@test "a second Ctrl-C during the cleanup forces it: the slow step is killed, the others still run" {
  start_demo --sleep "$NAP" --slow-cleanup "$NAP"
  wait_for_output "\$ sleep ${NAP}"
  kill -INT "$PLAYBOOK_PID"
  wait_for_output 'cleanup: a slow cleanup step'
  wait_for_output "^\$ sleep ${NAP}\$"
  wait_for_nap
  assert_equal "$(nap_processes)" 1
  kill -INT "$PLAYBOOK_PID"
  wait_demo
  assert_equal "$DEMO_STATUS" 130
  run cat "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_line --partial 'second SIGINT: forcing the cleanup'
  assert_equal "$(nap_processes)" 0
  run cat "$MARKER"
  assert_success
  assert_output cleaned
}

@test "when mlaunch cannot start the cluster, the data folder this run created is deleted" {
  # The fake mongod answers only --version, so mlaunch fails at its --help.
  local data="${BATS_TEST_TMPDIR}/data"
  run "$DEMO" --topology single --binarypath "$FAKE_BIN" --dir "$data" --report-dir "$REPORT" --port "$(free_port_base)"
  assert_failure 1
  assert_line --regexp '^\$ mlaunch init --single '
  assert_line --partial "cleanup: stop the 7.0.12 cluster and delete ${data}/7.0.12"
  [[ ! -e "$data" ]]
  run jq -r .status "${REPORT}/results.json"
  assert_success
  assert_output failed
}

# The framework loaded for two versions (6.0.20, 7.0.12) whose launch only
# registers its cluster's teardown, as pb::launch does; record TEXT appends a
# line to the file ORDER names.
# shellcheck disable=SC2034,SC2329 # the PB_* globals and the stubs are used by the framework
two_versions() {
  load_framework
  PB_RESOLVED=(6.0.20 7.0.12)
  PB_BINPATHS=(/b6 /b7)
  PB_TOPOLOGY=replset
  PB_FD=1
  ORDER="${BATS_TEST_TMPDIR}/order"
  record() { printf '%s\n' "$*" >>"$ORDER"; }
  pb::launch() {
    PB_CLUSTER_DIR="/labs/$1"
    pb::on_exit "stop the $1 cluster" pb::cluster_teardown "$PB_CLUSTER_DIR"
    PB_CLUSTER_CLEANUP_ID=$PB_LAST_CLEANUP_ID
  }
}

# shellcheck disable=SC2329 # the stubs are used by the framework (a later test redefines them)
@test "multi-version: a version's knob restores run before its cluster stops, not after" {
  two_versions
  local order=$ORDER
  # A knob restore, registered as pb::mongosh_stage registers it.
  stage_run() { pb::on_exit "restore a knob on ${PB_VERSION}" record "restore ${PB_VERSION}"; }
  pb::cluster_teardown() { record "teardown $1"; }
  pb::_run_version 0 >/dev/null
  run cat "$order"
  assert_success
  assert_output "$(printf 'restore 6.0.20\nteardown /labs/6.0.20')"
  # Done once: the exit cleanup does not run them again.
  run pb::_run_cleanups
  assert_success
  run cat "$order"
  assert_success
  assert_output "$(printf 'restore 6.0.20\nteardown /labs/6.0.20')"
}

@test "multi-version: a between-version teardown that did not finish runs again at exit, before the data folder goes" {
  two_versions
  local order=$ORDER
  # Registered first, as pb::_claim_data_dir registers it.
  pb::on_exit "delete the data folder" record "release the data folder"
  # Interrupted, or refused because a process still runs from the folder.
  pb::cluster_teardown() { record "teardown $1"; return 1; }
  # The framework's exit: every step not yet done, newest first.
  version_then_exit() {
    trap 'pb::_run_cleanups >/dev/null' EXIT
    pb::_run_version 0
  }
  run version_then_exit
  assert_failure 1
  assert_output --partial 'the 6.0.20 cluster did not stop'
  run cat "$order"
  assert_success
  assert_output "$(printf 'teardown /labs/6.0.20\nteardown /labs/6.0.20\nrelease the data folder')"
}

@test "a signal whose trap runs after a command started but before its pid was noted still stops it" {
  local nap=$((3000 + RANDOM % 5000))
  load_framework
  # What pb::_spawn has done at that moment: the job started, PB_CHILD_PID not yet set.
  # shellcheck disable=SC2034 # read by pb::stop_child
  PB_SPAWN_PREV=${!:-none} PB_SPAWNING=1
  set -m
  sleep "$nap" &
  set +m
  # shellcheck disable=SC2034 # read by pb::stop_child
  PB_CHILD_PID=''
  pb::stop_child
  run pgrep -x -f "sleep ${nap}"
  assert_failure 1
}
