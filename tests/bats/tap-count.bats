#!/usr/bin/env bats
# The runner's summary counts: tests/lib/tap-count reads TAP from each suite.

setup() {
  load test_helper
}

count() {
  printf '%b' "$1" | "${DBA_LAB_ROOT}/tests/lib/tap-count"
}

@test "passing, failing and skipped results are counted apart" {
  run count '1..4\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no server\nok 4 - d\n'
  assert_success
  assert_output "2 1 1"
}

@test "results missing from the plan count as failed" {
  run count '1..5\nok 1 - a\nok 2 - b\n'
  assert_output "2 3 0"
}

@test "diagnostic and indented subtest lines are not counted" {
  run count '1..1\n# ok this is a comment\n    not ok 1 - a subtest line\nok 1 - a\n'
  assert_output "1 0 0"
}

@test "no TAP at all counts nothing" {
  run count 'Segmentation fault\n'
  assert_output "0 0 0"
}
