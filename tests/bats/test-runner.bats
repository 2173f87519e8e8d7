#!/usr/bin/env bats
# tests/run.sh (npm test) and what its tests leave in TMPDIR: each job runs
# with a TMPDIR of its own, and a dba-lab-* path left there fails the run.
# Here the runner runs a checkout of its own files with one unit test file.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  FAKE="${BATS_TEST_TMPDIR}/checkout"
  mkdir -p "${FAKE}/tests/lib" "${FAKE}/tests/unit" "${FAKE}/setup"
  cp "${DBA_LAB_ROOT}/tests/run.sh" "${FAKE}/tests/"
  cp "${DBA_LAB_ROOT}/tests/lib/tap-count" "${DBA_LAB_ROOT}/tests/lib/tap-failures" "${FAKE}/tests/lib/"
  cp "${DBA_LAB_ROOT}/setup/env.sh" "${DBA_LAB_ROOT}/setup/require-bash.sh" "${FAKE}/setup/"
  # The TMPDIR the run is given, as the machine's /tmp would be.
  SHARED="${BATS_TEST_TMPDIR}/tmp"
  mkdir -p "$SHARED"
}

# A unit test file whose one test runs BODY (JavaScript; assert, fs, os, path in scope).
unit_test() {
  printf '%s\n' "'use strict';" "const test = require('node:test');" \
    "const assert = require('assert'); const fs = require('fs'); const os = require('os'); const path = require('path');" \
    "test('$1', async () => { $2 });" >"${FAKE}/tests/unit/$1.test.js"
}

runner() {
  TMPDIR="$SHARED" "${FAKE}/tests/run.sh" --no-setup unit
}

@test "a test that leaves a dba-lab-* folder in TMPDIR fails the run, naming its job and the folder" {
  unit_test leaky "fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-leak-'));"
  run runner
  assert_failure 1
  assert_line --regexp "^not ok - unit/node left dba-lab-leak-[A-Za-z0-9]{6} in its TMPDIR: a test must remove what it makes, also when it fails$"
  assert_line --regexp "^tmp/leftovers +0 passed, 1 failed, 0 skipped$"
  assert_line --index -1 "1 passed, 1 failed, 0 skipped"
}

@test "a run whose tests remove what they make passes the leftover check" {
  unit_test tidy "const d = fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-tidy-')); fs.rmSync(d, { recursive: true });"
  run runner
  assert_success
  assert_line --regexp "^tmp/leftovers +1 passed, 0 failed, 0 skipped$"
  assert_line --index -1 "2 passed, 0 failed, 0 skipped"
}

@test "a job's TMPDIR is inside the run's folder, not the shared TMPDIR" {
  unit_test where "assert.ok(os.tmpdir().startsWith(process.env.SHARED + '/dba-lab-tests.'), os.tmpdir());"
  SHARED="$SHARED" run runner
  assert_success
  assert_line --index -1 "2 passed, 0 failed, 0 skipped"
}

@test "after a run, even one whose test leaked, the shared TMPDIR holds nothing of it" {
  unit_test leaky "fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-leak-'));"
  run runner
  assert_failure 1
  run ls -A "$SHARED"
  assert_success
  assert_output ""
}

# Other runs on the machine make dba-lab-* folders in the shared TMPDIR
# before and while this one runs: none of them is this run's leftover.
@test "dba-lab-* folders that other processes make in the shared TMPDIR do not fail the run" {
  mkdir "${SHARED}/dba-lab-tests.before"
  # The test waits until "another run" has made its folder, mid-run.
  unit_test waits "for (let i = 0; i < 200 && !fs.existsSync(process.env.OTHER); i++) await new Promise((r) => setTimeout(r, 50));
    if (!fs.existsSync(process.env.OTHER)) throw new Error('the other folder did not appear');"
  export OTHER="${SHARED}/dba-lab-report-other"
  (sleep 1 && mkdir "$OTHER") &
  run runner
  wait
  assert_success
  assert_line --index -1 "2 passed, 0 failed, 0 skipped"
  assert_line "# note: dba-lab-* paths appeared in ${SHARED} during this run, not in its jobs' TMPDIR (not counted: another run may own them): ${OTHER}"
}

# seconds_of 1m05s|42s: the runner's duration in seconds.
seconds_of() {
  local d="$1" m=0
  if [[ "$d" == *m* ]]; then m=${d%%m*}; d=${d#*m}; fi
  printf '%d' $((10#$m * 60 + 10#${d%s}))
}

@test "each job's line gives its wall time and the CPU it used, and a # line sums the CPU before the closing line" {
  # Two seconds of CPU in the test's own node process, one in a child it waits for.
  unit_test busy "const spin = (us) => { while (process.cpuUsage().user < us); }; spin(2e6);
    require('child_process').execFileSync(process.execPath, ['-e', 'while (process.cpuUsage().user < 1e6);']);"
  run runner
  assert_success
  # Times as the runner writes them, minutes included past 60 s: a busy
  # machine makes the same job slower, never another line.
  local t='([0-9]+m)?[0-9]+s' cpu
  assert_line --regexp "^unit/node +1 passed, 0 failed, 0 skipped  \\(${t}, ${t} CPU\\)\$"
  cpu=$(sed -nE 's/^unit\/node .*, (([0-9]+m)?[0-9]+s) CPU\)$/\1/p' <<<"$output")
  (($(seconds_of "$cpu") >= 3))
  assert_line --index -2 --regexp "^# ${t} wall, ${cpu} CPU in the jobs \\([0-9]+ cores\\)\$"
  assert_line --index -1 "2 passed, 0 failed, 0 skipped"
}

@test "under a shell older than bash 4.4 (or not bash) the entry points stop with one line saying what they need" {
  local script what
  for script in tests/run.sh:"npm test" setup/install.sh:"setup/install.sh" tests/faults/walk.sh:"npm run test:faults"; do
    what=${script#*:}
    run --separate-stderr sh "${DBA_LAB_ROOT}/${script%%:*}"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "${what} needs bash 4.4 or newer (this is not bash); on macOS: brew install bash, then start a new terminal so that it comes first on PATH"
  done
}

@test "a playbook's framework stops before anything else under a bash older than 4.4 (exit 3)" {
  # shellcheck disable=SC2016 # the inner sh's own "$1"
  run --separate-stderr env BASH_VERSION=3.2.57 sh -c '. "$1/setup/require-bash.sh"; dba_lab_require_bash "a playbook" 3' sh "$DBA_LAB_ROOT"
  assert_failure 3
  assert_equal "$stderr" "a playbook needs bash 4.4 or newer (this is bash 3.2.57); on macOS: brew install bash, then start a new terminal so that it comes first on PATH"
  run grep -c 'dba_lab_require_bash "a playbook" 3' "${DBA_LAB_ROOT}/playbooks/lib/playbook.sh"
  assert_success
  assert_output 1
}

@test "test:busy runs the suite beside two busy loops, ends with its status and leaves no loop running" {
  local pids=() pid
  cp "${DBA_LAB_ROOT}/tests/busy.sh" "${FAKE}/tests/"
  unit_test failing "assert.strictEqual(1, 2);"
  TMPDIR="$SHARED" run --separate-stderr "${FAKE}/tests/busy.sh" --no-setup unit
  assert_failure 1
  # The unit test fails; the leftover check passes.
  assert_line --index -1 "1 passed, 1 failed, 0 skipped"
  [[ "$stderr" =~ busy\.sh:\ two\ CPU-bound\ loops\ \(pids\ ([0-9]+)\ ([0-9]+)\) ]]
  pids=("${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
  for pid in "${pids[@]}"; do
    run kill -0 "$pid"
    assert_failure
  done
}
