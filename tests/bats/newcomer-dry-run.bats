#!/usr/bin/env bats
# The trainer's state before class: m is on PATH but no MongoDB version is
# installed yet (an empty M_PREFIX), and m either cannot reach
# downloads.mongodb.org (FAKE_M_RELEASES empty) or can list releases it has not
# installed. Every playbook's --dry-run, and playbooks/check --dry-run, must
# still print the whole plan and exit 0: the preflight's failures become
# warnings, the binaries a placeholder. The fake m is tests/fixtures/fake-m.

# test-runner: long
bats_require_minimum_version 1.5.0

PLAYBOOKS=(array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh)

setup() {
  load test_helper
  load playbook_helper
  use_fake_m
  mkdir -p "$M_PREFIX"
  export FAKE_M_RELEASES=''
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
}

# dry_run NAME: the playbook's plan with m's defaults, its folders in WORKDIR.
dry_run() {
  "${DBA_LAB_ROOT}/playbooks/$1.sh" --dry-run --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" 2>&1
}

# assert_offline_plan NAME: the plan of NAME with nothing installed and no
# network: warned about, planned to the end, nothing made.
assert_offline_plan() {
  run dry_run "$1"
  assert_success
  assert_line --partial "warning: a real run would stop here (preflight): MongoDB "
  assert_line --regexp "^\\\$ mlaunch init .* --binarypath '<binaries for MongoDB [0-9]+\\.[0-9]+>'"
  assert_line --partial 'dry run: nothing was changed'
  refute_output --partial 'FAILED'
  [ ! -e "${WORKDIR}/data" ]
  [ ! -e "${WORKDIR}/report" ]
  [ -z "$(ls -A "$M_PREFIX")" ]
}

@test "offline, nothing installed: array-push-oplog --dry-run prints its plan and exits 0" {
  assert_offline_plan array-push-oplog
}

@test "offline, nothing installed: capped-pubsub --dry-run prints its plan and exits 0" {
  assert_offline_plan capped-pubsub
}

@test "offline, nothing installed: change-stream-resume --dry-run prints its plan and exits 0" {
  assert_offline_plan change-stream-resume
}

@test "offline, nothing installed: mongodump-raw-bson --dry-run prints its plan and exits 0" {
  assert_offline_plan mongodump-raw-bson
}

@test "offline, nothing installed: routing-refresh --dry-run plans the sharded launch with placeholder binaries" {
  assert_offline_plan routing-refresh
  assert_line --regexp "^\\\$ mlaunch init --sharded 2 .* --binarypath '<binaries for MongoDB 6\\.0>' "
}

@test "releases listed, nothing installed: every playbook plans the install of the newest patch and exits 0" {
  local p
  export FAKE_M_RELEASES="4.4.29 5.0.31 6.0.20 7.0.14 8.0.4"
  for p in "${PLAYBOOKS[@]}"; do
    run dry_run "$p"
    assert_success
    assert_line "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m 8.0.4"
    assert_line --regexp "^\\\$ mlaunch init .* --binarypath ${M_PREFIX}/m/versions/8\\.0\\.4/bin"
  done
  [ -z "$(ls -A "$M_PREFIX")" ]
}

@test "offline, nothing installed: playbooks/check --dry-run shows all five plans and exits 0" {
  run "${DBA_LAB_ROOT}/playbooks/check" --dry-run
  assert_success
  refute_output --partial 'its plan failed'
  assert_equal "$(grep -c '^\$ mlaunch init ' <<<"$output")" 5
  assert_equal "$(grep -c '^[0-9:]* dry run: nothing was changed$' <<<"$output")" 5
}

@test "releases listed, nothing installed: playbooks/check --dry-run exits 0" {
  FAKE_M_RELEASES="4.4.29 5.0.31 6.0.20 7.0.14 8.0.4" run "${DBA_LAB_ROOT}/playbooks/check" --dry-run
  assert_success
  refute_output --partial 'its plan failed'
  assert_equal "$(grep -c '^\$ mlaunch init ' <<<"$output")" 5
}

@test "a binaries folder with white space is planned for a sharded cluster: setup quotes mlaunch's mongos path" {
  mkdir "${WORKDIR}/my bin"
  cp -P "$FAKE_BIN"/mongod "$FAKE_BIN"/mongos "${WORKDIR}/my bin/"
  run "$DEMO" --dry-run --topology sharded --binarypath "${WORKDIR}/my bin" --dir "${WORKDIR}/data"
  assert_success
  assert_line --regexp "^\\\$ mlaunch init --sharded .* --binarypath '${WORKDIR}/my bin'( |\$)"
}

@test "a binaries folder with white space and an mlaunch setup has not patched: the sharded plan names setup" {
  mkdir "${WORKDIR}/my bin" "${WORKDIR}/site"
  cp -P "$FAKE_BIN"/mongod "$FAKE_BIN"/mongos "${WORKDIR}/my bin/"
  # The mtools package as pip installs it, found before the venv's own.
  local shipped
  shipped=$("${DBA_LAB_ROOT}/.tools/venv/bin/python" -c 'import mtools, os; print(os.path.dirname(mtools.__file__))')
  cp -R "$shipped" "${WORKDIR}/site/mtools"
  patch -R -s -f -F 0 "${WORKDIR}/site/mtools/mlaunch/mlaunch.py" <"${DBA_LAB_ROOT}/setup/mtools-1.7.2.patch"
  PYTHONPATH="${WORKDIR}/site" run "$DEMO" --dry-run --topology sharded --binarypath "${WORKDIR}/my bin" --dir "${WORKDIR}/data"
  assert_failure 1
  assert_line --partial "FAILED: this mlaunch cannot start mongos from a folder whose path holds white space (${WORKDIR}/my bin): run ./setup/install.sh"
}
