#!/usr/bin/env bats
# playbooks/change-stream-resume.sh: the --dry-run plan (mlaunch flags as
# mtools 1.7.2 passes them to mongod, the oplog from seedCollection's dry run,
# the knob around run D, runs A to E in order), option errors, the per-run
# cursor figures on the article's log lines, and measure.js plus the checker on
# them (the checker's and model's own tests: tests/unit/change-stream-resume-*).
# No mongod here: the fake one in tests/fixtures/fake-server answers --version only.

# shellcheck disable=SC2016,SC2034 # node and jq programs in single quotes; PB_* globals are the framework's
bats_require_minimum_version 1.5.0

# The plan with no option, made once (a dry run is two seconds of CPU, most
# of it seedCollection's dry run in mongosh): six tests read it.
setup_file() {
  load test_helper
  load playbook_helper
  local work="${BATS_FILE_TMPDIR}/work" rc=0
  mkdir -p "$work"
  (cd "$work" && "${DBA_LAB_ROOT}/playbooks/change-stream-resume.sh" --dry-run --binarypath "$FAKE_BIN" \
    --dir "${work}/data" --report-dir "${work}/report" --port 30700 >"${BATS_FILE_TMPDIR}/plan.out" 2>"${BATS_FILE_TMPDIR}/plan.err") || rc=$?
  printf '%s\n' "$rc" >"${BATS_FILE_TMPDIR}/plan.rc"
}

setup() {
  load test_helper
  load playbook_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/change-stream-resume.sh"
  FIX="${DBA_LAB_ROOT}/tests/fixtures/change-stream-resume"
  MODEL="${DBA_LAB_ROOT}/playbooks/lib/scenarios/change-stream-resume/model.js"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

# setup_file's plan exited 0.
assert_default_plan_succeeded() {
  run cat "${BATS_FILE_TMPDIR}/plan.rc"
  assert_success
  assert_output 0
}

# plan [OPTION...]: the plan's command lines. Without options, setup_file's
# plan, its folders named as if it had run in this test's WORKDIR.
plan() {
  if (($# == 0)); then
    [[ "$(cat "${BATS_FILE_TMPDIR}/plan.rc")" == 0 ]] || return 1
    plan_lines <"${BATS_FILE_TMPDIR}/plan.out" | sed "s#${BATS_FILE_TMPDIR}/work#${WORKDIR}#g"
    return 0
  fi
  "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" --port 30700 "$@" 2>/dev/null | plan_lines
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
  plan "$@" | grep -E '^\$ mongosh .*(change-stream-resume/run|set-parameter)\.js' \
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
  assert_default_plan_succeeded
  assert [ ! -e "${BATS_FILE_TMPDIR}/work/data" ]
  assert [ ! -e "${BATS_FILE_TMPDIR}/work/report" ]
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

@test "analyze: the article's run A line (quotes repaired) is one aggregate: 3039 docs examined, 19.5 GB read" {
  run "${DBA_LAB_ROOT}/playbooks/analyze" cursors --json "${FIX}/article-run-a.repaired.json.log"
  assert_success
  assert_output '{"record":"cursor","cursorId":"8835322801609070020","ns":"test.foo","originatingCommand":"aggregate","changeStream":true,"commands":1,"getMores":0,"nreturned":10,"docsExamined":3039,"keysExamined":0,"bytesRead":19528768718,"durationMillis":12356,"firstTime":"2022-03-02T06:38:47.825-05:00","lastTime":"2022-03-02T06:38:47.825-05:00","format":"json"}'
}

@test "analyze: per-run cursor records from one log, told apart by appName (the article's A and B lines)" {
  # shellcheck source=playbooks/change-stream-resume.sh
  source "$PLAYBOOK"
  pb::log_init
  PB_WORK="${BATS_TEST_TMPDIR}/pbwork"
  mkdir -p "$PB_WORK"
  PB_LOG="${PB_WORK}/run.log"
  PB_DRY_RUN=0
  PB_VERSION=5.2.0
  for r in A B C; do scenario::cursor_figures "$r" "${FIX}/runs-by-appname.derived.json.log"; done
  run jq -sc 'map(select(.record == "cursor") | [.cursorId, .commands, .docsExamined])' "$(scenario::cursors_prefix)A.jsonl"
  assert_success
  assert_output '[["8835322801609070020",1,3039]]'
  run jq -sc 'map(select(.record == "cursor") | [.cursorId, .commands, .docsExamined])' "$(scenario::cursors_prefix)B.jsonl"
  assert_success
  assert_output '[["8620417026431980160",10,3037]]'
  run jq -sc 'map(select(.record == "cursor"))' "$(scenario::cursors_prefix)C.jsonl"
  assert_success
  assert_output '[]'
}

@test "measure.js in mongosh --nodb and the checker: the article's runs and log lines give its verdicts, version note included" {
  load_framework
  # shellcheck source=playbooks/change-stream-resume.sh
  source "$PLAYBOOK"
  pb::scenario_init
  PB_VERSION=5.2.0
  pb::record_version 5.2 5.2.0 /bin 5.2.0
  pb::table timeline "Event arrival" series run event msg seconds gapSeconds
  pb::table server "Server figures" run cursors commands getMores nreturned docsExamined bytesRead durationMillis
  node -e '
    const m = require(process.argv[1]);
    const f = require(process.argv[2]);
    for (const [name, r] of Object.entries(f.runs)) {
      const events = m.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0])).map((seconds, i) => ({ seconds, msg: r.events[i][1] }));
      for (const row of m.timelineRows(name, { events })) {
        console.log(JSON.stringify({ type: "row", table: "timeline", version: "5.2.0", row: { series: `5.2.0 ${name}`, ...row } }));
      }
    }' "$MODEL" "${FIX}/article-timings.json" >>"$PB_RECORDS"
  for r in A B C D E; do scenario::cursor_figures "$r" "${FIX}/runs-by-appname.derived.json.log"; done
  pb::mongosh_stage --nodb "${PB_SCENARIO}/measure.js" "stateFile=$(scenario::state_file)" \
    "cursorsPrefix=$(scenario::cursors_prefix)" runs=A,B,C,D,E
  run jq -rc 'select(.type == "row" and .table == "server") | .values' "$PB_RECORDS"
  assert_success
  assert_output $'["A",1,1,0,10,3039,19528768718,12356]\n["B",1,10,9,10,3037,19497309628,12030]'
  pb::check
  run jq -r 'select(.type == "verdict") | "\(.id) \(.verdict) | \(.version) | \(.observed)\(if .reason != "" then " | " + .reason else "" end)"' "$PB_RECORDS"
  assert_success
  assert_output - <<'EOF'
A REPRODUCED | 5.2.0 | 10 events between 12.874 s and 12.877 s (spread 3 ms, 0.0% of the wait)
B REPRODUCED | 5.2.0 | B 1.209 s vs A 12.874 s: 10.6x
C REPRODUCED | 5.2.0 | 2 events between 6.697 s and 6.704 s (spread 7 ms, 0.1% of the wait)
D REPRODUCED | 5.2.0 | D 29 ms vs C 6.697 s: 231x
E NOT APPLICABLE | 5.2.0 | not measured | no server figures for E (its slow-query log lines are missing)
EOF
  run jq -r 'select(.type == "note") | .text' "$PB_RECORDS"
  assert_success
  assert_output --partial "MongoDB 5.2.0: no prediction for 5.2 (the table covers 4.4, 5.0, 6.0, 7.0, 8.0); C and D depend on whether this release rewrites the stream's \$match into the oplog scan (5.1 and later do)"
  assert_output --partial "Run C (5.2.0) left no change stream cursor line in the mongod log"
}

@test "plan: measure.js runs once per version after each run's log lines went through analyze" {
  run plan
  assert_success
  assert_line --regexp '"params":\{"stateFile":"[^"]*/csr-7\.0\.12\.json","cursorsPrefix":"[^"]*/csr-7\.0\.12-cursors-","runs":"A,B,C,D,E"\}\}; void 0'"' ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/scenarios/change-stream-resume/measure.js\$"
}

@test "plan: the report lists the checker's five claims as to be checked" {
  assert_default_plan_succeeded
  run cat "${BATS_FILE_TMPDIR}/plan.out" "${BATS_FILE_TMPDIR}/plan.err"
  assert_success
  assert_line --partial 'to be checked: A (default batch size): the events arrive in one burst at the end'
  assert_line --partial 'to be checked: E (resumed from the postBatchResumeToken saved at the end of A) scans less than A'
}

@test "the scale's junk count reaches seedCollection's dry run and the seeding" {
  run plan --scale medium
  assert_success
  assert_line --partial "docs: 1000, dryRun: true"
  assert_line --regexp '"params":\{"coll":"foo","junk":1000,'
}
