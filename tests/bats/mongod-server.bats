#!/usr/bin/env bats
# tests/servers/mongod.sh, the real-MongoDB lane's server script, where no
# real server can run: how it finds binaries (DBA_LAB_MONGODB_BINARIES, or m's
# installs under M_PREFIX, through the framework), the one line and exit 77
# when there are none, and a failed start leaving nothing behind. The fake
# mongod answers --version only, so mlaunch cannot start it: these tests cover
# our handling, never a server. The teardown test uses the mlaunch lane's
# stand-in servers (TEST FIXTURES ONLY, tests/fixtures/mlaunch-lane/), which
# mlaunch can start and stop.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  SERVER="${DBA_LAB_ROOT}/tests/servers/mongod.sh"
  export DBA_LAB_MONGOD_STATE="${BATS_TEST_TMPDIR}/state"
  export TMPDIR="${BATS_TEST_TMPDIR}/tmp"
  mkdir -p "$TMPDIR"
  unset DBA_LAB_MONGODB_BINARIES DBA_LAB_MONGODB_VERSION
  use_fake_m
  STANDIN_PORT=''
}

teardown() {
  # A failed test must not leave a stand-in behind.
  local pids
  [[ -n "$STANDIN_PORT" ]] || return 0
  mapfile -t pids < <(standins_on "$STANDIN_PORT")
  ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
}

standins_on() {
  pgrep -f -- "standin.py mongod .*--port ${1}( |$)" || true
}

@test "no binaries anywhere: one line that says so, exit 77 (not available here)" {
  run --separate-stderr "$SERVER" start
  [ "$status" -eq 77 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  assert_equal "$stderr" "mongod.sh: no real MongoDB binaries here: set DBA_LAB_MONGODB_BINARIES=DIR or install one with m (M_PREFIX=${M_PREFIX})"
  assert_equal "$output" ""
  [ ! -e "$DBA_LAB_MONGOD_STATE/replset" ]
}

@test "build (what tests/run.sh calls before start): nothing to build, exit 77 without binaries" {
  run --separate-stderr "$SERVER" build
  [ "$status" -eq 77 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  assert_equal "$output" ""
}

@test "build succeeds quietly when binaries are found" {
  DBA_LAB_MONGODB_BINARIES="$FAKE_BIN" run --separate-stderr "$SERVER" build
  assert_success
  assert_equal "$output" ""
}

@test "bin: DBA_LAB_MONGODB_BINARIES is used as it is" {
  DBA_LAB_MONGODB_BINARIES="$FAKE_BIN" run --separate-stderr "$SERVER" bin
  assert_success
  assert_output "$FAKE_BIN"
}

@test "DBA_LAB_MONGODB_BINARIES without a mongod is an error, not a skip (exit 1)" {
  mkdir -p "${BATS_TEST_TMPDIR}/empty"
  DBA_LAB_MONGODB_BINARIES="${BATS_TEST_TMPDIR}/empty" run --separate-stderr "$SERVER" start
  [ "$status" -eq 1 ]
  assert_equal "$stderr" "mongod.sh: DBA_LAB_MONGODB_BINARIES=${BATS_TEST_TMPDIR}/empty holds no executable mongod"
}

@test "bin: the newest version m installed, by version order, not by name" {
  fake_m_installed 6.0.9 6.0.12 7.0.2
  run --separate-stderr "$SERVER" bin
  assert_success
  assert_output "${M_PREFIX}/m/versions/7.0.2/bin"
  run grep -c '^bin 7.0.2$' "$FAKE_M_LOG"
  assert_success
}

@test "bin: DBA_LAB_MONGODB_VERSION=X.Y picks the newest installed patch of that series" {
  fake_m_installed 6.0.9 6.0.12 7.0.2
  DBA_LAB_MONGODB_VERSION=6.0 run --separate-stderr "$SERVER" bin
  assert_success
  assert_output "${M_PREFIX}/m/versions/6.0.12/bin"
}

@test "a version m does not have is not available here (exit 77), and nothing is downloaded" {
  fake_m_installed 7.0.2
  DBA_LAB_MONGODB_VERSION=5.0.30 run --separate-stderr "$SERVER" start
  [ "$status" -eq 77 ]
  assert_equal "$stderr" "mongod.sh: no real MongoDB binaries here: MongoDB 5.0.30 is not installed under ${M_PREFIX}"
  run grep -E '^[0-9]' "$FAKE_M_LOG"
  assert_failure
}

@test "an unknown layout is a usage error (exit 2)" {
  run --separate-stderr "$SERVER" start shardedd
  [ "$status" -eq 2 ]
  assert_equal "$stderr" "mongod.sh: unknown layout 'shardedd' (single, replset, sharded)"
}

@test "a start mlaunch cannot complete exits 1 and leaves no state, no data folder, no process" {
  DBA_LAB_MONGODB_BINARIES="$FAKE_BIN" run --separate-stderr "$SERVER" start single
  [ "$status" -eq 1 ]
  assert_equal "$output" ""
  [[ "$stderr" == *"\$ mlaunch init --single --port "*" --binarypath $(shown "$FAKE_BIN") --wiredTigerCacheSizeGB 0.25"* ]]
  [[ "$stderr" == *"mongod.sh: the single layout did not start (log: ${DBA_LAB_MONGOD_STATE}/single-launch.log)"* ]]
  [ ! -e "${DBA_LAB_MONGOD_STATE}/single" ]
  [ -s "${DBA_LAB_MONGOD_STATE}/single-launch.log" ]
  run find "$TMPDIR" -mindepth 1 -maxdepth 1
  assert_success
  assert_output ""
}

@test "the replica set and sharded layouts are launched through pb::launch with the lane's options" {
  local layout
  for layout in replset sharded; do
    DBA_LAB_MONGODB_BINARIES="$FAKE_BIN" run --separate-stderr "$SERVER" start "$layout"
    [ "$status" -eq 1 ]
    case "$layout" in
      replset) [[ "$stderr" == *"\$ mlaunch init --replicaset --nodes 1 --name dbalab --port "*" --wiredTigerCacheSizeGB 0.25 --oplogSize 1024"* ]] ;;
      sharded) [[ "$stderr" == *"\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port "*" --wiredTigerCacheSizeGB 0.25 --oplogSize 1024"* ]] ;;
    esac
    [ ! -e "${DBA_LAB_MONGOD_STATE}/${layout}" ]
  done
}

@test "stop without a running layout does nothing and succeeds" {
  run --separate-stderr "$SERVER" stop
  assert_success
  assert_output ""
}

@test "uri of a layout that is not running says how to start it" {
  run --separate-stderr "$SERVER" uri sharded
  [ "$status" -eq 1 ]
  assert_equal "$stderr" "mongod.sh: the sharded layout is not running (tests/servers/mongod.sh start sharded)"
}

@test "TMPDIR ending in / (macOS's default): stop stops the server it started before deleting its folder" {
  export HOME="${BATS_TEST_TMPDIR}/home" TMPDIR="${TMPDIR}/"
  mkdir -p "$HOME"
  DBA_LAB_MONGODB_BINARIES="${DBA_LAB_ROOT}/tests/fixtures/mlaunch-lane/bin" run --separate-stderr "$SERVER" start single
  assert_success
  STANDIN_PORT=$(cat "${DBA_LAB_MONGOD_STATE}/single/port")
  assert_equal "$(standins_on "$STANDIN_PORT" | wc -l | tr -d ' ')" 1
  run --separate-stderr "$SERVER" stop single
  assert_success
  assert_equal "$(standins_on "$STANDIN_PORT" | wc -l | tr -d ' ')" 0
  run find "$TMPDIR" -mindepth 1 -maxdepth 1
  assert_success
  assert_output ""
}
