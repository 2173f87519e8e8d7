#!/usr/bin/env bash
# What the release workflow (.github/workflows/release.yml) checks and reads,
# runnable before tagging:
#
#   setup/release.sh check-tag TAG          exit 0 when TAG is v<package.json's version>
#   setup/release.sh notes VERSION [FILE]   the CHANGELOG.md section of VERSION (its
#                                           "## [VERSION] - DATE" heading left out)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

fail() {
  printf 'release: %s\n' "$1" >&2
  exit 1
}

package_version() {
  node -p "require(process.argv[1]).version" "${ROOT}/package.json"
}

# The tag names what npm publishes: a tag that is not the version in
# package.json would publish one version under another's name.
check_tag() {
  local tag="$1" version
  version=$(package_version)
  [[ "$tag" == "v${version}" ]] || fail "tag '${tag}' is not v${version}, the version in package.json: change one of them"
  printf 'tag %s matches package.json %s\n' "$tag" "$version"
}

# Prints the lines after "## [VERSION]" up to the next "## " heading,
# without the blank lines at either end. A missing or empty section fails:
# a release without notes says nothing of what changed.
notes() {
  local version="$1" file="${2:-${ROOT}/CHANGELOG.md}" body
  [[ -f "$file" ]] || fail "no ${file}"
  body=$(awk -v head="## [${version}]" '
    index($0, "## ") == 1 { if (inside) exit; inside = (substr($0, 1, length(head)) == head); next }
    inside { print }
  ' "$file" | sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}')
  [[ -n "$body" ]] || fail "$(basename "$file") has no section '## [${version}]' (or it is empty): write the release notes there first"
  printf '%s\n' "$body"
}

main() {
  case "${1:-}" in
    check-tag) (($# == 2)) || fail "usage: setup/release.sh check-tag TAG"; check_tag "$2" ;;
    notes) (($# == 2 || $# == 3)) || fail "usage: setup/release.sh notes VERSION [CHANGELOG]"; notes "${@:2}" ;;
    -h|--help) sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" ;;
    *) printf 'release: usage: setup/release.sh check-tag TAG | notes VERSION [CHANGELOG] (see --help)\n' >&2; exit 2 ;;
  esac
}

main "$@"
