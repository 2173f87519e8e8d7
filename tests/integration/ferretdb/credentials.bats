#!/usr/bin/env bats
# A --uri that carries a password never reaches a command line: every local
# user can read every process's arguments (ps, /proc/PID/cmdline) for as long
# as it runs. Each playbook that takes --uri runs at its quickest against the
# runner's FerretDB (DBA_LAB_TEST_URI, which accepts any user and password
# with authMechanism=PLAIN) with a password made for this file, given in
# DBA_LAB_URI as a trainer would (a --uri of the playbook's own would be on
# its own command line). Two witnesses watch every process started meanwhile:
# the process list, read every 0.2 s, and shims first on PATH that log the
# arguments of every mongosh, node, mongodump, mongorestore and mongoexport
# before running the real one (short processes cannot slip between samples).

bats_require_minimum_version 1.5.0

CLIENTS=(mongosh node mongodump mongorestore mongoexport)

setup_file() {
  load ../../bats/test_helper
  local tool real sep='?'
  # The password is unique to this file; its "@" is percent-encoded in the URI.
  TOKEN="dbalabPW$(date +%s%N)x$$"
  export TOKEN
  [[ "$DBA_LAB_TEST_URI" != *\?* ]] || sep='&'
  SECRET_URI="${DBA_LAB_TEST_URI/#mongodb:\/\//mongodb://alice:${TOKEN}%40x@}${sep}authMechanism=PLAIN"

  SHIMS="${BATS_FILE_TMPDIR}/shims"
  export ARGV_LOG="${BATS_FILE_TMPDIR}/argv.log" PS_LOG="${BATS_FILE_TMPDIR}/ps.log"
  mkdir -p "$SHIMS"
  : >"$ARGV_LOG"
  for tool in "${CLIENTS[@]}"; do
    real=$(PATH="${DBA_LAB_ROOT}/.tools/bin:${PATH}" command -v "$tool")
    # shellcheck disable=SC2016 # expanded when the shim runs
    printf '#!/usr/bin/env bash\n{ printf %%s %q; printf " %%q" "$@"; printf "\\n"; } >>%q\nexec %q "$@"\n' \
      "$tool" "$ARGV_LOG" "$real" >"${SHIMS}/${tool}"
    chmod +x "${SHIMS}/${tool}"
  done

  # The run folders (PB_WORK) go here, so what is left of them can be checked.
  export TMPDIR="${BATS_FILE_TMPDIR}/tmp"
  mkdir -p "$TMPDIR"
  : >"$PS_LOG"
  watch_processes &
  local watcher=$!

  run_playbook capped-pubsub --subscribers 1 --publishers 1 --rate 10 --seconds 1 \
    --drain-seconds 2 --idle-seconds 0 --compare none
  run_playbook mongodump-raw-bson --shape tiny --docs 50 --collections 1 --repeats 1 \
    --restore-workers 0 --restore-parallel 0
  # FerretDB is no replica set: this one stops at its preflight probe (exit 3).
  run_playbook array-push-oplog --no-load

  touch "${BATS_FILE_TMPDIR}/stop"
  wait "$watcher"
}

# run_playbook NAME OPTION...: the playbook with the secret URI in DBA_LAB_URI;
# its output and exit status go to files named after it.
run_playbook() {
  local name="$1" rc=0
  shift
  PATH="${SHIMS}:${DBA_LAB_ROOT}/.tools/bin:${PATH}" DBA_LAB_URI="$SECRET_URI" \
    "${DBA_LAB_ROOT}/playbooks/${name}.sh" "$@" --yes --report-dir "${BATS_FILE_TMPDIR}/reports/${name}" \
    >"${BATS_FILE_TMPDIR}/${name}.out" 2>&1 || rc=$?
  printf '%s\n' "$rc" >"${BATS_FILE_TMPDIR}/${name}.rc"
}

# Every 0.2 s until told to stop: the lines of the process list that hold the
# password, and those of the scenarios' own clients (proof that it sampled
# while they ran).
watch_processes() {
  local sample="${BATS_FILE_TMPDIR}/ps.sample"
  while [[ ! -e "${BATS_FILE_TMPDIR}/stop" ]]; do
    ps -ww -eo args >"$sample"
    grep -F -e "$TOKEN" -e "${DBA_LAB_ROOT}/playbooks/lib/scenarios/" "$sample" >>"$PS_LOG" || true
    sleep 0.2
  done
}

setup() {
  load ../../bats/test_helper
}

assert_ran() {
  run cat "${BATS_FILE_TMPDIR}/${1}.rc"
  assert_success
  assert_output "$2"
}

@test "capped-pubsub finishes with a password in its URI (exit 0, status done)" {
  assert_ran capped-pubsub 0
  run jq -r '.status' "${BATS_FILE_TMPDIR}/reports/capped-pubsub/results.json"
  assert_success
  assert_output "done"
}

@test "mongodump-raw-bson finishes with a password in its URI: every method ran" {
  assert_ran mongodump-raw-bson 0
  run jq -r '.status, ((.tables.timing.columns | index("method")) as $m | [.tables.timing.rows[].values[$m]] | unique | join(","))' \
    "${BATS_FILE_TMPDIR}/reports/mongodump-raw-bson/results.json"
  assert_success
  assert_line --index 0 "done"
  assert_line --index 1 driver-decoded,driver-insertMany,driver-raw,floor-cat,mongodump-archive,mongodump-dir,mongoexport,mongorestore,mongosh-toArray
}

@test "array-push-oplog's preflight reaches the server with the password in its URI" {
  assert_ran array-push-oplog 3
  run grep -F 'is a standalone; array-push-oplog needs a replica set member' "${BATS_FILE_TMPDIR}/array-push-oplog.out"
  assert_success
}

@test "no mongosh, node or Database Tools command line held the password" {
  local tool
  for tool in "${CLIENTS[@]}"; do
    run grep -c "^${tool} " "$ARGV_LOG"
    assert_success
  done
  run grep -F "$TOKEN" "$ARGV_LOG"
  assert_failure 1
  assert_output ''
}

@test "no process in the process list showed the password while the playbooks ran" {
  run grep -c -F "${DBA_LAB_ROOT}/playbooks/lib/scenarios/mongodump-raw-bson/" "$PS_LOG"
  assert_success
  run grep -c -F "${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub/run.js" "$PS_LOG"
  assert_success
  run grep -F "$TOKEN" "$PS_LOG"
  assert_failure 1
  assert_output ''
}

@test "no file of the reports or of what is left of the run folders holds the password" {
  run grep -rlF "$TOKEN" "${BATS_FILE_TMPDIR}/reports" "$TMPDIR"
  assert_failure 1
  assert_output ''
  # The runs' own output (what a trainer's terminal shows) names the server redacted.
  run grep -lF "$TOKEN" "${BATS_FILE_TMPDIR}"/*.out
  assert_failure 1
  run grep -cF 'alice:***@' "${BATS_FILE_TMPDIR}/capped-pubsub.out"
  assert_success
}
