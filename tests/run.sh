#!/usr/bin/env bash
# The project's one test command (npm test): setup, then every suite, then
# one closing line "N passed, N failed, N skipped". Exits non-zero on any failure.
#
#   tests/run.sh [--verbose] [--no-setup] [SUITE...]
#   SUITE: lint, snippets, bats, integration (default: all of them)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
PASSED=0
FAILED=0
SKIPPED=0
VERBOSE=0
SERVERS_STARTED=()

usage() {
  sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# Runs a command that prints TAP, shows what failed (or everything with
# --verbose), and adds its counts to the totals.
run_suite() {
  local name="$1"
  shift
  local tap rc=0 p f s
  tap=$("$@" 2>&1) || rc=$?
  read -r p f s < <(printf '%s\n' "$tap" | "$ROOT/tests/lib/tap-count")
  if ((rc != 0 && f == 0)); then
    # It died without reporting a failure of its own: that is one.
    f=1
    tap+=$'\n'"not ok - ${name} exited with status ${rc}"
  fi
  if ((VERBOSE)); then
    printf '%s\n' "$tap"
  elif ((f > 0)); then
    printf '%s\n' "$tap" | awk '/^not ok/ { show = 1; print; next } /^#/ && show { print; next } { show = 0 }'
  fi
  printf '%-28s %d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  SKIPPED=$((SKIPPED + s))
}

mongosh_tap() {
  local target="$1" file="$2"
  mongosh "$target" --quiet --norc \
    --eval "globalThis.__dbaLabTestFile = $(jq -Rn --arg f "$file" '$f'); void 0" \
    "$ROOT/tests/snippets/harness.js"
}

run_snippet_suites() {
  local file
  for file in "$ROOT"/tests/snippets/*.test.js; do
    [[ -e "$file" ]] || continue
    run_suite "snippets/$(basename "$file" .test.js)" mongosh_tap --nodb "$file"
  done
}

run_bats_dir() {
  local dir="$1"
  bats --tap "$dir"
}

stop_servers() {
  local server
  for server in "${SERVERS_STARTED[@]+"${SERVERS_STARTED[@]}"}"; do
    "$ROOT/tests/servers/${server}.sh" stop >/dev/null 2>&1 || true
  done
  SERVERS_STARTED=()
}

# Each folder under tests/integration/ is named after the server script in
# tests/servers/ that its suites need. A server that cannot start fails the
# run on CI and is a visible skip elsewhere; a server script that exits 77
# (NOT_AVAILABLE: e.g. no MongoDB binaries on this machine, said on stderr)
# is a visible skip everywhere, CI included.
readonly NOT_AVAILABLE=77
run_integration_suites() {
  local dir server uri file rc
  for dir in "$ROOT"/tests/integration/*/; do
    [[ -d "$dir" ]] || continue
    server=$(basename "$dir")
    rc=0
    uri=$("$ROOT/tests/servers/${server}.sh" start) || rc=$?
    if ((rc != 0)); then
      if ((rc == NOT_AVAILABLE)); then
        printf 'NOTICE: integration/%s skipped: no %s test server on this machine (tests/servers/%s.sh start: not available)\n' \
          "$server" "$server" "$server"
        SKIPPED=$((SKIPPED + 1))
      elif [[ "${CI:-}" == "true" ]]; then
        printf 'integration/%s: the %s test server did not start: failing (CI=true)\n' "$server" "$server"
        FAILED=$((FAILED + 1))
      else
        printf 'NOTICE: integration/%s skipped: the %s test server did not start (tests/servers/%s.sh start)\n' \
          "$server" "$server" "$server"
        SKIPPED=$((SKIPPED + 1))
      fi
      continue
    fi
    SERVERS_STARTED+=("$server")
    for file in "$dir"*.test.js; do
      [[ -e "$file" ]] || continue
      run_suite "integration/$server/$(basename "$file" .test.js)" mongosh_tap "$uri" "$file"
    done
    if compgen -G "$dir*.bats" >/dev/null; then
      DBA_LAB_TEST_URI="$uri" run_suite "integration/$server/bats" run_bats_dir "$dir"
    fi
    "$ROOT/tests/servers/${server}.sh" stop >/dev/null 2>&1 || true
    SERVERS_STARTED=("${SERVERS_STARTED[@]:0:${#SERVERS_STARTED[@]}-1}")
  done
}

main() {
  local setup=1 suites=() suite
  while (($#)); do
    case "$1" in
      --verbose|-v) VERBOSE=1 ;;
      --no-setup) setup=0 ;;
      -h|--help) usage; exit 0 ;;
      lint|snippets|bats|integration) suites+=("$1") ;;
      *) printf 'tests/run.sh: unknown argument %s (see --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
  done
  ((${#suites[@]})) || suites=(lint snippets bats integration)

  if ((setup)) && ! "$ROOT/setup/install.sh" --quiet; then
    printf 'setup failed: see the message above, or run ./setup/install.sh --check\n'
    printf '0 passed, 1 failed\n'
    exit 1
  fi
  # shellcheck source=setup/env.sh
  source "$ROOT/setup/env.sh"
  export DBA_LAB_ROOT="$ROOT"
  trap stop_servers EXIT
  trap 'stop_servers; exit 130' INT TERM

  for suite in "${suites[@]}"; do
    case "$suite" in
      lint) run_suite lint "$ROOT/tests/lint.sh"; run_suite lint-workflows "$ROOT/tests/lint-workflows.sh" ;;
      snippets) run_snippet_suites ;;
      bats) run_suite bats run_bats_dir "$ROOT/tests/bats" ;;
      integration) run_integration_suites ;;
    esac
  done

  printf '%d passed, %d failed, %d skipped\n' "$PASSED" "$FAILED" "$SKIPPED"
  ((FAILED == 0))
}

main "$@"
