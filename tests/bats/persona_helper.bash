# shellcheck shell=bash
# Platform personas for bats files (tests/fixtures/personas/README.md):
#   use_persona NAME            lsb_release and uname answer as NAME's system
#   openssl11_standin DIR X.Y.Z a real mongod/mongos ELF in DIR that links
#                               libcrypto.so.1.1 (built here, with cc)
#   persona_without_openssl11   skips the test on a host that has OpenSSL 1.1
#   persona_install_openssl11   the loader finds libcrypto.so.1.1 from now on
PERSONAS_DIR="${DBA_LAB_ROOT}/tests/fixtures/personas"

use_persona() {
  local name="$1"
  if [[ ! -f "${PERSONAS_DIR}/${name}/persona" ]]; then
    printf 'use_persona: no persona "%s" in %s\n' "$name" "$PERSONAS_DIR" >&2
    return 1
  fi
  export PERSONA="$name" PATH="${PERSONAS_DIR}/${name}/bin:${PATH}"
}

# One stub library per test file; never on the loader's path unless a test
# installs it.
_openssl11_lib_dir() {
  printf '%s/openssl11-lib' "${BATS_FILE_TMPDIR:-$BATS_TEST_TMPDIR}"
}

openssl11_standin() {
  local dir="$1" version="$2" lib
  command -v cc >/dev/null || skip "needs a C compiler to build a program that links libcrypto.so.1.1"
  lib="$(_openssl11_lib_dir)"
  if [[ ! -f "${lib}/libcrypto.so.1.1" ]]; then
    mkdir -p "$lib"
    cc -shared -fPIC -Wl,-soname,libcrypto.so.1.1 -o "${lib}/libcrypto.so.1.1" "${PERSONAS_DIR}/openssl11/libcrypto.c"
  fi
  mkdir -p "$dir"
  cc -DSTANDIN_VERSION="\"${version}\"" -o "${dir}/mongod" "${PERSONAS_DIR}/openssl11/mongod.c" "${lib}/libcrypto.so.1.1"
  cp "${dir}/mongod" "${dir}/mongos"
}

# The personas lack OpenSSL 1.1, which only holds where the host lacks it too:
# a program linked against it must fail to load here.
persona_without_openssl11() {
  local probe="${BATS_TEST_TMPDIR}/openssl11-probe"
  openssl11_standin "$probe" 0.0.0
  if env -u LD_LIBRARY_PATH "${probe}/mongod" --version >/dev/null 2>&1; then
    skip "this host has libcrypto.so.1.1: a persona cannot hide it"
  fi
}

persona_install_openssl11() {
  export LD_LIBRARY_PATH
  LD_LIBRARY_PATH="$(_openssl11_lib_dir)${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
}
