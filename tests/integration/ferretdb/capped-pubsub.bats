#!/usr/bin/env bats
# playbooks/capped-pubsub.sh --uri against a real wire-protocol server
# (FerretDB, DBA_LAB_TEST_URI) at a tiny size: it finishes, every subscriber
# gets every message, and the report is complete. One run, several checks.
# --compare none: FerretDB is a standalone, without change streams.

setup_file() {
  REPORT="${BATS_FILE_TMPDIR}/report"
  export REPORT
  local rc=0
  "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --uri "$DBA_LAB_TEST_URI" --subscribers 1,3 --publishers 1 \
    --rate 10 --seconds 2 --drain-seconds 5 --compare none --report-dir "$REPORT" --yes >"${BATS_FILE_TMPDIR}/out" 2>&1 || rc=$?
  printf '%s\n' "$rc" >"${BATS_FILE_TMPDIR}/rc"
}

setup() {
  load ../../bats/test_helper
}

@test "the playbook finishes against the server (exit 0, status done)" {
  run cat "${BATS_FILE_TMPDIR}/rc"
  assert_success
  assert_output 0
  run jq -r '.status' "${REPORT}/results.json"
  assert_success
  assert_output "done"
}

@test "the capped size recorded is the one the server keeps, beside the one asked for" {
  local kept
  # What this server keeps for the playbook's default size, asked of it directly.
  kept=$(mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval '
    const d = db.getSiblingDB("dba_lab_capped_size_probe");
    d.dropDatabase();
    d.createCollection("probe", { capped: true, size: 100000 });
    print(String(d.getCollectionInfos({ name: "probe" })[0].options.size));
    d.dropDatabase();
    void 0;')
  run jq -r '.measurements[] | select(.key == "capped.sizeBytes" or .key == "capped.requestedSizeBytes") | "\(.key) \(.value)"' "${REPORT}/results.json"
  assert_success
  assert_output "capped.sizeBytes ${kept}
capped.requestedSizeBytes 100000"
}

@test "every subscriber of every sweep point received every message, none twice" {
  run jq -r '.tables.delivery.rows[] | .values | @tsv' "${REPORT}/results.json"
  assert_success
  # mode subscribers expected received lost duplicated ...
  assert_line --regexp $'^capped\t1\t20\t20\t0\t0\t'
  assert_line --regexp $'^capped\t3\t60\t60\t0\t0\t'
  run jq -r '.verdicts[] | select(.claim == "every subscriber receives every published message") | .verdict' "${REPORT}/results.json"
  assert_success
  assert_output REPRODUCED
}

@test "publish latency in the article's columns for each point, from real inserts" {
  run jq -r '.tables["publish-latency"].rows | map(.values[2]) | join(",")' "${REPORT}/results.json"
  assert_success
  assert_output "20,20"
  run jq -r '.tables["publish-latency"].rows[0].values | .[6:13] | map(type) | unique | join(",")' "${REPORT}/results.json"
  assert_success
  assert_output number
  run grep -c '^| [^|]* | 99 percentile | [0-9.]* milliseconds |$' "${REPORT}/report.md"
  assert_success
  assert_output 2
}

@test "every claim has a verdict; the restart claim is NOT APPLICABLE with --uri, growth is measured" {
  run jq -r '.verdicts[] | "\(.verdict): \(.claim)"' "${REPORT}/results.json"
  assert_success
  assert_line "NOT APPLICABLE: capped collections are in-memory only: their documents are gone after a restart"
  assert_line --regexp '^(REPRODUCED|NOT REPRODUCED): documents in a capped collection cannot grow$'
  assert_line "NOT APPLICABLE: capped collections cannot be sharded"
  assert_line "NOT APPLICABLE: capped collections replicate (their inserts are in the oplog)"
  assert_line --regexp '^(REPRODUCED|NOT REPRODUCED|NOT APPLICABLE): more tailing cursors raise server CPU markedly'
}

@test "the checker decided every claim, in its order, for the server's version" {
  run jq -r '[.verdicts[] | "\(.id)@\(.version)"] | join(" ")' "${REPORT}/results.json"
  assert_success
  assert_output --regexp '^grow@([0-9.]+) shard@\1 replicate@\1 restart@\1 cpu@\1 delivery@\1 rate@\1$'
}

@test "the report directory holds report.md, a CSV per table and the raw results" {
  [[ -s "${REPORT}/report.md" && -s "${REPORT}/delivery.csv" && -s "${REPORT}/publish-latency.csv" && -s "${REPORT}/cpu.csv" ]]
  run jq -r '.published' "${REPORT}"/raw/*/capped-3.json
  assert_success
  assert_output 20
  # The server runs on this machine: its serverStatus pid leads to /proc.
  run jq -r '"\(.cpu.source) \(.cpu.seconds | type)"' "${REPORT}"/raw/*/capped-3.json
  assert_success
  assert_output "proc (serverStatus pid) number"
}

@test "each sweep point's finished line keeps its final count, once the ticker is gone" {
  run grep -E '^[0-9:]{8}   capped: [13] subscriber\(s\), 10 msg/s for 2 s: done in ' "${BATS_FILE_TMPDIR}/out"
  assert_success
  assert_line --regexp ': done in [0-9:]+ \(20/20 published, 20/20 delivered, 0 lost, 0 duplicated, p99 publish [0-9.]+ ms\)$'
  assert_line --regexp ': done in [0-9:]+ \(20/20 published, 60/60 delivered, 0 lost, 0 duplicated, p99 publish [0-9.]+ ms\)$'
}

@test "the run dropped the database it created" {
  run mongosh "$DBA_LAB_TEST_URI" --quiet --norc --eval 'print(db.adminCommand({listDatabases: 1, nameOnly: true}).databases.some((d) => d.name === "dbalab_capped-pubsub"))'
  assert_success
  assert_output false
}
