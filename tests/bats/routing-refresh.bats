#!/usr/bin/env bats
# playbooks/routing-refresh.sh: the --dry-run plan (topology flags as mtools
# 1.7.2's mlaunch.py defines them, the sweep, the chunk-creation method and
# enableTestCommands per version), option errors, and the analyze stage
# (measure.js in mongosh) with the checker through pb::check on real 4.2 log
# lines. No server runs here. The pure JS (model.js, chunk-plan.js,
# refresh-plan.js, checker.js) is tested in tests/unit/routing-refresh-*.test.js.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  RR="${DBA_LAB_ROOT}/playbooks/routing-refresh.sh"
  RR_JS="${DBA_LAB_ROOT}/playbooks/lib/scenarios/routing-refresh"
  RR_FIX="${DBA_LAB_ROOT}/tests/fixtures/routing-refresh"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

dry() {
  "$RR" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>&1
}

# --- the plan ------------------------------------------------------------------

@test "plan: 2 one-node shards, a one-node config server set and one mongos; test commands for reshard" {
  run dry --port 30100
  assert_success
  run plan_lines <<<"$output"
  assert_success
  assert_line "\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port 30100 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --setParameter enableTestCommands=1"
}

@test "plan: 7.0 makes every count of the small sweep with reshardCollection and says why it needs test commands" {
  run dry
  assert_success
  assert_output --partial "MongoDB 7.0.12: sweep 1000 10000 50000 chunks, 3 repetition(s) of each refresh"
  assert_output --partial "methods: 1000:reshard, 10000:reshard, 50000:reshard"
  assert_output --partial "enableTestCommands: yes (reshardCollection with _presetReshardedChunks is test-only)"
  assert_output --partial "estimate (rough; the run shows the measured rate): "
}

@test "plan: the config server gets the resharding knobs, restored at cleanup, before the stages" {
  run dry --port 30200
  assert_success
  run plan_lines <<<"$output"
  assert_success
  # preflight runs both binaries first (a sharded run needs mongos to start too)
  assert_equal "${lines[0]}" "\$ ROOT/tests/fixtures/fake-server/bin/mongod --version"
  assert_equal "${lines[1]}" "\$ ROOT/tests/fixtures/fake-server/bin/mongos --version"
  assert_regex "${lines[5]}" "^\\\$ mongosh 'mongodb://localhost:30203/\\?replicaSet=configRepl' .*\"params\":\\{\"name\":\"reshardingMinimumOperationDurationMillis\",\"value\":0\\}"
  assert_regex "${lines[6]}" "\"params\":\\{\"name\":\"reshardingCriticalSectionTimeoutMillis\",\"value\":86400000\\}"
  assert_regex "${lines[7]}" "^\\\$ mongosh mongodb://localhost:30200/ .*\"params\":\\{\"mongos\":\"localhost:30200\"\\}.* ROOT/playbooks/lib/scenarios/routing-refresh/prepare.js$"
  assert_regex "${lines[8]}" "\"params\":\\{\"counts\":\"1000,10000,50000\",\"methods\":\"1000:reshard 10000:reshard 50000:reshard\",\"reps\":3,\"presetMax\":150000,\"testCommands\":1,\"mongos\":\"localhost:30200\"\\}.* ROOT/playbooks/lib/scenarios/routing-refresh/run.js$"
  assert_regex "${lines[9]}" "^\\\$ ROOT/playbooks/analyze refresh --json "
  assert_regex "${lines[10]}" "^\\\$ mongosh --nodb .* ROOT/playbooks/lib/scenarios/routing-refresh/measure.js$"
  assert_line --partial "\"name\":\"reshardingMinimumOperationDurationMillis\",\"json\":\"<value before the run>\",\"restore\":1"
}

@test "plan: 4.4 uses hashed numInitialChunks up to 8192 per shard, a split loop beyond, and no test commands" {
  FAKE_MONGOD_VERSION=4.4.29 run dry --port 30300
  assert_success
  assert_output --partial "methods: 1000:hashed, 10000:hashed, 50000:split"
  assert_output --partial "enableTestCommands: no (not needed by these methods)"
  run plan_lines <<<"$output"
  assert_success
  assert_line "\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port 30300 --dir ${WORKDIR}/data/4.4.29 --binarypath ROOT/tests/fixtures/fake-server/bin"
  refute_line --partial "reshardingMinimumOperationDurationMillis"
}

@test "plan: 16384 chunks is the hashed limit with 2 shards, 16385 goes to the split loop" {
  FAKE_MONGOD_VERSION=4.4.29 run dry --chunks 16384,16385
  assert_success
  assert_output --partial "methods: 16384:hashed, 16385:split"
}

@test "plan: beyond 150000 chunks reshardCollection is followed by a split loop (medium and full scales)" {
  run dry --scale medium
  assert_success
  assert_output --partial "methods: 1000:reshard, 10000:reshard, 50000:reshard, 100000:reshard, 250000:reshard+split"
  run dry --scale full
  assert_success
  assert_output --partial "sweep 10000 100000 250000 500000 1000000 1500000 chunks"
  assert_output --partial "1500000:reshard+split"
}

@test "plan: time and disk estimates come before the launch; hours of split loops are warned about" {
  run dry
  assert_success
  assert_line --regexp ' estimate \(rough; the run shows the measured rate\): 65 s, about 1046 MB of disk$'
  refute_output --partial "take hours"
  run dry --scale full
  assert_success
  assert_line --regexp ' estimate \(rough; the run shows the measured rate\): 18 h 26 min, about 5294 MB of disk$'
  assert_output --partial "MongoDB 7.0.12: split loops make this sweep take hours; fewer or smaller counts (--chunks) finish sooner"
  [[ "$output" == *"estimate (rough"*"==> launch"* ]]
}

@test "plan: --method split on 7.0 needs no test commands and no resharding knobs" {
  run dry --method split --port 30400
  assert_success
  assert_output --partial "methods: 1000:split, 10000:split, 50000:split"
  run plan_lines <<<"$output"
  assert_success
  assert_line "\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port 30400 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin"
  refute_line --partial "resharding"
}

@test "plan: more shards, members and routers change the mlaunch flags and the config server port" {
  run dry --shards 3 --nodes 2 --config-servers 3 --mongos 2 --port 30500
  assert_success
  run plan_lines <<<"$output"
  assert_success
  assert_line --partial "\$ mlaunch init --sharded 3 --replicaset --nodes 2 --config 3 --mongos 2 --port 30500 "
  # mongos 30500-30501, shards 30502-30507, config servers 30508-30510.
  assert_line --partial "mongosh 'mongodb://localhost:30508,localhost:30509,localhost:30510/?replicaSet=configRepl'"
  assert_line --partial '"mongos":"localhost:30500,localhost:30501"'
}

@test "plan: two versions from m, test commands only for the one that reshards" {
  use_fake_m
  fake_m_installed 4.4.29 8.0.4
  run "$RR" --dry-run --mongodb-version 4.4.29,8.0.4 --dir "${WORKDIR}/data" --port 30600
  assert_success
  run grep -E '^\$ mlaunch init' <<<"$output"
  assert_success
  assert_output "\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port 30600 --dir ${WORKDIR}/data/4.4.29 --binarypath ${M_PREFIX}/m/versions/4.4.29/bin
\$ mlaunch init --sharded 2 --replicaset --nodes 1 --config 1 --mongos 1 --port 30600 --dir ${WORKDIR}/data/8.0.4 --binarypath ${M_PREFIX}/m/versions/8.0.4/bin --setParameter enableTestCommands=1"
}

@test "--help teaches the methods, the scales and the lab guide" {
  run "$RR" --help
  assert_success
  assert_output --partial "_presetReshardedChunks"
  assert_output --partial "chunks=1000,10000,50000"
  assert_output --partial "--method auto|reshard|hashed|split"
  assert_output --partial "Lab guide: playbooks/routing-refresh.md"
}

# --- option errors ---------------------------------------------------------------

@test "option error: --chunks must be ascending whole numbers" {
  run --separate-stderr "$RR" --dry-run --chunks 1000,500
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --chunks must list each number once, in ascending order, got '1000,500' (see --help)"
  run --separate-stderr "$RR" --dry-run --chunks 1k,2k
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --chunks expects whole numbers separated by commas such as 1,10,40, got '1k,2k' (see --help)"
  run --separate-stderr "$RR" --dry-run --chunks 5,1000
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --chunks: 5 is not between 10 and 10000000 (see --help)"
}

@test "option error: reshard needs 5.0, hashed needs a version before 7.2 and at most 8192 chunks per shard" {
  run --separate-stderr "$RR" --dry-run --method reshard --mongodb-version 4.4
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --method reshard needs MongoDB 5.0 or newer (reshardCollection), not 4.4 (see --help)"
  run --separate-stderr "$RR" --dry-run --method hashed --mongodb-version 7.2
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --method hashed needs MongoDB before 7.2 (numInitialChunks is ignored from 7.2), not 7.2 (see --help)"
  run --separate-stderr "$RR" --dry-run --method hashed --mongodb-version 6.0 --chunks 1000,20000
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --method hashed makes at most 16384 chunks with 2 shards (8192 per shard), not 20000 (see --help)"
}

@test "option error: --method reshard on --binarypath binaries of 4.4 stops before the launch" {
  FAKE_MONGOD_VERSION=4.4.29 run dry --method reshard
  assert_failure
  assert_output --partial "--method reshard needs MongoDB 5.0 or newer (reshardCollection), not 4.4.29"
  refute_output --partial "mlaunch init"
}

@test "option error: one shard, and --uri, are refused" {
  run --separate-stderr "$RR" --dry-run --shards 1
  assert_failure 2
  assert_equal "$stderr" "routing-refresh: --shards must be at least 2: the chunks are spread over the shards and moved between them (see --help)"
  run --separate-stderr "$RR" --dry-run --uri mongodb://127.0.0.1:9/
  assert_failure 2
  assert_regex "$stderr" "--uri is not supported by this playbook: it creates up to a million chunks"
}

# --- chunk boundaries --------------------------------------------------------------

@test "chunk plan: a 150000-chunk reshardCollection command fits in 16 MB of BSON" {
  run mongosh --nodb --quiet --norc --eval "
    const P = require('${RR_JS}/chunk-plan.js');
    const c = P.presetChunks(150000, ['shard01', 'shard02'], {minKey: new MinKey(), maxKey: new MaxKey()});
    const n = bsonsize({reshardCollection: 'dbalab_routing-refresh.chunks_1500000', key: {k: 1}, _presetReshardedChunks: c});
    print(n < 16 * 1024 * 1024 ? 'fits ' + n : 'too big ' + n)"
  assert_success
  assert_output --regexp '^fits 1[0-9]{7}$'
}

# --- the analyze stage and the checker on recorded log lines -----------------------

@test "analyze stage: phases and log lines in, durations and fits out; pb::check decides from them" {
  load_playbook routing-refresh
  # shellcheck disable=SC2034 # read by the framework (the records' version)
  PB_VERSION=4.2.24
  pb::record_version 4.2 4.2.24 ""
  pb::measure chunkGrouping 0
  local events="${BATS_TEST_TMPDIR}/events.jsonl"
  "${DBA_LAB_ROOT}/playbooks/analyze" refresh --json "${DBA_LAB_ROOT}/tests/fixtures/logs/refresh-4.2-mongos.log" >"$events"
  # The article's 4.2 lines at 1.5M chunks, with the phases written around them.
  jq -c '.[] | {type: "row", table: "phases", version: "4.2.24", row: .}' "${RR_FIX}/phases-4.2-mongos.json" >>"$PB_RECORDS"
  run pb::mongosh_stage --nodb "${RR_JS}/measure.js" "events=mongos:27100:${events}"
  assert_success
  assert_line "  9 refresh line(s) in the logs, 3 phase(s) to match"
  run jq -c 'select(.type == "row" and .table == "durations") | .row | [.series, .chunks, .medianMs, .maxMs, .refreshesLogged]' "$PB_RECORDS"
  assert_success
  assert_line '["4.2.24 mongos incremental",1501037,409,745,2]'
  run jq -r 'select(.type == "note") | .text' "$PB_RECORDS"
  assert_success
  assert_output --partial "1 of 3 refresh phase(s) had no refresh line of their namespace"
  run jq -c 'select(.type == "verdict")' "$PB_RECORDS"
  assert_success
  assert_output ''
  run pb::check
  assert_success
  run jq -c 'select(.type == "verdict") | [.id, .verdict, .reason]' "$PB_RECORDS"
  assert_success
  assert_line '["linear","NOT APPLICABLE","needs at least 3 chunk counts with a logged refresh, had 1 (give --chunks with three counts or more)"]'
  assert_line '["near-constant","NOT APPLICABLE","this version has no chunk grouping (routingTableCacheChunkBucketSize unknown to the server)"]'
}

# --- config.chunks lookups (keyed by uuid from 5.0) ----------------------------

@test "no playbook scans config.chunks by ns to find out how it is keyed" {
  run grep -rnE "getCollection\('chunks'\)\.(findOne|find|countDocuments)\(\{ ?ns ?\}" "${DBA_LAB_ROOT}/playbooks"
  assert_failure 1
}

# --- full refresh: a shard refreshes only when told to --------------------------

@test "plan: the full refresh's commands are shown for each version" {
  use_fake_m
  fake_m_installed 4.4.29 8.0.4
  run "$RR" --dry-run --mongodb-version 4.4.29,8.0.4 --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report"
  assert_success
  [ "$(grep -c 'full refresh, each repetition, then the first query through mongos:' <<<"$output")" -eq 2 ]
  assert_output --partial "on each shard's primary: db.adminCommand({\"_flushRoutingTableCacheUpdates\":\"dbalab_routing-refresh.<collection>\",\"syncFromConfig\":true})"
  assert_output --partial "on each mongos: db.adminCommand({\"flushRouterConfig\":\"dbalab_routing-refresh.<collection>\"})"
}

