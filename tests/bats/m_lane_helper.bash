# shellcheck shell=bash
# The real m (node_modules/m/bin/m, m 1.10.0) with only the network replaced
# (tests/fixtures/m-lane/README.md):
#   m_lane_site DIR BUILD...   a local download site holding these builds
#   m_lane_checkout DIR [--unpatched]
#                              a checkout at DIR (a path with a space in the
#                              tests) whose m is a copy of node_modules' m,
#                              as npm ships it, then patched by
#                              setup/patch-tool.sh as setup does
#   m_lane_os_release CHECKOUT FILE
#                              the checkout's m reads FILE as its /etc/os-release
#   use_m_lane SITE CHECKOUT   m, the curl shim and the checkout first on PATH
# A BUILD is the middle of a tarball name: linux-x86_64-ubuntu2204-7.0.12
# is fastdl.mongodb.org/linux/mongodb-linux-x86_64-ubuntu2204-7.0.12.tgz.
load persona_helper

M_LANE_DIR="${DBA_LAB_ROOT}/tests/fixtures/m-lane"
# m 1.10.0's bin/m as npm ships it (sha256 of the file in the m-1.10.0 tarball).
M_LANE_SHIPPED_SHA256=143239d293b819f225b69ece86cbe8c5702029d7a31d6e68d534b79ba80d1996

# m_as_shipped DEST: node_modules' m as npm shipped it. Setup patches
# node_modules/m/bin/m in place (setup/patch-tool.sh), so a patched copy is
# un-patched here; either way the result must be the released file.
m_as_shipped() {
  local dest="$1" sum
  cp "${DBA_LAB_ROOT}/node_modules/m/bin/m" "$dest"
  if patch -R --dry-run -s -f -F 0 "$dest" <"${DBA_LAB_ROOT}/setup/m-1.10.0.patch" >/dev/null 2>&1; then
    patch -R -s -f -F 0 "$dest" <"${DBA_LAB_ROOT}/setup/m-1.10.0.patch" >/dev/null
  fi
  sum=$(sha256sum "$dest" | awk '{print $1}')
  if [[ "$sum" != "$M_LANE_SHIPPED_SHA256" ]]; then
    printf 'm_as_shipped: node_modules/m/bin/m is not m 1.10.0 as released (sha256 %s)\n' "$sum" >&2
    return 1
  fi
}

# Builds for systems that ship OpenSSL 1.1 link it: their stand-ins are real
# programs the loader refuses where libcrypto.so.1.1 is absent.
_m_lane_links_openssl11() {
  [[ "$1" =~ -(ubuntu1804|ubuntu2004|debian92|debian10|debian11)- ]]
}

m_lane_site() {
  local site="$1" build version folder stage name
  shift
  stage="${site}.stage"
  for build in "$@"; do
    version=${build##*-}
    case "$build" in
      linux-*) folder=linux ;;
      macos-*) folder=osx ;;
      *) printf 'm_lane_site: cannot place build %s\n' "$build" >&2; return 1 ;;
    esac
    mkdir -p "${stage}/mongodb-${build}/bin" "${site}/fastdl.mongodb.org/${folder}"
    if _m_lane_links_openssl11 "$build"; then
      openssl11_standin "${stage}/mongodb-${build}/bin" "$version"
    else
      for name in mongod mongos; do
        printf '#!/usr/bin/env bash\nFAKE_MONGOD_VERSION=%q exec %q "$@"\n' "$version" "${DBA_LAB_ROOT}/tests/fixtures/fake-server/bin/${name}" \
          >"${stage}/mongodb-${build}/bin/${name}"
        chmod +x "${stage}/mongodb-${build}/bin/${name}"
      done
    fi
    tar -czf "${site}/fastdl.mongodb.org/${folder}/mongodb-${build}.tgz" -C "$stage" "mongodb-${build}"
  done
  rm -rf "$stage"
  _m_lane_release_list "$site" "$@"
}

# downloads.mongodb.org/full.json as m reads it: per version its download
# URLs, including the Windows .zip that `m X.Y` looks for.
_m_lane_release_list() {
  local site="$1"
  shift
  mkdir -p "${site}/downloads.mongodb.org"
  python3 - "$@" >"${site}/downloads.mongodb.org/full.json" <<'PY'
import json, sys
versions = {}
for build in sys.argv[1:]:
    version = build.rsplit("-", 1)[1]
    folder = "linux" if build.startswith("linux-") else "osx"
    parts = build.split("-")
    versions.setdefault(version, []).append({
        "arch": parts[1], "edition": "targeted", "target": parts[2] if folder == "linux" else "macos",
        "archive": {"url": "https://fastdl.mongodb.org/%s/mongodb-%s.tgz" % (folder, build)},
    })
release = lambda v: [int(x) for x in v.split(".")]
print(json.dumps({"versions": [
    {"version": v, "production_release": True, "downloads": downloads + [{
        "arch": "x86_64", "edition": "base", "target": "windows",
        "archive": {"url": "https://fastdl.mongodb.org/windows/mongodb-windows-x86_64-%s.zip" % v}}]}
    for v, downloads in sorted(versions.items(), key=lambda kv: release(kv[0]), reverse=True)
]}, indent=2))
PY
}

m_lane_checkout() {
  local dir="$1" mode="${2:-patched}" entry
  mkdir -p "${dir}/node_modules/m/bin" "${dir}/.tools/bin"
  for entry in playbooks setup tests; do
    ln -s "${DBA_LAB_ROOT}/${entry}" "${dir}/${entry}"
  done
  m_as_shipped "${dir}/node_modules/m/bin/m"
  if [[ "$mode" != --unpatched ]]; then
    "${DBA_LAB_ROOT}/setup/patch-tool.sh" m "${dir}/node_modules/m/bin/m" >/dev/null
  fi
  ln -s ../../node_modules/m/bin/m "${dir}/.tools/bin/m"
}

# m opens /etc/os-release itself, so no command first on PATH can answer for
# it: the checkout's m gets FILE's path in its place, the one change to m's
# text beyond setup's patch. m reads the path unquoted, so FILE is copied to
# a path without spaces first.
m_lane_os_release() {
  local m="$1/node_modules/m/bin/m" file="$2" copy="${BATS_TEST_TMPDIR}/etc-os-release"
  if [[ ! "$copy" =~ ^[A-Za-z0-9/._-]+$ ]]; then
    printf 'm_lane_os_release: m cannot read %s unquoted\n' "$copy" >&2
    return 1
  fi
  cp "$file" "$copy"
  sed -i "s#/etc/os-release#${copy}#g" "$m"
}

# m as the checkout's playbooks call it: its own prefix (no M_PREFIX or
# M_BIN_DIR from the test's environment), the site behind curl.
use_m_lane() {
  local site="$1" checkout="$2"
  unset M_PREFIX M_BIN_DIR
  export M_LANE_SITE="$site" M_LANE_CURL_LOG="${BATS_TEST_TMPDIR}/curl.log"
  export PATH="${M_LANE_DIR}/bin:${checkout}/.tools/bin:${PATH}"
}
