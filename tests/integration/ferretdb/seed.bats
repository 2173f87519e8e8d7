#!/usr/bin/env bats
# seedCollection's progress off a terminal: lines on stderr, the result alone
# on stdout (what a playbook parses).

setup() {
  load ../../bats/test_helper
}

seed() {
  cd "$DBA_LAB_ROOT" && mongosh "${DBA_LAB_TEST_URI}dba_lab_seed_bats" --quiet --norc --eval \
    "load('snippets/index.js'); db.progress.drop(); print(EJSON.stringify(seedCollection('progress', $1), {relaxed: true}))"
}

@test "off a terminal, progress lines go to stderr and stdout holds only the result" {
  seed "{docs: 400, size: '64KB', batchBytes: '256KB', concurrency: 1, progress: 0.05}" \
    2>"${BATS_TEST_TMPDIR}/err" >"${BATS_TEST_TMPDIR}/out"
  assert_equal "$(jq -r '.docs' "${BATS_TEST_TMPDIR}/out")" "400"
  run grep -c '^seedCollection: [0-9,]*/400 docs, .* of 25.0 MB ([0-9]*%), [0-9.]* MB/s, ETA ' "${BATS_TEST_TMPDIR}/err"
  assert_success
  (( output >= 1 ))
}

@test "progress: false writes nothing to stderr" {
  seed "{docs: 50, size: '64KB', progress: false}" 2>"${BATS_TEST_TMPDIR}/err" >/dev/null
  assert_equal "$(wc -c <"${BATS_TEST_TMPDIR}/err")" "0"
}
