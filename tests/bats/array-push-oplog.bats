#!/usr/bin/env bats
# playbooks/array-push-oplog.sh: --dry-run plans (topology, versions, patterns,
# load, the checker's claims) and option errors. The fake mongod only answers
# --version; the fake m (tests/fixtures/fake-m) stands in for the version
# manager. The model and the checker: tests/unit/array-push-oplog-*.test.js.

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
  run bash -c "$(declare -f plan stage_params plan_lines sed_literal); PLAYBOOK='$PLAYBOOK' WORKDIR='$WORKDIR' DBA_LAB_ROOT='$DBA_LAB_ROOT' plan --binarypath '$FAKE_BIN' | stage_params"
  assert_success
  assert_output 'prepare.js {}
run.js {"lengths":"1,600,1200,1800,2400,3000,3599","patterns":"push,push-slice,push-sort,push-position0,addtoset,pull,pop-first,pop-last,set-one,per-second"}
run-load.js {"which":"worst","devices":10,"seconds":600}
run-load.js {"which":"best","devices":10,"seconds":600}
measure.js {}'
}

@test "every stage connects to the replica set's members by name" {
  run plan --binarypath "$FAKE_BIN" --port 30800
  assert_success
  assert_line --regexp "^\\\$ mongosh 'mongodb://localhost:30800,localhost:30801,localhost:30802/\\?replicaSet=replset' --quiet --norc --eval .* ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/scenarios/array-push-oplog/prepare.js$"
}

@test "default versions: 4.4 (\$v:1) then 8.0 (\$v:2), each launched, measured and stopped in turn" {
  # A platform where 4.4 runs (tests/bats/platform-defaults.bats has the others).
  load platform_helper
  use_platform ubuntu-20.04
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
  refute_output --partial 'run-load.js'
}

@test "--scale medium: 50 devices x 900 s and an 8 GB oplog; --devices/--load-seconds override" {
  run plan --binarypath "$FAKE_BIN" --scale medium
  assert_success
  assert_output --partial '--oplogSize 8192 '
  assert_output --partial '"params":{"which":"worst","devices":50,"seconds":900}'
  run plan --binarypath "$FAKE_BIN" --devices 7 --load-seconds 120
  assert_success
  assert_output --partial '"params":{"which":"best","devices":7,"seconds":120}'
}

@test "--nodes 2 is accepted (the least that replicates), --nodes 1 is not" {
  run plan --binarypath "$FAKE_BIN" --nodes 2
  assert_success
  assert_output --partial 'mlaunch init --replicaset --nodes 2 '
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --nodes 1
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --nodes must be at least 2: replication needs a secondary (see --help)"
}

@test "--lengths must be at least two ascending whole numbers within 1..3600" {
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 600
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --lengths needs at least two lengths to draw a curve, got '600' (see --help)"
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 10,4000
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --lengths: 4000 is not between 1 and 3600 (see --help)"
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 10,x
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --lengths expects whole numbers separated by commas such as 1,10,40, got '10,x' (see --help)"
  run --separate-stderr "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --lengths 600,100
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --lengths must list each number once, in ascending order, got '600,100' (see --help)"
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
  run --separate-stderr "$PLAYBOOK" --dry-run --load-seconds 0
  assert_failure 2
  assert_equal "$stderr" "array-push-oplog: --load-seconds must be between 1 and 86400, got 0 (see --help)"
}

@test "--help gives --devices and --load-seconds the scale's defaults" {
  run "$PLAYBOOK" --help
  assert_success
  assert_line --regexp "^  --devices N +devices in the load \\(default: the scale's \\(small: 10\\)\\)$"
  assert_line --regexp "^  --load-seconds N +simulated seconds of the load \\(default: the scale's \\(small: 600\\)\\)$"
}

@test "the plan lists the checker's four claims as to be checked" {
  run "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report"
  assert_success
  assert_line --partial "to be checked: a plain \$push replicates the whole array"
  assert_line --partial 'to be checked: every version compared replicates the same patterns whole'
}

@test "a sourced playbook runs nothing and knows its scenario folder" {
  run bash -c 'source "$1" && pb::scenario_init && scenario::unknown_patterns push,bogus' _ "$PLAYBOOK"
  assert_success
  assert_output "array-push-oplog: unknown pattern 'bogus' (known: push, push-slice, push-sort, push-position0, addtoset, pull, pop-first, pop-last, set-one, per-second)"
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
