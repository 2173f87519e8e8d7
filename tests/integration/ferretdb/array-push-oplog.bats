#!/usr/bin/env bats
# playbooks/array-push-oplog.sh --uri against a real server that is not a
# replica set (FerretDB: no oplog): the lab must stop in its prepare stage with
# a clear reason, exit 1, and leave no database behind.

bats_require_minimum_version 1.5.0

setup() {
  load ../../bats/test_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh"
}

@test "--uri of a server without a replica set: prepare explains why and the run fails (exit 1)" {
  run --separate-stderr "$PLAYBOOK" --uri "$DBA_LAB_TEST_URI" --no-load --yes \
    --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 1
  assert_regex "$output$stderr" 'the target is not a replica set member \(hello has no setName\)'
  run jq -r '.status' "${BATS_TEST_TMPDIR}/report/results.json"
  assert_output 'failed'
}

@test "the failed run drops the database it created" {
  "$PLAYBOOK" --uri "$DBA_LAB_TEST_URI" --no-load --yes --report-dir "${BATS_TEST_TMPDIR}/report" >/dev/null 2>&1 || true
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval \
    'print(db.adminCommand({listDatabases: 1, nameOnly: true}).databases.map((d) => d.name).includes("dbalab_array-push-oplog"))'
  assert_output 'false'
}
