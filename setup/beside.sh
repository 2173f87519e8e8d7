# shellcheck shell=bash
# Setup steps run side by side (setup/install.sh): the Python tools and the
# Go builds need nothing from npm, so they run beside npm ci.

# The chains started: pids (each the leader of its process group) and the
# files that hold what each printed until it is shown: LOG its output,
# LOG.err its errors.
BESIDE_PIDS=()
BESIDE_LOGS=()

# beside::start FUNCTION...: the functions, one after another under the
# caller's set -e, in the background, in a process group of their own
# (set -m), so that beside::stop reaches their pip or go too and Ctrl-C
# reaches setup alone. What the chain prints is held back and shown by
# beside::wait, whole and in order: lines of two chains never interleave
# with each other or with setup's own, nor cut one another. A function that
# fails (setup's die) ends its chain only.
beside::start() {
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/dba-lab-setup-beside.XXXXXX")
  set -m
  (
    local f
    for f in "$@"; do "$f"; done
  ) >"$log" 2>"${log}.err" &
  BESIDE_PIDS+=("$!")
  BESIDE_LOGS+=("$log")
  set +m
}

# beside::wait: waits for the chains in the order they started, shows what
# each printed (its errors on stderr), and returns 1 if one failed, once all
# of them have finished: a failure never leaves another chain half done.
beside::wait() {
  local i rc=0
  for i in "${!BESIDE_PIDS[@]}"; do
    wait "${BESIDE_PIDS[i]}" || rc=1
    cat "${BESIDE_LOGS[i]}"
    cat "${BESIDE_LOGS[i]}.err" >&2
    rm -f "${BESIDE_LOGS[i]}" "${BESIDE_LOGS[i]}.err"
  done
  BESIDE_PIDS=()
  BESIDE_LOGS=()
  return "$rc"
}

# beside::stop: stops every chain and what it started, and drops what they
# printed (setup's EXIT trap: setup's own failure is the one to read).
beside::stop() {
  local i
  for i in "${!BESIDE_PIDS[@]}"; do
    kill -- "-${BESIDE_PIDS[i]}" 2>/dev/null || true
    rm -f "${BESIDE_LOGS[i]}" "${BESIDE_LOGS[i]}.err"
  done
  BESIDE_PIDS=()
  BESIDE_LOGS=()
}
