#!/usr/bin/env bash
# Puts OpenSSL 1.1 (libssl.so.1.1, libcrypto.so.1.1) into this checkout's
# .tools/lib, for MongoDB builds that link it on systems that ship only
# OpenSSL 3 (Ubuntu 22.04 and newer, Debian 12): m installs the Ubuntu 20.04
# build of 4.4 and 5.0 there, and the Debian 10/11 builds of 4.4/5.0 on Debian 12.
#
#   ./setup/libssl11.sh          ask, then download and install
#   ./setup/libssl11.sh --yes    no question (CI=true counts as --yes)
#
# The libraries come from Ubuntu 20.04's libssl1.1 package (its security
# pool), checked against the SHA256 below before anything is unpacked.
# Nothing outside the checkout changes: the playbooks start mongod and mongos
# with LD_LIBRARY_PATH=.tools/lib, and only the builds that link OpenSSL 1.1
# (docs/platforms.md). Remove .tools/lib to undo. x86_64 only.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly LIB="${ROOT}/.tools/lib"
readonly DEB="libssl1.1_1.1.1f-1ubuntu2.24_amd64.deb"
# Tests point these at a package they build; nothing else should.
readonly BASE="${DBA_LAB_TEST_LIBSSL11_BASE:-https://security.ubuntu.com/ubuntu/pool/main/o/openssl}"
readonly SHA256="${DBA_LAB_TEST_LIBSSL11_SHA256:-7cf39d70a639017d1dd7c8d36daa2258063608688e449fddf40ffdd46f992a78}"
readonly LIBS=(libssl.so.1.1 libcrypto.so.1.1)

die() {
  printf 'libssl11: %s\n' "$*" >&2
  exit 1
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

installed() {
  local l
  for l in "${LIBS[@]}"; do [[ -f "${LIB}/${l}" ]] || return 1; done
}

# yes: --yes, CI=true, or a y on the terminal.
confirmed() {
  local answer=''
  ((ASSUME_YES)) && return 0
  [[ "${CI:-}" == true ]] && return 0
  [[ -t 0 ]] || die "not installing without a yes: run ./setup/libssl11.sh --yes"
  read -r -p "Download ${DEB} (about 1.3 MB) from ${BASE} and put OpenSSL 1.1 into .tools/lib? [y/N] " answer
  [[ "$answer" == [Yy]* ]]
}

# A stalled classroom network must not hang setup: the whole download is
# bounded (DBA_LAB_FETCH_SECONDS, default 120 s for about 1.3 MB), and a
# connection that does not open in 20 s fails.
fetch() {
  local url="$1" out="$2" limit="${DBA_LAB_FETCH_SECONDS:-120}" rc=0
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 --connect-timeout 20 --max-time "$limit" -o "$out" "$url" || rc=$?
    ((rc != 28)) || die "download of ${url} timed out after ${limit} s (DBA_LAB_FETCH_SECONDS): check the network (nothing was changed)"
    return "$rc"
  elif command -v wget >/dev/null 2>&1; then
    # wget's --timeout bounds each read, not the whole: --tries=2 bounds the rest.
    wget -q --timeout=20 --tries=2 -O "$out" "$url"
  else
    die "neither curl nor wget is installed: install one of them"
  fi
}

# The package's files into DIR: dpkg-deb where it exists, else ar and tar.
unpack() {
  local deb="$1" dir="$2" member
  if command -v dpkg-deb >/dev/null 2>&1; then
    dpkg-deb -x "$deb" "$dir"
    return 0
  fi
  command -v ar >/dev/null 2>&1 || die "cannot unpack ${DEB}: install dpkg-deb or ar (binutils)"
  member=$(ar t "$deb" | grep '^data\.tar' | head -n 1)
  [[ -n "$member" ]] || die "${DEB} holds no data.tar member"
  (cd "$dir" && ar x "$deb" "$member" && tar -xf "$member" && rm -f "$member")
}

main() {
  local arg got l found
  ASSUME_YES=0
  for arg in "$@"; do
    case "$arg" in
      --yes | -y) ASSUME_YES=1 ;;
      -h | --help) usage; exit 0 ;;
      *) printf 'libssl11: unknown option %s (see ./setup/libssl11.sh --help)\n' "$arg" >&2; exit 2 ;;
    esac
  done
  if installed; then
    printf '==> OpenSSL 1.1 is already in %s\n' "$LIB"
    return 0
  fi
  [[ "$(uname -m)" == x86_64 ]] || die "only x86_64 is provided for ($(uname -m) here): install your distribution's OpenSSL 1.1 package, or choose a MongoDB version whose build links OpenSSL 3"
  confirmed || { printf 'Aborted; nothing was changed.\n'; exit 1; }
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-libssl11.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  printf '==> downloading %s/%s\n' "$BASE" "$DEB"
  fetch "${BASE}/${DEB}" "${WORK}/${DEB}" || die "download of ${BASE}/${DEB} failed: check the network (nothing was changed)"
  got=$(sha256sum "${WORK}/${DEB}" | cut -d' ' -f1)
  [[ "$got" == "$SHA256" ]] || die "${DEB}: SHA256 ${got}, expected ${SHA256}: not installed (nothing was changed)"
  printf '==> SHA256 %s verified\n' "$got"
  mkdir -p "${WORK}/root"
  unpack "${WORK}/${DEB}" "${WORK}/root"
  mkdir -p "${WORK}/lib"
  for l in "${LIBS[@]}"; do
    found=$(find "${WORK}/root" -name "$l" \( -type f -o -type l \) | head -n 1)
    [[ -n "$found" ]] || die "${DEB} holds no ${l} (nothing was changed)"
    cp -L "$found" "${WORK}/lib/${l}"
  done
  mkdir -p "$LIB"
  for l in "${LIBS[@]}"; do
    install -m 0644 "${WORK}/lib/${l}" "${LIB}/${l}"
  done
  printf '==> OpenSSL 1.1 installed in %s (%s): playbooks give it to the MongoDB builds that need it\n' "$LIB" "${LIBS[*]}"
}

main "$@"
