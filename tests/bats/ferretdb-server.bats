#!/usr/bin/env bats
# setup/ferretdb.sh (tests/servers/ferretdb.sh runs it for the integration
# tests): a local FerretDB for the playbooks' --uri. Built once per machine,
# not once per clone: a new checkout takes the copy kept in the user's cache
# (XDG_CACHE_HOME here) when it runs, and builds otherwise. Its errors say
# what to do; what starts a server needs the checkout's built copy.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  BUILT="${DBA_LAB_ROOT}/.tools/ferretdb/ferretdb-v1.24.2"
  CLONE="${BATS_TEST_TMPDIR}/clone"
  mkdir -p "${CLONE}/tests/servers" "${CLONE}/setup" "${BATS_TEST_TMPDIR}/fake-go"
  cp "${DBA_LAB_ROOT}/tests/servers/ferretdb.sh" "${CLONE}/tests/servers/"
  cp "${DBA_LAB_ROOT}/setup/ferretdb.sh" "${DBA_LAB_ROOT}/setup/require-bash.sh" "${CLONE}/setup/"
  export XDG_CACHE_HOME="${BATS_TEST_TMPDIR}/cache"
  CACHED="${XDG_CACHE_HOME}/dba-lab/ferretdb-v1.24.2-$(uname -s)-$(uname -m)"
  # A go that only says it was called: a build from source would need it.
  printf '#!/bin/sh\necho called >>%q\nexit 99\n' "${BATS_TEST_TMPDIR}/go.log" >"${BATS_TEST_TMPDIR}/fake-go/go"
  chmod +x "${BATS_TEST_TMPDIR}/fake-go/go"
  export DBA_LAB_FERRETDB_STATE="${BATS_TEST_TMPDIR}/state"
}

# A server a test started is stopped, and its data folder deleted, also when
# the test fails.
teardown() {
  if [[ -f "${DBA_LAB_FERRETDB_STATE}/pid" ]]; then
    "${CLONE}/setup/ferretdb.sh" stop 2>/dev/null || true
  fi
}

need_built() {
  [[ -x "$BUILT" ]] || skip "no FerretDB built in this checkout (setup/ferretdb.sh build)"
  mkdir -p "${CLONE}/.tools/ferretdb"
  cp "$BUILT" "${CLONE}/.tools/ferretdb/"
}

ferretdb() {
  "${CLONE}/setup/ferretdb.sh" "$@"
}

@test "a new clone takes FerretDB from the user's cache without compiling it" {
  [[ -x "$BUILT" ]] || skip "no FerretDB built in this checkout (setup/ferretdb.sh build)"
  mkdir -p "${CACHED%/*}"
  cp "$BUILT" "$CACHED"
  PATH="${BATS_TEST_TMPDIR}/fake-go:${PATH}" run "${CLONE}/tests/servers/ferretdb.sh" build
  assert_success
  [[ ! -e "${BATS_TEST_TMPDIR}/go.log" ]]
  cmp "$BUILT" "${CLONE}/.tools/ferretdb/ferretdb-v1.24.2"
}

@test "a cached copy that does not run is not used: the clone builds from source" {
  mkdir -p "${CACHED%/*}"
  printf 'not a program\n' >"$CACHED"
  chmod +x "$CACHED"
  PATH="${BATS_TEST_TMPDIR}/fake-go:${PATH}" run "${CLONE}/tests/servers/ferretdb.sh" build
  assert_failure 1
  assert_output --partial 'could not download github.com/FerretDB/FerretDB@v1.24.2'
  run cat "${BATS_TEST_TMPDIR}/go.log"
  assert_success
  assert_output called
  [[ ! -e "${CLONE}/.tools/ferretdb/ferretdb-v1.24.2" ]]
}

@test "--help says what FerretDB is, which playbooks run there, how to stop it and where its data lives" {
  run -0 ferretdb --help
  assert_line --partial "MongoDB's wire protocol"
  assert_line --partial 'It is not MongoDB: no replica set, oplog, change streams,'
  # shellcheck disable=SC2016 # the help shows the shell's own $uri and $TMPDIR
  {
    assert_line '  playbooks/mongodump-raw-bson.sh --uri "$uri" --scale tiny'
    assert_line '  playbooks/capped-pubsub.sh --uri "$uri" --scale tiny --compare none'
    assert_line '  setup/ferretdb.sh stop'
    assert_line '  $TMPDIR  '"${TMPDIR:-/tmp}"
    assert_line --regexp '^Where things live: the data in a new folder under \$TMPDIR at each start, deleted$'
  }
  assert_line "  state    ${DBA_LAB_FERRETDB_STATE}"
  # A trainer reads it in a terminal of 100 columns; a path is as long as it is.
  # shellcheck disable=SC2016 # awk's pattern, not the shell's
  run -0 awk 'length > 100 && !/^  (\$TMPDIR|state) /' <<<"$output"
  assert_output ''
}

@test "no command, or one it does not know, is a usage error (exit 2)" {
  run -2 --separate-stderr ferretdb
  assert_regex "$stderr" '^Usage: setup/ferretdb\.sh start'
  run -2 --separate-stderr ferretdb restart
  assert_equal "$stderr" "setup/ferretdb.sh: unknown command 'restart' (see setup/ferretdb.sh --help)"
  run -2 --separate-stderr ferretdb start --port 80
  assert_equal "$stderr" "setup/ferretdb.sh: --port must be a number from 1024 to 65535, got '80' (see setup/ferretdb.sh --help)"
}

@test "with no built copy and no go, start says Go is needed, and leaves nothing" {
  PATH=$(path_without go) run -1 --separate-stderr ferretdb start
  assert_equal "$stderr" "setup/ferretdb.sh: go not found: FerretDB is built once, from the Go module proxy, which needs Go 1.24+ (https://go.dev/dl/) and the network"
  assert_output ''
  [[ ! -e "$DBA_LAB_FERRETDB_STATE" ]]
  [[ ! -e "${CLONE}/.tools/ferretdb/ferretdb-v1.24.2" ]]
}

@test "start --port on a port in use says so before anything is built" {
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("ready", flush=True); time.sleep(60)' "$port" \
    >"${BATS_TEST_TMPDIR}/listener" &
  LISTENER=$!
  local _
  for _ in $(seq 50); do grep -q ready "${BATS_TEST_TMPDIR}/listener" && break; sleep 0.1; done
  PATH="${BATS_TEST_TMPDIR}/fake-go:${PATH}" run -1 --separate-stderr ferretdb start --port "$port"
  kill "$LISTENER"
  wait "$LISTENER" || true
  assert_equal "$stderr" "setup/ferretdb.sh: port ${port} on 127.0.0.1 is in use (another server?): choose another --port, or leave --port out for a free one"
  [[ ! -e "${BATS_TEST_TMPDIR}/go.log" ]]
  [[ ! -e "$DBA_LAB_FERRETDB_STATE" ]]
}

@test "stop with no server running says so and fails" {
  run -1 --separate-stderr ferretdb stop
  assert_equal "$stderr" "setup/ferretdb.sh: not running: nothing to stop"
}

@test "start prints the URI; a second start prints the same URI and says it was running; stop deletes the data" {
  need_built
  run -0 --separate-stderr ferretdb start
  assert_regex "$output" '^mongodb://127\.0\.0\.1:[0-9]+/$'
  local uri=$output data
  data=$(cat "${DBA_LAB_FERRETDB_STATE}/data")
  assert_regex "$stderr" "on 127\\.0\\.0\\.1:[0-9]+ \\(pid [0-9]+, data in .*\\); stop it with setup/ferretdb\\.sh stop"
  [[ -d "$data" ]]
  run -0 --separate-stderr ferretdb start
  assert_equal "$output" "$uri"
  assert_regex "$stderr" '^setup/ferretdb\.sh: already running \(pid [0-9]+\); its URI:$'
  run -0 ferretdb uri
  assert_equal "$output" "$uri"
  run -0 ferretdb stop
  [[ ! -e "$data" && ! -e "$DBA_LAB_FERRETDB_STATE" ]]
  run -1 --separate-stderr ferretdb uri
  assert_equal "$stderr" "setup/ferretdb.sh: not running (start it with setup/ferretdb.sh start)"
}

# ended FOLDER_VAR: the running server killed as a crash or a reboot would
# end it, without stop; FOLDER_VAR gets the data folder it left.
ended() {
  local pid
  printf -v "$1" '%s' "$(cat "${DBA_LAB_FERRETDB_STATE}/data")"
  pid=$(cat "${DBA_LAB_FERRETDB_STATE}/pid")
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

@test "a server that ended without stop: the next start deletes the data it left and starts anew" {
  need_built
  run -0 ferretdb start
  local left
  ended left
  run -0 ferretdb start
  [[ ! -e "$left" ]]
  [[ -d "$(cat "${DBA_LAB_FERRETDB_STATE}/data")" ]]
}

@test "a server that ended without stop: stop says it had stopped, fails, and deletes what it left" {
  need_built
  run -0 ferretdb start
  local left
  ended left
  run -1 --separate-stderr ferretdb stop
  assert_equal "$stderr" "setup/ferretdb.sh: not running: it had already stopped; what it left (its data folder) is deleted"
  [[ ! -e "$left" && ! -e "$DBA_LAB_FERRETDB_STATE" ]]
}
