#!/usr/bin/env bash
# Installs the mongosh-dba-lab tool chain into this checkout.
#
#   ./setup/install.sh                 install what is missing (a second run only checks)
#   ./setup/install.sh --check         one row per tool: found, version, path, or what to do
#   ./setup/install.sh --snippet-index register this checkout's snippet index with mongosh
#
# Options:
#   --yes        install system packages (jq; chromium when CI=true) without asking
#   --no-system  never touch system packages; say what to install instead
#   --quiet      print only what is being installed, and errors
#   -h, --help   this text
#
# Where things go: node_modules/ (mongosh, bats, m), .tools/venv (mtools and the
# ShellCheck binary), .tools/bin (links to all of them; analyze's Go engine, and the
# Database Tools built from the Go module proxy, when go is present). Nothing outside the checkout
# changes except system packages, and only after you say yes (or --yes).
# source setup/env.sh puts .tools/bin on PATH.
# shellcheck source=setup/require-bash.sh
. "$(dirname "$0")/require-bash.sh"
dba_lab_require_bash "setup/install.sh" 1
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly TOOLS="${ROOT}/.tools"
# shellcheck source=setup/node-version.sh
source "${ROOT}/setup/node-version.sh"
# shellcheck source=setup/beside.sh
source "${ROOT}/setup/beside.sh"
# shellcheck source=setup/tool-versions.sh
source "${ROOT}/setup/tool-versions.sh"
readonly BIN="${TOOLS}/bin"
# mongo-tools tags are not Go versions: this pseudo-version is 100.12.x (docs/mongodb-facts.md#mongo-tools-go-proxy).
readonly DB_TOOLS_VERSION="v0.0.0-20250715155915-887641268977"
readonly DB_TOOLS_LABEL="100.12.2+dba-lab"
readonly DB_TOOLS=(mongodump mongorestore mongoexport bsondump)
# actionlint checks .github/workflows (tests/lint-workflows.sh); pinned, built with go.
readonly ACTIONLINT_VERSION="1.7.12"

QUIET=0
ASSUME_YES=0
NO_SYSTEM=0

say() {
  ((QUIET)) || printf '==> %s\n' "$*"
}

# Installs are shown even with --quiet: they take time and change the tree.
step() {
  printf '==> %s\n' "$*"
}

die() {
  printf 'setup: %s\n' "$*" >&2
  exit 1
}

usage_error() {
  printf 'setup: %s (see ./setup/install.sh --help)\n' "$*" >&2
  exit 2
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

have() {
  command -v "$1" >/dev/null 2>&1
}

hash_of() {
  if have sha256sum; then
    sha256sum "$@" | awk '{print $1}' | tr -d '\n'
  else
    shasum -a 256 "$@" | awk '{print $1}' | tr -d '\n'
  fi
}

require_writable_checkout() {
  [[ -w "$ROOT" ]] || die "cannot write to ${ROOT}: run setup as the checkout's owner"
  mkdir -p "$BIN" 2>/dev/null || die "cannot create ${BIN}: check the permissions of ${ROOT}"
  [[ -w "$TOOLS" && -w "$BIN" ]] || die "cannot write to ${TOOLS}: check its permissions or remove it"
}

require_node() {
  local problem
  problem=$(node_version::problem "${ROOT}/package.json")
  [[ -z "$problem" ]] || die "${problem}, then run this again"
  have npm || die "npm not found: install npm with Node.js $(node_version::minimum "${ROOT}/package.json") or newer (Debian: apt-get install npm), then run this again"
}

# npm ci starts from an empty node_modules, so an interrupted install is
# repaired by running again; the stamp says the tree matches the lock file.
# --prefer-offline: the lock file pins each package and its checksum, so
# npm's cache need not be revalidated against the registry (23 s instead of
# 27 s here); a package not in the cache is still downloaded.
install_npm_packages() {
  local stamp="${ROOT}/node_modules/.dba-lab-stamp" want
  want=$(hash_of "${ROOT}/package-lock.json")
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "${ROOT}/node_modules/.bin/mongosh" ]]; then
    say "npm packages: up to date"
    return
  fi
  step "npm packages: installing mongosh, bats, m (about a minute the first time)"
  if ! (cd "$ROOT" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >"${TOOLS}/npm.log" 2>&1); then
    tail -n 20 "${TOOLS}/npm.log" >&2
    die "npm ci failed (log: .tools/npm.log): check the network or the npm registry settings, then run this again"
  fi
  printf '%s' "$want" >"$stamp"
}

# npm's m 1.10.0 and pip's mtools 1.7.2 as the playbooks need them: Debian 12
# builds, and a checkout path with a space (docs/m.md, docs/mongodb-facts.md).
# Applied after every install (npm ci and pip restore the originals); a copy
# the patch does not fit stops setup.
patch_tool() {
  local tool="$1" file="$2" what="$3" said
  said=$("${ROOT}/setup/patch-tool.sh" "$tool" "$file" 2>&1) || die "${said#patch-"${tool}": }"
  if [[ "$said" == applied ]]; then
    step "${tool}: patched for ${what}"
  else
    say "${tool}: patch already applied"
  fi
}

patch_m() {
  patch_tool m "${ROOT}/node_modules/m/bin/m" "Debian 12 and Linux Mint 22 builds, paths with spaces (setup/m-1.10.0.patch)"
}

patch_mtools() {
  local file
  file=$("${TOOLS}/venv/bin/python" -c 'import mtools.mlaunch.mlaunch as m; print(m.__file__)' 2>/dev/null) \
    || die "mtools is not importable from .tools/venv: rm -rf .tools/venv; ./setup/install.sh"
  patch_tool mtools "$file" "a mongos path with a space (setup/mtools-1.7.2.patch)"
}

python_with_venv() {
  local py
  for py in python3 python; do
    if have "$py" && "$py" -c 'import sys, venv; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
      printf '%s\n' "$py"
      return 0
    fi
  done
  return 1
}

# The stamp is written last: a venv without it (an interrupted run) is rebuilt
# from scratch, never trusted.
install_python_tools() {
  local venv="${TOOLS}/venv" stamp want py
  stamp="${venv}/.dba-lab-stamp"
  want=$(hash_of "${ROOT}/setup/requirements.txt")
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "${venv}/bin/mlaunch" ]]; then
    say "mtools and shellcheck: up to date"
    return
  fi
  py=$(python_with_venv) || die "python3 (3.8+) with venv not found: Debian/Ubuntu: apt-get install python3-venv; macOS: brew install python"
  step "mtools (mlaunch) and shellcheck: installing into .tools/venv"
  rm -rf "$venv"
  "$py" -m venv "$venv" >"${TOOLS}/pip.log" 2>&1 \
    || die "python venv creation failed (log: .tools/pip.log): Debian/Ubuntu: apt-get install python3-venv"
  if ! "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check -r "${ROOT}/setup/requirements.txt" >>"${TOOLS}/pip.log" 2>&1; then
    tail -n 20 "${TOOLS}/pip.log" >&2
    die "pip install failed (log: .tools/pip.log): check the network or your pip index settings, then run this again"
  fi
  printf '%s' "$want" >"$stamp"
}

link_tools() {
  local name target
  local -A links=(
    [mongosh]="${ROOT}/node_modules/.bin/mongosh"
    [bats]="${ROOT}/node_modules/bats/bin/bats"
    [m]="${ROOT}/node_modules/.bin/m"
    [mlaunch]="${TOOLS}/venv/bin/mlaunch"
    [mlogfilter]="${TOOLS}/venv/bin/mlogfilter"
    [mloginfo]="${TOOLS}/venv/bin/mloginfo"
    [shellcheck]="${TOOLS}/venv/bin/shellcheck"
  )
  for name in "${!links[@]}"; do
    target="${links[$name]}"
    [[ -e "$target" ]] || continue
    [[ "$(readlink "${BIN}/${name}" 2>/dev/null)" == "$target" ]] || ln -sfn "$target" "${BIN}/${name}"
  done
}

# The command that would install system packages here, or nothing.
system_installer() {
  if have apt-get; then
    if ((EUID == 0)); then
      printf 'apt-get install -y'
    elif have sudo; then
      printf 'sudo apt-get install -y'
    fi
  elif have brew; then
    printf 'brew install'
  fi
}

package_name() {
  local tool="$1"
  case "${tool}:$(have apt-get && echo apt || echo brew)" in
    *) printf '%s' "$tool" ;;
  esac
}

confirm() {
  local question="$1" answer
  ((ASSUME_YES)) && return 0
  [[ -t 0 ]] || return 1
  read -r -p "${question} [y/N] " answer
  [[ "$answer" == [yY]* ]]
}

# CI (CI=true) runs the browser tests of the HTML reports; elsewhere they are
# skipped visibly when no chromium is found, so a laptop is not asked for it.
wants_chromium() {
  [[ "${CI:-}" == true ]] && have apt-get
}

# jq is required (reports, tests); chromium only in CI, for the report pages' browser tests.
install_system_packages() {
  local missing=() tool installer packages=() tools=(jq)
  if wants_chromium; then tools+=(chromium); fi
  for tool in "${tools[@]}"; do
    have "$tool" || missing+=("$tool")
  done
  ((${#missing[@]})) || { say "${tools[*]}: present"; return; }
  for tool in "${missing[@]}"; do packages+=("$(package_name "$tool")"); done
  installer=$(system_installer)
  # CI has no terminal to answer; CI=true is its yes.
  if ((NO_SYSTEM)) || [[ -z "$installer" ]] \
    || { [[ "${CI:-}" != true ]] && ! confirm "Install ${packages[*]} system-wide with '${installer}'?"; }; then
    if [[ " ${missing[*]} " == *" jq "* ]]; then
      die "jq not found: install it (Debian/Ubuntu: apt-get install jq; macOS: brew install jq), then run this again"
    fi
    say "chromium not found: the browser tests of the report pages will be skipped (apt-get install chromium)"
    return
  fi
  step "system packages: ${installer} ${packages[*]}"
  if [[ "$installer" == *apt-get* ]]; then
    ${installer/install -y/update -qq} >/dev/null 2>&1 || true
  fi
  # shellcheck disable=SC2086 # the installer is a command line of its own
  $installer "${packages[@]}" >"${TOOLS}/system.log" 2>&1 \
    || die "'${installer} ${packages[*]}' failed (log: .tools/system.log): install them by hand, then run this again"
}

database_tools_present() {
  local tool
  for tool in "${DB_TOOLS[@]}"; do
    have "$tool" || [[ -x "${BIN}/${tool}" ]] || return 1
  done
}

# Built in a scratch module from the Go module proxy (docs/mongodb-facts.md#mongo-tools-go-proxy); the binaries
# land in .tools/bin only when all four built.
install_database_tools() {
  if database_tools_present; then
    say "MongoDB Database Tools: present"
    return
  fi
  if ! have go; then
    say "MongoDB Database Tools not found and no go to build them: install them (https://www.mongodb.com/try/download/database-tools) or Go 1.22+, then run this again (only the mongodump-raw-bson playbook needs them)"
    return
  fi
  local work="${TOOLS}/build/mongo-tools" tool out
  out="${work}/bin"
  step "MongoDB Database Tools: building ${DB_TOOLS[*]} from the Go module proxy (a few minutes the first time)"
  rm -rf "$work"
  mkdir -p "$out"
  (
    cd "$work"
    export GONOSUMDB=github.com/mongodb/mongo-tools GOFLAGS="-mod=mod -buildvcs=false"
    go mod init dba-lab/mongo-tools-build
    go get "github.com/mongodb/mongo-tools@${DB_TOOLS_VERSION}"
    for tool in "${DB_TOOLS[@]}"; do
      printf '    building %s\n' "$tool"
      go build -o "${out}/${tool}" -ldflags "-X main.VersionStr=${DB_TOOLS_LABEL}" \
        "github.com/mongodb/mongo-tools/${tool}/main"
    done
  ) >"${TOOLS}/db-tools.log" 2>&1 || {
    tail -n 20 "${TOOLS}/db-tools.log" >&2
    die "building the Database Tools failed (log: .tools/db-tools.log): check the Go module proxy settings (GOPROXY), then run this again"
  }
  for tool in "${DB_TOOLS[@]}"; do
    mv "${out}/${tool}" "${BIN}/${tool}"
  done
  rm -rf "$work"
}

# What the Go engine checks against its checkout before it answers (else it
# hands over to the Python engine): the SHA-256 of its go.mod and .go files
# but tests, read in byte order of their names.
analyze_engine_hash() {
  local dir="${ROOT}/playbooks/lib/analyze-go" name
  (
    cd "$dir"
    printf '%s\n' go.mod *.go | grep -v '_test\.go$' | LC_ALL=C sort | while IFS= read -r name; do
      cat -- "$name"
    done
  ) | hash_of
}

# The Go engine of playbooks/analyze: standard library only, so it builds
# offline. Without Go, analyze runs its Python engine: same output, slower.
install_analyze_engine() {
  local hash
  hash="$(analyze_engine_hash)"
  if [[ -x "${BIN}/analyze-go" && "$(cat "${TOOLS}/analyze-go.hash" 2>/dev/null)" == "$hash" ]]; then
    say "analyze's Go engine: present"
    return
  fi
  if ! have go; then
    say "analyze's Go engine not built (no go): playbooks/analyze uses its Python engine (same output, slower); install Go 1.21+ and run this again for the fast one"
    return
  fi
  step "analyze's Go engine: building playbooks/lib/analyze-go"
  rm -f "${TOOLS}/analyze-go.hash"
  (
    cd "${ROOT}/playbooks/lib/analyze-go"
    # The build cache stays in .tools, where the tests' go vet and go test find it warm.
    GOCACHE="${TOOLS}/go-build-cache" GOTOOLCHAIN=local GOFLAGS=-buildvcs=false \
      go build -trimpath -ldflags "-X main.sourceHash=${hash}" -o "${BIN}/analyze-go" .
  ) >"${TOOLS}/analyze-go.log" 2>&1 || {
    tail -n 20 "${TOOLS}/analyze-go.log" >&2
    die "building analyze's Go engine failed (log: .tools/analyze-go.log); remove Go from PATH to use the Python engine only"
  }
  printf '%s\n' "$hash" >"${TOOLS}/analyze-go.hash"
}

# go install builds print "v1.7.12", release builds "1.7.12".
actionlint_current() {
  local v
  [[ -x "${BIN}/actionlint" ]] || return 1
  v=$("${BIN}/actionlint" -version 2>/dev/null | head -n 1)
  [[ "${v#v}" == "$ACTIONLINT_VERSION" ]]
}

# Built from the Go module proxy into .tools/bin, as the Database Tools are.
install_actionlint() {
  if actionlint_current; then
    say "actionlint ${ACTIONLINT_VERSION}: present"
    return
  fi
  if ! have go; then
    say "actionlint not found and no go to build it: install Go 1.22+, then run this again (only the workflow lint needs it)"
    return
  fi
  step "actionlint ${ACTIONLINT_VERSION}: building from the Go module proxy"
  GOBIN="$BIN" GOFLAGS=-buildvcs=false go install "github.com/rhysd/actionlint/cmd/actionlint@v${ACTIONLINT_VERSION}" \
    >"${TOOLS}/actionlint.log" 2>&1 || {
    tail -n 20 "${TOOLS}/actionlint.log" >&2
    die "building actionlint failed (log: .tools/actionlint.log): check the Go module proxy settings (GOPROXY), then run this again"
  }
}

# --check: one row per tool. Exit 1 when a required one is missing.
tool_version() {
  local tool="$1" path="$2"
  case "$tool" in
    node) "$path" --version ;;
    npm|m) "$path" --version 2>/dev/null | head -n 1 ;;
    mongosh) tool_versions::mongosh "$path" ;;
    bats) "$path" --version | awk '{print $2}' ;;
    python3) "$path" --version 2>&1 | awk '{print $2}' ;;
    mlaunch) tool_versions::mlaunch "$path" ;;
    shellcheck) "$path" --version | awk '/^version:/ {print $2}' ;;
    jq) "$path" --version ;;
    curl) "$path" --version 2>/dev/null | awk 'NR==1 {print $2}' ;;
    chromium) "$path" --version 2>/dev/null | awk '{print $2}' ;;
    go) "$path" version | awk '{print $3}' ;;
    mongodump|mongorestore|mongoexport|bsondump) "$path" --version 2>/dev/null | awk 'NR==1 {print $NF}' ;;
    actionlint) "$path" -version | head -n 1 ;;
    analyze-go) [[ "$(cat "${TOOLS}/analyze-go.hash" 2>/dev/null)" == "$(analyze_engine_hash)" ]] && printf 'current' || printf 'STALE: rebuild' ;;
    bats-support|bats-assert) node -p "require('${path}/package.json').version" ;;
    *) printf '?' ;;
  esac
}

check_row() {
  local tool="$1" need="$2" fix="$3" path version
  case "$tool" in
    bats-support|bats-assert) path="${ROOT}/node_modules/${tool}"; [[ -f "${path}/load.bash" ]] || path="" ;;
    *) path=$(PATH="${BIN}:${PATH}" command -v "$tool" 2>/dev/null || true) ;;
  esac
  if [[ -n "$path" ]]; then
    version=$(tool_version "$tool" "$path" 2>/dev/null || true)
    printf '%-13s %-9s %-8s %-22s %s\n' "$tool" "$need" "found" "${version:-?}" "$path"
    return 0
  fi
  printf '%-13s %-9s %-8s %-22s %s\n' "$tool" "$need" "MISSING" "-" "$fix"
  [[ "$need" != "required" ]]
}

check() {
  local absent=0 setup="run ./setup/install.sh"
  printf '%-13s %-9s %-8s %-22s %s\n' TOOL NEED STATUS VERSION "PATH, OR WHAT TO DO"
  check_row node required "install Node.js $(node_version::minimum "${ROOT}/package.json")+ (https://nodejs.org)" || absent=1
  if have node && [[ -n "$(node_version::problem "${ROOT}/package.json")" ]]; then
    printf '%-13s %-9s %-8s %-22s %s\n' node required "TOO OLD" "$(node --version)" "$(node_version::problem "${ROOT}/package.json" | sed 's/^[^:]*: //')"
    absent=1
  fi
  check_row npm required "install npm (Debian: apt-get install npm)" || absent=1
  check_row mongosh required "$setup" || absent=1
  check_row bats required "$setup" || absent=1
  check_row bats-support required "$setup" || absent=1
  check_row bats-assert required "$setup" || absent=1
  check_row m required "$setup" || absent=1
  check_row curl optional "m downloads MongoDB servers and its release lists with curl (Debian 12 installs wget only): apt-get install curl, or brew install curl" || true
  check_row python3 required "install Python 3.8+ with venv (Debian: apt-get install python3-venv)" || absent=1
  check_row mlaunch required "$setup" || absent=1
  check_row shellcheck required "$setup" || absent=1
  check_row jq required "apt-get install jq, or brew install jq" || absent=1
  check_row chromium optional "browser tests of the report pages: apt-get install chromium (setup installs it when CI=true)" || true
  check_row go optional "builds analyze's fast engine, the Database Tools and the FerretDB test server: https://go.dev/dl" || true
  check_row analyze-go optional "playbooks/analyze's fast engine (the Python one reads everything too): $setup with go present" || true
  check_row actionlint optional "the workflow lint (tests/lint-workflows.sh): $setup with go present" || true
  local tool
  for tool in "${DB_TOOLS[@]}"; do
    check_row "$tool" optional "mongodump-raw-bson playbook: $setup with go present" || true
  done
  if ((absent)); then
    printf '\nSomething required is missing: run ./setup/install.sh (or do what the row says).\n'
    return 1
  fi
}

# The npm packages are installed first (the --snippet-index action), and
# snippet-index.js names a missing mongosh itself: no `mongosh --version`
# here, half a second of CPU.
snippet_index() {
  node "${ROOT}/setup/snippet-index.js" register
}

# The system packages come first: they may ask, and the rest runs unattended.
# The Python tools and the Go builds need nothing from npm: on a new
# checkout they run beside npm ci, which takes most of the time (23 of 42 s
# here when they ran one after another).
install_all() {
  require_node
  require_writable_checkout
  install_system_packages
  trap beside::stop EXIT
  beside::start install_python_tools patch_mtools
  beside::start install_analyze_engine install_database_tools install_actionlint
  install_npm_packages
  patch_m
  beside::wait || exit 1
  trap - EXIT
  link_tools
  say "done: source setup/env.sh to put the tools on PATH; ./setup/install.sh --check lists them"
}

main() {
  local action=install
  while (($#)); do
    case "$1" in
      --check) action=check ;;
      --snippet-index) action=snippet-index ;;
      --yes|-y) ASSUME_YES=1 ;;
      --no-system) NO_SYSTEM=1 ;;
      --quiet|-q) QUIET=1 ;;
      -h|--help) usage; exit 0 ;;
      *) usage_error "unknown option '$1'" ;;
    esac
    shift
  done
  case "$action" in
    check) check ;;
    install) install_all ;;
    snippet-index) require_node; require_writable_checkout; install_npm_packages; patch_m; link_tools; snippet_index ;;
  esac
}

main "$@"
