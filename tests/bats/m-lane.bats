#!/usr/bin/env bats
# The real m (node_modules/m/bin/m, m 1.10.0, patched by setup as a user's
# checkout has it) with only the network replaced: a curl shim serves a local
# folder laid out like MongoDB's download hosts (tests/fixtures/m-lane). Every
# test runs from a checkout whose path holds a space, on a platform persona
# (tests/fixtures/personas), and checks which tarball m chose, that `m bin`
# finds it, and what our wrapper (playbooks/lib/m.sh) tells the user.

bats_require_minimum_version 1.5.0

# The builds the site holds, as MongoDB publishes them (docs/m.md): debian12
# from 7.0.3, ubuntu2204 from 6.0.4, ubuntu2404 from 8.0, no Ubuntu 22.04+ or
# Debian 12 build of 4.4 or 5.0.
M_LANE_BUILDS=(
  linux-x86_64-ubuntu2404-8.0.4 linux-x86_64-ubuntu2204-8.0.4 linux-x86_64-debian12-8.0.4
  linux-x86_64-ubuntu2204-7.0.12 linux-x86_64-ubuntu2004-7.0.12 linux-x86_64-debian12-7.0.12 linux-x86_64-debian11-7.0.12
  linux-x86_64-ubuntu2204-6.0.19 linux-x86_64-ubuntu2004-6.0.19 linux-x86_64-debian11-6.0.19
  linux-x86_64-ubuntu2004-4.4.29 linux-x86_64-debian10-4.4.29
  macos-arm64-7.0.12 macos-x86_64-5.0.30
)

setup_file() {
  load test_helper
  load m_lane_helper
  m_lane_site "${BATS_FILE_TMPDIR}/site" "${M_LANE_BUILDS[@]}"
}

setup() {
  load test_helper
  load playbook_helper
  load m_lane_helper
  SITE="${BATS_FILE_TMPDIR}/site"
  CHECKOUT="${BATS_TEST_TMPDIR}/My Labs/dba-lab"
  PREFIX="${CHECKOUT}/.tools/m"
}

# lane PERSONA [--unpatched] [--no-space]: the checkout (its m patched as
# setup does, unless --unpatched; under "My Labs" unless --no-space), the
# persona, the framework loaded from the checkout's own path.
lane() {
  local persona="$1" mode=patched
  shift
  while (($#)); do
    case "$1" in
      --unpatched) mode=--unpatched ;;
      --no-space) CHECKOUT="${BATS_TEST_TMPDIR}/plain/dba-lab" PREFIX="${BATS_TEST_TMPDIR}/plain/dba-lab/.tools/m" ;;
    esac
    shift
  done
  m_lane_checkout "$CHECKOUT" "$mode"
  use_persona "$persona"
  use_m_lane "$SITE" "$CHECKOUT"
  DBA_LAB_ROOT=$CHECKOUT
  load_framework
}

# The tarball m downloaded (the one fetched with -sSLf, not probed with -Is).
downloaded() {
  grep -E '^-sSLf https?://fastdl' "$M_LANE_CURL_LOG" | sed -E 's#^.* https?://fastdl\.mongodb\.org/##'
}

m_here() {
  env M_PREFIX="$PREFIX" M_CONFIRM=0 m "$@"
}

# --- the curl shim is as strict as curl where m depends on it -------------------

@test "curl shim: a file the site lacks fails like curl -f (exit 22), a host it lacks like an unknown host (exit 6)" {
  use_m_lane "$SITE" "$BATS_TEST_TMPDIR"
  run -22 curl -sSLf https://fastdl.mongodb.org/linux/mongodb-linux-x86_64-ubuntu2204-9.9.9.tgz
  assert_output 'curl: (22) The requested URL returned error: 404'
  run -6 curl -sSLf https://api.github.com/repos/mongodb/mongo-tools/git/refs/tags
  assert_output 'curl: (6) Could not resolve host: api.github.com'
  run curl -Is http://fastdl.mongodb.org/linux/mongodb-linux-x86_64-ubuntu2204-9.9.9.tgz
  assert_success
  assert_line --index 0 $'HTTP/1.1 404 Not Found\r'
  run -2 curl --compressed https://downloads.mongodb.org/full.json
  assert_output --partial 'option --compressed: is unknown'
}

# --- what m installs, per platform ----------------------------------------------

@test "Ubuntu 22.04: m 7.0.12 installs the ubuntu2204 build, m bin finds it, and it runs" {
  lane ubuntu-22.04
  run m_here 7.0.12
  assert_success
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-ubuntu2204-7.0.12.tgz
  run m_here bin 7.0.12
  assert_success
  assert_output "${PREFIX}/m/versions/7.0.12/bin"
  pb::m_ensure 7.0.12
  assert_equal "$PB_M_RESULT" "${PREFIX}/m/versions/7.0.12/bin"
  pb::mongod_version "$PB_M_RESULT"
  assert_equal "$PB_M_RESULT" 7.0.12
}

@test "Ubuntu 22.04: 4.4 has only an Ubuntu 20.04 build; it installs, and our wrapper names the missing OpenSSL 1.1" {
  persona_without_openssl11
  lane ubuntu-22.04
  pb::m_ensure 4.4.29
  assert_equal "$PB_M_RESULT" "${PREFIX}/m/versions/4.4.29/bin"
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-ubuntu2004-4.4.29.tgz
  run pb::binary_runs "${PREFIX}/m/versions/4.4.29/bin/mongod"
  assert_failure
  pb::binary_runs "${PREFIX}/m/versions/4.4.29/bin/mongod" || true
  assert_equal "${PB_M_ERROR%% (*}" "${PREFIX}/m/versions/4.4.29/bin/mongod cannot start on this system: the loader cannot find libcrypto.so.1.1"
  assert_regex "$PB_M_ERROR" 'OpenSSL 1\.1: .*Ubuntu 20\.04 build'
}

@test "Ubuntu 22.04: the 4.4 build runs once OpenSSL 1.1 is installed" {
  persona_without_openssl11
  lane ubuntu-22.04
  pb::m_ensure 4.4.29
  persona_install_openssl11
  pb::mongod_version "$PB_M_RESULT"
  assert_equal "$PB_M_RESULT" 4.4.29
}

@test "Ubuntu 24.04: 8.0 gets the ubuntu2404 build, 6.0 the ubuntu2204 one" {
  lane ubuntu-24.04
  run m_here 8.0.4
  assert_success
  run m_here 6.0.19
  assert_success
  run downloaded
  assert_success
  assert_output $'linux/mongodb-linux-x86_64-ubuntu2404-8.0.4.tgz\nlinux/mongodb-linux-x86_64-ubuntu2204-6.0.19.tgz'
}

@test "Linux Mint 22: 8.0 gets the ubuntu2404 build, 6.0 the ubuntu2204 one, as on Ubuntu 24.04" {
  lane linuxmint-22
  run m_here 8.0.4
  assert_success
  run m_here 6.0.19
  assert_success
  run downloaded
  assert_success
  assert_output $'linux/mongodb-linux-x86_64-ubuntu2404-8.0.4.tgz\nlinux/mongodb-linux-x86_64-ubuntu2204-6.0.19.tgz'
}

@test "Linux Mint 22, m as npm ships it: no build for 8.0" {
  # Without the patch m also fails under a path with a space: none here.
  lane linuxmint-22 --unpatched --no-space
  run m_here 8.0.4
  assert_success
  assert_output --partial 'do not appear to be available'
  run downloaded
  assert_success
  assert_output ''
}

@test "Zorin OS 17 (Ubuntu 22.04 inside, a name m does not know): m installs the ubuntu2204 build of 7.0, which runs" {
  lane zorin-17
  m_lane_os_release "$CHECKOUT" "${PERSONAS_DIR}/zorin-17/os-release"
  pb::m_ensure 7.0.12
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-ubuntu2204-7.0.12.tgz
  pb::mongod_version "$PB_M_RESULT"
  assert_equal "$PB_M_RESULT" 7.0.12
}

@test "Zorin OS 17 whose os-release names no Ubuntu release: m finds no build" {
  lane zorin-17
  m_lane_os_release "$CHECKOUT" /dev/null
  run m_here 7.0.12
  assert_success
  assert_output --partial 'do not appear to be available'
}

@test "Debian 12: m installs the debian12 build of 7.0, which runs" {
  lane debian-12
  pb::m_ensure 7.0.12
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-debian12-7.0.12.tgz
  pb::mongod_version "$PB_M_RESULT"
  assert_equal "$PB_M_RESULT" 7.0.12
}

@test "Debian 12: 6.0 has no debian12 build; m installs the ubuntu2204 one, which runs" {
  lane debian-12
  pb::m_ensure 6.0.19
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-ubuntu2204-6.0.19.tgz
  pb::mongod_version "$PB_M_RESULT"
  assert_equal "$PB_M_RESULT" 6.0.19
}

@test "Debian 12: 4.4 has no runnable build; our wrapper says which library is missing" {
  persona_without_openssl11
  lane debian-12
  pb::m_ensure 4.4.29
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-debian10-4.4.29.tgz
  pb::binary_runs "${PB_M_RESULT}/mongod" || true
  assert_equal "${PB_M_ERROR%% (*}" "${PREFIX}/m/versions/4.4.29/bin/mongod cannot start on this system: the loader cannot find libcrypto.so.1.1"
  assert_regex "$PB_M_ERROR" 'OpenSSL 1\.1: .*Debian 10/11 build'
}

@test "Debian 12, m as npm ships it: 7.0 comes as the debian11 build, which the loader refuses" {
  persona_without_openssl11
  # Without the patch m also fails under a path with a space: none here.
  lane debian-12 --unpatched --no-space
  run m_here 7.0.12
  assert_success
  run downloaded
  assert_success
  assert_output linux/mongodb-linux-x86_64-debian11-7.0.12.tgz
  run -127 "${PREFIX}/m/versions/7.0.12/bin/mongod" --version
}

@test "macOS arm64: 7.0 gets the arm64 build; 5.0 the x86_64 one (Rosetta), as m says" {
  lane macos-arm64
  run m_here 7.0.12
  assert_success
  run m_here 5.0.30
  assert_success
  assert_output --partial 'Apple Silicon is not natively supported for MongoDB server before 6.0'
  run downloaded
  assert_success
  assert_output $'osx/mongodb-macos-arm64-7.0.12.tgz\nosx/mongodb-macos-x86_64-5.0.30.tgz'
  run m_here bin 5.0.30
  assert_success
  assert_output "${PREFIX}/m/versions/5.0.30/bin"
}

# --- what our wrapper tells the user ---------------------------------------------

@test "X.Y resolves through m's release list to the newest release" {
  lane ubuntu-22.04
  pb::m_resolve 7.0
  assert_equal "$PB_M_RESULT" 7.0.12
  run grep -c 'downloads.mongodb.org/full.json' "$M_LANE_CURL_LOG"
  assert_success
  assert_output 1
}

@test "X.Y with no route to downloads.mongodb.org: resolution fails and says so" {
  lane ubuntu-22.04
  M_LANE_SITE="${BATS_TEST_TMPDIR}/offline"
  mkdir -p "$M_LANE_SITE"
  run pb::m_resolve 7.0
  assert_failure
  pb::m_resolve 7.0 || true
  assert_regex "$PB_M_ERROR" '^cannot resolve MongoDB 7\.0 to a release: .*no network to downloads\.mongodb\.org'
}

@test "a version with no build for this system: m exits 0, our wrapper fails in m's words" {
  lane ubuntu-22.04
  run m_here 7.0.99
  assert_success
  assert_output --partial 'do not appear to be available'
  run pb::m_ensure 7.0.99
  assert_failure
  pb::m_ensure 7.0.99 || true
  assert_regex "$PB_M_ERROR" '^m could not install MongoDB 7\.0\.99 \(m said: .*do not appear to be available.*\)'
}

@test "an installed X.Y.Z is found with m bin: no download" {
  lane ubuntu-22.04
  pb::m_ensure 7.0.12
  : >"$M_LANE_CURL_LOG"
  pb::m_ensure 7.0.12
  assert_equal "$PB_M_RESULT" "${PREFIX}/m/versions/7.0.12/bin"
  [[ ! -s "$M_LANE_CURL_LOG" ]]
}

# --- a checkout path with a space -------------------------------------------------

@test "space in the path, m as npm ships it: every m call exits 1 and leaves stray folders" {
  lane ubuntu-22.04 --unpatched
  cd "$BATS_TEST_TMPDIR"
  run -1 m_here installed --json
  assert_output --partial 'Failed to create versions directory'
  [[ -d "${BATS_TEST_TMPDIR}/My" && -d "${BATS_TEST_TMPDIR}/Labs/dba-lab/.tools/m/m/versions" ]]
}

@test "space in the path: m installs, lists and finds versions, and leaves nothing outside its prefix" {
  lane ubuntu-22.04
  cd "$BATS_TEST_TMPDIR"
  run m_here 7.0.12
  assert_success
  run m_here installed --json
  assert_success
  run jq -r '.[].path' <<<"$output"
  assert_success
  assert_output "${PREFIX}/m/versions/7.0.12/bin/"
  run ls -A "$BATS_TEST_TMPDIR"
  assert_success
  refute_line My
  refute_line Labs
}

# --- m's links go into the checkout, never into the user's M_BIN_DIR --------------

@test "a user's own M_BIN_DIR receives nothing: m's links stay in the checkout" {
  lane ubuntu-22.04
  export M_BIN_DIR="${BATS_TEST_TMPDIR}/user-bin"
  mkdir -p "$M_BIN_DIR"
  pb::m_ensure 7.0.12
  run ls -A "$M_BIN_DIR"
  assert_success
  assert_output ''
  [[ -L "${PREFIX}/bin/mongod" ]]
}

@test "setup/env.sh pins M_BIN_DIR beside the checkout's prefix, whatever the user's shell had" {
  # shellcheck disable=SC2016 # expanded by the inner bash, after env.sh
  run env -u M_PREFIX M_BIN_DIR="${BATS_TEST_TMPDIR}/user-bin" bash -c 'source "$1/setup/env.sh" && printf "%s\n" "$M_BIN_DIR"' _ "$DBA_LAB_ROOT"
  assert_success
  assert_output "${DBA_LAB_ROOT}/.tools/m/bin"
}

# --- setup's patch of m -------------------------------------------------------------

@test "the patch applies to m 1.10.0 exactly, once: a second run leaves m as it is" {
  local m="${BATS_TEST_TMPDIR}/m"
  m_as_shipped "$m"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" m "$m"
  assert_success
  assert_output applied
  cp "$m" "${m}.once"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" m "$m"
  assert_success
  assert_output 'already applied'
  cmp "$m" "${m}.once"
  run grep -c '^    debian-\*)  distros="debian12 ubuntu2204 debian11 debian10 debian92" ;;$' "$m"
  assert_success
  assert_output 1
}

@test "an m whose hunks still fit at another offset (another release) is refused by its SHA256, and left unchanged" {
  local m="${BATS_TEST_TMPDIR}/m"
  m_as_shipped "${BATS_TEST_TMPDIR}/shipped"
  # As m 1.9.8 is to the patch: the same lines around each hunk, others moved.
  { sed -n 1p "${BATS_TEST_TMPDIR}/shipped"; printf '# another release\n'; sed '1d; s/^VERSION="1.10.0"$/VERSION="1.9.8"/' "${BATS_TEST_TMPDIR}/shipped"; } >"$m"
  run patch --dry-run -s -f -F 0 "$m" <"${DBA_LAB_ROOT}/setup/m-1.10.0.patch"
  assert_success
  cp "$m" "${m}.before"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" m "$m"
  assert_failure 1
  assert_output "patch-m: ${m} is m 1.9.8, not m 1.10.0: m-1.10.0.patch does not apply, so m would install unrunnable builds on Debian 12, find none on Linux Mint 22, and fail under a path with a space; reinstall m 1.10.0 (rm -rf node_modules; ./setup/install.sh)"
  cmp "$m" "${m}.before"
}

@test "setup stops in one line on an m the patch does not fit, and leaves it unchanged" {
  local fake="${BATS_TEST_TMPDIR}/checkout"
  mkdir -p "${fake}/setup" "${fake}/node_modules/.bin" "${fake}/node_modules/m/bin"
  cp "${DBA_LAB_ROOT}"/setup/*.sh "${DBA_LAB_ROOT}"/setup/*.patch "${fake}/setup/"
  cp "${DBA_LAB_ROOT}/package.json" "${DBA_LAB_ROOT}/package-lock.json" "$fake/"
  # npm's packages are up to date (its stamp), so setup goes straight to m.
  sha256sum "${fake}/package-lock.json" | awk '{printf "%s", $1}' >"${fake}/node_modules/.dba-lab-stamp"
  printf '#!/bin/sh\n' >"${fake}/node_modules/.bin/mongosh"
  chmod +x "${fake}/node_modules/.bin/mongosh"
  m_as_shipped "${BATS_TEST_TMPDIR}/shipped"
  sed 's/^VERSION="1.10.0"$/VERSION="1.11.0"/; s/debian10 debian92" ;;$/debian10" ;;/' "${BATS_TEST_TMPDIR}/shipped" >"${fake}/node_modules/m/bin/m"
  cp "${fake}/node_modules/m/bin/m" "${BATS_TEST_TMPDIR}/before"
  HOME="${BATS_TEST_TMPDIR}/home" run "${fake}/setup/install.sh" --no-system --quiet
  assert_failure 1
  assert_output --regexp "^setup: ${fake}/node_modules/m/bin/m is m 1\\.11\\.0, not m 1\\.10\\.0: m-1\\.10\\.0\\.patch does not apply, .*Debian 12.*space"
  [[ "${#lines[@]}" -eq 1 ]]
  cmp "${fake}/node_modules/m/bin/m" "${BATS_TEST_TMPDIR}/before"
}
