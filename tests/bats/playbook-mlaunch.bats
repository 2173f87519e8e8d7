#!/usr/bin/env bats
# mlaunch wrapper (playbooks/lib/mlaunch.sh): reading mlaunch's answers, the
# planned layout, ports, data-directory ownership and teardown. The mlaunch
# output is recorded from the real mlaunch 1.7.2 run against the stand-in
# servers of the mlaunch lane (tests/fixtures/mlaunch-lane/recorded/README.md);
# tests/bats/mlaunch-lane.bats runs the same against live stand-ins.

# shellcheck disable=SC2034 # the PB_* globals set in the tests are read by the framework
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  load_framework
  REC="${DBA_LAB_ROOT}/tests/fixtures/mlaunch-lane/recorded"
}

@test "an mlaunch answer that starts with 'Detected mongod version' still parses (a mongod on PATH)" {
  run pb::_mlaunch_json <"${REC}/replset-list.txt"
  assert_success
  assert_output "$(tail -n 1 "${REC}/replset-list.txt")"
}

@test "an mlaunch answer without a JSON document is a failure, not an empty list" {
  run pb::_mlaunch_json <"${REC}/replset-stop.txt"
  assert_failure
}

@test "a replica set: kinds from the stored command lines, not mlaunch's racy tags; log paths with a space whole" {
  local list d='/home/me/My Labs/7.0.12/rs'
  list=$(pb::_mlaunch_json <"${REC}/replset-list.txt")
  run pb::_processes_from_startup "${REC}/replset-mlaunch_startup.json" "$list"
  assert_success
  assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    'replset member' 31100 22453 running "${d}/rs1/mongod.log" rs \
    'replset member' 31101 22501 running "${d}/rs2/mongod.log" rs \
    arbiter 31102 22568 running "${d}/arb/mongod.log" rs)"
}

@test "a stopped replica set: every process down, pid '-'" {
  local list
  list=$(pb::_mlaunch_json <"${REC}/replset-list-stopped.txt")
  run pb::_processes_from_startup "${REC}/replset-mlaunch_startup.json" "$list"
  assert_success
  assert_output "$(printf '%s\t%s\t-\tdown\t%s\trs\n' \
    'replset member' 31100 '/home/me/My Labs/7.0.12/rs/rs1/mongod.log' \
    'replset member' 31101 '/home/me/My Labs/7.0.12/rs/rs2/mongod.log' \
    arbiter 31102 '/home/me/My Labs/7.0.12/rs/arb/mongod.log')"
}

@test "a sharded cluster: mongos, shard members with their shard, the config server" {
  local list d='/home/me/My Labs/sharded'
  list=$(pb::_mlaunch_json <"${REC}/sharded-list.txt")
  run pb::_processes_from_startup "${REC}/sharded-mlaunch_startup.json" "$list"
  assert_success
  assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    mongos 31200 25621 running "${d}/mongos/mongos_31200.log" '' \
    mongos 31201 25651 running "${d}/mongos/mongos_31201.log" '' \
    'shard member' 31202 25555 running "${d}/shard01/rs1/mongod.log" shard01 \
    'shard member' 31203 25570 running "${d}/shard02/rs1/mongod.log" shard02 \
    'config server' 31204 25582 running "${d}/configRepl/rs1/mongod.log" configRepl)"
}

@test "before launch the planned layout names every process and log path mlaunch will create" {
  PB_TOPOLOGY=sharded PB_SHARDS=2 PB_NODES=2 PB_ARBITER=1 PB_CONFIG_SERVERS=1 PB_MONGOS=2 PB_PORT=30000
  run pb::cluster_processes /tmp/lab
  assert_success
  assert_output "$(printf '%s\t%s\t-\tplanned\t%s\t%s\n' \
    mongos 30000 /tmp/lab/mongos/mongos_30000.log '' \
    mongos 30001 /tmp/lab/mongos/mongos_30001.log '' \
    'shard member' 30002 /tmp/lab/shard01/rs1/mongod.log shard01 \
    'shard member' 30003 /tmp/lab/shard01/rs2/mongod.log shard01 \
    arbiter 30004 /tmp/lab/shard01/arb/mongod.log shard01 \
    'shard member' 30005 /tmp/lab/shard02/rs1/mongod.log shard02 \
    'shard member' 30006 /tmp/lab/shard02/rs2/mongod.log shard02 \
    arbiter 30007 /tmp/lab/shard02/arb/mongod.log shard02 \
    'config server' 30008 /tmp/lab/configRepl/rs1/mongod.log configRepl)"
  # The same ports pb::cluster_ports checks in preflight.
  run pb::cluster_ports
  assert_success
  assert_output "$(seq 30000 30008)"
}

@test "planned layouts of a single node and of a replica set" {
  PB_TOPOLOGY=single PB_PORT=30100
  run pb::cluster_processes /tmp/lab
  assert_success
  assert_output "$(printf 'single\t30100\t-\tplanned\t/tmp/lab/mongod.log\t')"
  PB_TOPOLOGY=replset PB_NODES=1 PB_ARBITER=0 PB_REPLSET_NAME=rs PB_CLUSTER_DIR=/tmp/lab
  run pb::node_logs 'replset member'
  assert_success
  assert_output /tmp/lab/rs/rs1/mongod.log
}

@test "log paths, of a node or of a kind, come from the layout mlaunch stored, without asking mlaunch list" {
  local dir="${BATS_TEST_TMPDIR}/lab"
  mkdir -p "$dir" "${BATS_TEST_TMPDIR}/bin"
  cp "${REC}/replset-mlaunch_startup.json" "${dir}/.mlaunch_startup"
  printf '#!/bin/sh\necho "$*" >>"%s/mlaunch.calls"\nexit 1\n' "$BATS_TEST_TMPDIR" >"${BATS_TEST_TMPDIR}/bin/mlaunch"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mlaunch"
  PB_CLUSTER_DIR=$dir
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::node_log 31101
  assert_success
  assert_output '/home/me/My Labs/7.0.12/rs/rs2/mongod.log'
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::node_logs arbiter
  assert_success
  assert_output '/home/me/My Labs/7.0.12/rs/arb/mongod.log'
  [[ ! -e "${BATS_TEST_TMPDIR}/mlaunch.calls" ]]
}

@test "in a dry run the primary is the first planned member, and nothing is asked (no cluster runs)" {
  local primary=''
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # shellcheck disable=SC2016 # the stub's own "$*"
  printf '#!/usr/bin/env bash\nprintf "%%s\\n" "$*" >>"%s/mongosh.calls"\n' "$BATS_TEST_TMPDIR" >"${BATS_TEST_TMPDIR}/bin/mongosh"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mongosh"
  PB_DRY_RUN=1 PB_TOPOLOGY=replset PB_NODES=3 PB_ARBITER=0 PB_REPLSET_NAME=rs PB_PORT=30300 PB_CLUSTER_DIR=/tmp/lab
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" pb::primary_port primary rs
  assert_equal "$primary" 30300
  [[ ! -e "${BATS_TEST_TMPDIR}/mongosh.calls" ]]
}

@test "a directory that exists is never claimed" {
  mkdir -p "${BATS_TEST_TMPDIR}/theirs"
  run pb::claim_dir "${BATS_TEST_TMPDIR}/theirs"
  assert_failure
  assert_output --partial 'already exists: this run never reuses a directory it did not create'
}

@test "a symlink to nothing is never claimed (mkdir -p would follow it)" {
  ln -s "${BATS_TEST_TMPDIR}/gone" "${BATS_TEST_TMPDIR}/dangling"
  run pb::claim_dir "${BATS_TEST_TMPDIR}/dangling"
  assert_failure
  assert_output --partial "dangling already exists: this run never reuses a directory it did not create"
}

@test "a claimed directory is deleted; one whose mark names another run is kept" {
  pb::claim_dir "${BATS_TEST_TMPDIR}/mine"
  pb::release_dir "${BATS_TEST_TMPDIR}/mine"
  [[ ! -e "${BATS_TEST_TMPDIR}/mine" ]]
  mkdir -p "${BATS_TEST_TMPDIR}/other"
  printf 'another-run\n' >"${BATS_TEST_TMPDIR}/other/.dba-lab-run"
  run pb::release_dir "${BATS_TEST_TMPDIR}/other"
  assert_success
  assert_output --partial "not deleting ${BATS_TEST_TMPDIR}/other: this run did not create it"
  [[ -e "${BATS_TEST_TMPDIR}/other/.dba-lab-run" ]]
}

@test "teardown counts as its own only processes whose command line names the cluster folder" {
  sleep 300 &
  local pid=$!
  run pb::_pid_in_dir "$pid" /tmp/lab/7.0.12
  kill "$pid"
  assert_failure
}

# A process that names DIR in --dbpath like a mongod, and is not one.
start_named_process() {
  local python
  # The interpreter itself, not a version manager's shim: a shim (pyenv) is a
  # second process with the same command line for a moment.
  python=$(python3 -c 'import sys; print(sys.executable)')
  "$python" -c 'import time; time.sleep(300)' mongod --dbpath "$1/rs1/db" &
  NAMED_PID=$!
  # Until it has exec'd, the child's command line is the test shell's.
  local _
  for _ in $(seq 100); do
    [[ "$(ps -o args= -p "$NAMED_PID")" != *--dbpath* ]] || return 0
    sleep 0.05
  done
}

@test "a process of the folder counts as its own also when another one is listed after it (pipefail, as in a playbook)" {
  local dir="${BATS_TEST_TMPDIR}/lab" first
  start_named_process "$dir"
  first=$NAMED_PID
  start_named_process "$dir"
  set -o pipefail
  run pb::_pid_in_dir "$first" "$dir"
  kill "$first" "$NAMED_PID"
  assert_success
}

@test "processes of a folder are found by the command line, with a space in the path" {
  local dir="${BATS_TEST_TMPDIR}/My Labs/7.0.12"
  start_named_process "$dir"
  run pb::dir_pids "$dir"
  kill "$NAMED_PID"
  assert_success
  assert_output "$NAMED_PID"
}

@test "teardown when mlaunch cannot list: no mlaunch stop (it signals by port alone), the folder's processes, then the folder goes" {
  local dir="${BATS_TEST_TMPDIR}/My Labs/7.0.12"
  pb::claim_dir "$dir"
  printf '{}\n' >"${dir}/.mlaunch_startup"
  start_named_process "$dir"
  # An mlaunch that fails to list (as a JSON parse failure did) and stops nothing.
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # shellcheck disable=SC2016 # the fake's own "$*" and "$1"
  printf '#!/usr/bin/env bash\nprintf "%%s\\n" "$*" >>"%s/mlaunch.calls"\n[[ "$1" != list ]]\n' "$BATS_TEST_TMPDIR" >"${BATS_TEST_TMPDIR}/bin/mlaunch"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mlaunch"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::cluster_teardown "$dir"
  assert_success
  assert_output --partial "cannot list the processes of ${dir} with mlaunch"
  assert_output --partial "not using mlaunch stop: stopping only the processes whose --dbpath or --logpath lies in ${dir}"
  run cat "${BATS_TEST_TMPDIR}/mlaunch.calls"
  assert_success
  assert_output "list --json --dir ${dir}"
  run kill -0 "$NAMED_PID"
  assert_failure
  [[ ! -e "$dir" ]]
}

@test "teardown never deletes a folder a process still runs from" {
  local dir="${BATS_TEST_TMPDIR}/lab"
  pb::claim_dir "$dir"
  start_named_process "$dir"
  # A process that outlives SIGTERM and SIGKILL (as one in uninterruptible sleep does).
  pb::_stop_dir_processes() { :; }
  run pb::cluster_teardown "$dir"
  kill "$NAMED_PID"
  assert_failure
  assert_output --partial "not deleting ${dir}: pid(s) ${NAMED_PID} still run from it"
  [[ -f "${dir}/.dba-lab-run" ]]
}

@test "releasing a claimed folder refuses while a process runs from a folder inside it" {
  local dir="${BATS_TEST_TMPDIR}/data"
  pb::claim_dir "$dir"
  start_named_process "${dir}/7.0.12"
  run pb::release_dir "$dir"
  kill "$NAMED_PID"
  assert_failure
  assert_output --partial "not deleting ${dir}: pid(s) ${NAMED_PID} still run from it"
  [[ -f "${dir}/.dba-lab-run" ]]
}

@test "--dir, --report-dir and --binarypath are made absolute exactly as mlaunch does (os.path.abspath)" {
  local form
  mkdir -p "${BATS_TEST_TMPDIR}/p/work"
  cd "${BATS_TEST_TMPDIR}/p/work"
  for form in data/x/ ./x x//y ../p/x . .. x/./y/../z /abs//dir/ //net/x ///root/x '/a b/../c d/'; do
    run pb::_absolute "$form"
    assert_success
    assert_output "$(python3 -c 'import os, sys; print(os.path.abspath(sys.argv[1]))' "$form")"
  done
}

@test "a relative --dir is taken from the real working folder, as mlaunch's os.getcwd() does, not the shell's symlinked one" {
  mkdir -p "${BATS_TEST_TMPDIR}/real"
  ln -s real "${BATS_TEST_TMPDIR}/link"
  cd "${BATS_TEST_TMPDIR}/link"
  run pb::_absolute x/
  assert_success
  assert_output "$(cd "${BATS_TEST_TMPDIR}/real" && pwd -P)/x"
}

@test "a folder's processes are found when the folder is named through a symlink" {
  mkdir -p "${BATS_TEST_TMPDIR}/real/7.0.12/rs1/db"
  ln -s real "${BATS_TEST_TMPDIR}/link"
  # mlaunch passes the path it was given (abspath resolves no symlink).
  start_named_process "${BATS_TEST_TMPDIR}/link/7.0.12"
  run pb::dir_pids "${BATS_TEST_TMPDIR}/real/7.0.12"
  assert_success
  local by_real=("${lines[@]}")
  run pb::dir_pids "${BATS_TEST_TMPDIR}/link/7.0.12/"
  kill "$NAMED_PID"
  assert_success
  assert_output "$NAMED_PID"
  assert_equal "${by_real[*]}" "$NAMED_PID"
}

@test "without /proc (macOS) a folder's processes are read from ps, a path with a space included" {
  local dir="${BATS_TEST_TMPDIR}/My Labs/7.0.12"
  mkdir -p "${dir}/rs1/db"
  start_named_process "$dir"
  PB_PROC=/nonexistent run pb::dir_pids "${dir}/"
  local found=$output status_ps=$status
  PB_PROC=/nonexistent run pb::dir_pids "${BATS_TEST_TMPDIR}/My Labs/7.0"
  kill "$NAMED_PID"
  assert_equal "$status_ps" 0
  assert_equal "$found" "$NAMED_PID"
  # A sibling whose name starts the same is another folder.
  assert_success
  assert_output ''
}

@test "a folder's processes are found when COLUMNS is exported narrow (ps would cut the lines)" {
  local dir="${BATS_TEST_TMPDIR}/lab"
  start_named_process "$dir"
  COLUMNS=20 run pb::dir_pids "$dir"
  kill "$NAMED_PID"
  assert_success
  assert_output "$NAMED_PID"
}

@test "a server slow to shut down: teardown says it waits, and waits for it before deleting the folder" {
  local dir="${BATS_TEST_TMPDIR}/lab" python
  pb::claim_dir "$dir"
  python=$(python3 -c 'import sys; print(sys.executable)')
  # Like a mongod flushing its data: SIGTERM starts a 4 s shutdown.
  "$python" -c 'import signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: (time.sleep(4), sys.exit(0)))
open(sys.argv[1], "w").close()
time.sleep(300)' "${BATS_TEST_TMPDIR}/ready" mongod --dbpath "${dir}/rs1/db" &
  local pid=$! _
  for _ in $(seq 100); do [[ -e "${BATS_TEST_TMPDIR}/ready" ]] && break; sleep 0.1; done
  run pb::cluster_teardown "$dir"
  assert_success
  assert_output --partial "waiting for pid(s) ${pid} to shut down (SIGKILL after 60 s"
  run kill -0 "$pid"
  assert_failure
  [[ ! -e "$dir" ]]
}

@test "the port check sees a listening socket" {
  local port
  port=$(free_port_base)
  run pb::port_free "$port"
  assert_success
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(5)' "$port" &
  local pid=$! _
  for _ in $(seq 50); do pb::port_free "$port" || break; sleep 0.1; done
  run pb::port_free "$port"
  kill "$pid"
  assert_failure
}

# An ss on PATH that lists PORT as listening first, then thousands of other
# sockets (a busy host): more than a pipe holds, so a reader that stops at
# the first match leaves ss writing into a closed pipe.
ss_with_many_sockets() {
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  cat >"${BATS_TEST_TMPDIR}/bin/ss" <<SH
#!/usr/bin/env bash
printf 'LISTEN 0      4096       127.0.0.1:%s      0.0.0.0:*\n' "$1"
for ((p = 30000; p < 33000; p++)); do printf 'LISTEN 0      4096       127.0.0.1:%s      0.0.0.0:*\n' "\$p"; done
SH
  chmod +x "${BATS_TEST_TMPDIR}/bin/ss"
}

@test "the port check sees a busy port among thousands of listening sockets, under pipefail" {
  local port=24999 _
  ss_with_many_sockets "$port"
  set -o pipefail
  for _ in 1 2 3 4 5; do
    PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::port_free "$port"
    assert_failure
  done
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::port_free 24998
  assert_success
}

@test "a failing ss proves nothing: the port check asks the port itself" {
  local port
  port=$(free_port_base)
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  printf '#!/bin/sh\nexit 1\n' >"${BATS_TEST_TMPDIR}/bin/ss"
  chmod +x "${BATS_TEST_TMPDIR}/bin/ss"
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(5)' "$port" &
  local pid=$! _
  for _ in $(seq 50); do PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" pb::port_free "$port" || break; sleep 0.1; done
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::port_free "$port"
  kill "$pid"
  assert_failure
}

@test "pb::mongos_hosts lists the mongos routers on the first ports" {
  PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=2
  run pb::mongos_hosts
  assert_success
  assert_output 'localhost:27100,localhost:27101'
}

@test "pb::config_uri names configRepl on the ports after the mongos and every shard member" {
  PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=3 PB_ARBITER=0 PB_CONFIG_SERVERS=3
  run pb::config_uri
  assert_success
  assert_output 'mongodb://localhost:27107,localhost:27108,localhost:27109/?replicaSet=configRepl'
  # The same ports as the planned layout (mlaunch's order).
  run bash -c "$(declare -f pb::cluster_ports); PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=3 PB_ARBITER=0 PB_CONFIG_SERVERS=3; pb::cluster_ports | tail -n 3 | paste -sd,"
  assert_success
  assert_output '27107,27108,27109'
}

@test "pb::config_uri counts each shard's arbiter" {
  PB_TOPOLOGY=sharded PB_PORT=30000 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=2 PB_ARBITER=1 PB_CONFIG_SERVERS=1
  run pb::config_uri
  assert_success
  assert_output 'mongodb://localhost:30007/?replicaSet=configRepl'
}

# A process named mongod that has exited but is not reaped for SECONDS: mlaunch
# 1.7.2 reads the command line of every mongod on the machine
# (_get_processes), and psutil raises ZombieProcess for this one.
zombie_mongod_for() {
  local exe="${BATS_TEST_TMPDIR}/zombie/mongod"
  mkdir -p "${exe%/*}"
  cp "$(type -P true)" "$exe"
  python3 -c 'import os, sys, time
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
time.sleep(float(sys.argv[2]))
os.waitpid(pid, 0)' "$exe" "$1" &
  ZOMBIE_PARENT=$!
  local _
  for _ in $(seq 50); do
    pgrep -r Z -x mongod >/dev/null && return 0
    sleep 0.1
  done
  return 1
}

@test "a mongod exiting elsewhere on the machine while mlaunch lists (psutil.ZombieProcess) does not fail the list" {
  local dir="${BATS_TEST_TMPDIR}/cluster"
  mkdir -p "$dir"
  cp "${REC}/replset-mlaunch_startup.json" "${dir}/.mlaunch_startup"
  zombie_mongod_for 2
  run pb::cluster_processes "$dir"
  wait "$ZOMBIE_PARENT"
  assert_success
  assert_line --regexp $'^replset member\t31100\t-\tdown\t'
}

# --- mlaunch's version, asked at every preflight

# An mlaunch that starts with HEAD (its #! line and what pip puts after it);
# running the script itself is logged.
fake_mlaunch() {
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  printf '%s\necho started >>"%s"\necho "mtools version 1.7.0 || Python 3.11.7"\n' "$1" "${BATS_TEST_TMPDIR}/started" \
    >"${BATS_TEST_TMPDIR}/bin/mlaunch"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mlaunch"
}

# A Python at PATH that knows mtools 1.7.2 and nothing else.
fake_python() {
  mkdir -p "${1%/*}"
  # shellcheck disable=SC2016 # the stand-in's own "$2"
  printf '#!/bin/sh\ncase "$2" in *importlib.metadata*) echo 1.7.2 ;; *) exit 1 ;; esac\n' >"$1"
  chmod +x "$1"
}

# The version is the fake Python's, and the fake mlaunch never ran.
assert_read_from_python() {
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::_ask_tool_version mlaunch
  assert_success
  assert_output 1.7.2
  [[ ! -e "${BATS_TEST_TMPDIR}/started" ]]
}

@test "mlaunch's version comes from the mtools package of the Python on its #! line, as --version prints it" {
  local want
  want=$(mlaunch --version 2>&1 | awk '$1 == "mtools" && $2 == "version" {print $3}')
  run pb::_ask_tool_version mlaunch
  assert_success
  assert_output "$want"
}

@test "mlaunch's version is read without starting mlaunch, which imports pymongo" {
  fake_python "${BATS_TEST_TMPDIR}/py/python"
  fake_mlaunch "#!${BATS_TEST_TMPDIR}/py/python"
  assert_read_from_python
}

@test "a venv under a path with a space: pip's #!/bin/sh script names its Python on the next line" {
  fake_python "${BATS_TEST_TMPDIR}/My Labs/python"
  # shellcheck disable=SC2016 # "$0" and "$@" are the script's own
  fake_mlaunch "#!/bin/sh
'''exec' \"${BATS_TEST_TMPDIR}/My Labs/python\" "'"$0" "$@"'"
' '''"
  assert_read_from_python
}

@test "an mlaunch whose #! line is no Python with mtools is asked its version" {
  fake_mlaunch '#!/bin/sh'
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run pb::_ask_tool_version mlaunch
  assert_success
  assert_output 1.7.0
  run cat "${BATS_TEST_TMPDIR}/started"
  assert_success
  assert_output started
}
