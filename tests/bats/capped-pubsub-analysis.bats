#!/usr/bin/env bats
# capped-pubsub's analyze stage (playbooks/lib/scenarios/capped-pubsub/measure.js,
# mongosh --nodb) and its checker through the framework (pb::check), on a
# sweep recorded against FerretDB (tests/fixtures/capped-pubsub/ferretdb-sweep,
# written by run.js). The pure JS (model.js, checker.js) is tested with
# node --test in tests/unit/capped-pubsub-*.test.js.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  SCEN="${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub"
  SWEEP="${DBA_LAB_ROOT}/tests/fixtures/capped-pubsub/ferretdb-sweep"
}

# measure.js on the recorded sweep, as version 7.0.42 (the FerretDB run's),
# in the playbook sourced into the test shell (load_playbook).
measure_sweep() {
  pb::mongosh_stage --nodb "${SCEN}/measure.js" "dir=${SWEEP}" declare=1 "article=${SCEN}/article.json"
}

# The trend a chart record carries (pb::chart --trend-of), as compact JSON.
records_of_chart() {
  jq -c --arg n "$1" 'select(.type == "chart" and .name == $n) | .trend' "$PB_RECORDS"
}

setup_playbook() {
  load_playbook capped-pubsub
  # shellcheck disable=SC2034 # read by the framework (the records' version)
  PB_VERSION=7.0.42
  pb::record_version "" 7.0.42 "" 7.0.42
}

@test "measure.js turns the recorded sweep into tables and notes, and decides nothing" {
  setup_playbook
  run measure_sweep
  assert_success
  run jq -rs '[.[] | select(.type == "row" and .table == "delivery") | .row | "\(.subscribers) \(.received)/\(.expected)"] | join(",")' "$PB_RECORDS"
  assert_success
  assert_output "1 60/60,2 120/120,4 240/240"
  run jq -rs '[.[] | select(.type == "table") | .name] | join(" ")' "$PB_RECORDS"
  assert_success
  assert_output "publish-latency delivery cpu article publish-capped-1 publish-capped-2 publish-capped-4"
  run jq -rs '[.[] | select(.type == "note") | .text] | map(select(test("changestream fan-out did not run"))) | length' "$PB_RECORDS"
  assert_success
  assert_output 1
  run jq -rs '[.[] | select(.type == "verdict")] | length' "$PB_RECORDS"
  assert_success
  assert_output 0
}

@test "pb::check decides from measure.js's tables: delivery and rate REPRODUCED, the rest NOT APPLICABLE with --uri" {
  setup_playbook
  measure_sweep >/dev/null
  run pb::check
  assert_success
  run jq -r 'select(.type == "verdict") | "\(.id) \(.verdict) \(.version)"' "$PB_RECORDS"
  assert_success
  assert_output "grow NOT APPLICABLE 7.0.42
shard NOT APPLICABLE 7.0.42
replicate NOT APPLICABLE 7.0.42
restart NOT APPLICABLE 7.0.42
cpu NOT APPLICABLE 7.0.42
delivery REPRODUCED 7.0.42
rate REPRODUCED 7.0.42"
}

@test "the CPU chart's lines follow the cpu claim's needs from checker.js, not a number of their own" {
  setup_playbook
  stage_report
  run records_of_chart cpu-vs-subscribers
  assert_success
  assert_output "$(node -e 'const n = require(process.argv[1]).claims.find((c) => c.id === "cpu").needs;
    process.stdout.write(JSON.stringify({claim: "cpu", minPoints: n.minPoints, pointsOf: n.pointsOf}))' "${SCEN}/checker.js")"
}
