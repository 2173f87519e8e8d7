#!/usr/bin/env bats
# playbooks/capped-pubsub.sh: the --dry-run plan flag by flag (mlaunch 1.7.2's
# flags, the load generator's, the claims in order) and option errors.
# The fake mongod in tests/fixtures/fake-server only answers --version.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

plan() {
  "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>/dev/null \
    | plan_lines | sed -E "s#${WORKDIR}#WORK#g"
}

# The whole dry-run output (the plan's commands and what it says).
plan_all() {
  "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>&1
}

@test "default launch: a replica set of one node on the fake binaries, nothing else added" {
  run plan --port 30900
  assert_success
  assert_line '$ mlaunch init --replicaset --nodes 1 --name replset --port 30900 --dir WORK/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin'
}

@test "the small sweep runs 1, 10, 40 subscribers tailing the capped topic, then the same with change streams" {
  run plan
  assert_success
  local lines
  lines=$(grep '^\$ node .*/run.js ' <<<"$output" | sed -E 's/.* --collection ([a-z_]+) --mode ([a-z]+) --subscribers ([0-9]+) .*/\1 \2 \3/')
  [[ "$lines" == $'ticker capped 1\nticker capped 10\nticker capped 40\nticker_stream changestream 1\nticker_stream changestream 10\nticker_stream changestream 40' ]]
}

@test "a sweep point's load generator command line, flag by flag" {
  run plan --subscribers 10 --publishers 3 --rate 250 --seconds 20 --write-concern majority --first-batch 2 --max-await-ms 500 --drain-seconds 7 --idle-seconds 0 --compare none
  assert_success
  assert_line "\$ node ROOT/playbooks/lib/scenarios/capped-pubsub/run.js --uri 'mongodb://localhost:27100/?replicaSet=replset' --db dbalab_capped-pubsub --collection ticker --mode capped --subscribers 10 --publishers 3 --rate 250 --seconds 20 --run-tag capped-10 --pids '<mongod/mongos pids from mlaunch list>' --first-batch 2 --max-await-ms 500 --write-concern majority --drain-seconds 7 --idle-seconds 0 --out WORK/report/raw/7.0.12/capped-10.json"
  refute_output --partial 'changestream'
}

@test "the scale sets publishers, rate, seconds and the sweep: full is the article's 1000 messages/s for 25 s" {
  run plan --scale full --compare none
  assert_success
  assert_line --partial -- '--mode capped --subscribers 40 --publishers 50 --rate 1000 --seconds 25 '
  run plan --compare none
  assert_success
  assert_line --partial -- '--mode capped --subscribers 40 --publishers 4 --rate 100 --seconds 15 '
}

@test "the topic is created with the article's size and max, or the ones given" {
  run plan --capped-size 1048576 --capped-max 0
  assert_success
  assert_line --regexp 'capped-pubsub/prepare.js$'
  assert_output --partial '"params":{"size":1048576,"max":0}'
}

@test "claims in order: grow, shard, replicate, count, stop every node (SIGTERM) and start it with mlaunch, count again" {
  run plan --compare none
  assert_success
  local steps
  steps=$(sed -n -E -e 's/.*"params":\{"claim":"([a-z]+)".*/claim \1/p' -e 's/^\$ (mlaunch (stop|start)) --dir .*/\1/p' \
    -e 's/^\$ kill -TERM .*/stop/p' -e "s/.*runCommand\(\{count: .*ticker.*/count/p" <<<"$output")
  [[ "$steps" == $'claim grow\nclaim shard\nclaim replicate\ncount\nstop\nmlaunch start\nclaim restart\nmlaunch stop' ]]
}

@test "--sharded launches one shard, a config server and one mongos" {
  run plan --sharded --compare none --port 31000
  assert_success
  assert_line '$ mlaunch init --sharded 1 --replicaset --nodes 1 --config 1 --mongos 1 --port 31000 --dir WORK/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin'
  assert_line --partial "run.js --uri mongodb://localhost:31000/ "
}

@test "--uri: no mlaunch at all, no restart, and the restart claim is listed (the checker calls it NOT APPLICABLE)" {
  run "$PLAYBOOK" --dry-run --uri mongodb://127.0.0.1:9/ --report-dir "${WORKDIR}/report" --compare none
  assert_success
  refute_output --partial 'mlaunch'
  refute_output --partial "count: "
  assert_output --partial 'to be checked: capped collections are in-memory only'
  assert_output --partial "--pids ''"
  run plan_lines <<<"$output"
  assert_success
  assert_output --partial "ROOT/playbooks/lib/scenarios/capped-pubsub/run.js --uri mongodb://127.0.0.1:9/ --db dbalab_capped-pubsub --collection ticker --mode capped --subscribers 1 "
}

@test "analysis runs without a server, on the version's raw results" {
  run plan --compare none
  assert_success
  assert_line --regexp '^\$ mongosh --nodb .*"params":\{"dir":"WORK/report/raw/7.0.12","declare":1,"article":"ROOT/playbooks/lib/scenarios/capped-pubsub/article.json"\}.*measure.js$'
}

@test "dry run changes nothing on disk" {
  run plan
  assert_success
  [[ ! -e "${WORKDIR}/data" && ! -e "${WORKDIR}/report" ]]
}

@test "bad subscriber counts are a usage error" {
  run "$PLAYBOOK" --dry-run --subscribers 0,10
  assert_failure 2
  assert_output --partial "--subscribers: 0 is not between 1 and 2000"
  run "$PLAYBOOK" --dry-run --subscribers 1,ten
  assert_failure 2
  assert_output --partial "--subscribers expects whole numbers separated by commas such as 1,10,40, got '1,ten'"
  run "$PLAYBOOK" --dry-run --subscribers 1,,4
  assert_failure 2
  assert_output --partial "got '1,,4'"
  run "$PLAYBOOK" --dry-run --subscribers 10,1
  assert_failure 2
  assert_output --partial "--subscribers must list each number once, in ascending order, got '10,1'"
}

@test "every claim is listed in the plan, to be checked after the run" {
  run plan_all --compare none
  assert_success
  assert_equal "$(grep -c 'to be checked: ' <<<"$output")" 7
  assert_output --partial 'to be checked: documents in a capped collection cannot grow'
  assert_output --partial 'to be checked: publishers keep the target write rate'
}

@test "--help gives the scale's defaults of the sweep options" {
  run "$PLAYBOOK" --help
  assert_success
  assert_output --partial "(default: the scale's (small: 1,10,40))"
  assert_output --partial "(default: the scale's (small: 100))"
}

@test "--sharded with --uri is a usage error" {
  run "$PLAYBOOK" --dry-run --sharded --uri mongodb://127.0.0.1:9/
  assert_failure 2
  assert_output --partial "--sharded launches a cluster; with --uri point at a mongos instead"
}

@test "write concern, comparison and numbers are checked" {
  run "$PLAYBOOK" --dry-run --write-concern 2
  assert_failure 2
  assert_output --partial "--write-concern must be one of 1, majority, got '2'"
  run "$PLAYBOOK" --dry-run --compare oplog
  assert_failure 2
  assert_output --partial "--compare must be one of changestream, none"
  run "$PLAYBOOK" --dry-run --publishers 1001
  assert_failure 2
  assert_output --partial "--publishers"
  run "$PLAYBOOK" --dry-run --capped-size 100
  assert_failure 2
  assert_output --partial "--capped-size"
}

@test "--help teaches the sweep, the claims and the lab guide" {
  run "$PLAYBOOK" --help
  assert_success
  assert_output --partial '--subscribers N,N'
  assert_output --partial 'CappedPositionLost'
  assert_output --partial 'playbooks/capped-pubsub.md'
}

@test "the load generator refuses bad arguments with one line, no stack trace" {
  run node "${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub/run.js" --mode capped
  assert_failure 2
  assert_output "run.js: --uri is required (or DBA_LAB_CONN_URI in the environment)"
  run node "${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub/run.js" --uri mongodb://x/ --db d --collection c --mode tail --subscribers 1 --publishers 1 --rate 1 --seconds 1 --run-tag t --out /dev/null
  assert_failure 2
  assert_output "run.js: --mode must be capped or changestream, got 'tail'"
  run node "${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub/run.js" --pids 1,x
  assert_failure 2
  assert_output "run.js: --pids expects process ids such as 123,456, got '1,x'"
}
