#!/usr/bin/env bash
# Runs shellcheck on every shell file of the project, one TAP result per file.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

# Tracked and untracked-but-not-ignored files: what a commit would hold.
list_shell_files() {
  local f
  git -C "$ROOT" ls-files --cached --others --exclude-standard | while IFS= read -r f; do
    [[ -f "$ROOT/$f" ]] || continue
    case "$f" in
      node_modules/*|.tools/*) continue ;;
      *.sh|*.bash|*.bats) printf '%s\n' "$f" ;;
      *) if head -n 1 "$ROOT/$f" | grep -Eq '^#!.*\b(ba)?sh\b'; then printf '%s\n' "$f"; fi ;;
    esac
  done
}

# Files that source the framework (a playbook, a fixture playbook, a test
# helper) are checked with --extended-analysis=false. shellcheck's data-flow
# pass runs over the whole program a file sources, and its cost grows faster
# than the program: 0.2 s for playbook.sh alone, 2.8 s with the modules it
# sources, 3.3 s for every playbook on top of it, 8 s for a test file that
# sources a playbook; 14 such files were 50 of lint's 60 s of CPU. What the
# pass adds is the reachability notes (SC2317 unreachable command, SC2329
# function never invoked); without it, those 14 files get every other check
# with the framework's functions and variables known. The framework itself
# keeps the full pass: playbooks/lib/playbook.sh is checked with all its
# modules, and each module on its own.
sources_framework() {
  grep -qE '^[[:space:]]*# shellcheck source=playbooks/(lib/playbook|[a-z-]+)\.sh$' "${ROOT}/$1"
}

# One shellcheck process per batch of files, a batch per CPU for each way of
# checking, instead of one per file; its gcc-style lines ("FILE:LINE:COL:
# ...") are sorted back to their files. A batch that fails with no line for
# any of its files (a crash, a bad option) fails every file of it.
WORK=''
declare -A BATCH_OF=()
BATCHES=0

# start_batches OPTION FILE...: shellcheck -x OPTION on the files, in
# background batches.
start_batches() {
  local option="$1" cpus size i f
  shift
  (($# > 0)) || return 0
  cpus=$(nproc 2>/dev/null || echo 1)
  size=$((($# + cpus - 1) / cpus))
  local files=("$@")
  for ((i = 0; i < $#; i += size)); do
    for f in "${files[@]:i:size}"; do BATCH_OF[$f]=$BATCHES; done
    (
      rc=0
      cd "$ROOT" && shellcheck -x "$option" -f gcc "${files[@]:i:size}" >"${WORK}/${BATCHES}.out" 2>&1 || rc=$?
      printf '%d\n' "$rc" >"${WORK}/${BATCHES}.rc"
    ) &
    BATCHES=$((BATCHES + 1))
  done
}

# The lines shellcheck printed for one file.
findings_of() {
  awk -v prefix="${1}:" 'index($0, prefix) == 1' "$2"
}

main() {
  local files=() full=() framework=() f n=0 i rc found
  mapfile -t files < <(list_shell_files | sort)
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  for f in "${files[@]}"; do
    if sources_framework "$f"; then framework+=("$f"); else full+=("$f"); fi
  done
  start_batches --extended-analysis=true "${full[@]}"
  start_batches --extended-analysis=false "${framework[@]}"
  wait
  printf '1..%d\n' "${#files[@]}"
  for f in "${files[@]}"; do
    i=${BATCH_OF[$f]}
    n=$((n + 1))
    rc=$(cat "${WORK}/${i}.rc")
    found=$(findings_of "$f" "${WORK}/${i}.out")
    if [[ -z "$found" ]] && ((rc != 0)) && ! grep -qE '^[^:]+:[0-9]+:[0-9]+: ' "${WORK}/${i}.out"; then
      found=$(cat "${WORK}/${i}.out")
      [[ -n "$found" ]] || found="shellcheck exited with status ${rc}"
    fi
    if [[ -n "$found" ]]; then
      printf 'not ok %d - shellcheck %s\n' "$n" "$f"
      printf '%s\n' "$found" | sed 's/^/# /'
    else
      printf 'ok %d - shellcheck %s\n' "$n" "$f"
    fi
  done
}

main "$@"
