#!/usr/bin/env bats
# --step (playbooks/lib/playbook.sh) and terminal-only behaviour (log.sh,
# run.sh): narration before each stage, reflowed to the width; a wait for
# Enter read from the keyboard (/dev/tty), also when the output is piped;
# the ticker with the command's own progress line; short commands on a
# terminal; colour only on a terminal and never with NO_COLOR. `script`
# provides the terminal, `setsid` takes it away.

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
  # No keys: a pause reads end-of-file and goes on.
  script -qec "$(printf '%q ' "$@")" /dev/null </dev/null
}

# without_terminal CMD...: CMD in a session of its own, so /dev/tty cannot be
# opened even when the tests run from a terminal (and no COLUMNS of the
# tester's to change the width).
without_terminal() {
  command -v setsid >/dev/null || skip "setsid(1) is needed to take the terminal away"
  env -u COLUMNS setsid -w "$@" </dev/null
}

# step_on_terminal SHELL-COMMAND: runs it under `script` in the background,
# with the keys sent through a fifo (fd $keys) and the screen in $OUT.
step_on_terminal() {
  command -v script >/dev/null || skip "script(1) is needed to give the playbook a terminal"
  OUT="${BATS_TEST_TMPDIR}/out"
  mkfifo "${BATS_TEST_TMPDIR}/keys"
  script -qec "$1" /dev/null <"${BATS_TEST_TMPDIR}/keys" >"$OUT" 2>&1 &
  SCRIPT_PID=$!
  exec {keys}>"${BATS_TEST_TMPDIR}/keys"
}

# wait_for_screen TEXT: until TEXT is on the screen (30 s at most).
wait_for_screen() {
  local _
  for _ in $(seq 300); do
    grep -qF -- "$1" "$OUT" && return 0
    sleep 0.1
  done
  return 1
}

# finish_script: Enter for every pause, then the playbook's end (60 s at
# most: a pause still waiting fails the test, teardown stops it).
finish_script() {
  local _
  printf '\n\n\n\n\n' >&"$keys"
  exec {keys}>&-
  for _ in $(seq 600); do
    kill -0 "$SCRIPT_PID" 2>/dev/null || break
    sleep 0.1
  done
  ! kill -0 "$SCRIPT_PID" 2>/dev/null || return 1
  wait "$SCRIPT_PID"
  SCRIPT_PID=''
}

@test "--step without a terminal narrates each stage and goes on without waiting" {
  run without_terminal timeout 60 "$DEMO" --topology none --step --report-dir "$REPORT"
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
  step_on_terminal "$(printf '%q ' "$DEMO" --topology none --step --report-dir "$REPORT")"
  wait_for_screen 'Press Enter to continue'
  run grep -c 'Press Enter to continue' "$OUT"
  assert_success
  assert_output 1
  sleep 1
  # Still at the prepare narration: the run stage has not started.
  run grep -c '==> run' "$OUT"
  [ "$status" -eq 1 ]  # grep -c: no line matched
  assert_output 0
  finish_script
  run grep -c '==> run' "$OUT"
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

@test "--step piped through tee still waits for Enter, read from the terminal" {
  step_on_terminal "$(printf '%q ' "$DEMO" --topology none --step --report-dir "$REPORT") </dev/null | cat"
  wait_for_screen 'Press Enter to continue'
  sleep 1
  # Still at the prepare narration: the run stage has not started.
  run grep -c '==> run' "$OUT"
  [ "$status" -eq 1 ]  # grep -c: no line matched
  assert_output 0
  refute_output --partial 'no terminal to wait on'
  finish_script
  run grep -c '==> run' "$OUT"
  assert_success
  assert_output 1
}

@test "narration in a pipe is reflowed to 76 columns: hand-wrapped lines joined, paragraphs kept" {
  run without_terminal "$DEMO" --topology none --step --report-dir "$REPORT"
  assert_success
  assert_line '  | Analyze draws the chart of documents by step: written and counted should be'
  assert_line '  | the same number. A long name stays whole:'
  assert_line '  |'
  assert_line '  | A second paragraph starts after the blank line.'
}

@test "narration never breaks inside a word, even one longer than the line" {
  run without_terminal "$DEMO" --topology none --step --report-dir "$REPORT"
  assert_success
  assert_line '  | playbooks/lib/scenarios/demo-lab/a-very-long-file-name-that-no-terminal-line-can-hold-whole.js'
}

@test "narration on a terminal takes the terminal's width" {
  step_on_terminal "$(printf '%q ' env COLUMNS=50 "$DEMO" --topology none --step --report-dir "$REPORT")"
  finish_script
  run cat "$OUT"
  assert_success
  assert_line --partial '  | Analyze draws the chart of documents by step:'
  assert_line --regexp '^  \| written and counted should be the same number\.'
}

@test "in --uri mode a stage's --uri narration replaces its narration" {
  load_framework
  pb::narration run <<<'Every node is stopped and started.'
  pb::narration run uri <<<'Nothing is restarted: this run did not launch the deployment.'
  PB_TOPOLOGY=uri run pb::narration_text run
  assert_success
  assert_output 'Nothing is restarted: this run did not launch the deployment.'
}

@test "outside --uri mode a stage's --uri narration is not shown" {
  load_framework
  pb::narration run <<<'Every node is stopped and started.'
  pb::narration run uri <<<'Nothing is restarted: this run did not launch the deployment.'
  PB_TOPOLOGY=replset run pb::narration_text run
  assert_success
  assert_output 'Every node is stopped and started.'
}

@test "on a terminal the ticker shows the stage's own latest progress line" {
  run on_terminal "$DEMO" --topology none --count-to 3 --report-dir "$REPORT"
  assert_success
  assert_output --regexp $'\r\e\\[K  counting to 3 \\.\\.\\. 00:0[0-9]  counted: 2 of 3 \\(66%\\)'
}

@test "off a terminal the still-running line carries the latest progress line" {
  run without_terminal env PB_PROGRESS_EVERY=1 "$DEMO" --topology none --count-to 3 --report-dir "$REPORT"
  assert_success
  assert_line --regexp '^  counting to 3: still running \(00:0[0-9]\), last progress: counted: [12] of 3 \([0-9]+%\)$'
}

@test "the ticker shows no progress line from an earlier command" {
  load_framework
  PB_LOG="${BATS_TEST_TMPDIR}/run.log"
  printf 'progress: from the command before\n' >"$PB_LOG"
  PB_PROGRESS_EVERY=1 run pb::run --progress "quiet one" sleep 2
  assert_success
  assert_line --regexp '^  quiet one: still running \(00:0[0-9]\)$'
}

@test "on a terminal a long command is shown short, ending with where the full one is" {
  run on_terminal env COLUMNS=100 "$DEMO" --topology none --count-to 1 --report-dir "$REPORT"
  assert_success
  assert_output --regexp '\$ mongosh .*js/stage\.js tests/fixtures/playbooks/demo-lab/count\.js \(full command: run\.log\)'
  refute_output --partial 'globalThis.dbaLabStage'
}

@test "the run log keeps the whole command a terminal saw short" {
  run on_terminal env COLUMNS=100 "$DEMO" --topology none --count-to 1 --report-dir "$REPORT"
  assert_success
  run grep -c '\$ mongosh --nodb --quiet --norc --eval .globalThis.dbaLabStage = {.*/count.js$' "${REPORT}/run.log"
  assert_success
  assert_output 1
}

@test "with --step a piped run shows commands short too" {
  run without_terminal "$DEMO" --topology none --count-to 1 --step --report-dir "$REPORT"
  assert_success
  assert_line --regexp '^\$ mongosh .* \(full command: run\.log\)$'
}

@test "a piped run without --step shows every command whole" {
  run without_terminal "$DEMO" --topology none --count-to 1 --report-dir "$REPORT"
  assert_success
  assert_line --regexp '^\$ mongosh --nodb --quiet --norc --eval .globalThis\.dbaLabStage = .*/count\.js$'
}

@test "a uri argument is shown as <uri> in the short form" {
  load_framework
  PB_STEP=1 run pb::show_cmd mongosh 'mongodb://alice:secret@db1.example.net:27017/?replicaSet=rs0' --quiet --eval "$(printf 'x%.0s' {1..300})"
  assert_success
  assert_output '$ mongosh <uri> --quiet --eval … (full command: run.log)'
}

@test "a short form past two screen lines loses arguments from the middle, never the script or a <uri>" {
  load_framework
  COLUMNS=60 PB_STEP=1 run pb::show_cmd node "${PB_LIB}/scenarios/capped-pubsub/run.js" --uri mongodb://h:1/ \
    --db dbalab_capped-pubsub --collection ticker --mode capped --subscribers 10 --rate 100 --seconds 15 \
    --out "${PB_ROOT}/reports/capped-pubsub/capped-10.json"
  assert_success
  assert_output '$ node scenarios/capped-pubsub/run.js --uri <uri> … --out reports/capped-pubsub/capped-10.json (full command: run.log)'
}

@test "mlaunch init shown short keeps the server settings at its end" {
  load_framework
  COLUMNS=80 PB_STEP=1 run pb::show_cmd mlaunch init --replicaset --nodes 1 --name replset --port 27100 \
    --dir "${PB_ROOT}/data/change-stream-resume-20261125T235502Z/8.0.4" --binarypath "${PB_ROOT}/.tools/m/versions/8.0.4/bin" \
    --oplogSize 1986 --wiredTigerCacheSizeGB 0.25 --slowms 0
  assert_success
  assert_output '$ mlaunch init --replicaset --nodes 1 --name replset … --oplogSize 1986 --wiredTigerCacheSizeGB 0.25 --slowms 0 (full command: run.log)'
}

@test "capped-pubsub's run narration in --uri mode stops and starts nothing" {
  load_playbook capped-pubsub
  PB_TOPOLOGY=uri run pb::narration_text run
  assert_success
  refute_output --regexp 'stopped[[:space:]]+and started'
  assert_output --regexp 'Nothing is stopped[[:space:]]+or restarted'
}

@test "capped-pubsub's run narration on a launched cluster names the stop and start" {
  load_playbook capped-pubsub
  PB_TOPOLOGY=replset run pb::narration_text run
  assert_success
  assert_output --regexp 'every node is stopped[[:space:]]+and started'
}
