#!/usr/bin/env bats
# The platform personas answer what m reads of the system (node_modules/m/bin/m,
# get_distro_and_arch: `uname`, `uname -m`, `lsb_release -si`/`-sr`), and the
# OpenSSL 1.1 stand-in is refused by the real loader, as MongoDB's Ubuntu 20.04
# and Debian 11 builds are on systems that ship only OpenSSL 3.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load persona_helper
}

@test "Ubuntu 22.04: lsb_release -si/-sr and uname say Ubuntu 22.04 on Linux x86_64" {
  use_persona ubuntu-22.04
  run lsb_release -si
  assert_success
  assert_output Ubuntu
  run lsb_release -sr
  assert_success
  assert_output 22.04
  run uname
  assert_success
  assert_output Linux
  run uname -m
  assert_success
  assert_output x86_64
}

@test "Ubuntu 24.04: lsb_release says 24.04" {
  use_persona ubuntu-24.04
  run lsb_release -sr
  assert_success
  assert_output 24.04
}

@test "Linux Mint 22: lsb_release -si/-sr say Linuxmint 22, as its os-release based lsb_release does" {
  use_persona linuxmint-22
  run lsb_release -si
  assert_success
  assert_output Linuxmint
  run lsb_release -sr
  assert_success
  assert_output 22
}

@test "Zorin OS 17: lsb_release -si/-sr say Zorin 17" {
  use_persona zorin-17
  run lsb_release -s -i -r
  assert_success
  assert_output $'Zorin\n17'
}

@test "Debian 12: lsb_release -a prints the labelled fields" {
  use_persona debian-12
  run lsb_release -a
  assert_success
  assert_output $'Distributor ID:\tDebian\nDescription:\tDebian GNU/Linux 12 (bookworm)\nRelease:\t12\nCodename:\tbookworm'
}

@test "lsb_release with no field succeeds and prints nothing on stdout, as m's probe expects" {
  use_persona debian-12
  run --separate-stderr lsb_release
  assert_success
  assert_output ''
}

@test "macOS arm64: uname says Darwin arm64 and there is no lsb_release" {
  use_persona macos-arm64
  run uname -sm
  assert_success
  assert_output 'Darwin arm64'
  run -127 lsb_release -si
  assert_output --partial 'lsb_release: command not found'
}

@test "uname prints its fields in GNU order whatever the order asked" {
  use_persona ubuntu-22.04
  run uname -m -s
  assert_success
  assert_output 'Linux x86_64'
}

@test "an option the real tools refuse is refused" {
  use_persona ubuntu-22.04
  run -1 uname -q
  assert_output --partial "invalid option -- 'q'"
  run -2 lsb_release -x
  assert_output --partial 'no such option: -x'
}

@test "an unknown persona is an error, not the host's answers" {
  run use_persona windows
  assert_failure
  assert_output --partial 'no persona "windows"'
}

@test "the OpenSSL 1.1 stand-in: the real loader refuses it with its own words and exit 127" {
  persona_without_openssl11
  local bin="${BATS_TEST_TMPDIR}/bin"
  openssl11_standin "$bin" 4.4.29
  run -127 "${bin}/mongod" --version
  assert_output "${bin}/mongod: error while loading shared libraries: libcrypto.so.1.1: cannot open shared object file: No such file or directory"
}

@test "the OpenSSL 1.1 stand-in runs once libcrypto.so.1.1 is installed" {
  persona_without_openssl11
  local bin="${BATS_TEST_TMPDIR}/bin"
  openssl11_standin "$bin" 4.4.29
  persona_install_openssl11
  run "${bin}/mongos" --version
  assert_success
  assert_line --index 0 'mongos version v4.4.29'
}
