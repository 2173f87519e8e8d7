#!/usr/bin/env bats
# Which build m would fetch, and whether it can start here, before any
# download (playbooks/lib/platform.sh, docs/platforms.md). The platform comes
# from a persona (tests/fixtures/personas: uname and lsb_release first on PATH,
# as m reads them) with an ldconfig that lists its OpenSSL (platform_helper.bash).

# shellcheck disable=SC2030,SC2031,SC2034 # each test changes PATH for itself; PB_* globals are the framework's
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  load platform_helper
  load_framework
  # No OpenSSL 1.1 in this test's checkout unless a test puts it there.
  PB_ROOT="${BATS_TEST_TMPDIR}/checkout"
  mkdir -p "$PB_ROOT"
}

# build_of DISTRO VERSION [UBUNTU_CODENAME]: "BUILD OPENSSL" m would fetch
# where os-release names that Ubuntu release (none: names none).
build_of() {
  PB_PLATFORM_OS=linux PB_PLATFORM_ARCH=x86_64 PB_PLATFORM_DISTRO=$1 PB_PLATFORM_UBUNTU_CODENAME=${3:-}
  pb::platform_build "$2" || true
  printf '%s %s\n' "${PB_PLATFORM_BUILD:-unknown}" "${PB_PLATFORM_OPENSSL:--}"
}

@test "table: Ubuntu 24.04 gets the Ubuntu 20.04 build (OpenSSL 1.1) of 4.4 and 5.0" {
  run -0 build_of ubuntu-24.04 4.4
  assert_output "ubuntu2004 1.1"
  run -0 build_of ubuntu-24.04 5.0
  assert_output "ubuntu2004 1.1"
}

@test "table: Ubuntu 24.04 gets the Ubuntu 22.04 build of 6.0 and 7.0, its own of 8.0 (OpenSSL 3)" {
  run -0 build_of ubuntu-24.04 6.0
  assert_output "ubuntu2204 3"
  run -0 build_of ubuntu-24.04 7.0
  assert_output "ubuntu2204 3"
  run -0 build_of ubuntu-24.04 8.0
  assert_output "ubuntu2404 3"
}

@test "table: Ubuntu 22.04 gets the Ubuntu 22.04 build from 6.0.4, the Ubuntu 20.04 build before" {
  run -0 build_of ubuntu-22.04 6.0.3
  assert_output "ubuntu2004 1.1"
  run -0 build_of ubuntu-22.04 6.0.4
  assert_output "ubuntu2204 3"
  run -0 build_of ubuntu-22.04 5.0.30
  assert_output "ubuntu2004 1.1"
}

@test "table: Debian 12 (m as setup patches it) gets debian12 from 7.0.3, the Ubuntu 22.04 build of 6.0.4 to 7.0.2" {
  run -0 build_of debian-12 8.0
  assert_output "debian12 3"
  run -0 build_of debian-12 7.0.3
  assert_output "debian12 3"
  run -0 build_of debian-12 7.0.2
  assert_output "ubuntu2204 3"
  run -0 build_of debian-12.11 6.0
  assert_output "ubuntu2204 3"
}

@test "table: Debian 12 gets the Debian 11 build of 5.0 and the Debian 10 build of 4.4 (OpenSSL 1.1)" {
  run -0 build_of debian-12 5.0
  assert_output "debian11 1.1"
  run -0 build_of debian-12 4.4
  assert_output "debian10 1.1"
}

@test "table: Ubuntu 20.04 and Debian 11 get builds of their own (OpenSSL 1.1, which they ship)" {
  run -0 build_of ubuntu-20.04 4.4
  assert_output "ubuntu2004 1.1"
  run -0 build_of debian-11 7.0
  assert_output "debian11 1.1"
}

@test "table: Linux Mint 22 gets what Ubuntu 24.04 gets: its own build of 8.0, the Ubuntu 22.04 build of 7.0" {
  run -0 build_of linuxmint-22 8.0
  assert_output "ubuntu2404 3"
  run -0 build_of linuxmint-22.1 7.0
  assert_output "ubuntu2204 3"
}

@test "table: Linux Mint 22 gets the Ubuntu 20.04 build (OpenSSL 1.1) of 4.4 and 5.0, as Ubuntu 24.04 does" {
  run -0 build_of linuxmint-22 4.4
  assert_output "ubuntu2004 1.1"
  run -0 build_of linuxmint-22 5.0
  assert_output "ubuntu2004 1.1"
}

@test "table: an Ubuntu derivative m does not name gets the builds of the Ubuntu release its os-release names" {
  run -0 build_of zorin-17 7.0 jammy
  assert_output "ubuntu2204 3"
  run -0 build_of elementary-8 8.0 noble
  assert_output "ubuntu2404 3"
  run -0 build_of zorin-16 5.0 focal
  assert_output "ubuntu2004 1.1"
}

@test "table: a derivative whose os-release names no Ubuntu release m knows is not predicted" {
  run -0 build_of zorin-17 7.0
  assert_output "unknown -"
  run -0 build_of someos-1 7.0 resolute
  assert_output "unknown -"
}

@test "table: a distribution m names keeps its own list whatever its os-release says" {
  run -0 build_of debian-12 8.0 noble
  assert_output "debian12 3"
}

@test "table: a distribution m has no list for is not predicted" {
  run -0 build_of arch- 8.0
  assert_output "unknown -"
  run -0 build_of rhel-9.4 4.4
  assert_output "unknown -"
}

@test "detect: reads lsb_release as m does (Ubuntu 24.04 persona)" {
  use_platform ubuntu-24.04
  pb::platform_detect
  assert_equal "$PB_PLATFORM_OS $PB_PLATFORM_ARCH $PB_PLATFORM_DISTRO" "linux x86_64 ubuntu-24.04"
  assert_equal "$PB_PLATFORM_LABEL" "Ubuntu 24.04"
}

@test "detect: Debian 12 persona: m's key debian-12, shown as Debian 12" {
  use_platform debian-12
  pb::platform_detect
  assert_equal "$PB_PLATFORM_DISTRO $PB_PLATFORM_LABEL" "debian-12 Debian 12"
}

@test "detect: Linux Mint 22 persona: m's key linuxmint-22, shown as Linux Mint 22" {
  use_platform linuxmint-22
  pb::platform_detect
  assert_equal "$PB_PLATFORM_DISTRO $PB_PLATFORM_LABEL" "linuxmint-22 Linux Mint 22"
}

@test "detect: reads UBUNTU_CODENAME from os-release as setup's m does (Zorin OS 17 persona)" {
  use_platform zorin-17
  PB_PLATFORM_OS_RELEASE="${PERSONAS_DIR}/zorin-17/os-release"
  pb::platform_detect
  assert_equal "$PB_PLATFORM_DISTRO $PB_PLATFORM_UBUNTU_CODENAME" "zorin-17 jammy"
}

@test "detect: no os-release, no Ubuntu release" {
  use_platform zorin-17
  PB_PLATFORM_OS_RELEASE="${BATS_TEST_TMPDIR}/absent"
  pb::platform_detect
  assert_equal "${PB_PLATFORM_DISTRO}:${PB_PLATFORM_UBUNTU_CODENAME}" "zorin-17:"
}

@test "detect: macOS is not predicted (m fetches its macOS build, which links no OpenSSL 1.1)" {
  use_persona macos-arm64
  pb::platform_detect
  assert_equal "$PB_PLATFORM_OS" osx
  run -0 pb::platform_runs 4.4
}

@test "runs: 4.4 on Ubuntu 24.04 without OpenSSL 1.1 is refused with the fix" {
  use_platform ubuntu-24.04
  pb::platform_detect
  run -1 pb::platform_runs 4.4
  pb::platform_runs 4.4 || true
  assert_equal "$PB_PLATFORM_WHY" "MongoDB 4.4 cannot run on Ubuntu 24.04 without OpenSSL 1.1 (m would install its ubuntu2004 build, which links libssl.so.1.1; Ubuntu 24.04 ships OpenSSL 3)"
  assert_equal "$PB_PLATFORM_FIX" "run ./setup/libssl11.sh (it puts OpenSSL 1.1 into .tools/lib, for the servers only) or pass --mongodb-version 6.0"
}

@test "runs: 8.0 on Ubuntu 24.04 runs" {
  use_platform ubuntu-24.04
  pb::platform_detect
  run -0 pb::platform_runs 8.0
}

@test "runs: 5.0 on Linux Mint 22 without OpenSSL 1.1 is refused with the fix, as on Ubuntu 24.04" {
  use_platform linuxmint-22
  pb::platform_detect
  run -1 pb::platform_runs 5.0
  pb::platform_runs 5.0 || true
  assert_equal "$PB_PLATFORM_WHY" "MongoDB 5.0 cannot run on Linux Mint 22 without OpenSSL 1.1 (m would install its ubuntu2004 build, which links libssl.so.1.1; Linux Mint 22 ships OpenSSL 3)"
  assert_equal "$PB_PLATFORM_FIX" "run ./setup/libssl11.sh (it puts OpenSSL 1.1 into .tools/lib, for the servers only) or pass --mongodb-version 6.0"
}

@test "runs: 7.0 on Zorin OS 17 runs; 4.4 is refused for OpenSSL 1.1, as on Ubuntu 22.04" {
  use_platform zorin-17
  PB_PLATFORM_OS_RELEASE="${PERSONAS_DIR}/zorin-17/os-release"
  pb::platform_detect
  run -0 pb::platform_runs 7.0
  run -1 pb::platform_runs 4.4
  pb::platform_runs 4.4 || true
  assert_regex "$PB_PLATFORM_WHY" '^MongoDB 4\.4 cannot run on Zorin 17 without OpenSSL 1\.1 \(m would install its ubuntu2004 build'
}

@test "runs: 4.4 on Ubuntu 20.04 runs (the loader knows OpenSSL 1.1)" {
  use_platform ubuntu-20.04
  pb::platform_detect
  run -0 pb::platform_runs 4.4
}

@test "runs: 4.4 on Ubuntu 24.04 runs once .tools/lib holds OpenSSL 1.1" {
  use_platform ubuntu-24.04
  pb::platform_detect
  mkdir -p "${PB_ROOT}/.tools/lib"
  touch "${PB_ROOT}/.tools/lib/libssl.so.1.1" "${PB_ROOT}/.tools/lib/libcrypto.so.1.1"
  run -0 pb::platform_runs 4.4
}

@test "runs: 4.4 on Ubuntu 24.04 runs when the user's LD_LIBRARY_PATH holds OpenSSL 1.1" {
  use_platform ubuntu-24.04
  pb::platform_detect
  mkdir -p "${BATS_TEST_TMPDIR}/own-ssl"
  touch "${BATS_TEST_TMPDIR}/own-ssl/libssl.so.1.1" "${BATS_TEST_TMPDIR}/own-ssl/libcrypto.so.1.1"
  LD_LIBRARY_PATH="/nonexistent:${BATS_TEST_TMPDIR}/own-ssl" run -0 pb::platform_runs 4.4
  LD_LIBRARY_PATH="/nonexistent" run -1 pb::platform_runs 4.4
}

@test "runs: 5.0 on Debian 12 suggests 6.0, the oldest series that runs there as it is" {
  use_platform debian-12
  pb::platform_detect
  pb::platform_runs 5.0 || true
  assert_equal "$PB_PLATFORM_WHY" "MongoDB 5.0 cannot run on Debian 12 without OpenSSL 1.1 (m would install its debian11 build, which links libssl.so.1.1; Debian 12 ships OpenSSL 3)"
  assert_regex "$PB_PLATFORM_FIX" 'or pass --mongodb-version 6\.0$'
}

# --- preflight: the answer comes before m downloads anything

@test "preflight: 4.4 on Ubuntu 24.04 without OpenSSL 1.1 stops with exit 3 before m downloads it" {
  use_platform ubuntu-24.04
  use_fake_m
  PB_ROOT=$DBA_LAB_ROOT
  [[ ! -e "$(pb::tools_lib)/libssl.so.1.1" ]] || skip "this checkout's .tools/lib holds OpenSSL 1.1"
  FAKE_MONGOD="${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11/mongod" FAKE_M_INSTALL_WORKS=1 FAKE_M_RELEASES="4.4.29 8.0.4" \
    run --separate-stderr "$DEMO" --mongodb-version 4.4 --topology single \
    --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" '  - MongoDB 4\.4\.29 cannot run on Ubuntu 24\.04 without OpenSSL 1\.1 \(m would install its ubuntu2004 build, which links libssl\.so\.1\.1; Ubuntu 24\.04 ships OpenSSL 3\): run \./setup/libssl11\.sh \(it puts OpenSSL 1\.1 into \.tools/lib, for the servers only\) or pass --mongodb-version 6\.0'
  run -0 cat "$FAKE_M_LOG"
  refute_line '4.4.29'
  [[ ! -e "${M_PREFIX}/m/versions/4.4.29" ]]
}

@test "preflight: 4.4 on Linux Mint 22 without OpenSSL 1.1 stops with exit 3 before m downloads it" {
  use_platform linuxmint-22
  use_fake_m
  PB_ROOT=$DBA_LAB_ROOT
  [[ ! -e "$(pb::tools_lib)/libssl.so.1.1" ]] || skip "this checkout's .tools/lib holds OpenSSL 1.1"
  FAKE_MONGOD="${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11/mongod" FAKE_M_INSTALL_WORKS=1 FAKE_M_RELEASES="4.4.29 8.0.4" \
    run --separate-stderr "$DEMO" --mongodb-version 4.4 --topology single \
    --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" '  - MongoDB 4\.4\.29 cannot run on Linux Mint 22 without OpenSSL 1\.1 \(m would install its ubuntu2004 build, which links libssl\.so\.1\.1; Linux Mint 22 ships OpenSSL 3\): run \./setup/libssl11\.sh'
  run -0 cat "$FAKE_M_LOG"
  refute_line '4.4.29'
}

@test "preflight: a version already installed is judged by its binary, not by the table" {
  use_platform ubuntu-24.04
  use_fake_m
  fake_m_installed 4.4.29
  run -0 "$DEMO" --dry-run --mongodb-version 4.4.29 --topology single --dir "${BATS_TEST_TMPDIR}/data"
  assert_line --partial "ok   MongoDB 4.4.29 (asked for 4.4.29): ${M_PREFIX}/m/versions/4.4.29/bin"
}

@test "preflight: an installed build the loader refuses for OpenSSL 1.1 names ./setup/libssl11.sh too" {
  use_platform ubuntu-24.04
  use_fake_m
  FAKE_MONGOD="${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11/mongod" fake_m_installed 4.4.29
  run --separate-stderr "$DEMO" --mongodb-version 4.4.29 --topology single \
    --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" 'cannot find libcrypto\.so\.1\.1 .*, or run \./setup/libssl11\.sh \(it puts OpenSSL 1\.1 into \.tools/lib, for the servers only\)$'
}

@test "preflight: a --binarypath build the loader refuses for OpenSSL 1.1 names ./setup/libssl11.sh too" {
  run --separate-stderr "$DEMO" --binarypath "${DBA_LAB_ROOT}/tests/fixtures/fake-server/openssl11" --topology single \
    --dir "${BATS_TEST_TMPDIR}/data" --report-dir "${BATS_TEST_TMPDIR}/report"
  assert_failure 3
  assert_regex "$stderr" 'cannot find libcrypto\.so\.1\.1 .*, or run \./setup/libssl11\.sh \(it puts OpenSSL 1\.1 into \.tools/lib, for the servers only\)$'
}

@test "table: the builds tried per distro are m's own, as setup patches it, for every distro the table knows" {
  local m="${BATS_TEST_TMPDIR}/m" os_release="${BATS_TEST_TMPDIR}/os-release" table distro codename want got
  cp "${DBA_LAB_ROOT}/node_modules/m/bin/m" "$m"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" m "$m"
  assert_success
  # m's distro map itself (its one `case "$distro"` block), run as a function;
  # the os-release it reads is this test's, which names UBUNTU_CODENAME.
  table=$(awk '/^  case "\$distro" in$/{f=1} f{print} f&&/^  esac$/{exit}' "$m")
  eval "m_distros() { local distro=\"\$1\" distros; ${table//\/etc\/os-release/$os_release}; printf '%s' \"\$distros\"; }"
  for codename in '' noble jammy focal resolute; do
    printf 'ID=someos\nUBUNTU_CODENAME=%s\n' "$codename" >"$os_release"
    for distro in debian-7 debian-8 debian-9 debian-10 debian-11 debian-12 debian-13 \
      ubuntu-18.04 ubuntu-20.04 ubuntu-22.04 ubuntu-24.04 ubuntu-26.04 linuxmint-20.3 linuxmint-21.1 \
      linuxmint-22 linuxmint-22.1 zorin-17 elementary-8; do
      want=$(m_distros "$distro")
      got=$(pb::_m_candidates "$distro" "$codename")
      assert_equal "${distro} (${codename}): ${got}" "${distro} (${codename}): ${want}"
    done
  done
}
