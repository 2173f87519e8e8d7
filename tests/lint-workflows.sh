#!/usr/bin/env bash
# Checks every GitHub Actions workflow with actionlint (.tools/bin, built by
# setup), which also runs shellcheck on each `run:` step; one TAP result per
# file. Without actionlint the files are skipped, visibly (a failure with CI=true).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

main() {
  local files=() f n=0 out why=''
  mapfile -t files < <(cd "$ROOT" && git ls-files --cached --others --exclude-standard -- '.github/workflows/*.yml' '.github/workflows/*.yaml' | sort)
  printf '1..%d\n' "${#files[@]}"
  if ! command -v actionlint >/dev/null 2>&1; then
    why='actionlint not found (./setup/install.sh builds it when go is present)'
  elif ! command -v shellcheck >/dev/null 2>&1; then
    why='shellcheck not found: actionlint would skip the run steps (./setup/install.sh)'
  fi
  for f in "${files[@]}"; do
    n=$((n + 1))
    if [[ -n "$why" ]]; then
      if [[ "${CI:-}" == true ]]; then
        printf 'not ok %d - actionlint %s\n# %s\n' "$n" "$f" "$why"
      else
        printf 'ok %d - actionlint %s # SKIP %s\n' "$n" "$f" "$why"
      fi
      continue
    fi
    if out=$(cd "$ROOT" && actionlint -no-color -shellcheck "$(command -v shellcheck)" "$f" 2>&1); then
      printf 'ok %d - actionlint %s\n' "$n" "$f"
    else
      printf 'not ok %d - actionlint %s\n' "$n" "$f"
      printf '%s\n' "$out" | sed 's/^/# /'
    fi
  done
}

main "$@"
