#!/usr/bin/env bats
# setup/install.sh: one command, idempotent, clear about what is missing.

setup() {
  load test_helper
  # npm, pip and mongosh keep caches and config under HOME: never the user's.
  export HOME="${BATS_TEST_TMPDIR}/home"
  mkdir -p "$HOME"
}

teardown() {
  [[ -z "${SHARED_DIR:-}" ]] || rm -rf "$SHARED_DIR"
}

# Runs a command as user 65534 (nobody), as setpriv does.
as_nobody() {
  setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# A copy of setup/install.sh in a folder every user can reach and only root
# can write to: the checkout's own parents may be private (/root, mktemp -d),
# and then another user cannot even start the script.
shared_checkout() {
  SHARED_DIR=$(mktemp -d /tmp/dba-lab-setup-test.XXXXXX)
  mkdir -p "${SHARED_DIR}/checkout/setup"
  # install.sh and what it sources (node-version.sh reads package.json's engines).
  cp "${DBA_LAB_ROOT}"/setup/*.sh "${SHARED_DIR}/checkout/setup/"
  cp "${DBA_LAB_ROOT}/package.json" "${SHARED_DIR}/checkout/"
  chmod -R a+rX "$SHARED_DIR"
}

@test "an unknown option is refused in one line with exit 2" {
  run "${DBA_LAB_ROOT}/setup/install.sh" --frobnicate
  assert_failure 2
  assert_output "setup: unknown option '--frobnicate' (see ./setup/install.sh --help)"
}

@test "--help says what goes where" {
  run "${DBA_LAB_ROOT}/setup/install.sh" --help
  assert_success
  assert_output --partial "--snippet-index"
  assert_output --partial ".tools/venv"
}

@test "a second run with everything present changes nothing and prints nothing when quiet" {
  run "${DBA_LAB_ROOT}/setup/install.sh" --quiet
  assert_success
  assert_output ""
}

@test "--check lists one row per tool with its version and path" {
  run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_success
  assert_line --regexp '^mongosh +required +found +2\.[0-9]+\.[0-9]+ +/.*/mongosh$'
  assert_line --regexp '^mlaunch +required +found +1\.7\.2 +/'
  assert_line --regexp '^jq +required +found +jq-1\.[0-9]+ +/'
  assert_line --regexp '^bats-assert +required +found +[0-9.]+ +/'
}

@test "--check names curl, which m downloads with (Debian 12 installs wget only), and does not fail without it" {
  local path
  path=$(path_without curl)
  PATH="$path" run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_success
  assert_line --regexp '^curl +optional +MISSING +- +m downloads MongoDB servers and its release lists with curl \(Debian 12 installs wget only\): apt-get install curl, or brew install curl$'
}

@test "--check says that analyze's Go engine was built from this checkout's source" {
  command -v go >/dev/null || skip "go is not installed: setup builds no Go engine"
  run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_success
  assert_line --regexp '^analyze-go +optional +found +current +/.*/\.tools/bin/analyze-go$'
}

@test "--check fails and says what to do when a required tool is missing" {
  local path
  path=$(path_without jq)
  PATH="$path" run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_failure
  assert_line --regexp '^jq +required +MISSING +- +apt-get install jq, or brew install jq$'
  assert_output --partial "Something required is missing"
}

@test "--check reports a missing optional tool without failing" {
  local path
  path=$(path_without chromium)
  PATH="$path" run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_success
  assert_line --regexp '^chromium +optional +MISSING '
}

@test "without npm the install stops at once and names the fix" {
  local path
  path=$(path_without npm)
  PATH="$path" run "${DBA_LAB_ROOT}/setup/install.sh"
  assert_failure 1
  assert_output --partial "npm not found: install npm"
  [[ "${#lines[@]}" -eq 1 ]]
}

@test "a user who cannot write to the checkout gets a one-line reason" {
  [[ $EUID -eq 0 ]] || skip "needs root to switch to an unprivileged user"
  command -v setpriv >/dev/null || skip "needs setpriv"
  as_nobody node --version >/dev/null 2>&1 || skip "user 65534 cannot run node ($(command -v node))"
  shared_checkout
  run as_nobody env HOME="${SHARED_DIR}/home" "${SHARED_DIR}/checkout/setup/install.sh"
  assert_failure 1
  assert_output "setup: cannot write to ${SHARED_DIR}/checkout: run setup as the checkout's owner"
}

# --- the Node.js the installed packages need (package.json "engines")

@test "package.json's node engine is what the mongodb driver and bson it installs declare" {
  run node -e '
    const root = require(process.argv[1] + "/package.json").engines.node;
    const lock = require(process.argv[1] + "/package-lock.json").packages[""].engines.node;
    const need = ["mongodb", "bson"].map((p) => require(process.argv[1] + "/node_modules/" + p + "/package.json").engines.node);
    console.log([root, lock, ...need].join(" "));' "$DBA_LAB_ROOT"
  assert_success
  assert_output ">=20.19.0 >=20.19.0 >=20.19.0 >=20.19.0"
}

# --- steps side by side (setup/beside.sh): the Python tools and the Go
# builds run beside npm ci

@test "beside::wait returns 1 when a chain fails, once every chain has finished; the failed chain stops" {
  source "${DBA_LAB_ROOT}/setup/beside.sh"
  OUT="${BATS_TEST_TMPDIR}/out"
  fails() { printf 'a failed\n' >>"$OUT"; return 1; }
  never() { printf 'ran after the failure\n' >>"$OUT"; }
  slow() { sleep 1; printf 'slow done\n' >>"$OUT"; }
  beside::start fails never
  beside::start slow
  local rc=0
  beside::wait || rc=$?
  assert_equal "$rc" 1
  run cat "$OUT"
  assert_success
  assert_output $'a failed\nslow done'
}

@test "what chains print is shown by beside::wait, each chain whole and in start order, errors on stderr" {
  source "${DBA_LAB_ROOT}/setup/beside.sh"
  late() { sleep 0.5; printf 'first 1\n'; printf 'first 2\n'; printf 'first err\n' >&2; }
  early() { printf 'second 1\n'; }
  beside::start late
  beside::start early
  # Not through run: wait reaches only this shell's own children.
  beside::wait >"${BATS_TEST_TMPDIR}/out" 2>"${BATS_TEST_TMPDIR}/err"
  run cat "${BATS_TEST_TMPDIR}/out"
  assert_success
  assert_output $'first 1\nfirst 2\nsecond 1'
  run cat "${BATS_TEST_TMPDIR}/err"
  assert_success
  assert_output 'first err'
}

@test "beside::wait returns 0 when every chain succeeds" {
  source "${DBA_LAB_ROOT}/setup/beside.sh"
  one() { :; }
  beside::start one one
  beside::start one
  beside::wait
  assert_equal "${#BESIDE_PIDS[@]}" 0
}

@test "beside::stop ends a chain and the processes it started, as setup's exit does" {
  source "${DBA_LAB_ROOT}/setup/beside.sh"
  nap() { sleep 30; }
  beside::start nap
  local group="${BESIDE_PIDS[0]}" i
  for ((i = 0; i < 50; i++)); do pgrep -g "$group" -x sleep >/dev/null && break; sleep 0.1; done
  run pgrep -g "$group" -x sleep
  assert_success
  beside::stop
  for ((i = 0; i < 50; i++)); do pgrep -g "$group" >/dev/null || break; sleep 0.1; done
  run pgrep -g "$group"
  assert_failure 1
  run compgen -G "${TMPDIR:-/tmp}/dba-lab-setup-beside.*"
  assert_failure
}

@test "node_version::at_least compares versions as numbers" {
  source "${DBA_LAB_ROOT}/setup/node-version.sh"
  node_version::at_least v20.19.0 20.19.0
  node_version::at_least v22.1.0 20.19.0
  node_version::at_least v20.100.0 20.19.0
  run node_version::at_least v20.9.9 20.19.0
  assert_failure
  run node_version::at_least v18.20.4 20.19.0
  assert_failure
  run node_version::at_least v20.18.3 20.19.0
  assert_failure
}

@test "node_version::minimum reads package.json's engines" {
  source "${DBA_LAB_ROOT}/setup/node-version.sh"
  run node_version::minimum "${DBA_LAB_ROOT}/package.json"
  assert_success
  assert_output "20.19.0"
}

# Both stop at the node check, before anything is installed.
@test "a node older than package.json's engines stops the install at once, in one line" {
  PATH="${DBA_LAB_ROOT}/tests/fixtures/old-node:${PATH}" run "${DBA_LAB_ROOT}/setup/install.sh"
  assert_failure 1
  assert_output 'setup: node v18.20.4 is too old: the mongodb driver and bson this project installs need Node.js 20.19.0 or newer (package.json "engines"): install a newer Node.js (https://nodejs.org, or nvm), then run this again'
}

@test "--check marks a node that is too old and fails" {
  PATH="${DBA_LAB_ROOT}/tests/fixtures/old-node:${PATH}" run "${DBA_LAB_ROOT}/setup/install.sh" --check
  assert_failure
  assert_line --regexp '^node +required +TOO OLD +v18\.20\.4 +the mongodb driver and bson this project installs need Node\.js 20\.19\.0 or newer'
}

# --- setup's patch of mtools (docs/mongodb-facts.md#mlaunch-space) -------------

# mlaunch_as_released DEST: the venv's mlaunch.py as pip installed it (setup
# patches it in place, so a patched copy is un-patched here), checked against
# the sha256 the wheel's own RECORD lists for it.
mlaunch_as_released() {
  local dest="$1" py="${DBA_LAB_ROOT}/.tools/venv/bin/python" file record want got
  file=$("$py" -c 'import mtools.mlaunch.mlaunch as m; print(m.__file__)')
  record=$(dirname "$(dirname "$(dirname "$file")")")/mtools-1.7.2.dist-info/RECORD
  cp "$file" "$dest"
  if patch -R --dry-run -s -f -F 0 "$dest" <"${DBA_LAB_ROOT}/setup/mtools-1.7.2.patch" >/dev/null 2>&1; then
    patch -R -s -f -F 0 "$dest" <"${DBA_LAB_ROOT}/setup/mtools-1.7.2.patch" >/dev/null
  fi
  want=$(awk -F, '$1 == "mtools/mlaunch/mlaunch.py" {sub(/^sha256=/, "", $2); print $2}' "$record")
  got=$("$py" -c 'import base64, hashlib, sys; print(base64.urlsafe_b64encode(hashlib.sha256(open(sys.argv[1], "rb").read()).digest()).rstrip(b"=").decode())' "$dest")
  [[ -n "$want" && "$got" == "$want" ]] || { printf 'mlaunch_as_released: not mtools 1.7.2 as released (%s, RECORD says %s)\n' "$got" "$want" >&2; return 1; }
}

@test "the mtools patch applies to mlaunch 1.7.2 as released, once, and quotes mongos's path only" {
  local file="${BATS_TEST_TMPDIR}/mlaunch.py"
  mlaunch_as_released "$file"
  cp "$file" "${file}.released"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" mtools "$file"
  assert_success
  assert_output applied
  cp "$file" "${file}.once"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" mtools "$file"
  assert_success
  assert_output 'already applied'
  cmp "$file" "${file}.once"
  run diff "${file}.released" "$file"
  assert_failure 1
  assert_output "$(printf '%s\n' '2174c2174' \
    '<             command_str = ("%s --logpath \"%s\" --port %i --configdb %s %s %s "' '---' \
    '>             command_str = ("\"%s\" --logpath \"%s\" --port %i --configdb %s %s %s "')"
}

@test "the mtools patch refuses another mtools in one line and leaves it unchanged" {
  local site="${BATS_TEST_TMPDIR}/site"
  mkdir -p "${site}/mtools/mlaunch"
  mlaunch_as_released "${site}/mtools/mlaunch/mlaunch.py"
  sed -i 's/^            command_str = ("%s --logpath/            command_str = ("%s  --logpath/' "${site}/mtools/mlaunch/mlaunch.py"
  printf "__version__ = '1.7.3'\n" >"${site}/mtools/version.py"
  cp "${site}/mtools/mlaunch/mlaunch.py" "${BATS_TEST_TMPDIR}/before"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" mtools "${site}/mtools/mlaunch/mlaunch.py"
  assert_failure 1
  assert_output "patch-mtools: ${site}/mtools/mlaunch/mlaunch.py is mtools 1.7.3, not mtools 1.7.2: mtools-1.7.2.patch does not apply, so mlaunch could not start a mongos from a folder whose path holds a space; reinstall mtools 1.7.2 (rm -rf .tools/venv; ./setup/install.sh)"
  cmp "${site}/mtools/mlaunch/mlaunch.py" "${BATS_TEST_TMPDIR}/before"
}

@test "an mlaunch.py whose hunk still fits at another offset (mtools 1.7.1) is refused by its SHA256, and left unchanged" {
  local site="${BATS_TEST_TMPDIR}/site" file
  mkdir -p "${site}/mtools/mlaunch"
  file="${site}/mtools/mlaunch/mlaunch.py"
  mlaunch_as_released "${BATS_TEST_TMPDIR}/released.py"
  { printf '# another release\n'; cat "${BATS_TEST_TMPDIR}/released.py"; } >"$file"
  printf "__version__ = '1.7.1'\n" >"${site}/mtools/version.py"
  run patch --dry-run -s -f -F 0 "$file" <"${DBA_LAB_ROOT}/setup/mtools-1.7.2.patch"
  assert_success
  cp "$file" "${BATS_TEST_TMPDIR}/before"
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" mtools "$file"
  assert_failure 1
  assert_output "patch-mtools: ${file} is mtools 1.7.1, not mtools 1.7.2: mtools-1.7.2.patch does not apply, so mlaunch could not start a mongos from a folder whose path holds a space; reinstall mtools 1.7.2 (rm -rf .tools/venv; ./setup/install.sh)"
  cmp "$file" "${BATS_TEST_TMPDIR}/before"
}

@test "after setup, the venv's mlaunch carries the patch" {
  local file
  file=$("${DBA_LAB_ROOT}/.tools/venv/bin/python" -c 'import mtools.mlaunch.mlaunch as m; print(m.__file__)')
  run "${DBA_LAB_ROOT}/setup/patch-tool.sh" mtools "$file"
  assert_success
  assert_output 'already applied'
}
