#!/usr/bin/env bats
# The m wrapper (playbooks/lib/m.sh) against a scripted fake m that behaves
# like npm m 1.10.0 where it matters: exit 0 after a failed install, `m bin`
# exit 1 when absent, empty release lists offline (tests/fixtures/fake-m/m).
# Fast and scriptable; tests/bats/m-lane.bats runs the real m (through a local
# download site) for what depends on m's own behaviour per platform.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  use_fake_m
  load_framework
}

@test "X.Y.Z is used as given, without asking m" {
  pb::m_resolve 7.0.12
  assert_equal "$PB_M_RESULT" 7.0.12
  [[ ! -e "$FAKE_M_LOG" ]]
}

@test "X.Y becomes the newest installed X.Y.Z, compared as numbers" {
  fake_m_installed 7.0.5 7.0.12 7.1.0 17.0.1
  pb::m_resolve 7.0
  assert_equal "$PB_M_RESULT" 7.0.12
  run cat "$FAKE_M_LOG"
  assert_success
  assert_output 'installed --json'
}

@test "X.Y not installed: m's stable release of the series" {
  FAKE_M_RELEASES="6.0.20 7.0.9 7.0.14 8.0.4"
  export FAKE_M_RELEASES
  pb::m_resolve 7.0
  assert_equal "$PB_M_RESULT" 7.0.14
  run cat "$FAKE_M_LOG"
  assert_success
  assert_output $'installed --json\n--stable 7.0'
}

@test "a rapid release series (5.2) is looked up with --latest: m --stable only knows X.0 from 5.0 on" {
  FAKE_M_RELEASES="5.0.30 5.2.0 5.2.1"
  export FAKE_M_RELEASES
  pb::m_resolve 5.2
  assert_equal "$PB_M_RESULT" 5.2.1
  run cat "$FAKE_M_LOG"
  assert_success
  assert_line -- '--latest 5.2'
}

@test "offline and nothing installed: resolution fails and says why" {
  run pb::m_resolve 7.0
  assert_failure
  pb::m_resolve 7.0 || true
  assert_regex "$PB_M_ERROR" 'cannot resolve MongoDB 7\.0 to a release: .*no network to downloads\.mongodb\.org'
}

@test "a release candidate is not taken for a release" {
  FAKE_M_RELEASES="8.3.0-rc1"
  export FAKE_M_RELEASES
  run pb::m_resolve 8.3
  assert_failure
}

@test "an installed version is found with m bin and nothing is installed" {
  fake_m_installed 7.0.12
  pb::m_ensure 7.0.12
  assert_equal "$PB_M_RESULT" "${M_PREFIX}/m/versions/7.0.12/bin"
  run cat "$FAKE_M_LOG"
  assert_success
  assert_output 'bin 7.0.12'
}

@test "m exiting 0 without installing anything is a failure: m bin decides" {
  run pb::m_ensure 7.0.14
  assert_failure
  run cat "$FAKE_M_LOG"
  assert_success
  assert_output $'bin 7.0.14\n7.0.14\nbin 7.0.14'
  pb::m_ensure 7.0.14 || true
  assert_regex "$PB_M_ERROR" '^m could not install MongoDB 7\.0\.14 \(m said: .*do not appear to be available.*\): no network, or no build for this OS'
}

@test "not installed and no curl (Debian 12 installs wget only): m is not run, and the error says curl" {
  local bin rc=0
  bin=$(path_without curl)
  PATH="${DBA_LAB_ROOT}/tests/fixtures/fake-m:${bin}" pb::m_ensure 7.0.14 || rc=$?
  assert_equal "$rc" 1
  assert_equal "$PB_M_ERROR" "MongoDB 7.0.14 is not installed, and m downloads with curl, which is not installed (Debian 12 installs wget only)"
  assert_equal "$PB_M_FIX" "install curl (Debian/Ubuntu: apt-get install curl; macOS: brew install curl), or use --binarypath DIR or --uri URI"
  run grep -x '7.0.14' "$FAKE_M_LOG"
  assert_failure 1
}

@test "X.Y not installed and no curl: resolution says curl, not the network" {
  local bin rc=0
  bin=$(path_without curl)
  PATH="${DBA_LAB_ROOT}/tests/fixtures/fake-m:${bin}" pb::m_resolve 7.0 || rc=$?
  assert_equal "$rc" 1
  assert_equal "$PB_M_RESULT" ''
  assert_regex "$PB_M_ERROR" 'm lists releases with curl, which is not installed'
  run grep -- '--stable' "$FAKE_M_LOG"
  assert_failure 1
}

# A sleep length no other process on the machine uses: the stalled m's.
stall_seconds() {
  printf '%d' $((4000 + RANDOM % 4000))
}

@test "a release list that never answers (a stalled network) is stopped at its bound, and says so" {
  local nap
  nap=$(stall_seconds)
  FAKE_M_STALL=$nap PB_M_LIST_SECONDS=1 pb::m_resolve 7.0 || true
  assert_equal "$PB_M_RESULT" ''
  assert_equal "$PB_M_ERROR" "cannot resolve MongoDB 7.0 to a release: m's release list did not answer within 1 s (PB_M_LIST_SECONDS): a stalled network?"
  run pgrep -x -f "sleep ${nap}"
  assert_failure 1
}

@test "a download that never finishes is stopped at its bound, and says so" {
  local nap rc=0
  nap=$(stall_seconds)
  FAKE_M_STALL=$nap PB_M_INSTALL_SECONDS=1 pb::m_ensure 7.0.14 || rc=$?
  assert_equal "$rc" 1
  assert_equal "$PB_M_ERROR" "m's download of MongoDB 7.0.14 did not finish within 1 s (PB_M_INSTALL_SECONDS) and was stopped: a stalled network?"
  run pgrep -x -f "sleep ${nap}"
  assert_failure 1
}

@test "an install that works is verified and used" {
  FAKE_M_INSTALL_WORKS=1
  export FAKE_M_INSTALL_WORKS
  pb::m_ensure 7.0.14
  assert_equal "$PB_M_RESULT" "${M_PREFIX}/m/versions/7.0.14/bin"
}

@test "m runs with the checkout's prefix, links into it, and never prompts" {
  fake_m_installed 7.0.12
  pb::m_ensure 7.0.12
  run grep -F "\$ env M_PREFIX=${M_PREFIX} M_BIN_DIR=${M_PREFIX}/bin M_CONFIRM=0 m bin 7.0.12" "$PB_LOG"
  assert_success
}

@test "a user's own exported M_PREFIX is never m's: its mongod links stay as they were" {
  local user="${BATS_TEST_TMPDIR}/user-local"
  mkdir -p "${user}/bin"
  printf '#!/bin/sh\necho "the user\x27s own mongod"\n' >"${user}/bin/mongod"
  chmod +x "${user}/bin/mongod"
  fake_m_installed 7.0.12
  M_PREFIX=$user pb::m_ensure 7.0.12
  assert_equal "$PB_M_RESULT" "${DBA_LAB_M_PREFIX}/m/versions/7.0.12/bin"
  run grep -F "\$ env M_PREFIX=${DBA_LAB_M_PREFIX} M_BIN_DIR=${DBA_LAB_M_PREFIX}/bin M_CONFIRM=0 m bin 7.0.12" "$PB_LOG"
  assert_success
  run grep -cF "$user" "$PB_LOG"
  assert_failure 1
  run "${user}/bin/mongod"
  assert_success
  assert_output "the user's own mongod"
}

@test "without DBA_LAB_M_PREFIX m's prefix is the checkout's .tools/m, whatever M_PREFIX says" {
  M_PREFIX=/home/someone/.local DBA_LAB_M_PREFIX='' run pb::m_prefix
  assert_success
  assert_output "${DBA_LAB_ROOT}/.tools/m"
  # shellcheck disable=SC2016 # the inner shell's own "$1" and variables
  run env -u DBA_LAB_M_PREFIX M_PREFIX=/home/someone/.local bash -c 'source "$1/setup/env.sh" && printf "%s %s\n" "$M_PREFIX" "$M_BIN_DIR"' _ "$DBA_LAB_ROOT"
  assert_success
  assert_output "${DBA_LAB_ROOT}/.tools/m ${DBA_LAB_ROOT}/.tools/m/bin"
}

@test "a playbook whose version m cannot install stops in preflight (exit 3) and suggests --binarypath or --uri" {
  run --separate-stderr "$DEMO" --topology single --mongodb-version 7.0.14 --dir "${BATS_TEST_TMPDIR}/data" \
    --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" 'MongoDB 7\.0\.14: m could not install MongoDB 7\.0\.14'
  assert_regex "$stderr" 'use --binarypath DIR with mongod/mongos 7\.0\.14 .*, or --uri URI'
  refute_output --partial 'mlaunch init'
  [[ ! -e "${BATS_TEST_TMPDIR}/data" && ! -e "${BATS_TEST_TMPDIR}/report" ]]
}

@test "--binarypath skips m entirely" {
  run "$DEMO" --dry-run --topology single --binarypath "$FAKE_BIN"
  assert_success
  refute_output --partial ' m '
  [[ ! -e "$FAKE_M_LOG" ]]
}

# --- does an installed binary start here? (pb::binary_runs) ---------------------

@test "a binary that starts: its --version output is the answer" {
  pb::binary_runs "${FAKE_BIN}/mongod"
  assert_equal "$(head -n 1 <<<"$PB_M_RESULT")" "db version v7.0.12"
  assert_equal "$PB_M_ERROR" ""
}

@test "a binary the loader refuses: the library it lacks, and why OpenSSL 1.1 is missing" {
  local bin="${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11/mongod"
  run pb::binary_runs "$bin"
  assert_failure
  pb::binary_runs "$bin" || true
  assert_equal "${PB_M_ERROR%% (*}" "${bin} cannot start on this system: the loader cannot find libcrypto.so.1.1"
  assert_regex "$PB_M_ERROR" 'Ubuntu 20\.04 build m installs for MongoDB 4\.4 and 5\.0 on Ubuntu 22\.04\+'
}

@test "a loader refusal of another kind is passed on in the loader's words" {
  # glibc 2.36's ld.so, for a build that needs a newer glibc (exit 1; quotes as it prints them)
  local bin="${BATS_TEST_TMPDIR}/mongod"
  cat >"$bin" <<'FAKE'
#!/usr/bin/env bash
printf '%s: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38'"'"' not found (required by %s)\n' "$0" "$0" >&2
exit 1
FAKE
  chmod +x "$bin"
  pb::binary_runs "$bin" || true
  assert_equal "$PB_M_ERROR" "${bin} cannot start on this system: /lib/x86_64-linux-gnu/libc.so.6: version \`GLIBC_2.38' not found (required by ${bin})"
}

@test "a binary that fails without a loader message: its exit status, and where its output went" {
  local bin="${BATS_TEST_TMPDIR}/mongod"
  printf '#!/usr/bin/env bash\nexit 2\n' >"$bin"
  chmod +x "$bin"
  pb::binary_runs "$bin" || true
  assert_equal "$PB_M_ERROR" "${bin} --version failed (exit 2; the run log has its output)"
}

@test "mongod_version reads X.Y.Z, or says the binary did not start" {
  pb::mongod_version "$FAKE_BIN"
  assert_equal "$PB_M_RESULT" 7.0.12
  run pb::mongod_version "${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11"
  assert_failure
}
