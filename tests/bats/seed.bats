#!/usr/bin/env bats
# seedCollection's dry run from bash, as the playbooks call it: no server,
# one JSON document on stdout.

setup() {
  load test_helper
}

dry_run() {
  cd "$DBA_LAB_ROOT" && mongosh --nodb --quiet --norc --eval \
    "load('snippets/index.js'); print(EJSON.stringify(seedCollection('foo', $1), {relaxed: true}))"
}

@test "the change-stream-resume dry run prints the article's full figures as JSON" {
  run dry_run "{recipe: 'change-stream-resume', scale: 'full', dryRun: true}"
  assert_success
  assert_equal "$(jq -r '.docs, .largestDoc, .ns[0], .dryRun' <<<"$output" | paste -sd ' ')" "3010 6291493 test.foo true"
  assert_equal "$(jq -r '.bytes | tostring' <<<"$output")" "18879725683"
}

@test "the oplog size a playbook passes to replSetResizeOplog comes with the dry run" {
  run dry_run "{recipe: 'change-stream-resume', scale: 'full', dryRun: true}"
  assert_success
  assert_equal "$(jq -r '.oplogSizeMB' <<<"$output")" "19807"
}

@test "a bad option fails with a one-line seedCollection: message, no stack trace" {
  run dry_run "{recipe: 'nope', dryRun: true}"
  assert_failure
  assert_output --partial 'seedCollection: unknown recipe "nope"'
  refute_output --partial '    at '
}
