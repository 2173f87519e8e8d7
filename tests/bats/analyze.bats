#!/usr/bin/env bats
# playbooks/analyze on the articles' own log lines (tests/fixtures/logs/README.md
# says where each line comes from). Expected figures were added up by hand
# from the articles' lines, not taken from the tool's output.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  FIX="${DBA_LAB_ROOT}/tests/fixtures/logs"
  CURSOR=8620417026431980160
}

analyze() {
  "${DBA_LAB_ROOT}/playbooks/analyze" "$@"
}

# The --json record of one cursor id, as compact JSON (stderr stays apart:
# run it with --separate-stderr).
cursor_record() {
  local id="$1"
  shift
  analyze cursors --json "$@" | jq -c --arg id "$id" 'select(.cursorId == $id)'
}

# --- usage -----------------------------------------------------------------

@test "--help teaches the three reports, the formats and the exit codes" {
  run analyze --help
  assert_success
  assert_output --partial "Usage: playbooks/analyze cursors|refresh|queries [--json | --top N | --all] LOGFILE..."
  assert_output --partial "cursors"
  assert_output --partial "refresh"
  assert_output --partial "queries"
  assert_output --partial "2.2 to 4.2"
  assert_output --partial "gzip"
  assert_output --partial "Exit status"
  assert_output --partial "an empty file is such a log"
  assert_output --partial "A file that is not a MongoDB log stops the run before any output (exit 1)"
}

@test "no arguments is a usage error (exit 2, one clear line)" {
  run --separate-stderr analyze
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: no report given (expected: cursors or refresh or queries)"
}

@test "an unknown report is a usage error naming it" {
  run --separate-stderr analyze slowops "${FIX}/refresh-4.2-mongos.log"
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: unknown report 'slowops' (expected: cursors or refresh or queries)"
}

@test "an unknown option is a usage error" {
  run --separate-stderr analyze refresh --csv "${FIX}/refresh-4.2-mongos.log"
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: unknown option --csv"
}

@test "a report without LOGFILE is a usage error that mentions stdin" {
  run --separate-stderr analyze refresh
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: no LOGFILE given (use - to read stdin)"
}

@test "a missing file is a usage error, checked before any output" {
  run --separate-stderr analyze refresh "${FIX}/refresh-4.2-mongos.log" "${BATS_TEST_TMPDIR}/nope.log"
  assert_failure 2
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "analyze: ${BATS_TEST_TMPDIR}/nope.log: no such file"
}

@test "a directory is refused as a log file" {
  run --separate-stderr analyze cursors "${FIX}"
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: ${FIX}: is a directory, not a log file"
}

# --- cursors, JSON logs (change-stream-resume article, MongoDB 5.2) ------------------------------

@test "cursors: the article's change stream cursor adds up its 10 slow query lines" {
  run --separate-stderr cursor_record "$CURSOR" "${FIX}/changestream-5.2.json.log"
  assert_success
  run jq -r '[.ns, .originatingCommand, .changeStream, .commands, .getMores, .nreturned,
              .docsExamined, .keysExamined, .bytesRead, .durationMillis, .format] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'test.foo\taggregate\ttrue\t10\t9\t10\t3037\t0\t19497309628\t12030\tjson')"
}

@test "cursors: first and last time are the aggregate's and the last getMore's" {
  run --separate-stderr cursor_record "$CURSOR" "${FIX}/changestream-5.2.json.log"
  assert_success
  run jq -r '.firstTime + " " + .lastTime' <<<"$output"
  assert_success
  assert_output "2022-03-02T06:47:26.367-05:00 2022-03-02T06:47:37.751-05:00"
}

@test "cursors: the article's line with typographic quotes is counted as unparsable, not fatal" {
  run --separate-stderr analyze cursors "${FIX}/changestream-5.2.json.log"
  assert_success
  assert_equal "${stderr_lines[0]}" "analyze: skipped 1 unparsable line(s) out of 11 that matched the cursors filter"
  assert_regex "${stderr_lines[1]}" "changestream-5\.2\.json\.log:1: not valid JSON"
  refute_output --partial "Traceback"
  refute_output --partial "8835322801609070020"
}

@test "cursors: --json prints cursor ids as strings, exact to the last digit" {
  run --separate-stderr cursor_record "$CURSOR" "${FIX}/changestream-5.2.json.log"
  assert_success
  run jq -r '(.cursorId | type) + " " + .cursorId' <<<"$output"
  assert_success
  assert_output "string 8620417026431980160"
}

@test "cursors: ids that differ only in the last digit (one IEEE double) stay three cursors" {
  run analyze cursors --json "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  run jq -r '.cursorId' <<<"$output"
  assert_success
  assert_output "$(printf '%s\n' 8620417026431980159 8620417026431980160 8620417026431980161)"
}

@test "cursors: the table shows the same three ids in full" {
  run analyze cursors "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  assert_equal "${#lines[@]}" 8
  assert_equal "${lines[3]}" "Cursors (3)"
  assert_regex "${lines[5]}" "^8620417026431980159 "
  assert_regex "${lines[6]}" "^8620417026431980160 "
  assert_regex "${lines[7]}" "^8620417026431980161 "
}

@test "cursors: the table is aligned and sorted by total duration, slowest first" {
  run analyze cursors "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  assert_equal "${#lines[@]}" 8
  assert_regex "${lines[5]}" "^          CURSOR ID  NS  "
  assert_regex "${lines[6]}" "^8620417026431980160  test.foo  aggregate/\\\$changeStream "
  assert_regex "${lines[7]}" "^8620417026431980161  test.bar  find "
  # Every row puts the MILLIS column's last digit under the header's S.
  local edge
  edge=$(($(awk '{ print index($0, "MILLIS") }' <<<"${lines[5]}") + 5))
  assert_equal "${lines[6]:$((edge - 4)):4}" "3181"
  assert_equal "${lines[7]:$((edge - 3)):3}" "250"
}

# --- cursors, legacy text logs ----------------------------------------------

@test "cursors: text lines give the same aggregates as the JSON lines they mirror" {
  run --separate-stderr cursor_record "$CURSOR" "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  run jq -r '[.originatingCommand, .changeStream, .commands, .getMores, .nreturned, .docsExamined,
              .bytesRead, .durationMillis, .format, .firstTime] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'aggregate\ttrue\t3\t2\t3\t810\t5188662982\t3181\ttext\t2022-03-02T06:47:26.367-0500')"
}

@test "cursors: a filter on a field named cursorid does not fool the text parser" {
  run --separate-stderr cursor_record 8620417026431980161 "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  run jq -r '[.ns, .originatingCommand, .commands, .getMores, .nreturned, .docsExamined, .bytesRead,
              .durationMillis] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'test.bar\tfind\t2\t1\t40\t100\t65536\t250')"
}

@test "cursors: JSON and text logs in one run are aggregated together" {
  run --separate-stderr cursor_record "$CURSOR" "${FIX}/changestream-5.2.json.log" "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  run jq -r '[.commands, .durationMillis, .format] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '13\t15211\tjson+text')"
}

# --- input: gzip by content, stdin ------------------------------------------

@test "gzip input is recognised by its magic bytes, whatever its name" {
  gzip -c "${FIX}/changestream-5.2.json.log" >"${BATS_TEST_TMPDIR}/not-compressed.log"
  run --separate-stderr cursor_record "$CURSOR" "${BATS_TEST_TMPDIR}/not-compressed.log"
  assert_success
  run jq -r '[.commands, .bytesRead] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '10\t19497309628')"
}

@test "a file named .gz that is plain text is read as plain text" {
  cp "${FIX}/refresh-4.2-mongos.log" "${BATS_TEST_TMPDIR}/plain.log.gz"
  run analyze refresh --json "${BATS_TEST_TMPDIR}/plain.log.gz"
  assert_success
  assert_equal "$(grep -c '"record":"refresh"' <<<"$output")" 9
}

@test "multi-member gzip (rotated files concatenated) is read to the end" {
  gzip -c "${FIX}/refresh-4.2-mongos.log" >"${BATS_TEST_TMPDIR}/both.gz"
  gzip -c "${FIX}/refresh-4.2-mongod.log" >>"${BATS_TEST_TMPDIR}/both.gz"
  run analyze refresh --json "${BATS_TEST_TMPDIR}/both.gz"
  assert_success
  assert_equal "$(grep -c '"record":"refresh"' <<<"$output")" 19
}

@test "a truncated gzip file is reported, analysed as far as it goes, and exits 1" {
  gzip -c "${FIX}/changestream-5.2.json.log" >"${BATS_TEST_TMPDIR}/full.gz"
  head -c "$(($(wc -c <"${BATS_TEST_TMPDIR}/full.gz") / 2))" "${BATS_TEST_TMPDIR}/full.gz" >"${BATS_TEST_TMPDIR}/cut.gz"
  run --separate-stderr analyze cursors --json "${BATS_TEST_TMPDIR}/cut.gz"
  assert_failure 1
  assert_regex "$stderr" "cut\.gz: gzip data ends early"
  refute_regex "$stderr" "Traceback"
  # The line cut in the middle is one of the skipped ones.
  assert_regex "$stderr" "cut\.gz \(byte [0-9]+ after decompression\): not valid JSON \("
}

@test "- reads stdin, plain or gzip" {
  run bash -c "'${DBA_LAB_ROOT}/playbooks/analyze' refresh --json - <'${FIX}/refresh-4.2-mongod.log'"
  assert_success
  assert_equal "$(grep -c '"record":"refresh"' <<<"$output")" 10
  run bash -c "gzip -c '${FIX}/refresh-4.2-mongod.log' | '${DBA_LAB_ROOT}/playbooks/analyze' refresh --json -"
  assert_success
  assert_equal "$(grep -c '"record":"refresh"' <<<"$output")" 10
}

@test "the Go engine reads a JSON log gzipped and through a pipe itself, to the Python engine's bytes" {
  [[ -x "${DBA_LAB_ROOT}/.tools/bin/analyze-go" ]] || skip "the Go engine is not built (no Go at setup)"
  gzip -c "${FIX}/changestream-5.2.json.log" >"${BATS_TEST_TMPDIR}/rotated"
  local reference
  reference="$(DBA_LAB_ANALYZE_ENGINE=python analyze cursors --json "${FIX}/changestream-5.2.json.log" 2>/dev/null)"
  # DBA_LAB_ANALYZE_ENGINE=go exits 3 where it would hand the run over.
  DBA_LAB_ANALYZE_ENGINE=go run --separate-stderr analyze cursors --json "${BATS_TEST_TMPDIR}/rotated"
  assert_success
  assert_output "$reference"
  DBA_LAB_ANALYZE_ENGINE=go run --separate-stderr bash -c \
    "cat -- \"\$1\" | \"\$2\" cursors --json -" sh "${FIX}/changestream-5.2.json.log" "${DBA_LAB_ROOT}/playbooks/analyze"
  assert_success
  assert_output "$reference"
}

@test "a text log through a pipe is read whole" {
  run bash -c "cat -- \"\$1\" | \"\$2\" refresh --json -" sh "${FIX}/refresh-4.2-mongod.log" \
    "${DBA_LAB_ROOT}/playbooks/analyze"
  assert_success
  assert_equal "$(grep -c '"record":"refresh"' <<<"$output")" 10
}

@test "binary garbage inside a log is skipped and counted, never a stack trace" {
  head -n 1 "${FIX}/cursors-4.2.derived.text.log" >"${BATS_TEST_TMPDIR}/garbage.log"
  printf '\x00\xff\xfeRefresh for collection \xc3\x28 took\n{"id":4619901,"msg":"Refreshed cached collection",\x00}\n' \
    >>"${BATS_TEST_TMPDIR}/garbage.log"
  run --separate-stderr analyze refresh "${BATS_TEST_TMPDIR}/garbage.log"
  assert_success
  assert_equal "$output" ""
  assert_equal "${stderr_lines[2]}" "analyze: skipped 2 unparsable line(s) out of 2 that matched the refresh filter"
  refute_regex "$stderr" "Traceback"
}

@test "a log without any matching line says so on stderr, with what it holds, and prints nothing" {
  run --separate-stderr analyze cursors "${FIX}/refresh-4.2-mongos.log"
  assert_success
  assert_equal "$output" ""
  # Ten lines: nine refreshes and the blog's stray "264 tool 774 ms".
  assert_equal "$stderr" "analyze: no cursor lines found in 1 file(s)
  ${FIX}/refresh-4.2-mongos.log: 10 line(s); components SH_REFR 9; first 2022-10-05T04:06:33.340+0800, last 2022-10-05T04:18:50.000+0800"
}

# --- refresh, legacy text logs (routing-refresh article, 4.0 and 4.2) ---------------

@test "refresh: the 4.2 mongos lines give 9 refreshes, min 73, median 740, max 779 ms" {
  run analyze refresh --json "${FIX}/refresh-4.2-mongos.log"
  assert_success
  run jq -r 'select(.record == "namespace") | [.namespace, .refreshes, .failed, .minMillis,
             .medianMillis, .maxMillis, .firstVersion, .lastVersion, .format] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'wukong.actions\t9\t0\t73\t740\t779\t102904|1||626ba80f5fa7cb632d7bf264\t102910|7||626ba80f5fa7cb632d7bf264\ttext')"
}

@test "refresh: the blog's stray '264 tool 774 ms' line is not a refresh and not an error" {
  run --separate-stderr analyze refresh "${FIX}/refresh-4.2-mongos.log"
  assert_success
  assert_equal "$stderr" ""
}

@test "refresh: one text event carries time, versions, kind, duration and where it was read" {
  local second_line_at
  second_line_at=$(head -n 1 "${FIX}/refresh-4.2-mongod.log" | wc -c)
  run analyze refresh --json "${FIX}/refresh-4.2-mongod.log"
  assert_success
  run jq -c 'select(.record == "refresh" and .durationMillis == 1200)
             | [.time, .namespace, .fromVersion, .toVersion, .kind, .status, .logId, .format, .offset]' <<<"$output"
  assert_success
  assert_output '["2022-10-06T10:57:42.071+0800","wukong.actions","103200|593||626ba80f5fa7cb632d7bf264","103200|608||626ba80f5fa7cb632d7bf264","incremental","ok",null,"text",'"${second_line_at}"']'
}

@test "refresh: mongos and mongod files together make one namespace summary of 19" {
  run analyze refresh --json "${FIX}/refresh-4.2-mongos.log" "${FIX}/refresh-4.2-mongod.log"
  assert_success
  run jq -r 'select(.record == "namespace") | [.refreshes, .minMillis, .medianMillis, .maxMillis] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '19\t73\t1001\t1200')"
}

@test "refresh: the even-sized 4.2 mongod set has the mean of the middle two as median" {
  run analyze refresh --json "${FIX}/refresh-4.2-mongod.log"
  assert_success
  run jq -r 'select(.record == "namespace") | .medianMillis' <<<"$output"
  assert_success
  assert_output "1053.5"
}

@test "refresh: the table gives the per-namespace summary first, then the events slowest first" {
  run analyze refresh "${FIX}/refresh-4.0-mongos.reassembled.log"
  assert_success
  assert_equal "${lines[0]}" "Per namespace (1)"
  assert_regex "${lines[2]}" "^orderSchedule\.OrderDispatchLogDetail +12 +0 +173 +176\.5 +190 "
  assert_equal "${lines[3]}" "Routing table refreshes (12)"
  assert_regex "${lines[4]}" "^TIME +NAMESPACE +FROM VERSION +TO VERSION +KIND +MILLIS +STATUS +FORMAT$"
  assert_regex "${lines[5]}" "^Thu Oct 6 11:28:42\.556  orderSchedule\.OrderDispatchLogDetail  102961\|686\|\|62d157722a3a66acadc3b7a4  102961\|701\|\|62d157722a3a66acadc3b7a4  incremental +190  ok +text$"
  assert_regex "${lines[16]}" " 173  ok +text$"
  assert_equal "${#lines[@]}" 17
}

@test "refresh: 4.0 lines the blog cut before 'took N ms' are skipped and counted" {
  run --separate-stderr analyze refresh "${FIX}/refresh-4.0-mongod.log"
  assert_success
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "analyze: no routing refresh lines found in 1 file(s)"
  assert_equal "${stderr_lines[2]}" "analyze: skipped 11 unparsable line(s) out of 11 that matched the refresh filter"
  assert_equal "${stderr_lines[3]}" "  ${FIX}/refresh-4.0-mongod.log:1: routing refresh line without 'took N ms' (cut or re-wrapped?)"
}

# --- refresh, JSON logs -----------------------------------------------------

@test "refresh: the article's 5.0 id 4619901 line gives its versions and 2442 ms" {
  run --separate-stderr analyze refresh --json "${FIX}/refresh-5.0.json.log"
  assert_success
  run jq -c 'select(.record == "refresh") | [.time, .namespace, .fromVersion, .toVersion, .kind,
             .durationMillis, .status, .logId, .format]' <<<"$output"
  assert_success
  assert_output '["2022-10-17T16:15:56.209+08:00","test.test2","49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)","49189|1||626a663821072b82d9059209||Timestamp(1651140151, 6)","incremental",2442,"ok",4619901,"json"]'
}

@test "refresh: a 5.0-era oldVersion (time in store) is the start of an incremental refresh; None leaves the kind unknown" {
  run --separate-stderr analyze refresh --json "${FIX}/refresh-5.0-oldversion.derived.json.log"
  assert_success
  run jq -c 'select(.record == "refresh") | [.fromVersion, .toVersion, .kind, .durationMillis]' <<<"$output"
  assert_success
  assert_output '["49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)","49189|1||626a663821072b82d9059209||Timestamp(1651140151, 6)","incremental",2442]
[null,"49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)",null,2398]'
}

@test "refresh: the article's two mis-nested JSON lines are counted with their line numbers" {
  run --separate-stderr analyze refresh "${FIX}/refresh-5.0.json.log"
  assert_success
  assert_equal "${stderr_lines[0]}" "analyze: skipped 2 unparsable line(s) out of 3 that matched the refresh filter"
  assert_regex "${stderr_lines[1]}" "refresh-5\.0\.json\.log:3: not valid JSON"
  assert_regex "${stderr_lines[2]}" "refresh-5\.0\.json\.log:4: not valid JSON"
}

@test "refresh: in gzip input unparsable lines are located by decompressed byte offset" {
  gzip -c "${FIX}/refresh-5.0.json.log" >"${BATS_TEST_TMPDIR}/r.gz"
  run --separate-stderr analyze refresh "${BATS_TEST_TMPDIR}/r.gz"
  assert_success
  assert_regex "${stderr_lines[1]}" "r\.gz \(byte [0-9]+ after decompression\): not valid JSON"
}

@test "refresh: 4.4's id 24104 (full and incremental) and 24103 (error) are read, 4619900 is not" {
  run analyze refresh --json "${FIX}/refresh-4.4-24104.derived.json.log"
  assert_success
  run jq -c 'select(.record == "refresh") | [.namespace, .fromVersion, .toVersion, .kind, .durationMillis,
             .status, .logId]' <<<"$output"
  assert_success
  assert_line --index 0 '["test.foo",null,"2|0||5f27e3b5d3d0b6e5c1f0a1b2","full",41,"ok",24104]'
  assert_line --index 1 '["test.foo","2|0||5f27e3b5d3d0b6e5c1f0a1b2","3|1||5f27e3b5d3d0b6e5c1f0a1b2","incremental",7,"ok",24104]'
  assert_line --index 2 '["test.bar",null,null,null,3,"failed",24103]'
  assert_equal "${#lines[@]}" 3
}

@test "refresh: the summary counts failed refreshes per namespace" {
  run analyze refresh --json "${FIX}/refresh-4.4-24104.derived.json.log"
  assert_success
  run jq -r 'select(.record == "namespace") | [.namespace, .refreshes, .failed] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'test.foo\t2\t0\ntest.bar\t1\t1')"
}

@test "refresh: JSON and text logs together keep one summary per namespace with its format" {
  run --separate-stderr analyze refresh --json "${FIX}/refresh-5.0.json.log" "${FIX}/refresh-4.2-mongos.log"
  assert_success
  run jq -r 'select(.record == "namespace") | [.namespace, .format, .maxMillis] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf 'test.test2\tjson\t2442\nwukong.actions\ttext\t779')"
}

@test "--json output is JSON Lines: every line parses on its own" {
  run --separate-stderr analyze refresh --json "${FIX}/refresh-4.2-mongos.log" "${FIX}/refresh-5.0.json.log"
  assert_success
  local n=0 line
  for line in "${lines[@]}"; do
    jq -e 'type == "object" and (.record | type == "string")' <<<"$line" >/dev/null
    n=$((n + 1))
  done
  assert_equal "$n" 12
}

@test "cursors: cursorid 0 (no open cursor) is not aggregated as a cursor" {
  # The article's second batchSize: 1 line (getMore) with its cursor id set to 0, as OpDebug would log an
  # exhausted cursor if it logged one (curop.cpp logs cursorid when >= 0).
  sed -n 2p "${FIX}/changestream-5.2.json.log" | sed 's/"cursorid":8620417026431980160/"cursorid":0/' \
    >"${BATS_TEST_TMPDIR}/zero.log"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/zero.log"
  assert_success
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "analyze: no cursor lines found in 1 file(s)"
  assert_equal "${#stderr_lines[@]}" 2
}

@test "CRLF line endings (a log copied through Windows) give the same report" {
  sed 's/$/\r/' "${FIX}/refresh-4.2-mongos.log" >"${BATS_TEST_TMPDIR}/crlf.log"
  run analyze refresh "${FIX}/refresh-4.2-mongos.log"
  assert_success
  local plain="$output"
  run analyze refresh "${BATS_TEST_TMPDIR}/crlf.log"
  assert_success
  assert_output "$plain"
}

# --- not a log --------------------------------------------------------------
# Every file that is not a MongoDB log exits 1 before any output, with one
# line on what it looks like instead and one on what to pass.

PASS_HINT="  pass the log file of a mongod or mongos: the one its --logpath (systemLog.path) names"

@test "a CSV file is not a log: what it is and what to pass, exit 1" {
  printf 'id,name\n1,foo\n2,bar\n' >"${BATS_TEST_TMPDIR}/data.csv"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/data.csv"
  assert_failure 1
  assert_equal "$output" ""
  assert_equal "$stderr" "analyze: ${BATS_TEST_TMPDIR}/data.csv: not a MongoDB log (text, but no line of it is a MongoDB log line)
${PASS_HINT}"
}

@test "a binary file is not a log: what it is and what to pass, exit 1" {
  head -c 4096 /bin/sh >"${BATS_TEST_TMPDIR}/prog"
  run --separate-stderr analyze queries "${BATS_TEST_TMPDIR}/prog"
  assert_failure 1
  assert_equal "$stderr" "analyze: ${BATS_TEST_TMPDIR}/prog: not a MongoDB log (binary data)
${PASS_HINT}"
}

@test "a report's results.json is not a log: it says it is a JSON document, exit 1" {
  local results="${DBA_LAB_ROOT}/tests/fixtures/reports/routing-refresh/results.json"
  run --separate-stderr analyze refresh "$results"
  assert_failure 1
  assert_equal "$output" ""
  assert_equal "$stderr" "analyze: ${results}: not a MongoDB log (a JSON document, such as a report's results.json)
${PASS_HINT}"
}

@test "JSON lines that are not a server's log lines are not a log, exit 1" {
  printf '{"id":1,"name":"foo"}\n{"id":2,"name":"bar"}\n' >"${BATS_TEST_TMPDIR}/rows.jsonl"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/rows.jsonl"
  assert_failure 1
  assert_equal "$output" ""
  assert_equal "$stderr" "analyze: ${BATS_TEST_TMPDIR}/rows.jsonl: not a MongoDB log (JSON lines, but none is a MongoDB log line, which starts {\"t\":{\"\$date\":...)
${PASS_HINT}"
}

# The run log of a playbook, written by the framework's own logger into FILE.
write_run_log() {
  (
    PB_LOG="$1"
    # shellcheck source=playbooks/lib/log.sh
    source "${DBA_LAB_ROOT}/playbooks/lib/log.sh"
    pb::log_init
    pb::stage_header launch 8.0.4
    pb::info "mlaunch init --replicaset --nodes 3"
    pb::warn "the disk is nearly full"
  ) >/dev/null 2>&1
}

@test "a playbook's run.log is not a log: it says it is time-stamped text of another layout, exit 1" {
  write_run_log "${BATS_TEST_TMPDIR}/run.log"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/run.log"
  assert_failure 1
  assert_equal "$output" ""
  assert_equal "$stderr" "analyze: ${BATS_TEST_TMPDIR}/run.log: not a MongoDB log (text lines that start with a time, but not in a MongoDB log's layout, such as a playbook's run.log)
${PASS_HINT}"
}

@test "a file that is not a log among logs stops the run before any output, exit 1" {
  write_run_log "${BATS_TEST_TMPDIR}/run.log"
  run --separate-stderr analyze cursors "${FIX}/cursors-distinct-ids.derived.json.log" "${BATS_TEST_TMPDIR}/run.log"
  assert_failure 1
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "analyze: ${BATS_TEST_TMPDIR}/run.log: not a MongoDB log (text lines that start with a time, but not in a MongoDB log's layout, such as a playbook's run.log)"
}

@test "an empty file is an empty log (as one just rotated): nothing found, exit 0" {
  : >"${BATS_TEST_TMPDIR}/mongod.log"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/mongod.log"
  assert_success
  assert_equal "$output" ""
  assert_equal "$stderr" "analyze: no cursor lines found in 1 file(s)
  ${BATS_TEST_TMPDIR}/mongod.log: 0 line(s); no MongoDB log component; no time stamp"
}

@test "a log pasted through a word processor (typographic quotes) is still a log: its lines are unparsable, exit 0" {
  head -n 1 "${FIX}/changestream-5.2.json.log" >"${BATS_TEST_TMPDIR}/pasted.log"
  grep -q '“t”' "${BATS_TEST_TMPDIR}/pasted.log"
  run --separate-stderr analyze cursors "${BATS_TEST_TMPDIR}/pasted.log"
  assert_success
  assert_equal "${stderr_lines[2]}" "analyze: skipped 1 unparsable line(s) out of 1 that matched the cursors filter"
}

@test "a JSON line cut before cursorid is counted and listed as unparsable" {
  sed -n 2,3p "${FIX}/changestream-5.2.json.log" >"${BATS_TEST_TMPDIR}/cut.log"
  sed -n 4p "${FIX}/changestream-5.2.json.log" | cut -c1-900 >>"${BATS_TEST_TMPDIR}/cut.log"
  grep -q cursorid "${BATS_TEST_TMPDIR}/cut.log"
  run --separate-stderr analyze cursors --json "${BATS_TEST_TMPDIR}/cut.log"
  assert_success
  assert_equal "${stderr_lines[0]}" "analyze: skipped 1 unparsable line(s) out of 3 that matched the cursors filter"
  assert_regex "${stderr_lines[1]}" "cut\.log:3: not valid JSON"
  assert_equal "$(jq -r .commands <<<"$output")" 2
}

# --- every server generation ------------------------------------------------

@test "cursors: a 2.2 log (ctime without milliseconds) gives the query and its getmore" {
  run analyze cursors --json "${FIX}/generations-2.2.derived.text.log"
  assert_success
  run jq -r '[.cursorId, .originatingCommand, .commands, .getMores, .nreturned, .keysExamined,
              .durationMillis, .firstTime, .lastTime] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '1234567890123456789\tquery\t2\t1\t200\t250\t135\tMon Aug  5 20:21:20\tMon Aug  5 20:21:21')"
}

@test "cursors: 2.4, 2.6 and 3.0 logs give the same cursor" {
  local v
  for v in 2.4 2.6 3.0; do
    run analyze cursors --json "${FIX}/generations-${v}.derived.text.log"
    assert_success
    assert_equal "$(jq -r '[.cursorId, .commands, .nreturned, .durationMillis] | @tsv' <<<"$output")" \
      "$(printf '1234567890123456789\t2\t200\t135')"
  done
}

@test "refresh: 3.6 mongos lines, the one without a unit included, and a 2.2 chunk load" {
  run analyze refresh --json "${FIX}/refresh-3.6-mongos.derived.text.log" "${FIX}/generations-2.2.derived.text.log"
  assert_success
  run jq -r 'select(.record == "refresh") | [.durationMillis, .status, .kind // "-"] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '41\tok\t-\n35\tok\t-\n35\tok\tincremental\n12\tfailed\t-\n4\tok\tincremental')"
}

# --- queries ----------------------------------------------------------------

@test "queries: a 4.2 text log grouped by namespace, operation and shape, by total time" {
  run analyze queries "${FIX}/queries-4.2.derived.text.log"
  assert_success
  assert_equal "${#lines[@]}" 13
  assert_regex "${lines[5]}" "^NAMESPACE +OPERATION +SHAPE +COMMANDS +GETMORES +MIN MS +MEDIAN MS +P95 MS +MAX MS +TOTAL MS +SHARE +KEYS/RET +DOCS/RET +PLAN$"
  # The two finds on total (2100 and 2300 ms) and the getMore of the first
  # (460 ms): the median (2100) from the sketch, 2109; the p95, the last of
  # three, the max itself.
  assert_regex "${lines[6]}" '^shop\.orders +find +\{"total": 1\} +2 +1 +460 +2109 +2300 +2300 +4860 +77\.6% +0\.0 +52\.4 +COLLSCAN$'
  # 101, 110 and 140 ms: 110 from the sketch (111), whole numbers only.
  assert_regex "${lines[8]}" '^shop\.orders +find +\{"customerId": 1, "status": 1\} +3 +0 +101 +111 +140 +140 +351 '
  # shellcheck disable=SC2016 # $match is a pipeline stage's name, not an expansion
  assert_regex "${lines[9]}" '^shop\.orders +aggregate +\$match \{"status": 1\} \| \$group +1 +0 +320 '
  assert_equal "${lines[12]}" "MEDIAN MS and P95 MS: nearest rank, from a sketch within 1% of the exact values (exact below 100 ms)"
}

@test "queries: --json records carry the figures mloginfo has not" {
  run analyze queries --json "${FIX}/queries-4.2.derived.text.log"
  assert_success
  run jq -c 'select(.shape == "{\"status\": 1}") | [.record, .operation, .count, .totalMillis, .keysExamined, .planSummary, .format]' <<<"$output"
  assert_success
  assert_output '["query","count",1,150,3000,"IXSCAN { status: 1 }","text"]'
}

@test "queries: each --json record states the error of its median and p95" {
  run analyze queries --json "${FIX}/queries-4.2.derived.text.log"
  assert_success
  run jq -c 'select(.shape == "{\"total\": 1}") | [.medianMillis, .p95Millis, .percentileRelativeError]' <<<"$output"
  assert_success
  assert_output '[2109,2300,0.01]'
}

@test "queries: a 4.4+ JSON log, which mloginfo cannot read" {
  run --separate-stderr analyze queries --json "${FIX}/changestream-5.2.json.log"
  assert_success
  run jq -c '[.namespace, .operation, .shape, .commands, .getMores, .maxMillis, .docsExaminedPerReturned, .planSummary, .format]' <<<"$output"
  assert_success
  # The change stream's aggregate and its nine getMores (the slowest: 8090 ms).
  # shellcheck disable=SC2016 # $changeStream, $match, $project: stage names, not expansions
  assert_output '["test.foo","aggregate","$changeStream | $match {\"fullDocument.msg\": 1} | $project",1,9,8090,303.7,"COLLSCAN","json"]'
}

@test "queries: aggregates grouped by their \$match shape, getMores charged to their cursor's command" {
  run analyze queries --json "${FIX}/queries-aggregates.derived.json.log"
  assert_success
  run jq -r '[.namespace, .operation, .shape, .commands, .getMores, .totalMillis, .getMoreMillis] | @tsv' <<<"$output"
  assert_success
  # Added up by hand from the fixture's lines (tests/fixtures/logs/README.md).
  assert_output "$(printf '%s\n' \
    $'shop.orders\taggregate\t$changeStream | $match {"operationType": 1}\t1\t2\t2006\t2001' \
    $'shop.orders\taggregate\t$match {"k": 1} | $group | $sort\t3\t1\t300\t40' \
    $'shop.orders\taggregate\t$match {"k": 1, "status": 1} | $group\t1\t0\t200\t0' \
    $'shop.carts\taggregate\t$match {"k": 1} | $group | $sort\t1\t0\t50\t0' \
    $'shop.orders\tfind\t{"customerId": 1}\t0\t2\t40\t40' \
    $'shop.orders\taggregate\t$group | $match\t1\t0\t30\t0')"
}

@test "queries: getMores of cursors opened before the log make an unknown-origin group per namespace" {
  run analyze queries "${FIX}/queries-getmore-3.0.derived.text.log"
  assert_success
  assert_regex "${lines[6]}" '^test\.orders +query +\{"status": 1\} +1 +2 +5 +15 '
  assert_regex "${lines[7]}" '^test\.orders +getMore +\(unknown origin\) +0 +2 +20 +20 +30 '
  assert_regex "${lines[8]}" '^test\.items +getMore +\(unknown origin\) +0 +1 +10 +10 '
}

@test "queries: a MongoDB log with no slow query says what it holds instead, exit 0" {
  run --separate-stderr analyze queries "${FIX}/refresh-4.4-24104.derived.json.log"
  assert_success
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "analyze: no slow query lines found in 1 file(s)"
  assert_equal "${stderr_lines[1]}" "  ${FIX}/refresh-4.4-24104.derived.json.log: 4 line(s); components SH_REFR 4; first 2020-08-03T10:15:02.118+00:00, last 2020-08-03T10:18:01.000+00:00"
}

@test "queries: a text log with no slow query says what it holds instead, exit 0" {
  run --separate-stderr analyze queries "${FIX}/refresh-4.2-mongod.log"
  assert_success
  assert_equal "${#stderr_lines[@]}" 2
  assert_equal "${stderr_lines[1]}" "  ${FIX}/refresh-4.2-mongod.log: 10 line(s); components SH_REFR 10; first 2022-10-06T10:54:49.792+0800, last 2022-10-06T11:20:31.749+0800"
}

# --- tables: the rows a person reads first (issue 28) ----------------------------

# A synthetic JSON log of KIND (bench/analyze-log.py: distinct = every line a
# cursor of its own, refreshes = every line a refresh, all = every line a slow
# query) of KIB KiB in this test's folder; prints its path.
generated_log() {
  local kind="$1" kib="$2" log="${BATS_TEST_TMPDIR}/${1}-${2}.log"
  python3 "${DBA_LAB_ROOT}/bench/analyze-log.py" "$kind" "$log" "$kib" >/dev/null
  printf '%s' "$log"
}

# How many --json records of RECORD a report gives for LOG.
records() {
  local report="$1" record="$2" log="$3"
  analyze "$report" --json "$log" | jq -c --arg r "$record" 'select(.record == $r)' | wc -l | tr -d ' '
}

@test "tables: cursors starts with the summary per namespace, then the 20 slowest and how many more" {
  local log total
  log="$(generated_log distinct 64)"
  total="$(records cursors cursor "$log")"
  run analyze cursors "$log"
  assert_success
  assert_equal "${lines[0]}" "Per namespace (8)"
  assert_regex "${lines[1]}" "^NS +CURSORS +CMDS +GETMORES +NRETURNED +DOCS EXAMINED +KEYS EXAMINED +BYTES READ +MILLIS$"
  assert_equal "${lines[10]}" "Slowest cursors (20 of ${total})"
  assert_regex "${lines[11]}" "^ +CURSOR ID +NS +OPENED BY "
  assert_equal "${#lines[@]}" 33
  assert_equal "${lines[32]}" "$((total - 20)) more rows not shown: --all or --top N"
  # The 20 rows are the first 20 of --json, in its order (slowest first).
  assert_equal "$(printf '%s\n' "${lines[@]:12:20}" | awk '{ print $1 }')" \
    "$(analyze cursors --json "$log" | head -n 20 | jq -r .cursorId)"
}

@test "tables: the namespace summary adds up every cursor, shown or not" {
  local log
  log="$(generated_log distinct 64)"
  run analyze cursors "$log"
  assert_success
  assert_equal "$(printf '%s\n' "${lines[@]:2:8}" | awk '{ n += $2; ms += $NF } END { print n, ms }')" \
    "$(analyze cursors --json "$log" | jq -s -r '"\(length) \(map(.durationMillis) | add)"')"
}

@test "tables: --top N shows the N slowest rows and says how many more there are" {
  local log total
  log="$(generated_log distinct 64)"
  total="$(records cursors cursor "$log")"
  run analyze cursors --top 5 "$log"
  assert_success
  assert_equal "${lines[10]}" "Slowest cursors (5 of ${total})"
  assert_equal "${#lines[@]}" 18
  assert_equal "${lines[17]}" "$((total - 5)) more rows not shown: --all or --top N"
}

@test "tables: --all shows every row and no line about rows left out" {
  local log total
  log="$(generated_log distinct 64)"
  total="$(records cursors cursor "$log")"
  run analyze cursors --all "$log"
  assert_success
  assert_equal "${lines[10]}" "Cursors (${total})"
  assert_equal "${#lines[@]}" "$((12 + total))"
  refute_output --partial "more rows not shown"
}

@test "tables: --top larger than the rows shows them all, titled as such" {
  run analyze cursors --top=50 "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  assert_equal "${lines[3]}" "Cursors (3)"
  assert_equal "${#lines[@]}" 8
}

@test "tables: refresh shows the summary per namespace, then the 20 slowest refreshes" {
  local log total
  log="$(generated_log refreshes 64)"
  total="$(records refresh refresh "$log")"
  run analyze refresh "$log"
  assert_success
  assert_equal "${lines[0]}" "Per namespace (8)"
  assert_equal "${lines[10]}" "Slowest routing table refreshes (20 of ${total})"
  assert_equal "${lines[32]}" "$((total - 20)) more rows not shown: --all or --top N"
  assert_equal "${#lines[@]}" 33
}

@test "tables: queries shows the summary per namespace, then the 20 groups with the most total time" {
  local log total
  log="$(generated_log all 256)"
  total="$(records queries query "$log")"
  run analyze queries "$log"
  assert_success
  assert_equal "${lines[0]}" "Per namespace (8)"
  assert_regex "${lines[1]}" "^NAMESPACE +SHAPES +COMMANDS +GETMORES +TOTAL MS +SHARE$"
  assert_equal "${lines[10]}" "Query shapes with the most total time (20 of ${total})"
  assert_equal "${lines[32]}" "$((total - 20)) more rows not shown: --all or --top N"
}

@test "tables: the queries summary counts a namespace's commands and getMores apart, rows shown or not" {
  run analyze queries --top 1 "${FIX}/queries-aggregates.derived.json.log"
  assert_success
  # shop.orders, from the rows of the --json test above: five groups; 1 + 3 +
  # 1 + 0 + 1 commands, 2 + 1 + 0 + 2 + 0 getMores, 2006 + 300 + 200 + 40 + 30 ms.
  assert_regex "${lines[2]}" '^shop\.orders +5 +6 +5 +2576 +98\.1%$'
  assert_regex "${lines[3]}" '^shop\.carts +1 +1 +0 +50 +1\.9%$'
  assert_equal "${lines[4]}" "Query shapes with the most total time (1 of 6)"
  assert_equal "${lines[7]}" "5 more rows not shown: --all or --top N"
}

@test "tables: --json keeps every row, with no summary or count line added" {
  local log
  log="$(generated_log distinct 64)"
  run analyze cursors --json --all "$log"
  assert_success
  assert_equal "${#lines[@]}" "$(grep -c '"cursorid":' "$log")"
  refute_output --partial "more rows not shown"
}

@test "tables: --top needs a positive number (exit 2, one line)" {
  local bad
  for bad in 0 x -3 ""; do
    run --separate-stderr analyze cursors --top "$bad" "${FIX}/cursors-distinct-ids.derived.json.log"
    assert_failure 2
    assert_equal "${stderr_lines[0]}" "analyze: --top needs a positive number of rows (found '${bad}')"
  done
}

@test "tables: --top with --json or with --all is a usage error that says why" {
  run --separate-stderr analyze cursors --json --top 5 "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: --top shortens tables; --json writes every row (head -n N keeps N)"
  run --separate-stderr analyze cursors --top 5 --all "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_failure 2
  assert_equal "${stderr_lines[0]}" "analyze: --top and --all: give one of them"
}

# Peak RSS in KiB (the largest process) of a command run with its output to
# /dev/null: ru_maxrss of the waited-for children.
peak_kib() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // (1 if sys.platform != "darwin" else 1024))' "$@"
}

# A table (default and --all) costs no more memory than --json, within 2 MiB,
# for REPORT on LOG with ENGINE: both keep one record per key, neither a row.
assert_table_within_json() {
  local engine="$1" report="$2" log="$3" json table
  local -a run_it=(env DBA_LAB_ANALYZE_ENGINE="$engine" "${DBA_LAB_ROOT}/playbooks/analyze" "$report")
  json="$(peak_kib "${run_it[@]}" --json "$log")"
  table="$(peak_kib "${run_it[@]}" "$log")"
  ((table <= json + 2048)) || fail "${engine} ${report}: the table took ${table} KiB, --json ${json} KiB"
  table="$(peak_kib "${run_it[@]}" --all "$log")"
  ((table <= json + 2048)) || fail "${engine} ${report} --all: ${table} KiB, --json ${json} KiB"
}

# The same for both engines: the Python one, then the Go one where it is built.
assert_table_within_json_both() {
  assert_table_within_json python "$@"
  [[ -x "${DBA_LAB_ROOT}/.tools/bin/analyze-go" ]] || skip "the Go engine is not built"
  assert_table_within_json go "$@"
}

@test "memory: a cursors table costs no more than --json on 16 MiB of distinct cursors, both engines" {
  local log
  log="$(generated_log distinct 16384)"
  assert_table_within_json_both cursors "$log"
}

@test "memory: a refresh table costs no more than --json on 16 MiB of refreshes, both engines" {
  local log
  log="$(generated_log refreshes 16384)"
  assert_table_within_json_both refresh "$log"
}

@test "memory: a queries table costs no more than --json on 16 MiB of distinct shapes, both engines" {
  local log
  log="$(generated_log shapes 16384)"
  assert_table_within_json_both queries "$log"
}

# --- engines ----------------------------------------------------------------
# The Go engine (setup builds .tools/bin/analyze-go when Go is installed)
# reads cursors and queries over plain JSON files; the Python engine the rest.
# tests/unit/python/test_analyze_engines.py compares their bytes.

# Skips (fails with CI=true, where setup builds it) without the Go engine.
needs_go_engine() {
  [[ -x "${DBA_LAB_ROOT}/.tools/bin/analyze-go" ]] && return 0
  [[ "${CI:-}" == true ]] && fail "the Go engine is not built (CI=true: ./setup/install.sh builds it)"
  skip "the Go engine is not built (./setup/install.sh builds it when Go is installed)"
}

@test "engines: the Go engine reads a JSON log itself (the Go-only setting answers)" {
  needs_go_engine
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=go "${DBA_LAB_ROOT}/playbooks/analyze" cursors "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  assert_equal "${#lines[@]}" 8
  assert_equal "$stderr" ""
}

@test "engines: the Go engine reads a text log's cursors itself, to the Python engine's bytes" {
  needs_go_engine
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=python "${DBA_LAB_ROOT}/playbooks/analyze" cursors "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  local python="$output"
  # DBA_LAB_ANALYZE_ENGINE=go exits 3 where it would hand the run over.
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=go "${DBA_LAB_ROOT}/playbooks/analyze" cursors "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  assert_equal "$stderr" ""
  assert_output "$python"
}

@test "engines: a file that is not a log is the Python engine's to refuse; both say the same (exit 1)" {
  needs_go_engine
  local results="${DBA_LAB_ROOT}/tests/fixtures/reports/routing-refresh/results.json"
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=go "${DBA_LAB_ROOT}/playbooks/analyze" cursors "$results"
  assert_failure 3
  assert_equal "$stderr" "analyze-go: left to the Python engine: ${results}: not a log"
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=python "${DBA_LAB_ROOT}/playbooks/analyze" cursors "$results"
  assert_failure 1
  local python="$stderr"
  run --separate-stderr analyze cursors "$results"
  assert_failure 1
  assert_equal "$stderr" "$python"
}

@test "engines: a run the Go engine hands over gives the Python engine's report" {
  needs_go_engine
  run --separate-stderr env DBA_LAB_ANALYZE_ENGINE=python "${DBA_LAB_ROOT}/playbooks/analyze" cursors "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  local python="$output"
  run --separate-stderr analyze cursors "${FIX}/cursors-4.2.derived.text.log"
  assert_success
  assert_equal "$output" "$python"
  assert_equal "$stderr" ""
}

@test "engines: a Go engine built from other source is not used, and one line says so" {
  needs_go_engine
  local copy="${BATS_TEST_TMPDIR}/checkout"
  mkdir -p "${copy}/.tools/bin"
  cp -R "${DBA_LAB_ROOT}/playbooks" "${copy}/playbooks"
  ln -s "${DBA_LAB_ROOT}/.tools/venv" "${copy}/.tools/venv"
  ln -s "${DBA_LAB_ROOT}/.tools/bin/analyze-go" "${copy}/.tools/bin/analyze-go"
  printf '\n// changed after the build\n' >>"${copy}/playbooks/lib/analyze-go/main.go"
  run --separate-stderr "${copy}/playbooks/analyze" cursors --json "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  assert_equal "${#lines[@]}" 3
  assert_equal "$stderr" "analyze: the Go engine was built from other source; using the Python engine (./setup/install.sh rebuilds it)"
}

@test "engines: an unknown DBA_LAB_ANALYZE_ENGINE is a usage error (exit 2)" {
  run env DBA_LAB_ANALYZE_ENGINE=fast "${DBA_LAB_ROOT}/playbooks/analyze" cursors "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_failure 2
  assert_output "analyze: DBA_LAB_ANALYZE_ENGINE must be auto, go or python (found 'fast')"
}

@test "engines: a reader that goes away early is not an error of the Go engine's" {
  needs_go_engine
  local log="${BATS_TEST_TMPDIR}/many.log"
  # About 2,000 cursors: more output than a pipe holds.
  run python3 "${DBA_LAB_ROOT}/bench/analyze-log.py" distinct "$log" 2048
  assert_success
  run bash -c 'set -o pipefail; "$1" cursors --json "$2" | head -n 1 >/dev/null' _ "${DBA_LAB_ROOT}/playbooks/analyze" "$log"
  assert_success
}

@test "analyze runs through a chain of symlinks, relative ones included" {
  mkdir -p "${BATS_TEST_TMPDIR}/bin/sub"
  ln -s "${DBA_LAB_ROOT}/playbooks/analyze" "${BATS_TEST_TMPDIR}/bin/analyze"
  ln -s ../analyze "${BATS_TEST_TMPDIR}/bin/sub/analyze"
  run "${BATS_TEST_TMPDIR}/bin/sub/analyze" cursors --json "${FIX}/cursors-distinct-ids.derived.json.log"
  assert_success
  assert_equal "${#lines[@]}" 3
}
