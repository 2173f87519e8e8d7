# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Server binaries through the `m` version manager, kept inside the checkout.
#
# m's traps (docs/mongodb-facts.md#m-exit-zero, #m-bin-xy, #m-distro-mapping,
# #m-prefix; m 1.10.0 bin/m): it exits 0 after many
# failures (download failed, no build for this OS, "Aborted."), and `m bin X.Y`
# never matches (a broken regex). So X.Y is resolved to X.Y.Z first (installed
# versions, then m's release list), and every install is checked with
# `m bin X.Y.Z`, which does exit 1 when the binaries are absent.

# Where m keeps the servers: the checkout's .tools/m, or DBA_LAB_M_PREFIX. A
# user's own exported M_PREFIX is never used: `m X.Y.Z` would relink the
# mongod of their own installs (docs/m.md#m-prefix).
pb::m_prefix() {
  printf '%s\n' "${DBA_LAB_M_PREFIX:-${PB_ROOT}/.tools/m}"
}

# The environment m runs with: shown in the plan, so the commands can be pasted.
# m links the version it activates into M_BIN_DIR, and a user's own
# M_BIN_DIR would win over m's default ($M_PREFIX/bin): pinned beside the
# prefix, so those links never land in the user's PATH (docs/m.md#m-bin-dir).
pb::_m() {
  local prefix
  prefix=$(pb::m_prefix)
  printf '%s\0' env "M_PREFIX=${prefix}" "M_BIN_DIR=${prefix}/bin" M_CONFIRM=0 m "$@"
}

pb::_m_cmd() {
  local -n _cmd="$1"
  shift
  mapfile -d '' -t _cmd < <(pb::_m "$@")
}

# m fetches with curl and no time limit (m 1.10.0's good() and download()): on
# a stalled classroom network each call would hang until Ctrl-C. Its release
# list and its downloads are bounded here, in seconds.
PB_M_LIST_SECONDS=${PB_M_LIST_SECONDS:-60}
PB_M_INSTALL_SECONDS=${PB_M_INSTALL_SECONDS:-900}

# m downloads and lists releases with curl (Debian 12 installs wget only):
# true when curl is here, else PB_M_FIX says how to get it.
pb::_m_has_curl() {
  command -v curl >/dev/null 2>&1 && return 0
  PB_M_FIX="install curl (Debian/Ubuntu: apt-get install curl; macOS: brew install curl), or use --binarypath DIR or --uri URI"
  return 1
}

# These functions answer in PB_M_RESULT (they run commands through the runner,
# which must not happen in a $(...) subshell) and explain failures in PB_M_ERROR.
PB_M_RESULT=''
PB_M_ERROR=''
PB_M_FIX=''   # what to do, when the failure has a better answer than the caller's

# pb::m_resolve VERSION: PB_M_RESULT=X.Y.Z for X.Y (the newest installed patch,
# else the newest release m knows of), or X.Y.Z unchanged.
pb::m_resolve() {
  local want="$1" json cmd=() latest series rc
  PB_M_RESULT=''
  PB_M_FIX=''
  if [[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    PB_M_RESULT=$want
    return 0
  fi
  series="${want//./\\.}"
  pb::_m_cmd cmd installed --json
  json=''
  pb::capture --read-only json "${cmd[@]}" || json='[]'
  latest=$(jq -r --arg re "^${series}\\.[0-9]+$" \
    '[.[]?.name | select(type == "string" and test($re))] | sort_by(split(".") | map(tonumber)) | last // empty' \
    <<<"${json:-[]}" 2>/dev/null || true)
  if [[ -n "$latest" ]]; then
    PB_M_RESULT=$latest
    return 0
  fi
  # m's release list needs the network, through curl (m's good() and
  # download()): without curl it fails as if offline, so that is said first.
  if ! pb::_m_has_curl; then
    PB_M_ERROR="cannot resolve MongoDB ${want} to a release: none is installed under $(pb::m_prefix), and m lists releases with curl, which is not installed (Debian 12 installs wget only)"
    return 1
  fi
  # --stable knows X.0 and even X.Y below 5, --latest every series (release
  # candidates refused below).
  latest=''
  if [[ "$want" =~ ^([0-4]\.[0-9]*[02468]|[5-9]\.0|[1-9][0-9]+\.0)$ ]]; then
    pb::_m_cmd cmd --stable "$want"
  else
    pb::_m_cmd cmd --latest "$want"
  fi
  rc=0
  pb::capture --read-only --progress "asking m for MongoDB ${want}'s newest release" --timeout "$PB_M_LIST_SECONDS" \
    latest "${cmd[@]}" || rc=$?
  if ((rc == 124)); then
    PB_M_ERROR="cannot resolve MongoDB ${want} to a release: m's release list did not answer within ${PB_M_LIST_SECONDS} s (PB_M_LIST_SECONDS): a stalled network?"
    return 1
  fi
  ((rc == 0)) || latest=''
  latest=$(tail -n 1 <<<"$latest" | tr -d '[:space:]')
  if [[ "$latest" =~ ^${series}\.[0-9]+$ ]]; then
    PB_M_RESULT=$latest
    return 0
  fi
  PB_M_ERROR="cannot resolve MongoDB ${want} to a release: none is installed under $(pb::m_prefix) and m could not list releases (no network to downloads.mongodb.org?)"
  return 1
}

# pb::m_binpath X.Y.Z: PB_M_RESULT=the bin folder of an installed version, or fails.
pb::m_binpath() {
  local version="$1" cmd=() path=''
  PB_M_RESULT=''
  pb::_m_cmd cmd bin "$version"
  pb::capture --read-only path "${cmd[@]}" || return 1
  path=${path##*$'\n'}
  [[ -n "$path" && -x "${path}/mongod" ]] || return 1
  PB_M_RESULT=$path
}

# pb::m_ensure X.Y.Z: PB_M_RESULT=the bin folder, installing the version when
# absent and its build can start here. With --dry-run the install is only
# shown; the folder is m's.
pb::m_ensure() {
  local version="$1" cmd=() rc
  PB_M_FIX=''
  if pb::m_binpath "$version"; then
    return 0
  fi
  # A build that cannot start here is not worth its ~100 MB
  # (platform.sh: the build m would fetch, and the OpenSSL it links).
  if ! pb::platform_runs "$version"; then
    PB_M_ERROR=$PB_PLATFORM_WHY
    PB_M_FIX=$PB_PLATFORM_FIX
    return 1
  fi
  if ! pb::_m_has_curl; then
    PB_M_ERROR="MongoDB ${version} is not installed, and m downloads with curl, which is not installed (Debian 12 installs wget only)"
    return 1
  fi
  pb::_m_cmd cmd "$version"
  if ((PB_DRY_RUN)); then
    pb::run "${cmd[@]}"
    PB_M_RESULT="$(pb::m_prefix)/m/versions/${version}/bin"
    return 0
  fi
  # m exits 0 after most failures: its status says nothing, `m bin` decides.
  rc=0
  pb::run --progress "installing MongoDB ${version} with m (downloads ~100 MB)" --timeout "$PB_M_INSTALL_SECONDS" "${cmd[@]}" || rc=$?
  if ((rc == 124)); then
    PB_M_ERROR="m's download of MongoDB ${version} did not finish within ${PB_M_INSTALL_SECONDS} s (PB_M_INSTALL_SECONDS) and was stopped: a stalled network?"
    return 1
  fi
  if pb::m_binpath "$version"; then
    return 0
  fi
  PB_M_ERROR="m could not install MongoDB ${version}"
  local said
  said=$(grep -E 'Error|not appear to be available|Aborted|failed' "$PB_LOG" 2>/dev/null | tail -n 2 | tr '\n' ' ' || true)
  if [[ -n "$said" ]]; then
    PB_M_ERROR+=" (m said: ${said% })"
  fi
  PB_M_ERROR+=": no network, or no build for this OS (docs/m.md says which builds m picks per system)"
  return 1
}

# pb::binary_runs PATH: the binary starts here (`PATH --version` exits 0);
# PB_M_RESULT=its output. Else PB_M_ERROR says why, in the loader's words when
# the loader refused it. `m bin` only says the files exist: m installs the
# Ubuntu 20.04 build of 4.4 and 5.0 on Ubuntu 22.04+, and Debian 10/11 builds
# of versions before 6.0.4 on Debian 12 (docs/m.md), which link OpenSSL 1.1;
# ld.so then prints "PATH: error while loading shared libraries:
# libcrypto.so.1.1: cannot open shared object file: No such file or directory"
# and exits 127 (tests/fixtures/fake-server/README.md).
pb::binary_runs() {
  local bin="$1" out='' rc=0 said='' lib seen=0 env=()
  PB_M_RESULT=''
  PB_M_ERROR=''
  [[ -f "$PB_LOG" ]] && seen=$(wc -l <"$PB_LOG")
  pb::server_env env "$bin"
  pb::capture --read-only out "${env[@]}" "$bin" --version || rc=$?
  if ((rc == 0)); then
    PB_M_RESULT=$out
    return 0
  fi
  # The loader writes to stderr, which the runner appends to the run log;
  # its line starts with the path as it was run.
  if [[ -f "$PB_LOG" ]]; then
    said=$(tail -n +"$((seen + 1))" "$PB_LOG" | grep -F -- "${bin}: " | tail -n 1 || true)
  fi
  if [[ "$said" =~ error\ while\ loading\ shared\ libraries:\ ([^:]+): ]]; then
    lib=${BASH_REMATCH[1]}
    PB_M_ERROR="${bin} cannot start on this system: the loader cannot find ${lib}"
    if [[ "$lib" == libcrypto.so.1.1 || "$lib" == libssl.so.1.1 ]]; then
      PB_M_ERROR+=" (OpenSSL 1.1: this is a build for an older OS, such as the Ubuntu 20.04 build m installs for MongoDB 4.4 and 5.0 on Ubuntu 22.04+, or the Debian 10/11 build it installs on Debian 12 for MongoDB before 6.0.4; those systems ship OpenSSL 3)"
    fi
  elif [[ -n "$said" ]]; then
    PB_M_ERROR="${bin} cannot start on this system: ${said#"${bin}: "}"
  else
    PB_M_ERROR="${bin} --version failed (exit ${rc}; the run log has its output)"
  fi
  return 1
}

# pb::mongod_version BINDIR: PB_M_RESULT=X.Y.Z read from `mongod --version`
# (PB_M_ERROR says why not).
pb::mongod_version() {
  local bin="$1" out=''
  pb::binary_runs "${bin}/mongod" || return 1
  out=$(sed -nE 's/^db version v([0-9]+\.[0-9]+\.[0-9]+[^ ]*).*/\1/p' <<<"$PB_M_RESULT" | head -n 1)
  PB_M_RESULT=$out
  if [[ -z "$out" ]]; then
    PB_M_ERROR="${bin}/mongod --version did not print 'db version vX.Y.Z'"
    return 1
  fi
}
