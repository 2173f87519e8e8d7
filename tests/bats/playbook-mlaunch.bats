#!/usr/bin/env bats
# mlaunch wrapper (playbooks/lib/mlaunch.sh): reading `mlaunch list --json
# --startup`, the planned layout, ports, and data-directory ownership.
# The list documents below are written from mtools 1.7.2 mlaunch.py list()
# (.tools/venv/lib/python3.11/site-packages/mtools/mlaunch/mlaunch.py, lines
# 1011-1144): mongos first, None, config servers, None, then per shard its
# name, its members indented by four spaces, None; "startup command" is the
# running process's command line joined by spaces, or the stored one (with
# quotes) when the process is down.

# shellcheck disable=SC2034 # the PB_* globals set in the tests are read by the framework
bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
  load_framework
}

@test "a sharded list: roles trimmed, shard names kept, log paths from the command lines" {
  local d=/tmp/lab/7.0.12
  run pb::_processes_from_list_json <<EOF
[{"process": "mongos", "port": 27100, "status": "running", "pid": 4101, "startup command": "/b/mongos --logpath ${d}/mongos.log --port 27100 --configdb configRepl/localhost:27104 --fork"},
 null,
 {"process": "config server", "port": 27104, "status": "running", "pid": 4100, "startup command": "/b/mongod --replSet configRepl --dbpath ${d}/configRepl/rs1/db --logpath ${d}/configRepl/rs1/mongod.log --port 27104 --fork --configsvr"},
 null,
 "shard01",
 {"process": "    primary", "port": 27101, "status": "running", "pid": 4098, "startup command": "/b/mongod --replSet shard01 --dbpath ${d}/shard01/rs1/db --logpath ${d}/shard01/rs1/mongod.log --port 27101 --fork --shardsvr"},
 null,
 "shard02",
 {"process": "    mongod", "port": 27102, "status": "down", "pid": "-", "startup command": "\"/b/mongod\" --replSet shard02 --dbpath \"${d}/shard02/rs1/db\" --logpath \"${d}/shard02/rs1/mongod.log\" --port 27102 --fork --shardsvr"},
 null]
EOF
  assert_success
  assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    mongos 27100 4101 running "${d}/mongos.log" '' \
    'config server' 27104 4100 running "${d}/configRepl/rs1/mongod.log" '' \
    primary 27101 4098 running "${d}/shard01/rs1/mongod.log" shard01 \
    mongod 27102 - down "${d}/shard02/rs1/mongod.log" shard02)"
}

@test "a single node list without --startup still gives role, port, pid" {
  run pb::_processes_from_list_json <<<'[{"process": "single", "port": 27100, "status": "running", "pid": 77}]'
  assert_success
  assert_output "$(printf 'single\t27100\t77\trunning\t\t')"
}

@test "before launch the planned layout names every process and log path mlaunch will create" {
  PB_TOPOLOGY=sharded PB_SHARDS=2 PB_NODES=2 PB_ARBITER=1 PB_CONFIG_SERVERS=1 PB_MONGOS=2 PB_PORT=30000
  run pb::cluster_processes /tmp/lab
  assert_success
  assert_output "$(printf '%s\t%s\t-\tplanned\t%s\t%s\n' \
    mongos 30000 /tmp/lab/mongos/mongos_30000.log '' \
    mongos 30001 /tmp/lab/mongos/mongos_30001.log '' \
    primary 30002 /tmp/lab/shard01/rs1/mongod.log shard01 \
    secondary 30003 /tmp/lab/shard01/rs2/mongod.log shard01 \
    arbiter 30004 /tmp/lab/shard01/arb/mongod.log shard01 \
    primary 30005 /tmp/lab/shard02/rs1/mongod.log shard02 \
    secondary 30006 /tmp/lab/shard02/rs2/mongod.log shard02 \
    arbiter 30007 /tmp/lab/shard02/arb/mongod.log shard02 \
    'config server' 30008 /tmp/lab/configRepl/rs1/mongod.log '')"
  # The same ports pb::cluster_ports checks in preflight.
  run pb::cluster_ports
  assert_success
  assert_output "$(seq 30000 30008)"
}

@test "planned layouts of a single node and of a replica set" {
  PB_TOPOLOGY=single PB_PORT=30100
  run pb::cluster_processes /tmp/lab
  assert_success
  assert_output "$(printf 'single\t30100\t-\tplanned\t/tmp/lab/mongod.log\t')"
  PB_TOPOLOGY=replset PB_NODES=1 PB_ARBITER=0 PB_REPLSET_NAME=rs PB_CLUSTER_DIR=/tmp/lab
  run pb::node_logs primary
  assert_success
  assert_output /tmp/lab/rs/rs1/mongod.log
}

@test "a directory that exists is never claimed" {
  mkdir -p "${BATS_TEST_TMPDIR}/theirs"
  run pb::claim_dir "${BATS_TEST_TMPDIR}/theirs"
  assert_failure
  assert_output --partial 'already exists: this run never reuses a directory it did not create'
}

@test "a claimed directory is deleted; one whose mark names another run is kept" {
  pb::claim_dir "${BATS_TEST_TMPDIR}/mine"
  pb::release_dir "${BATS_TEST_TMPDIR}/mine"
  [[ ! -e "${BATS_TEST_TMPDIR}/mine" ]]
  mkdir -p "${BATS_TEST_TMPDIR}/other"
  printf 'another-run\n' >"${BATS_TEST_TMPDIR}/other/.dba-lab-run"
  run pb::release_dir "${BATS_TEST_TMPDIR}/other"
  assert_success
  assert_output --partial "not deleting ${BATS_TEST_TMPDIR}/other: this run did not create it"
  [[ -e "${BATS_TEST_TMPDIR}/other/.dba-lab-run" ]]
}

@test "teardown counts as its own only processes whose command line names the cluster folder" {
  sleep 300 &
  local pid=$!
  run pb::_pid_in_dir "$pid" /tmp/lab/7.0.12
  kill "$pid"
  assert_failure
}

@test "the port check sees a listening socket" {
  local port
  port=$(free_port_base)
  run pb::port_free "$port"
  assert_success
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(5)' "$port" &
  local pid=$! _
  for _ in $(seq 50); do pb::port_free "$port" || break; sleep 0.1; done
  run pb::port_free "$port"
  kill "$pid"
  assert_failure
}

@test "pb::mongos_hosts lists the mongos routers on the first ports" {
  PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=2
  run pb::mongos_hosts
  assert_success
  assert_output 'localhost:27100,localhost:27101'
}

@test "pb::config_uri names configRepl on the ports after the mongos and every shard member" {
  PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=3 PB_ARBITER=0 PB_CONFIG_SERVERS=3
  run pb::config_uri
  assert_success
  assert_output 'mongodb://localhost:27107,localhost:27108,localhost:27109/?replicaSet=configRepl'
  # The same ports as the planned layout (mlaunch's order).
  run bash -c "$(declare -f pb::cluster_ports); PB_TOPOLOGY=sharded PB_PORT=27100 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=3 PB_ARBITER=0 PB_CONFIG_SERVERS=3; pb::cluster_ports | tail -n 3 | paste -sd,"
  assert_success
  assert_output '27107,27108,27109'
}

@test "pb::config_uri counts each shard's arbiter" {
  PB_TOPOLOGY=sharded PB_PORT=30000 PB_MONGOS=1 PB_SHARDS=2 PB_NODES=2 PB_ARBITER=1 PB_CONFIG_SERVERS=1
  run pb::config_uri
  assert_success
  assert_output 'mongodb://localhost:30007/?replicaSet=configRepl'
}
