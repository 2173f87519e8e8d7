#!/usr/bin/env bash
# The project's one test command (npm test): setup, then every suite, then
# one closing line "N passed, N failed, N skipped". Exits non-zero on any failure.
#
#   tests/run.sh [--verbose] [--no-setup] [--jobs N] [SUITE...]
#   SUITE: lint, unit, snippets, bats, integration (default: all of them)
#
# Each bats file, snippet file and integration server is its own job; N jobs
# run side by side (default: CPUs + 2, or DBA_LAB_TEST_JOBS). Every 15 s a
# progress line on stderr names the running jobs and their results so far.
# Each job's line gives its wall time and the CPU it used; a "#" line before
# the closing one sums them (what the run needs of the machine's cores).
# A job that leaves a dba-lab-* path in its TMPDIR fails the run.
# Before anything of bash 4.4 (this line and the next run under any sh).
# shellcheck source=setup/require-bash.sh
. "$(dirname "$0")/../setup/require-bash.sh"
dba_lab_require_bash "npm test" 1
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly PROGRESS_EVERY=15
PASSED=0
FAILED=0
SKIPPED=0
CPU_TOTAL=0
VERBOSE=0
RUN_DIR=''
USER_HOME="${HOME:-}"
USER_CACHE_HOME="${XDG_CACHE_HOME:-}"
# The machine's TMPDIR, shared with every other run; each job gets its own.
SHARED_TMP="${TMPDIR:-/tmp}"

# The job table: what each job runs, its serial group ("" for none: jobs of
# one group run one after another, in order), and its state.
JOB_NAME=()
JOB_KIND=()
JOB_ARG=()
JOB_GROUP=()
JOB_PID=()
JOB_START=()
JOB_STATE=()   # queued, running, finished, dropped

usage() {
  sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

add_job() {
  JOB_NAME+=("$1")
  JOB_KIND+=("$2")
  JOB_ARG+=("$3")
  JOB_GROUP+=("${4:-}")
  JOB_PID+=("")
  JOB_START+=(0)
  JOB_STATE+=(queued)
}

duration() {
  local s="$1"
  if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# ---- what the jobs run: each prints TAP on stdout -------------------------

mongosh_tap() {
  local target="$1" file="$2"
  mongosh "$target" --quiet --norc \
    --eval "globalThis.__dbaLabTestFile = $(jq -Rn --arg f "$file" '$f'); void 0" \
    "$ROOT/tests/snippets/harness.js"
}

node_unit_tap() {
  local files=()
  mapfile -t files < <(find "$ROOT/tests/unit" -name '*.test.js' -type f | sort)
  node --test --test-reporter=tap "${files[@]}"
}

# pytest-tap's --tap-stream turns pytest's terminal reporter off, and then a
# failed comparison reports pytest's own internal error instead of the diff:
# the combined TAP file is written at the end instead (tests/fixtures/tap).
pytest_tap() {
  local py="$ROOT/.tools/venv/bin/python" out="$RUN_DIR/pytest-tap" reason
  if [[ ! -x "$py" ]] || ! "$py" -c 'import pytest, pytest_tap' 2>/dev/null; then
    reason="pytest or pytest-tap is not installed in .tools/venv: run ./setup/install.sh (setup/requirements.txt)"
    printf '1..1\n'
    if [[ "${CI:-}" == "true" ]]; then
      printf 'not ok 1 - tests/unit/python did not run: %s (CI=true)\n' "$reason"
    else
      printf 'ok 1 - tests/unit/python # SKIP %s\n' "$reason"
    fi
    return 0
  fi
  local rc=0
  (cd "$ROOT" && "$py" -m pytest -p no:cacheprovider -q --tap-combined --tap-outdir "$out" tests/unit/python) >&2 || rc=$?
  [[ -f "$out/testresults.tap" ]] && cat "$out/testresults.tap"
  return "$rc"
}

# Builds (with the user's own tool caches) and starts one test server; its
# URI goes to a file the group's next jobs read. Prints TAP only when it
# cannot start: a failure on CI, a visible skip elsewhere. A server script
# that exits NOT_AVAILABLE (e.g. no MongoDB binaries on this machine, said on
# stderr) is a visible skip everywhere, CI included: our CI has no network to
# download servers.
readonly NOT_AVAILABLE=77
server_start() {
  local server="$1" script="$ROOT/tests/servers/$1.sh" uri='' rc=0 cache=(-u XDG_CACHE_HOME)
  # The user's HOME and cache, not the job's own: the server's build (and a
  # built copy of it, tests/servers/ferretdb.sh) lives with the user's caches.
  [[ -z "$USER_CACHE_HOME" ]] || cache=("XDG_CACHE_HOME=${USER_CACHE_HOME}")
  env "${cache[@]}" HOME="$USER_HOME" "$script" build >&2 || rc=$?
  if ((rc == 0)); then
    uri=$("$script" start) || rc=$?
  fi
  if ((rc == 0)); then
    printf '%s\n' "$uri" >"$RUN_DIR/servers/${server}.uri"
    return 0
  fi
  printf '1..1\n'
  if ((rc == NOT_AVAILABLE)); then
    printf 'ok 1 - integration/%s # SKIP no %s test server on this machine (tests/servers/%s.sh: not available here)\n' \
      "$server" "$server" "$server"
  elif [[ "${CI:-}" == "true" ]]; then
    printf 'not ok 1 - integration/%s: the %s test server did not start (CI=true)\n' "$server" "$server"
  else
    printf 'ok 1 - integration/%s # SKIP the %s test server did not start (tests/servers/%s.sh start)\n' \
      "$server" "$server" "$server"
  fi
}

server_uri() {
  cat "$RUN_DIR/servers/$1.uri"
}

# Runs one job; stdout is its TAP, stderr its log.
run_job() {
  local kind="$1" arg="$2"
  case "$kind" in
    lint) "$ROOT/tests/lint.sh" ;;
    lint-workflows) "$ROOT/tests/lint-workflows.sh" ;;
    lint-go) "$ROOT/tests/lint-go.sh" ;;
    unit-node) node_unit_tap ;;
    unit-python) pytest_tap ;;
    snippet) mongosh_tap --nodb "$arg" ;;
    bats) bats --tap "$arg" ;;
    server-start) server_start "$arg" ;;
    server-stop) "$ROOT/tests/servers/${arg}.sh" stop >&2 ;;
    server-js) mongosh_tap "$(server_uri "${arg%%:*}")" "${arg#*:}" ;;
    server-bats) DBA_LAB_TEST_URI="$(server_uri "${arg%%:*}")" bats --tap "${arg#*:}" ;;
  esac
}

# ---- the job table ---------------------------------------------------------

# Largest first, so the longest jobs do not start last.
files_by_size() {
  [[ -e "$1" ]] || return 0
  ls -S -- "$@"
}

# Files that say "# test-runner: long" (a minute or more of waiting on
# stand-in servers, or many playbook runs in few lines) first, then the
# rest, each part largest first: a long job that starts last is the run's tail.
long_first() {
  local long=() rest=() f
  for f in "$@"; do
    [[ -e "$f" ]] || continue
    if grep -qx '# test-runner: long' "$f"; then long+=("$f"); else rest+=("$f"); fi
  done
  ((${#long[@]} == 0)) || files_by_size "${long[@]}"
  ((${#rest[@]} == 0)) || files_by_size "${rest[@]}"
}

# Each folder under tests/integration/ is named after the server script in
# tests/servers/ that its suites need; its jobs run one after another against
# one server of their own (state in this run's folder, so no other run or
# checkout shares it, and none of its data).
add_integration_jobs() {
  local dir server file
  for dir in "$ROOT"/tests/integration/*/; do
    [[ -d "$dir" ]] || continue
    server=$(basename "$dir")
    add_job "integration/$server/server" server-start "$server" "$server"
    for file in "$dir"*.test.js; do
      [[ -e "$file" ]] || continue
      add_job "integration/$server/$(basename "$file" .test.js)" server-js "$server:$file" "$server"
    done
    if compgen -G "$dir*.bats" >/dev/null; then
      add_job "integration/$server/bats" server-bats "$server:$dir" "$server"
    fi
    add_job "integration/$server/stop" server-stop "$server" "$server"
  done
}

add_jobs() {
  local suite="$1" file
  case "$suite" in
    lint)
      add_job lint lint ""
      add_job lint/workflows lint-workflows ""
      add_job lint/go lint-go ""
      ;;
    unit)
      if [[ -n "$(find "$ROOT/tests/unit" -name '*.test.js' -type f 2>/dev/null | head -n 1)" ]]; then
        add_job unit/node unit-node ""
      fi
      if [[ -n "$(find "$ROOT/tests/unit/python" \( -name 'test_*.py' -o -name '*_test.py' \) -type f 2>/dev/null | head -n 1)" ]]; then
        add_job unit/python unit-python ""
      fi
      ;;
    snippets)
      while IFS= read -r file; do
        add_job "snippets/$(basename "$file" .test.js)" snippet "$file"
      done < <(files_by_size "$ROOT"/tests/snippets/*.test.js)
      ;;
    bats)
      while IFS= read -r file; do
        add_job "bats/$(basename "$file" .bats)" bats "$file"
      done < <(long_first "$ROOT"/tests/bats/*.bats)
      ;;
    integration) add_integration_jobs ;;
  esac
}

# ---- running them ----------------------------------------------------------

# A job runs in its own process group (set -m around its start only: the
# terminal stays with this script, so Ctrl-C reaches it) so that an
# interrupted run can stop all of it, with a HOME of its own: mongosh and the tools it calls
# write their config and logs there, never in the user's home. Its TMPDIR is
# its own too, so that what it leaves there is known to be its (check_leftovers).
start_job() {
  local i="$1" home="$RUN_DIR/home/$1" tmp="$RUN_DIR/tmp/$1"
  mkdir -p "$home" "$tmp"
  # Made here, not only by the job's redirection: the progress line may read
  # it before the job's shell has opened it (a run once died on that).
  : >"$RUN_DIR/$i.tap"
  set -m
  (
    export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" \
      TMPDIR="$tmp"
    rc=0
    run_job "${JOB_KIND[$i]}" "${JOB_ARG[$i]}" >"$RUN_DIR/$i.tap" 2>"$RUN_DIR/$i.log" </dev/null || rc=$?
    # CPU of what the job ran and waited for (servers it started and left
    # running are not in it). `times` in this shell: a pipe would ask a subshell.
    times >"$RUN_DIR/$i.times"
    printf '%d\n' "$rc" >"$RUN_DIR/$i.rc.tmp"
    mv "$RUN_DIR/$i.rc.tmp" "$RUN_DIR/$i.rc"
  ) &
  JOB_PID[i]=$!
  set +m
  JOB_START[i]=$SECONDS
  JOB_STATE[i]=running
}

# May job i start now? Not while a job of its group runs or waits before it.
can_start() {
  local i="$1" g="${JOB_GROUP[$1]}" j
  [[ -z "$g" ]] && return 0
  for ((j = 0; j < i; j++)); do
    [[ "${JOB_GROUP[j]}" == "$g" && "${JOB_STATE[j]}" != finished && "${JOB_STATE[j]}" != dropped ]] && return 1
  done
  return 0
}

# When a server did not start, its group's test jobs are dropped (the server
# job itself reported the skip or failure), but its stop job still runs.
drop_group_tests() {
  local g="$1" j
  for j in "${!JOB_NAME[@]}"; do
    if [[ "${JOB_GROUP[j]}" == "$g" && "${JOB_STATE[j]}" == queued && "${JOB_KIND[j]}" != server-stop ]]; then
      JOB_STATE[j]=dropped
    fi
  done
}

# Prints a finished job's line (and what failed or was skipped) and adds
# its counts to the totals.
# Whole seconds of user and system CPU of job I (its `times`, second line).
job_cpu() {
  awk 'NR == 2 {
    for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
    printf "%d", t + 0.5 }' "$RUN_DIR/$1.times" 2>/dev/null || printf 0
}

finish_job() {
  local i="$1" name="${JOB_NAME[$1]}" tap="$RUN_DIR/$1.tap" log="$RUN_DIR/$1.log" rc p f s took cpu
  wait "${JOB_PID[i]}" 2>/dev/null || true
  JOB_STATE[i]=finished
  rc=$(cat "$RUN_DIR/$i.rc")
  took=$(duration $((SECONDS - JOB_START[i])))
  read -r p f s < <("$ROOT/tests/lib/tap-count" <"$tap")
  case "${JOB_KIND[i]}" in
    server-start)
      if [[ -f "$RUN_DIR/servers/${JOB_ARG[i]}.uri" ]]; then
        printf '%-32s server started  (%s)\n' "$name" "$took"
        return
      fi
      drop_group_tests "${JOB_GROUP[i]}"
      tail -n 5 "$log" | sed 's/^/# /'
      ;;
    server-stop) return ;;
  esac
  if ((VERBOSE)); then
    cat "$tap"
    [[ -s "$log" ]] && sed 's/^/# stderr: /' "$log"
  else
    if ((f > 0)); then "$ROOT/tests/lib/tap-failures" <"$tap"; fi
    grep -E '^ *ok .*#[[:space:]]*[Ss][Kk][Ii][Pp]' "$tap" | sed 's/^ */  /' || true
  fi
  if ((rc != 0 && f == 0)); then
    # It died without reporting a failure of its own: that is one.
    f=1
    printf 'not ok - %s exited with status %d; the end of its output:\n' "$name" "$rc"
    ((VERBOSE)) || tail -n 20 "$log" | sed 's/^/# /'
  fi
  cpu=$(job_cpu "$i")
  CPU_TOTAL=$((CPU_TOTAL + cpu))
  printf '%-32s %d passed, %d failed, %d skipped  (%s, %s CPU)\n' "$name" "$p" "$f" "$s" "$took" "$(duration "$cpu")"
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  SKIPPED=$((SKIPPED + s))
}

progress() {
  local i running=() p f s n done=0 total=${#JOB_NAME[@]}
  for i in "${!JOB_NAME[@]}"; do
    case "${JOB_STATE[i]}" in
      finished|dropped) done=$((done + 1)) ;;
      running)
        read -r p f s < <("$ROOT/tests/lib/tap-count" --no-plan <"$RUN_DIR/$i.tap")
        n="${JOB_NAME[i]} $((p + f + s)) results"
        ((f == 0)) || n+=", ${f} failed"
        running+=("$n")
        ;;
    esac
  done
  printf '[%s] %d of %d jobs done; running: %s\n' "$(duration "$SECONDS")" "$done" "$total" \
    "$(IFS=';'; printf '%s' "${running[*]}" | sed 's/;/; /g')" >&2
}

run_jobs() {
  local max="$1" i running next_progress=$PROGRESS_EVERY busy
  while :; do
    running=0
    busy=0
    for i in "${!JOB_NAME[@]}"; do
      if [[ "${JOB_STATE[i]}" == running ]]; then
        if [[ -e "$RUN_DIR/$i.rc" ]]; then finish_job "$i"; else running=$((running + 1)); fi
      fi
    done
    for i in "${!JOB_NAME[@]}"; do
      ((running < max)) || break
      if [[ "${JOB_STATE[i]}" == queued ]] && can_start "$i"; then
        start_job "$i"
        running=$((running + 1))
      fi
    done
    for i in "${!JOB_NAME[@]}"; do
      [[ "${JOB_STATE[i]}" == queued || "${JOB_STATE[i]}" == running ]] && busy=1 && break
    done
    ((busy)) || return 0
    if ((SECONDS >= next_progress)); then
      progress
      next_progress=$((SECONDS + PROGRESS_EVERY))
    fi
    sleep 0.5
  done
}

# Every test removes what it makes in TMPDIR, also when it fails. The
# check: a dba-lab-* path left in a finished job's own TMPDIR (start_job) is
# a failure, named with its job. Why not a before/after listing of the
# shared TMPDIR: other runs on the machine (other checkouts, CI jobs, other
# users) make dba-lab-* folders there at the same time, and the process that
# made a folder cannot be told once it has exited; inside the run's own
# folder every path is this run's, and each job's. The run's folder goes at
# exit, leftovers included, so the shared TMPDIR keeps nothing of the run.
check_leftovers() {
  local i path left=0
  for i in "${!JOB_NAME[@]}"; do
    [[ "${JOB_STATE[i]}" == finished ]] || continue
    for path in "$RUN_DIR/tmp/$i"/dba-lab-*; do
      [[ -e "$path" || -L "$path" ]] || continue
      printf 'not ok - %s left %s in its TMPDIR: a test must remove what it makes, also when it fails\n' \
        "${JOB_NAME[i]}" "${path#"$RUN_DIR/tmp/$i/"}"
      left=$((left + 1))
    done
  done
  if ((left)); then
    printf '%-32s 0 passed, 1 failed, 0 skipped\n' "tmp/leftovers"
    FAILED=$((FAILED + 1))
  else
    printf '%-32s 1 passed, 0 failed, 0 skipped\n' "tmp/leftovers"
    PASSED=$((PASSED + 1))
  fi
}

# A tool that ignores TMPDIR (or a test that hard-codes /tmp) escapes the
# check above. What appeared in the shared TMPDIR during the run is only
# named, not counted: another run may have made it.
shared_tmp_paths() {
  find "$1" -mindepth 1 -maxdepth 1 -name 'dba-lab-*' 2>/dev/null | sort
}

note_shared_tmp() {
  local dir="$1" before="$2" appeared
  appeared=$(comm -13 <(printf '%s\n' "$before") <(shared_tmp_paths "$dir") | grep -vxF "$RUN_DIR" || true)
  [[ -z "$appeared" ]] && return 0
  printf '# note: dba-lab-* paths appeared in %s during this run, not in its jobs'"'"' TMPDIR (not counted: another run may own them): %s\n' \
    "$dir" "$(paste -sd ' ' <<<"$appeared")"
}

# Stops every job still running (each is a process group) and every server
# this run started, then removes the run's folder.
cleanup() {
  local i server
  for i in "${!JOB_NAME[@]}"; do
    [[ "${JOB_STATE[i]}" == running ]] && kill -TERM -- "-${JOB_PID[i]}" 2>/dev/null
  done
  if [[ -n "$RUN_DIR" && -d "$RUN_DIR/servers" ]]; then
    for server in "$RUN_DIR"/servers/*.state; do
      [[ -d "$server" ]] || continue
      server=$(basename "$server" .state)
      HOME="$RUN_DIR/home" "$ROOT/tests/servers/${server}.sh" stop >/dev/null 2>&1 || true
    done
  fi
  [[ -n "$RUN_DIR" ]] && rm -rf "$RUN_DIR"
  return 0
}

main() {
  local setup=1 suites=() suite jobs="${DBA_LAB_TEST_JOBS:-}" server dir shared_before
  while (($#)); do
    case "$1" in
      --verbose|-v) VERBOSE=1 ;;
      --no-setup) setup=0 ;;
      --jobs|-j)
        [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { printf 'tests/run.sh: --jobs needs a positive number\n' >&2; exit 2; }
        jobs="$2"
        shift
        ;;
      -h|--help) usage; exit 0 ;;
      lint|unit|snippets|bats|integration) suites+=("$1") ;;
      *) printf 'tests/run.sh: unknown argument %s (see --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
  done
  ((${#suites[@]})) || suites=(lint unit snippets bats integration)
  # Two more jobs than CPUs: the lane suites spend most of their time waiting
  # for stand-in servers to start and stop, and a third job fills that.
  [[ -n "$jobs" ]] || jobs=$(($(nproc 2>/dev/null || echo 1) + 2))

  if ((setup)) && ! "$ROOT/setup/install.sh" --quiet; then
    printf 'setup failed: see the message above, or run ./setup/install.sh --check\n'
    printf '0 passed, 1 failed\n'
    exit 1
  fi
  # shellcheck source=setup/env.sh
  source "$ROOT/setup/env.sh"
  export DBA_LAB_ROOT="$ROOT"

  shared_before=$(shared_tmp_paths "$SHARED_TMP")
  RUN_DIR=$(mktemp -d "${SHARED_TMP}/dba-lab-tests.XXXXXX")
  mkdir -p "$RUN_DIR/servers" "$RUN_DIR/home" "$RUN_DIR/tmp"
  # Python keeps compiled modules, as it does by default, even where the
  # machine's environment turns that off (PYTHONDONTWRITEBYTECODE): otherwise
  # every stand-in mongod, analyze and pytest process compiles the same sources
  # again (unit/python: 50 s -> 41 s of CPU). In this run's folder, not the checkout.
  unset PYTHONDONTWRITEBYTECODE
  export PYTHONPYCACHEPREFIX="$RUN_DIR/pycache"
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  # Each server's state (pid, port, data) lives in this run's folder:
  # DBA_LAB_<SERVER>_STATE, as tests/servers/*.sh read it.
  for dir in "$ROOT"/tests/integration/*/; do
    [[ -d "$dir" ]] || continue
    server=$(basename "$dir")
    export "DBA_LAB_${server^^}_STATE=$RUN_DIR/servers/${server}.state"
  done

  # The serial integration chain first, then the longest jobs: the run ends
  # when its last job does. The unit suites (one job each, a minute or so)
  # before the bats files: last, they were the run's tail.
  for suite in integration lint unit bats snippets; do
    [[ " ${suites[*]} " == *" ${suite} "* ]] && add_jobs "$suite"
  done
  run_jobs "$jobs"
  check_leftovers
  note_shared_tmp "$SHARED_TMP" "$shared_before"

  # The budget is wall time on the machine's cores: the CPU the jobs used says
  # how much of it they need, whatever their number.
  printf '# %s wall, %s CPU in the jobs (%d cores)\n' "$(duration "$SECONDS")" "$(duration "$CPU_TOTAL")" \
    "$(nproc 2>/dev/null || echo 1)"
  printf '%d passed, %d failed, %d skipped\n' "$PASSED" "$FAILED" "$SKIPPED"
  ((FAILED == 0))
}

main "$@"
