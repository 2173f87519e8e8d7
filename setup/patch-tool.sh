#!/usr/bin/env bash
# Applies setup's patch of one tool to one file, idempotently:
#   setup/patch-tool.sh m FILE        setup/m-1.10.0.patch to npm m 1.10.0's bin/m
#                                     (docs/m.md: Debian 12 builds, a path with a space)
#   setup/patch-tool.sh mtools FILE   setup/mtools-1.7.2.patch to mtools 1.7.2's
#                                     mlaunch/mlaunch.py (docs/mongodb-facts.md#mlaunch-space:
#                                     a mongos path with a space)
# prints "applied" or "already applied"; exits 1 with a one-line reason when
# FILE is not the release the patch expects (another release, or edited).
# setup/install.sh runs it on node_modules/m/bin/m after npm installs m and on
# .tools/venv's mlaunch.py after pip installs mtools; the tests run it on copies.
set -euo pipefail

SETUP_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly SETUP_DIR

# The release FILE says it is, for the message when the patch does not fit.
release_of() {
  local tool="$1" file="$2" version_file
  case "$tool" in
    m) sed -n 's/^VERSION="\(.*\)"$/\1/p' "$file" | head -n 1 ;;
    mtools)
      # mlaunch.py names no version; its package's version.py does.
      version_file="$(dirname "$file")/../version.py"
      [[ -f "$version_file" ]] && sed -n "s/^__version__ = '\(.*\)'\$/\1/p" "$version_file" | head -n 1
      ;;
  esac
  return 0
}

main() {
  local tool="${1:-}" file="${2:-}" patch_file release effect reinstall version what
  case "$tool" in
    m)
      release=1.10.0
      effect="m would install unrunnable builds on Debian 12 and fail under a path with a space"
      reinstall="rm -rf node_modules; ./setup/install.sh"
      ;;
    mtools)
      release=1.7.2
      effect="mlaunch could not start a mongos from a folder whose path holds a space"
      reinstall="rm -rf .tools/venv; ./setup/install.sh"
      ;;
    *) printf 'usage: setup/patch-tool.sh m|mtools FILE\n' >&2; return 2 ;;
  esac
  [[ -n "$file" ]] || { printf 'usage: setup/patch-tool.sh m|mtools FILE\n' >&2; return 2; }
  patch_file="${SETUP_DIR}/${tool}-${release}.patch"
  if ! command -v patch >/dev/null 2>&1; then
    printf 'patch-%s: the patch command is missing: install it (Debian/Ubuntu: apt-get install patch), then run this again\n' "$tool" >&2
    return 1
  fi
  [[ -f "$file" ]] || { printf 'patch-%s: %s: no such file\n' "$tool" "$file" >&2; return 1; }
  # Exact context (-F 0): a hunk that only nearly matches is a different release.
  if patch -R --dry-run -s -f -F 0 "$file" <"$patch_file" >/dev/null 2>&1; then
    printf 'already applied\n'
    return 0
  fi
  if ! patch --dry-run -s -f -F 0 "$file" <"$patch_file" >/dev/null 2>&1; then
    version=$(release_of "$tool" "$file")
    if [[ "$version" == "$release" ]]; then
      what="is ${tool} ${release} but not as released (edited?)"
    else
      what="is ${tool} ${version:-of an unknown version}, not ${tool} ${release}"
    fi
    printf 'patch-%s: %s %s: %s does not apply, so %s; reinstall %s %s (%s)\n' \
      "$tool" "$file" "$what" "${patch_file##*/}" "$effect" "$tool" "$release" "$reinstall" >&2
    return 1
  fi
  patch -s -f -F 0 "$file" <"$patch_file" >/dev/null
  printf 'applied\n'
}

main "$@"
