#!/usr/bin/env bats
# array-push-oplog: the curve classification, the device-hour arithmetic, the
# verdicts and the lag reading (playbooks/lib/scenarios/array-push-oplog/model.js)
# on recorded numbers, no server. The sizes are oplog entries written from the
# FACTS.md "Oplog update entries" table and sized with mongosh's bsonsize
# (tests/fixtures/array-push-oplog/facts-entries.js -> facts-sizes.json).

setup() {
  load test_helper
  FIX="${DBA_LAB_ROOT}/tests/fixtures/array-push-oplog"
  MODEL="${DBA_LAB_ROOT}/playbooks/lib/scenarios/array-push-oplog/model.js"
}

# model JS-EXPRESSION: prints the expression's JSON; `m` is model.js, `f` the sizes.
model() {
  node -e "const m = require('${MODEL}'); const f = require('${FIX}/facts-sizes.json');
    const st = (v) => require('${FIX}/status-' + v + '.json');
    console.log(JSON.stringify($1))"
}

@test "the recorded sizes are what mongosh's bsonsize gives for the FACTS table's entries" {
  run mongosh --nodb --quiet --norc "${FIX}/facts-entries.js"
  assert_success
  assert_equal "$(jq -S . <<<"$output")" "$(jq -S . "${FIX}/facts-sizes.json")"
}

@test "a plain \$push (\$v:1 positional \$set, \$v:2 array diff) is flat: constant bytes at any length" {
  run model "['v1', 'v2'].map((v) => m.classify(f[v].push).kind)"
  assert_output '["flat","flat"]'
  run model "['v1', 'v2'].map((v) => m.classify(f[v]['set-one']).kind)"
  assert_output '["flat","flat"]'
}

@test "whole-array entries (\$slice, \$sort, \$position, \$addToSet, \$pull, \$pop) are linear in both formats" {
  run model "['v1', 'v2'].map((v) => ['push-slice', 'push-sort', 'push-position0', 'addtoset', 'pull', 'pop-first', 'pop-last'].map((p) => m.classify(f[v][p]).kind).join(' '))"
  assert_output '["linear linear linear linear linear linear linear","linear linear linear linear linear linear linear"]'
}

@test "a whole-array entry grows by one reading's bytes (~98, seed 001's ~100) per element" {
  run model "Math.round(m.classify(f.v2['push-sort']).slope)"
  assert_output '98'
}

@test "a device-hour adds up the measured bytes at every length 0..3599" {
  run model "[m.hourBytes([{length: 1, bytes: 100}, {length: 3599, bytes: 100}]),
              m.hourBytes([{length: 0, bytes: 100}, {length: 3600, bytes: 3700}])]"
  # 3600 x 100; and sum of (100 + L) for L = 0..3599 = 360000 + 3599 x 3600 / 2
  assert_output '[360000,6838200]'
}

@test "verdicts on \$v:2 sizes: plain \$push NOT, \$slice REPRODUCED, the fix over 100x" {
  run model "m.verdicts(f.v2, f.fix).map((v) => [v.holds, v.observed])"
  assert_output '[[false,"flat: 443 B at 1 readings, 446 B at 3599"],[true,"linear: 445 B at 1 readings, 343.7 KB at 3599"],[true,"265.3x (push-sort: 603.7 MB vs per-second: 2.3 MB per device-hour)"]]'
}

@test "seed 001's 2.2 behaviour (every \$push logged whole) makes the plain \$push claim REPRODUCED" {
  run model "m.verdicts(f.article22, f.fix).map((v) => v.holds)"
  assert_output '[true,true,true]'
  run model "m.verdicts(f.article22, f.fix)[2].wholeArrayPattern"
  assert_output '"push"'
}

@test "the fix verdict needs a whole-array append pattern: NOT APPLICABLE when every one is flat" {
  run model "m.verdicts({push: f.v2.push, 'set-one': f.v2['set-one']}, f.fix)[2]"
  assert_output --partial '"holds":null'
  assert_output --partial 'no measured append pattern replicated the whole array on this version'
}

@test "a ratio under 100x is NOT REPRODUCED: the verdict follows the numbers" {
  run model "m.verdicts(f.v2, {...f.fix, compactionDeleteBytes: 5e6})[2].holds"
  assert_output 'false'
}

@test "scattered sizes are irregular and give NOT APPLICABLE, not a guess" {
  run model "m.verdicts({push: [{length: 1, bytes: 400}, {length: 600, bytes: 9000}, {length: 1200, bytes: 300}, {length: 1800, bytes: 8000}]}, null)[0]"
  assert_output --partial '"holds":null'
  assert_output --partial 'neither stay flat nor grow'
}

@test "the hour table: ratios to the fix; the load's worst/best are ways to ingest, capped \$slice left out" {
  run model "(({rows, worst, best}) => [worst, best, rows.find((r) => r.pattern === 'push').vsFix])(m.hourTable(f.v2, f.fix))"
  assert_output '["push-sort","push",0.67]'
}

@test "lag on 4.4: optimeDate, whole seconds, per secondary" {
  run model "m.lagFromStatus(st('4.4'))"
  assert_output '{"primary":"localhost:27100","members":[{"name":"localhost:27101","state":"SECONDARY","lagMs":3000,"source":"optimeDate"},{"name":"localhost:27102","state":"SECONDARY","lagMs":0,"source":"optimeDate"}]}'
}

@test "lag where members carry lastAppliedWallTime: milliseconds" {
  run model "m.lagFromStatus(st('8.0')).members.map((x) => [x.lagMs, x.source])"
  assert_output '[[0,"lastAppliedWallTime"],[1247,"lastAppliedWallTime"]]'
}

# The last case keeps member 2's heartbeat-stale optime: wall times decide where reported.
@test "caught up only when every secondary has applied the primary's newest write" {
  run model "((p4, p8) => [m.caughtUp(st('4.4')), m.caughtUp(st('8.0')),
              m.caughtUp({members: st('4.4').members.map((x) => ({...x, optime: p4.optime}))}),
              m.caughtUp({members: st('8.0').members.map((x) => ({...x, lastAppliedWallTime: p8.lastAppliedWallTime}))})])(st('4.4').members[0], st('8.0').members[0])"
  assert_output '[false,false,true,true]'
}

@test "no primary in the status is an error that says so" {
  run model "m.lagFromStatus({members: [{name: 'a', state: 2}]})"
  assert_failure
  assert_output --partial 'replSetGetStatus shows no primary'
}

@test "versions compared on the FACTS sizes: \$v:1 and \$v:2 log the same patterns whole" {
  run model "((kinds) => m.compareVersions(kinds).holds)(['v1', 'v2'].flatMap((v) => Object.entries(f[v]).map(([p, pts]) => ({version: v, key: 'kind.' + p, value: m.classify(pts).kind}))))"
  assert_output 'true'
}

@test "versions compared: 2.2's whole-array \$push differs from a modern \$v:2 server" {
  run model "((kinds) => m.compareVersions(kinds))(['article22', 'v2'].flatMap((v) => Object.entries(f[v]).map(([p, pts]) => ({version: v, key: 'kind.' + p, value: m.classify(pts).kind}))))"
  assert_output --partial '"holds":false'
  assert_output --partial '"observed":"article22: push, push-slice; v2: push-slice"'
}

@test "the compaction's deletes are told apart from their oplog entries (batched applyOps from 6.1)" {
  run model "[m.deletesText(3600, 3600, 430000), m.deletesText(3600, 4, 300000)]"
  assert_success
  assert_output --regexp '^\["3600 deletes \(3600 entries\) [^"]+","3600 deletes \(4 entries\) [^"]+: batched, several deletes per applyOps entry \(6\.1\+\)"\]$'
}
