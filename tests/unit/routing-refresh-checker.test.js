'use strict';
// routing-refresh's checker on recorded durations: the article's own
// "before and after optimization" table (tests/fixtures/routing-refresh/
// article-table.json: one row per cluster, chunk counts in millions) given as
// the durations table measure.js writes, and the example report built from
// the article's real 4.2 mongos log lines (tests/fixtures/reports/
// routing-refresh/results.json). Both claims: REPRODUCED, NOT_REPRODUCED and
// NOT_APPLICABLE.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const SCEN = path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'routing-refresh');
const checker = require(path.join(SCEN, 'checker.js'));
const { runChecker, loadChecker } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'check.js'));
const ARTICLE = require(path.join(ROOT, 'tests', 'fixtures', 'routing-refresh', 'article-table.json'));
const RECORDED = require(path.join(ROOT, 'tests', 'fixtures', 'reports', 'routing-refresh', 'results.json'));

const COLUMNS = ['series', 'chunks', 'node', 'kind', 'medianMs', 'maxMs', 'firstQueryMs', 'refreshesLogged', 'reps'];

// Results of one version whose durations are [chunks, medianMs] of the mongos
// incremental refresh, with the measurements given.
function results(version, points, measured = {}) {
  return {
    versions: [{ requested: version, resolved: version, server: '' }],
    params: {},
    measurements: Object.entries(measured).map(([key, value]) => ({ version, key, value, unit: '' })),
    tables: {
      durations: {
        title: 'durations',
        columns: COLUMNS,
        rows: points.map(([chunks, ms]) => ({ version, values: [`${version} mongos incremental`, chunks, 'mongos', 'incremental', ms, ms, null, 1, 1] })),
      },
    },
  };
}
// The article's rows of one version: [chunks, before ms] or [chunks, after ms].
const article = (version, column) => ARTICLE.rows.filter((r) => r[0] === version)
  .map((r) => [r[2] * 1e6, r[ARTICLE.columns.indexOf(column)]]);
const of = (res, id) => checker.check(res).filter((v) => v.id === id);

test('the claims are listed for --dry-run; the checker loads through check.js', () => {
  assert.deepEqual(checker.claims.map((c) => c.id), ['linear', 'near-constant']);
  assert.doesNotThrow(() => loadChecker(path.join(SCEN, 'checker.js')));
});

test("linear: the article's two 5.0 clusters (910 ms at 2M chunks, 2600 ms at 5M) are too few to judge a line: NOT_APPLICABLE", () => {
  const [v] = of(results('5.0', article('5.0', 'beforeMs'), { chunkGrouping: 0 }), 'linear');
  assert.equal(v.result, 'NOT_APPLICABLE');
  assert.equal(v.why, 'needs at least 3 chunk counts with a logged refresh, had 2 (give --chunks with three counts or more)');
  assert.equal(v.observed, '+5.633 ms per 10k chunks (r² 1, 1690 ms over the range, 2 counts): grows with chunk count');
  assert.deepEqual(v.evidence, { points: 2, repetitions: 1 });
});

test("linear: the article's 5.0 clusters and a third count on their line (1755 ms at 3.5M) are REPRODUCED", () => {
  const [v] = of(results('5.0', [...article('5.0', 'beforeMs'), [3.5e6, 1755]], { chunkGrouping: 0 }), 'linear');
  assert.equal(v.result, 'REPRODUCED');
  assert.equal(v.claim, 'refresh time grows linearly with the chunk count (mongos, incremental refresh)');
  assert.match(v.observed, /3 counts\): grows with chunk count$/);
});

test("linear: the article's versions pooled rise too unevenly to call linear (r2 0.743): NOT_REPRODUCED", () => {
  const pooled = ARTICLE.rows.map((r) => [r[2] * 1e6, r[3]]);
  const [v] = of(results('pooled', pooled, { chunkGrouping: 0 }), 'linear');
  assert.equal(v.result, 'NOT_REPRODUCED');
  assert.equal(v.observed, '+7.139 ms per 10k chunks (r² 0.743, 3391 ms over the range, 5 counts): irregular');
});

test('linear: after the optimisation (2 ms at every size) the refresh does not grow: NOT_REPRODUCED', () => {
  const [v] = of(results('5.0', [...article('5.0', 'afterMs'), [3.5e6, 2]], { chunkGrouping: 1 }), 'linear');
  assert.deepEqual([v.result, v.observed], ['NOT_REPRODUCED', '+0 ms per 10k chunks (r² 1, 0 ms over the range, 3 counts): near-constant']);
});

test('linear: one chunk count per version (3.6, 4.0, 4.2 in the article) is NOT_APPLICABLE', () => {
  for (const version of ['3.6', '4.0', '4.2']) {
    const [v] = of(results(version, article(version, 'beforeMs'), { chunkGrouping: 0 }), 'linear');
    assert.deepEqual([v.result, v.why, v.version], ['NOT_APPLICABLE', 'needs at least 3 chunk counts with a logged refresh, had 1 (give --chunks with three counts or more)', version]);
  }
});

test("linear: shards that refused the full-refresh commands make their full series NOT_APPLICABLE", () => {
  const res = results('8.0.4', [], { chunkGrouping: 1, shardFullRefreshMeasurable: 0 });
  res.tables.durations.rows = [[1000, 'mongos', 20], [25000, 'mongos', 55], [50000, 'mongos', 90], [1000, 'shard', null], [50000, 'shard', null]]
    .map(([chunks, node, ms]) => ({ version: '8.0.4', values: [`8.0.4 ${node} full`, chunks, node, 'full', ms, ms, 5, ms === null ? 0 : 1, 1] }));
  const verdicts = of(res, 'linear');
  assert.deepEqual(verdicts.map((v) => [v.claim, v.result]), [
    ['refresh time grows linearly with the chunk count (mongos, full refresh)', 'REPRODUCED'],
    ['refresh time grows linearly with the chunk count (shard, full refresh)', 'NOT_APPLICABLE'],
  ]);
  assert.equal(verdicts[1].why, 'not measurable on this version: the shards refused the commands that force their refresh (see the notes)');
});

test('near-constant: with chunk grouping, 2 ms at 2M and 5M chunks is REPRODUCED', () => {
  const [v] = of(results('5.0', article('5.0', 'afterMs'), { chunkGrouping: 1 }), 'near-constant');
  assert.deepEqual([v.result, v.claim], ['REPRODUCED', 'an incremental refresh stays near-constant where chunk grouping is present (mongos)']);
});

test('near-constant: with chunk grouping, a refresh still growing with the chunks is NOT_REPRODUCED', () => {
  const [v] = of(results('5.0', article('5.0', 'beforeMs'), { chunkGrouping: 1 }), 'near-constant');
  assert.equal(v.result, 'NOT_REPRODUCED');
});

test('near-constant: one chunk count is NOT_APPLICABLE: a change over the range needs two', () => {
  const [v] = of(results('5.0', article('5.0', 'afterMs').slice(0, 1), { chunkGrouping: 1 }), 'near-constant');
  assert.deepEqual([v.result, v.why], ['NOT_APPLICABLE', 'needs at least 2 chunk counts with a logged refresh, had 1']);
});

test('near-constant: without chunk grouping, or when it is unknown, NOT_APPLICABLE with the reason', () => {
  const [none] = of(results('5.0', article('5.0', 'afterMs'), { chunkGrouping: 0 }), 'near-constant');
  assert.equal(none.why, 'this version has no chunk grouping (routingTableCacheChunkBucketSize unknown to the server)');
  const [unknown] = of(results('5.0', article('5.0', 'afterMs')), 'near-constant');
  assert.equal(unknown.why, 'chunk grouping could not be detected');
});

test('the recorded 4.2 log: four well-formed verdicts, each NOT APPLICABLE at one chunk count', () => {
  const records = runChecker(checker, RECORDED);
  assert.deepEqual(records.map((r) => [r.id, r.verdict, r.version]), [
    ['linear', 'NOT APPLICABLE', '4.2.24'], ['linear', 'NOT APPLICABLE', '4.2.24'],
    ['near-constant', 'NOT APPLICABLE', '4.2.24'], ['near-constant', 'NOT APPLICABLE', '4.2.24'],
  ]);
  assert.equal(records[0].observed, '1 chunk count(s) with a logged refresh');
});

test('a version whose run recorded no refresh: both claims NOT_APPLICABLE', () => {
  const verdicts = checker.check(results('6.0.20', [], { chunkGrouping: 1 }));
  assert.deepEqual(verdicts.map((v) => [v.id, v.result]), [['linear', 'NOT_APPLICABLE'], ['near-constant', 'NOT_APPLICABLE']]);
});

test('conclusion: within 5 ms or 20% of the mean over the range is near-constant', () => {
  assert.equal(checker.conclusion({ slopeMsPer10k: 1, change: 4.9, mean: 3, growth: 'linear' }), 'near-constant');
  assert.equal(checker.conclusion({ slopeMsPer10k: 1, change: 30, mean: 200, growth: 'linear' }), 'near-constant');
  assert.equal(checker.conclusion({ slopeMsPer10k: 1, change: 50, mean: 200, growth: 'linear' }), 'grows with chunk count');
  assert.equal(checker.conclusion({ slopeMsPer10k: 1, change: 50, mean: 200, growth: 'irregular' }), 'irregular');
});
