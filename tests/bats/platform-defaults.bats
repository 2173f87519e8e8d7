#!/usr/bin/env bats
# The persona lane: per platform, which default versions a playbook runs and
# what the user is told, before anything is downloaded (a --dry-run plan with
# the scripted m; playbooks/lib/platform.sh decides). Personas:
# tests/bats/platform_helper.bash.

# shellcheck disable=SC2030,SC2031,SC2034 # each test changes PATH for itself
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  load platform_helper
  [[ ! -e "${DBA_LAB_ROOT}/.tools/lib/libssl.so.1.1" ]] || skip "this checkout's .tools/lib holds OpenSSL 1.1: every version runs"
  use_fake_m
  export FAKE_M_RELEASES="4.4.29 5.0.31 6.0.20 7.0.14 8.0.4"
}

# plan PLAYBOOK: its --dry-run with its defaults; `planned` = the versions it launches.
plan() {
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/$1.sh" --dry-run --dir "${BATS_TEST_TMPDIR}/data" --port 31500
  assert_success
  planned=$(sed -nE 's#^\$ mlaunch init .*--dir [^ ]*/data/([0-9.]+) .*#\1#p' <<<"$output" | paste -sd, -)
}

LIBSSL_FIX='To include it, run ./setup/libssl11.sh (it puts OpenSSL 1.1 into .tools/lib, for the servers only)'

@test "Ubuntu 24.04: array-push-oplog defaults to 8.0 and says 4.4 (the \$v:1 side) needs OpenSSL 1.1" {
  use_platform ubuntu-24.04
  plan array-push-oplog
  assert_equal "$planned" "8.0.4"
  assert_equal "$stderr" "warning: 4.4 left out of the default versions (4.4,8.0): MongoDB 4.4 cannot run on Ubuntu 24.04 without OpenSSL 1.1 (m would install its ubuntu2004 build, which links libssl.so.1.1; Ubuntu 24.04 ships OpenSSL 3); it was there for the \$v:1 update entries (3.6-4.4: a \$set of a position or of the whole array) beside the \$v:2 diffs of 8.0. ${LIBSSL_FIX}"
  assert_line --partial 'running 8.0 (the defaults that run on Ubuntu 24.04)'
}

@test "Ubuntu 24.04: capped-pubsub defaults to 8.0 and says 5.0 (growth refused) needs OpenSSL 1.1" {
  use_platform ubuntu-24.04
  plan capped-pubsub
  assert_equal "$planned" "8.0.4"
  assert_regex "$stderr" '^warning: 5\.0 left out of the default versions \(5\.0,8\.0\): MongoDB 5\.0 cannot run on Ubuntu 24\.04 without OpenSSL 1\.1 \(m would install its ubuntu2004 build.*; it was there for the side where a capped document cannot grow'
}

@test "Ubuntu 24.04: routing-refresh keeps its defaults 6.0 and 8.0 and says nothing" {
  use_platform ubuntu-24.04
  plan routing-refresh
  assert_equal "$planned" "6.0.20,8.0.4"
  refute_output --partial 'left out'
  assert_equal "$stderr" ""
}

@test "Linux Mint 22: capped-pubsub defaults to 8.0 and says 5.0 needs OpenSSL 1.1, as on Ubuntu 24.04" {
  use_platform linuxmint-22
  plan capped-pubsub
  assert_equal "$planned" "8.0.4"
  assert_regex "$stderr" '^warning: 5\.0 left out of the default versions \(5\.0,8\.0\): MongoDB 5\.0 cannot run on Linux Mint 22 without OpenSSL 1\.1 \(m would install its ubuntu2004 build'
  assert_line --partial 'running 8.0 (the defaults that run on Linux Mint 22)'
}

@test "Ubuntu 22.04: array-push-oplog defaults to 8.0 and says 4.4 needs OpenSSL 1.1" {
  use_platform ubuntu-22.04
  plan array-push-oplog
  assert_equal "$planned" "8.0.4"
  assert_regex "$stderr" '^warning: 4\.4 left out of the default versions \(4\.4,8\.0\): MongoDB 4\.4 cannot run on Ubuntu 22\.04 without OpenSSL 1\.1 \(m would install its ubuntu2004 build'
}

@test "Debian 12: array-push-oplog defaults to 8.0 and says 4.4 would be the Debian 10 build" {
  use_platform debian-12
  plan array-push-oplog
  assert_equal "$planned" "8.0.4"
  assert_regex "$stderr" '^warning: 4\.4 left out of the default versions \(4\.4,8\.0\): MongoDB 4\.4 cannot run on Debian 12 without OpenSSL 1\.1 \(m would install its debian10 build'
}

@test "Debian 12: routing-refresh keeps 6.0 (the Ubuntu 22.04 build) and 8.0" {
  use_platform debian-12
  plan routing-refresh
  assert_equal "$planned" "6.0.20,8.0.4"
  assert_equal "$stderr" ""
}

@test "Ubuntu 20.04 (OpenSSL 1.1 installed): array-push-oplog keeps 4.4 and 8.0 and says nothing" {
  use_platform ubuntu-20.04
  plan array-push-oplog
  assert_equal "$planned" "4.4.29,8.0.4"
  assert_equal "$stderr" ""
}

@test "Ubuntu 24.04: an explicit --mongodb-version 4.4 is not dropped: preflight refuses it and names the fix" {
  use_platform ubuntu-24.04
  run --separate-stderr "${DBA_LAB_ROOT}/playbooks/array-push-oplog.sh" --mongodb-version 4.4,8.0 \
    --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${BATS_TEST_TMPDIR}/report" --port 31500
  assert_failure 3
  assert_regex "$stderr" '  - MongoDB 4\.4\.29 cannot run on Ubuntu 24\.04 without OpenSSL 1\.1 .*: run \./setup/libssl11\.sh .* or pass --mongodb-version 6\.0'
  refute_regex "$stderr" 'left out'
  run -0 cat "$FAKE_M_LOG"
  refute_line '4.4.29'
}

@test "Debian 12: capped-pubsub defaults to 8.0 and says 5.0 would be the Debian 11 build" {
  use_platform debian-12
  plan capped-pubsub
  assert_equal "$planned" "8.0.4"
  assert_regex "$stderr" '^warning: 5\.0 left out of the default versions \(5\.0,8\.0\): MongoDB 5\.0 cannot run on Debian 12 without OpenSSL 1\.1 \(m would install its debian11 build'
}

@test "macOS arm64: array-push-oplog keeps 4.4 and 8.0 (m's macOS builds link no OpenSSL 1.1) and says nothing" {
  use_persona macos-arm64
  plan array-push-oplog
  assert_equal "$planned" "4.4.29,8.0.4"
  assert_equal "$stderr" ""
}
