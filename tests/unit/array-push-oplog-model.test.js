'use strict';
// array-push-oplog's model (playbooks/lib/scenarios/array-push-oplog/model.js)
// on recorded numbers, no server: the oplog entry sizes of
// tests/fixtures/array-push-oplog/facts-sizes.json (entries written after the
// documented $v:1/$v:2 formats and sized with mongosh's bsonsize; the bats file
// array-push-oplog-model.bats checks them against mongosh) and replSetGetStatus
// answers of 4.4 and 8.0 (status-*.json).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const m = require(path.join(ROOT, 'playbooks/lib/scenarios/array-push-oplog/model.js'));
const FIX = path.join(ROOT, 'tests/fixtures/array-push-oplog');
const f = require(path.join(FIX, 'facts-sizes.json'));
const st = (v) => structuredClone(require(path.join(FIX, `status-${v}.json`)));

test('a plain $push ($v:1 positional $set, $v:2 array diff) is flat: constant bytes at any length', () => {
  assert.deepEqual(['v1', 'v2'].map((v) => m.classify(f[v].push).kind), ['flat', 'flat']);
  assert.deepEqual(['v1', 'v2'].map((v) => m.classify(f[v]['set-one']).kind), ['flat', 'flat']);
});

test('whole-array entries ($slice, $sort, $position, $addToSet before 7.1, $pull, $pop) are linear in both formats', () => {
  for (const v of ['v1', 'v2']) {
    for (const p of ['push-slice', 'push-sort', 'push-position0', 'addtoset', 'pull', 'pop-first', 'pop-last']) {
      assert.equal(m.classify(f[v][p]).kind, 'linear', `${v} ${p}`);
    }
  }
});

test('from 7.1 a $addToSet of a new element is logged like a $push: flat', () => {
  assert.equal(m.classify(f.v2from71.addtoset).kind, 'flat');
  assert.deepEqual(f.v2from71.addtoset, f.v2.push);
});

test("a whole-array entry grows by one reading's bytes (~98, the article's ~100) per element", () => {
  assert.equal(Math.round(m.classify(f.v2['push-sort']).slope), 98);
});

test('a device-hour adds up the measured bytes at every length 0..3599', () => {
  assert.equal(m.hourBytes([{ length: 1, bytes: 100 }, { length: 3599, bytes: 100 }]), 360000);
  // sum of (100 + L) for L = 0..3599 = 360000 + 3599 x 3600 / 2
  assert.equal(m.hourBytes([{ length: 0, bytes: 100 }, { length: 3600, bytes: 3700 }]), 6838200);
});

test("the hour table: ratios to the fix; the load's worst/best are ways to ingest, capped $slice left out", () => {
  const { rows, worst, best } = m.hourTable(f.v2, f.fix);
  assert.deepEqual([worst, best, rows.find((r) => r.pattern === 'push').vsFix], ['push-sort', 'push', 0.67]);
});

test('lag on 4.4: optimeDate, whole seconds, per secondary', () => {
  assert.deepEqual(m.lagFromStatus(st('4.4')), {
    primary: 'localhost:27100',
    members: [
      { name: 'localhost:27101', state: 'SECONDARY', lagMs: 3000, source: 'optimeDate' },
      { name: 'localhost:27102', state: 'SECONDARY', lagMs: 0, source: 'optimeDate' },
    ],
  });
});

test('lag where members carry lastAppliedWallTime: milliseconds', () => {
  assert.deepEqual(m.lagFromStatus(st('8.0')).members.map((x) => [x.lagMs, x.source]), [[0, 'lastAppliedWallTime'], [1247, 'lastAppliedWallTime']]);
});

// The last case keeps member 2's heartbeat-stale optime: wall times decide where reported.
test("caught up only when every secondary has applied the primary's newest write", () => {
  const p4 = st('4.4').members[0];
  const p8 = st('8.0').members[0];
  assert.equal(m.caughtUp(st('4.4')), false);
  assert.equal(m.caughtUp(st('8.0')), false);
  assert.equal(m.caughtUp({ members: st('4.4').members.map((x) => ({ ...x, optime: p4.optime })) }), true);
  assert.equal(m.caughtUp({ members: st('8.0').members.map((x) => ({ ...x, lastAppliedWallTime: p8.lastAppliedWallTime })) }), true);
});

test('no primary in the status is an error that says so', () => {
  assert.throws(() => m.lagFromStatus({ members: [{ name: 'a', state: 2 }] }), /replSetGetStatus shows no primary/);
});

test("the compaction's deletes are told apart from their oplog entries (batched applyOps from 6.1)", () => {
  assert.match(m.deletesText(3600, 3600, 430000), /^3600 deletes \(3600 entries\) [^:]+$/);
  assert.match(m.deletesText(3600, 4, 300000), /^3600 deletes \(4 entries\) .+: batched, several deletes per applyOps entry \(6\.1\+\)$/);
});

test('patterns: a list is kept in the table order; an unknown name is refused with the known ones', () => {
  assert.deepEqual(m.selectPatterns('per-second,push'), ['push', 'per-second']);
  assert.throws(() => m.selectPatterns('push,bogus'), /unknown pattern 'bogus' \(known: push, push-slice, .*, per-second\)/);
});

test('the curve text names the kind and both ends of the curve', () => {
  assert.equal(m.curveText(f.v2.push, 'flat'), 'flat: 443 B at 1 readings, 446 B at 3599');
});
