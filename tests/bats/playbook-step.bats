#!/usr/bin/env bats
# --step (playbooks/lib/playbook.sh) and terminal-only behaviour (log.sh):
# narration before each stage, a wait for Enter only on a terminal, colour
# only on a terminal and never with NO_COLOR. `script` provides the terminal.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
}

teardown() {
  if [[ -n "${SCRIPT_PID:-}" ]]; then
    kill "$SCRIPT_PID" 2>/dev/null || true
    wait "$SCRIPT_PID" 2>/dev/null || true
  fi
}

on_terminal() {
  command -v script >/dev/null || skip "script(1) is needed to give the playbook a terminal"
  script -qec "$(printf '%q ' "$@")" /dev/null
}

@test "--step without a terminal narrates each stage and goes on without waiting" {
  run timeout 60 "$DEMO" --topology none --step --report-dir "$REPORT" </dev/null
  assert_success
  assert_line '  | Prepare writes the documents the run will count.'
  assert_line '  | Run counts them and compares with what was written.'
  assert_line '  (--step: no terminal to wait on, continuing)'
}

@test "without --step there is no narration" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  refute_output --partial 'Prepare writes the documents'
}

@test "--step on a terminal waits for Enter before the stage" {
  command -v script >/dev/null || skip "script(1) is needed to give the playbook a terminal"
  mkfifo "${BATS_TEST_TMPDIR}/keys"
  script -qec "$(printf '%q ' "$DEMO" --topology none --step --report-dir "$REPORT")" /dev/null \
    <"${BATS_TEST_TMPDIR}/keys" >"${BATS_TEST_TMPDIR}/out" 2>&1 &
  SCRIPT_PID=$!
  exec {keys}>"${BATS_TEST_TMPDIR}/keys"
  local _
  for _ in $(seq 300); do
    grep -q 'Press Enter to continue' "${BATS_TEST_TMPDIR}/out" && break
    sleep 0.1
  done
  run grep -c 'Press Enter to continue' "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_output 1
  sleep 1
  # Still at the prepare narration: the run stage has not started.
  run grep -c '==> run' "${BATS_TEST_TMPDIR}/out"
  [ "$status" -eq 1 ]  # grep -c: no line matched
  assert_output 0
  printf '\n\n' >&"$keys"
  exec {keys}>&-
  for _ in $(seq 600); do
    kill -0 "$SCRIPT_PID" 2>/dev/null || break
    sleep 0.1
  done
  wait "$SCRIPT_PID"
  SCRIPT_PID=''
  run grep -c '==> run' "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_output 1
}

@test "colour on a terminal, none with NO_COLOR, none in a pipe" {
  run on_terminal "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  assert_output --partial $'\e[1m\e[34m==> preflight'
  run on_terminal env NO_COLOR=1 "$DEMO" --topology none --report-dir "${REPORT}2"
  assert_success
  refute_output --partial $'\e['
  run "$DEMO" --topology none --report-dir "${REPORT}3"
  assert_success
  refute_output --partial $'\e['
}

@test "stage headers carry the elapsed time and the UTC clock" {
  run "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  assert_line --regexp '^==> preflight  \+00:0[0-9]  [0-9]{2}:[0-9]{2}:[0-9]{2}Z$'
  assert_line --regexp '^[0-9]{2}:[0-9]{2}:[0-9]{2} stages: preflight [0-9]+s, launch [0-9]+s, prepare [0-9]+s, run [0-9]+s, analyze [0-9]+s, report [0-9]+s$'
}
