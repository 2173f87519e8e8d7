#!/usr/bin/env bats
# Every playbook at --scale tiny on the real binaries that
# tests/servers/mongod.sh found: each runs to its report, every stage ran,
# no table is empty, and its verdicts come from measurements (REPRODUCED and
# NOT REPRODUCED with what was observed, NOT APPLICABLE with why). The reports
# stay in DBA_LAB_TEST_REPORTS when set (the workflow uploads them).

bats_require_minimum_version 1.5.0

setup_file() {
  load ../../bats/test_helper
  BIN=$("${DBA_LAB_ROOT}/tests/servers/mongod.sh" bin)
  REPORTS="${DBA_LAB_TEST_REPORTS:-${BATS_FILE_TMPDIR}/reports}"
  mkdir -p "$REPORTS"
  export BIN REPORTS
}

setup() {
  load ../../bats/test_helper
}

# A first port with the next 16 free, below the ephemeral ports (32768 and up
# on Linux), which any client connection may hold at any moment.
free_base() {
  python3 -c '
import random, socket
for _ in range(50):
    base = random.randrange(20000, 32000)
    try:
        socks = []
        for p in range(base, base + 16):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()'
}

# tiny PLAYBOOK: runs it, leaves RESULTS (its results.json) for the checks.
tiny() {
  local name="$1"
  shift
  RESULTS="${REPORTS}/${name}/results.json"
  run "${DBA_LAB_ROOT}/playbooks/${name}.sh" --scale tiny --yes --binarypath "$BIN" \
    --port "$(free_base)" --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${REPORTS}/${name}" "$@"
  assert_success
}

assert_complete_report() {
  local stage
  [ -f "$RESULTS" ] || fail "no results.json"
  assert_equal "$(jq -r .status "$RESULTS")" "done"
  assert_equal "$(jq -r '.failure // "none"' "$RESULTS")" "none"
  assert_equal "$(jq -r .environment.scale.name "$RESULTS")" tiny
  for stage in preflight launch prepare run analyze report; do
    jq -e --arg s "$stage" '[.stages[].name] | index($s) != null' "$RESULTS" >/dev/null || fail "stage ${stage} did not run"
  done
  jq -e '.measurements | length > 0' "$RESULTS" >/dev/null || fail "no measurement"
  run jq -r '.tables | to_entries[] | select((.value.rows | length) == 0) | .key' "$RESULTS"
  assert_success
  assert_output ''
  jq -e '.verdicts | length > 0' "$RESULTS" >/dev/null || fail "no verdict"
  run jq -r '.verdicts[] | select(.verdict != "REPRODUCED" and .verdict != "NOT REPRODUCED" and .verdict != "NOT APPLICABLE") | .claim' "$RESULTS"
  assert_success
  assert_output ''
  run jq -r '.verdicts[] | select(.verdict != "NOT APPLICABLE" and (.observed // "") == "") | .claim' "$RESULTS"
  assert_success
  assert_output ''
  run jq -r '.verdicts[] | select(.verdict == "NOT APPLICABLE" and (.reason // "") == "") | .claim' "$RESULTS"
  assert_success
  assert_output ''
  jq -e '[.verdicts[] | select(.verdict != "NOT APPLICABLE")] | length > 0' "$RESULTS" >/dev/null \
    || fail "every verdict is NOT APPLICABLE: nothing was decided from a measurement"
  # The lane runs the series the predictions tables cover: every judged claim
  # is compared with its table's prediction, none is left without one.
  run jq -r '.verdicts[] | select(.verdict != "NOT APPLICABLE" and (.prediction != "AS PREDICTED" and .prediction != "NOT AS PREDICTED"))
    | "\(.claim) [\(.version)]: \(.prediction // "no prediction recorded") \(.predictionBasis.none // "")"' "$RESULTS"
  assert_success
  assert_output ''
  [ -s "$(dirname "$RESULTS")/report.md" ] || fail "no report.md"
}

# assert_as_predicted ID...: the claims whose outcome does not depend on the
# machine's speed (an error code, a log format, a count) went as the
# predictions table says for this release; a NOT AS PREDICTED there is a
# wrong table row or a changed server, never noise.
assert_as_predicted() {
  local id
  for id in "$@"; do
    run jq -r --arg id "$id" '.verdicts[] | select(.id == $id and .verdict != "NOT APPLICABLE" and .prediction != "AS PREDICTED")
      | "\(.claim) [\(.version)]: \(.verdict), \(.prediction); predicted: \(.predictionBasis.reason // .predictionBasis.none)"' "$RESULTS"
    assert_success
    assert_output ''
  done
}

@test "array-push-oplog --scale tiny: a complete report from real oplog entries" {
  tiny array-push-oplog
  assert_success
  assert_complete_report
  jq -e '[.measurements[] | select(.key | startswith("kind."))] | length >= 9' "$RESULTS" >/dev/null || fail "curves not classified"
  jq -e '[.verdicts[] | select(.claim | test("plain \\$push"))][0].verdict != "NOT APPLICABLE"' "$RESULTS" >/dev/null || fail "the plain \$push claim was not decided"
  assert_as_predicted push push-slice
}

@test "capped-pubsub --scale tiny: a complete report with both fan-outs and the restart" {
  tiny capped-pubsub
  assert_success
  assert_complete_report
  jq -e '[.tables.cpu.rows[]] | length == 4' "$RESULTS" >/dev/null || fail "not 2 points x 2 modes"
  jq -e '[.verdicts[] | select(.claim | test("after a restart"))][0].verdict != "NOT APPLICABLE"' "$RESULTS" >/dev/null || fail "the restart claim was not decided"
  assert_as_predicted grow replicate restart
}

@test "change-stream-resume --scale tiny: a complete report, all five runs measured" {
  tiny change-stream-resume
  assert_success
  assert_complete_report
  local run
  for run in A B C D; do
    jq -e --arg k "run${run}.events" '[.measurements[] | select(.key == $k)][0].value > 0' "$RESULTS" >/dev/null || fail "run ${run} had no event"
  done
  jq -e '[.tables.server.rows[]] | length == 5' "$RESULTS" >/dev/null || fail "not every run's server figures"
}

@test "mongodump-raw-bson --scale tiny: a complete report, every method timed" {
  tiny mongodump-raw-bson
  assert_success
  assert_complete_report
  run jq -r '.tables.timing.rows[] | .values | select(.[16] != "ok") | "\(.[3]): \(.[16])"' "$RESULTS"
  assert_success
  assert_output ''
}

@test "routing-refresh --scale tiny: a complete report with refreshes logged at each count" {
  tiny routing-refresh
  assert_success
  assert_complete_report
  jq -e '[.tables.creation.rows[]] | length == 3' "$RESULTS" >/dev/null || fail "not three chunk counts"
}
