#!/usr/bin/env bats
# playbooks/lib/js/stats.js: the numbers behind the playbooks' tables and verdicts.

setup() {
  load test_helper
}

js() {
  node -e "const s = require('${DBA_LAB_ROOT}/playbooks/lib/js/stats.js'); console.log(JSON.stringify($1))"
}

@test "percentiles interpolate between ranks" {
  run js "[s.percentile([1, 2, 3, 4], 50), s.percentile([10, 20, 30, 40, 50], 75), s.percentile([5], 99)]"
  assert_output "[2.5,40,5]"
}

@test "the summary has the article's latency columns" {
  run js "s.summary([4, 1, 3, 2])"
  assert_output '{"n":4,"mean":2.5,"stddev":1.2909944487358056,"min":1,"p50":2.5,"p75":3.25,"p95":3.8499999999999996,"p99":3.9699999999999998,"max":4}'
}

@test "a least-squares fit finds the slope of a line" {
  run js "s.linearFit([1, 2, 3, 4], [3, 5, 7, 9])"
  assert_output '{"slope":2,"intercept":1,"r2":1,"n":4}'
}

@test "constant sizes classify as flat" {
  run js "s.growth([100, 900, 1800, 3600], [211, 212, 212, 213]).kind"
  assert_output '"flat"'
}

@test "sizes growing with the array length classify as linear" {
  run js "s.growth([100, 900, 1800, 3600], [1200, 9200, 18200, 36200]).kind"
  assert_output '"linear"'
}

@test "scattered points classify as irregular" {
  run js "s.growth([1, 2, 3, 4, 5], [10, 90, 5, 80, 12]).kind"
  assert_output '"irregular"'
}

@test "bad input is an Error that names the function" {
  run js "s.mean([])"
  assert_failure
  assert_output --partial "stats.mean: needs a non-empty array of numbers"
  run js "s.linearFit([1, 1], [2, 3])"
  assert_failure
  assert_output --partial "stats.linearFit: every x is the same"
}

@test "the summary of a million latencies stays within the call stack and agrees with percentile" {
  run js "(() => { const v = Array.from({length: 1000000}, (_, i) => (i * 7919) % 1000003 / 1000); const a = s.summary(v); return [a.n, a.min, a.max, a.p99 === s.percentile(v, 99), a.p75 === s.percentile(v, 75)]; })()"
  assert_success
  assert_output '[1000000,0,1000.002,true,true]'
}
