#!/usr/bin/env bats
# The whole mongodump-raw-bson playbook with --uri against the runner's
# FerretDB (DBA_LAB_TEST_URI), at a tiny size, with the Database Tools that
# setup builds: every method runs, the report is valid, the timing table has a
# row per method, and the run leaves nothing behind on the server.

bats_require_minimum_version 1.5.0

setup_file() {
  load ../../bats/test_helper
  export REPORT="${BATS_FILE_TMPDIR}/report"
  export DB=dbalab_mongodump-raw-bson
  # One run for the whole file: it takes about a minute. Two repeats: the
  # checker judges a ratio only on two clean runs of each method (its needs).
  "${DBA_LAB_ROOT}/playbooks/mongodump-raw-bson.sh" --uri "$DBA_LAB_TEST_URI" --yes \
    --shape both --docs 500 --nested-docs 2 --collections 2 --repeats 2 \
    --restore-workers 2 --restore-parallel 1 --report-dir "$REPORT" \
    >"${BATS_FILE_TMPDIR}/out" 2>&1 || echo "exit $?" >>"${BATS_FILE_TMPDIR}/out"
}

setup() {
  load ../../bats/test_helper
  RESULTS="${REPORT}/results.json"
}

METHODS=(mongodump-dir mongodump-archive driver-raw driver-decoded mongosh-toArray mongoexport
  floor-cat mongorestore mongorestore-workers-2 mongorestore-parallel-1 driver-insertMany)

@test "the playbook finishes with status done" {
  run cat "${BATS_FILE_TMPDIR}/out"
  assert_success
  refute_output --partial 'exit '
  run jq -r .status "$RESULTS"
  assert_success
  assert_output "done"
}

@test "the timing table has one row per method and shape, in run order" {
  local expected m
  expected=$(for s in tiny nested; do for m in "${METHODS[@]}"; do printf '%s %s\n' "$s" "$m"; done; done)
  run jq -r '.tables.timing as $t | ($t.columns | index("shape")) as $s | ($t.columns | index("method")) as $m | $t.rows[] | "\(.values[$s]) \(.values[$m])"' "$RESULTS"
  assert_success
  assert_output "$expected"
}

@test "every method ran cleanly: status ok, two runs, a positive wall time" {
  run jq -r '.tables.timing as $t | $t.rows[] | [$t.columns, .values] | transpose | map({(.[0]): .[1]}) | add
    | select(.status != "ok" or .runs != 2 or (.wall_s | type) != "number" or .wall_s <= 0) | "\(.shape) \(.method) \(.status)"' "$RESULTS"
  assert_success
  assert_output ''
}

@test "the clients that count documents saw every seeded one" {
  run jq -r '[.measurements[] | select(.key == "tiny.docs" or .key == "nested.docs") | .value] | join(" ")' "$RESULTS"
  assert_success
  assert_output "1000 2"
  run jq -r '.tables.timing as $t | $t.rows[] | [$t.columns, .values] | transpose | map({(.[0]): .[1]}) | add
    | select(.docs_seen != null) | "\(.shape) \(.method) \(.docs_seen)"' "$RESULTS"
  assert_success
  assert_output "tiny driver-raw 1000
tiny driver-decoded 1000
tiny mongosh-toArray 1000
tiny driver-insertMany 1000
nested driver-raw 2
nested driver-decoded 2
nested mongosh-toArray 2
nested driver-insertMany 2"
}

@test "the report holds the verdicts, each computed (reproduced or not)" {
  run jq -r '.verdicts | length' "$RESULTS"
  assert_success
  assert_output 7
  run jq -r '[.verdicts[] | .id] | join(" ")' "$RESULTS"
  assert_success
  assert_output "decoding raw restore decoding raw restore shape"
  run jq -r '.verdicts[] | select(.verdict != "REPRODUCED" and .verdict != "NOT REPRODUCED") | .claim' "$RESULTS"
  assert_success
  assert_output ''
  run grep -c '^| \[tiny\] ' "${REPORT}/report.md"
  assert_success
  assert_output 3
}

@test "the report files are there: report.md, timing.csv with a header and 22 rows" {
  [[ -s "${REPORT}/report.md" ]]
  run head -n 1 "${REPORT}/timing.csv"
  assert_success
  assert_output '"version","n","shape","side","method","runs","wall_s","in_process_s","user_s","sys_s","cpu_pct_of_wall","server_cpu_s","docs_per_s","mb_per_s","peak_rss_mb","x_mongodump","docs_seen","status"'
  run wc -l <"${REPORT}/timing.csv"
  assert_success
  assert_output 23
}

@test "FerretDB reports no CPU of its own: asked once, said once, the column left empty" {
  run grep -c -E "run\\.js'? server-cpu" "${REPORT}/run.log"
  assert_success
  assert_output 1
  run grep -c -F 'the server reports no CPU time (serverStatus extra_info): server_cpu_s stays empty' "${REPORT}/run.log"
  assert_success
  assert_output 1
  run jq -r '[.tables.timing as $t | $t.rows[] | .values[$t.columns | index("server_cpu_s")]] | unique | map(tostring) | join(",")' "$RESULTS"
  assert_success
  assert_output null
}

@test "the tools' versions are recorded in the environment" {
  run jq -r '.environment.tools | [.mongodump, .mongorestore, .mongoexport] | map(test("^100\\.")) | all' "$RESULTS"
  assert_success
  assert_output true
}

@test "the run dropped its database on the server" {
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval "db.adminCommand({listDatabases: 1, nameOnly: true}).databases.some((d) => d.name === '${DB}')"
  assert_success
  assert_output false
}
