#!/usr/bin/env bats
# playbooks/check, the trainer's pre-class check: its options, its --dry-run
# plan (each playbook's own --dry-run), and its table and exit status. The runs
# use fixture playbooks on the real framework (tests/fixtures/check-playbooks:
# alpha-lab runs to its report, beta-lab fails in its run stage); they launch
# nothing. The plans of the real playbooks use the fake mongod, which only
# answers --version.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  CHECK="${DBA_LAB_ROOT}/playbooks/check"
  FIXTURES="${DBA_LAB_ROOT}/tests/fixtures/check-playbooks"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
  export CHECK_FIXTURE_ARGS="${WORKDIR}/args"
}

with_fixtures() {
  DBA_LAB_PLAYBOOKS_DIR="$FIXTURES" "$@"
}

@test "--help says what it runs, its options and its exit codes" {
  run "$CHECK" --help
  assert_success
  assert_line --partial '--mongodb-version V'
  assert_line --partial '--dry-run'
  assert_line --partial '--playbooks A,B'
  assert_output --partial 'Exit codes: 0 all ran'
}

@test "an unknown option is a usage error: one line, exit 2" {
  run --separate-stderr "$CHECK" --fast
  [ "$status" -eq 2 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  assert_equal "$stderr" "check: unknown option --fast (see --help)"
}

@test "--mongodb-version must be X.Y or X.Y.Z, comma-separated" {
  run --separate-stderr "$CHECK" --mongodb-version 7 --dry-run
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--mongodb-version expects X.Y or X.Y.Z"* ]]
  run --separate-stderr "$CHECK" --mongodb-version 4.4,,8.0 --dry-run
  [ "$status" -eq 2 ]
}

@test "--yes is taken, as by every playbook (the check never asks anyway)" {
  run with_fixtures "$CHECK" --dry-run --yes --mongodb-version 7.0
  assert_success
  assert_line "\$ playbooks/alpha-lab.sh --scale tiny --yes --mongodb-version 7.0 --dry-run"
}

@test "--mongodb-version needs a value" {
  run --separate-stderr "$CHECK" --mongodb-version --dry-run
  [ "$status" -eq 2 ]
  assert_equal "$stderr" "check: --mongodb-version needs a value (see --help)"
}

@test "--binarypath and --mongodb-version exclude each other" {
  run --separate-stderr "$CHECK" --binarypath "$FAKE_BIN" --mongodb-version 7.0 --dry-run
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"exclude each other"* ]]
}

@test "--playbooks names an unknown playbook: exit 2 with the known ones" {
  run --separate-stderr with_fixtures "$CHECK" --playbooks alpha-lab,gamma-lab
  [ "$status" -eq 2 ]
  assert_equal "$stderr" "check: --playbooks: no playbook 'gamma-lab' (known: alpha-lab beta-lab) (see --help)"
  [ ! -e "$CHECK_FIXTURE_ARGS" ]
}

@test "--dry-run lists the five playbooks, each with its own plan at --scale tiny" {
  run "$CHECK" --dry-run --binarypath "$FAKE_BIN" --report-dir "${WORKDIR}/reports"
  assert_success
  assert_line "Plan: 5 playbook(s) at --scale tiny, one after the other: array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh"
  local p
  for p in array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh; do
    assert_line "### ${p}"
    assert_line "\$ playbooks/${p}.sh --scale tiny --yes --binarypath ${FAKE_BIN} --dry-run"
    assert_output --partial "playbook ${p}, scale tiny,"
  done
  assert_equal "$(grep -c '^\$ mlaunch init ' <<<"$output")" 5
  refute_output --partial 'its plan failed'
  [ ! -e "${WORKDIR}/reports" ]
}

@test "--dry-run passes the version on to every plan" {
  run with_fixtures "$CHECK" --dry-run --mongodb-version 7.0
  assert_success
  assert_line "\$ playbooks/alpha-lab.sh --scale tiny --yes --mongodb-version 7.0 --dry-run"
  assert_line "\$ playbooks/beta-lab.sh --scale tiny --yes --mongodb-version 7.0 --dry-run"
  assert_line --partial 'dry run: nothing was changed'
  assert_equal "$(grep -c '^==> report ' <<<"$output")" 2
}

@test "every playbook runs at --scale tiny --yes with the version asked, in name order" {
  run with_fixtures "$CHECK" --mongodb-version 7.0 --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  run cat "$CHECK_FIXTURE_ARGS"
  assert_success
  assert_output "alpha-lab --scale tiny --yes --mongodb-version 7.0 --report-dir ${WORKDIR}/reports/alpha-lab
beta-lab --scale tiny --yes --mongodb-version 7.0 --report-dir ${WORKDIR}/reports/beta-lab"
}

@test "the table: playbook, version, status, wall time, verdicts from results.json, report path" {
  run with_fixtures "$CHECK" --mongodb-version 7.0 --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line --regexp '^playbook +version +status +wall +verdicts +report$'
  assert_line --regexp "^alpha-lab +7\.0 +done +[0-9]+ s +1 NOT APPLICABLE, 1 REPRODUCED +${WORKDIR}/reports/alpha-lab/report\.html$"
  assert_line --regexp "^beta-lab +7\.0 +FAILED \(exit 1\) +[0-9]+ s +none +${WORKDIR}/reports/beta-lab/report\.html$"
  # The table is kept beside the reports.
  run cat "${WORKDIR}/reports/check.txt"
  assert_success
  assert_line --regexp '^alpha-lab +7\.0 +done '
}

@test "a playbook that fails makes the check exit 1 and say what to read" {
  run with_fixtures "$CHECK" --playbooks beta-lab --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line 'not every playbook ran: read its log (the report column) before the class'
  [ -s "${WORKDIR}/reports/beta-lab.log" ]
}

@test "exit 0 only when every playbook ran to its report" {
  run with_fixtures "$CHECK" --playbooks alpha-lab --report-dir "${WORKDIR}/reports"
  assert_success
  assert_line 'all 1 playbook(s) ran to their report'
  [ "$(jq -r .status "${WORKDIR}/reports/alpha-lab/results.json")" = "done" ]
  [ "$(jq -r .environment.scale.name "${WORKDIR}/reports/alpha-lab/results.json")" = tiny ]
}

@test "each playbook's output goes to its own log, not to the screen" {
  run with_fixtures "$CHECK" --playbooks alpha-lab --report-dir "${WORKDIR}/reports"
  assert_success
  refute_output --partial '==> preflight'
  run grep -c '==> preflight' "${WORKDIR}/reports/alpha-lab.log"
  assert_success
  assert_output 1
}
