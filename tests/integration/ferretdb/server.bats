#!/usr/bin/env bats
# tests/servers/ferretdb.sh: the test server the integration suites stand on.

bats_require_minimum_version 1.5.0

setup() {
  load ../../bats/test_helper
}

# The second instance is stopped, its data deleted, also when a test fails.
teardown() {
  if [[ -f "${BATS_TEST_TMPDIR}/state/pid" ]]; then server stop 2>/dev/null || true; fi
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
  # stdout is the URI alone (stderr says where the data is and how to stop it).
  run --separate-stderr server start
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
