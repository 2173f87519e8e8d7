#!/usr/bin/env bats
# Failpoints (TEST-ONLY switch in playbooks/lib/run.sh, tests/faults/README.md):
# DBA_LAB_FAILPOINT_RECORD=FILE numbers the external commands of a run and
# DBA_LAB_FAILPOINT=N interrupts the run just before command N, as a Ctrl-C.
# The switch itself on the demo playbook (no server), then a sample of the
# walk (tests/faults/walk.sh, npm run test:faults) on the mlaunch lane's
# stand-in servers (TEST FIXTURES ONLY; a scenario's stages answered with
# recorded results, tests/fixtures/walk-stages): each interrupted run exits 130 with a
# report saying interrupted, leaves no process under its folder, deletes its
# data folder and nothing beside it.

# test-runner: long
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  REPORT="${BATS_TEST_TMPDIR}/report"
  RECORD="${BATS_TEST_TMPDIR}/record"
  export TMPDIR="${BATS_TEST_TMPDIR}/tmp"
  mkdir -p "$TMPDIR"
  unset DBA_LAB_FAILPOINT DBA_LAB_FAILPOINT_RECORD
}

# The processes under PID, children first.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    descendants "$child"
    printf '%s\n' "$child"
  done
}

teardown() {
  # A failed walk run must not leave stand-ins for the next test, nor the IFS lab its reader.
  local pids=()
  if [[ -n "${LAB_PID:-}" ]]; then
    mapfile -t pids < <(descendants "$LAB_PID")
    kill "$LAB_PID" "${pids[@]}" 2>/dev/null || true
  fi
  mapfile -t pids < <(pgrep -f -- "${BATS_TEST_TMPDIR}/.*labs/" || true)
  ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
}

# The demo playbook with SIGINT at its default disposition (a background job
# of a non-interactive shell inherits it ignored, and bash cannot trap it then).
demo() {
  run python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$DEMO" --report-dir "$REPORT" "$@"
}

report_status() {
  jq -r .status "${REPORT}/results.json"
}

@test "failpoint record: every command a run starts, numbered, with its stage" {
  DBA_LAB_FAILPOINT_RECORD=$RECORD demo --topology none --sleep 1
  assert_success
  run cut -f 1,2 "$RECORD"
  assert_success
  assert_output "$(printf '1\trun\n2\treport\n3\treport')"
  run cut -f 3 "$RECORD"
  assert_success
  assert_line --index 0 'sleep 1'
  assert_line --index 1 --regexp "^node .*/js/check\\.js'? "
  assert_line --index 2 --regexp "^node .*/js/report/cli\\.js'? "
}

@test "failpoint: DBA_LAB_FAILPOINT alone (no record file) never fires" {
  DBA_LAB_FAILPOINT=1 demo --topology none --sleep 1
  assert_success
  run report_status
  assert_success
  assert_output 'done'
}

@test "failpoint: an N that is not a positive number never fires" {
  local n
  for n in 0 1x ' 1' -1; do
    rm -rf "$REPORT" "$RECORD"
    DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=$n demo --topology none --sleep 1
    assert_success
    run wc -l <"$RECORD"
    assert_success
    assert_output 3
  done
}

@test "failpoint N: SIGINT just before command N, which never starts: exit 130, report interrupted" {
  local t0=$SECONDS
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=1 demo --topology none --sleep 120
  assert_failure 130
  assert_line --partial 'interrupted by SIGINT during run'
  # The 120 s sleep was command 1: it never ran.
  (( SECONDS - t0 < 60 ))
  run report_status
  assert_success
  assert_output interrupted
}

@test "failpoint signal: TERM or HUP instead of SIGINT, with each one's exit, report interrupted" {
  local sig want
  for sig in TERM:143 HUP:129; do
    want=${sig#*:}
    sig=${sig%:*}
    rm -rf "$REPORT" "$RECORD"
    DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=1 DBA_LAB_FAILPOINT_SIGNAL=$sig demo --topology none --sleep 120
    assert_failure "$want"
    run report_status
    assert_success
    assert_output interrupted
    run jq -r .failure "${REPORT}/results.json"
    assert_success
    assert_output "interrupted by SIG${sig} during run"
  done
}

@test "failpoint during: the signal comes once command N runs; its process group is stopped with the run" {
  local nap t0=$SECONDS
  nap=$((3000 + RANDOM % 5000))
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=1 DBA_LAB_FAILPOINT_WHEN=during DBA_LAB_FAILPOINT_SIGNAL=TERM \
    demo --topology none --sleep "$nap"
  assert_failure 143
  (( SECONDS - t0 < 60 ))
  run pgrep -x -f "sleep ${nap}"
  assert_failure 1
  # It had started: the run log shows the command, then the stop.
  run report_status
  assert_success
  assert_output interrupted
}

@test "failpoint match: SIGINT just before the first command that matches, once; its N in RECORD.fired" {
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=$'match:^report\tnode .*/js/check\\.js\'? ' demo --topology none --sleep 1
  assert_failure 130
  run cat "${RECORD}.fired"
  assert_success
  assert_output 2
  run report_status
  assert_success
  assert_output interrupted
}

@test "failpoint match: a pattern no command matches never fires" {
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT='match:^launch' demo --topology none --sleep 1
  assert_success
  [[ ! -e "${RECORD}.fired" ]]
}

@test "Ctrl-C while the final report is rendered: the report says interrupted, not done" {
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=2 demo --topology none
  assert_failure 130
  run cut -f 3 "$RECORD"
  assert_success
  assert_line --index 1 --regexp "^node .*/js/report/cli\\.js'? "
  run report_status
  assert_success
  assert_output interrupted
  run grep -F 'status **interrupted**' "${REPORT}/report.md"
  assert_success
}

@test "Ctrl-C in preflight, before the report folder exists, still leaves a report saying interrupted" {
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=1 demo --topology single --binarypath "$FAKE_BIN"
  assert_failure 130
  run cut -f 2,3 "$RECORD"
  assert_success
  assert_line --index 0 "$(printf 'preflight\t%s --version' "$(shown "${FAKE_BIN}/mongod")")"
  run report_status
  assert_success
  assert_output interrupted
  run grep -F 'status **interrupted**' "${REPORT}/report.md"
  assert_success
}

@test "Ctrl-C in preflight writes no report into a --report-dir that already holds files" {
  mkdir -p "$REPORT"
  printf 'mine\n' >"${REPORT}/notes.txt"
  DBA_LAB_FAILPOINT_RECORD=$RECORD DBA_LAB_FAILPOINT=1 demo --topology single --binarypath "$FAKE_BIN"
  assert_failure 130
  run ls -A "$REPORT"
  assert_success
  assert_output notes.txt
}

# A playbook whose run stage reads a slow command's output with IFS set for
# read, as playbooks do (IFS=$'\t' read ... < <(...)), and whose cleanup
# splits words as pb::dir_pids does.
ifs_lab() {
  local script="${BATS_TEST_TMPDIR}/ifs-lab.sh"
  cat >"$script" <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
source "${DBA_LAB_ROOT}/playbooks/lib/playbook.sh"
PB_NAME=ifs-lab
PB_TITLE="IFS lab (test fixture)"
PB_TOPOLOGY=none
split_words() { local a b; read -r a b <<<"first second"; printf 'cleanup split: [%s]\\n' "\$b" >>"${BATS_TEST_TMPDIR}/split"; }
stage_launch() { pb::on_exit "split words" split_words; }
stage_run() { local line; while IFS=\$'\\t' read -r line; do :; done < <(sleep ${NAP}); }
pb::main "\$@"
SCRIPT
  chmod +x "$script"
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$script" --report-dir "$REPORT" >"${BATS_TEST_TMPDIR}/out" 2>&1 &
  LAB_PID=$!
}

@test "Ctrl-C while a stage waits in an IFS=... read: the cleanup still splits words on blanks" {
  local reader='' _
  NAP=$((3000 + RANDOM % 5000))
  ifs_lab
  for _ in $(seq 300); do
    reader=$(descendants "$LAB_PID" | xargs -r ps -o pid=,args= -p | awk -v a="sleep ${NAP}" '{p = $1; $1 = ""; if (substr($0, 2) == a) print p}')
    [[ -n "$reader" ]] && break
    sleep 0.1
  done
  [[ -n "$reader" ]]
  sleep 0.5
  kill -INT "$LAB_PID"
  # shellcheck disable=SC2034 # read by wait_background
  BG_PID=$LAB_PID
  wait_background 60
  # The reader's sleep shares the playbook's process group: Ctrl-C would stop it too.
  kill "$reader" 2>/dev/null || true
  assert_equal "$BG_STATUS" 130
  run cat "${BATS_TEST_TMPDIR}/split"
  assert_success
  assert_output 'cleanup split: [second]'
}

# --- a sample of the walk (the whole walk: npm run test:faults) ----------

load_walk() {
  # shellcheck source=tests/faults/walk.bash
  source "${DBA_LAB_ROOT}/tests/faults/walk.bash"
}

# walk_at CASE PATTERN: the run of CASE interrupted before the first command
# whose "WHERE<TAB>command" matches the ERE PATTERN in the uninterrupted run's
# record, checked as the walk checks it. The uninterrupted run (itself
# checked) is made once per file and case.
walk_at() {
  local case="$1" pattern="$2" rec="${BATS_FILE_TMPDIR}/record-$1" n
  load_walk
  if [[ ! -f "${rec}/natural" ]]; then
    rm -rf "$rec"
    faults::record "$case" "$rec"
    run faults::check "$rec" "$FAULTS_RC" "$FAULTS_STATUS"
    assert_success
    printf '%s %s %s\n' "$FAULTS_RC" "$FAULTS_STATUS" "$FAULTS_COUNT" >"${rec}/natural"
  fi
  read -r WALK_RC WALK_STATUS WALK_COUNT <"${rec}/natural"
  n=$(awk -F'\t' -v p="$pattern" '($2 "\t" $3) ~ p {print $1; exit}' "${rec}/record")
  [[ -n "$n" ]] || { printf 'no command matches %s in:\n' "$pattern" >&2; cat "${rec}/record" >&2; return 1; }
  # By the command, not by its N: a run's count moves by one or two between
  # runs (mlaunch list retries, primary polling), more so on a loaded machine.
  faults::run "$case" "${BATS_TEST_TMPDIR}/walk" "match:${pattern}"
  n=$(cat "${BATS_TEST_TMPDIR}/walk/record.fired")
  printf '# %s: N=%s (of %s in the uninterrupted run)\n' "$case" "$n" "$WALK_COUNT" >&3
  faults::expect "${BATS_TEST_TMPDIR}/walk" "$n" "$WALK_RC" "$WALK_STATUS"
  WALK_WHERE=$FAULTS_WHERE
  run faults::check "${BATS_TEST_TMPDIR}/walk" "$FAULTS_WANT_RC" "$FAULTS_WANT_STATUS"
  assert_success
}

@test "walk sample: sharded routing-refresh, Ctrl-C just before mlaunch init: exit 130, interrupted, nothing left" {
  walk_at routing-refresh $'^launch\tmlaunch init '
  assert_equal "$WALK_WHERE" launch
}

@test "walk sample: a hang-up (SIGHUP) while mlaunch init runs: exit 129, interrupted, mlaunch stopped, nothing left" {
  FAULTS_POINT="HUP during" walk_at routing-refresh $'^launch\tmlaunch init '
  assert_equal "$WALK_WHERE" launch
}

@test "walk sample: SIGTERM while the first version's cluster is stopped for the next: exit 143, nothing left" {
  FAULTS_POINT="TERM during" walk_at lane-lab-two-versions $'^analyze\tmlaunch stop '
  assert_equal "$WALK_WHERE" analyze
}

@test "walk sample: sharded routing-refresh, Ctrl-C in the cleanup after its failure, before mlaunch stop: forced, nothing left" {
  walk_at routing-refresh $'^cleanup\tmlaunch stop '
  assert_equal "$WALK_WHERE" cleanup
}

@test "walk sample: replica set array-push-oplog on recorded stage results reaches its report; Ctrl-C while its analyze stage runs: exit 130, interrupted, nothing left" {
  FAULTS_POINT="INT during" walk_at array-push-oplog $'^analyze\tmongosh .*/array-push-oplog/measure\\.js'
  assert_equal "$WALK_WHERE" analyze
  # Without the interrupt the run got past prepare to its verdicts
  # (tests/fixtures/walk-stages answers the stages the stand-ins cannot).
  assert_equal "$WALK_STATUS" 'done'
}

@test "walk sample: two versions, Ctrl-C while a stage reads the process list (IFS=tab read): the cluster is stopped, not left under a deleted folder" {
  walk_at lane-lab-two-versions $'^prepare\tmlaunch list '
  assert_equal "$WALK_WHERE" prepare
}

@test "walk sample: two versions, Ctrl-C just before the first version's cluster is stopped for the next: interrupted, nothing left" {
  walk_at lane-lab-two-versions $'^analyze\tmlaunch stop '
  assert_equal "$WALK_WHERE" analyze
}

@test "walk sample: two versions, Ctrl-C just before the second version's launch: interrupted, nothing left" {
  walk_at lane-lab-two-versions $'^launch\tmlaunch init .*/8\\.0\\.4 '
  assert_equal "$WALK_WHERE" launch
}
