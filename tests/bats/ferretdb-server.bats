#!/usr/bin/env bats
# tests/servers/ferretdb.sh build: the integration tests' FerretDB is compiled
# once per machine, not once per clone: a new checkout takes the copy kept in
# the user's cache (XDG_CACHE_HOME here) when it runs, and builds otherwise.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  BUILT="${DBA_LAB_ROOT}/.tools/ferretdb/ferretdb-v1.24.2"
  [[ -x "$BUILT" ]] || skip "no FerretDB built in this checkout (tests/servers/ferretdb.sh build)"
  CLONE="${BATS_TEST_TMPDIR}/clone"
  mkdir -p "${CLONE}/tests/servers" "${BATS_TEST_TMPDIR}/bin"
  cp "${DBA_LAB_ROOT}/tests/servers/ferretdb.sh" "${CLONE}/tests/servers/"
  export XDG_CACHE_HOME="${BATS_TEST_TMPDIR}/cache"
  CACHED="${XDG_CACHE_HOME}/dba-lab/ferretdb-v1.24.2-$(uname -s)-$(uname -m)"
  # A go that only says it was called: a build from source would need it.
  printf '#!/bin/sh\necho called >>%q\nexit 99\n' "${BATS_TEST_TMPDIR}/go.log" >"${BATS_TEST_TMPDIR}/bin/go"
  chmod +x "${BATS_TEST_TMPDIR}/bin/go"
}

@test "a new clone takes FerretDB from the user's cache without compiling it" {
  mkdir -p "${CACHED%/*}"
  cp "$BUILT" "$CACHED"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run "${CLONE}/tests/servers/ferretdb.sh" build
  assert_success
  [[ ! -e "${BATS_TEST_TMPDIR}/go.log" ]]
  cmp "$BUILT" "${CLONE}/.tools/ferretdb/ferretdb-v1.24.2"
}

@test "a cached copy that does not run is not used: the clone builds from source" {
  mkdir -p "${CACHED%/*}"
  printf 'not a program\n' >"$CACHED"
  chmod +x "$CACHED"
  PATH="${BATS_TEST_TMPDIR}/bin:${PATH}" run "${CLONE}/tests/servers/ferretdb.sh" build
  assert_failure 1
  assert_output --partial 'could not download github.com/FerretDB/FerretDB@v1.24.2'
  run cat "${BATS_TEST_TMPDIR}/go.log"
  assert_success
  assert_output called
  [[ ! -e "${CLONE}/.tools/ferretdb/ferretdb-v1.24.2" ]]
}
