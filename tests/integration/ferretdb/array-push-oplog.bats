#!/usr/bin/env bats
# playbooks/array-push-oplog.sh --uri against a real server that is not a
# replica set (FerretDB: no oplog): preflight must stop the lab with one line
# of why (exit 3), before anything is created on the target.

bats_require_minimum_version 1.5.0

setup() {
  load ../../bats/test_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh"
}

@test "--uri of a server without a replica set: preflight says why in one line (exit 3)" {
  run --separate-stderr "$PLAYBOOK" --uri "$DBA_LAB_TEST_URI" --no-load --yes \
    --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" 'is a standalone; array-push-oplog needs a replica set member'
  [ ! -e "${BATS_TEST_TMPDIR}/report/results.json" ]
}

@test "the refused run creates no database on the target" {
  "$PLAYBOOK" --uri "$DBA_LAB_TEST_URI" --no-load --yes --report-dir "${BATS_TEST_TMPDIR}/report" >/dev/null 2>&1 || true
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval \
    'print(db.adminCommand({listDatabases: 1, nameOnly: true}).databases.map((d) => d.name).includes("dbalab_array-push-oplog"))'
  assert_success
  assert_output 'false'
}
