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

# One shellcheck process per batch of files, a batch per CPU, instead of
# one per file; its gcc-style lines ("FILE:LINE:COL: ...") are sorted back
# to their files. A batch that fails with no line for any of its files (a
# crash, a bad option) fails every file of it.
WORK=''

# The lines shellcheck printed for one file.
findings_of() {
  awk -v prefix="${1}:" 'index($0, prefix) == 1' "$2"
}

main() {
  local files=() f n=0 batches i size rc found
  mapfile -t files < <(list_shell_files | sort)
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  batches=$(nproc 2>/dev/null || echo 1)
  size=$(((${#files[@]} + batches - 1) / batches))
  ((size > 0)) || size=1
  for ((i = 0; i * size < ${#files[@]}; i++)); do
    (
      rc=0
      cd "$ROOT" && shellcheck -x -f gcc "${files[@]:i*size:size}" >"${WORK}/${i}.out" 2>&1 || rc=$?
      printf '%d\n' "$rc" >"${WORK}/${i}.rc"
    ) &
  done
  wait
  printf '1..%d\n' "${#files[@]}"
  for f in "${files[@]}"; do
    i=$((n / size))
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
