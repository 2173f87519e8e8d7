# shellcheck shell=bash
# Loaded by every bats file: the project's root and the assertion libraries.
DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")/../.." && pwd)"
export DBA_LAB_ROOT
bats_load_library bats-support
bats_load_library bats-assert
