#!/usr/bin/env bats
# setup/libssl11.sh: OpenSSL 1.1 into .tools/lib after a yes, from a package
# whose SHA256 is checked; and the playbooks start the builds that link it with
# LD_LIBRARY_PATH=.tools/lib (playbooks/lib/platform.sh, pb::server_env).
# The package is one this test builds with dpkg-deb (a test library named
# libcrypto.so.1.1 when cc is here), served from a folder; the script runs
# from a copy of setup/ in a scratch checkout, so the real .tools is untouched.

# shellcheck disable=SC2030,SC2031,SC2034 # PB_* globals are the framework's
bats_require_minimum_version 1.5.0

DEB=libssl1.1_1.1.1f-1ubuntu2.24_amd64.deb

setup() {
  load test_helper
  load playbook_helper
  command -v dpkg-deb >/dev/null || skip "needs dpkg-deb to build the test package"
  CHECKOUT="${BATS_TEST_TMPDIR}/checkout"
  mkdir -p "${CHECKOUT}/setup"
  cp "${DBA_LAB_ROOT}/setup/libssl11.sh" "${CHECKOUT}/setup/"
  POOL="${BATS_TEST_TMPDIR}/pool"
  make_package
  export DBA_LAB_TEST_LIBSSL11_BASE="file://${POOL}"
  DBA_LAB_TEST_LIBSSL11_SHA256=$(sha256sum "${POOL}/${DEB}" | cut -d' ' -f1)
  export DBA_LAB_TEST_LIBSSL11_SHA256
  unset CI
}

# The package: usr/lib/x86_64-linux-gnu/{libssl,libcrypto}.so.1.1, as Ubuntu's.
# With cc, libcrypto.so.1.1 is a real shared library (soname libcrypto.so.1.1)
# and PROGRAM a program linked to it, which the loader refuses without it.
make_package() {
  local pkg="${BATS_TEST_TMPDIR}/pkg" src="${BATS_TEST_TMPDIR}/src" libdir
  libdir="${pkg}/usr/lib/x86_64-linux-gnu"
  mkdir -p "${pkg}/DEBIAN" "$libdir" "$POOL" "$src"
  printf 'Package: libssl1.1\nVersion: 1.1.1f-1ubuntu2.24\nArchitecture: amd64\nMaintainer: test\nDescription: test package\n' >"${pkg}/DEBIAN/control"
  PROGRAM=''
  if command -v cc >/dev/null; then
    printf 'int dbalab_fake(void) { return 0; }\n' >"${src}/lib.c"
    cc -shared -fPIC -Wl,-soname,libcrypto.so.1.1 -o "${libdir}/libcrypto.so.1.1" "${src}/lib.c"
    cp "${libdir}/libcrypto.so.1.1" "${libdir}/libssl.so.1.1"
    mkdir -p "${BATS_TEST_TMPDIR}/bin"
    printf 'int dbalab_fake(void);\n#include <stdio.h>\nint main(void) { puts("db version v4.4.29"); return dbalab_fake(); }\n' >"${src}/main.c"
    PROGRAM="${BATS_TEST_TMPDIR}/bin/mongod"
    cc -o "$PROGRAM" "${src}/main.c" "${libdir}/libcrypto.so.1.1"
  else
    printf 'test libssl\n' >"${libdir}/libssl.so.1.1"
    printf 'test libcrypto\n' >"${libdir}/libcrypto.so.1.1"
  fi
  dpkg-deb --build --root-owner-group "$pkg" "${POOL}/${DEB}" >/dev/null
}

@test "without --yes and without a terminal it changes nothing and says how to agree" {
  run --separate-stderr "${CHECKOUT}/setup/libssl11.sh" </dev/null
  assert_failure 1
  assert_equal "$stderr" "libssl11: not installing without a yes: run ./setup/libssl11.sh --yes"
  [[ ! -e "${CHECKOUT}/.tools/lib" ]]
}

@test "--yes puts libssl.so.1.1 and libcrypto.so.1.1 from the package into .tools/lib" {
  run -0 "${CHECKOUT}/setup/libssl11.sh" --yes
  assert_line "==> downloading file://${POOL}/${DEB}"
  assert_line "==> SHA256 ${DBA_LAB_TEST_LIBSSL11_SHA256} verified"
  cmp "${BATS_TEST_TMPDIR}/pkg/usr/lib/x86_64-linux-gnu/libssl.so.1.1" "${CHECKOUT}/.tools/lib/libssl.so.1.1"
  cmp "${BATS_TEST_TMPDIR}/pkg/usr/lib/x86_64-linux-gnu/libcrypto.so.1.1" "${CHECKOUT}/.tools/lib/libcrypto.so.1.1"
}

@test "CI=true counts as a yes" {
  CI=true run -0 "${CHECKOUT}/setup/libssl11.sh" </dev/null
  [[ -f "${CHECKOUT}/.tools/lib/libcrypto.so.1.1" ]]
}

@test "a package whose SHA256 differs from the pinned one is refused and nothing is installed" {
  unset DBA_LAB_TEST_LIBSSL11_SHA256
  run --separate-stderr "${CHECKOUT}/setup/libssl11.sh" --yes
  assert_failure 1
  assert_regex "$stderr" "^libssl11: ${DEB}: SHA256 [0-9a-f]{64}, expected 7cf39d70a639017d1dd7c8d36daa2258063608688e449fddf40ffdd46f992a78: not installed \\(nothing was changed\\)$"
  [[ ! -e "${CHECKOUT}/.tools/lib" ]]
}

@test "a second run finds the libraries and downloads nothing" {
  run -0 "${CHECKOUT}/setup/libssl11.sh" --yes
  rm "${POOL}/${DEB}"
  run -0 "${CHECKOUT}/setup/libssl11.sh" --yes
  assert_output "==> OpenSSL 1.1 is already in ${CHECKOUT}/.tools/lib"
}

@test "a failed download says so and changes nothing" {
  rm "${POOL}/${DEB}"
  run --separate-stderr "${CHECKOUT}/setup/libssl11.sh" --yes
  assert_failure 1
  assert_regex "$stderr" "download of file://${POOL}/${DEB} failed"
  [[ ! -e "${CHECKOUT}/.tools/lib" ]]
}

@test "a build linking OpenSSL 1.1 starts once libssl11.sh ran: preflight's --version gets LD_LIBRARY_PATH=.tools/lib" {
  [[ -n "$PROGRAM" ]] || skip "needs cc to build a program that links libcrypto.so.1.1"
  rm "${BATS_TEST_TMPDIR}/pkg/usr/lib/x86_64-linux-gnu/libcrypto.so.1.1"
  run -127 "$PROGRAM" --version
  load_framework
  PB_ROOT=$CHECKOUT
  run -1 pb::binary_runs "$PROGRAM"
  run -0 "${CHECKOUT}/setup/libssl11.sh" --yes
  run -0 pb::binary_runs "$PROGRAM"
  assert_line "\$ env LD_LIBRARY_PATH=${CHECKOUT}/.tools/lib${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}} ${PROGRAM} --version"
  pb::binary_runs "$PROGRAM"
  assert_equal "$PB_M_RESULT" "db version v4.4.29"
}

@test "mlaunch, which passes its environment on to mongod, gets LD_LIBRARY_PATH for a build that links OpenSSL 1.1 only" {
  [[ -n "$PROGRAM" ]] || skip "needs cc to build a program that links libcrypto.so.1.1"
  run -0 "${CHECKOUT}/setup/libssl11.sh" --yes
  load_framework
  PB_ROOT=$CHECKOUT PB_TOPOLOGY=single PB_PORT=31600 PB_MONGOD_ARGS=()
  pb::mlaunch_init_args "${BATS_TEST_TMPDIR}/data" "$(dirname "$PROGRAM")"
  assert_equal "${PB_MLAUNCH_ARGS[*]:0:3}" "env LD_LIBRARY_PATH=${CHECKOUT}/.tools/lib${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}} mlaunch"
  # pb::mlaunch start/restart keep the launched cluster's environment, whatever runs between.
  pb::binary_runs "${FAKE_BIN}/mongod"
  assert_equal "${PB_SERVER_ENV[*]}" "env LD_LIBRARY_PATH=${CHECKOUT}/.tools/lib${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
  pb::mlaunch_init_args "${BATS_TEST_TMPDIR}/data" "$FAKE_BIN"
  assert_equal "${PB_MLAUNCH_ARGS[*]:0:2}" "mlaunch init"
}

@test "a download that stalls (a server that never answers) is stopped at its bound, says so, and changes nothing" {
  local port pid _
  command -v curl >/dev/null || skip "the bound tested is curl's"
  port=$(free_port_base)
  # Accepts the connection and never answers, as a stalled network does.
  python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
open(sys.argv[2], "w").close()
c, _ = s.accept(); time.sleep(60)' "$port" "${BATS_TEST_TMPDIR}/listening" &
  pid=$!
  for _ in $(seq 100); do [[ -e "${BATS_TEST_TMPDIR}/listening" ]] && break; sleep 0.1; done
  DBA_LAB_TEST_LIBSSL11_BASE="http://127.0.0.1:${port}" DBA_LAB_FETCH_SECONDS=2 run "${CHECKOUT}/setup/libssl11.sh" --yes
  kill "$pid" 2>/dev/null || true
  assert_failure
  assert_output --partial "download of http://127.0.0.1:${port}/${DEB} timed out after 2 s (DBA_LAB_FETCH_SECONDS): check the network (nothing was changed)"
  [[ ! -e "${CHECKOUT}/.tools/lib" ]]
}
