#!/usr/bin/env bats
# playbooks/mongodump-raw-bson.sh: the --dry-run plan (every client command
# line, flag by flag, as mongo-tools 100.12's --help spells them), option
# errors, the preflight's next step when no server is at hand, the timer and
# the driver client's command line. The analysis and the verdicts (model.js,
# checker.js) are tested with node --test: tests/unit/mongodump-raw-bson-*.test.js.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  PLAYBOOK="${DBA_LAB_ROOT}/playbooks/mongodump-raw-bson.sh"
  JS="${DBA_LAB_ROOT}/playbooks/lib/scenarios/mongodump-raw-bson"
  WORKDIR="${BATS_TEST_TMPDIR}/work"
  mkdir -p "$WORKDIR"
  cd "$WORKDIR" || return 1
  DB=dbalab_mongodump-raw-bson
}

# The plan's "$ " lines, with the run's temporary folder as TMP.
plan() {
  "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" "$@" 2>/dev/null \
    | plan_lines | sed -E 's#/[^ "]*/dba-lab-mongodump-raw-bson\.[A-Za-z0-9]+#TMP#g'
}

# The timed commands only (what follows "timed.py --stdout X --").
timed() {
  plan "$@" | sed -n -E 's#^\$ python3 ROOT/playbooks/lib/scenarios/mongodump-raw-bson/timed.py --stdout [^ ]+ -- ##p'
}

@test "plan: a single mongod by default, launched by mlaunch" {
  run plan --port 30100
  assert_success
  assert_line "\$ mlaunch init --single --port 30100 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin"
}

@test "plan: --replicaset launches a replica set of --nodes members" {
  run plan --replicaset --nodes 3 --port 30200
  assert_success
  assert_line "\$ mlaunch init --replicaset --nodes 3 --name replset --port 30200 --dir ${WORKDIR}/data/7.0.12 --binarypath ROOT/tests/fixtures/fake-server/bin"
}

@test "plan: prepare seeds tiny-docs with the scale's counts" {
  run plan --scale medium --collections 2
  assert_success
  assert_output --partial '"params":{"shapes":"tiny","collections":2,"docs":300000,"nestedDocs":100,"out":"TMP/shapes-7.0.12.json"}'
  assert_output --partial 'ROOT/playbooks/lib/js/stage.js ROOT/playbooks/lib/scenarios/mongodump-raw-bson/prepare.js'
}

@test "plan: mongodump to a directory, its shape only, fresh directory before each run" {
  run plan --repeats 2
  assert_success
  local dump="mongodump --uri mongodb://localhost:27100/ --db ${DB} --excludeCollectionsWithPrefix=nested --excludeCollectionsWithPrefix=restored_ --excludeCollection=_dbalab_owner"
  assert_equal "$(grep -c -F -x "\$ python3 ROOT/playbooks/lib/scenarios/mongodump-raw-bson/timed.py --stdout null -- ${dump} --out TMP/dump-7.0.12/tiny --quiet" <<<"$output")" 2
  assert_equal "$(grep -c -F -x '$ rm -rf TMP/dump-7.0.12/tiny' <<<"$output")" 2
  assert_line "\$ python3 ROOT/playbooks/lib/scenarios/mongodump-raw-bson/timed.py --stdout count -- ${dump} --archive --quiet"
}

@test "plan: every read method, in order, once per repeat" {
  run timed --repeats 1 --collections 2
  assert_success
  local uri=mongodb://localhost:27100/
  assert_line --index 0 --partial "mongodump --uri ${uri} --db ${DB} "
  assert_line --index 1 --regexp ' --archive --quiet$'
  assert_line --index 2 "node ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run.js read --uri ${uri} --db ${DB} --collections tiny_1,tiny_2 --raw"
  assert_line --index 3 "node ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run.js read --uri ${uri} --db ${DB} --collections tiny_1,tiny_2"
  assert_line --index 4 "mongosh ${uri} --quiet --norc --eval 'globalThis.dbaLabRead = {\"db\":\"${DB}\",\"collections\":[\"tiny_1\",\"tiny_2\"]}' ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run-mongosh.js"
  assert_line --index 5 "mongoexport --uri ${uri} --db ${DB} --collection tiny_1 --quiet"
  assert_line --index 6 "mongoexport --uri ${uri} --db ${DB} --collection tiny_2 --quiet"
  assert_line --index 7 "cat TMP/dump-7.0.12/tiny/${DB}/tiny_1.bson TMP/dump-7.0.12/tiny/${DB}/tiny_2.bson"
}

@test "plan: mongorestore renames into restored_*, then each variation, then the driver's insertMany" {
  run timed --repeats 1 --collections 2 --restore-workers 2,8 --restore-parallel 1
  assert_success
  local restore="mongorestore --uri mongodb://localhost:27100/ --nsInclude ${DB}.* --nsFrom ${DB}.* --nsTo ${DB}.restored_* --quiet"
  assert_line --index 8 "$(pb_quoted "$restore") TMP/dump-7.0.12/tiny"
  assert_line --index 9 "$(pb_quoted "$restore") --numInsertionWorkersPerCollection=2 TMP/dump-7.0.12/tiny"
  assert_line --index 10 "$(pb_quoted "$restore") --numInsertionWorkersPerCollection=8 TMP/dump-7.0.12/tiny"
  assert_line --index 11 "$(pb_quoted "$restore") --numParallelCollections=1 TMP/dump-7.0.12/tiny"
  assert_line --index 12 "node ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run.js write --uri mongodb://localhost:27100/ --db ${DB} --from TMP/dump-7.0.12/tiny/${DB} --collections tiny_1,tiny_2 --prefix restored_"
  assert_equal "${#lines[@]}" 13
}

# How the runner quotes the namespace patterns (they hold '*').
pb_quoted() {
  sed -E "s#(${DB//./\\.}\.[^ ]*\*)#'\1'#g" <<<"$1"
}

@test "plan: the restore targets are dropped before each write and after the last" {
  run plan --repeats 2 --restore-workers 0 --restore-parallel 0
  assert_success
  # 2 mongorestore + 2 insertMany runs, each after a drop, and one at the end.
  assert_equal "$(grep -c -F -x "\$ node ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run.js drop --uri mongodb://localhost:27100/ --db ${DB} --collections restored_tiny_1,restored_tiny_2,restored_tiny_3,restored_tiny_4" <<<"$output")" 5
  refute_output --partial 'numInsertionWorkersPerCollection'
  refute_output --partial 'numParallelCollections'
}

@test "plan: --shape both reads the nested collection too, excluding the tiny ones" {
  run timed --repeats 1 --shape both
  assert_success
  assert_output --partial "--excludeCollectionsWithPrefix=tiny --excludeCollectionsWithPrefix=restored_ --excludeCollection=_dbalab_owner --out TMP/dump-7.0.12/nested --quiet"
  assert_output --partial "run.js read --uri mongodb://localhost:27100/ --db ${DB} --collections nested --raw"
  assert_output --partial "mongoexport --uri mongodb://localhost:27100/ --db ${DB} --collection nested --quiet"
}

@test "plan: --uri keeps the tools off the URI's database; it becomes authSource when there are credentials" {
  run "$PLAYBOOK" --dry-run --report-dir "${WORKDIR}/report" --uri 'mongodb://dba:secret@127.0.0.1:1/admin?tls=false'
  assert_success
  assert_output --partial 'a real run would stop here (preflight): cannot reach --uri'
  # The password itself goes in a --config file (tests/bats/credentials.bats).
  assert_output --regexp "mongodump --uri 'mongodb://dba@127\\.0\\.0\\.1:1/\\?tls=false&authSource=admin' --config [^ ]+ --db dbalab_mongodump-raw-bson"
  refute_output --partial 'secret'
  refute_output --partial 'mlaunch init'
}

@test "plan: analysis is announced, nothing is written" {
  run "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report"
  assert_success
  assert_output --partial 'analysis: medians of'
  assert_output --partial 'dry run: nothing was changed'
  [[ ! -e "${WORKDIR}/data" && ! -e "${WORKDIR}/report" ]]
}

@test "options: an unknown shape is a usage error" {
  run "$PLAYBOOK" --shape wide
  assert_failure 2
  assert_output "mongodump-raw-bson: --shape must be one of tiny, nested, both, got 'wide' (see --help)"
}

@test "options: --repeats must be 1 to 50" {
  run "$PLAYBOOK" --repeats 0
  assert_failure 2
  assert_output --partial -- '--repeats must be between 1 and 50, got 0'
}

@test "options: --restore-workers takes whole numbers" {
  run "$PLAYBOOK" --restore-workers 2,x
  assert_failure 2
  assert_output "mongodump-raw-bson: --restore-workers expects whole numbers separated by commas such as 1,10,40, got '2,x' (see --help)"
}

@test "options: --restore-parallel above 64 is refused" {
  run "$PLAYBOOK" --restore-parallel 65
  assert_failure 2
  assert_output --partial -- '--restore-parallel: 65 is not between 0 and 64'
}

@test "options: --docs and --nested-docs default to the scale's counts, and say so" {
  run "$PLAYBOOK" --help
  assert_success
  assert_output --partial "tiny documents per collection (default: the scale's (small: 100000))"
  assert_output --partial "nested documents (default: the scale's (small: 30))"
  run "$PLAYBOOK" --docs 0
  assert_failure 2
  assert_output --partial -- '--docs must be between 1 and 100000000, got 0'
}

@test "plan: the claims to be checked are listed, from the checker" {
  run "$PLAYBOOK" --dry-run --binarypath "$FAKE_BIN" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report"
  assert_success
  assert_output --partial "to be checked: mongodump is much faster than a decoding reader (expected the Node driver reading decoded documents takes >= 2x mongodump's wall time; needs at least 2 clean runs of each method compared)"
  assert_output --partial 'to be checked: restore is far slower than dump'
}

@test "options: --nodes without --replicaset says to add it" {
  run "$PLAYBOOK" --nodes 3
  assert_failure 2
  assert_output "mongodump-raw-bson: --nodes applies to a replica set: add --replicaset (see --help)"
}

@test "options: --uri excludes --port" {
  run "$PLAYBOOK" --uri mongodb://localhost:27017 --port 30000
  assert_failure 2
  assert_output --partial -- '--uri runs against an existing deployment: --port does not apply'
}

@test "help: names every method, the timer, and where a server comes from" {
  run "$PLAYBOOK" --help
  assert_success
  assert_output --partial 'os.wait4()'
  assert_output --partial 'mongodump --archive to a pipe'
  assert_output --partial 'raw: true'
  assert_output --partial 'point
--binarypath at a folder holding mongod, or --uri at any running deployment'
  assert_output --partial 'playbooks/mongodump-raw-bson.sh --uri '
  assert_output --partial 'Lab guide: playbooks/mongodump-raw-bson.md'
}

@test "preflight: no server to be had gives exit 3 and names --binarypath and --uri" {
  use_fake_m
  run "$PLAYBOOK" --dir "${WORKDIR}/data" --report-dir "${WORKDIR}/report" --port "$(free_port_base)"
  assert_failure 3
  assert_output --partial 'Preflight failed; nothing was launched or changed'
  assert_output --partial 'use --binarypath DIR'
  assert_output --partial '--uri URI'
  [[ ! -e "${WORKDIR}/data" ]]
}

@test "timer: wall, CPU and exit status of the child, stdout counted" {
  run python3 "${JS}/timed.py" --stdout count -- sh -c 'head -c 123456 /dev/zero; exit 3'
  assert_failure 3
  run jq -r '[.exit, .stdoutBytes, (.wall > 0), (.user >= 0), (.maxRssBytes > 0)] | @tsv' <<<"$output"
  assert_success
  assert_output "$(printf '3\t123456\ttrue\ttrue\ttrue')"
}

@test "timer: the child's CPU is counted, not the timer's own" {
  run python3 "${JS}/timed.py" -- python3 -c 'import time; t = time.process_time(); exec("while time.process_time() - t < 0.3: pass")'
  assert_success
  run jq -r '.user + .sys >= 0.25 and .user + .sys < 1' <<<"$output"
  assert_success
  assert_output true
}

@test "run.js (the driver client): a bad argument is one line and exit 2" {
  run node "${JS}/run.js" read --uri mongodb://localhost:1/ --db x
  assert_failure 2
  assert_output 'run.js: --db and --collections are required'
}

@test "plan: the server's CPU is read before and after every timed run" {
  run plan --repeats 1 --collections 1 --restore-workers 0 --restore-parallel 0
  assert_success
  local timed cpu
  timed=$(grep -c 'timed.py' <<<"$output")
  cpu=$(grep -c -F -x '$ node ROOT/playbooks/lib/scenarios/mongodump-raw-bson/run.js server-cpu --uri mongodb://localhost:27100/' <<<"$output")
  assert_equal "$cpu" "$((2 * timed))"
}

