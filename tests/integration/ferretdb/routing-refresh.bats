#!/usr/bin/env bats
# routing-refresh's connection helpers (lib/scenarios/routing-refresh/nodes.js)
# against a real wire server: FerretDB has no sharding, so only what does not
# need it runs here; the sharded paths are covered by the plan tests
# (tests/bats/routing-refresh.bats).

setup() {
  load ../../bats/test_helper
}

@test "nodes.js: direct connections in a loop; a failed command comes back as a reply, not a throw" {
  local host="${DBA_LAB_TEST_URI#mongodb://}" cfg
  host=${host%%/*}
  cfg=$(jq -nc --arg root "$DBA_LAB_ROOT" --arg dir "${DBA_LAB_ROOT}/playbooks/lib/scenarios/routing-refresh" \
    --arg host "$host" --arg rec "${BATS_TEST_TMPDIR}/records.jsonl" \
    '{root: $root, records: $rec, playbook: "routing-refresh", dbName: "dbalab_routing-refresh", runId: "t",
      version: "", scale: "small", params: {dir: $dir, host: $host}}')
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval "globalThis.dbaLabStage = ${cfg}; void 0" \
    "${DBA_LAB_ROOT}/playbooks/lib/js/stage.js" "${DBA_LAB_ROOT}/tests/fixtures/routing-refresh/nodes-probe.js"
  assert_success
  assert_output '{"ping":1,"missing":[0,"CommandNotFound"],"timed":[1,true]}'
}
