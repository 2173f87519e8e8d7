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
