#!/usr/bin/env bash
# The full failpoint walk (npm run test:faults; tests/faults/README.md): for
# each case, one uninterrupted run counts the playbook's external commands,
# then one run per N is interrupted at command N (SIGINT, SIGTERM or SIGHUP,
# before the command starts or while it runs: faults::signal_of) and
# checked. A progress line per N on stdout, a closing line "N passed, N failed".
#
#   tests/faults/walk.sh [--keep-runs] [CASE...]
#   CASE: array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson
#         routing-refresh lane-lab-two-versions (default: all)
#   --keep-runs  keep each run's folder (output, record, report) for a look
#
# Runs one playbook at a time on the mlaunch lane's stand-in servers (TEST
# FIXTURES ONLY): minutes per case, no MongoDB needed.
# shellcheck source=setup/require-bash.sh
. "$(dirname "$0")/../../setup/require-bash.sh"
dba_lab_require_bash "npm run test:faults" 1
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=setup/env.sh
source "${ROOT}/setup/env.sh"
export DBA_LAB_ROOT="$ROOT"
# shellcheck source=tests/faults/walk.bash
source "${ROOT}/tests/faults/walk.bash"

KEEP_RUNS=0
PASSED=0
FAILED=0
WORK=''

usage() {
  sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

cleanup() {
  [[ -n "$WORK" ]] || return 0
  faults::kill_leftovers "$WORK"
  if ((KEEP_RUNS)); then
    printf 'runs kept in %s\n' "$WORK" >&2
  else
    rm -rf "$WORK"
  fi
}

# One line, whatever the command holds.
short() {
  local s="${1//$'\t'/ }"
  ((${#s} <= 90)) || s="${s:0:87}..."
  printf '%s' "$s"
}

walk_case() {
  local case="$1" dir n t0 natural_rc natural_status count problems
  dir="${WORK}/${case}/record"
  t0=$SECONDS
  faults::record "$case" "$dir"
  natural_rc=$FAULTS_RC natural_status=$FAULTS_STATUS count=$FAULTS_COUNT
  printf '%s: uninterrupted run: exit %s, status %s, %s commands (%d s)\n' \
    "$case" "$natural_rc" "$natural_status" "$count" $((SECONDS - t0))
  if problems=$(faults::check "$dir" "$natural_rc" "$natural_status"); then :; else
    printf '%s: the uninterrupted run already breaks a rule:\n%s\n' "$case" "  ${problems//$'\n'/$'\n'  }"
  fi
  ((KEEP_RUNS)) || rm -rf "$dir"
  for ((n = 1; n <= count; n++)); do
    dir="${WORK}/${case}/${n}"
    t0=$SECONDS
    faults::run "$case" "$dir" "$n"
    faults::expect "$dir" "$n" "$natural_rc" "$natural_status"
    if problems=$(faults::check "$dir" "$FAULTS_WANT_RC" "$FAULTS_WANT_STATUS"); then
      PASSED=$((PASSED + 1))
      printf 'ok     %s N=%d/%d [%s] SIG%s %s: exit %s, %s (%d s)\n' "$case" "$n" "$count" "$FAULTS_WHERE" \
        "$(<"${dir}/point")" "$(short "$FAULTS_WHAT")" "$FAULTS_RC" "$FAULTS_WANT_STATUS" $((SECONDS - t0))
      ((KEEP_RUNS)) || rm -rf "$dir"
    else
      FAILED=$((FAILED + 1))
      printf 'FAILED %s N=%d/%d [%s] SIG%s %s (%d s)\n%s\n' "$case" "$n" "$count" "$FAULTS_WHERE" \
        "$(<"${dir}/point")" "$(short "$FAULTS_WHAT")" $((SECONDS - t0)) "  ${problems//$'\n'/$'\n'  }"
    fi
  done
}

main() {
  local cases=() case t0=$SECONDS
  while (($#)); do
    case "$1" in
      --keep-runs) KEEP_RUNS=1 ;;
      -h | --help) usage; exit 0 ;;
      -*) printf 'walk.sh: unknown option %s\n' "$1" >&2; usage >&2; exit 2 ;;
      *)
        if [[ " ${FAULTS_CASES[*]} " != *" $1 "* ]]; then
          printf 'walk.sh: unknown case %s (one of: %s)\n' "$1" "${FAULTS_CASES[*]}" >&2
          exit 2
        fi
        cases+=("$1")
        ;;
    esac
    shift
  done
  ((${#cases[@]})) || cases=("${FAULTS_CASES[@]}")
  # shellcheck disable=SC2031 # faults::run sets TMPDIR for the playbook only
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-faults.XXXXXX")
  trap cleanup EXIT
  for case in "${cases[@]}"; do
    walk_case "$case"
  done
  # Failed runs are kept for a look.
  if ((FAILED)) && ((!KEEP_RUNS)); then
    KEEP_RUNS=1
  fi
  printf 'walked %d case(s) in %d s\n' "${#cases[@]}" $((SECONDS - t0))
  printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
  ((FAILED == 0))
}

main "$@"
