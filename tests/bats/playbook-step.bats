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
  # No keys: a pause reads end-of-file and goes on. script(1) runs the
  # command with $SHELL, /bin/sh on CI, which cannot read bash's $'...'
  # quoting that printf %q writes for a newline; and it sets TERM=dumb
  # where the tests run without one: the terminal of a user's emulator.
  SHELL=$BASH TERM=xterm script -qec "$(printf '%q ' "$@")" /dev/null </dev/null
}

# without_terminal CMD...: CMD in a session of its own, so /dev/tty cannot be
# opened even when the tests run from a terminal (and no COLUMNS of the
# tester's to change the width).
without_terminal() {
  command -v setsid >/dev/null || skip "setsid(1) is needed to take the terminal away"
  env -u COLUMNS setsid -w "$@" </dev/null
}

# framework_on_terminal COLUMNS CODE: CODE run by bash on a terminal COLUMNS
# wide, with the framework sourced, its run log and temporary files in the
# test's folder.
framework_on_terminal() {
  # shellcheck disable=SC2016 # expanded by the bash on the terminal
  on_terminal env COLUMNS="$1" bash -c 'source "$1/playbooks/lib/playbook.sh"
    PB_WORK=$2 PB_LOG=$2/run.log PB_STEP=0 PB_DRY_RUN=0
    pb::log_init
    eval "$3"' _ "$DBA_LAB_ROOT" "$BATS_TEST_TMPDIR" "$2"
}

# screen_lines: $output as the lines a terminal shows: a ticker's redraws
# (\r, \e[K) each a line of its own, colour codes and "\r\n" gone.
screen_lines() {
  printf '%s\n' "$output" | sed -e $'s/\r$//' -e $'s/\e\\[[0-9;]*[mK]//g' | tr '\r' '\n'
}

# assert_fits COLUMNS: every line of screen_lines is at most COLUMNS wide,
# but for a single word longer than that ("…" counted as one column).
assert_fits() {
  local line wide=''
  while IFS= read -r line; do
    line=${line//…/.}
    if ((${#line} > $1)) && [[ "${line#"${line%%[! |]*}"}" == *' '* ]]; then wide+="${line}"$'\n'; fi
  done < <(screen_lines)
  [[ -z "$wide" ]] || { printf 'wider than %s columns:\n%s' "$1" "$wide" >&2; return 1; }
}

# step_on_terminal SHELL-COMMAND: runs it under `script` in the background,
# with the keys sent through a fifo (fd $keys) and the screen in $OUT.
step_on_terminal() {
  command -v script >/dev/null || skip "script(1) is needed to give the playbook a terminal"
  OUT="${BATS_TEST_TMPDIR}/out"
  mkfifo "${BATS_TEST_TMPDIR}/keys"
  SHELL=$BASH TERM=xterm script -qec "$1" /dev/null <"${BATS_TEST_TMPDIR}/keys" >"$OUT" 2>&1 &
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
  assert_output --regexp '\$ mongosh .* tests/fixtures/playbooks/demo-lab/count\.js \(full command: run\.log\)'
  refute_output --partial 'globalThis.dbaLabStage'
}

@test "the run log keeps the whole command a terminal saw short" {
  run on_terminal env COLUMNS=100 "$DEMO" --topology none --count-to 1 --report-dir "$REPORT"
  assert_success
  run grep -c '\$ mongosh --nodb --quiet --norc --eval .globalThis.dbaLabStage = {.*/count\.js'"'"'\?$' "${REPORT}/run.log"
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
  assert_line --regexp '^\$ mongosh --nodb --quiet --norc --eval .globalThis\.dbaLabStage = .*/count\.js'"'"'?$'
}

@test "a uri argument is shown as <uri> in the short form" {
  load_framework
  PB_STEP=1 run pb::show_cmd mongosh 'mongodb://alice:secret@db1.example.net:27017/?replicaSet=rs0' --quiet --eval "$(printf 'x%.0s' {1..300})"
  assert_success
  assert_output '$ mongosh <uri> --quiet --eval … (full command: run.log)'
}

@test "a short form fits one screen line: arguments go from the middle, a flag with its value, never the script or a <uri>" {
  load_framework
  COLUMNS=80 PB_STEP=1 run pb::show_cmd node "${PB_LIB}/scenarios/capped-pubsub/run.js" --uri mongodb://h:1/ \
    --db dbalab_capped-pubsub --collection ticker --mode capped --subscribers 10 --rate 100 --seconds 15 \
    --out "${PB_ROOT}/reports/capped-pubsub/capped-10.json"
  assert_success
  assert_output '$ node scenarios/capped-pubsub/run.js --uri <uri> … (full command: run.log)'
}

@test "on a narrow screen a short form names its script without the folder rather than wrap" {
  load_framework
  COLUMNS=60 PB_STEP=1 run pb::show_cmd node "${PB_LIB}/scenarios/capped-pubsub/run.js" --uri mongodb://h:1/ \
    --db dbalab_capped-pubsub --collection ticker --out "${PB_ROOT}/reports/capped-pubsub/capped-10.json"
  assert_success
  assert_output '$ node run.js --uri <uri> … (full command: run.log)'
}

@test "a mongosh stage shown short keeps the stage's own script, not the harness before it" {
  load_framework
  COLUMNS=80 PB_STEP=1 run pb::show_cmd mongosh mongodb://h:1/ --quiet --norc --eval "$(printf 'x%.0s' {1..300})" \
    "${PB_LIB}/js/stage.js" "${PB_LIB}/scenarios/capped-pubsub/run-claims.js"
  assert_success
  assert_output '$ mongosh <uri> … scenarios/capped-pubsub/run-claims.js (full command: run.log)'
}

@test "mlaunch init shown short in 80 columns keeps the server settings at its end" {
  load_framework
  COLUMNS=80 PB_STEP=1 run pb::show_cmd mlaunch init --replicaset --nodes 1 --name replset --port 27100 \
    --dir "${PB_ROOT}/data/change-stream-resume-20261125T235502Z/8.0.4" --binarypath "${PB_ROOT}/.tools/m/versions/8.0.4/bin" \
    --oplogSize 1986 --wiredTigerCacheSizeGB 0.25 --slowms 0
  assert_success
  assert_output '$ mlaunch init … --wiredTigerCacheSizeGB 0.25 --slowms 0 (full command: run.log)'
}

@test "at 80 columns the ticker cuts its label, never the command's figures" {
  run framework_on_terminal 80 'pb::run --progress "capped: 8 subscriber(s), 50 msg/s for 4 s, a label too long for the line" \
    bash -c "echo \"progress: 100/200 published, 94/200 delivered\"; sleep 2.5"'
  assert_success
  run grep -F ' ... 00:0' < <(screen_lines)
  assert_success
  assert_line --regexp '^  capped: 8 subscriber\(s\), 50 m…  ?\.\.\. 00:0[0-9]  100/200 published, 94/200 delivered$'
  assert_fits 79
}

@test "a long step's finished line keeps the last figures it showed" {
  load_framework
  run pb::run --progress "capped: 8 subscriber(s)" bash -c 'echo "progress: 200/200 published, 1598/1600 delivered"'
  assert_success
  assert_line --regexp '^[0-9:]{8}   capped: 8 subscriber\(s\): done in 00:0[0-9] \(200/200 published, 1598/1600 delivered\)$'
}

@test "on a terminal a line longer than the screen breaks between words, the rest indented" {
  # shellcheck disable=SC2016 # the colours of the bash on the terminal
  run framework_on_terminal 80 'pb::info "${PB_C_YELLOW}NOT REPRODUCED, NO PREDICTION${PB_C_OFF}: publishers keep the target write rate [FerretDB v1.24.2] (expected within 5% of the target at every point, observed worst 40.8/s for 50/s)"'
  assert_success
  run screen_lines
  assert_success
  assert_line --regexp '^[0-9:]{8} NOT REPRODUCED, NO PREDICTION: publishers keep the target write rate$'
  assert_line '           [FerretDB v1.24.2] (expected within 5% of the target at every point,'
  assert_line '           observed worst 40.8/s for 50/s)'
}

@test "with --step a piped run breaks long lines between words too" {
  load_framework
  PB_STEP=1 COLUMNS=60 run pb::info 'stages: preflight 2s, launch FerretDB v1.24.2 1s, prepare FerretDB v1.24.2 3s'
  assert_success
  assert_line --regexp '^[0-9:]{8} stages: preflight 2s, launch FerretDB v1.24.2 1s,$'
  assert_line '           prepare FerretDB v1.24.2 3s'
}

@test "with --step a warning wider than the screen breaks between words, after its label" {
  load_framework
  PB_STEP=1 COLUMNS=60 run pb::warn 'a real run would stop here (preflight): MongoDB 7.0 is not installed under m'
  assert_success
  assert_output 'warning: a real run would stop here (preflight): MongoDB 7.0
           is not installed under m'
}

@test "a piped run without --step keeps a long line whole, for the tools that read it" {
  load_framework
  COLUMNS=60 run pb::info 'stages: preflight 2s, launch FerretDB v1.24.2 1s, prepare FerretDB v1.24.2 3s'
  assert_success
  assert_line --regexp '^[0-9:]{8} stages: preflight 2s, launch FerretDB v1.24.2 1s, prepare FerretDB v1.24.2 3s$'
}

@test "a --step run on an 80-column terminal fits every line in 80 columns" {
  step_on_terminal "$(printf '%q ' env COLUMNS=80 "$DEMO" --topology none --step --count-to 2 --report-dir "$REPORT")"
  finish_script
  run cat "$OUT"
  assert_success
  assert_output --partial '==> summary'
  assert_fits 80
}

@test "a dry run on a terminal fits the terminal: long commands short, saying how to get them whole" {
  run on_terminal env COLUMNS=100 "$DEMO" --dry-run --topology replset --knob notablescan=true \
    --binarypath "$FAKE_BIN" --dir "${BATS_TEST_TMPDIR}/data"
  assert_success
  run screen_lines
  assert_success
  assert_line --regexp '^\$ mongosh .*demo-lab/prepare\.js \(whole: piped\)$'
  assert_line --regexp '^\$ mlaunch init --replicaset .*'
  assert_fits 100
}

@test "no colour on a terminal that says it cannot show any (TERM=dumb)" {
  run on_terminal env TERM=dumb "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  assert_output --partial '==> preflight'
  refute_output --partial $'\e['
}

@test "the run log is plain text: no colour code of the terminal's" {
  run on_terminal "$DEMO" --topology none --report-dir "$REPORT"
  assert_success
  assert_output --partial $'\e[1m'
  run grep -c $'\e' "${REPORT}/run.log"
  [ "$status" -eq 1 ]  # grep -c: no line matched
  assert_output 0
  run grep -c 'Demo lab: the framework.s test playbook$' "${REPORT}/run.log"
  assert_success
  assert_output 1
}

@test "a narration's {{NAME}} is the value of NAME in this run; an unknown name stays as written" {
  load_framework
  pb::narration prepare <<<'At {{RATE}} messages a second ({{NO_SUCH_NAME}}).'
  PB_TOPOLOGY=replset RATE=50 run pb::narration_text prepare
  assert_success
  assert_output 'At 50 messages a second ({{NO_SUCH_NAME}}).'
}

@test "capped-pubsub's prepare narration gives the figures of the run's scale" {
  load_playbook capped-pubsub
  pb::parse_args --scale tiny
  pb::_load_scale
  playbook_configure
  PB_TOPOLOGY=uri run pb::narration_text prepare
  assert_success
  assert_output --regexp "at this run's 50 messages[[:space:]]+a second \(--scale tiny\)"
  assert_output --regexp 'wraps about every[[:space:]]+18 seconds\.$'
  refute_output --partial '100 messages'
}

@test "capped-pubsub says which claim each run-claims.js command checks, right before it" {
  run "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --dry-run --binarypath "$FAKE_BIN" --dir "${BATS_TEST_TMPDIR}/data" \
    --compare none
  assert_success
  # A path with a space comes quoted: the line then ends with the quote.
  run awk '/run-claims\.js'"'"'?$/ { sub(/^[0-9:]+ /, "", before); print before } { before = $0 }' <<<"$output"
  assert_success
  assert_output "claim grow: documents in a capped collection cannot grow
claim shard: capped collections cannot be sharded
claim replicate: capped collections replicate (their inserts are in the oplog)
claim restart: capped collections are in-memory only: their documents are gone after a restart"
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
