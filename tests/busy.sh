#!/usr/bin/env bash
# The suite on a busy machine (npm run test:busy): two CPU-bound loops run
# beside tests/run.sh, as other jobs do on a shared CI runner or a laptop. A
# test that passes only on an idle machine depends on wall time: that is a
# defect of the test. The loops are stopped when the suite ends, also on
# Ctrl-C; the exit status is the suite's.
#
#   tests/busy.sh [tests/run.sh's options and suites]
# shellcheck source=setup/require-bash.sh
. "$(dirname "$0")/../setup/require-bash.sh"
dba_lab_require_bash "npm run test:busy" 1
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
LOOPS=()
SUITE=''

# Only what this script started: the pids came from $! here.
stop_loops() {
  ((${#LOOPS[@]})) || return 0
  kill "${LOOPS[@]}" 2>/dev/null || true
  wait "${LOOPS[@]}" 2>/dev/null || true
  LOOPS=()
}

# A signal goes on to the suite, which stops its jobs; then the loops stop.
on_signal() {
  if [[ -n "$SUITE" ]]; then
    kill "-$1" "$SUITE" 2>/dev/null || true
    wait "$SUITE" 2>/dev/null || true
  fi
  exit "$2"
}

main() {
  local rc=0
  if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    return 0
  fi
  trap stop_loops EXIT
  trap 'on_signal INT 130' INT
  trap 'on_signal TERM 143' TERM
  for _ in 1 2; do
    (while :; do :; done) &
    LOOPS+=("$!")
  done
  printf 'busy.sh: two CPU-bound loops (pids %s) run beside the suite\n' "${LOOPS[*]}" >&2
  # In the background, so that a signal finds this shell waiting, not blocked.
  "${ROOT}/tests/run.sh" "$@" &
  SUITE=$!
  wait "$SUITE" || rc=$?
  SUITE=''
  stop_loops
  return "$rc"
}

main "$@"
