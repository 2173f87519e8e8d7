#!/usr/bin/env bats
# The report of a --uri run against FerretDB (DBA_LAB_TEST_URI): FerretDB
# answers buildInfo with a MongoDB version, so preflight keeps ferretdbVersion
# and the report names the server for what it is.

bats_require_minimum_version 1.5.0

setup() {
  load ../../bats/test_helper
  DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")/../../.." && pwd)"
  export DBA_LAB_ROOT
  load ../../bats/playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
}

teardown() {
  mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval "db.getSiblingDB('dbalab_demo-lab').dropDatabase()" >/dev/null 2>&1 || true
}

@test "a --uri run on FerretDB names FerretDB in preflight, results.json and report.html" {
  run "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "$REPORT"
  assert_success
  assert_line --regexp 'ok +--uri reachable: FerretDB v[0-9.]+ \(answers buildInfo as MongoDB [0-9.]+\)'
  run jq -r '.environment.server | "\(.product) \(.version | test("^v[0-9]")) \(.reportsAs == $v)"' \
    --arg v "$(jq -r '.environment.versions[0].server' "${REPORT}/results.json")" "${REPORT}/results.json"
  assert_success
  assert_output 'FerretDB true true'
  # The version cell of the demo checker's one verdict names the server as what it is.
  run grep -c -E '<td>FerretDB v[0-9.]+ \(presents itself as MongoDB [0-9.]+\)</td>' "${REPORT}/report.html"
  assert_success
  assert_output 1
  run grep -F 'not on MongoDB</strong>' "${REPORT}/report.html"
  assert_success
}
