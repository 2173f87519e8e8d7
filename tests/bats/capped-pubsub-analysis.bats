#!/usr/bin/env bats
# capped-pubsub's statistics and verdicts without a server
# (playbooks/lib/scenarios/capped-pubsub/pubsub.js, analyze.js): on the
# article's own latency tables (seed 002), on a sweep recorded against
# FerretDB (tests/fixtures/capped-pubsub/ferretdb-sweep, written by load.js),
# and on hand-made delivery sequences.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  SCEN="${DBA_LAB_ROOT}/playbooks/lib/scenarios/capped-pubsub"
  SWEEP="${DBA_LAB_ROOT}/tests/fixtures/capped-pubsub/ferretdb-sweep"
  # The MMAP and WiredTiger sections of seed 002, copied verbatim.
  SEED="${DBA_LAB_ROOT}/tests/fixtures/capped-pubsub/seed-002-tables.txt"
  export SCEN SWEEP SEED
}

js() {
  node -e "const p = require(process.env.SCEN + '/model.js'); const fs = require('fs'); console.log(JSON.stringify((() => { $1 })()))"
}

@test "article.json holds exactly the numbers of the article's four latency tables" {
  run js "
    const text = fs.readFileSync(process.env.SEED, 'utf8');
    const ref = JSON.parse(fs.readFileSync(process.env.SCEN + '/article.json', 'utf8'));
    const names = {Runtime: 'runtime_s', Mean: 'mean', 'Standard Deviation': 'stddev', '75 percentile': 'p75', '95 percentile': 'p95', '99 percentile': 'p99', Minimum: 'min', Maximum: 'max'};
    const engines = text.split(/^(MMAP|WiredTiger)\$/m);
    const out = [];
    for (let i = 1; i < engines.length; i += 2) {
      engines[i + 1].split(/^(publish_to_topics|fetch_from_topics) scenario results\$/m).forEach((part, j, a) => {
        if (j % 2 === 0) return;
        const t = ref.tables.find((x) => x.engine.startsWith(engines[i]) && x.scenario === part);
        for (const line of a[j + 1].split('\n')) {
          const m = /^(Runtime|Mean|Standard Deviation|\d+ percentile|Minimum|Maximum) ~?([\d.]+) /.exec(line);
          if (m) out.push(t[names[m[1]]] === Number(m[2]));
        }
      });
    }
    return [out.length, out.every(Boolean)];"
  assert_success
  assert_output '[32,true]'
}

@test "the article's layout: the WiredTiger publish table renders as the article prints it" {
  run js "
    const t = JSON.parse(fs.readFileSync(process.env.SCEN + '/article.json', 'utf8')).tables[2];
    return p.articleRows(t, t.runtime_s).map((r) => r.join(' '));"
  assert_output '["Runtime 45.39 seconds","Mean 2.848 milliseconds","Standard Deviation 11.15 milliseconds","75 percentile 2.432 milliseconds","95 percentile 5.699 milliseconds","99 percentile 22.597 milliseconds","Minimum 0.74 milliseconds","Maximum 522.21 milliseconds"]'
}

@test "a recorded sweep point's summary is what its own raw latencies give (type 7 percentiles, checked by Python)" {
  local file="${SWEEP}/capped-4.json"
  run js "
    const r = JSON.parse(fs.readFileSync('${file}', 'utf8'));
    const s = require(process.env.SCEN + '/../../js/stats.js').summary(r.latencies.deliveryMs);
    return [r.delivery.n, p.round(s.p99, 3) === p.round(r.delivery.p99, 3), p.round(s.mean, 3) === p.round(r.delivery.mean, 3)];"
  assert_output '[240,true,true]'
  run python3 -c "
import json, statistics
r = json.load(open('${file}'))
q = statistics.quantiles(r['latencies']['publishMs'], n=100, method='inclusive')
print(round(q[98], 2), round(q[74], 2), round(statistics.stdev(r['latencies']['publishMs']), 2))"
  local expected
  expected=$(node -e "const r = require('${file}'); const s = require(process.env.SCEN + '/../../js/stats.js').summary(r.latencies.publishMs); console.log([s.p99, s.p75, s.stddev].map((x) => Math.round(x * 100) / 100).join(' '))")
  assert_output "$expected"
}

@test "a recorded point becomes the publish, delivery and CPU rows" {
  run js "const r = JSON.parse(fs.readFileSync(process.env.SWEEP + '/capped-4.json', 'utf8')); return p.pointRows(r);"
  assert_output --partial '"publish":{"mode":"capped","subscribers":4,"messages":60,"runtime_s":2.96,"rate_per_s":20,"target_per_s":20,"mean_ms":29.304,'
  assert_output --partial '"delivery":{"mode":"capped","subscribers":4,"expected":240,"received":240,"lost":0,"duplicated":0,"gaps":0,"reopens":4,'
  assert_output --partial '"cpu":{"mode":"capped","subscribers":4,"server_cpu_s":1.73,"cpu_ms_per_msg":28.8333,"cpu_us_per_delivery":7208.33,"source":"proc (serverStatus pid)",'
}

@test "idle CPU: server CPU seconds while listening, as a percentage of the idle window" {
  run js "const r = JSON.parse(fs.readFileSync(process.env.SWEEP + '/capped-4.json', 'utf8')); return [p.pointRows(r).cpu.idle_cpu_pct, p.pointRows({...r, idle: {seconds: 2.004, cpuSeconds: 0.31}}).cpu.idle_cpu_pct, p.pointRows({...r, idle: {seconds: 2, cpuSeconds: null}}).cpu.idle_cpu_pct];"
  assert_output '[null,15.5,null]'
}

@test "tracker: messages in order are all new, nothing lost" {
  run js "
    const t = new p.Tracker(2);
    const at = (s) => new Date(1700000000000 + s);
    const r = [[0,0],[1,0],[0,1],[1,1]].map(([pub, seq], i) => t.receive({pub, seq, time: at(i)}));
    return [r, t.received, t.lost([2, 2]), t.duplicates, t.gaps];"
  assert_output '[["new","new","new","new"],4,0,0,0]'
}

@test "tracker: what a reopened cursor reads again is overlap, a repeat on a live cursor is a duplicate" {
  run js "
    const t = new p.Tracker(1, {marginMs: 1000});
    const at = (s) => new Date(1700000000000 + s);
    t.receive({pub: 0, seq: 0, time: at(0)});
    t.receive({pub: 0, seq: 1, time: at(10)});
    const from = t.reopened('dead cursor');
    const again = [t.receive({pub: 0, seq: 0, time: at(0)}), t.receive({pub: 0, seq: 1, time: at(10)}), t.receive({pub: 0, seq: 2, time: at(20)}), t.receive({pub: 0, seq: 2, time: at(20)})];
    return [from.getTime() - at(10).getTime(), again, t.overlap, t.duplicates, t.reopens];"
  assert_output '[-1000,["overlap","overlap","new","duplicate"],2,1,{"dead cursor":1}]'
}

@test "tracker: CappedPositionLost then a jump in seq is a gap, and the skipped messages are lost" {
  run js "
    const t = new p.Tracker(1);
    const at = (s) => new Date(1700000000000 + s);
    [0, 1, 2].forEach((s) => t.receive({pub: 0, seq: s, time: at(s)}));
    t.reopened('CappedPositionLost');
    [7, 8].forEach((s) => t.receive({pub: 0, seq: s, time: at(s)}));
    return [t.gaps, t.gapMessages, t.outOfOrder, t.lost([9]), t.reopenCount()];"
  assert_output '[1,4,0,4,1]'
}

@test "tracker: a jump without a reopen is out-of-order delivery, not a gap, and nothing is lost once it fills" {
  run js "
    const t = new p.Tracker(1);
    const at = (s) => new Date(1700000000000 + s);
    [0, 2, 1].forEach((s) => t.receive({pub: 0, seq: s, time: at(s)}));
    return [t.gaps, t.outOfOrder, t.lost([3])];"
  assert_output '[0,1,0]'
}

@test "tracker: a message without pub/seq is an error that says so" {
  run js "try { new p.Tracker(1).receive({pub: 3, seq: 0, time: new Date()}); return 'no error'; } catch (e) { return e.message; }"
  assert_output '"Tracker: message without a valid pub/seq ({\"pub\":3,\"seq\":0})"'
}

@test "CPU from /proc/PID/stat: utime + stime after a command name with spaces and parentheses" {
  # proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
  run js "return p.parseProcStat('4242 (mongod (x) y) S 1 4242 4242 0 -1 4194560 9012 0 3 0 1234 567 0 0 20 0 31 0 100 0');"
  assert_output '1801'
}

@test "CPU from ps -o cputime= on systems without /proc" {
  run js "return ['00:01:05', '1-02:03:04', '12:34.50'].map(p.parsePsCputime);"
  assert_output '[65,93784,754.5]'
}

@test "CPU from serverStatus extra_info, or null where the server does not report it" {
  run js "return [p.serverStatusCpuSeconds({extra_info: {user_time_us: 1500000, system_time_us: 500000}}), p.serverStatusCpuSeconds({pid: 1})];"
  assert_output '[2,null]'
}

@test "CPU claim: CPU per message rising in line with subscribers is REPRODUCED" {
  # By hand: mean x 17, Sxx 834, Sxy 10.18, slope 0.012206 ms = 12.21 us per subscriber.
  run js "const v = p.cpuClaim([{subscribers: 1, cpuMsPerMsg: 0.05}, {subscribers: 10, cpuMsPerMsg: 0.14}, {subscribers: 40, cpuMsPerMsg: 0.52}]); return [v.holds, v.kind, p.round(v.slopeMsPerSubscriber * 1000, 2)];"
  assert_output '[true,"linear",12.21]'
}

@test "CPU claim: CPU per message flat across subscribers is NOT REPRODUCED" {
  run js "const v = p.cpuClaim([{subscribers: 1, cpuMsPerMsg: 0.10}, {subscribers: 10, cpuMsPerMsg: 0.11}, {subscribers: 40, cpuMsPerMsg: 0.105}]); return [v.holds, v.kind];"
  assert_output '[false,"flat"]'
}

@test "CPU claim on the recorded FerretDB sweep: scattered points are not called either way" {
  run js "
    const pts = [1, 2, 4].map((n) => JSON.parse(fs.readFileSync(process.env.SWEEP + '/capped-' + n + '.json', 'utf8')));
    const v = p.cpuClaim(pts.map((r) => ({subscribers: r.subscribers, cpuMsPerMsg: p.pointRows(r).cpu.cpu_ms_per_msg})));
    return [v.holds, v.kind, /scatter/.test(v.reason)];"
  assert_output '[null,"irregular",true]'
}

@test "CPU claim without CPU figures or with one point is NOT APPLICABLE with the reason" {
  run js "return [p.cpuClaim([{subscribers: 1, cpuMsPerMsg: null}, {subscribers: 10, cpuMsPerMsg: null}]).reason, p.cpuClaim([{subscribers: 10, cpuMsPerMsg: 1}]).reason];"
  assert_output '["no server CPU figures (no readable process and no serverStatus extra_info CPU times)","needs at least two subscriber counts (--subscribers 1,10,40)"]'
}

@test "restart claim: documents still there after the restart is NOT REPRODUCED, none left is REPRODUCED" {
  run js "return [p.restartClaim(1201, 1201).holds, p.restartClaim(1201, 1201).observed, p.restartClaim(50, 0).holds, p.restartClaim(0, 0).holds];"
  assert_output '[false,"1201 of 1201 documents after the restart",true,null]'
}

@test "growth claim: the server's refusal (collection_impl.cpp, code 10003) is REPRODUCED with the error" {
  run js "return p.growClaim({allowed: false, oldSize: 59, code: 10003, codeName: 'CannotGrowDocumentInCappedNamespace', errmsg: 'Cannot change the size of a document in a capped collection: 59 != 170'}, '5.0');"
  assert_output '{"claim":"documents in a capped collection cannot grow","expected":"refused at FCV 5.0 (SERVER-20529, 3.2 to 5.2)","observed":"refused: CannotGrowDocumentInCappedNamespace (10003) Cannot change the size of a document in a capped collection: 59 != 170","holds":true}'
}

@test "growth claim: allowed from FCV 5.3 (SERVER-58865) is NOT REPRODUCED" {
  run js "const v = p.growClaim({allowed: true, oldSize: 59, newSize: 170}, '8.0'); return [v.holds, v.expected, v.observed];"
  assert_output '[false,"allowed at FCV 8.0 (SERVER-58865, 5.3+)","allowed: 59 -> 170 bytes"]'
}

@test "what the source says per feature compatibility version" {
  run js "return ['3.0', '4.4', '5.2', '5.3', '6.0', null].map(p.expectedGrowth);"
  assert_output '["shrinking allowed, growing refused before 3.2 (MMAPv1 records)","refused at FCV 4.4 (SERVER-20529, 3.2 to 5.2)","refused at FCV 5.2 (SERVER-20529, 3.2 to 5.2)","allowed at FCV 5.3 (SERVER-58865, 5.3+)","allowed at FCV 6.0 (SERVER-58865, 5.3+)","refused below FCV 5.3 (SERVER-20529), allowed from FCV 5.3 (SERVER-58865)"]'
}

@test "shard claim: refused on a cluster is REPRODUCED, elsewhere NOT APPLICABLE" {
  run js "return [p.shardClaim({sharded: true, refused: true, code: 72, codeName: 'InvalidOptions', errmsg: \"can't shard a capped collection\"}).observed, p.shardClaim({sharded: true, refused: false}).holds, p.shardClaim({sharded: false}).holds];"
  assert_output "[\"refused: InvalidOptions (72) can't shard a capped collection\",false,null]"
}

@test "replication claim: the topic's inserts in the oplog, NOT APPLICABLE off a replica set" {
  run js "return [p.replicationClaim('replset', 1503), p.replicationClaim('replset', 0).holds, p.replicationClaim(undefined, 0).reason];"
  assert_output $'[{"claim":"capped collections replicate (their inserts are in the oplog)","expected":"the topic\'s inserts in the oplog","observed":"1503 insert(s) of the topic in replset\'s oplog","holds":true},false,"not connected to a replica set member (standalone or mongos)"]'
}

@test "delivery and rate claims from the recorded sweep" {
  run js "
    const pts = [1, 2, 4].map((n) => JSON.parse(fs.readFileSync(process.env.SWEEP + '/capped-' + n + '.json', 'utf8')));
    const lossy = [{...pts[0], lost: 3, duplicates: 1}];
    return [p.deliveryClaim(pts).observed, p.deliveryClaim(pts).holds, p.deliveryClaim(lossy).holds, p.rateClaim(pts).holds, p.rateClaim([{...pts[0], scheduleSeconds: pts[0].scheduleSeconds * 2}]).holds];"
  assert_output '["420 delivered, 0 lost, 0 duplicated",true,false,true,false]'
}

@test "analyze.js turns the recorded sweep into tables, verdicts and a note on the missing change streams" {
  load playbook_helper
  load_framework
  export PB_VERSION=7.0.42
  run pb::mongosh_stage --nodb "${SCEN}/measure.js" "dir=${SWEEP}" declare=1 "article=${SCEN}/article.json"
  assert_success
  run jq -rs '[.[] | select(.type == "verdict") | .verdict + ": " + .claim] | join("\n")' "$PB_RECORDS"
  assert_output "NOT APPLICABLE: more tailing cursors raise server CPU markedly (CPU per message grows with subscribers)
REPRODUCED: every subscriber receives every published message
REPRODUCED: publishers keep the target write rate"
  run jq -rs '[.[] | select(.type == "row" and .table == "delivery") | .row | "\(.subscribers) \(.received)/\(.expected)"] | join(",")' "$PB_RECORDS"
  assert_output "1 60/60,2 120/120,4 240/240"
  run jq -rs '[.[] | select(.type == "table") | .name] | join(" ")' "$PB_RECORDS"
  assert_output "publish-latency delivery cpu article publish-capped-1 publish-capped-2 publish-capped-4"
  run jq -rs '[.[] | select(.type == "note") | .text] | map(select(test("changestream fan-out did not run"))) | length' "$PB_RECORDS"
  assert_output 1
}
