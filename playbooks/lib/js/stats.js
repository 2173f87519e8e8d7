'use strict';
// Statistics the playbooks report and judge verdicts with. Plain Node
// (CommonJS): require it from a mongosh stage file,
//   const stats = require(require('path').resolve(__dirname, '../../js/stats.js'));
// or from node in tests, on recorded numbers.

function numbers(values, fn) {
  if (!Array.isArray(values) || values.length === 0) throw new Error(`stats.${fn}: needs a non-empty array of numbers`);
  const out = values.map(Number);
  if (out.some((v) => !Number.isFinite(v))) throw new Error(`stats.${fn}: every value must be a finite number`);
  return out;
}

// Linear interpolation between closest ranks (numpy's default, R type 7),
// so p50 of an even count is the mean of the middle two.
function percentile(values, p) {
  const v = numbers(values, 'percentile').sort((a, b) => a - b);
  if (!(p >= 0 && p <= 100)) throw new Error('stats.percentile: p must be within 0..100');
  const rank = (p / 100) * (v.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return v[lo] + (v[hi] - v[lo]) * (rank - lo);
}

function median(values) {
  return percentile(values, 50);
}

function mean(values) {
  const v = numbers(values, 'mean');
  return v.reduce((a, b) => a + b, 0) / v.length;
}

// Sample standard deviation (n - 1), 0 for a single value.
function stddev(values) {
  const v = numbers(values, 'stddev');
  if (v.length < 2) return 0;
  const m = mean(v);
  return Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1));
}

// The latency table columns of the capped-pubsub article (docs/articles.md#capped-pubsub), and then some.
// Sorted once and read by rank: a sweep point can hold a million delivery
// latencies, too many for Math.min(...v) (V8 caps the argument count).
function summary(values) {
  const v = numbers(values, 'summary').sort((a, b) => a - b);
  const at = (p) => {
    const rank = (p / 100) * (v.length - 1);
    const lo = Math.floor(rank);
    return v[lo] + (v[Math.ceil(rank)] - v[lo]) * (rank - lo);
  };
  return {
    n: v.length,
    mean: mean(v),
    stddev: stddev(v),
    min: v[0],
    p50: at(50),
    p75: at(75),
    p95: at(95),
    p99: at(99),
    max: v[v.length - 1],
  };
}

// Least squares y = intercept + slope * x, with r2 (1 when every y is equal
// and the line is flat).
function linearFit(xs, ys) {
  const x = numbers(xs, 'linearFit');
  const y = numbers(ys, 'linearFit');
  if (x.length !== y.length) throw new Error('stats.linearFit: xs and ys differ in length');
  if (x.length < 2) throw new Error('stats.linearFit: needs at least two points');
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0) throw new Error('stats.linearFit: every x is the same');
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept: my - slope * mx, r2, n: x.length };
}

// How y grows with x over the measured range:
//  'flat'    the fitted line changes y by at most `tolerance` (relative to
//            the mean y) from the first x to the last, and the points stay
//            within that much of the mean (coefficient of variation);
//  'linear'  it grows by more, and the line explains the points (r2 >= minR2);
//  'irregular' otherwise (noisy, or falling).
function growth(xs, ys, { tolerance = 0.1, minR2 = 0.9 } = {}) {
  const fit = linearFit(xs, ys);
  const x = numbers(xs, 'growth');
  const span = Math.max(...x) - Math.min(...x);
  const m = mean(ys);
  const change = m === 0 ? Math.abs(fit.slope * span) : Math.abs(fit.slope * span) / Math.abs(m);
  const spread = m === 0 ? stddev(ys) : stddev(ys) / Math.abs(m);
  let kind = 'irregular';
  if (change <= tolerance && spread <= tolerance) kind = 'flat';
  else if (fit.slope > 0 && fit.r2 >= minR2) kind = 'linear';
  return { kind, relativeChange: change, spread, ...fit };
}

module.exports = { percentile, median, mean, stddev, summary, linearFit, growth };
