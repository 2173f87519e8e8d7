#!/usr/bin/env bats
# The JSON a mongosh stage receives (pb::stage_config, playbooks/lib/mongosh.sh):
# bash writes it for the common values, byte for byte what jq writes, and
# leaves the others to jq. Every case is checked against the jq writer.

# shellcheck disable=SC2034 # the PB_* globals set here are read by the framework
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  load_framework
  PB_ROOT='/home/me/My Labs/dba-lab' PB_DB_NAME=dbalab_unit-lab PB_VERSION=7.0.12 PB_CURRENT_STAGE=run
  PB_SCALE_NAME=tiny PB_URI='' PB_STAGE_TARGET='mongodb://localhost:27017/?appName=dbalab-csr-A'
  declare -gA PB_SCALE=([docs]=10 [load-seconds]=30)
}

# jq_config PAIR...: the jq writer's bytes for this stage and the scale above.
jq_config() {
  local pairs=() k
  for k in "${!PB_SCALE[@]}"; do pairs+=("${k}=${PB_SCALE[$k]}"); done
  pb::_stage_config_jq "${#pairs[@]}" "${pairs[@]}" "$@"
}

# A jq that fails: what still works does not start one.
without_jq() {
  mkdir -p "${BATS_TEST_TMPDIR}/nojq"
  printf '#!/bin/sh\necho "jq started" >&2\nexit 9\n' >"${BATS_TEST_TMPDIR}/nojq/jq"
  chmod +x "${BATS_TEST_TMPDIR}/nojq/jq"
  PATH="${BATS_TEST_TMPDIR}/nojq:${PATH}"
}

@test "a stage's usual parameters are written without starting jq, as jq writes them" {
  local want
  want=$(jq_config run=A from=first batchSize=0 expect=10 ratio=0.25 drop=true 'note=say "hi"	\ now')
  without_jq
  run pb::stage_config run=A from=first batchSize=0 expect=10 ratio=0.25 drop=true 'note=say "hi"	\ now'
  assert_success
  assert_output "$want"
  assert_output --partial '"params":{"run":"A","from":"first","batchSize":0,"expect":10,"ratio":0.25,"drop":true,"note":"say \"hi\"\t\\ now"}'
}

@test "a repeated key keeps its first place and takes its last value, as in jq" {
  local want
  want=$(jq_config a=1 b=2 a=3)
  without_jq
  run pb::stage_config a=1 b=2 a=3
  assert_success
  assert_output "$want"
  assert_output --partial '"params":{"a":3,"b":2}'
}

@test "--uri mode and an empty scale are written as jq writes them" {
  PB_URI='mongodb://u:***@h/'
  declare -gA PB_SCALE=()
  local want
  want=$(jq_config)
  without_jq
  run pb::stage_config
  assert_success
  assert_output "$want"
  assert_output --partial '"uriMode":true,"target":'
  assert_output --partial '"scaleParams":{},"params":{}}'
}

@test "odd values and plain ones alike: the config holds jq's bytes, whichever writer made it" {
  local v want
  for v in 1e3 1.50 1.0 0.00001 1234567890123456 12345678901234.56 007 -0 '' 'é' $'line\nbreak' $'bell\a' \
    0.001 99999999999999.9 -2.25 true false True null '{"j":1}'; do
    want=$(jq_config "k=${v}")
    run pb::stage_config "k=${v}"
    assert_success
    assert_output "$want"
  done
}

@test "pairs jq's capture skips (an empty key, a newline in the value) go to jq, which skips them" {
  local want
  want=$(jq_config '=1' $'k=a\nb' ok=1)
  run pb::stage_config '=1' $'k=a\nb' ok=1
  assert_success
  assert_output "$want"
  assert_output --partial '"params":{"ok":1}'
}

@test "a path outside printable ASCII goes to jq" {
  PB_ROOT='/home/josé/dba-lab'
  without_jq
  run pb::stage_config run=A
  assert_failure
  assert_output --partial "jq started"
}
