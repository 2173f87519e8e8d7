#!/usr/bin/env bats
# playbooks/array-push-oplog.sh: --dry-run plans (topology, versions, patterns,
# load) and option errors. The fake mongod only answers --version; the fake m
# (tests/fixtures/fake-m) stands in for the version manager.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

plan() {
  "$PLAYBOOK" --dry-run --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>/dev/null | plan_lines
}

# The stage parameters of each mongosh line: "FILE PARAMS-JSON".
stage_params() {
  grep '^\$ mongosh ' | sed -E 's#.*"params":(\{[^}]*\})\}; void 0.* ([^ ]+\.js)$#\2 \1#; s#^.*/##'
}

@test "default topology: a replica set of 3 data nodes, the oplog sized for the load, a small cache" {
  run plan --binarypath "$FAKE_BIN" --port 30700
  assert_success
  assert_line "\$ mlaunch init --replicaset --nodes 3 --name replset --port 30700 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --oplogSize 2048 --wiredTigerCacheSizeGB 0.5"
}

@test "the stages in order: seed, measure every pattern, then the worst and the best load" {
  run bash -c "$(declare -f plan stage_params plan_lines); PLAYBOOK='$PLAYBOOK' WORKDIR='$WORKDIR' DBA_LAB_ROOT='$DBA_LAB_ROOT' plan --binarypath '$FAKE_BIN' | stage_params"
  assert_success
  assert_output 'prepare.js {}
curves.js {"lengths":"1,600,1200,1800,2400,3000,3599","patterns":"push,push-slice,push-sort,push-position0,addtoset,pull,pop-first,pop-last,set-one,per-second"}
load.js {"which":"worst","devices":10,"seconds":600}
load.js {"which":"best","devices":10,"seconds":600}'
}

@test "every stage connects to the replica set's members by name" {
  run plan --binarypath "$FAKE_BIN" --port 30800
  assert_line --regexp "^\\\$ mongosh 'mongodb://localhost:30800,localhost:30801,localhost:30802/\\?replicaSet=replset' --quiet --norc --eval .* ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/scenarios/array-push-oplog/prepare.js$"
}

@test "default versions: 4.4 (\$v:1) then 8.0 (\$v:2), each launched, measured and stopped in turn" {
  use_fake_m
  fake_m_installed 4.4.29 8.0.4
  run bash -c "'$PLAYBOOK' --dry-run --dir '${WORKDIR}/data' --report-dir '${WORKDIR}/report' 2>/dev/null | grep -E '^(\\\$ mlaunch|==> (launch|run))' | sed -E 's/ +\\+[0-9:]+ .*//; s/ --port.*//'"
  assert_success
  assert_output '==> launch (4.4.29)
$ mlaunch init --replicaset --nodes 3 --name replset
==> run (4.4.29)
$ mlaunch stop --dir '"${WORKDIR}"'/data/4.4.29
==> launch (8.0.4)
$ mlaunch init --replicaset --nodes 3 --name replset
==> run (8.0.4)
$ mlaunch stop --dir '"${WORKDIR}"'/data/8.0.4'
}

@test "--patterns and --lengths reach the measuring stage; --no-load runs no load" {
  run plan --binarypath "$FAKE_BIN" --patterns push-slice,push --lengths 100,3600 --no-load
  assert_success
  assert_output --partial '"params":{"lengths":"100,3600","patterns":"push-slice,push"}'
  refute_output --partial 'load.js'
}

@test "--scale medium: 50 devices x 900 s and an 8 GB oplog; --devices/--load-seconds override" {
  run plan --binarypath "$FAKE_BIN" --scale medium
  assert_output --partial '--oplogSize 8192 '
  assert_output --partial '"params":{"which":"worst","devices":50,"seconds":900}'
  run plan --binarypath "$FAKE_BIN" --devices 7 --load-seconds 120
  assert_output --partial '"params":{"which":"best","devices":7,"seconds":120}'
}

@test "--nodes 2 is accepted (the least that replicates), --nodes 1 is not" {
  run plan --binarypath "$FAKE_BIN" --nodes 2
  assert_output --partial 'mlaunch init --replicaset --nodes 2 '
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --nodes 1
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --nodes must be at least 2: replication needs a secondary (see --help)"
}

@test "--lengths must be at least two lengths within 1..3600" {
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 600
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --lengths: lengths must be at least two whole numbers within 1..3600, got '600' (see --help)"
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 0,4000
  assert_failure 2
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 10,x
  assert_failure 2
}

@test "an unknown pattern is refused with the list of known ones" {
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --patterns push,bogus
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --patterns: unknown pattern 'bogus' (known: push, push-slice, push-sort, push-position0, addtoset, pull, pop-first, pop-last, set-one, per-second) (see --help)"
}

@test "malformed numbers are usage errors, before anything runs" {
  run --separate-stderr "$PLAYBOOK" --dry-run --devices many
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --devices expects a whole number, got 'many' (see --help)"
  assert_output ''
}

@test "--help names every pattern model.js knows, the scales and the lab guide" {
  local names
  names=$(node -e "const m = require('${DBA_LAB_ROOT}/playbooks/lib/scenarios/array-push-oplog/model.js'); console.log([...m.PATTERN_NAMES, m.FIX.name].join(' '))")
  run "$PLAYBOOK" --help
  assert_success
  assert_equal "$(sed -n '/^Patterns: /,/(the fix)/p' <<<"$output" | tr '\n' ' ' | sed -E 's/^Patterns: //; s/ \(the fix\)\. *$//; s/, */ /g')" "$names"
  assert_line --regexp '^  full +the article.s hour'
  assert_output --partial 'array-push-oplog.md'
}

@test "the stage files are valid JavaScript" {
  local f
  for f in "${DBA_LAB_ROOT}"/playbooks/lib/scenarios/array-push-oplog/*.js; do
    run node --check "$f"
    assert_success
  done
}

@test "framework: pb::measurements reads back every version's measurements by key prefix" {
  load_framework
  PB_VERSION=4.4.29 pb::measure kind.push flat
  PB_VERSION=8.0.4 pb::measure kind.push flat
  PB_VERSION=8.0.4 pb::measure hourBytes.push 1602000 B
  run pb::measurements kind.
  assert_success
  assert_output '{"version":"4.4.29","key":"kind.push","value":"flat","unit":""}
{"version":"8.0.4","key":"kind.push","value":"flat","unit":""}'
}

# The playbook's own report functions, taken from its text (sourcing it would run it).
load_report_functions() {
  load_framework
  # shellcheck disable=SC2034 # read by the eval-ed apo::model
  APO_JS="${DBA_LAB_ROOT}/playbooks/lib/scenarios/array-push-oplog"
  eval "$(sed -n '/^apo::model() {/,/^}/p; /^apo::compare_versions() {/,/^}/p' "$PLAYBOOK")"
}

@test "report: the versions compared, REPRODUCED when both versions log the same patterns whole" {
  load_report_functions
  local v
  for v in 4.4.29 8.0.4; do
    PB_VERSION=$v pb::measure kind.push flat
    PB_VERSION=$v pb::measure kind.push-slice linear
  done
  apo::compare_versions >/dev/null
  run jq -c 'select(.type == "verdict") | [.verdict, .observed, .version]' "$PB_RECORDS"
  assert_output '["REPRODUCED","4.4.29: push-slice; 8.0.4: push-slice","all"]'
}

@test "report: the versions compared, NOT REPRODUCED when one version logs a pattern whole and the other not" {
  load_report_functions
  PB_VERSION=4.4.29 pb::measure kind.addtoset linear
  PB_VERSION=8.0.4 pb::measure kind.addtoset flat
  apo::compare_versions >/dev/null
  run jq -r 'select(.type == "verdict") | .verdict + " | " + .observed' "$PB_RECORDS"
  assert_output 'NOT REPRODUCED | 4.4.29: addtoset; 8.0.4: none'
}

@test "report: one version run gives NOT APPLICABLE for the comparison" {
  load_report_functions
  PB_VERSION=8.0.4 pb::measure kind.push flat
  apo::compare_versions >/dev/null
  run jq -r 'select(.type == "verdict") | .verdict + " | " + .reason' "$PB_RECORDS"
  assert_output 'NOT APPLICABLE | one version run: give --mongodb-version A,B to compare'
}
