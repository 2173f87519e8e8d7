# shellcheck shell=bash
# Loaded by every bats file: the project's root and the assertion libraries.
if [[ -z "${DBA_LAB_ROOT:-}" ]]; then
  DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")" && git rev-parse --show-toplevel)"
fi
export DBA_LAB_ROOT

# bats-support and bats-assert, their src/*.bash sourced directly: what each
# load.bash sources (test-helper.bats checks it). bats sources a file's
# helpers again for every test, under a DEBUG trap that makes each command
# cost about 0.1 ms, and bats_load_library runs load.bash, which starts a
# `dirname` per file: 30 ms of CPU a test, 50 s in a run of 1,600 tests.
for dba_lab_lib in "${DBA_LAB_ROOT}/node_modules/bats-support/src/"*.bash \
  "${DBA_LAB_ROOT}/node_modules/bats-assert/src/"*.bash; do
  # shellcheck source=/dev/null
  source "$dba_lab_lib"
done
unset dba_lab_lib
