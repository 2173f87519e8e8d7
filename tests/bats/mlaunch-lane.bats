#!/usr/bin/env bats
# The mlaunch lane: the real mlaunch 1.7.2 launches, lists and stops single,
# replica set and sharded layouts of stand-in servers (TEST FIXTURES ONLY,
# tests/fixtures/mlaunch-lane/: they answer the handshake, ping, hello,
# replSetInitiate/replSetGetStatus, addShard and shutdown, fork like
# mongod --fork and write their log to --logpath; they store nothing). With a
# `mongod` on PATH, so every mlaunch answer starts with "Detected mongod
# version", a --dir holding a space, and run from a checkout whose path holds
# one (tests/lib/spaced-checkout.bash), so the binaries' path does too. What
# is checked is our handling of what mlaunch really does: argument handling,
# list parsing, kinds, log paths, the primary, teardown and Ctrl-C at every
# stage: afterwards no stand-in runs and only the folders the run created
# are gone.

# test-runner: long
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  # shellcheck source=tests/lib/spaced-checkout.bash
  source "${DBA_LAB_ROOT}/tests/lib/spaced-checkout.bash"
  # Run from a checkout whose path holds a space, as "~/My Labs/dba-lab".
  LANE="$(spaced_checkout "${BATS_TEST_TMPDIR}/home")/tests/fixtures/mlaunch-lane"
  export HOME="${BATS_TEST_TMPDIR}/home"
  mkdir -p "$HOME" "${BATS_TEST_TMPDIR}/pathbin"
  # A mongod on PATH (brew, apt, m's ~/.local/bin): mlaunch runs it for every subcommand.
  cp "${FAKE_BIN}/mongod" "${BATS_TEST_TMPDIR}/pathbin/mongod"
  export PATH="${BATS_TEST_TMPDIR}/pathbin:${PATH}"
  LABS="${BATS_TEST_TMPDIR}/My Labs"
  mkdir -p "$LABS"
  # Something the run did not create, beside what it does.
  printf 'mine\n' >"${LABS}/notes.txt"
  RUN_DIR="${LABS}/run"
  OBSERVATIONS="${BATS_TEST_TMPDIR}/observations"
  OUT="${BATS_TEST_TMPDIR}/out"
  PORT=$(lane_port_base)
}

teardown() {
  # A failed test must not leave stand-ins behind for the next one.
  local pids
  mapfile -t pids < <(pgrep -f -- "--dbpath ${LABS}/" || true)
  ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
}

lane() {
  "${LANE}/lane-lab.sh" --binarypath "${LANE}/bin" --dir "$RUN_DIR" --port "$PORT" \
    --report-dir "${BATS_TEST_TMPDIR}/report" --observations "$OBSERVATIONS" "$@"
}

# Stand-ins still running from the run's folder.
standins_left() {
  pgrep -f -- "standin.py mongo[ds] .*${RUN_DIR}/" | wc -l | tr -d ' '
}

# What is left of the labs folder: only what the test put there.
assert_only_foreign_left() {
  assert_equal "$(standins_left)" 0
  run ls -A "$LABS"
  assert_success
  assert_output notes.txt
}

@test "lane: a replica set with an arbiter: kinds, log paths with a space, the primary asked with hello" {
  run lane --topology replset --nodes 2 --arbiter
  assert_success
  run cat "$OBSERVATIONS"
  assert_success
  local d="${RUN_DIR}/7.0.12/replset"
  assert_line "$(printf 'process\treplset member\t%d\trunning\treplset\tlog-exists\t%s' "$PORT" "${d}/rs1/mongod.log")"
  assert_line "$(printf 'process\treplset member\t%d\trunning\treplset\tlog-exists\t%s' $((PORT + 1)) "${d}/rs2/mongod.log")"
  assert_line "$(printf 'process\tarbiter\t%d\trunning\treplset\tlog-exists\t%s' $((PORT + 2)) "${d}/arb/mongod.log")"
  # The stand-ins make member 1 primary 1.5 s after replSetInitiate.
  assert_line "$(printf 'primary\treplset\t%d\t%s' "$PORT" "${d}/rs1/mongod.log")"
  assert_only_foreign_left
}

@test "lane: a sharded cluster: mongos, shard members and config server by kind, each log found" {
  run lane --topology sharded --shards 2 --nodes 1 --config-servers 1 --mongos 2
  assert_success
  run cat "$OBSERVATIONS"
  assert_success
  local d="${RUN_DIR}/7.0.12"
  assert_line "$(printf 'process\tmongos\t%d\trunning\t\tlog-exists\t%s' "$PORT" "${d}/mongos/mongos_${PORT}.log")"
  assert_line "$(printf 'process\tmongos\t%d\trunning\t\tlog-exists\t%s' $((PORT + 1)) "${d}/mongos/mongos_$((PORT + 1)).log")"
  assert_line "$(printf 'process\tshard member\t%d\trunning\tshard01\tlog-exists\t%s' $((PORT + 2)) "${d}/shard01/rs1/mongod.log")"
  assert_line "$(printf 'process\tshard member\t%d\trunning\tshard02\tlog-exists\t%s' $((PORT + 3)) "${d}/shard02/rs1/mongod.log")"
  assert_line "$(printf 'process\tconfig server\t%d\trunning\tconfigRepl\tlog-exists\t%s' $((PORT + 4)) "${d}/configRepl/rs1/mongod.log")"
  assert_line "$(printf 'primary\tshard01\t%d\t%s' $((PORT + 2)) "${d}/shard01/rs1/mongod.log")"
  assert_only_foreign_left
}

# Runs the lane in the background with SIGINT at its default disposition
# (see start_with_sigint), then interrupts it once CHECK (a command) succeeds.
interrupt_when() {
  local check="$1" report="${BATS_TEST_TMPDIR}/report-${RANDOM}" _
  shift
  start_with_sigint "$OUT" "${LANE}/lane-lab.sh" --binarypath "${LANE}/bin" --dir "$RUN_DIR" --port "$PORT" \
    --report-dir "$report" --observations "$OBSERVATIONS" "$@"
  for _ in $(seq 600); do
    "$check" && break
    sleep 0.1
  done
  "$check" || { cat "$OUT" >&2; return 1; }
  kill -INT "$BG_PID"
  wait_background 90
}

# The first stand-in of the run answers (mlaunch init has more to start).
first_standin_up() {
  [[ "$(standins_left)" -ge 1 ]]
}

@test "lane: Ctrl-C while mlaunch init is starting the members stops what started, deletes only the run's folder" {
  interrupt_when first_standin_up --topology replset --nodes 2
  assert_equal "$BG_STATUS" 130
  run cat "$OUT"
  assert_success
  assert_line --partial 'interrupted by SIGINT during launch'
  assert_only_foreign_left
}

@test "lane: Ctrl-C in every later stage leaves no stand-in and no folder of the run" {
  # The four runs at once (each its own folder and port), to keep the lane short.
  local i pids=() outs=() stages=(prepare run analyze report) _
  for i in "${!stages[@]}"; do
    outs[i]="${BATS_TEST_TMPDIR}/out-${stages[i]}"
    start_with_sigint "${outs[i]}" "${LANE}/lane-lab.sh" --binarypath "${LANE}/bin" \
      --dir "${LABS}/run-${stages[i]}" --port $((PORT + 10 * (i + 1))) \
      --report-dir "${BATS_TEST_TMPDIR}/report-${stages[i]}" --topology single --hold "${stages[i]}"
    pids[i]=$BG_PID
  done
  for i in "${!stages[@]}"; do
    for _ in $(seq 900); do
      grep -q 'holding in' "${outs[i]}" && break
      sleep 0.1
    done
    run grep "holding in ${stages[i]}" "${outs[i]}"
    assert_success
    kill -INT "${pids[i]}"
  done
  for i in "${!stages[@]}"; do
    BG_PID=${pids[i]}
    wait_background 90
    assert_equal "$BG_STATUS" 130
    run cat "${outs[i]}"
    assert_success
    assert_line --partial "interrupted by SIGINT during ${stages[i]}"
  done
  run pgrep -f -- "standin.py mongo[ds] .*${LABS}/"
  assert_failure
  run ls -A "$LABS"
  assert_success
  assert_output notes.txt
}

# A stand-in that claims 4.4.0, started the way mlaunch starts one.
start_old_standin() {
  mkdir -p "${RUN_DIR}/db"
  STANDIN_VERSION=4.4.0 "${LANE}/bin/mongod" --port "$PORT" --dbpath "${RUN_DIR}/db" \
    --logpath "${RUN_DIR}/mongod.log" --fork >/dev/null
}

@test "lane: on 4.4.0 (no hello, CommandNotFound) pb::hello answers from isMaster" {
  local answer
  load_framework
  start_old_standin
  run pb::hello answer "$(pb::node_uri "$PORT")"
  assert_success
  pb::hello answer "$(pb::node_uri "$PORT")"
  pb::_stop_dir_processes "$RUN_DIR"
  run jq -r '[.isWritablePrimary, .ismaster] | @tsv' <<<"$answer"
  assert_success
  assert_output "$(printf 'true\ttrue')"
}

@test "lane: on 4.4.0 stage.hello() in a mongosh stage answers from isMaster" {
  load_framework
  start_old_standin
  # shellcheck disable=SC2016 # JavaScript
  printf 'print(`writable=${stage.hello().isWritablePrimary}`);\n' >"${BATS_TEST_TMPDIR}/hello-stage.js"
  run pb::mongosh_stage --uri "$(pb::node_uri "$PORT")" "${BATS_TEST_TMPDIR}/hello-stage.js"
  pb::_stop_dir_processes "$RUN_DIR"
  assert_success
  assert_line 'writable=true'
}

# lane_cluster ARG...: this test's cluster launched the way a playbook does
# (pb::launch), topology from PB_* assignments given as arguments.
lane_cluster() {
  load_framework
  # shellcheck disable=SC2034 # read by the framework
  PB_PORT=$PORT PB_DIR=$RUN_DIR PB_PROGRESS_EVERY=5
  local a
  for a in "$@"; do
    printf -v "${a%%=*}" '%s' "${a#*=}"
  done
  pb::launch 7.0.12 "${LANE}/bin"
}

# Kind and status of every process of the cluster, one line each.
cluster_statuses() {
  pb::cluster_processes "$PB_CLUSTER_DIR" | grep -v '^\$ ' | cut -f 1,4
}

@test "lane: a restart waits until every member has exited and freed its port, then starts them all" {
  # Members that take longer to stop than mlaunch takes to start (real ones
  # quiesce 15 s, then close their storage engine).
  STANDIN_QUIESCE_SECONDS=4 STANDIN_SHUTDOWN_SECONDS=2 lane_cluster PB_TOPOLOGY=replset PB_NODES=2
  run pb::cluster_restart
  assert_success
  # SIGTERM to the members shown to be the run's, not mlaunch stop (which
  # signals by port and trips over any zombie process on the machine).
  assert_line --regexp '^\$ kill -TERM [0-9]+ [0-9]+$'
  refute_line --partial '$ mlaunch stop'
  run cluster_statuses
  assert_success
  assert_output "$(printf 'replset member\trunning\nreplset member\trunning')"
  # Not under test here: SIGKILL saves the slow stop.
  PB_FORCE=1 run pb::cluster_teardown "$PB_CLUSTER_DIR"
  assert_success
  assert_equal "$(standins_left)" 0
}

@test "lane: a restart whose members do not exit in time fails with one line naming them, and starts nothing" {
  # A member that stays in quiesce, its port open, for longer than the wait.
  STANDIN_QUIESCE_SECONDS=30 lane_cluster PB_TOPOLOGY=replset PB_NODES=1
  PB_STOP_WAIT=1 run pb::cluster_restart
  assert_failure
  assert_line --regexp "^error: the cluster did not stop within 1 s of SIGTERM; still running: pid\(s\) [0-9]+; port\(s\) ${PORT} still in use: not starting it again \(PB_STOP_WAIT sets the wait\)$"
  refute_line --partial '$ mlaunch start'
  PB_FORCE=1 run pb::cluster_teardown "$PB_CLUSTER_DIR"
  assert_success
}

@test "lane: a restart whose port another folder's mongod now serves signals nothing and starts nothing" {
  local other="${LABS}/other" pid
  lane_cluster PB_TOPOLOGY=single
  pid=$(foreign_mongod_on "$PORT" "$other" "${LANE}/bin")
  run pb::cluster_restart
  assert_failure
  assert_line --partial "port ${PORT} (single) is served by pid ${pid}, which this run did not start: leaving it alone"
  assert_line --partial "error: not restarting the cluster in ${PB_CLUSTER_DIR}"
  refute_line --partial '$ mlaunch stop'
  run grep -c 'received signal' "${other}/mongod.log"
  assert_failure 1
  run kill -0 "$pid"
  assert_success
  kill "$pid"
}

@test "lane: a sharded launch whose addShard never succeeds stops at its time limit with one line naming what mlaunch was doing, and tears down" {
  # mlaunch 1.7.2 retries addShard without end and prints nothing about it.
  run timeout 90 env STANDIN_REFUSE_ADDSHARD=1 PB_LAUNCH_TIMEOUT=10 "${LANE}/lane-lab.sh" --binarypath "${LANE}/bin" \
    --dir "$RUN_DIR" --port "$PORT" --report-dir "${BATS_TEST_TMPDIR}/report" \
    --topology sharded --shards 1 --nodes 1 --config-servers 1 --mongos 1
  assert_failure 1
  assert_line "error: mlaunch init did not finish within 10 s (PB_LAUNCH_TIMEOUT), stopped while at: adding shards. can take up to 30 seconds... (mlaunch retries addShard without end; the mongos log: ${RUN_DIR}/7.0.12/mongos.log)"
  assert_only_foreign_left
}
