#!/usr/bin/env bats
# The playbook framework end to end with --uri against a real server (the
# runner's FerretDB, DBA_LAB_TEST_URI): connect, mongosh stages, report, and
# cleanup of its own database only. FerretDB has no setParameter, so knob
# restores are covered by the dry-run plans instead.

bats_require_minimum_version 1.5.0

setup() {
  load ../../bats/test_helper
  DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")/../../.." && pwd)"
  export DBA_LAB_ROOT
  load ../../bats/playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
  DB=dbalab_demo-lab
}

teardown() {
  mongo_eval "db.getSiblingDB('${DB}').dropDatabase()" >/dev/null 2>&1 || true
}

mongo_eval() {
  mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval "$1"
}

db_exists() {
  mongo_eval "print(db.adminCommand({listDatabases: 1, nameOnly: true}).databases.some(d => d.name === '${DB}'))"
}

@test "a --uri run connects, runs its mongosh stages, writes the report and drops its database" {
  run "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "$REPORT"
  assert_success
  assert_line --regexp 'ok +--uri reachable: (MongoDB|FerretDB) '
  # FerretDB's pretend MongoDB version never stands alone in a stage header.
  if [[ "$output" == *"--uri reachable: FerretDB"* ]]; then
    assert_line --regexp '^==> launch \(FerretDB v[0-9.]+\)'
    refute_line --regexp '^==> [a-z]+ \([0-9]'
  fi
  assert_line --partial "wrote 10 documents into ${DB}.items"
  # The predictions tables are MongoDB's: FerretDB gets none, and the line says so.
  if [[ "$output" == *"--uri reachable: FerretDB"* ]]; then
    assert_line --regexp 'REPRODUCED, NO PREDICTION: every written document is counted \[FerretDB v[0-9.]+\] \(expected counted = written, observed 10 of 10\)'
  else
    assert_line --regexp 'REPRODUCED, AS PREDICTED: every written document is counted \[[0-9.]+\] \(expected counted = written, observed 10 of 10\)'
  fi
  assert_line --partial "dropped ${DB}"
  run jq -r '[.status, .environment.topology.type, (.environment.versions[0].server | test("^[0-9]+\\.[0-9]+")),
    (.verdicts | map(.verdict) | join(",")), (.tables.sizes.rows | length)] | map(tostring) | join(" ")' "${REPORT}/results.json"
  assert_success
  assert_output 'done uri true REPRODUCED 2'
  run db_exists
  assert_success
  assert_output false
}

@test "the database is dropped also when a stage fails" {
  run "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "$REPORT" --fail-at run
  assert_failure 1
  assert_line --partial "dropped ${DB}"
  run db_exists
  assert_success
  assert_output false
}

@test "an existing dbalab_ database it did not create is refused in preflight and left untouched" {
  mongo_eval "db.getSiblingDB('${DB}').getCollection('precious').insertOne({_id: 1})"
  run --separate-stderr "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "$REPORT"
  assert_failure 3
  assert_regex "$stderr" "database ${DB} already exists on the target: it is left by an earlier run \\(or by someone else\\); this run only drops what it created"
  run mongo_eval "print(db.getSiblingDB('${DB}').getCollection('precious').countDocuments())"
  assert_success
  assert_output 1
}

@test "--keep leaves the database; the next run names the run that left it and refuses" {
  run "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "$REPORT" --keep
  assert_success
  assert_line --partial "--keep: database ${DB} stays on the target"
  run db_exists
  assert_success
  assert_output true
  run --separate-stderr "$DEMO" --uri "$DBA_LAB_TEST_URI" --report-dir "${REPORT}2"
  assert_failure 3
  assert_regex "$stderr" "it is left by an earlier run \\(run [0-9TZ]+-[0-9]+ of "
}

@test "cleanup does not drop the database when its owner mark names another run" {
  load_framework
  # shellcheck disable=SC2034 # read by the framework
  PB_URI=$DBA_LAB_TEST_URI PB_DB_NAME=$DB
  mongo_eval "db.getSiblingDB('${DB}').getCollection('_dbalab_owner').insertOne({_id: 'owner', runId: 'someone-else'})"
  pb::_drop_uri_database
  run grep -F "not dropping ${DB}: it was not created by this run" "$PB_LOG"
  assert_success
  run db_exists
  assert_success
  assert_output true
}
