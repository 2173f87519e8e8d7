#!/usr/bin/env bats
# A connection string with a password reaches mongosh, node and the Database
# Tools by the environment or a 0600 file, never on their command lines (any
# local user reads those with ps); plans and logs show it redacted. No server:
# the runner, playbooks/lib/credentials.sh and the plans. The real clients
# against a real server: tests/integration/ferretdb/credentials.bats.

# shellcheck disable=SC2034 # the PB_* globals set here are read by the framework

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  SECRET='mongodb://u:Pw5ecret@h/?authMechanism=PLAIN'
}

@test "redact: every password of a line is hidden, the user, host and options kept" {
  load_framework
  run pb::redact "mongodump --uri 'mongodb://u:Pw5ecret@h/?authSource=admin' x mongodb+srv://v:a@b@c/ mongodb://w@d/"
  assert_success
  assert_output "mongodump --uri 'mongodb://u:***@h/?authSource=admin' x mongodb+srv://v:***@b@c/ mongodb://w@d/"
}

@test "redact: a match never spans a newline, as in sed's line-by-line rule" {
  load_framework
  run pb::redact $'mongodb://u:no\nt-a-password@h\nmongodb://u:Pw5ecret@h'
  assert_success
  assert_output $'mongodb://u:no\nt-a-password@h\nmongodb://u:***@h'
}

@test "runner --env: the value is in the command's environment, not in its arguments or in the playbook's shell" {
  load_framework
  # Called directly, not with `run`: the playbook's own shell is checked after.
  # shellcheck disable=SC2016 # expanded by the command's shell
  pb::run --env DBA_LAB_X="$SECRET" sh -c 'printf "env=%s args=%s\n" "$DBA_LAB_X" "$*"' sh a b >"${BATS_TEST_TMPDIR}/out"
  run cat "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_line "env=${SECRET} args=a b"
  [[ -z "${DBA_LAB_X:-}" ]]
}

@test "runner --env: the command line shown and logged holds the variable before the command, redacted" {
  load_framework
  run pb::run --env DBA_LAB_X="$SECRET" true
  assert_success
  assert_output "\$ DBA_LAB_X='mongodb://u:***@h/?authMechanism=PLAIN' true"
  run grep -cF 'Pw5ecret' "$PB_LOG"
  assert_failure 1
}

@test "runner --env: pb::capture gives the variable to the command it captures" {
  load_framework
  local out=''
  # shellcheck disable=SC2016 # expanded by the command's shell
  pb::capture --env DBA_LAB_X=value out sh -c 'printf "%s" "$DBA_LAB_X"' >/dev/null
  [[ "$out" == value ]]
}

@test "runner --env: anything but NAME=VALUE is a one-line error" {
  load_framework
  run pb::run --env 'not a name=x' true
  assert_failure
  assert_output --partial "--env expects NAME=VALUE, got 'not a name=x'"
}

@test "a connection string without a password is every client's argument, as before" {
  load_framework
  local env=() args=()
  pb::connection env args mongosh 'mongodb://u@h/'
  [[ "${#env[@]}" == 0 && "${args[*]}" == 'mongodb://u@h/' ]]
  pb::connection env args node 'mongodb://h/'
  [[ "${#env[@]}" == 0 && "${args[*]}" == '--uri mongodb://h/' ]]
  pb::connection env args tools 'mongodb://h:27017/?replicaSet=rs0'
  [[ "${#env[@]}" == 0 && "${args[*]}" == '--uri mongodb://h:27017/?replicaSet=rs0' ]]
}

@test "with a password, mongosh starts without a connection and connects to the one in its environment" {
  load_framework
  local env=() args=()
  pb::connection env args mongosh "$SECRET"
  [[ "${env[*]}" == "--env DBA_LAB_CONN_URI=${SECRET}" ]]
  [[ "${args[*]}" == '--nodb --eval db = connect(process.env.DBA_LAB_CONN_URI)' ]]
}

@test "with a password, node gets no argument: run.js reads the environment" {
  load_framework
  local env=() args=()
  pb::connection env args node "$SECRET"
  [[ "${env[*]}" == "--env DBA_LAB_CONN_URI=${SECRET}" && "${#args[@]}" == 0 ]]
}

@test "with a password, the Database Tools get --uri without it and a 0600 --config file with it, decoded" {
  load_framework
  local env=() args=()
  pb::connection env args tools "mongodb://u:p%40ss'w%25rd@h1,h2/?authSource=admin"
  [[ "${#env[@]}" == 0 ]]
  [[ "${args[0]} ${args[1]} ${args[2]}" == '--uri mongodb://u@h1,h2/?authSource=admin --config' ]]
  [[ "${args[3]}" == "${PB_WORK}/"* ]]
  run stat -c %a "${args[3]}"
  assert_success
  assert_output 600
  run cat "${args[3]}"
  assert_success
  assert_output "password: 'p@ss''w%rd'"
}

@test "--dry-run writes no password to the Database Tools' file" {
  load_framework
  PB_DRY_RUN=1
  local env=() args=()
  pb::connection env args tools "$SECRET"
  [[ ! -s "${args[3]}" ]]
}

@test "a password is told from a user alone, a port or an @ in the options" {
  load_framework
  pb::uri_has_password 'mongodb://u:p@h/'
  pb::uri_has_password 'mongodb+srv://u:p@cluster0.example.net/'
  run pb::uri_has_password 'mongodb://u@h:27017/'
  assert_failure
  run pb::uri_has_password 'mongodb://h:27017/'
  assert_failure
  run pb::uri_has_password 'mongodb://h:27017/?appName=a:b@c'
  assert_failure
}

@test "a stage's mongosh arguments (and so its knob records) hold the target redacted" {
  load_framework
  local argv="${BATS_TEST_TMPDIR}/argv"
  mkdir -p "${BATS_TEST_TMPDIR}/bin"
  # Our own handling only: what the runner hands mongosh, one argument a line.
  printf '#!/bin/sh\nprintf "%%s\\n" "$@" >%q\n' "$argv" >"${BATS_TEST_TMPDIR}/bin/mongosh"
  chmod +x "${BATS_TEST_TMPDIR}/bin/mongosh"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}"
  PB_CONN_URI=$SECRET
  printf '(() => {})();\n' >"${BATS_TEST_TMPDIR}/stage.js"
  run pb::mongosh_stage "${BATS_TEST_TMPDIR}/stage.js"
  assert_success
  run grep -cF Pw5ecret "$argv"
  assert_failure 1
  run grep -cF '"target":"mongodb://u:***@h/?authMechanism=PLAIN"' "$argv"
  assert_success
}

@test "a knob record's redacted target is restored on the real connection" {
  load_framework
  local env=() args=()
  pb::connection env args mongosh "$SECRET"
  printf '%s\n' '{"type":"knob","target":"mongodb://u:***@h/?authMechanism=PLAIN","name":"notablescan","old":false}' >>"$PB_RECORDS"
  pb::_register_knob_restores
  [[ "${PB_CLEANUP_LABELS[-1]}" == 'restore notablescan on mongodb://u:***@h/?authMechanism=PLAIN' ]]
  [[ "${PB_CLEANUP_CMDS[-1]}" == *"--uri $(printf '%q' "$SECRET") "* ]]
}

@test "plan of a --uri with a password: faithful and redacted, the password in no command" {
  run "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --dry-run --uri 'mongodb://u:pw@h/' --compare none \
    --subscribers 1 --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_success
  refute_output --partial ':pw@'
  run plan_lines <<<"$output"
  assert_success
  assert_line --regexp '^\$ DBA_LAB_CONN_URI=mongodb://u:\*\*\*@h/ node ROOT/playbooks/lib/scenarios/capped-pubsub/run\.js --db dbalab_capped-pubsub '
  assert_line --regexp "^\\\$ DBA_LAB_CONN_URI=mongodb://u:\*\*\*@h/ mongosh --nodb --eval 'db = connect\(process\.env\.DBA_LAB_CONN_URI\)' --quiet --norc "
}

@test "plan of a --uri without a password: the connection string stays the clients' argument" {
  run "${DBA_LAB_ROOT}/playbooks/capped-pubsub.sh" --dry-run --uri 'mongodb://h/' --compare none \
    --subscribers 1 --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_success
  refute_output --partial DBA_LAB_CONN_URI
  run plan_lines <<<"$output"
  assert_success
  assert_line --regexp '^\$ node ROOT/playbooks/lib/scenarios/capped-pubsub/run\.js --uri mongodb://h/ --db dbalab_capped-pubsub '
  assert_line --regexp '^\$ mongosh mongodb://h/ --quiet --norc '
}

@test "a password in the playbook's own --uri: one warning that says to use DBA_LAB_URI" {
  run --separate-stderr "$DEMO" --dry-run --uri 'mongodb://u:pw@h/' --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_success
  assert_regex "$stderr" "warning: the password in --uri is on this playbook's command line, which every local user can read \(ps\) while it runs; give the URI in the environment instead: DBA_LAB_URI='mongodb://u:\*\*\*@h/' demo-lab.sh"
}

@test "the same URI in DBA_LAB_URI, or one without a password: no warning" {
  DBA_LAB_URI='mongodb://u:pw@h/' run --separate-stderr "$DEMO" --dry-run --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_success
  refute_regex "$stderr" 'password in --uri'
  run --separate-stderr "$DEMO" --dry-run --uri 'mongodb://u@h/' --report-dir "${BATS_TEST_TMPDIR}/report2"
  assert_success
  refute_regex "$stderr" 'password in --uri'
}
