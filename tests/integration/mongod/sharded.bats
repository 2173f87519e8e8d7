#!/usr/bin/env bats
# The snippets on a real sharded cluster: tests/servers/mongod.sh starts the
# sharded layout (2 shards, a config server, a mongos) through the playbooks'
# m/mlaunch layer; each sharded/*.test.js runs in mongosh on the mongos with
# the snippet test harness, and every one of its cases must pass.

bats_require_minimum_version 1.5.0

setup_file() {
  load ../../bats/test_helper
  SHARDED_URI=$("${DBA_LAB_ROOT}/tests/servers/mongod.sh" start sharded)
  export SHARDED_URI
}

teardown_file() {
  "${DBA_LAB_ROOT}/tests/servers/mongod.sh" stop sharded
}

setup() {
  load ../../bats/test_helper
}

# The harness's TAP for one file, on the mongos.
harness() {
  mongosh "$SHARDED_URI" --quiet --norc \
    --eval "globalThis.__dbaLabTestFile = $(jq -Rn --arg f "$1" '$f'); void 0" \
    "${DBA_LAB_ROOT}/tests/snippets/harness.js"
}

@test "the sharded layout answers as a mongos" {
  run mongosh "$SHARDED_URI" --quiet --norc --eval 'print(db.adminCommand({isMaster: 1}).msg)'
  assert_success
  assert_output isdbgrid
}

@test "sharded/chunks.test.js: chunkSummary and collStatsSummary per shard" {
  run harness "${BATS_TEST_DIRNAME}/sharded/chunks.test.js"
  assert_success
  assert_line --regexp '^1\.\.[1-9][0-9]*$'
  refute_line --partial 'not ok'
  assert_line --regexp '^ok [0-9]+ - chunkSummary: four chunks'
}
