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

main() {
  local files=() f n=0 out
  mapfile -t files < <(list_shell_files | sort)
  printf '1..%d\n' "${#files[@]}"
  for f in "${files[@]}"; do
    n=$((n + 1))
    if out=$(cd "$ROOT" && shellcheck -x -f gcc "$f" 2>&1); then
      printf 'ok %d - shellcheck %s\n' "$n" "$f"
    else
      printf 'not ok %d - shellcheck %s\n' "$n" "$f"
      printf '%s\n' "$out" | sed 's/^/# /'
    fi
  done
}

main "$@"
