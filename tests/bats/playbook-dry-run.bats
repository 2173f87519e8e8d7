#!/usr/bin/env bats
# --dry-run plans (playbooks/lib/run.sh, mlaunch.sh, m.sh): the exact commands
# in order, the mlaunch command line flag by flag per topology (flags as
# mtools 1.7.2's mlaunch.py defines them), and nothing changed on disk.
# The fake mongod in tests/fixtures/fake-server only answers --version.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

plan() {
  "$DEMO" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>/dev/null | plan_lines
}

mlaunch_line() {
  plan "$@" | grep '^\$ mlaunch init '
}

@test "single: mlaunch init --single with port, dir and binarypath" {
  run mlaunch_line --topology single --port 30100
  assert_success
  assert_output "\$ mlaunch init --single --port 30100 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --setParameter transactionLifetimeLimitSeconds=90"
}

@test "replica set: --replicaset --nodes N --name, then the arbiter when asked" {
  run mlaunch_line --topology replset --nodes 3 --arbiter --port 30200
  assert_success
  assert_output "\$ mlaunch init --replicaset --nodes 3 --arbiter --name replset --port 30200 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --setParameter transactionLifetimeLimitSeconds=90"
}

@test "replica set without --arbiter has no --arbiter flag" {
  run mlaunch_line --topology replset --nodes 2
  assert_success
  refute_output --partial -- '--arbiter'
  assert_output --partial -- '--replicaset --nodes 2 --name replset --port 27100 '
}

@test "sharded: --sharded N --replicaset --nodes, --config and --mongos counts" {
  run mlaunch_line --topology sharded --shards 3 --nodes 2 --config-servers 3 --mongos 2 --port 30300
  assert_success
  assert_output "\$ mlaunch init --sharded 3 --replicaset --nodes 2 --config 3 --mongos 2 --port 30300 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --setParameter transactionLifetimeLimitSeconds=90"
}

@test "extra server options follow mlaunch's own flags, values kept apart" {
  run mlaunch_line --topology replset --oplog-mb 2048
  assert_success
  assert_output --regexp ' --binarypath [^ ]+ --oplogSize 2048 --setParameter transactionLifetimeLimitSeconds=90$'
}

@test "the connection string lists the data members of a replica set, the mongos of a cluster" {
  run "$DEMO" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --topology replset --nodes 3 --arbiter --port 30400
  assert_success
  assert_line --partial 'connection: mongodb://localhost:30400,localhost:30401,localhost:30402/?replicaSet=replset'
  run "$DEMO" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --topology sharded --mongos 2 --port 30500
  assert_success
  assert_line --partial 'connection: mongodb://localhost:30500,localhost:30501/'
}

@test "the plan is every command in order: launch, mongosh stages, knob, restore, stop, delete" {
  run plan --topology replset --knob notablescan=true --port 30600
  assert_success
  assert_equal "${#lines[@]}" 12
  assert_equal "${lines[0]}" "\$ ROOT/tests/fixtures/fake-server/bin/mongod --version"
  assert_equal "${lines[1]}" "\$ mkdir -p ${WORKDIR}/data"
  assert_equal "${lines[2]}" "\$ mkdir -p ${WORKDIR}/data/7.0.12"
  assert_regex "${lines[3]}" '^\$ mlaunch init --replicaset '
  assert_regex "${lines[4]}" "^\\\$ mongosh 'mongodb://localhost:30600/\\?replicaSet=replset' --quiet --norc --eval 'globalThis.dbaLabStage = .*\"params\":\\{\"docs\":10\\}\\}; void 0' ROOT/playbooks/lib/js/stage.js ROOT/tests/fixtures/playbooks/demo-lab/prepare.js\$"
  assert_regex "${lines[5]}" '"params":\{"name":"notablescan","value":true\}\}; void 0'"' ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/js/set-parameter.js\$"
  assert_regex "${lines[6]}" ' ROOT/tests/fixtures/playbooks/demo-lab/run.js$'
  assert_equal "${lines[7]}" "\$ node ROOT/playbooks/lib/js/check.js --claims ROOT/tests/fixtures/playbooks/demo-lab/checker.js"
  assert_regex "${lines[8]}" '"params":\{"name":"notablescan","json":"<value before the run>","restore":1\}\}; void 0'"' ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/js/set-parameter.js\$"
  assert_equal "${lines[9]}" "\$ mlaunch stop --dir ${WORKDIR}/data/7.0.12"
  assert_equal "${lines[10]}" "\$ rm -rf ${WORKDIR}/data/7.0.12"
  assert_equal "${lines[11]}" "\$ rm -rf ${WORKDIR}/data"
}

@test "with --step the plan is for a class: each command on one line of 80 columns, whole when piped without it" {
  run "$DEMO" --dry-run --step --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --topology replset --port 30650 </dev/null
  assert_success
  run grep '^\$ ' <<<"$output"
  assert_success
  assert_line --regexp '^\$ mongosh .*demo-lab/run\.js \(whole: piped\)$'
  local line
  for line in "${lines[@]}"; do
    line=${line//…/.}
    ((${#line} <= 80)) || { printf 'wider than 80 columns: %s\n' "$line" >&2; return 1; }
  done
}

@test "a dry run creates no data directory and no report" {
  run "$DEMO" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" --topology sharded
  assert_success
  assert_line --partial 'dry run: nothing was changed'
  [[ ! -e "${WORKDIR}/data" ]]
  [[ ! -e "${WORKDIR}/report" ]]
}

@test "an existing --dir is kept: only the per-version folder is planned and deleted" {
  mkdir -p "${WORKDIR}/mine"
  run plan --topology single --dir "${WORKDIR}/mine"
  assert_success
  refute_line "\$ mkdir -p ${WORKDIR}/mine"
  refute_line "\$ rm -rf ${WORKDIR}/mine"
  assert_line "\$ rm -rf ${WORKDIR}/mine/7.0.12"
}

@test "--keep plans no stop and no delete" {
  run plan --topology single --keep
  assert_success
  refute_line --partial 'mlaunch stop'
  refute_line --partial 'rm -rf'
}

@test "topology none plans no server command at all, only the checker's claims" {
  run plan --topology none
  assert_success
  assert_output "\$ node ROOT/playbooks/lib/js/check.js --claims ROOT/tests/fixtures/playbooks/demo-lab/checker.js"
}

@test "a dry run lists the checker's claims as to be checked" {
  run "$DEMO" --dry-run --topology none
  assert_success
  assert_line --partial 'to be checked: every written document is counted (expected counted = written)'
}

@test "a sourced playbook runs nothing; pb::scenario_init names its scenario folder" {
  run bash -c 'source "$1" && pb::scenario_init && printf "%s\n" "$PB_SCENARIO" && declare -F stage_run' _ "$DEMO"
  assert_success
  assert_output "${DBA_LAB_ROOT}/tests/fixtures/playbooks/demo-lab"$'\nstage_run'
  run bash -c 'source "$1"; PB_SCENARIO=""; PB_NAME=array-push-oplog; pb::scenario_init; printf "%s\n" "$PB_SCENARIO"' _ "$DEMO"
  assert_success
  assert_output "${DBA_LAB_ROOT}/playbooks/lib/scenarios/array-push-oplog"
}

@test "--uri plans only mongosh commands against the target, the database dropped at the end" {
  run "$DEMO" --dry-run --uri mongodb://127.0.0.1:9/ --report-dir "${WORKDIR}/report"
  assert_success
  run plan_lines <<<"$output"
  assert_success
  refute_line --partial 'mlaunch'
  assert_regex "${lines[0]}" "^\\\$ mongosh 'mongodb://127.0.0.1:9/\\?serverSelectionTimeoutMS=5000' --quiet --norc --eval "
  assert_regex "${lines[1]}" "^\\\$ mongosh mongodb://127.0.0.1:9/ --quiet --norc --eval 'db.getSiblingDB\\(\"dbalab_demo-lab\"\\).getCollection\\('\\\\''_dbalab_owner'\\\\''\\).insertOne"
  assert_regex "${lines[-1]}" "d.dropDatabase\\(\\)"
}

@test "passwords in --uri are hidden in the plan" {
  run "$DEMO" --dry-run --uri 'mongodb://admin:s3cret@127.0.0.1:9/?authSource=admin' --report-dir "${WORKDIR}/report"
  assert_success
  refute_output --partial 's3cret'
  assert_output --partial 'mongodb://admin:***@127.0.0.1:9/'
}

@test "two versions from m: own folders, the first cluster stopped before the second launches" {
  use_fake_m
  fake_m_installed 6.0.20 8.0.4
  run "$DEMO" --dry-run --topology single \
    --mongodb-version 6.0,8.0.4 --dir "${WORKDIR}/data" --port 30700
  assert_success
  run plan_lines <<<"$output"
  assert_success
  run grep -E '^\$ (mlaunch|rm)' <<<"$output"
  assert_success
  assert_output "\$ mlaunch init --single --port 30700 --dir ${WORKDIR}/data/6.0.20 --binarypath ${M_PREFIX}/m/versions/6.0.20/bin --setParameter transactionLifetimeLimitSeconds=90
\$ mlaunch stop --dir ${WORKDIR}/data/6.0.20
\$ rm -rf ${WORKDIR}/data/6.0.20
\$ mlaunch init --single --port 30700 --dir ${WORKDIR}/data/8.0.4 --binarypath ${M_PREFIX}/m/versions/8.0.4/bin --setParameter transactionLifetimeLimitSeconds=90
\$ mlaunch stop --dir ${WORKDIR}/data/8.0.4
\$ rm -rf ${WORKDIR}/data/8.0.4
\$ rm -rf ${WORKDIR}/data"
}

@test "a version m does not have yet is planned as an install, not run" {
  use_fake_m
  FAKE_M_RELEASES="7.0.9 7.0.14 8.0.4" FAKE_M_INSTALL_WORKS=1 run "$DEMO" --dry-run --topology single --mongodb-version 7.0 --dir "${WORKDIR}/data"
  assert_success
  assert_line "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m installed --json"
  assert_line "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m --stable 7.0"
  assert_line "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m bin 7.0.14"
  assert_line "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m 7.0.14"
  assert_line --partial "--binarypath ${M_PREFIX}/m/versions/7.0.14/bin"
  # Only the read-only calls ran; nothing was installed.
  run cat "$FAKE_M_LOG"
  assert_success
  assert_output "--version
installed --json
--stable 7.0
bin 7.0.14"
  [[ ! -e "${M_PREFIX}/m/versions/7.0.14" ]]
}

# in_run HH:MM:SS: that UTC time of day lies between BEFORE and AFTER (epoch
# seconds), a second either side, midnight included.
in_run() {
  local h m sec t b a
  IFS=: read -r h m sec <<<"$1"
  t=$((10#$h * 3600 + 10#$m * 60 + 10#$sec))
  b=$(((BEFORE - 1) % 86400)) a=$(((AFTER + 1) % 86400))
  if ((b <= a)); then ((t >= b && t <= a)); else ((t >= b || t <= a)); fi
}

@test "the clock of every line is UTC in any time zone, on screen and in the run log" {
  BEFORE=$(date -u +%s)
  TZ=Asia/Tokyo run "$DEMO" --topology none --report-dir "${WORKDIR}/report"
  assert_success
  AFTER=$(date -u +%s)
  in_run "$(sed -n '1s/^\([0-9:]*\) .*/\1/p' <<<"$output")"
  run grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z ' "${WORKDIR}/report/run.log"
  assert_success
  in_run "$(head -n 1 <<<"$output" | cut -c12-19)"
}
