# shellcheck shell=bash
# Source this to put the project's tools first on PATH:
#   source setup/env.sh
# Only .tools/bin is added (links to mongosh, bats, m, mlaunch, shellcheck,
# the Database Tools), so the venv's python does not shadow the system one.
DBA_LAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DBA_LAB_ROOT
case ":${PATH}:" in
  *":${DBA_LAB_ROOT}/.tools/bin:"*) ;;
  *) export PATH="${DBA_LAB_ROOT}/.tools/bin:${PATH}" ;;
esac
# bats_load_library finds bats-support and bats-assert here.
export BATS_LIB_PATH="${DBA_LAB_ROOT}/node_modules${BATS_LIB_PATH:+:${BATS_LIB_PATH}}"
# m keeps server binaries inside the checkout (or DBA_LAB_M_PREFIX), never a
# user's own M_PREFIX, and never prompts. It links the version it activates
# into M_BIN_DIR: pinned beside the prefix, so a user's own M_BIN_DIR (and the
# mongod it holds) is left alone (docs/m.md#m-bin-dir).
export M_PREFIX="${DBA_LAB_M_PREFIX:-${DBA_LAB_ROOT}/.tools/m}"
export M_BIN_DIR="${M_PREFIX}/bin"
export M_CONFIRM=0
