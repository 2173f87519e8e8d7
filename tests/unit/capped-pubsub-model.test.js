'use strict';
// capped-pubsub's model (playbooks/lib/scenarios/capped-pubsub/model.js)
// without a server: on the article's own latency tables (copied verbatim
// into tests/fixtures/capped-pubsub/article-tables.txt), on a sweep recorded
// against FerretDB (tests/fixtures/capped-pubsub/ferretdb-sweep, written by
// run.js), and on hand-made delivery sequences.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const SCEN = path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'capped-pubsub');
const SWEEP = path.join(ROOT, 'tests', 'fixtures', 'capped-pubsub', 'ferretdb-sweep');
const TABLES = path.join(ROOT, 'tests', 'fixtures', 'capped-pubsub', 'article-tables.txt');
const m = require(path.join(SCEN, 'model.js'));
const stats = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'stats.js'));

const point = (n) => JSON.parse(fs.readFileSync(path.join(SWEEP, `capped-${n}.json`), 'utf8'));
const article = () => JSON.parse(fs.readFileSync(path.join(SCEN, 'article.json'), 'utf8'));
const at = (ms) => new Date(1700000000000 + ms);

test("article.json holds exactly the numbers of the article's four latency tables", () => {
  const text = fs.readFileSync(TABLES, 'utf8');
  const ref = article();
  const names = { Runtime: 'runtime_s', Mean: 'mean', 'Standard Deviation': 'stddev', '75 percentile': 'p75', '95 percentile': 'p95', '99 percentile': 'p99', Minimum: 'min', Maximum: 'max' };
  const engines = text.split(/^(MMAP|WiredTiger)$/m);
  const same = [];
  for (let i = 1; i < engines.length; i += 2) {
    engines[i + 1].split(/^(publish_to_topics|fetch_from_topics) scenario results$/m).forEach((part, j, a) => {
      if (j % 2 === 0) return;
      const t = ref.tables.find((x) => x.engine.startsWith(engines[i]) && x.scenario === part);
      for (const line of a[j + 1].split('\n')) {
        const r = /^(Runtime|Mean|Standard Deviation|\d+ percentile|Minimum|Maximum) ~?([\d.]+) /.exec(line);
        if (r) same.push(t[names[r[1]]] === Number(r[2]));
      }
    });
  }
  assert.equal(same.length, 32);
  assert.ok(same.every(Boolean));
});

test("the article's layout: the WiredTiger publish table renders as the article prints it", () => {
  const t = article().tables[2];
  assert.deepEqual(m.articleRows(t, t.runtime_s).map((r) => r.join(' ')), [
    'Runtime 45.39 seconds', 'Mean 2.848 milliseconds', 'Standard Deviation 11.15 milliseconds',
    '75 percentile 2.432 milliseconds', '95 percentile 5.699 milliseconds', '99 percentile 22.597 milliseconds',
    'Minimum 0.74 milliseconds', 'Maximum 522.21 milliseconds',
  ]);
});

test("a recorded sweep point's summary is what its own raw latencies give", () => {
  const r = point(4);
  const s = stats.summary(r.latencies.deliveryMs);
  assert.equal(r.delivery.n, 240);
  assert.equal(m.round(s.p99, 3), m.round(r.delivery.p99, 3));
  assert.equal(m.round(s.mean, 3), m.round(r.delivery.mean, 3));
});

test('publish percentiles and stddev agree with Python statistics (type 7, inclusive quantiles)', () => {
  const file = path.join(SWEEP, 'capped-4.json');
  const py = execFileSync('python3', ['-c', `
import json, statistics, sys
r = json.load(open(sys.argv[1]))
q = statistics.quantiles(r['latencies']['publishMs'], n=100, method='inclusive')
print(round(q[98], 2), round(q[74], 2), round(statistics.stdev(r['latencies']['publishMs']), 2))`, file], { encoding: 'utf8' }).trim();
  const s = stats.summary(point(4).latencies.publishMs);
  assert.equal([s.p99, s.p75, s.stddev].map((x) => Math.round(x * 100) / 100).join(' '), py);
});

test('a recorded point becomes the publish, delivery and CPU rows', () => {
  const rows = m.pointRows(point(4));
  assert.deepEqual(
    { ...rows.publish, p75_ms: undefined, p95_ms: undefined, p99_ms: undefined, stddev_ms: undefined, min_ms: undefined, max_ms: undefined },
    { mode: 'capped', subscribers: 4, messages: 60, runtime_s: 2.96, rate_per_s: 20, target_per_s: 20, mean_ms: 29.304, p75_ms: undefined, p95_ms: undefined, p99_ms: undefined, stddev_ms: undefined, min_ms: undefined, max_ms: undefined },
  );
  assert.deepEqual(
    [rows.delivery.expected, rows.delivery.received, rows.delivery.lost, rows.delivery.duplicated, rows.delivery.gaps, rows.delivery.reopens],
    [240, 240, 0, 0, 0, 4],
  );
  assert.deepEqual(
    [rows.cpu.server_cpu_s, rows.cpu.cpu_ms_per_msg, rows.cpu.cpu_us_per_delivery, rows.cpu.source],
    [1.73, 28.8333, 7208.33, 'proc (serverStatus pid)'],
  );
});

test('idle CPU: server CPU seconds while listening, as a percentage of the idle window', () => {
  const r = point(4);
  assert.equal(m.pointRows(r).cpu.idle_cpu_pct, null);
  assert.equal(m.pointRows({ ...r, idle: { seconds: 2.004, cpuSeconds: 0.31 } }).cpu.idle_cpu_pct, 15.5);
  assert.equal(m.pointRows({ ...r, idle: { seconds: 2, cpuSeconds: null } }).cpu.idle_cpu_pct, null);
});

test('tracker: messages in order are all new, nothing lost', () => {
  const t = new m.Tracker(2);
  const got = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([pub, seq], i) => t.receive({ pub, seq, time: at(i) }));
  assert.deepEqual(got, ['new', 'new', 'new', 'new']);
  assert.deepEqual([t.received, t.lost([2, 2]), t.duplicates, t.gaps], [4, 0, 0, 0]);
});

test('tracker: what a reopened cursor reads again is overlap, a repeat on a live cursor is a duplicate', () => {
  const t = new m.Tracker(1, { marginMs: 1000 });
  t.receive({ pub: 0, seq: 0, time: at(0) });
  t.receive({ pub: 0, seq: 1, time: at(10) });
  const from = t.reopened('dead cursor');
  const again = [[0, 0], [1, 10], [2, 20], [2, 20]].map(([seq, ms]) => t.receive({ pub: 0, seq, time: at(ms) }));
  assert.equal(from.getTime() - at(10).getTime(), -1000);
  assert.deepEqual(again, ['overlap', 'overlap', 'new', 'duplicate']);
  assert.deepEqual([t.overlap, t.duplicates, t.reopens], [2, 1, { 'dead cursor': 1 }]);
});

test('tracker: CappedPositionLost then a jump in seq is a gap, and the skipped messages are lost', () => {
  const t = new m.Tracker(1);
  [0, 1, 2].forEach((s) => t.receive({ pub: 0, seq: s, time: at(s) }));
  t.reopened('CappedPositionLost');
  [7, 8].forEach((s) => t.receive({ pub: 0, seq: s, time: at(s) }));
  assert.deepEqual([t.gaps, t.gapMessages, t.outOfOrder, t.lost([9]), t.reopenCount()], [1, 4, 0, 4, 1]);
});

test('tracker: a jump without a reopen is out-of-order delivery, not a gap, and nothing is lost once it fills', () => {
  const t = new m.Tracker(1);
  [0, 2, 1].forEach((s) => t.receive({ pub: 0, seq: s, time: at(s) }));
  assert.deepEqual([t.gaps, t.outOfOrder, t.lost([3])], [0, 1, 0]);
});

test('tracker: a message without pub/seq is an error that says so', () => {
  assert.throws(() => new m.Tracker(1).receive({ pub: 3, seq: 0, time: new Date() }),
    { message: 'Tracker: message without a valid pub/seq ({"pub":3,"seq":0})' });
});

test('CPU from /proc/PID/stat: utime + stime after a command name with spaces and parentheses', () => {
  // proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
  assert.equal(m.parseProcStat('4242 (mongod (x) y) S 1 4242 4242 0 -1 4194560 9012 0 3 0 1234 567 0 0 20 0 31 0 100 0'), 1801);
});

test('CPU from ps -o cputime= on systems without /proc', () => {
  assert.deepEqual(['00:01:05', '1-02:03:04', '12:34.50'].map(m.parsePsCputime), [65, 93784, 754.5]);
});

test('CPU from serverStatus extra_info, or null where the server does not report it', () => {
  assert.equal(m.serverStatusCpuSeconds({ extra_info: { user_time_us: 1500000, system_time_us: 500000 } }), 2);
  assert.equal(m.serverStatusCpuSeconds({ pid: 1 }), null);
});

test('CPU growth: the fit of CPU per message against subscribers, described', () => {
  // By hand: mean x 17, Sxx 834, Sxy 10.18, slope 0.012206 ms = 12.21 us per subscriber;
  // mean y 0.236667, intercept 0.236667 - 17 x 0.012206 = 0.02916: 0.0414 ms at 1, 0.5174 ms at 40,
  // (0.51740 - 0.04137) / 0.04137 = +1151% from the start.
  const g = m.cpuGrowth([{ subscribers: 1, cpuMsPerMsg: 0.05 }, { subscribers: 10, cpuMsPerMsg: 0.14 }, { subscribers: 40, cpuMsPerMsg: 0.52 }]);
  assert.equal(g.fit.kind, 'linear');
  assert.equal(m.round(g.fit.slope * 1000, 2), 12.21);
  assert.equal(g.description, 'rises +1151% from 1 to 40 subscribers: fitted 0.0414 -> 0.5174 ms per message (slope 12.21 us per message per subscriber, r2 1)');
});

test('CPU growth: a rise of 64% from the first subscriber count is told as a rise, whatever its share of the mean', () => {
  // 31.1 -> 51.05 ms: +64% of the start, 49% of the mean (41.075): the words once read "flat" here.
  const g = m.cpuGrowth([{ subscribers: 1, cpuMsPerMsg: 31.1 }, { subscribers: 8, cpuMsPerMsg: 51.05 }]);
  assert.equal(m.round(g.trend.rise * 100, 0), 64);
  assert.match(g.description, /^rises \+64% from 1 to 8 subscribers: fitted 31\.1 -> 51\.05 ms per message/);
});

test('CPU growth: no fit without CPU figures, or with one subscriber count, and the reason says which', () => {
  assert.deepEqual(m.cpuGrowth([{ subscribers: 1, cpuMsPerMsg: null }, { subscribers: 10, cpuMsPerMsg: null }]),
    { fit: null, reason: 'no server CPU figures (no readable process and no serverStatus extra_info CPU times)' });
  assert.deepEqual(m.cpuGrowth([{ subscribers: 10, cpuMsPerMsg: 1 }]),
    { fit: null, reason: 'needs at least two subscriber counts (--subscribers 1,10,40)' });
});
