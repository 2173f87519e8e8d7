#!/usr/bin/env bats
# playbooks/change-stream-resume.sh: the --dry-run plan (mlaunch flags as
# mtools 1.7.2 passes them to mongod, the oplog from seedCollection's dry run,
# the knob around run D, runs A to E in order), option errors, the verdict code
# on seed 000's own printed timings, and the per-run cursor figures on its log
# lines. No mongod here: the fake one in tests/fixtures/fake-server answers
# --version only.

# shellcheck disable=SC2016,SC2034 # node and jq programs in single quotes; PB_* globals are the framework's
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/change-stream-resume.sh"
  FIX="${DBA_LAB_ROOT}/tests/fixtures/change-stream-resume"
  TIMELINE="${DBA_LAB_ROOT}/playbooks/lib/scenarios/change-stream-resume/timeline.js"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

plan() {
  "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" --port 30700 "$@" 2>/dev/null | plan_lines
}

# The verdicts timeline.js computes from the article's printed timestamps,
# one line per claim: "ID holds|NOT|NA observed".
article_verdicts() {
  node -e '
    const t = require(process.argv[1]);
    const f = require(process.argv[2]);
    const runs = {};
    for (const [name, r] of Object.entries(f.runs)) {
      const s = t.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0]));
      runs[name] = { events: s.map((seconds, i) => ({ seconds, msg: r.events[i][1] })) };
    }
    const edit = process.argv[3] ? JSON.parse(process.argv[3]) : {};
    for (const [name, events] of Object.entries(edit)) runs[name] = { events: events.map((seconds) => ({ seconds })) };
    const cursors = process.argv[4] ? JSON.parse(process.argv[4]) : {};
    for (const v of t.verdicts(runs, cursors)) {
      console.log(`${v.id} ${v.holds === true ? "holds" : v.holds === false ? "NOT" : "NA"} ${v.observed || v.reason}`);
    }' "$TIMELINE" "${FIX}/article-timings.json" "$@"
}

@test "plan: seedCollection's dry run comes first and sizes the oplog of the launch" {
  run plan
  assert_success
  assert_line --index 1 --partial "mongosh --nodb --quiet --norc --eval 'load(\"ROOT/snippets/index.js\"); print(JSON.stringify(seedCollection('\\''foo'\\'', {recipe: '\\''change-stream-resume'\\'', docs: 300, dryRun: true})))'"
  # 300 junk + 10 markers of the recipe: 1,892,736,123 oplog bytes + 10% = 1986 MB
  assert_line "\$ mlaunch init --replicaset --nodes 1 --name replset --port 30700 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --oplogSize 1986 --wiredTigerCacheSizeGB 0.25 --slowms 0"
}

@test "plan: --scale full --nodes 3 is the article's 3-node set with a 19807 MB oplog (the article resized to 20480)" {
  run plan --scale full --nodes 3
  assert_success
  assert_line "\$ mlaunch init --replicaset --nodes 3 --name replset --port 30700 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin --oplogSize 19807 --wiredTigerCacheSizeGB 1 --slowms 0"
}

@test "plan: --cache-gb overrides the scale's WiredTiger cache" {
  run plan --cache-gb 0.5
  assert_success
  assert_line --partial -- "--oplogSize 1986 --wiredTigerCacheSizeGB 0.5 --slowms 0"
}

# One line per mongosh run/knob command of the plan: its params, in order.
run_order() {
  plan "$@" | grep -E '^\$ mongosh .*(resume|set-parameter)\.js' \
    | sed -E 's/.*globalThis\.dbaLabStage = (.*); void 0.*/\1/' \
    | jq -r 'if .params.name then "knob \(.params.name) \(.params.value // .params.json)"
             else "\(.target | capture("appName=(?<a>[^&]+)").a) \(.params.run) from=\(.params.from) batchSize=\(.params.batchSize) expect=\(.params.expect)" end'
}

@test "plan: the runs in order: A, B (batchSize 1), C and D from the 200 marker, the knob set before D and restored before E" {
  run run_order
  assert_success
  assert_output - <<'EOF'
dbalab-csr-A A from=first batchSize=0 expect=10
dbalab-csr-B B from=first batchSize=1 expect=10
dbalab-csr-C C from=marker200 batchSize=1 expect=2
knob internalDocumentSourceCursorBatchSizeBytes 128
dbalab-csr-D D from=marker200 batchSize=1 expect=2
knob internalDocumentSourceCursorBatchSizeBytes <value before the run>
dbalab-csr-E E from=pbrtA batchSize=0 expect=0
EOF
}

@test "plan: --knob-bytes sets the value run D uses" {
  run run_order --knob-bytes 4096
  assert_success
  assert_line --index 3 "knob internalDocumentSourceCursorBatchSizeBytes 4096"
}

@test "plan: analyze reads the primary's log per run (appName) through playbooks/analyze cursors" {
  run plan
  assert_success
  for r in A B C D E; do
    assert_line "\$ grep -F -- '\"appName\":\"dbalab-csr-${r}\"' ${WORKDIR}/data/7.0.12/replset/rs1/mongod.log"
    assert_line --regexp "^\\\$ ROOT/playbooks/analyze cursors --json .*/csr-7\\.0\\.12-${r}\\.log\$"
  done
}

@test "plan: nothing is left on disk by a dry run" {
  run plan
  assert_success
  assert [ ! -e "${WORKDIR}/data" ]
  assert [ ! -e "${WORKDIR}/report" ]
}

@test "options: --knob-bytes 0 is refused with one line, exit 2" {
  run "$PLAYBOOK" --dry-run --knob-bytes 0
  assert_failure 2
  assert_output "change-stream-resume: --knob-bytes must be between 1 and 16777216, got 0 (see --help)"
}

@test "options: a WiredTiger cache below mongod's 0.25 GB is refused" {
  run "$PLAYBOOK" --dry-run --cache-gb 0.1
  assert_failure 2
  assert_output "change-stream-resume: --cache-gb must be at least 0.25 (mongod's smallest WiredTiger cache), got 0.1 (see --help)"
}

@test "options: --uri is refused with the reason" {
  run "$PLAYBOOK" --uri mongodb://localhost:27017/
  assert_failure 2
  assert_output --partial "--uri is not supported by this playbook: run D changes a server-wide query knob"
}

@test "options: unknown scale, bad node count, stray argument" {
  run "$PLAYBOOK" --scale huge
  assert_failure 2
  assert_output "change-stream-resume: --scale must be one of tiny, small, medium, full, got 'huge' (see --help)"
  run "$PLAYBOOK" --nodes two
  assert_failure 2
  assert_output "change-stream-resume: --nodes expects a whole number, got 'two' (see --help)"
  run "$PLAYBOOK" resume
  assert_failure 2
  assert_output --partial "unexpected argument 'resume'"
}

@test "--help names the runs, the scales and the lab guide" {
  run "$PLAYBOOK" --help
  assert_success
  assert_output --partial "E  resumeAfter the postBatchResumeToken saved at the end of A"
  assert_output --partial "--knob-bytes N"
  assert_output --partial "full     the article's sizes"
  assert_output --partial "Lab guide: playbooks/change-stream-resume.md"
}

@test "verdicts on the article's printed timings: A burst, B 10.6x, C together, D 231x; E not applicable" {
  run article_verdicts
  assert_success
  assert_output - <<'EOF'
A holds 10 events between 12.874 s and 12.877 s (spread 3 ms, 0.0% of the wait)
B holds B 1.209 s vs A 12.874 s: 10.6x
C holds 2 events between 6.697 s and 6.704 s (spread 7 ms, 0.1% of the wait)
D holds D 29 ms vs C 6.697 s: 231x
E NA no server figures for A and E (its slow-query log lines are missing)
EOF
}

@test "verdicts: B's events are not a burst (spread 11.4 s of a 12.6 s wait)" {
  run node -e '
    const t = require(process.argv[1]);
    const r = require(process.argv[2]).runs.B;
    const s = t.spread({ events: t.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0])).map((seconds) => ({ seconds })) });
    console.log(s.count, s.first, s.last, s.together);' "$TIMELINE" "${FIX}/article-timings.json"
  assert_success
  assert_output "10 1.209 12.591 false"
}

@test "verdicts: C whose second event came 3 s after the first is not together; D no faster than C is not reproduced" {
  run article_verdicts '{"C": [6.697, 9.7], "D": [6.1, 9.0]}'
  assert_success
  assert_line --index 2 "C NOT 2 events between 6.697 s and 9.700 s (spread 3.003 s, 31.0% of the wait)"
  assert_line --index 3 "D NOT D 6.100 s vs C 6.697 s: 1.1x"
}

@test "verdicts: a run without events makes its claims not applicable, never a pass" {
  run article_verdicts '{"B": []}'
  assert_success
  assert_line --index 1 "B NA run B has no event measured"
}

@test "verdicts: E is decided from docsExamined, either way" {
  run article_verdicts '{}' '{"A": {"docsExamined": 3039, "bytesRead": 19528768718}, "E": {"docsExamined": 1, "bytesRead": 0}}'
  assert_success
  assert_line --index 4 "E holds E 1 docs examined, 0.0 MiB read vs A 3039, 18624.1 MiB read"
  run article_verdicts '{}' '{"A": {"docsExamined": 3039}, "E": {"docsExamined": 3039}}'
  assert_line --index 4 "E NOT E 3039 docs examined vs A 3039"
}

@test "analyze: the article's run A line (quotes repaired) is one aggregate: 3039 docs examined, 19.5 GB read" {
  run "${DBA_LAB_ROOT}/playbooks/analyze" cursors --json "${FIX}/article-run-a.repaired.json.log"
  assert_success
  assert_output '{"record":"cursor","cursorId":"8835322801609070020","ns":"test.foo","originatingCommand":"aggregate","changeStream":true,"commands":1,"getMores":0,"nreturned":10,"docsExamined":3039,"keysExamined":0,"bytesRead":19528768718,"durationMillis":12356,"firstTime":"2022-03-02T06:38:47.825-05:00","lastTime":"2022-03-02T06:38:47.825-05:00","format":"json"}'
}

@test "analyze: per-run figures from one log, told apart by appName (the article's A and B lines)" {
  # shellcheck source=playbooks/change-stream-resume.sh
  source "$PLAYBOOK"
  pb::log_init
  PB_WORK="${BATS_TEST_TMPDIR}/pbwork"
  mkdir -p "$PB_WORK"
  PB_LOG="${PB_WORK}/run.log"
  PB_DRY_RUN=0
  PB_VERSION=5.2.0
  for r in A B C; do csr::cursor_figures "$r" "${FIX}/runs-by-appname.derived.json.log"; done
  run cat "$(csr::cursors_file)"
  assert_success
  assert_output - <<'EOF'
{"run":"A","cursors":1,"cursorIds":["8835322801609070020"],"commands":1,"getMores":0,"nreturned":10,"docsExamined":3039,"bytesRead":19528768718,"durationMillis":12356}
{"run":"B","cursors":1,"cursorIds":["8620417026431980160"],"commands":10,"getMores":9,"nreturned":10,"docsExamined":3037,"bytesRead":19497309628,"durationMillis":12030}
{"run":"C","missing":true}
EOF
}

@test "verdicts.js in mongosh --nodb: the article's runs and log lines give its verdicts, version note included" {
  load_framework
  # shellcheck source=playbooks/change-stream-resume.sh
  source "$PLAYBOOK"
  PB_VERSION=5.2.0
  node -e '
    const t = require(process.argv[1]);
    const f = require(process.argv[2]);
    const runs = {};
    for (const [name, r] of Object.entries(f.runs)) {
      runs[name] = { events: t.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0])).map((seconds, i) => ({ seconds, msg: r.events[i][1] })) };
    }
    require("fs").writeFileSync(process.argv[3], JSON.stringify({ tokens: {}, runs }));' \
    "$TIMELINE" "${FIX}/article-timings.json" "$(csr::state_file)"
  for r in A B C D E; do csr::cursor_figures "$r" "${FIX}/runs-by-appname.derived.json.log"; done
  pb::mongosh_stage --nodb "${CSR_JS}/verdicts.js" "stateFile=$(csr::state_file)" "cursorsFile=$(csr::cursors_file)"
  run jq -r 'select(.type == "verdict") | "\(.verdict) | \(.version) | \(.observed)\(.reason)"' "$PB_RECORDS"
  assert_success
  assert_output - <<'EOF'
REPRODUCED | 5.2.0 | 10 events between 12.874 s and 12.877 s (spread 3 ms, 0.0% of the wait)
REPRODUCED | 5.2.0 | B 1.209 s vs A 12.874 s: 10.6x
REPRODUCED | 5.2.0 | 2 events between 6.697 s and 6.704 s (spread 7 ms, 0.1% of the wait)
REPRODUCED | 5.2.0 | D 29 ms vs C 6.697 s: 231x
NOT APPLICABLE | 5.2.0 | no server figures for E (its slow-query log lines are missing)
EOF
  run jq -r 'select(.type == "note") | .text' "$PB_RECORDS"
  assert_output --partial "MongoDB 5.2.0 (5.1 or newer) rewrites the stream's \$match on fullDocument into the oplog scan"
}

# --- what the report explains per version (timeline.notes) ----------------------

notes_of() {
  node -e 'for (const n of require(process.argv[1]).notes(process.argv[2])) console.log(n)' "$TIMELINE" "$1"
}

@test "notes: the knob of run D shapes only the opening aggregate's first batch, on every version" {
  local v
  for v in 4.4.29 8.0.4; do
    run notes_of "$v"
    assert_success
    assert_line "internalDocumentSourceCursorBatchSizeBytes shapes only the opening aggregate's first batch: every awaitData getMore already ends its internal batch after each document (document_source_cursor.cpp, with shouldWaitForInserts set by getmore_cmd.cpp). D differs from C in that first batch only."
  done
}

@test "notes: run E's first answer is said to include one awaitData getMore of about a second" {
  run notes_of 8.0.4
  assert_success
  assert_line --partial "E's first answer includes one awaitData getMore"
  assert_line --partial "holds it up to 1 s (no maxAwaitTimeMS)"
}

@test "notes: the \$match pushdown is said from 5.1 on, and not before" {
  run notes_of 5.0.30
  assert_success
  assert_line --partial "MongoDB 5.0.30 (before 5.1) applies the stream's \$match after the \$cursor stage"
  run notes_of 5.1.0
  assert_success
  assert_line --partial "MongoDB 5.1.0 (5.1 or newer) rewrites the stream's \$match"
}

@test "the D claim names what the knob bounds" {
  run node -e 'const t = require(process.argv[1]); console.log(t.verdicts({}, {}).find((v) => v.id === "D").claim)' "$TIMELINE"
  assert_success
  assert_output "D (C with internalDocumentSourceCursorBatchSizeBytes 128, which bounds the opening aggregate's first batch): the first event arrives at least 5x sooner than in C"
}
