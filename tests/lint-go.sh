#!/usr/bin/env bash
# Checks the Go engine of playbooks/analyze (playbooks/lib/analyze-go): gofmt
# and go vet, one TAP result each. Without go they are skipped, visibly (a
# failure with CI=true, where setup builds the engine with it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly SOURCE="${ROOT}/playbooks/lib/analyze-go"

result() {
  local n="$1" name="$2" out="$3" rc="$4"
  if ((rc == 0)) && [[ -z "$out" ]]; then
    printf 'ok %d - %s\n' "$n" "$name"
  else
    printf 'not ok %d - %s\n' "$n" "$name"
    printf '%s\n' "$out" | sed 's/^/# /'
  fi
}

main() {
  local out rc why='go not found (https://go.dev/dl; ./setup/install.sh builds the engine with it)'
  printf '1..2\n'
  if ! command -v go >/dev/null 2>&1; then
    if [[ "${CI:-}" == true ]]; then
      printf 'not ok 1 - gofmt playbooks/lib/analyze-go\n# %s\nnot ok 2 - go vet playbooks/lib/analyze-go\n# %s\n' "$why" "$why"
    else
      printf 'ok 1 - gofmt playbooks/lib/analyze-go # SKIP %s\nok 2 - go vet playbooks/lib/analyze-go # SKIP %s\n' "$why" "$why"
    fi
    return 0
  fi
  rc=0
  out=$(cd "$SOURCE" && gofmt -l . 2>&1) || rc=$?
  [[ -z "$out" ]] || out="not gofmt-formatted: ${out}"
  result 1 "gofmt playbooks/lib/analyze-go" "$out" "$rc"
  rc=0
  # The build cache stays in the checkout (tests never write into the home),
  # where setup's build (with -trimpath, as here) left the packages compiled.
  out=$(cd "$SOURCE" && GOCACHE="${ROOT}/.tools/go-build-cache" GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go vet -trimpath . 2>&1) || rc=$?
  result 2 "go vet playbooks/lib/analyze-go" "$out" "$rc"
}

main "$@"
