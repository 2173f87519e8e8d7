#!/usr/bin/env bats
# The stand-in mongod of the mlaunch lane (tests/fixtures/mlaunch-lane, a TEST
# FIXTURE ONLY) held to what mongod does where our code depends on it: the
# lock on its dbpath, a second start refused with DBPathInUse, a shutdown that
# takes time (quiesce with the port open, then the port closed with the lock
# still held), its logv2 lines with mongod's ids, and its paths made absolute.
# The real behaviour is read in mongodb/mongo (mongod_main.cpp,
# storage_engine_lock_file_posix.cpp, signal_handlers.cpp, util/exit.cpp,
# initialize_server_global_state.cpp, mongod_options.cpp).
# With STANDIN_BACKEND=ferretdb a plain mongod serves data through the
# FerretDB it starts as its child: what it relays, and that FerretDB ends with it.

bats_require_minimum_version 1.5.0

LANE="${DBA_LAB_ROOT}/tests/fixtures/mlaunch-lane"
FERRETDB="${DBA_LAB_ROOT}/.tools/ferretdb/ferretdb-v1.24.2"

setup() {
  load test_helper
  load playbook_helper
  DB="${BATS_TEST_TMPDIR}/db"
  LOG="${BATS_TEST_TMPDIR}/mongod.log"
  mkdir -p "$DB"
  PORT=$(lane_port_base)
}

teardown() {
  # A failed test must not leave a stand-in behind (its pid is in the lock).
  local pid
  pid=$(head -n 1 "${DB}/mongod.lock" 2>/dev/null || true)
  [[ -z "$pid" ]] || kill -KILL "$pid" 2>/dev/null || true
  # Nor a FerretDB it started (its pid is in the log), checked by its data folder.
  pid=$(ferretdb_pid 2>/dev/null || true)
  if [[ -n "$pid" ]] && ps -ww -o args= -p "$pid" 2>/dev/null | grep -qF -- "--state-dir=${DB}/ferretdb"; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

# A replica set member as mlaunch starts one (the server closes only 0-2, as
# mongod does: bats' fd 3 must not reach it).
start_standin() {
  "${LANE}/bin/mongod" --replSet rs --dbpath "$DB" --logpath "$LOG" --port "$PORT" --fork 3>&-
}

standin_pid() {
  head -n 1 "${DB}/mongod.lock"
}

# A plain mongod serving through FerretDB, as mlaunch starts a single node.
start_backend_standin() {
  [[ -x "$FERRETDB" ]] || skip "no FerretDB built in this checkout (tests/servers/ferretdb.sh build)"
  STANDIN_BACKEND=ferretdb "${LANE}/bin/mongod" --dbpath "$DB" --logpath "$LOG" --port "$PORT" --fork 3>&-
}

# The FerretDB the stand-in started, from its log.
ferretdb_pid() {
  jq -r 'select(.msg == "FerretDB started") | .attr.pid' "$LOG"
}

# mongosh on the stand-in's port, database "lab": prints what JS prints.
shell() {
  mongosh --quiet --norc "mongodb://127.0.0.1:${PORT}/lab" --eval "$1"
}

# Running and not a zombie waiting for its parent.
alive() {
  local stat
  stat=$(ps -o stat= -p "$1") || return 1
  [[ "$stat" != Z* ]]
}

gone() {
  ! alive "$1"
}

# Someone holds an exclusive flock on FILE (what mongod takes).
locked() {
  ! flock -n "$1" true
}

port_closed() {
  ! (exec 9<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null
}

lock_free() {
  flock -n "${DB}/mongod.lock" true
}

# pymongo's ping, as mlaunch asks it (directConnection): "ok" or the error.
ping() {
  "${DBA_LAB_ROOT}/.tools/venv/bin/python3" -c '
import sys
from pymongo import MongoClient
from pymongo.errors import PyMongoError
c = MongoClient("localhost", int(sys.argv[1]), directConnection=True, serverSelectionTimeoutMS=1000)
try:
    c.admin.command("ping")
    print("ok")
except PyMongoError as e:
    print(e)
' "$PORT"
}

# The ids of the log's lines, space-separated.
log_ids() {
  jq -r '.id' "$LOG" | paste -sd ' ' -
}

wait_until() {
  local _
  for _ in $(seq 100); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

@test "stand-in: holds mongod.lock in its dbpath, with its pid, while it runs" {
  run start_standin
  assert_success
  assert_line 'child process started successfully, parent exiting'
  run alive "$(standin_pid)"
  assert_success
  run locked "${DB}/mongod.lock"
  assert_success
}

@test "stand-in: a second one on the same dbpath exits 100 with DBPathInUse, as mongod does" {
  start_standin
  run -100 "${LANE}/bin/mongod" --dbpath "$DB" --logpath "$LOG" --port $((PORT + 1)) --fork 3>&-
  assert_line 'ERROR: child process failed, exited with error number 100'
  run jq -r 'select(.id == 20557) | [.s, .msg, .attr.error] | @tsv' "$LOG"
  assert_success
  assert_output "$(printf 'E\tDBException in initAndListen, terminating\tDBPathInUse: Unable to lock the lock file: %s/mongod.lock (Resource temporarily unavailable). Another mongod instance is already running on the %s directory' "$DB" "$DB")"
  run jq -r 'select(.id == 23138) | .attr.exitCode' "$LOG"
  assert_success
  assert_output 100
}

@test "stand-in: a port in use exits 48 before it takes the lock" {
  start_standin
  local other="${BATS_TEST_TMPDIR}/other"
  mkdir -p "$other"
  run -48 "${LANE}/bin/mongod" --dbpath "$other" --logpath "$LOG" --port "$PORT" --fork 3>&-
  assert_line 'ERROR: child process failed, exited with error number 48'
  run test -e "${other}/mongod.lock"
  assert_failure
}

@test "stand-in: after SIGTERM a member quiesces on its open port, then closes it and holds the lock until it exits" {
  STANDIN_QUIESCE_SECONDS=4 STANDIN_SHUTDOWN_SECONDS=1.5 start_standin
  local pid
  pid=$(standin_pid)
  kill -TERM "$pid"
  # Quiesce (5.0+): the port still accepts, the handshake's hello is refused.
  run port_closed
  assert_failure
  run ping
  assert_success
  assert_output --partial 'The server is in quiesce mode and will shut down'
  # Then the listener is closed while the storage engine still holds the lock.
  run wait_until port_closed
  assert_success
  run alive "$pid"
  assert_success
  run locked "${DB}/mongod.lock"
  assert_success
  run wait_until lock_free
  assert_success
  # Released the way mongod does: truncated, not deleted.
  run stat -c %s "${DB}/mongod.lock"
  assert_success
  assert_output 0
}

@test "stand-in: writes mongod's startup and shutdown lines with their real ids" {
  STANDIN_QUIESCE_SECONDS=0.2 STANDIN_SHUTDOWN_SECONDS=0.2 start_standin
  local pid
  pid=$(standin_pid)
  kill -TERM "$pid"
  run wait_until lock_free
  assert_success
  run log_ids
  assert_success
  assert_output '4615611 23016 23377 23378 23381 4784900 20562 4784930 22279 20565 23138'
  run jq -r 'select(.id == 23378) | .attr.pid == '"$$"'' "$LOG"
  assert_success
  assert_output true
  run jq -r 'select(.id == 23138) | [.msg, .attr.exitCode] | @tsv' "$LOG"
  assert_success
  assert_output "$(printf 'Shutting down\t0')"
}

@test "stand-in: with --fork a relative dbpath is made absolute against the start folder and loses its trailing slash" {
  cd "$BATS_TEST_TMPDIR"
  run "${LANE}/bin/mongod" --dbpath db/ --logpath mongod.log --port "$PORT" --fork 3>&-
  assert_success
  run jq -r 'select(.id == 4615611) | .attr.dbPath' "$LOG"
  assert_success
  assert_output "${BATS_TEST_TMPDIR}/db"
  run locked "${DB}/mongod.lock"
  assert_success
}

@test "stand-in: a dbpath that does not exist exits 100 with NonExistentPath" {
  run -100 "${LANE}/bin/mongod" --dbpath "${BATS_TEST_TMPDIR}/missing" --logpath "$LOG" --port "$PORT" --fork 3>&-
  run jq -r 'select(.id == 20557) | .attr.error' "$LOG"
  assert_success
  assert_output --partial "NonExistentPath: Data directory ${BATS_TEST_TMPDIR}/missing not found."
}

@test "stand-in backend: an insert, a find and a drop on its port are served by FerretDB" {
  start_backend_standin
  run -0 shell 'db.c.insertMany([{_id: 1, a: "b"}, {_id: 2, a: "c"}]);
    print(EJSON.stringify(db.c.find().sort({_id: 1}).toArray()));
    print(db.c.drop());
    print(db.c.countDocuments())'
  assert_output "$(printf '%s\n' '[{"_id":1,"a":"b"},{"_id":2,"a":"c"}]' true 0)"
  # The database went to FerretDB's files in the stand-in's dbpath.
  run -0 test -f "${DB}/ferretdb/lab.sqlite"
}

@test "stand-in backend: mongodump's reads and mongorestore's inserts (document sequences) pass through it" {
  start_backend_standin
  local uri="mongodb://127.0.0.1:${PORT}/" archive="${BATS_TEST_TMPDIR}/lab.archive"
  run -0 shell 'print(db.c.insertMany(Array.from({length: 1000}, (_, i) => ({_id: i, a: "b"}))).acknowledged)'
  assert_output true
  run -0 mongodump --uri "$uri" --db lab --archive="$archive" --quiet
  run -0 mongorestore --uri "$uri" --archive="$archive" --nsFrom 'lab.*' --nsTo 'copy.*' --quiet
  run -0 shell 'print(db.getSiblingDB("copy").c.countDocuments({a: "b"}))'
  assert_output 1000
}

@test "stand-in backend: hello and buildInfo stay its own, with the version it claims" {
  STANDIN_VERSION=8.0.4 start_backend_standin
  run -0 shell 'print(db.version(), db.hello().isWritablePrimary)'
  assert_output '8.0.4 true'
}

@test "stand-in backend: FerretDB is its child, its data folder under the dbpath on its command line" {
  start_backend_standin
  local fpid
  fpid=$(ferretdb_pid)
  run -0 ps -o ppid= -p "$fpid"
  assert_equal "${output// /}" "$(standin_pid)"
  run -0 ps -ww -o args= -p "$fpid"
  assert_output --partial " --state-dir=${DB}/ferretdb "
  run -0 test -f "${DB}/ferretdb/state.json"
}

@test "stand-in backend: SIGTERM stops FerretDB and waits for it before mongod.lock is released" {
  STANDIN_SHUTDOWN_SECONDS=0.2 start_backend_standin
  local fpid
  fpid=$(ferretdb_pid)
  kill -TERM "$(standin_pid)"
  run wait_until lock_free
  assert_success
  run alive "$fpid"
  assert_failure
  # FerretDB's exit (0: it stopped on SIGTERM, not killed) came before the lock's release.
  run -0 jq -r 'select(.id == 0 or .id == 22279) | [.msg, .attr.exit // ""] | @tsv' "$LOG"
  assert_output "$(printf 'FerretDB started\t\nFerretDB stopped\t0\nshutdown: removing fs lock...\t')"
}

@test "stand-in backend: a SIGKILLed stand-in leaves no FerretDB behind" {
  start_backend_standin
  local fpid
  fpid=$(ferretdb_pid)
  run alive "$fpid"
  assert_success
  kill -KILL "$(standin_pid)"
  run wait_until gone "$fpid"
  assert_success
}

@test "stand-in backend: a replica set member is refused with the reason before anything starts" {
  run -2 env STANDIN_BACKEND=ferretdb "${LANE}/bin/mongod" --replSet rs --dbpath "$DB" --logpath "$LOG" --port "$PORT" --fork 3>&-
  assert_output 'stand-in (test fixture): STANDIN_BACKEND=ferretdb serves a plain mongod only, not one started with --replSet: FerretDB has no replication or sharding'
  run -1 test -e "${DB}/mongod.lock"
}
