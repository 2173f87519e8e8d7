#!/usr/bin/env bash
# Applies setup/m-1.10.0.patch to npm m 1.10.0's script, idempotently
# (docs/m.md says what it changes and why):
#   setup/patch-m.sh FILE
# prints "applied" or "already applied"; exits 1 with a one-line reason when
# FILE is not m 1.10.0 as the patch expects (another release, or edited).
# setup/install.sh runs it on node_modules/m/bin/m after npm installs m; the
# tests run it on copies.
set -euo pipefail

PATCH_FILE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/m-1.10.0.patch"
readonly PATCH_FILE

main() {
  local file="${1:?usage: setup/patch-m.sh FILE}" version what
  if ! command -v patch >/dev/null 2>&1; then
    printf 'patch-m: the patch command is missing: install it (Debian/Ubuntu: apt-get install patch), then run this again\n' >&2
    return 1
  fi
  [[ -f "$file" ]] || { printf 'patch-m: %s: no such file\n' "$file" >&2; return 1; }
  # Exact context (-F 0): a hunk that only nearly matches is a different m.
  if patch -R --dry-run -s -f -F 0 "$file" <"$PATCH_FILE" >/dev/null 2>&1; then
    printf 'already applied\n'
    return 0
  fi
  if ! patch --dry-run -s -f -F 0 "$file" <"$PATCH_FILE" >/dev/null 2>&1; then
    version=$(sed -n 's/^VERSION="\(.*\)"$/\1/p' "$file" | head -n 1)
    if [[ "$version" == 1.10.0 ]]; then
      what="is m 1.10.0 but not as released (edited?)"
    else
      what="is m ${version:-of an unknown version}, not m 1.10.0"
    fi
    printf 'patch-m: %s %s: %s does not apply, so m would install unrunnable builds on Debian 12 and fail under a path with a space; reinstall m 1.10.0 (rm -rf node_modules; ./setup/install.sh)\n' \
      "$file" "$what" "${PATCH_FILE##*/}" >&2
    return 1
  fi
  patch -s -f -F 0 "$file" <"$PATCH_FILE" >/dev/null
  printf 'applied\n'
}

main "$@"
