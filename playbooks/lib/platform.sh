# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Which MongoDB build m would fetch on this platform, and whether it can start
# here, known before anything is downloaded (docs/platforms.md: the table and
# its sources). m picks, for its platform's list of candidate builds, the
# first one downloads.mongodb.org has for the version (get_distro_and_arch and
# install_bin in node_modules/m/bin/m). A build for an older OS links
# OpenSSL 1.1, which Ubuntu 22.04+ and Debian 12 no longer ship: there `m`
# succeeds, then the loader refuses the binary. Preflight asks here first.
#
# The platform is read as m reads it (uname, lsb_release, /etc/lsb-release,
# /etc/debian_version, /etc/os-release), so tests can set a persona with
# commands first on PATH (and PB_PLATFORM_OS_RELEASE for the file).

# Series known to the table, oldest first: a version that cannot run here is
# answered with the nearest one that can.
PB_PLATFORM_SERIES=(4.4 5.0 6.0 7.0 8.0)

# What pb::platform_detect found.
PB_PLATFORM_OS=''       # linux, osx, or what uname said
PB_PLATFORM_ARCH=''     # uname -m
PB_PLATFORM_DISTRO=''   # m's key: ubuntu-24.04, debian-12, ...
PB_PLATFORM_LABEL=''    # for people: Ubuntu 24.04, Debian 12
PB_PLATFORM_UBUNTU_CODENAME=''  # the Ubuntu release os-release names: noble, ...
# The os-release m reads: m opens it itself, so no persona on PATH can stand
# in for it; tests point this at a persona's.
PB_PLATFORM_OS_RELEASE=/etc/os-release
# What pb::platform_build / pb::platform_runs answer.
PB_PLATFORM_BUILD=''    # the build m would fetch (ubuntu2004, ...), empty: not predicted
PB_PLATFORM_OPENSSL=''  # 1.1 or 3: the OpenSSL that build links
PB_PLATFORM_WHY=''      # why a version cannot run here, one line
PB_PLATFORM_FIX=''      # what to do about it

# pb::_m_candidates DISTRO [UBUNTU_CODENAME]: m's candidate builds for
# DISTRO, in the order m tries them, AS SETUP PATCHES m
# (setup/m-1.10.0.patch): every Debian that m 1.10.0 sends to "debian11
# debian10 debian92" (12, 13, testing) first tries the debian12 build, then
# the Ubuntu 22.04 build (OpenSSL 3, runs on Debian 12); Linux Mint 22 gets
# Ubuntu 24.04's list; a distribution m names nowhere (Zorin OS, elementary
# OS) gets the list of the Ubuntu release its os-release names
# (UBUNTU_CODENAME). Every other line is m 1.10.0's (node_modules/m/bin/m,
# get_distro_and_arch); this is the one place the framework assumes them.
pb::_m_candidates() {
  case "$1" in
    debian-6*) ;;
    debian-7*) printf 'debian71' ;;
    debian-8*) printf 'debian81 debian71' ;;
    debian-9*) printf 'debian92 debian81' ;;
    debian-10*) printf 'debian10 debian92' ;;
    debian-11*) printf 'debian11 debian92' ;;
    debian-*) printf 'debian12 ubuntu2204 debian11 debian10 debian92' ;;
    ubuntu-18*) printf 'ubuntu1804 ubuntu1604' ;;
    ubuntu-20*) printf 'ubuntu2004 ubuntu1804' ;;
    ubuntu-22*) printf 'ubuntu2204 ubuntu2004 ubuntu1804' ;;
    ubuntu-24*) printf 'ubuntu2404 ubuntu2204 ubuntu2004 ubuntu1804' ;;
    ubuntu-*) printf 'ubuntu2404 ubuntu2204 ubuntu2004' ;;
    linuxmint-20*) printf 'ubuntu2004' ;;
    linuxmint-21*) printf 'ubuntu2204' ;;
    linuxmint-22*) pb::_m_candidates ubuntu-24.04 ;;
    *)
      case "${2:-}" in
        noble) pb::_m_candidates ubuntu-24.04 ;;
        jammy) pb::_m_candidates ubuntu-22.04 ;;
        focal) pb::_m_candidates ubuntu-20.04 ;;
        *) ;;
      esac
      ;;
  esac
}

# pb::_build_range BUILD: "FIRST LAST OPENSSL": the first and last MongoDB
# version downloads.mongodb.org has an x86_64 build of for BUILD (LAST "-":
# still built), and the OpenSSL it links. Empty for builds not in the table.
pb::_build_range() {
  case "$1" in
    ubuntu2404) printf '8.0.0 - 3' ;;
    ubuntu2204) printf '6.0.4 - 3' ;;
    ubuntu2004) printf '4.4.0 - 1.1' ;;
    ubuntu1804) printf '4.0.0 6.0.99 1.1' ;;
    debian12) printf '7.0.3 - 3' ;;
    debian11) printf '5.0.8 - 1.1' ;;
    debian10) printf '4.2.1 6.0.99 1.1' ;;
    debian92) printf '3.6.5 5.0.99 1.1' ;;
    *) ;;
  esac
}

# pb::_version_number X.Y[.Z]: a comparable integer; X.Y stands for its
# newest patch (the one m resolves X.Y to).
pb::_version_number() {
  local major minor patch
  IFS=. read -r major minor patch <<<"$1"
  printf '%d%03d%03d' "$((10#$major))" "$((10#$minor))" "$((10#${patch:-99}))"
}

# pb::platform_detect: PB_PLATFORM_* from what m reads.
pb::platform_detect() {
  local id='' version='' name
  PB_PLATFORM_ARCH=$(uname -m)
  name=$(uname)
  case "${name,,}" in
    linux*) PB_PLATFORM_OS=linux ;;
    darwin*) PB_PLATFORM_OS=osx ;;
    *) PB_PLATFORM_OS=${name,,} ;;
  esac
  PB_PLATFORM_DISTRO=''
  PB_PLATFORM_UBUNTU_CODENAME=''
  PB_PLATFORM_LABEL=$name
  [[ "$PB_PLATFORM_OS" == linux ]] || return 0
  if lsb_release >/dev/null 2>&1; then
    id=$(lsb_release -si)
    version=$(lsb_release -sr)
    [[ "$version" != testing ]] || version=''
  fi
  if [[ -z "$version" ]]; then
    if [[ -f /etc/lsb-release ]]; then
      id=$(pb::_release_field DISTRIB_ID /etc/lsb-release)
      version=$(pb::_release_field DISTRIB_RELEASE /etc/lsb-release)
    elif [[ -f /etc/debian_version ]]; then
      id=debian
      version=$(pb::_debian_version "$(cat /etc/debian_version)")
    elif [[ -f "$PB_PLATFORM_OS_RELEASE" ]]; then
      id=$(pb::_release_field ID "$PB_PLATFORM_OS_RELEASE")
      version=$(pb::_release_field VERSION_ID "$PB_PLATFORM_OS_RELEASE")
    fi
  fi
  # setup's m reads it whatever else it read, when its table names the
  # distribution nowhere (pb::_m_candidates).
  if [[ -f "$PB_PLATFORM_OS_RELEASE" ]]; then
    PB_PLATFORM_UBUNTU_CODENAME=$(pb::_release_field UBUNTU_CODENAME "$PB_PLATFORM_OS_RELEASE")
  fi
  id=${id,,}
  case "$id" in
    sles | opensuse) id=suse ;;
    almalinux | fedora | centos | redhatenterpriseserver | rocky) id=rhel ;;
    neon | pop) id=ubuntu ;;
  esac
  PB_PLATFORM_DISTRO="${id}-${version,,}"
  PB_PLATFORM_LABEL="${id^} ${version}"
  [[ "$id" != debian ]] || PB_PLATFORM_LABEL="Debian ${version%%.*}"
  [[ "$id" != linuxmint ]] || PB_PLATFORM_LABEL="Linux Mint ${version}"
}

# A KEY=value of an os-release style file, quotes and escapes removed as m does.
pb::_release_field() {
  sed -ne "s/^${1}=//p" "$2" | sed -e 's/^["'"'"']//' -e 's/["'"'"']$//' -e 's/\\\(.\)/\1/g' | head -n 1
}

# /etc/debian_version holds 12.5 or a code name (m's list).
pb::_debian_version() {
  case "$1" in
    stretch*) printf 9 ;;
    buster*) printf 10 ;;
    bullseye*) printf 11 ;;
    bookworm*) printf 12 ;;
    *) printf '%s' "$1" ;;
  esac
}

# pb::platform_build VERSION: PB_PLATFORM_BUILD, the build m would fetch for
# VERSION (X.Y: its newest patch) on the detected platform, and
# PB_PLATFORM_OPENSSL. Returns 1 when it cannot be predicted (macOS, another
# architecture, a distribution outside the table) or when MongoDB publishes
# no build m would try (PB_PLATFORM_BUILD then says "none").
pb::platform_build() {
  local want candidate range first last ssl
  want=$(pb::_version_number "$1")
  PB_PLATFORM_BUILD=''
  PB_PLATFORM_OPENSSL=''
  [[ "$PB_PLATFORM_OS" == linux && "$PB_PLATFORM_ARCH" == x86_64 ]] || return 1
  candidate=$(pb::_m_candidates "$PB_PLATFORM_DISTRO" "$PB_PLATFORM_UBUNTU_CODENAME")
  [[ -n "$candidate" ]] || return 1
  for candidate in $candidate; do
    range=$(pb::_build_range "$candidate")
    [[ -n "$range" ]] || continue
    read -r first last ssl <<<"$range"
    ((want >= $(pb::_version_number "$first"))) || continue
    [[ "$last" == - ]] || ((want <= $(pb::_version_number "$last"))) || continue
    PB_PLATFORM_BUILD=$candidate
    PB_PLATFORM_OPENSSL=$ssl
    return 0
  done
  PB_PLATFORM_BUILD=none
  return 1
}

# The folder where ./setup/libssl11.sh puts OpenSSL 1.1 for the servers.
pb::tools_lib() {
  printf '%s/.tools/lib' "$PB_ROOT"
}

# OpenSSL 1.1 can be loaded here: in .tools/lib (setup/libssl11.sh), in a
# folder of the user's LD_LIBRARY_PATH, or known to the loader's cache
# (ldconfig -p, as on Ubuntu 20.04 and Debian 11).
pb::openssl11_available() {
  local lib ldconfig cache='' dirs=()
  IFS=: read -r -a dirs <<<"${LD_LIBRARY_PATH:-}"
  for lib in "$(pb::tools_lib)" "${dirs[@]}"; do
    [[ -n "$lib" && -f "${lib}/libssl.so.1.1" && -f "${lib}/libcrypto.so.1.1" ]] && return 0
  done
  ldconfig=$(command -v ldconfig || printf /sbin/ldconfig)
  [[ -x "$ldconfig" ]] && cache=$("$ldconfig" -p 2>/dev/null || true)
  [[ "$cache" == *"libssl.so.1.1 "* && "$cache" == *"libcrypto.so.1.1 "* ]]
}

# pb::platform_runs VERSION: 0 when VERSION's build can start here, or when
# that cannot be known before the download (preflight then runs the
# installed binary). Else PB_PLATFORM_WHY and PB_PLATFORM_FIX say why not
# and what to do.
pb::platform_runs() {
  local version="$1" instead
  PB_PLATFORM_WHY=''
  PB_PLATFORM_FIX=''
  if ! pb::platform_build "$version"; then
    [[ "$PB_PLATFORM_BUILD" == none ]] || return 0
    PB_PLATFORM_WHY="MongoDB ${version} has no build that m would install on ${PB_PLATFORM_LABEL}"
    PB_PLATFORM_FIX="pass --mongodb-version $(pb::_runnable_series_near "$version" || printf 8.0), or --binarypath DIR with binaries built for this system"
    return 1
  fi
  [[ "$PB_PLATFORM_OPENSSL" == 1.1 ]] || return 0
  pb::openssl11_available && return 0
  PB_PLATFORM_WHY="MongoDB ${version} cannot run on ${PB_PLATFORM_LABEL} without OpenSSL 1.1 (m would install its ${PB_PLATFORM_BUILD} build, which links libssl.so.1.1; ${PB_PLATFORM_LABEL} ships OpenSSL 3)"
  PB_PLATFORM_FIX="run ./setup/libssl11.sh (it puts OpenSSL 1.1 into .tools/lib, for the servers only)"
  if instead=$(pb::_runnable_series_near "$version"); then
    PB_PLATFORM_FIX+=" or pass --mongodb-version ${instead}"
  fi
  return 1
}

# pb::_runnable_series_near VERSION: prints the oldest series newer than
# VERSION whose build runs here as it is (else the newest older one).
pb::_runnable_series_near() {
  local want series older=''
  want=$(pb::_version_number "$1")
  for series in "${PB_PLATFORM_SERIES[@]}"; do
    pb::platform_build "$series" || continue
    if [[ "$PB_PLATFORM_OPENSSL" == 1.1 ]] && ! pb::openssl11_available; then continue; fi
    if (($(pb::_version_number "$series") > want)); then
      printf '%s' "$series"
      return 0
    fi
    older=$series
  done
  [[ -n "$older" ]] || return 1
  printf '%s' "$older"
}

# pb::server_env VAR BINARY: VAR (an array) = the prefix that starts BINARY
# (or the servers of its folder, through mlaunch, which passes its
# environment on to them) with the OpenSSL 1.1 of .tools/lib:
# `env LD_LIBRARY_PATH=...` when setup/libssl11.sh put it there and the build
# names libssl.so.1.1; else empty. Nothing else (mongosh, mlaunch's Python
# imports) needs the variable. PB_SERVER_ENV is the launched cluster's, for
# pb::mlaunch start/restart.
PB_SERVER_ENV=()
pb::server_env() {
  local -n _pb_env="$1"
  local bin="$2" lib
  [[ -d "$bin" ]] && bin="${bin}/mongod"
  lib=$(pb::tools_lib)
  _pb_env=()
  [[ -f "${lib}/libssl.so.1.1" && -f "$bin" ]] || return 0
  # The name sits in the build's dynamic section: a read of the file, no loader.
  grep -qaF libssl.so.1.1 "$bin" || grep -qaF libcrypto.so.1.1 "$bin" || return 0
  _pb_env=(env "LD_LIBRARY_PATH=${lib}${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}")
}
