#!/usr/bin/env bats
# Preflight (playbooks/lib/preflight.sh): each failed check is listed with what
# to do, the playbook exits 3 and nothing is created; missing tools make it
# run the setup first. No server here: the fake mongod (--version), a build
# the loader refuses (tests/fixtures/fake-server/openssl11), an old node
# (tests/fixtures/old-node) and a mongosh that prints the --uri probe's line
# (tests/fixtures/uri-probe).

# shellcheck disable=SC2030,SC2031,SC2034 # each test changes PATH for itself; PB_* globals are the framework's
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  DATA="${BATS_TEST_TMPDIR}/data"
  REPORT="${BATS_TEST_TMPDIR}/report"
}

teardown() {
  if [[ -n "${LISTENER_PID:-}" ]]; then
    kill "$LISTENER_PID" 2>/dev/null || true
    wait "$LISTENER_PID" 2>/dev/null || true
  fi
}

# Holds PORT open until the test ends.
listen_on() {
  python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("ready", flush=True); time.sleep(120)' "$1" >"${BATS_TEST_TMPDIR}/listener" &
  LISTENER_PID=$!
  local _
  for _ in $(seq 50); do
    grep -q ready "${BATS_TEST_TMPDIR}/listener" 2>/dev/null && return 0
    # It could not bind: the port was taken meanwhile.
    kill -0 "$LISTENER_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# listen_past_free_port OFFSET: PORT, a port the kernel just gave back, and a
# listener on PORT + OFFSET. That one is not checked free, and other jobs'
# client connections take ports near it: up to five tries.
listen_past_free_port() {
  local _
  for _ in 1 2 3 4 5; do
    PORT=$(free_port_base)
    listen_on $((PORT + $1)) && return 0
  done
  return 1
}

demo() {
  "$DEMO" --dir "$DATA" --report-dir "$REPORT" "$@"
}

# The fake setup (tests/fixtures/fake-setup) instead of setup/install.sh.
use_fake_setup() {
  export FAKE_SETUP_LOG="${BATS_TEST_TMPDIR}/setup.log" DBA_LAB_SETUP="${DBA_LAB_ROOT}/tests/fixtures/fake-setup/install.sh"
}

@test "a port in use fails preflight with exit 3, names the port and suggests --port" {
  local port
  listen_past_free_port 1
  port=$PORT
  run --separate-stderr demo --binarypath "$FAKE_BIN" --topology replset --nodes 3 --port "$port"
  assert_failure 3
  assert_line --partial "FAIL port(s) in use: $((port + 1))"
  assert_regex "$stderr" "port\\(s\\) in use: $((port + 1)): stop what listens there, or choose another first port with --port N \\(this topology needs 3 consecutive ports\\)"
  [[ ! -e "$DATA" && ! -e "$REPORT" ]]
}

@test "not enough disk for the scale fails preflight and says what to do" {
  run --separate-stderr demo --binarypath "$FAKE_BIN" --topology single --scale full
  assert_failure 3
  assert_regex "$stderr" 'not enough disk for scale full: about 900000000 MB needed, [0-9]+ MB free under .*: free some space, put the data elsewhere with --dir DIR, or use a smaller --scale'
}

@test "every failed check is listed, not only the first" {
  local port
  listen_past_free_port 0
  port=$PORT
  run --separate-stderr demo --binarypath "$FAKE_BIN" --topology single --scale full --port "$port"
  assert_failure 3
  assert_regex "$stderr" 'not enough disk'
  assert_regex "$stderr" "port\\(s\\) in use: ${port}"
}

@test "--binarypath without a mongod fails preflight" {
  mkdir -p "${BATS_TEST_TMPDIR}/empty"
  run --separate-stderr demo --binarypath "${BATS_TEST_TMPDIR}/empty" --topology single
  assert_failure 3
  assert_regex "$stderr" "no executable mongod in --binarypath ${BATS_TEST_TMPDIR}/empty: give the bin folder of a MongoDB server download"
}

@test "a sharded topology needs mongos beside mongod" {
  mkdir -p "${BATS_TEST_TMPDIR}/only-mongod"
  ln -s "${FAKE_BIN}/mongod" "${BATS_TEST_TMPDIR}/only-mongod/mongod"
  run --separate-stderr demo --binarypath "${BATS_TEST_TMPDIR}/only-mongod" --topology sharded
  assert_failure 3
  assert_regex "$stderr" 'no executable mongos in --binarypath'
}

@test "an unreachable --uri fails preflight within seconds" {
  local port
  port=$(free_port_base)
  run --separate-stderr "$DEMO" --uri "mongodb://127.0.0.1:${port}/" --report-dir "$REPORT"
  assert_failure 3
  assert_regex "$stderr" "cannot reach --uri mongodb://127\\.0\\.0\\.1:${port}/: check the address"
  assert_line --partial "serverSelectionTimeoutMS=5000"
  [[ ! -e "$REPORT" ]]
}

@test "a report folder that is not empty is refused" {
  mkdir -p "$REPORT"
  touch "${REPORT}/old.md"
  run --separate-stderr demo --topology none
  assert_failure 3
  assert_regex "$stderr" "--report-dir ${REPORT} exists and is not empty: give a new or empty directory"
}

@test "a missing tool makes the playbook run the setup, then fail if still missing" {
  use_fake_setup
  run --separate-stderr demo --topology none --need dba-lab-no-such-tool
  assert_failure 3
  assert_line --partial 'missing tools: dba-lab-no-such-tool - running the project'"'"'s setup'
  assert_regex "$stderr" 'dba-lab-no-such-tool not found: run ./setup/install.sh, then source setup/env.sh'
  run cat "$FAKE_SETUP_LOG"
  assert_success
  assert_output 'setup ran:'
}

@test "--yes is passed on to the setup" {
  use_fake_setup
  run demo --topology none --need dba-lab-no-such-tool --yes
  assert_failure 3
  run cat "$FAKE_SETUP_LOG"
  assert_success
  assert_output 'setup ran: --yes'
}

@test "DBA_LAB_NO_SYSTEM=1 (a run under playbooks/check) keeps --yes from reaching a system-wide install" {
  use_fake_setup
  DBA_LAB_NO_SYSTEM=1 run demo --topology none --need dba-lab-no-such-tool --yes
  assert_failure 3
  run cat "$FAKE_SETUP_LOG"
  assert_success
  assert_output 'setup ran: --no-system'
}

@test "when the setup installs the missing tool the run goes on" {
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  export PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" FAKE_SETUP_BIN="${BATS_TEST_TMPDIR}/bin" FAKE_SETUP_INSTALLS=dba-lab-late-tool
  use_fake_setup
  run demo --topology none --need dba-lab-late-tool
  assert_success
  assert_line --partial 'ok   dba-lab-late-tool'
}

@test "tools present: the setup is not run" {
  use_fake_setup
  run demo --topology none
  assert_success
  [[ ! -e "$FAKE_SETUP_LOG" ]]
}

@test "with --dry-run a failed check is a warning and the plan goes on" {
  run --separate-stderr demo --dry-run --binarypath "$FAKE_BIN" --topology single --scale full
  assert_success
  assert_regex "$stderr" 'a real run would stop here \(preflight\): not enough disk'
  assert_line --partial '$ mlaunch init --single'
}

@test "with --dry-run missing tools show the setup command without running it" {
  use_fake_setup
  run demo --dry-run --topology none --need dba-lab-no-such-tool
  assert_success
  assert_line "\$ $(shown "$DBA_LAB_SETUP")"
  [[ ! -e "$FAKE_SETUP_LOG" ]]
}

# --- server binaries the loader refuses (OpenSSL 1.1 builds on newer systems)

LOADER_ERROR='error while loading shared libraries: libcrypto.so.1.1: cannot open shared object file: No such file or directory'
OPENSSL11_BIN="${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11"

@test "a --binarypath mongod the loader refuses fails preflight with exit 3 and the loader's reason" {
  run --separate-stderr demo --binarypath "$OPENSSL11_BIN" --topology single
  assert_failure 3
  assert_regex "$stderr" "${OPENSSL11_BIN}/mongod cannot start on this system: the loader cannot find libcrypto\\.so\\.1\\.1 \\(OpenSSL 1\\.1: "
  assert_regex "$stderr" 'give the bin folder of a MongoDB server build for this OS'
  [[ ! -e "$DATA" && ! -e "$REPORT" ]]
}

@test "an m-installed version whose mongod the loader refuses fails preflight and suggests --binarypath or another version" {
  use_fake_m
  FAKE_MONGOD="${OPENSSL11_BIN}/mongod" fake_m_installed 4.4.29
  run --separate-stderr demo --mongodb-version 4.4.29 --topology single
  assert_failure 3
  assert_regex "$stderr" "MongoDB 4\\.4\\.29: ${M_PREFIX}/m/versions/4\\.4\\.29/bin/mongod cannot start on this system: the loader cannot find libcrypto\\.so\\.1\\.1"
  assert_regex "$stderr" 'use --binarypath DIR with a MongoDB 4\.4\.29 build for this OS .*, or choose a --mongodb-version whose build runs here'
  assert_line --partial "\$ ${M_PREFIX}/m/versions/4.4.29/bin/mongod --version"
}

@test "a sharded run checks that mongos starts too" {
  local bin="${BATS_TEST_TMPDIR}/bad-mongos"
  mkdir -p "$bin"
  ln -s "${FAKE_BIN}/mongod" "${bin}/mongod"
  ln -s "${OPENSSL11_BIN}/mongos" "${bin}/mongos"
  run --separate-stderr demo --binarypath "$bin" --topology sharded
  assert_failure 3
  assert_regex "$stderr" "${bin}/mongos cannot start on this system: the loader cannot find libcrypto\\.so\\.1\\.1"
}

@test "a mongos that does not start is not checked when the run needs no mongos" {
  local bin="${BATS_TEST_TMPDIR}/bad-mongos"
  mkdir -p "$bin"
  ln -s "${FAKE_BIN}/mongod" "${bin}/mongod"
  ln -s "${OPENSSL11_BIN}/mongos" "${bin}/mongos"
  run demo --dry-run --binarypath "$bin" --topology single
  assert_success
  refute_output --partial "mongos --version"
}

@test "the real loader's refusal is recognised (a program linked to a missing libcrypto.so.1.1)" {
  command -v cc >/dev/null || skip "needs a C compiler to make a program the loader refuses"
  local src="${BATS_TEST_TMPDIR}/src" bin="${BATS_TEST_TMPDIR}/real-bin"
  mkdir -p "$src" "$bin"
  printf 'int dbalab_fake(void) { return 0; }\n' >"${src}/lib.c"
  printf 'int dbalab_fake(void);\nint main(void) { return dbalab_fake(); }\n' >"${src}/main.c"
  cc -shared -fPIC -Wl,-soname,libcrypto.so.1.1 -o "${src}/libcrypto.so.1.1" "${src}/lib.c"
  cc -o "${bin}/mongod" "${src}/main.c" "${src}/libcrypto.so.1.1"
  rm "${src}/libcrypto.so.1.1"
  run -127 "${bin}/mongod" --version
  [ "$status" -eq 127 ]
  assert_output "${bin}/mongod: ${LOADER_ERROR}"
  run --separate-stderr demo --binarypath "$bin" --topology single
  assert_failure 3
  assert_regex "$stderr" "${bin}/mongod cannot start on this system: the loader cannot find libcrypto\\.so\\.1\\.1"
}

@test "the fake refusal prints what the real loader prints" {
  run -127 "${OPENSSL11_BIN}/mongod" --version
  [ "$status" -eq 127 ]
  assert_output "${OPENSSL11_BIN}/mongod: ${LOADER_ERROR}"
}

# --- Node.js (package.json "engines": the mongodb driver 7 needs 20.19+)

@test "a node older than package.json's engines fails preflight with exit 3 and what to do" {
  PATH="${DBA_LAB_ROOT}/tests/fixtures/old-node:${PATH}" run --separate-stderr demo --topology none
  assert_failure 3
  assert_line --partial 'FAIL node v18.20.4 is too old'
  assert_regex "$stderr" 'node v18\.20\.4 is too old: the mongodb driver and bson this project installs need Node\.js 20\.19\.0 or newer \(package\.json "engines"\): install a newer Node\.js'
}

@test "a recent enough node passes preflight and says what it needs" {
  FAKE_NODE_VERSION=v20.19.0 PATH="${DBA_LAB_ROOT}/tests/fixtures/old-node:${PATH}" run demo --topology none
  assert_success
  assert_line --partial 'ok   node v20.19.0 (needs 20.19.0+)'
}

@test "preflight names the version of the npm mongosh on PATH from its package, as mongosh --version does" {
  local want
  want=$(mongosh --version)
  run demo --topology none
  assert_success
  assert_line --partial "ok   mongosh ${want}"
}

@test "a mongosh that is no npm package (a download's binary) is asked its version, and an old one fails" {
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # shellcheck disable=SC2016 # the stand-in's own "$1"
  printf '#!/bin/sh\n[ "$1" = --version ] && echo 1.10.6\n' >"${BATS_TEST_TMPDIR}/bin/mongosh"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mongosh"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run --separate-stderr demo --topology none
  assert_failure 3
  assert_line --partial 'FAIL mongosh 1.10.6 is too old'
}

# --- --uri at the wrong kind of deployment (the probe's answer: setName, msg)
# tests/fixtures/uri-probe/mongosh prints the probe's line instead of asking a
# server; the playbooks are the real ones.

probe_answer() {
  export FAKE_PROBE_ANSWER="{\"version\":\"7.0.12\",\"setName\":$1,\"msg\":$2,\"exists\":false,\"owner\":null}"
  export PATH="${DBA_LAB_ROOT}/tests/fixtures/uri-probe:${PATH}"
}

@test "array-push-oplog --uri at a standalone stops in preflight with exit 3 and one line of why" {
  probe_answer null null
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh" --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_failure 3
  assert_line --partial 'FAIL --uri mongodb://127.0.0.1:1/ is a standalone; array-push-oplog needs a replica set member: it measures every update in the oplog'
  assert_regex "$stderr" 'needs a replica set member: it measures every update in the oplog, which only replica set members keep: point --uri at a replica set'
  [[ ! -e "$REPORT" ]]
}

@test "array-push-oplog --uri at a mongos is refused too" {
  probe_answer null '"isdbgrid"'
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh" --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_failure 3
  assert_regex "$stderr" 'is a mongos; array-push-oplog needs a replica set member'
}

@test "array-push-oplog --uri at a replica set member passes the kind check" {
  probe_answer '"rs0"' null
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh" --dry-run --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_success
  assert_line --partial 'ok   --uri reachable: MongoDB 7.0.12, replica set rs0'
  refute_output --partial 'array-push-oplog needs'
}

@test "capped-pubsub --uri at a standalone needs --compare none (change streams need a replica set or mongos)" {
  probe_answer null null
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_failure 3
  assert_regex "$stderr" 'is a standalone; capped-pubsub needs a replica set or a mongos: --compare changestream opens change streams'
  probe_answer null null
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --dry-run --compare none --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_success
  refute_output --partial 'capped-pubsub needs'
}

@test "capped-pubsub --uri at a mongos passes the kind check" {
  probe_answer null '"isdbgrid"'
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --dry-run --uri mongodb://127.0.0.1:1/ --report-dir "$REPORT"
  assert_success
  refute_output --partial 'capped-pubsub needs'
}

@test "an unknown PB_URI_NEEDS is the playbook's bug, said in one line" {
  load_framework
  PB_URI=mongodb://h/ PB_URI_NEEDS=shard
  run pb::_check_uri_kind '{"setName":null,"msg":null}'
  assert_failure
  assert_output --partial "PB_URI_NEEDS must be any, replset, mongos or replset-or-mongos, not 'shard'"
}

# --- PB_NEEDS_DRIVER: a workload that is a Node program needs the mongodb driver

@test "PB_NEEDS_DRIVER: the driver node_modules holds passes preflight with its version" {
  run demo --topology none --needs-driver
  assert_success
  assert_line --regexp 'ok   Node driver: mongodb [0-9]+\.[0-9]+\.[0-9]+'
}

@test "PB_NEEDS_DRIVER: a driver node cannot load fails preflight with exit 3 and what to do" {
  # A node that loads everything but the driver, as when node_modules lacks it.
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  cat >"${BATS_TEST_TMPDIR}/bin/node" <<SH
#!/usr/bin/env bash
case "\$*" in *"require('mongodb"*) echo "Error: Cannot find module 'mongodb'" >&2; exit 1 ;; esac
exec $(command -v node) "\$@"
SH
  chmod +x "${BATS_TEST_TMPDIR}/bin/node"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run --separate-stderr demo --topology none --needs-driver
  assert_failure 3
  assert_line --partial 'FAIL node cannot load the mongodb driver (node_modules/mongodb)'
  assert_regex "$stderr" 'run \./setup/install\.sh \(it installs the driver into node_modules\)'
}

@test "without PB_NEEDS_DRIVER preflight does not look for the driver" {
  run demo --topology none
  assert_success
  refute_line --partial 'Node driver'
}

# --- m as setup patched it (docs/m.md) ------------------------------------------

# m_as_released FILE: the checkout's m with setup's patch taken out again, as
# a plain npm ci leaves node_modules/m/bin/m.
m_as_released() {
  cp "${DBA_LAB_ROOT}/node_modules/m/bin/m" "$1"
  patch -R -s -f -F 0 "$1" <"${DBA_LAB_ROOT}/setup/m-1.10.0.patch" >/dev/null
}

@test "an m as npm ci leaves it (setup's patch not applied) stops preflight (exit 3) before m is run" {
  use_fake_m
  m_as_released "${BATS_TEST_TMPDIR}/m-released"
  DBA_LAB_M_SCRIPT="${BATS_TEST_TMPDIR}/m-released" run --separate-stderr demo --topology single --mongodb-version 7.0.12
  assert_failure 3
  assert_regex "$stderr" "m cannot be used: ${BATS_TEST_TMPDIR}/m-released is m 1\\.10\\.0 as released, without setup's patch \\(npm ci puts it back\\), so m would install unrunnable builds on Debian 12, find none on Linux Mint 22, and fail under a path with a space; run \\./setup/install\\.sh"
  [[ ! -e "$FAKE_M_LOG" ]]
  [[ ! -e "$DATA" ]]
}

@test "in a dry run an unpatched m is not run either: the plan shows placeholders and says a real run would stop" {
  use_fake_m
  m_as_released "${BATS_TEST_TMPDIR}/m-released"
  DBA_LAB_M_SCRIPT="${BATS_TEST_TMPDIR}/m-released" run --separate-stderr demo --dry-run --topology single --mongodb-version 7.0.12
  assert_success
  assert_regex "$stderr" 'a real run would stop here \(preflight\): m cannot be used: '
  assert_line --partial "--binarypath '<binaries for MongoDB 7.0.12>'"
  [[ ! -e "$FAKE_M_LOG" ]]
}

@test "an m first on PATH from outside the checkout (a user's own) is not run" {
  mkdir -p "${BATS_TEST_TMPDIR}/user-bin"
  printf '#!/bin/sh\necho "$*" >>"%s/user-m.log"\n' "$BATS_TEST_TMPDIR" >"${BATS_TEST_TMPDIR}/user-bin/m"
  chmod +x "${BATS_TEST_TMPDIR}/user-bin/m"
  PATH="${BATS_TEST_TMPDIR}/user-bin:${PATH}" run --separate-stderr demo --topology single --mongodb-version 7.0.12
  assert_failure 3
  assert_regex "$stderr" "m cannot be used: the m first on PATH, ${BATS_TEST_TMPDIR}/user-bin/m, is not the checkout's"
  [[ ! -e "${BATS_TEST_TMPDIR}/user-m.log" ]]
}

# --- m can download nothing: the way out without a download ---------------------
# The fake m (tests/fixtures/fake-m) lists no release and installs nothing, as
# m does offline; the playbooks are the real ones.

NO_DOWNLOAD_WAY='No MongoDB download at all? '
NO_DOWNLOAD_FERRETDB=' on any deployment given with --uri URI, and setup/ferretdb.sh start starts a local one (FerretDB, MongoDB-compatible; see its --help).'

@test "m cannot install the version: a playbook that runs on any deployment says --uri and setup/ferretdb.sh start are the way out" {
  use_fake_m
  use_fake_setup
  run -3 --separate-stderr "${DBA_LAB_ROOT}/playbooks/mongodump-raw-bson.sh" --mongodb-version 7.0.14 --dir "$DATA" --report-dir "$REPORT"
  assert_regex "$stderr" $'\n  - MongoDB 7\\.0\\.14: m could not install MongoDB 7\\.0\\.14 [^\n]*, or --uri URI to run against an existing deployment\n'
  run -0 grep -c -x -F -- "${NO_DOWNLOAD_WAY}this playbook runs${NO_DOWNLOAD_FERRETDB}" <<<"$stderr"
  assert_output 1
  [[ ! -e "$DATA" && ! -e "$REPORT" ]]
}

@test "m cannot resolve the versions: a playbook that needs a replica set names, once, the playbooks that run anywhere" {
  use_fake_m
  use_fake_setup
  run -3 --separate-stderr "${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh" --mongodb-version 7.0,8.0 --dir "$DATA" --report-dir "$REPORT"
  assert_regex "$stderr" 'MongoDB 7\.0: cannot resolve MongoDB 7\.0 to a release: .*: with the network, give an exact X\.Y\.Z for m to download; without it, use --binarypath DIR'
  assert_regex "$stderr" 'MongoDB 8\.0: cannot resolve MongoDB 8\.0 to a release: '
  run -0 grep -c -x -F -- "${NO_DOWNLOAD_WAY}mongodump-raw-bson and capped-pubsub --compare none run${NO_DOWNLOAD_FERRETDB}" <<<"$stderr"
  assert_output 1
  [[ ! -e "$DATA" && ! -e "$REPORT" ]]
}

@test "a dry run that m cannot serve says the way out without a download after what would stop a real run" {
  use_fake_m
  run -0 --separate-stderr "${DBA_LAB_ROOT}/playbooks/mongodump-raw-bson.sh" --dry-run --mongodb-version 7.0 --dir "$DATA" --report-dir "$REPORT"
  assert_regex "$stderr" 'a real run would stop here \(preflight\): MongoDB 7\.0: cannot resolve'
  run -0 grep -c -x -F -- "warning: ${NO_DOWNLOAD_WAY}this playbook runs${NO_DOWNLOAD_FERRETDB}" <<<"$stderr"
  assert_output 1
}

# uri_needs NAME [OPTION...]: "PB_SUPPORTS_URI PB_URI_NEEDS" of playbook NAME
# run with OPTIONs, as its preflight sees them (after playbook_configure).
uri_needs() {
  (
    local name="$1"
    shift
    load_framework
    # shellcheck source=/dev/null
    source "${DBA_LAB_ROOT}/playbooks/${name}.sh"
    PB_FD=1
    pb::scenario_init
    pb::_declare_common_options
    pb::parse_args "$@"
    pb::_load_scale
    if declare -F playbook_configure >/dev/null; then playbook_configure; fi
    printf '%s %s\n' "${PB_SUPPORTS_URI:-1}" "${PB_URI_NEEDS:-any}"
  )
}

@test "the playbooks that advice names run on any deployment with the options it gives, and no other playbook does by default" {
  load_framework
  local entry words named=' ' file name
  for entry in "${PB_ANY_DEPLOYMENT_PLAYBOOKS[@]}"; do
    read -r -a words <<<"$entry"
    run -0 uri_needs "${words[@]}"
    assert_output '1 any'
    named+="${words[0]} "
  done
  for file in "${DBA_LAB_ROOT}"/playbooks/*.sh; do
    name=$(basename "$file" .sh)
    [[ "$named" != *" ${name} "* ]] || continue
    run -0 uri_needs "$name"
    refute_output '1 any'
  done
}
