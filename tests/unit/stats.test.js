'use strict';
// playbooks/lib/js/stats.js: the numbers behind the playbooks' tables and verdicts.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const stats = require(path.resolve(__dirname, '../../playbooks/lib/js/stats.js'));

test('percentiles interpolate between ranks', () => {
  assert.equal(stats.percentile([1, 2, 3, 4], 50), 2.5);
  assert.equal(stats.percentile([10, 20, 30, 40, 50], 75), 40);
  assert.equal(stats.percentile([5], 99), 5);
});

test("the summary has the article's latency columns", () => {
  assert.deepEqual(stats.summary([4, 1, 3, 2]), {
    n: 4,
    mean: 2.5,
    stddev: 1.2909944487358056,
    min: 1,
    p50: 2.5,
    p75: 3.25,
    p95: 3.8499999999999996,
    p99: 3.9699999999999998,
    max: 4,
  });
});

test('a least-squares fit finds the slope of a line', () => {
  assert.deepEqual(stats.linearFit([1, 2, 3, 4], [3, 5, 7, 9]), { slope: 2, intercept: 1, r2: 1, n: 4 });
});

test('constant sizes classify as flat', () => {
  assert.equal(stats.growth([100, 900, 1800, 3600], [211, 212, 212, 213]).kind, 'flat');
});

test('sizes growing with the array length classify as linear', () => {
  assert.equal(stats.growth([100, 900, 1800, 3600], [1200, 9200, 18200, 36200]).kind, 'linear');
});

test('scattered points classify as irregular', () => {
  assert.equal(stats.growth([1, 2, 3, 4, 5], [10, 90, 5, 80, 12]).kind, 'irregular');
});

test('an empty array is an Error that names the function', () => {
  assert.throws(() => stats.mean([]), { message: 'stats.mean: needs a non-empty array of numbers' });
});

test('a fit where every x is the same is an Error that names the function', () => {
  assert.throws(() => stats.linearFit([1, 1], [2, 3]), { message: 'stats.linearFit: every x is the same' });
});

test('the summary of a million latencies stays within the call stack and agrees with percentile', () => {
  const v = Array.from({ length: 1000000 }, (_, i) => ((i * 7919) % 1000003) / 1000);
  const s = stats.summary(v);
  assert.equal(s.n, 1000000);
  assert.equal(s.min, 0);
  assert.equal(s.max, 1000.002);
  assert.equal(s.p99, stats.percentile(v, 99));
  assert.equal(s.p75, stats.percentile(v, 75));
});
