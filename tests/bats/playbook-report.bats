#!/usr/bin/env bats
# Reports (playbooks/lib/report.sh, js/stage.js, js/report, playbooks/report):
# results.json (valid JSON, environment included), a CSV per table, report.md,
# report.html, SVG charts with their specs, the index, log excerpts, verdicts.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
}

records() {
  jq -c "$1" "$PB_RECORDS"
}

@test "the demo's report folder holds report.html, report.md, results.json, run.log and a CSV per table" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  [[ -s "${REPORT}/report.md" && -s "${REPORT}/report.html" && -s "${REPORT}/run.log" ]]
  run jq -e . "${REPORT}/results.json"
  assert_success
  run cat "${REPORT}/sizes.csv"
  assert_success
  assert_output $'"step","docs"\n"written",10\n"counted",10'
}

@test "the closing summary points at report.html, the page to open" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  assert_line --partial "report: ${REPORT}/report.html (and report.md)"
}

@test "results.json has the environment: host, CPU, memory, tools, topology, scale" {
  run "$DEMO" --topology none --scale medium --report-dir "$REPORT"
  assert_success
  run jq -r '.environment | [.host.os != "", .host.kernel != "", (.host.cpus > 0), (.host.memoryBytes > 1000000),
    (.tools.jq | startswith("jq-")), .topology.type, .scale.name, .scale.params.docs] | map(tostring) | join(" ")' "${REPORT}/results.json"
  assert_success
  assert_output 'true true true true true none medium 1000'
  run jq -r '[.status, .playbook, (.stages | map(.name) | join(",")), (.measurements[0] | "\(.key)=\(.value) \(.unit)")] | join(" ")' "${REPORT}/results.json"
  assert_success
  assert_output 'done demo-lab preflight,launch,prepare,run,analyze,report counted=1000 docs'
}

@test "report.md has the verdict table, the environment, the tables and how the run was started" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  run cat "${REPORT}/report.md"
  assert_success
  assert_line '# Demo lab: the framework'"'"'s test playbook'
  assert_line "| claim | version | expected for this version | observed | the article's claim | as predicted? |"
  assert_line '| every written document is counted | all | counted = written | 10 of 10 | **REPRODUCED** | NO PREDICTION: no prediction for an unknown version |'
  assert_line --regexp '^- CPU: .+, [0-9]+ cores; memory [0-9.]+ GiB$'
  assert_line '| written | 10 |'
  assert_line --regexp "^Command: \`.*demo-lab\\.sh'? --topology none --report-dir .*\`\$"
}

@test "a chart is an SVG with its Vega-Lite spec beside it, in report.html and linked from report.md" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  run jq -c '[.mark.type, .encoding.x.field, .encoding.y.title, (.data.values | map([.x, .y])) ]' "${REPORT}/charts/sizes.vl.json"
  assert_success
  assert_output '["point","x","docs",[[10,10],[10,10]]]'
  run grep -c '<svg ' "${REPORT}/charts/sizes.svg"
  assert_success
  assert_output 1
  run grep -F '![sizes](charts/sizes.svg)' "${REPORT}/report.md"
  assert_success
  run grep -F 'data-chart="sizes"' "${REPORT}/report.html"
  assert_success
}

@test "a grouped chart has one series per group" {
  load_framework
  pb::table t "T" run x y
  pb::row t A 1 10
  pb::row t A 2 20
  pb::row t B 1 5
  pb::chart c --table t --x x --y y --group run --logy
  mkdir -p "$REPORT"
  pb::_results_json "done" >"${REPORT}/results.json"
  run "${DBA_LAB_ROOT}/playbooks/report" "$REPORT"
  assert_success
  run jq -c '[.encoding.y.scale.type, (.data.values | map([.series, .x, .y]))]' "${REPORT}/charts/c.vl.json"
  assert_success
  assert_output '["log",[["A",1,10],["A",2,20],["B",1,5]]]'
}

@test "pb::chart --answers records the ids of the claims the chart answers" {
  load_framework
  pb::table t "T" method y
  pb::row t driver-raw 1
  pb::chart c --table t --x method --y y --answers decoding,raw
  pb::chart d --table t --x method --y y
  run records 'select(.type == "chart") | [.name, .answers]'
  assert_success
  assert_output $'["c",["decoding","raw"]]\n["d",[]]'
}

# A scenario whose checker declares one claim with needs and one without.
trend_checker() {
  PB_SCENARIO="${BATS_TEST_TMPDIR}/scenario"
  mkdir -p "$PB_SCENARIO"
  cat >"${PB_SCENARIO}/checker.js" <<'JS'
module.exports = {
  claims: [
    { id: 'slope', claim: 'it grows', expected: 'a rising line', needs: { minPoints: 4, pointsOf: 'sizes' } },
    { id: 'flat', claim: 'it stays', expected: 'the same value' },
  ],
  check: () => [],
};
JS
}

@test "pb::chart --trend-of records the claim's least number of points as its checker declares it" {
  load_framework
  trend_checker
  pb::table t "T" size y
  pb::row t 1 10
  pb::chart c --table t --x size --y y --answers slope --trend-of slope
  pb::chart d --table t --x size --y y
  run records 'select(.type == "chart") | [.name, .trend]'
  assert_success
  assert_output $'["c",{"claim":"slope","minPoints":4,"pointsOf":"sizes"}]\n["d",null]'
}

@test "pb::chart --trend-of a claim that declares no minimum of points is refused" {
  load_framework
  trend_checker
  run pb::chart c --table t --x size --y y --trend-of flat
  assert_failure
  assert_output --partial "pb::chart c: --trend-of flat: ${PB_SCENARIO}/checker.js declares no claim 'flat' with needs.minPoints"
}

@test "a series too short for its trend claim is drawn without a line, and the caption says why, in report.html and report.md" {
  load_framework
  trend_checker
  pb::table t "T" run size y
  pb::row t A 1 10
  pb::row t A 2 20
  pb::chart c --table t --x size --y y --group run --trend-of slope
  mkdir -p "$REPORT"
  pb::_results_json "done" >"${REPORT}/results.json"
  run "${DBA_LAB_ROOT}/playbooks/report" "$REPORT"
  assert_success
  run grep -c 'aria-roledescription="line mark"' "${REPORT}/charts/c.svg"
  assert_output 0
  run grep -F "No line through A (2 points): the slope verdict judges a trend only on at least 4 sizes." "${REPORT}/report.html" "${REPORT}/report.md"
  assert_success
  assert_line --partial "report.html:"
  assert_line --partial "report.md:"
}

@test "playbooks/report re-renders report.md and report.html from an edited results.json" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  jq '.notes += [{version: "", stage: "", text: "Edited after the class: see **slide 4**."}]' "${REPORT}/results.json" >"${BATS_TEST_TMPDIR}/r.json"
  mv "${BATS_TEST_TMPDIR}/r.json" "${REPORT}/results.json"
  rm "${REPORT}/charts/sizes.svg"
  run "${DBA_LAB_ROOT}/playbooks/report" "$REPORT"
  assert_success
  assert_output "${REPORT}/report.html"
  run grep -F 'Edited after the class: see **slide 4**.' "${REPORT}/report.md"
  assert_success
  run grep -F 'Edited after the class: see <strong>slide 4</strong>.' "${REPORT}/report.html"
  assert_success
  [[ -s "${REPORT}/charts/sizes.svg" ]]
}

@test "playbooks/report with several folders writes one comparison page" {
  run "$DEMO" --topology none --report-dir "${BATS_TEST_TMPDIR}/a"
  assert_success
  run "$DEMO" --topology none --report-dir "${BATS_TEST_TMPDIR}/b"
  assert_success
  cd "$BATS_TEST_TMPDIR"
  run "${DBA_LAB_ROOT}/playbooks/report" a b
  assert_success
  assert_output $'a/report.html\nb/report.html\ncomparison.html'
  run "${DBA_LAB_ROOT}/playbooks/report" --out "${BATS_TEST_TMPDIR}/compare.html" "${BATS_TEST_TMPDIR}/a" "${BATS_TEST_TMPDIR}/b"
  assert_success
  cmp -s comparison.html compare.html
  run grep -c -F '<a href="a/report.html">' "${BATS_TEST_TMPDIR}/compare.html"
  assert_success
  assert_output 1
  run grep -c -F 'data-chart="sizes"' "${BATS_TEST_TMPDIR}/compare.html"
  assert_success
  assert_output 2
}

@test "playbooks/report --index lists every report under a folder, newest first" {
  mkdir -p "${BATS_TEST_TMPDIR}/reports/demo-lab"
  cp -R "${DBA_LAB_ROOT}/tests/fixtures/reports/capped-pubsub" "${DBA_LAB_ROOT}/tests/fixtures/reports/routing-refresh" "${BATS_TEST_TMPDIR}/reports/demo-lab/"
  run "${DBA_LAB_ROOT}/playbooks/report" "${BATS_TEST_TMPDIR}/reports/demo-lab/capped-pubsub"
  assert_success
  run "${DBA_LAB_ROOT}/playbooks/report" --index "${BATS_TEST_TMPDIR}/reports" "${BATS_TEST_TMPDIR}/reports/demo-lab/routing-refresh"
  assert_success
  run grep -o 'href="[^"]*"' "${BATS_TEST_TMPDIR}/reports/index.html"
  assert_success
  assert_output $'href="demo-lab/routing-refresh/report.html"\nhref="demo-lab/capped-pubsub/report.html"'
}

@test "playbooks/report: no folder, an unknown option, or --out with one folder is a usage error" {
  run "${DBA_LAB_ROOT}/playbooks/report"
  assert_failure 2
  assert_line 'playbooks/report: give at least one report folder'
  run "${DBA_LAB_ROOT}/playbooks/report" --pdf "$REPORT"
  assert_failure 2
  assert_line "playbooks/report: unknown option '--pdf'"
  run "${DBA_LAB_ROOT}/playbooks/report" --out x.html "$REPORT"
  assert_failure 2
  assert_line 'playbooks/report: --out is for a comparison of several folders'
}

@test "playbooks/report on a folder without results.json fails with one line" {
  mkdir -p "$REPORT"
  run "${DBA_LAB_ROOT}/playbooks/report" "$REPORT"
  assert_failure 1
  assert_output "playbooks/report: ${REPORT}: no results.json (ENOENT)"
}

@test "a run whose report folder is under the checkout's reports/ rewrites reports/index.html" {
  load_framework
  PB_ROOT="${BATS_TEST_TMPDIR}/checkout"
  PB_REPORT_DIR="${PB_ROOT}/reports/unit-lab/20260101T000000Z"
  # shellcheck disable=SC2034 # read by pb::report_write
  PB_STAGE_NAMES=() PB_STAGE_LABELS=() PB_STAGE_SECONDS=()
  mkdir -p "$PB_REPORT_DIR"
  pb::measure m 1
  run pb::report_write "done"
  assert_success
  run grep -o 'href="[^"]*"' "${PB_ROOT}/reports/index.html"
  assert_success
  assert_output 'href="unit-lab/20260101T000000Z/report.html"'
}

@test "a report folder elsewhere leaves every index alone" {
  load_framework
  PB_ROOT="${BATS_TEST_TMPDIR}/checkout"
  # shellcheck disable=SC2034 # read by pb::report_write
  PB_STAGE_NAMES=() PB_STAGE_LABELS=() PB_STAGE_SECONDS=()
  mkdir -p "$REPORT" "${PB_ROOT}/reports"
  run pb::report_write "done"
  assert_success
  [[ -s "${REPORT}/report.html" && ! -e "${PB_ROOT}/reports/index.html" ]]
}

@test "the environment names a FerretDB target from preflight's buildInfo, not by the MongoDB version it reports" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::_record_environment
  PB_TOPOLOGY=uri PB_URI=mongodb://127.0.0.1:1/ PB_SCALE=() PB_MONGOD_ARGS=() PB_EXTRA_TOOLS=()
  # shellcheck disable=SC2034
  PB_SERVER_INFO='{"version":"7.0.42","ferretdb":"v1.24.2","setName":null,"msg":null,"exists":false,"owner":null}'
  pb::_record_environment
  run records 'select(.type == "environment") | .server'
  assert_success
  assert_output '{"product":"FerretDB","version":"v1.24.2","reportsAs":"7.0.42"}'
}

@test "the environment of a MongoDB target says MongoDB" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::_record_environment
  PB_TOPOLOGY=uri PB_URI=mongodb://127.0.0.1:1/ PB_SCALE=() PB_MONGOD_ARGS=() PB_EXTRA_TOOLS=()
  # shellcheck disable=SC2034
  PB_SERVER_INFO='{"version":"8.0.4","ferretdb":null,"setName":"rs","msg":null,"exists":false,"owner":null}'
  pb::_record_environment
  run records 'select(.type == "environment") | .server'
  assert_success
  assert_output '{"product":"MongoDB","version":"8.0.4","reportsAs":"8.0.4"}'
}

@test "rows of a table declared with a source (the article's figures) carry no run version" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::mongosh_stage
  PB_VERSION=8.0.4
  printf '%s\n' "(() => { stage.table('article', 'The article', ['a'], { source: 'article', setup: 'MongoDB 3.0.1, a laptop' }); stage.row('article', [1]); stage.table('mine', 'Mine', ['a']); stage.row('mine', [2]); })();" \
    >"${BATS_TEST_TMPDIR}/source.js"
  pb::mongosh_stage --nodb "${BATS_TEST_TMPDIR}/source.js"
  pb::_results_json "done" >"${BATS_TEST_TMPDIR}/results.json"
  run jq -c '[.tables.article.source, .tables.article.rows[0].version, .tables.mine.rows[0].version]' "${BATS_TEST_TMPDIR}/results.json"
  assert_success
  assert_output '[{"kind":"article","setup":"MongoDB 3.0.1, a laptop"},"","8.0.4"]'
}

@test "mongosh stage records keep 64-bit ids exact and turn BSON values into JSON" {
  load_framework
  pb::mongosh_stage --nodb "${DBA_LAB_ROOT}/tests/fixtures/playbooks/stage-records.js" runs=3 label=x
  run records 'select(.type == "measure") | [.key, .value]'
  assert_success
  assert_output $'["cursorId","8620417026431980160"]\n["small",42]\n["ratio",2.5]\n["when","2022-02-15T12:13:25.000Z"]'
  run records 'select(.type == "row") | .row // .values'
  assert_success
  assert_output $'{"run":"A","event":1,"seconds":12.5}\n["B",1,2]'
  run records 'select(.type == "note") | .text'
  assert_success
  assert_output '"params: {\"runs\":3,\"label\":\"x\"}"'
}

@test "a stage cannot write a verdict: verdicts come from the checker only" {
  load_framework
  printf '%s\n' "stage.verdict({ claim: 'c', holds: true });" >"${BATS_TEST_TMPDIR}/verdict.js"
  set -o pipefail  # as in every playbook: the runner pipes the output through tee
  run pb::mongosh_stage --nodb "${BATS_TEST_TMPDIR}/verdict.js"
  assert_failure
  run records 'select(.type == "verdict")'
  assert_success
  assert_output ''
}

@test "rows from JavaScript objects land in the declared column order" {
  load_framework
  pb::mongosh_stage --nodb "${DBA_LAB_ROOT}/tests/fixtures/playbooks/stage-records.js"
  pb::_results_json "done" >"${BATS_TEST_TMPDIR}/results.json"
  run jq -c '.tables.timeline | [.columns, (.rows | map(.values))]' "${BATS_TEST_TMPDIR}/results.json"
  assert_success
  assert_output '[["run","event","seconds"],[["A",1,12.5],["B",1,2]]]'
}

@test "pb::measure keeps numbers jq can hold exactly and strings the rest" {
  load_framework
  pb::measure a 12
  pb::measure b 1.5
  pb::measure c 8620417026431980160
  pb::measure d "12 ms"
  pb::measure e -3e2
  run records 'select(.type == "measure") | .value'
  assert_success
  assert_output $'12\n1.5\n"8620417026431980160"\n"12 ms"\n-300'
}

# A checker file (standard input) in the test's temporary scenario folder,
# with its predictions table: each claim ID given holds on every series.
# predict.js beside them answers predict(ID, VERSION, RESULTS) from that table.
write_checker() {
  local ids=("$@") rows=() id lib
  PB_SCENARIO="${BATS_TEST_TMPDIR}/scenario"
  mkdir -p "$PB_SCENARIO"
  cat >"${PB_SCENARIO}/checker.js"
  lib=$(jq -nc --arg f "${DBA_LAB_ROOT}/playbooks/lib/js/predictions.js" '$f')
  for id in "${ids[@]}"; do rows+=("$(jq -nc --arg id "$id" '$id'): { spans: [s] }"); done
  cat >"${PB_SCENARIO}/predictions.js" <<JS
const { table } = require(${lib});
const s = { from: '4.4', holds: true, reason: 'a test fixture', source: { ref: 'fixture', url: 'https://example.org/fixture', checked: true } };
module.exports = table({ scenario: 'test', claims: { $(IFS=,; printf '%s' "${rows[*]}") } });
JS
  printf 'const { predict } = require(%s);\nmodule.exports = (id, version, results) => predict(require("./predictions.js"), id, version, results);\n' "$lib" >"${PB_SCENARIO}/predict.js"
}

@test "pb::check appends one verdict record per verdict the checker returns" {
  load_framework
  write_checker ratio restart <<'JS'
const claims = [{ id: 'ratio', claim: 'B is 5x sooner', expected: '>= 5x' },
                { id: 'restart', claim: 'restart loses data', expected: 'documents gone' }];
module.exports = { claims, check: (r) => [
  { id: 'ratio', observed: `${r.measurements[0].value}x`, result: r.measurements[0].value >= 5 ? 'REPRODUCED' : 'NOT_REPRODUCED', version: '8.0.4', predicted: require('./predict.js')('ratio', '8.0.4', r) },
  { id: 'restart', observed: 'not restarted', result: 'NOT_APPLICABLE', why: '--uri target', version: 'all' },
] };
JS
  pb::measure ratio 6.2 x
  run pb::check
  assert_success
  assert_output --partial 'REPRODUCED, AS PREDICTED: B is 5x sooner [8.0.4] (expected >= 5x, observed 6.2x)'
  run records 'select(.type == "verdict") | [.id, .claim, .verdict, .expected, .observed, .reason, .version]'
  assert_success
  assert_output $'["ratio","B is 5x sooner","REPRODUCED",">= 5x","6.2x","","8.0.4"]\n["restart","restart loses data","NOT APPLICABLE","documents gone","not restarted","--uri target","all"]'
}

@test "a NOT APPLICABLE verdict line gives the reason and what was observed, with no empty expected/observed" {
  load_framework
  write_checker shard cpu <<'JS'
const claims = [{ id: 'shard', claim: 'capped collections cannot be sharded', expected: 'refused' },
                { id: 'cpu', claim: 'CPU grows', expected: 'rises' }];
module.exports = { claims, check: () => [
  { id: 'shard', observed: '', result: 'NOT_APPLICABLE', why: 'not a sharded cluster', version: '8.0.4' },
  { id: 'cpu', observed: 'linear: slope 3', result: 'NOT_APPLICABLE', why: 'needs at least 3 subscriber counts, had 2', version: '8.0.4' },
] };
JS
  run pb::check
  assert_success
  assert_line --partial 'NOT APPLICABLE: capped collections cannot be sharded [8.0.4]: not a sharded cluster'
  assert_line --partial 'NOT APPLICABLE: CPU grows [8.0.4]: needs at least 3 subscriber counts, had 2 (observed linear: slope 3)'
  refute_output --partial 'observed ;'
}

@test "a verdict line names FerretDB, not the MongoDB version it presents itself as" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::check
  PB_SERVER_INFO='{"version":"7.0.42","ferretdb":"v1.24.2","setName":null,"msg":null,"exists":false,"owner":null}'
  write_checker grow <<'JS'
const claims = [{ id: 'grow', claim: 'documents cannot grow', expected: 'allowed at FCV 7.0' }];
module.exports = { claims, check: (r) => [{ id: 'grow', observed: 'allowed', result: 'NOT_REPRODUCED', predicted: require('./predict.js')('grow', '7.0.42', r), version: '7.0.42' }] };
JS
  run pb::check
  assert_success
  assert_line --partial 'NOT REPRODUCED, NO PREDICTION: documents cannot grow [FerretDB v1.24.2] (expected allowed at FCV 7.0, observed allowed)'
  refute_output --partial '[7.0.42]'
  run records 'select(.type == "verdict") | .predictionBasis.none'
  assert_success
  assert_output '"no prediction for FerretDB v1.24.2"'
}

@test "a --uri server that is MongoDB gets the table's prediction" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::check
  PB_SERVER_INFO='{"version":"7.0.14","ferretdb":null,"setName":"rs","msg":null,"exists":false,"owner":null}'
  write_checker grow <<'JS'
const claims = [{ id: 'grow', claim: 'documents cannot grow', expected: 'refused' }];
module.exports = { claims, check: (r) => [{ id: 'grow', observed: 'refused', result: 'REPRODUCED', predicted: require('./predict.js')('grow', '7.0.14', r), version: '7.0.14' }] };
JS
  run pb::check
  assert_success
  assert_line --partial 'REPRODUCED, AS PREDICTED: documents cannot grow [7.0.14]'
}

@test "the closing summary counts both parts of the verdicts and says what the words mean" {
  load_framework
  pb::_record '{"type":"verdict","verdict":"NOT REPRODUCED","prediction":"AS PREDICTED"}'
  pb::_record '{"type":"verdict","verdict":"REPRODUCED","prediction":"NOT AS PREDICTED"}'
  pb::_record '{"type":"verdict","verdict":"NOT APPLICABLE","prediction":""}'
  run pb::summary 0
  assert_success
  assert_line --partial 'verdicts: 1 NOT APPLICABLE, 1 NOT REPRODUCED, 1 REPRODUCED; 1 AS PREDICTED, 1 NOT AS PREDICTED'
  assert_line --partial "REPRODUCED / NOT REPRODUCED: did the article's claim hold on this version; AS PREDICTED / NOT AS PREDICTED:"
}

@test "an interrupted report counts the time of the stage it stopped in" {
  load_framework
  pb::stage run 8.0.4
  # shellcheck disable=SC2034 # read by pb::_results_json: the stage began 11 s ago
  PB_STAGE_START=$((SECONDS - 11))
  run pb::_results_json interrupted
  assert_success
  run jq -r '.stages[-1] | "\(.name) \(.seconds)"' <<<"$output"
  assert_success
  assert_output 'run 11'
}

@test "results.json records the options the run ran with, for the report's opening line" {
  load_framework
  pb::option --subscribers SUBSCRIBERS intlist:1-2000 "1,10,40" "subscriber counts"
  # shellcheck disable=SC2034 # read by pb::_results_json
  SUBSCRIBERS=1,8
  run pb::_results_json "done"
  assert_success
  run jq -r '.params | "\(.scale) \(.subscribers)"' <<<"$output"
  assert_success
  assert_output 'small 1,8'
}

@test "pb::check gives the checker the measurements, tables, versions and params of results.json" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::check
  PB_SCALE_NAME=small
  # shellcheck disable=SC2034 # read by pb::check
  PB_SCALE["docs"]=10
  pb::option --load-seconds LOAD_SECONDS int 0 "seconds"
  # shellcheck disable=SC2034 # read by pb::check
  LOAD_SECONDS=30
  write_checker shape <<'JS'
const claims = [{ id: 'shape', claim: 'the input has the results shape', expected: 'all five parts' }];
module.exports = { claims, check: (r) => [{ id: 'shape', result: 'REPRODUCED', version: 'all', observed: JSON.stringify(r), predicted: require('./predict.js')('shape', 'all', r) }] };
JS
  pb::record_version 8.0 8.0.4 /bin 8.0.4
  # shellcheck disable=SC2034 # read by pb::measure and pb::row
  PB_VERSION=8.0.4
  pb::measure bytes 120 B
  pb::table sizes "Sizes" step docs
  pb::row sizes written 10
  pb::check
  run records 'select(.type == "verdict") | .observed | fromjson'
  assert_success
  assert_output '{"measurements":[{"version":"8.0.4","key":"bytes","value":120,"unit":"B"}],"tables":{"sizes":{"rows":[{"version":"8.0.4","values":["written",10]}],"title":"Sizes","columns":["step","docs"]}},"params":{"scale":"small","docs":10,"load-seconds":30},"server":null,"versions":[{"requested":"8.0","resolved":"8.0.4","server":"8.0.4"}]}'
}

@test "a checker that throws fails the report stage with one line naming the checker" {
  load_framework
  write_checker a <<'JS'
module.exports = { claims: [{ id: 'a', claim: 'c', expected: 'e' }], check() { throw new Error('no measurement bytes'); } };
JS
  run pb::check
  assert_failure
  assert_output --partial "checker ${BATS_TEST_TMPDIR}/scenario/checker.js: check() threw: no measurement bytes"
  run records 'select(.type == "verdict")'
  assert_success
  assert_output ''
}

@test "a malformed verdict fails the report stage and records nothing" {
  load_framework
  write_checker a <<'JS'
module.exports = { claims: [{ id: 'a', claim: 'c', expected: 'e' }],
  check: (r) => [{ id: 'a', observed: '1', result: 'REPRODUCED', version: 'all', predicted: require('./predict.js')('a', 'all', r) }, { id: 'a', observed: '2', result: 'MAYBE', version: 'all' }] };
JS
  run pb::check
  assert_failure
  assert_output --partial "checker.js: verdict 2 (a): result must be REPRODUCED, NOT_REPRODUCED, NOT_APPLICABLE, got 'MAYBE'"
  run records 'select(.type == "verdict")'
  assert_success
  assert_output ''
}

@test "a scenario without checker.js is a playbook bug" {
  load_framework
  PB_SCENARIO="${BATS_TEST_TMPDIR}/nowhere"
  run pb::check
  assert_failure
  assert_output --partial 'playbook bug: no checker'
}

@test "verdicts with a | in their text keep the markdown table intact" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  load_framework
  write_checker a <<'JS'
module.exports = { claims: [{ id: 'a', claim: 'a | b', expected: 'x' }], check: (r) => [{ id: 'a', observed: 'y', result: 'REPRODUCED', version: 'all', predicted: require('./predict.js')('a', 'all', r) }] };
JS
  pb::check
  run jq -s '{verdicts: map(select(.type == "verdict"))}' "$PB_RECORDS"
  assert_success
  run jq -r 'def cell: tostring | gsub("\\|"; "\\|"); .verdicts[0].claim | cell' <<<"$output"
  assert_success
  assert_output 'a \| b'
}

@test "log excerpts: matching lines of a plain or gzip log, at most --max" {
  load_framework
  printf 'a 1\nSH_REFR x\nb\nSH_REFR y\nSH_REFR z\n' >"${BATS_TEST_TMPDIR}/mongod.log"
  gzip -k "${BATS_TEST_TMPDIR}/mongod.log"
  pb::excerpt refresh "${BATS_TEST_TMPDIR}/mongod.log.gz" --grep SH_REFR --max 2 --note "refreshes"
  run cat "${PB_WORK}/logs/refresh"
  assert_success
  assert_output $'SH_REFR x\nSH_REFR y'
  run records 'select(.type == "excerpt") | [.name, .lines, .file, .note]'
  assert_success
  assert_output '["refresh",2,"logs/refresh","refreshes"]'
}

@test "in a dry run pb::check lists the claims to be checked and decides nothing" {
  load_framework
  write_checker ratio <<'JS'
module.exports = { claims: [{ id: 'ratio', claim: 'B is 5x sooner', expected: '>= 5x' }], check() { throw new Error('never called'); } };
JS
  # shellcheck disable=SC2034 # read by pb::check
  PB_DRY_RUN=1
  run pb::check
  assert_success
  assert_output --partial 'to be checked: B is 5x sooner (expected >= 5x)'
  run records 'select(.type == "verdict")'
  assert_success
  assert_output ''
}

@test "in a dry run a claim that declares its evidence says what it needs" {
  load_framework
  write_checker cpu <<'JS'
module.exports = { claims: [{ id: 'cpu', claim: 'CPU grows', expected: 'rises', needs: { minPoints: 3, pointsOf: 'subscriber counts' } }], check() { throw new Error('never called'); } };
JS
  # shellcheck disable=SC2034 # read by pb::check
  PB_DRY_RUN=1
  run pb::check
  assert_success
  assert_output --partial 'to be checked: CPU grows (expected rises; needs at least 3 subscriber counts)'
}

@test "pb::run_timed gives wall, user and system seconds of the command" {
  load_framework
  local t=''
  # shellcheck disable=SC2016 # the loop is for sh, not this shell
  pb::run_timed t sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
  run awk -v t="$t" 'BEGIN { split(t, a, " "); exit !(a[1] > 0 && a[2] > 0 && a[2] + a[3] <= a[1] + 0.5) }'
  assert_success
  run grep -F "\$ sh -c" "$PB_LOG"
  assert_success
}

@test "a stage parameter that is not KEY=VALUE stops the run itself, not only a subshell" {
  load_framework
  # shellcheck disable=SC2034 # read by pb::mongosh_stage
  PB_CONN_URI=mongodb://localhost:1/
  run pb::mongosh_stage "${DBA_LAB_ROOT}/tests/fixtures/playbooks/demo-lab/run.js" docs=1 junk
  assert_failure
  assert_output --partial "pb::mongosh_stage ${DBA_LAB_ROOT}/tests/fixtures/playbooks/demo-lab/run.js: stage parameter 'junk' is not KEY=VALUE"
  refute_output --partial '$ mongosh'
}
