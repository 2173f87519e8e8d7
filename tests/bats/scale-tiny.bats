#!/usr/bin/env bats
# --scale tiny on every playbook: declared in the order tiny, small, medium,
# full with small still the default, and a --dry-run plan that goes through
# every stage with the tiny sizes. The fake mongod in tests/fixtures/fake-server
# only answers --version (argument handling, never a scenario).

bats_require_minimum_version 1.5.0

PLAYBOOKS=(array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh)

setup() {
  load test_helper
  load playbook_helper
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

tiny_plan() {
  "${DBA_LAB_ROOT}/playbooks/${1}.sh" --scale tiny --dry-run --binarypath "$FAKE_BIN" \
    --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report"
}

# The scale names of a playbook's --help, in order.
scale_names() {
  "${DBA_LAB_ROOT}/playbooks/${1}.sh" --help | sed -n '/^Scales/,/^$/p' | awk '/^  [a-z]/ {print $1}' | paste -sd, -
}

@test "every playbook declares tiny, small, medium, full in that order" {
  local p
  for p in "${PLAYBOOKS[@]}"; do
    run scale_names "$p"
    assert_success
    assert_output "tiny,small,medium,full"
  done
}

@test "small stays the default scale of every playbook" {
  local p
  for p in "${PLAYBOOKS[@]}"; do
    run "${DBA_LAB_ROOT}/playbooks/${p}.sh" --help
    assert_success
    assert_line --regexp '^  small .*\(default\)$'
    refute_line --regexp '^  tiny .*\(default\)$'
    run "${DBA_LAB_ROOT}/playbooks/${p}.sh" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data-${p}" --report-dir "${WORKDIR}/report-${p}"
    assert_success
    assert_output --partial "playbook ${p}, scale small,"
  done
}

@test "each tiny scale says how long it takes" {
  local p
  for p in "${PLAYBOOKS[@]}"; do
    run "${DBA_LAB_ROOT}/playbooks/${p}.sh" --help
    assert_success
    assert_line --regexp '^  tiny +about [0-9.]+ minutes? '
  done
}

# One test per playbook: a failing plan names its playbook.
plan_goes_through_every_stage() {
  local p="$1" stage
  run tiny_plan "$p"
  assert_success
  assert_output --partial "playbook ${p}, scale tiny,"
  for stage in preflight launch prepare run analyze report teardown; do
    assert_output --regexp "(^|"$'\n'")==> ${stage}( |$)"
  done
  assert_line --regexp '^\$ mlaunch init '
  assert_output --partial '"scale":"tiny"'
  assert_output --partial 'dry run: nothing was changed'
  [ ! -e "${WORKDIR}/data" ]
  [ ! -e "${WORKDIR}/report" ]
}

@test "array-push-oplog --scale tiny --dry-run: every stage, 2 devices x 60 s" {
  plan_goes_through_every_stage array-push-oplog
  assert_output --partial '"params":{"which":"worst","devices":2,"seconds":60}'
  assert_output --partial '--oplogSize 512'
}

@test "capped-pubsub --scale tiny --dry-run: every stage, subscribers 1 and 8" {
  plan_goes_through_every_stage capped-pubsub
  assert_line --regexp "^\\\$ node .*/capped-pubsub/run\\.js'? .* --mode capped --subscribers 8 --publishers 2 --rate 50 --seconds 4 "
  assert_line --regexp "^\\\$ node .*/capped-pubsub/run\\.js'? .* --mode changestream --subscribers 1 "
}

@test "change-stream-resume --scale tiny --dry-run: every stage and all five runs, 60 junk documents" {
  plan_goes_through_every_stage change-stream-resume
  local run
  for run in A B C D E; do
    assert_output --partial "appName=dbalab-csr-${run}"
  done
  assert_output --partial '"junk":60'
}

@test "mongodump-raw-bson --scale tiny --dry-run: every stage, 10,000 documents per collection" {
  plan_goes_through_every_stage mongodump-raw-bson
  assert_output --partial '"docs":10000'
  assert_line --regexp '^\$ .*mongorestore '
}

@test "routing-refresh --scale tiny --dry-run: every stage, three chunk counts" {
  plan_goes_through_every_stage routing-refresh
  assert_output --partial '"counts":"500,2000,10000"'
}
