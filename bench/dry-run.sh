#!/usr/bin/env bash
# bench/dry-run.sh: what the framework itself costs, per playbook.
#
#   bench/dry-run.sh [--runs N] [--against DIR] [--help]     (default 5 runs)
#
# What: each playbook's --dry-run with its defaults: option parsing,
# preflight (tool versions, platform, binaries), the plan of every stage and
# the checker's list of claims, with no server and no download. That is the
# framework's own price, paid by every real run too, and by the tests, which
# start playbooks hundreds of times.
#
# How: N runs of each playbook one after another, each timed as a whole
# process tree with /usr/bin/time (user and system CPU seconds of the
# playbook and everything it waited for, wall seconds). With --against DIR
# (another checkout, e.g. a `git worktree add DIR HEAD~3` of an older
# commit, with its tools installed or linked), the same runs alternate with
# DIR's, run by run, so a change in the machine's load hits both sides alike.
#
# Reading it: the median of N per playbook, min-max beside it. CPU is the
# figure to compare on a shared machine; wall time follows the load.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly PLAYBOOKS=(array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh)

usage() {
  sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
  printf 'bench/dry-run.sh: %s\n' "$*" >&2
  exit 2
}

WORK=''
cleanup() {
  [[ -z "$WORK" ]] || rm -rf "$WORK"
}

# time_once CHECKOUT PLAYBOOK: "CPU WALL" in seconds, one dry run.
time_once() {
  local checkout="$1" playbook="$2" dir
  dir=$(mktemp -d "${WORK}/run.XXXXXX")
  (
    cd "$dir"
    # shellcheck source=setup/env.sh
    source "${checkout}/setup/env.sh"
    /usr/bin/time -f '%U %S %e' -o "${dir}/time" "${checkout}/playbooks/${playbook}.sh" --dry-run --yes \
      --dir "${dir}/data" --report-dir "${dir}/report" >"${dir}/out" 2>&1 || true
  )
  awk '{printf "%.2f %.2f\n", $1 + $2, $3}' "${dir}/time"
  rm -rf "$dir"
}

# stats VALUES...: "median (min-max)".
stats() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'
}

main() {
  local runs=5 against='' playbook i cpu=() wall=() ocpu=() owall=() c w
  while (($#)); do
    case "$1" in
      --runs) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--runs needs a positive number"; runs=$2; shift ;;
      --against) [[ -x "${2:-}/playbooks/capped-pubsub.sh" ]] || die "--against needs a checkout folder"; against=$(cd "$2" && pwd); shift ;;
      -h | --help) usage; exit 0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  [[ -x /usr/bin/time ]] || die "/usr/bin/time is needed (Debian/Ubuntu: apt-get install time)"
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-bench.XXXXXX")
  trap cleanup EXIT
  printf '%-22s %-22s %-22s' playbook 'cpu s' 'wall s'
  [[ -z "$against" ]] || printf ' %-22s %-22s' 'cpu s (against)' 'wall s (against)'
  printf '\n'
  for playbook in "${PLAYBOOKS[@]}"; do
    cpu=() wall=() ocpu=() owall=()
    for ((i = 0; i < runs; i++)); do
      printf '  %s: run %d of %d\r' "$playbook" $((i + 1)) "$runs" >&2
      read -r c w < <(time_once "$ROOT" "$playbook")
      cpu+=("$c") wall+=("$w")
      if [[ -n "$against" ]]; then
        read -r c w < <(time_once "$against" "$playbook")
        ocpu+=("$c") owall+=("$w")
      fi
    done
    printf '%-22s %-22s %-22s' "$playbook" "$(stats "${cpu[@]}")" "$(stats "${wall[@]}")"
    [[ -z "$against" ]] || printf ' %-22s %-22s' "$(stats "${ocpu[@]}")" "$(stats "${owall[@]}")"
    printf '\n'
  done
}

main "$@"
