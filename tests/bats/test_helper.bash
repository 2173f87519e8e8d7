# shellcheck shell=bash
# Loaded by every bats file: the project's root and the assertion libraries.
if [[ -z "${DBA_LAB_ROOT:-}" ]]; then
  DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")" && git rev-parse --show-toplevel)"
fi
export DBA_LAB_ROOT
bats_load_library bats-support
bats_load_library bats-assert
