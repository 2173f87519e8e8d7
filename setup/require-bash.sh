# shellcheck shell=sh
# Sourced (with `.`) first thing by every entry point: what follows them needs
# bash 4.4 or newer (mapfile -d, namerefs, associative arrays, ${var@Q}), and
# macOS ships bash 3.2 as /bin/bash. Plain sh on purpose: it must run, and say
# so, under any shell that reaches it.
#
#   . "$(dirname "$0")/../setup/require-bash.sh"; dba_lab_require_bash "npm test" 1

# dba_lab_require_bash WHAT EXIT_CODE: returns under bash 4.4+, else one line
# on stderr and exit EXIT_CODE.
dba_lab_require_bash() {
  case "${BASH_VERSION:-}" in
    4.[4-9]* | [5-9].* | [1-9][0-9].*) return 0 ;;
  esac
  printf '%s needs bash 4.4 or newer (this is %s); on macOS: brew install bash, then start a new terminal so that it comes first on PATH\n' \
    "$1" "${BASH_VERSION:+bash }${BASH_VERSION:-not bash}" >&2
  exit "$2"
}
