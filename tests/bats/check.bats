#!/usr/bin/env bats
# playbooks/check, the trainer's pre-class check: its options, its --dry-run
# plan (each playbook's own --dry-run), and its table and exit status. The runs
# use fixture playbooks on the real framework (tests/fixtures/check-playbooks:
# alpha-lab runs to its report, beta-lab fails in its run stage); they launch
# nothing. The plans of the real playbooks use the fake mongod, which only
# answers --version.

# test-runner: long
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
  # A trainer's terminal of 100 columns, whatever runs the tests.
  export COLUMNS=100
}

# detail ROW LABEL: the text labelled LABEL under the first table row that
# ROW (a regexp) matches, its wrapped lines joined again.
detail() {
  awk -v row="$1" -v label="  ${2}: " '
    !inrow && $0 ~ row { inrow = 1; next }
    inrow && /^[^ ]/ { exit }
    inrow && index($0, label) == 1 { text = substr($0, length(label) + 1); on = 1; next }
    on && /^      / { sub(/^ +/, ""); text = text " " $0; next }
    on { exit }
    END { print text }' <<<"$output"
}

# The longest line of the output, in characters.
widest_line() {
  awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' <<<"$output"
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
  assert_line "Plan: 5 playbook(s) at --scale tiny, one after the other; a summary of their plans at the end"
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

@test "--dry-run ends with a summary: each plan's outcome, its commands, its preflight checks and claims" {
  run with_fixtures "$CHECK" --dry-run --mongodb-version 7.0
  assert_success
  run sed -n '/^### summary of the plans$/,$p' <<<"$output"
  assert_success
  assert_output "### summary of the plans
playbook   plan  commands  preflight  claims
alpha-lab  ok    1         3 ok       2
beta-lab   ok    2         3 ok       1
2 plan(s) shown; no preflight would stop a real run"
}

@test "--dry-run's summary says what a real run would stop at once, then names the first playbook it stopped" {
  use_fake_m
  run "$CHECK" --dry-run --mongodb-version 7.0 change-stream-resume mongodump-raw-bson
  assert_success
  run sed -n '/^### summary of the plans$/,$p' <<<"$output"
  assert_success
  assert_line --regexp '^change-stream-resume +ok +[0-9]+ +[0-9]+ ok, 1 FAIL +5$'
  assert_line --regexp '^  would stop: MongoDB 7\.0: cannot resolve MongoDB 7\.0 to a release: '
  assert_line --regexp '^mongodump-raw-bson +ok +[0-9]+ +[0-9]+ ok, 1 FAIL +4$'
  assert_line '  would stop: the same as change-stream-resume'
  assert_line --regexp '^2 plan\(s\) shown; a real run of 2 would stop at its preflight \(the would stop lines say'
}

@test "--dry-run's summary: a plan that fails is FAILED with its last line, and the check exits 1" {
  run with_fixtures "$CHECK" --dry-run --port 70000 alpha-lab
  [ "$status" -eq 1 ]
  run sed -n '/^### summary of the plans$/,$p' <<<"$output"
  assert_success
  assert_line --regexp '^alpha-lab +FAILED \(exit 2\) +0 +- +0$'
  assert_line '  why: alpha-lab: --port must be between 1024 and 65000, got 70000 (see --help)'
  assert_line '0 plan(s) shown, 1 failed (the why lines say why)'
}

@test "--dry-run's summary fits 100 columns, and 80 in an 80-column terminal" {
  run "$CHECK" --dry-run --binarypath "$FAKE_BIN"
  assert_success
  run sed -n '/^### summary of the plans$/,$p' <<<"$output"
  assert_success
  [ "$(widest_line)" -le 100 ]
  use_fake_m
  COLUMNS=80 run "$CHECK" --dry-run --mongodb-version 7.0 change-stream-resume
  assert_success
  run sed -n '/^### summary of the plans$/,$p' <<<"$output"
  assert_success
  assert_line --regexp '^  would stop: MongoDB 7\.0: cannot resolve MongoDB 7\.0 to a release: '
  [ "$(widest_line)" -le 80 ]
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

@test "without its own --yes the check's playbooks install nothing system-wide; with it they may" {
  run with_fixtures "$CHECK" --mongodb-version 7.0 --playbooks alpha-lab --report-dir "${WORKDIR}/reports"
  assert_success
  run cat "${CHECK_FIXTURE_ARGS}.env"
  assert_success
  assert_output 'alpha-lab DBA_LAB_NO_SYSTEM=1'
  rm "${CHECK_FIXTURE_ARGS}.env"
  run with_fixtures "$CHECK" --yes --mongodb-version 7.0 --playbooks alpha-lab --report-dir "${WORKDIR}/reports-yes"
  assert_success
  run cat "${CHECK_FIXTURE_ARGS}.env"
  assert_success
  assert_output 'alpha-lab DBA_LAB_NO_SYSTEM=0'
}

@test "the table: playbook, version, status, wall time, verdicts from results.json; under each row its report and why" {
  run with_fixtures "$CHECK" --mongodb-version 7.0 --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line --regexp '^playbook +version +status +wall +verdicts$'
  assert_line --regexp "^alpha-lab +7\.0 +done +[0-9]+ s +1 NOT APPLICABLE, 1 REPRODUCED$"
  assert_line "  report: ${WORKDIR}/reports/alpha-lab/report.html"
  assert_line --regexp "^beta-lab +7\.0 +FAILED \(exit 1\) +[0-9]+ s +none$"
  assert_line "  report: ${WORKDIR}/reports/beta-lab/report.html"
  assert_line '  why: command failed: false (exit 1) in stage run'
  # The table is kept beside the reports.
  run cat "${WORKDIR}/reports/check.txt"
  assert_success
  assert_line --regexp '^alpha-lab +7\.0 +done '
}

@test "a report path wider than the table stays whole on its line, to be copied" {
  local reports
  reports="${WORKDIR}/$(printf 'a-long-folder-name-%.0s' {1..6})/reports"
  run with_fixtures "$CHECK" --playbooks alpha-lab --report-dir "$reports"
  assert_success
  assert_line "  report: ${reports}/alpha-lab/report.html"
}

@test "a playbook that fails makes the check exit 1 and say what to read" {
  run with_fixtures "$CHECK" --playbooks beta-lab --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line 'not every playbook ran: the why lines say why, its log (the report line) says more'
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

@test "a playbook stopped by its preflight: its why line gives its own one line" {
  # A report folder that is not empty is one of preflight's refusals.
  mkdir -p "${WORKDIR}/reports/alpha-lab"
  : >"${WORKDIR}/reports/alpha-lab/old-report.md"
  run with_fixtures "$CHECK" --playbooks alpha-lab --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line --regexp "^alpha-lab +8\\.0 +preflight failed \\(exit 3\\) +[0-9]+ s +none$"
  assert_line "  report: ${WORKDIR}/reports/alpha-lab.log"
  assert_equal "$(detail '^alpha-lab ' why)" "--report-dir ${WORKDIR}/reports/alpha-lab exists and is not empty: give a new or empty directory"
}

# --uri: a class server. Port 9 (discard) has no MongoDB: each playbook's
# preflight stops at it, which shows the URI reached the playbook.
CLASS_URI='mongodb://trainer:s3cret@127.0.0.1:9/?authSource=admin'

@test "--uri: each playbook gets the URI in DBA_LAB_URI, not on its command line" {
  run with_fixtures "$CHECK" --uri "$CLASS_URI" --playbooks alpha-lab --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_line --regexp "^alpha-lab +the --uri server +preflight failed \\(exit 3\\) "
  assert_line --regexp "^  why: cannot reach --uri mongodb://trainer:\\*\\*\\*@127\\.0\\.0\\.1:9/\\?authSource=admin: "
  run cat "$CHECK_FIXTURE_ARGS"
  assert_success
  assert_output "alpha-lab --scale tiny --yes --report-dir ${WORKDIR}/reports/alpha-lab"
}

@test "--uri: the password is shown as *** on screen, in the table and in the logs" {
  run with_fixtures "$CHECK" --uri "$CLASS_URI" --report-dir "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
  assert_output --partial 'mongodb://trainer:***@127.0.0.1:9/'
  refute_output --partial 's3cret'
  run grep -rl s3cret "${WORKDIR}/reports"
  [ "$status" -eq 1 ]
}

@test "--uri: a playbook that refuses --uri is skipped with its reason, not failed" {
  run with_fixtures "$CHECK" --uri "$CLASS_URI" --playbooks beta-lab --report-dir "${WORKDIR}/reports"
  assert_success
  assert_line --regexp '^beta-lab +- +skipped +- +-$'
  assert_line '  why: takes no --uri: it fails on purpose'
  assert_line 'all 0 playbook(s) ran to their report; 1 skipped (the why lines say why)'
  [ ! -e "$CHECK_FIXTURE_ARGS" ]
}

@test "--uri --dry-run: the plans run in --uri mode; refusing playbooks say why" {
  run with_fixtures "$CHECK" --uri "$CLASS_URI" --dry-run
  assert_success
  assert_line "\$ DBA_LAB_URI=mongodb://trainer:***@127.0.0.1:9/?authSource=admin playbooks/alpha-lab.sh --scale tiny --yes --dry-run"
  assert_line '### beta-lab: skipped, it takes no --uri: it fails on purpose'
  refute_output --partial 's3cret'
}

@test "DBA_LAB_URI stands for --uri, keeping a password off the check's own command line" {
  DBA_LAB_URI=$CLASS_URI run --separate-stderr with_fixtures "$CHECK" --dry-run
  assert_success
  assert_line "\$ DBA_LAB_URI=mongodb://trainer:***@127.0.0.1:9/?authSource=admin playbooks/alpha-lab.sh --scale tiny --yes --dry-run"
  assert_equal "$stderr" ''
}

@test "--uri with a password: one warning that it is on the check's command line" {
  run --separate-stderr with_fixtures "$CHECK" --uri "$CLASS_URI" --dry-run
  assert_success
  assert_equal "$stderr" "check: warning: the password in --uri is on this check's command line, which every local user can read (ps) while it runs; give the URI in the environment instead: DBA_LAB_URI='mongodb://trainer:***@127.0.0.1:9/?authSource=admin' check ... (docs/credentials.md)"
}

@test "--uri with --mongodb-version is a usage error" {
  run --separate-stderr "$CHECK" --uri "$CLASS_URI" --mongodb-version 7.0
  [ "$status" -eq 2 ]
  assert_equal "$stderr" "check: --uri runs against an existing deployment: --mongodb-version, --binarypath and --port do not apply (see --help)"
}

# ---- --prepare and --offline, with the scripted m (tests/fixtures/fake-m):
# its fake mongod answers --version as 7.0.12.

@test "--prepare installs each version the playbooks need once, and checks that it starts" {
  use_fake_m
  FAKE_M_RELEASES="7.0.12" FAKE_M_INSTALL_WORKS=1 run "$CHECK" --prepare --mongodb-version 7.0 change-stream-resume mongodump-raw-bson
  assert_success
  assert_line --regexp '^7\.0\.12 +change-stream-resume,mongodump-raw-bson +downloaded, starts +[0-9]+ [KM]B$'
  [[ "$(detail '^7\.0\.12 ' path)" == */m/versions/7.0.12/bin ]]
  assert_line --regexp '^1 version\(s\) downloaded \([0-9]+ [KM]B\), 0 already installed, under '
  assert_line 'ready: now prove it without the network: playbooks/check --offline --mongodb-version 7.0 change-stream-resume mongodump-raw-bson'
  run grep -cx '7.0.12' "$FAKE_M_LOG"
  assert_success
  assert_output 1
}

@test "--prepare takes each playbook's default versions" {
  use_fake_m
  export FAKE_MONGOD_VERSION=8.0.4
  FAKE_M_RELEASES="7.0.12 8.0.4" FAKE_M_INSTALL_WORKS=1 run "$CHECK" --prepare change-stream-resume
  assert_success
  assert_line --regexp '^8\.0\.4 +change-stream-resume +downloaded, starts '
  run grep -x '7.0.12' "$FAKE_M_LOG"
  [ "$status" -eq 1 ]
}

@test "--prepare does not download a version already installed" {
  use_fake_m
  fake_m_installed 7.0.12
  run "$CHECK" --prepare --mongodb-version 7.0 change-stream-resume
  assert_success
  assert_line --regexp '^7\.0\.12 +change-stream-resume +already installed, starts '
  run grep -Ex '[0-9.]+' "$FAKE_M_LOG"
  [ "$status" -eq 1 ]
}

@test "--prepare: a download m could not do is a row with why, and exit 1" {
  use_fake_m
  FAKE_M_RELEASES="7.0.12" run "$CHECK" --prepare --mongodb-version 7.0 change-stream-resume
  [ "$status" -eq 1 ]
  assert_line --regexp '^7\.0\.12 +change-stream-resume +FAILED +-$'
  [[ "$(detail '^7\.0\.12 ' why)" =~ ^m\ could\ not\ install\ MongoDB\ 7\.0\.12\ \(m\ said:\ .*do\ not\ appear\ to\ be\ available ]]
}

@test "--prepare: binaries that do not start here are a row with the loader's reason" {
  use_fake_m
  mkdir -p "${M_PREFIX}/m/versions/7.0.12/bin"
  # What ld.so prints for a build that links OpenSSL 1.1, and its exit status.
  # shellcheck disable=SC2016 # $0 is the stand-in's own
  printf '#!/bin/sh\necho "$0: error while loading shared libraries: libcrypto.so.1.1: cannot open shared object file: No such file or directory" >&2\nexit 127\n' \
    >"${M_PREFIX}/m/versions/7.0.12/bin/mongod"
  chmod +x "${M_PREFIX}/m/versions/7.0.12/bin/mongod"
  run "$CHECK" --prepare --mongodb-version 7.0.12 change-stream-resume
  [ "$status" -eq 1 ]
  assert_line --regexp '^7\.0\.12 +change-stream-resume +already installed, does not start +[0-9]+ [KM]B$'
  [[ "$(detail '^7\.0\.12 ' why)" == *" cannot start on this system: the loader cannot find libcrypto.so.1.1 "* ]]
  [[ "$(detail '^7\.0\.12 ' fix)" == *setup/libssl11.sh* ]]
}

@test "--prepare: for a sharded playbook, mongos must start too" {
  use_fake_m
  fake_m_installed 7.0.12
  # A mongos the loader refuses, beside a mongod that starts.
  # shellcheck disable=SC2016 # $0 is the stand-in's own
  printf '#!/bin/sh\necho "$0: error while loading shared libraries: libssl.so.3: cannot open shared object file: No such file or directory" >&2\nexit 127\n' \
    >"${M_PREFIX}/m/versions/7.0.12/bin/mongos"
  chmod +x "${M_PREFIX}/m/versions/7.0.12/bin/mongos"
  run "$CHECK" --prepare --mongodb-version 7.0 routing-refresh
  [ "$status" -eq 1 ]
  assert_line --regexp '^7\.0\.12 +routing-refresh +already installed, does not start '
  [[ "$(detail '^7\.0\.12 ' why)" == */bin/mongos" cannot start on this system: the loader cannot find libssl.so.3" ]]
}

@test "--prepare: a missing tool is a row naming it, and exit 1" {
  use_fake_m
  fake_m_installed 7.0.12
  printf '#!/bin/sh\necho "TOOL STATUS"\necho "mlaunch       required  MISSING  -  run ./setup/install.sh"\nexit 1\n' >"${BATS_TEST_TMPDIR}/setup"
  chmod +x "${BATS_TEST_TMPDIR}/setup"
  DBA_LAB_SETUP="${BATS_TEST_TMPDIR}/setup" run "$CHECK" --prepare --mongodb-version 7.0 change-stream-resume
  [ "$status" -eq 1 ]
  assert_line --regexp '^tools +setup/install\.sh --check +MISSING +-$'
  assert_line '  why: mlaunch'
  assert_line '  fix: ./setup/install.sh'
}

@test "--offline passes when every version is installed and starts and no plan downloads" {
  use_fake_m
  fake_m_installed 7.0.12
  run "$CHECK" --offline --mongodb-version 7.0 change-stream-resume mongodump-raw-bson
  assert_success
  assert_line --regexp '^MongoDB 7\.0\.12 +change-stream-resume,mongodump-raw-bson +ok: installed, starts$'
  assert_line --regexp '^plan +change-stream-resume +ok: --dry-run needs no download$'
  assert_line --regexp '^plan +mongodump-raw-bson +ok: --dry-run needs no download$'
  refute_line --partial '  fix: '
  assert_line 'ready: every version is installed and starts, every tool is there, and no plan downloads anything'
}

@test "--offline fails on a missing version and names the command that fixes it" {
  use_fake_m
  fake_m_installed 7.0.12
  FAKE_M_RELEASES="8.0.4" run "$CHECK" --offline --mongodb-version 7.0,8.0 change-stream-resume
  [ "$status" -eq 1 ]
  assert_line --regexp '^MongoDB 8\.0 +change-stream-resume +NOT INSTALLED$'
  assert_equal "$(detail '^MongoDB 8\.0 ' fix)" 'playbooks/check --prepare --mongodb-version 7.0,8.0 change-stream-resume'
  assert_line --regexp '^plan +change-stream-resume +NEEDS THE NETWORK$'
  assert_equal "$(detail '^plan ' why)" 'm --stable 8.0'
  assert_equal "$(detail '^plan ' fix)" 'playbooks/check --prepare --mongodb-version 7.0,8.0 change-stream-resume'
}

@test "--offline's table fits 100 columns: long reasons and fixes go on their own lines" {
  use_fake_m
  run "$CHECK" --offline
  [ "$status" -eq 1 ]
  assert_line --regexp '^what +for +status$'
  assert_line --regexp '^  fix: playbooks/check --prepare$'
  [ "$(widest_line)" -le 100 ]
}

@test "--prepare and --offline exclude each other" {
  run --separate-stderr "$CHECK" --prepare --offline
  [ "$status" -eq 2 ]
  assert_equal "$stderr" "check: --prepare and --offline exclude each other: prepare with the network, then check offline (see --help)"
}

# ---- The real m (tests/fixtures/m-lane): its curl serves a local download
# site holding 7.0.12, on an Ubuntu 22.04 persona; the tool chain check is
# setup's in the main checkout (the lane's checkout holds only m and links).

# lane: the lane's checkout, m and site first on PATH; LAB is its check.
lane() {
  load m_lane_helper
  m_lane_site "${BATS_TEST_TMPDIR}/site" linux-x86_64-ubuntu2204-7.0.12
  m_lane_checkout "${BATS_TEST_TMPDIR}/lab"
  # The plans' dry runs load the snippets (seedCollection's estimate).
  ln -s "${DBA_LAB_ROOT}/snippets" "${DBA_LAB_ROOT}/package.json" "${BATS_TEST_TMPDIR}/lab/"
  use_persona ubuntu-22.04
  use_m_lane "${BATS_TEST_TMPDIR}/site" "${BATS_TEST_TMPDIR}/lab"
  export DBA_LAB_SETUP="${DBA_LAB_ROOT}/setup/install.sh"
  LAB="${BATS_TEST_TMPDIR}/lab/playbooks/check"
}

@test "--offline with the real m: nothing installed fails, and m never reached the site" {
  lane
  run "$LAB" --offline --mongodb-version 7.0 change-stream-resume
  [ "$status" -eq 1 ]
  assert_line --regexp '^MongoDB 7\.0 +change-stream-resume +NOT INSTALLED$'
  assert_equal "$(detail '^MongoDB 7\.0 ' fix)" 'playbooks/check --prepare --mongodb-version 7.0 change-stream-resume'
  [ ! -s "$M_LANE_CURL_LOG" ]
}

@test "--prepare then --offline with the real m: downloaded once, then ready with no network" {
  lane
  run "$LAB" --prepare --mongodb-version 7.0 change-stream-resume
  assert_success
  assert_line --regexp '^7\.0\.12 +change-stream-resume +downloaded, starts '
  # The checkout's own paths, relative to it, as the commands it prints are.
  assert_line '  path: .tools/m/m/versions/7.0.12/bin'
  assert_line "(paths relative to the checkout, ${BATS_TEST_TMPDIR}/lab)"
  run grep -cE '^-sSLf https?://fastdl\.mongodb\.org/linux/mongodb-linux-x86_64-ubuntu2204-7\.0\.12\.tgz' "$M_LANE_CURL_LOG"
  assert_success
  assert_output 1
  : >"$M_LANE_CURL_LOG"
  run "$LAB" --offline --mongodb-version 7.0 change-stream-resume
  assert_success
  assert_line --regexp '^MongoDB 7\.0\.12 +change-stream-resume +ok: installed, starts$'
  [ ! -s "$M_LANE_CURL_LOG" ]
}
