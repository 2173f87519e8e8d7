#!/usr/bin/env bats
# The runner's summary counts: tests/lib/tap-count reads TAP from each suite
# (bats, the mongosh harness, node --test, pytest-tap), tests/lib/tap-failures
# shows what failed.

setup() {
  load test_helper
  FIX="${DBA_LAB_ROOT}/tests/fixtures/tap"
}

count() {
  printf '%b' "$1" | "${DBA_LAB_ROOT}/tests/lib/tap-count"
}

count_failures() {
  printf '%b' "$1" | "${DBA_LAB_ROOT}/tests/lib/tap-failures"
}

@test "passing, failing and skipped results are counted apart" {
  run count '1..4\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no server\nok 4 - d\n'
  assert_success
  assert_output "2 1 1"
}

@test "results missing from the plan count as failed" {
  run count '1..5\nok 1 - a\nok 2 - b\n'
  assert_success
  assert_output "2 3 0"
}

@test "a plan at the end, as node prints it, is checked the same way" {
  run count 'ok 1 - a\n1..2\n'
  assert_success
  assert_output "1 1 0"
}

@test "comment lines are not results" {
  run count '1..1\n# ok this is a comment\n# not ok 2 - neither is this\nok 1 - a\n'
  assert_success
  assert_output "1 0 0"
}

@test "no TAP at all counts nothing" {
  run count 'Segmentation fault\n'
  assert_success
  assert_output "0 0 0"
}

@test "Bail out! is a failure" {
  run count 'ok 1 - a\nBail out! cannot reach the server\n'
  assert_success
  assert_output "1 1 0"
}

@test "a failing TODO result is not a failure: it counts as skipped" {
  run count '1..2\nnot ok 1 - later # TODO not written\nok 2 - a\n'
  assert_success
  assert_output "1 0 1"
}

@test "indented results under a parent count once each, and the parent not again" {
  run count '    ok 1 - leaf a\n    not ok 2 - leaf b\n    1..2\nnot ok 1 - suite\n1..1\n'
  assert_success
  assert_output "1 1 0"
}

@test "a parent that fails while all its leaves pass (a failing hook) is one failure" {
  run count '    ok 1 - leaf\n    1..1\nnot ok 1 - suite\n1..1\n'
  assert_success
  assert_output "1 1 0"
}

@test "TAP-like lines inside a YAML diagnostic block are not results" {
  run count 'not ok 1 - a\n  ---\n  error: |-\n    ok 1 - inside the message\n    not ok 2 - this too\n  ...\nok 2 - b\n1..2\n'
  assert_success
  assert_output "1 1 0"
}

@test "node --test TAP: each leaf once, a failing hook once, skip and todo as skipped" {
  run "${DBA_LAB_ROOT}/tests/lib/tap-count" <"${FIX}/node-20.tap"
  assert_success
  assert_output "6 3 2"
}

@test "node --test TAP cut off before its plan counts what arrived" {
  run bash -c "head -n 60 '${FIX}/node-20.tap' | '${DBA_LAB_ROOT}/tests/lib/tap-count'"
  assert_success
  assert_output "2 1 2"
}

@test "pytest-tap TAP: an expected failure is a TODO, counted as skipped" {
  run "${DBA_LAB_ROOT}/tests/lib/tap-count" <"${FIX}/pytest-tap.tap"
  assert_success
  assert_output "4 1 2"
}

@test "tap-failures shows a failing leaf with its YAML block and no passing test" {
  run "${DBA_LAB_ROOT}/tests/lib/tap-failures" <"${FIX}/node-20.tap"
  assert_success
  assert_line "    not ok 2 - leaf failure with TAP-like lines in its message"
  assert_line "  error: 'hook failed'"
  refute_line --partial "ok 1 - top-level pass"
  refute_line --partial "# TODO"
}

@test "tap-failures shows the # diagnostics of a flat failure and stops at the next result" {
  run count_failures '1..3\nok 1 - a\nnot ok 2 - b\n# (in test file x.bats, line 3)\n#   (false) failed\nok 3 - c\n# after c\n'
  assert_success
  assert_output $'not ok 2 - b\n# (in test file x.bats, line 3)\n#   (false) failed'
}
