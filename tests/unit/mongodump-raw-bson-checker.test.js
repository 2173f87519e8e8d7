'use strict';
// mongodump-raw-bson's checker on recorded measurements: the example report
// of a real run against FerretDB (tests/fixtures/reports/mongodump-raw-bson/
// results.json, rebuilt by tests/fixtures/reports/build.sh), the article's own
// figures (dump 1.46 s, restore 79.8 s) through model.js, and medians chosen
// to fall on each side of the thresholds. Every claim: REPRODUCED,
// NOT_REPRODUCED and NOT_APPLICABLE.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const SCEN = path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'mongodump-raw-bson');
const FIX = path.join(ROOT, 'tests', 'fixtures', 'mongodump-raw-bson');
const checker = require(path.join(SCEN, 'checker.js'));
const model = require(path.join(SCEN, 'model.js'));
const { runChecker, loadChecker } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'check.js'));
const RECORDED = require(path.join(ROOT, 'tests', 'fixtures', 'reports', 'mongodump-raw-bson', 'results.json'));
const V = '8.0.4';

// Results of version V from median wall/CPU seconds: {'tiny.mongodump-dir': [wall, cpu, serverCpu?]},
// each the median of RUNS clean runs (the timing table's runs column).
const measured = (figures, runs = 3) => ({
  versions: [{ requested: '8.0', resolved: V, server: '' }],
  tables: {
    timing: {
      title: 'timing', columns: ['shape', 'method', 'runs'],
      rows: Object.keys(figures).map((k) => ({ version: V, values: [...k.split('.'), runs] })),
    },
  },
  params: {},
  measurements: Object.entries(figures).flatMap(([k, [wall, cpu, server]]) => [
    { version: V, key: `${k}.wallSeconds`, value: wall, unit: 's' },
    { version: V, key: `${k}.cpuSeconds`, value: cpu, unit: 's' },
    ...(server === undefined ? [] : [{ version: V, key: `${k}.serverCpuSeconds`, value: server, unit: 's' }]),
  ]),
});
const verdicts = (results, id) => checker.check(results).filter((v) => v.id === id);
const only = (results, id) => {
  const found = verdicts(results, id);
  assert.equal(found.length, 1, `one ${id} verdict`);
  return found[0];
};

// A tiny shape where decoding is the whole difference: raw 1.2x dump, decoded 3x.
const DECODING_COSTS = {
  'tiny.mongodump-dir': [1.0, 0.2], 'tiny.driver-raw': [1.2, 0.5], 'tiny.driver-decoded': [3.0, 2.4],
  'tiny.mongosh-toArray': [5.0, 4.5], 'tiny.mongoexport': [4.0, 3.0], 'tiny.mongorestore': [12.0, 1.0],
};

test('the claims are listed for --dry-run; the checker loads through check.js', () => {
  assert.deepEqual(checker.claims.map((c) => c.id), ['decoding', 'raw', 'restore', 'shape']);
  assert.doesNotThrow(() => loadChecker(path.join(SCEN, 'checker.js')));
});

test('the recorded FerretDB run: seven well-formed verdicts, every one NOT REPRODUCED there', () => {
  const records = runChecker(checker, RECORDED);
  assert.deepEqual(records.map((r) => [r.id, r.verdict, r.version]), [
    ['decoding', 'NOT REPRODUCED', '7.0.42'], ['raw', 'NOT REPRODUCED', '7.0.42'], ['restore', 'NOT REPRODUCED', '7.0.42'],
    ['decoding', 'NOT REPRODUCED', '7.0.42'], ['raw', 'NOT REPRODUCED', '7.0.42'], ['restore', 'NOT REPRODUCED', '7.0.42'],
    ['shape', 'NOT REPRODUCED', '7.0.42'],
  ]);
  assert.equal(records[0].claim, '[tiny] mongodump is much faster than a decoding reader');
  assert.equal(records[6].observed, 'nested 0.7x vs tiny 0.9x');
});

test("decoding: the decoded driver read at 3x mongodump's time is REPRODUCED, with the other decoding readers", () => {
  const v = only(measured(DECODING_COSTS), 'decoding');
  assert.deepEqual([v.result, v.observed], ['REPRODUCED', '3.0x (3.00 s vs 1.00 s; mongosh toArray 5.0x, mongoexport 4.0x)']);
});

test("decoding: FerretDB's decoded read faster than mongodump is NOT_REPRODUCED", () => {
  const [tiny] = verdicts(RECORDED, 'decoding');
  assert.deepEqual([tiny.result, tiny.observed], ['NOT_REPRODUCED', '0.9x (0.61 s vs 0.71 s; mongosh toArray 2.0x, mongoexport 1.1x)']);
});

test("decoding: the article's figures have no decoding read, NOT_APPLICABLE naming the missing method", () => {
  const list = fs.readFileSync(path.join(FIX, 'article.jsonl'), 'utf8').split('\n').filter(Boolean).map(JSON.parse);
  const shapes = JSON.parse(fs.readFileSync(path.join(FIX, 'article-shapes.json'), 'utf8'));
  const analyzed = model.analyze(list, shapes);
  const article = {
    ...measured({}),
    measurements: analyzed.measurements.map((x) => ({ version: V, ...x })),
    tables: { timing: { title: 'timing', columns: model.TIMING_COLUMNS, rows: analyzed.rows.map((r) => ({ version: V, values: model.TIMING_COLUMNS.map((c) => r[c]) })) } },
  };
  const v = only(article, 'decoding');
  assert.deepEqual([v.result, v.why], ['NOT_APPLICABLE', 'no successful run of driver-decoded (see the timing table and run.log)']);
  // 54.7x (79.80 s vs 1.46 s), but each the article's single run: too little to judge.
  const restore = only(article, 'restore');
  assert.deepEqual([restore.result, restore.why], ['NOT_APPLICABLE', 'needs at least 2 clean runs of each method compared, had 1 (give --repeats 3 or more)']);
  assert.match(restore.observed, /^54\.7x \(79\.80 s vs 1\.46 s\)/);
});

test('raw: a raw read close to mongodump while decoding slows it 2.5x is REPRODUCED', () => {
  const v = only(measured(DECODING_COSTS), 'raw');
  assert.deepEqual([v.result, v.observed], ['REPRODUCED', 'raw 1.20x mongodump; decoded 2.50x raw; client CPU raw 0.50 s vs decoded 2.40 s']);
});

test('raw: a raw read at 2x mongodump is NOT_REPRODUCED, and without a raw run NOT_APPLICABLE', () => {
  assert.equal(only(measured({ ...DECODING_COSTS, 'tiny.driver-raw': [2.0, 0.5] }), 'raw').result, 'NOT_REPRODUCED');
  const { 'tiny.driver-raw': gone, ...noRaw } = DECODING_COSTS;
  assert.ok(gone);
  assert.equal(only(measured(noRaw), 'raw').why, 'no successful run of driver-raw (see the timing table and run.log)');
});

test("restore: 12x mongodump is REPRODUCED, and the server's CPU says where the time went", () => {
  const v = only(measured({ ...DECODING_COSTS, 'tiny.mongodump-dir': [1.46, 0.5, 1.2], 'tiny.mongorestore': [79.8, 3.0, 72.5] }), 'restore');
  assert.equal(v.result, 'REPRODUCED');
  assert.equal(v.observed, "54.7x (79.80 s vs 1.46 s); mongorestore's own CPU was 3.00 s, 4% of its wall time, the server's 72.50 s (mongodump: client 0.50 s, server 1.20 s): the time goes to the server's inserts");
});

test('restore: 3x mongodump is NOT_REPRODUCED; no restore run is NOT_APPLICABLE', () => {
  assert.equal(only(measured({ ...DECODING_COSTS, 'tiny.mongorestore': [3.0, 1.0] }), 'restore').result, 'NOT_REPRODUCED');
  const { 'tiny.mongorestore': gone, ...noRestore } = DECODING_COSTS;
  assert.ok(gone);
  assert.equal(only(measured(noRestore), 'restore').result, 'NOT_APPLICABLE');
});

test('shape: a larger decoded/mongodump factor for nested documents is REPRODUCED', () => {
  const both = { ...DECODING_COSTS, 'nested.mongodump-dir': [1.0, 0.1], 'nested.driver-decoded': [8.0, 7.5] };
  const v = only(measured(both), 'shape');
  assert.deepEqual([v.result, v.observed], ['REPRODUCED', 'nested 8.0x vs tiny 3.0x']);
  assert.equal(verdicts(measured(both), 'decoding').length, 2, 'one decoding verdict per shape');
});

test('shape: NOT_APPLICABLE with one shape, or without a decoded read of both', () => {
  assert.equal(only(measured(DECODING_COSTS), 'shape').why, 'needs both document shapes (--shape both)');
  const noDecodedNested = { ...DECODING_COSTS, 'nested.mongodump-dir': [1.0, 0.1] };
  assert.equal(only(measured(noDecodedNested), 'shape').why, "needs the decoded-vs-mongodump factor of both shapes");
});

test('a version with nothing timed: every claim NOT_APPLICABLE, per version', () => {
  const two = measured(DECODING_COSTS);
  two.versions.push({ requested: '6.0', resolved: '6.0.20', server: '' });
  const of60 = checker.check(two).filter((v) => v.version === '6.0.20');
  assert.deepEqual(of60.map((v) => [v.id, v.result]), [
    ['decoding', 'NOT_APPLICABLE'], ['raw', 'NOT_APPLICABLE'], ['restore', 'NOT_APPLICABLE'], ['shape', 'NOT_APPLICABLE'],
  ]);
  assert.ok(checker.check(two).filter((v) => v.version === V).every((v) => v.id === 'shape' || v.result === 'REPRODUCED'));
});

test('every claim needs two clean runs of each method it compares; one run is NOT_APPLICABLE with the reason', () => {
  assert.ok(checker.claims.every((c) => c.needs.minRepetitions === checker.MIN_RUNS && checker.MIN_RUNS === 2));
  const once = checker.check(measured({ ...DECODING_COSTS, 'nested.mongodump-dir': [1.0, 0.2], 'nested.driver-decoded': [4.0, 3.0] }, 1));
  assert.equal(once.length, 7);
  for (const v of once) {
    assert.equal(v.result, 'NOT_APPLICABLE', v.id);
    assert.match(v.why, /^needs at least 2 clean runs of each method compared, had 1|^no successful run of/, v.id);
  }
  assert.equal(once.find((v) => v.id === 'restore').why, 'needs at least 2 clean runs of each method compared, had 1 (give --repeats 3 or more)');
});

test('the verdicts record the fewest clean runs behind the medians they compare', () => {
  const records = runChecker(checker, RECORDED);
  assert.ok(records.every((r) => r.evidence.repetitions === 2));
  assert.equal(records[0].evidence.summary, '2 clean runs of each method compared');
});
