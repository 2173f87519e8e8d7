'use strict';
// array-push-oplog's checker on recorded sizes: the curves of
// tests/fixtures/array-push-oplog/facts-sizes.json ($v:1, $v:2, and the array-push-oplog article's
// 2.2 behaviour where every $push was logged whole) and its per-second fix,
// laid out as the curve-<version> tables and fix.* measurements of a run.
// Every claim's REPRODUCED, NOT_REPRODUCED and NOT_APPLICABLE.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const DIR = path.join(ROOT, 'playbooks/lib/scenarios/array-push-oplog');
const checker = require(path.join(DIR, 'checker.js'));
const { runChecker } = require(path.join(ROOT, 'playbooks/lib/js/check.js'));
const f = require(path.join(ROOT, 'tests/fixtures/array-push-oplog/facts-sizes.json'));

const tag = (v) => v.replace(/[^0-9a-z]/gi, '-').toLowerCase();

// runs: {VERSION: {curves: {pattern: [{length, bytes}]}, fix}}
function results(runs) {
  const tables = {};
  const measurements = [];
  for (const [version, { curves, fix }] of Object.entries(runs)) {
    const rows = [];
    for (const [pattern, points] of Object.entries(curves)) {
      for (const p of points) rows.push({ version, values: [pattern, p.length, p.bytes, '', '', ''] });
    }
    tables[`curve-${tag(version)}`] = { title: version, columns: ['pattern', 'length', 'bytes', 'format', 'array', 'elements'], rows };
    if (fix) for (const [k, v] of Object.entries(fix)) measurements.push({ version, key: `fix.${k}`, value: v, unit: 'B' });
  }
  return { measurements, tables, params: {}, versions: Object.keys(runs).map((v) => ({ requested: v, resolved: v, server: v })) };
}

const pick = (r, id, version) => checker.check(r).find((v) => v.id === id && (!version || v.version === version));
const brief = (v) => [v.result, v.observed, v.why || ''];

test('$v:2 sizes: plain $push NOT, $slice REPRODUCED, the fix over 100x; one version: no comparison', () => {
  const all = checker.check(results({ '8.0.4': { curves: f.v2, fix: f.fix } }));
  assert.deepEqual(all.map((v) => [v.id, v.version, ...brief(v)]), [
    ['push', '8.0.4', 'NOT_REPRODUCED', 'flat: 443 B at 1 readings, 446 B at 3599', ''],
    ['push-slice', '8.0.4', 'REPRODUCED', 'linear: 445 B at 1 readings, 343.7 KB at 3599', ''],
    ['fix', '8.0.4', 'REPRODUCED', '265.3x (push-sort: 603.7 MB vs per-second: 2.3 MB per device-hour)', ''],
    ['versions', 'all', 'NOT_APPLICABLE', 'only 8.0.4 measured', 'needs at least 2 versions, had 1 (give --mongodb-version A,B to compare)'],
  ]);
});

test('every verdict is one check.js accepts', () => {
  assert.equal(runChecker(checker, results({ '4.4.29': { curves: f.v1, fix: f.fix }, '8.0.4': { curves: f.v2, fix: f.fix } })).length, 7);
});

test("the array-push-oplog article's 2.2 behaviour (every $push logged whole) makes the plain $push claim REPRODUCED", () => {
  const r = results({ '2.2.7': { curves: f.article22, fix: f.fix } });
  assert.equal(pick(r, 'push').result, 'REPRODUCED');
  assert.match(pick(r, 'fix').observed, /\(push: /);
});

test('push and push-slice not selected are NOT_APPLICABLE', () => {
  const r = results({ '8.0.4': { curves: { 'set-one': f.v2['set-one'] }, fix: f.fix } });
  assert.deepEqual(brief(pick(r, 'push')), ['NOT_APPLICABLE', 'not measured', 'pattern push was not selected (--patterns)']);
  assert.deepEqual(brief(pick(r, 'push-slice')), ['NOT_APPLICABLE', 'not measured', 'pattern push-slice was not selected (--patterns)']);
});

test('a capped $push that stays flat is NOT_REPRODUCED', () => {
  const r = results({ '8.0.4': { curves: { 'push-slice': f.v2.push }, fix: null } });
  assert.equal(pick(r, 'push-slice').result, 'NOT_REPRODUCED');
});

test('scattered sizes are irregular and give NOT_APPLICABLE, not a guess', () => {
  const r = results({ '8.0.4': { curves: { push: [{ length: 1, bytes: 400 }, { length: 600, bytes: 9000 }, { length: 1200, bytes: 300 }, { length: 1800, bytes: 8000 }] } } });
  assert.equal(pick(r, 'push').result, 'NOT_APPLICABLE');
  assert.match(pick(r, 'push').why, /neither stay flat nor grow/);
});

test('the fix: a ratio under 100x is NOT_REPRODUCED; not measured or no whole-array append pattern is NOT_APPLICABLE', () => {
  const under = results({ '8.0.4': { curves: f.v2, fix: { ...f.fix, compactionDeleteBytes: 5e6 } } });
  assert.equal(pick(under, 'fix').result, 'NOT_REPRODUCED');
  const none = results({ '8.0.4': { curves: f.v2 } });
  assert.deepEqual(brief(pick(none, 'fix')), ['NOT_APPLICABLE', 'fix not measured', 'pattern per-second was not selected (--patterns)']);
  const flat = results({ '8.0.4': { curves: { push: f.v2.push, 'set-one': f.v2['set-one'] }, fix: f.fix } });
  assert.deepEqual(brief(pick(flat, 'fix')), ['NOT_APPLICABLE', 'no append pattern grew with the array', 'no measured append pattern replicated the whole array on this version']);
});

test('versions compared: $v:1 and $v:2 log the same patterns whole', () => {
  const r = results({ '4.4.29': { curves: f.v1, fix: f.fix }, '8.0.4': { curves: f.v2, fix: f.fix } });
  const v = pick(r, 'versions');
  assert.equal(v.result, 'REPRODUCED');
  assert.equal(v.version, 'all');
});

test("versions compared: 2.2's whole-array $push differs from a modern $v:2 server", () => {
  const r = results({ '2.2.7': { curves: f.article22 }, '8.0.4': { curves: f.v2 } });
  assert.deepEqual(brief(pick(r, 'versions')), ['NOT_REPRODUCED', '2.2.7: push, push-slice; 8.0.4: push-slice', '']);
});

test('versions compared count only the patterns every version measured', () => {
  const r = results({ '4.4.29': { curves: { addtoset: f.v1.addtoset, push: f.v1.push } }, '8.0.4': { curves: { push: f.v2.push } } });
  assert.deepEqual(brief(pick(r, 'versions')), ['REPRODUCED', '4.4.29: none; 8.0.4: none', '']);
});

test('versions either side of 7.1 are predicted to differ on $addToSet, and do', () => {
  const r = results({ '4.4.29': { curves: f.v1 }, '8.0.4': { curves: { ...f.v2, ...f.v2from71 } } });
  const v = recordOf(r, 'versions');
  assert.deepEqual([v.verdict, v.prediction], ['NOT REPRODUCED', 'AS PREDICTED']);
  assert.match(v.observed, /^4\.4\.29: addtoset, pop-first, .*; 8\.0\.4: pop-first, /);
  assert.match(v.predictionBasis.reason, /^\$addToSet logged as the whole array: 4\.4\.29 yes, 8\.0\.4 no \(from SERVER-72941/);
  assert.equal(v.predictionBasis.source.url, 'https://jira.mongodb.org/browse/SERVER-72941');
});

test('versions on one side of 7.1 are predicted to log the same patterns whole', () => {
  const r = results({ '5.0.31': { curves: f.v2 }, '7.0.12': { curves: f.v2 } });
  const v = recordOf(r, 'versions');
  assert.deepEqual([v.verdict, v.prediction], ['REPRODUCED', 'AS PREDICTED']);
});

test('a rapid release outside the table (7.1) leaves the versions claim with no prediction, not a default', () => {
  const later = recordOf(results({ '7.1.1': { curves: { ...f.v2, ...f.v2from71 } }, '8.0.4': { curves: { ...f.v2, ...f.v2from71 } } }), 'versions');
  assert.deepEqual([later.verdict, later.prediction, later.predictionBasis], ['REPRODUCED', 'NO PREDICTION', { none: 'no prediction for 7.1' }]);
});

test('versions straddling 7.1 with $addToSet not measured on both are predicted alike: the prediction rests on what was compared', () => {
  const r = results({ '4.4.29': { curves: { push: f.v1.push, 'push-slice': f.v1['push-slice'] } }, '8.0.4': { curves: { push: f.v2.push, 'push-slice': f.v2['push-slice'] } } });
  assert.deepEqual([recordOf(r, 'versions').verdict, recordOf(r, 'versions').prediction], ['REPRODUCED', 'AS PREDICTED']);
});

test('a 7.0 that logged $addToSet as appended elements would be NOT AS PREDICTED', () => {
  const r = results({ '4.4.29': { curves: f.v1 }, '7.0.12': { curves: { ...f.v2, ...f.v2from71 } } });
  assert.deepEqual([recordOf(r, 'versions').verdict, recordOf(r, 'versions').prediction], ['NOT REPRODUCED', 'NOT AS PREDICTED']);
});

test('a version without its curve table is NOT_APPLICABLE for its claims', () => {
  const r = results({ '8.0.4': { curves: f.v2 } });
  r.versions.push({ requested: '7.0', resolved: '7.0.12', server: '7.0.12' });
  assert.deepEqual(brief(pick(r, 'push', '7.0.12')), ['NOT_APPLICABLE', 'not measured', 'no curve table for 7.0.12']);
});

test('the recorded report (tests/fixtures/reports) gives its per-version verdicts', () => {
  const recorded = require(path.join(ROOT, 'tests/fixtures/reports/array-push-oplog/results.json'));
  const all = checker.check({ measurements: recorded.measurements, tables: recorded.tables, params: {}, versions: recorded.environment.versions });
  const decided = all.filter((v) => v.id !== 'fix').map((v) => [v.id, v.version, v.result]);
  assert.deepEqual(decided, [
    ['push', '4.4', 'NOT_REPRODUCED'], ['push-slice', '4.4', 'REPRODUCED'],
    ['push', '8.0', 'NOT_REPRODUCED'], ['push-slice', '8.0', 'REPRODUCED'],
    ['versions', 'all', 'REPRODUCED'],
  ]);
});

const recordOf = (r, id, version) => runChecker(checker, r).find((v) => v.id === id && (!version || v.version === version));
// The first N array lengths of every curve.
const firstLengths = (curves, n) => Object.fromEntries(Object.entries(curves).map(([p, points]) => [p, points.slice(0, n)]));

test('a curve of two array lengths is NOT_APPLICABLE for push, push-slice and the fix: a curve needs three', () => {
  const r = results({ '8.0.4': { curves: firstLengths(f.v2, 2), fix: f.fix } });
  for (const id of ['push', 'push-slice', 'fix']) {
    const v = pick(r, id);
    assert.equal(v.result, 'NOT_APPLICABLE', id);
    assert.equal(v.evidence.points, 2, id);
  }
  assert.equal(pick(r, 'push-slice').why, 'needs at least 3 array lengths, had 2');
});

test('three array lengths are enough: push-slice judged, with its evidence recorded', () => {
  const v = recordOf(results({ '8.0.4': { curves: firstLengths(f.v2, 3), fix: f.fix } }), 'push-slice');
  assert.deepEqual([v.verdict, v.evidence.summary], ['REPRODUCED', '3 array lengths']);
});

test('push: flat on 8.0 is NOT REPRODUCED and AS PREDICTED; whole on 2.2, outside the table, has no prediction', () => {
  const modern = recordOf(results({ '8.0.4': { curves: f.v2, fix: f.fix } }), 'push');
  assert.deepEqual([modern.verdict, modern.prediction], ['NOT REPRODUCED', 'AS PREDICTED']);
  const old = recordOf(results({ '2.2.7': { curves: f.article22, fix: f.fix } }), 'push');
  assert.deepEqual([old.verdict, old.prediction, old.predictionBasis.none], ['REPRODUCED', 'NO PREDICTION', 'no prediction for 2.2']);
});

test('push: a modern server logging a plain $push whole is NOT AS PREDICTED', () => {
  const v = recordOf(results({ '8.0.4': { curves: { ...f.v2, push: f.article22.push }, fix: f.fix } }), 'push');
  assert.deepEqual([v.verdict, v.prediction], ['REPRODUCED', 'NOT AS PREDICTED']);
});
