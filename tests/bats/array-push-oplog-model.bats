#!/usr/bin/env bats
# array-push-oplog's recorded sizes (tests/fixtures/array-push-oplog/facts-sizes.json),
# which the model and checker tests (tests/unit/array-push-oplog-*.test.js) rest on,
# are what mongosh's bsonsize gives for oplog entries written after the
# documented $v:1/$v:2 update formats (facts-entries.js).

setup() {
  load test_helper
  FIX="${DBA_LAB_ROOT}/tests/fixtures/array-push-oplog"
}

@test "the recorded sizes are what mongosh's bsonsize gives for the documented entries" {
  run mongosh --nodb --quiet --norc "${FIX}/facts-entries.js"
  assert_success
  assert_equal "$(jq -S . <<<"$output")" "$(jq -S . "${FIX}/facts-sizes.json")"
}
