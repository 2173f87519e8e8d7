#!/usr/bin/env bats
# tests/servers/ferretdb.sh: the test server the integration suites stand on.

setup() {
  load ../../bats/test_helper
}

@test "the runner's FerretDB answers a ping at the URI it was given" {
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval 'db.adminCommand({ping: 1}).ok'
  assert_success
  assert_output "1"
}

# A separate instance, so the runner's server is left alone.
server() {
  DBA_LAB_FERRETDB_STATE="${BATS_TEST_TMPDIR}/state" "${DBA_LAB_ROOT}/tests/servers/ferretdb.sh" "$@"
}

@test "a second instance starts on its own port and stop removes its data" {
  run server start
  assert_success
  assert_output --regexp '^mongodb://127\.0\.0\.1:[0-9]+/$'
  refute_output "$DBA_LAB_TEST_URI"
  local data
  data=$(cat "${BATS_TEST_TMPDIR}/state/data")
  [[ -d "$data" ]]
  run server stop
  assert_success
  [[ ! -e "$data" ]]
  [[ ! -e "${BATS_TEST_TMPDIR}/state" ]]
}

@test "uri on a stopped server says so and fails" {
  run server uri
  assert_failure
  assert_output --partial "not running"
}
