#!/usr/bin/env bash
# Applies setup's patch of one tool to one file, idempotently:
#   setup/patch-tool.sh m FILE        setup/m-1.10.0.patch to npm m 1.10.0's bin/m
#                                     (docs/m.md: Debian 12 and Ubuntu-derivative builds, a path with a space)
#   setup/patch-tool.sh mtools FILE   setup/mtools-1.7.2.patch to mtools 1.7.2's
#                                     mlaunch/mlaunch.py (docs/mongodb-facts.md#mlaunch-space:
#                                     a mongos path with a space)
# prints "applied" or "already applied"; exits 1 with a one-line reason when
# FILE is not the release the patch expects (another release, or edited).
#   setup/patch-tool.sh m|mtools FILE --check   changes nothing: exit 0 when FILE
#                                     is the patched file, else 1 and why (preflight)
# FILE is known by its SHA256, as released or as patched: patch finds a
# hunk's context at another offset even with -F 0, so it applied silently to
# m 1.9.6-1.9.8 and mtools 1.7.0/1.7.1, whose lines differ elsewhere.
# setup/install.sh runs it on node_modules/m/bin/m after npm installs m and on
# .tools/venv's mlaunch.py after pip installs mtools; the tests run it on copies.
set -euo pipefail

SETUP_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly SETUP_DIR

# FILE's SHA256 in hex (sha256sum, or shasum on macOS).
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

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
  local tool="${1:-}" file="${2:-}" check="${3:-}" patch_file release effect reinstall version what released patched sha
  # released: bin/m of npm's m-1.10.0.tgz, and mtools/mlaunch/mlaunch.py as
  # mtools 1.7.2's wheel RECORD lists it; patched: the same after the patch.
  case "$tool" in
    m)
      release=1.10.0
      released=143239d293b819f225b69ece86cbe8c5702029d7a31d6e68d534b79ba80d1996
      patched=b3872207fa5592168f2bed78319bca1982eac3d006cf002e899fdbd0900a0159
      effect="m would install unrunnable builds on Debian 12, find none on Linux Mint 22, and fail under a path with a space"
      reinstall="rm -rf node_modules; ./setup/install.sh"
      ;;
    mtools)
      release=1.7.2
      released=64e3d9d63392072ed447c6d6a2b5779bc1e24c62fe73a5b4f5a8723c2bb49275
      patched=58d3857cd54b3aa02a730dfe9c8106220d35272939caa566b793e4ca7252eb42
      effect="mlaunch could not start a mongos from a folder whose path holds a space"
      reinstall="rm -rf .tools/venv; ./setup/install.sh"
      ;;
    *) printf 'usage: setup/patch-tool.sh m|mtools FILE\n' >&2; return 2 ;;
  esac
  [[ -n "$file" && ( -z "$check" || "$check" == --check ) ]] || { printf 'usage: setup/patch-tool.sh m|mtools FILE [--check]\n' >&2; return 2; }
  patch_file="${SETUP_DIR}/${tool}-${release}.patch"
  if ! command -v patch >/dev/null 2>&1; then
    printf 'patch-%s: the patch command is missing: install it (Debian/Ubuntu: apt-get install patch), then run this again\n' "$tool" >&2
    return 1
  fi
  [[ -f "$file" ]] || { printf 'patch-%s: %s: no such file\n' "$tool" "$file" >&2; return 1; }
  sha=$(sha256_of "$file")
  if [[ "$sha" == "$patched" ]]; then
    printf 'already applied\n'
    return 0
  fi
  if [[ -n "$check" ]]; then
    version=$(release_of "$tool" "$file")
    if [[ "$sha" == "$released" ]]; then
      what="is ${tool} ${release} as released, without setup's patch (npm ci puts it back)"
    else
      what="is ${tool} ${version:-of an unknown version}, not setup's patched ${tool} ${release}"
    fi
    printf 'patch-%s: %s %s, so %s; run ./setup/install.sh\n' "$tool" "$file" "$what" "$effect" >&2
    return 1
  fi
  # Exact context (-F 0) as well: the patch must fit the file it was made for.
  if [[ "$sha" != "$released" ]] || ! patch --dry-run -s -f -F 0 "$file" <"$patch_file" >/dev/null 2>&1; then
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
  if [[ "$(sha256_of "$file")" != "$patched" ]]; then
    printf 'patch-%s: %s: patched, but not into the file setup expects (SHA256 %s); %s (%s)\n' \
      "$tool" "$file" "$(sha256_of "$file")" "reinstall ${tool} ${release}" "$reinstall" >&2
    return 1
  fi
  printf 'applied\n'
}

main "$@"
