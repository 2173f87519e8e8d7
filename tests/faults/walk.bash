# shellcheck shell=bash
# shellcheck disable=SC2034 # FAULTS_* globals are the answers walk.sh and faults.bats read
# The failpoint walk (tests/faults/README.md): runs a playbook on the mlaunch
# lane's stand-in servers (TEST FIXTURES ONLY) with DBA_LAB_FAILPOINT=N, so it
# gets SIGINT just before its Nth external command, and checks what a Ctrl-C
# there must leave. Sourced by tests/faults/walk.sh (every N) and by
# tests/bats/faults.bats (a sample); needs DBA_LAB_ROOT and the project's tools
# on PATH (setup/env.sh).

# shellcheck source=tests/lib/spaced-checkout.bash
source "${DBA_LAB_ROOT}/tests/lib/spaced-checkout.bash"
# The stand-ins stop 1-2 s after SIGTERM and a sharded launch starts five of
# them: a run that is not over after this long hangs.
FAULTS_RUN_LIMIT=${FAULTS_RUN_LIMIT:-240}

# Each case: a playbook run the lane can carry (one topology each), and a run
# of two versions, so the teardown between versions is walked too.
FAULTS_CASES=(
  array-push-oplog
  capped-pubsub
  change-stream-resume
  mongodump-raw-bson
  routing-refresh
  lane-lab-two-versions
)

# faults::command CASE WORK: FAULTS_CMD = the playbook and its options, without
# --dir, --port and --report-dir (faults::run adds them), run from a checkout
# whose path holds a space (WORK/checkout/My Labs/dba-lab, a link to this one). WORK
# holds what the case needs beside (m's prefix for the two-version case).
# FAULTS_PATH = what goes first on the run's PATH (empty for none).
faults::command() {
  local case="$1" work="$2" checkout lane lane_bin
  checkout=$(spaced_checkout "${work}/checkout")
  lane="${checkout}/tests/fixtures/mlaunch-lane"
  lane_bin="${lane}/bin"
  case "$case" in
    array-push-oplog | change-stream-resume)
      FAULTS_CMD=("${checkout}/playbooks/${case}.sh" --binarypath "$lane_bin" --scale tiny) ;;
    capped-pubsub)
      # One sweep point, the one the recorded FerretDB sweep holds for both modes.
      FAULTS_CMD=("${checkout}/playbooks/${case}.sh" --binarypath "$lane_bin" --scale tiny --subscribers 2) ;;
    mongodump-raw-bson)
      # Its single mongod serves data through FerretDB (standin.py, which
      # cannot start without it), so the run gets past seeding to the timed
      # methods, the analysis and the report.
      "${DBA_LAB_ROOT}/tests/servers/ferretdb.sh" build || return 1
      # Each kind of command once: one repeat, two collections, one restore
      # variation (its defaults plan 151 commands, a walk of hours).
      FAULTS_CMD=(env STANDIN_BACKEND=ferretdb "${checkout}/playbooks/${case}.sh" --binarypath "$lane_bin" --scale tiny
        --repeats 1 --collections 2 --restore-workers 2 --restore-parallel 0) ;;
    routing-refresh)
      FAULTS_CMD=("${checkout}/playbooks/${case}.sh" --binarypath "$lane_bin" --scale tiny
        --shards 2 --nodes 1 --config-servers 1 --mongos 1) ;;
    lane-lab-two-versions)
      faults::m_versions "${work}/m" "$lane_bin" 7.0.12 8.0.4
      FAULTS_CMD=("${lane}/lane-lab.sh" --mongodb-version "7.0.12,8.0.4" --topology replset --nodes 2) ;;
    *) printf 'faults: unknown case %s\n' "$case" >&2; return 1 ;;
  esac
  # The stages the stand-ins cannot serve are answered with recorded results
  # (tests/fixtures/walk-stages): its shims come first on PATH, then the
  # checkout's tools, so the playbook's setup/env.sh leaves PATH as it is.
  case "$case" in
    array-push-oplog | capped-pubsub | change-stream-resume | routing-refresh)
      FAULTS_PATH="${checkout}/tests/fixtures/walk-stages/bin:${checkout}/.tools/bin" ;;
    *) FAULTS_PATH='' ;;
  esac
}

# faults::m_versions PREFIX LANE_BIN VERSION...: an m prefix (M_PREFIX) where
# each VERSION is "installed" as LANE_BIN's stand-ins claiming that version, so
# the real m resolves them (`m bin X.Y.Z` only looks for the files).
faults::m_versions() {
  local prefix="$1" lane_bin="$2" v bin name
  shift 2
  for v in "$@"; do
    bin="${prefix}/m/versions/${v}/bin"
    mkdir -p "$bin"
    for name in mongod mongos; do
      printf '#!/usr/bin/env bash\n# TEST FIXTURE ONLY: the lane'"'"'s stand-in claiming %s.\nSTANDIN_VERSION=%s exec %q "$@"\n' \
        "$v" "$v" "${lane_bin}/${name}" >"${bin}/${name}"
      chmod +x "${bin}/${name}"
    done
  done
}

# faults::free_port: a first port with the ten after it free (sharded runs use
# five), below the ephemeral ports, which any client connection may take
# (tests/bats/playbook_helper.bash lane_port_base).
faults::free_port() {
  python3 - <<'PY'
import random, socket
for _ in range(200):
    base = random.randrange(20000, 32000, 10)
    socks = []
    try:
        for p in range(base, base + 10):
            s = socket.socket()
            s.bind(('127.0.0.1', p))
            socks.append(s)
    except OSError:
        continue
    finally:
        for s in socks:
            s.close()
    print(base)
    break
PY
}

# faults::signal_of N: the signal and its moment for point N, "SIG WHEN": the
# walk turns through INT, TERM and HUP (Ctrl-C, a kill, a closed terminal),
# each before command N starts and once it runs, so every pair is walked.
faults::signal_of() {
  local sigs=(INT TERM HUP)
  printf '%s %s\n' "${sigs[$(($1 % 3))]}" "$( (($1 % 6 < 3)) && printf before || printf during)"
}

# The exit a run interrupted by SIG must end with.
faults::signal_rc() {
  case "$1" in INT) printf 130 ;; HUP) printf 129 ;; *) printf 143 ;; esac
}

# faults::run CASE RUNDIR [N]: one run of CASE in RUNDIR (created; it must not
# exist), interrupted at its Nth command when N is given (or match:ERE), by
# FAULTS_POINT ("SIG WHEN", e.g. "HUP during") or else, for a number, the
# signal and moment faults::signal_of N names (INT before for match:).
# RUNDIR gets:
#   labs/keep/file, labs/notes.txt  what the user owns beside the run's folder
#   labs/run                        the run's --dir (the run creates it)
#   report/                         its --report-dir
#   record                          its commands (DBA_LAB_FAILPOINT_RECORD)
#   tmp/                            its TMPDIR (the run's own temporary folder)
#   out                             what it printed
#   point                           the signal and moment used, for faults::expect
# FAULTS_RC = its exit status (124 when it was still running after
# FAULTS_RUN_LIMIT seconds: it is then killed, with what it started).
faults::run() {
  local case="$1" dir="$2" n="${3:-}" port pid point _
  mkdir -p "${dir}/labs/keep" "${dir}/tmp" "${dir}/home" "${dir}/pathbin"
  point=${FAULTS_POINT:-}
  if [[ -z "$point" && "$n" =~ ^[0-9]+$ ]]; then point=$(faults::signal_of "$n"); fi
  printf '%s\n' "${point:-INT before}" >"${dir}/point"
  printf 'the user'"'"'s\n' >"${dir}/labs/keep/file"
  printf 'mine\n' >"${dir}/labs/notes.txt"
  # A mongod on PATH, as on a laptop (m's, brew's): mlaunch runs it for every subcommand.
  cp "${DBA_LAB_ROOT}/tests/fixtures/fake-server/bin/mongod" "${dir}/pathbin/mongod"
  faults::command "$case" "$dir" || return 1
  port=$(faults::free_port)
  # SIGINT and SIGHUP at their default disposition: a background job of a
  # non-interactive shell inherits SIGINT ignored, a walk started with nohup
  # SIGHUP, and bash cannot trap a signal ignored on entry.
  (
    export HOME="${dir}/home" TMPDIR="${dir}/tmp" PATH="${FAULTS_PATH:+${FAULTS_PATH}:}${dir}/pathbin:${PATH}" M_PREFIX="${dir}/m" DBA_LAB_M_PREFIX="${dir}/m"
    export DBA_LAB_FAILPOINT_RECORD="${dir}/record"
    if [[ -n "$n" ]]; then
      read -r DBA_LAB_FAILPOINT_SIGNAL DBA_LAB_FAILPOINT_WHEN <"${dir}/point"
      export DBA_LAB_FAILPOINT="$n" DBA_LAB_FAILPOINT_SIGNAL DBA_LAB_FAILPOINT_WHEN
    else
      unset DBA_LAB_FAILPOINT
    fi
    exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGHUP, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "${FAULTS_CMD[@]}" --dir "${dir}/labs/run" --port "$port" \
      --report-dir "${dir}/report" --yes
  ) >"${dir}/out" 2>&1 </dev/null &
  pid=$!
  FAULTS_RC=0
  for _ in $(seq $((FAULTS_RUN_LIMIT * 10))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    FAULTS_RC=124
    faults::kill_leftovers "$dir"
    return 0
  fi
  wait "$pid" || FAULTS_RC=$?
}

# The names in DIR, on one line.
faults::names() {
  local f
  for f in "$1"/* "$1"/.[!.]*; do
    [[ -e "$f" ]] && printf '%s ' "${f##*/}"
  done
  return 0
}

# Processes whose command line names the run's labs folder (stand-ins by
# --dbpath/--logpath, mlaunch by --dir), one "pid args" per line.
faults::leftovers() {
  pgrep -af -- "${1}/labs/" || true
}

# After a failed check: what the run left behind goes, by pid.
faults::kill_leftovers() {
  local pids=()
  mapfile -t pids < <(pgrep -f -- "${1}/labs/" || true)
  ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
}

# faults::record CASE RUNDIR: the uninterrupted run. FAULTS_RC, FAULTS_STATUS
# (results.json) and FAULTS_COUNT (its commands, RUNDIR/record).
faults::record() {
  local case="$1" dir="$2"
  faults::run "$case" "$dir" || return 1
  FAULTS_STATUS=$(jq -r '.status' "${dir}/report/results.json" 2>/dev/null || printf 'none')
  FAULTS_COUNT=$(wc -l <"${dir}/record" 2>/dev/null | tr -d ' ' || printf 0)
}

# faults::expect RUNDIR N NATURAL_RC NATURAL_STATUS: FAULTS_WANT_RC and
# FAULTS_WANT_STATUS for the run interrupted before command N, from where
# that run's own record says command N came (counts can differ from the
# uninterrupted run's: waiting for a primary asks as often as it takes).
#   before the run's end      its signal's exit (130 INT, 143 TERM, 129 HUP),
#                             report status interrupted
#   in the exit handler       a signal during the cleanup forces it (SIGKILL
#                             instead of waiting); the outcome stays the
#                             run's own (exit and status of the uninterrupted run)
#   never reached             the run's own outcome (FAULTS_WHERE=unreached)
faults::expect() {
  local dir="$1" n="$2"
  FAULTS_WHERE=$(awk -F'\t' -v n="$n" '$1 == n {print $2; exit}' "${dir}/record" 2>/dev/null)
  FAULTS_WHERE=${FAULTS_WHERE:-unreached}
  FAULTS_WHAT=$(awk -F'\t' -v n="$n" '$1 == n {print $3; exit}' "${dir}/record" 2>/dev/null)
  case "$FAULTS_WHERE" in
    cleanup | unreached) FAULTS_WANT_RC=$3 FAULTS_WANT_STATUS=$4 ;;
    *)
      FAULTS_WANT_RC=$(faults::signal_rc "$(cut -d ' ' -f 1 "${dir}/point" 2>/dev/null)")
      FAULTS_WANT_STATUS=interrupted
      ;;
  esac
}

# faults::check RUNDIR WANT_RC WANT_STATUS: one line per broken rule on
# stdout; fails when there is any.
faults::check() {
  local dir="$1" want_rc="$2" want_status="$3" problems=() status left
  if [[ "$FAULTS_RC" != "$want_rc" ]]; then
    problems+=("exit ${FAULTS_RC}, expected ${want_rc}$( ((FAULTS_RC == 124)) && printf ' (still running after %s s: killed)' "$FAULTS_RUN_LIMIT")")
  fi
  left=$(faults::leftovers "$dir")
  if [[ -n "$left" ]]; then
    problems+=("processes left under the run's folder$([[ -e "${dir}/labs/run" ]] || printf ' (which was deleted under them)'): ${left//$'\n'/; }")
    faults::kill_leftovers "$dir"
  fi
  if [[ "$(cat "${dir}/labs/keep/file" 2>/dev/null)" != "the user's" || ! -f "${dir}/labs/notes.txt" ]]; then
    problems+=("something beside the run's folder was deleted: labs holds $(faults::names "${dir}/labs")")
  fi
  if [[ -e "${dir}/labs/run" ]]; then
    problems+=("the run's data folder is still there: $(find "${dir}/labs/run" -maxdepth 2 2>/dev/null | sed "s#${dir}/labs/##" | tr '\n' ' ')")
  fi
  if [[ -n "$(faults::names "${dir}/tmp")" ]]; then
    problems+=("the run's temporary files are still there: $(faults::names "${dir}/tmp")")
  fi
  status=$(jq -r '.status' "${dir}/report/results.json" 2>/dev/null || printf 'none')
  if [[ "$status" != "$want_status" ]]; then
    problems+=("report status ${status}, expected ${want_status}")
  elif [[ ! -f "${dir}/report/report.md" ]] || ! grep -qF "status **${want_status}**" "${dir}/report/report.md"; then
    problems+=("report.md missing or not saying status ${want_status}")
  fi
  ((${#problems[@]} == 0)) && return 0
  printf '%s\n' "${problems[@]}"
  return 1
}
