'use strict';
// routing-refresh's checker: the article's two claims decided per version
// from the durations measure.js recorded (table durations: median server
// durationMillis per chunk count, node and kind of refresh) and what prepare.js
// and run.js measured (chunkGrouping; shardFullRefreshMeasurable 0 when the
// shards refused the commands that force their refresh). Pure: no I/O.
const path = require('path');
const { versions, measurement, rows } = require(path.resolve(__dirname, '../../js/results.js'));
const model = require(path.resolve(__dirname, 'model.js'));
const { judge, shortfall } = require(path.resolve(__dirname, '../../js/evidence.js'));
const { predict } = require(path.resolve(__dirname, '../../js/predictions.js'));
const PREDICTIONS = require(path.resolve(__dirname, 'predictions.js'));

// A series is near-constant when the fitted line changes by at most
// NEAR_CONSTANT_MS over the measured range (durationMillis has 1 ms
// resolution) or NEAR_CONSTANT_RELATIVE of its mean; it grows with the chunk
// count when it rises by more than that and stats.growth calls it linear.
const NEAR_CONSTANT_MS = 5;
const NEAR_CONSTANT_RELATIVE = 0.2;
// A line through two points always fits: "grows linearly" is judged on three
// chunk counts or more. "Near-constant" is a change over the range, which
// two counts already show.
const LINEAR_MIN_POINTS = 3;
const NEAR_CONSTANT_MIN_POINTS = 2;
const POINTS_OF = 'chunk counts with a logged refresh';

const claims = [
  { id: 'linear', claim: 'refresh time grows linearly with the chunk count', expected: 'grows with chunk count',
    needs: { minPoints: LINEAR_MIN_POINTS, pointsOf: POINTS_OF, hint: 'give --chunks with three counts or more' } },
  {
    id: 'near-constant',
    claim: 'an incremental refresh stays near-constant where chunk grouping is present',
    expected: `near-constant (within ${NEAR_CONSTANT_MS} ms or ${NEAR_CONSTANT_RELATIVE * 100}% over the range)`,
    needs: { minPoints: NEAR_CONSTANT_MIN_POINTS, pointsOf: POINTS_OF },
  },
];
const CLAIM = Object.fromEntries(claims.map((c) => [c.id, c]));

// What a fitted series shows.
function conclusion(f) {
  if (f.slopeMsPer10k === undefined) return 'not enough chunk counts';
  if (Math.abs(f.change) <= Math.max(NEAR_CONSTANT_MS, NEAR_CONSTANT_RELATIVE * Math.abs(f.mean))) return 'near-constant';
  if (f.growth === 'linear') return 'grows with chunk count';
  return 'irregular';
}

function describe(f) {
  if (f.slopeMsPer10k === undefined) return `${f.points} chunk count(s) with a logged refresh`;
  return `${f.slopeMsPer10k >= 0 ? '+' : ''}${f.slopeMsPer10k} ms per 10k chunks (r² ${f.r2}, ${f.changeMs} ms over the range, ${f.points} counts): ${conclusion(f)}`;
}

// What a series had: its chunk counts and the fewest refreshes logged at one of them.
function evidenceOf(f, summary) {
  const logged = summary.filter((r) => r.node === f.node && r.kind === f.kind && r.medianMs !== null && r.medianMs !== undefined)
    .map((r) => Number(r.refreshesLogged)).filter(Number.isFinite);
  return { points: f.points, ...(logged.length ? { repetitions: Math.min(...logged) } : {}) };
}

function linear(f, version, shardFullMeasurable, summary) {
  const base = { id: 'linear', claim: `${CLAIM.linear.claim} (${f.node}, ${f.kind} refresh)`, expected: CLAIM.linear.expected, observed: describe(f), version };
  const judged = (fields) => judge(CLAIM.linear.needs, evidenceOf(f, summary), { ...base, ...fields });
  if (f.node === 'shard' && f.kind === 'full' && !shardFullMeasurable) {
    return judged({ result: 'NOT_APPLICABLE', why: 'not measurable on this version: the shards refused the commands that force their refresh (see the notes)' });
  }
  const short = shortfall(CLAIM.linear.needs, evidenceOf(f, summary));
  if (short) return judged({ result: 'NOT_APPLICABLE', why: short });
  return judged({ result: conclusion(f) === 'grows with chunk count' ? 'REPRODUCED' : 'NOT_REPRODUCED' });
}

function nearConstant(f, version, grouping, summary) {
  const base = { id: 'near-constant', claim: `${CLAIM['near-constant'].claim} (${f.node})`, expected: CLAIM['near-constant'].expected, observed: describe(f), version };
  const judged = (fields) => judge(CLAIM['near-constant'].needs, evidenceOf(f, summary), { ...base, ...fields });
  if (grouping !== 1) {
    return judged({
      ...base,
      result: 'NOT_APPLICABLE',
      why: grouping === 0 ? 'this version has no chunk grouping (routingTableCacheChunkBucketSize unknown to the server)' : 'chunk grouping could not be detected',
    });
  }
  const short = shortfall(CLAIM['near-constant'].needs, evidenceOf(f, summary));
  if (short) return judged({ result: 'NOT_APPLICABLE', why: short });
  return judged({ result: conclusion(f) === 'near-constant' ? 'REPRODUCED' : 'NOT_REPRODUCED' });
}

// An incremental refresh's growth is predicted apart from a full one's: chunk grouping changed only it.
const predictionId = (v) => (v.id === 'linear' && v.kind === 'incremental' ? 'linear:incremental' : v.id);

function check(results) {
  const out = [];
  for (const version of versions(results)) {
    const label = version || 'all';
    const summary = rows(results, 'durations', version);
    if (!summary.length) {
      for (const c of claims) {
        out.push({ id: c.id, claim: c.claim, expected: c.expected, observed: '', version: label, result: 'NOT_APPLICABLE', why: 'no refresh was recorded for this version (the run did not get that far)', evidence: { points: 0 } });
      }
      continue;
    }
    const fitList = model.fits(summary);
    const grouping = measurement(results, version, 'chunkGrouping');
    const shardFullMeasurable = measurement(results, version, 'shardFullRefreshMeasurable') !== 0;
    for (const f of fitList) out.push({ ...linear(f, label, shardFullMeasurable, summary), kind: f.kind });
    for (const f of fitList.filter((x) => x.kind === 'incremental')) out.push(nearConstant(f, label, grouping, summary));
  }
  return out.map(({ kind, ...v }) => ({ ...v, predicted: predict(PREDICTIONS, predictionId({ ...v, kind }), v.version, results) }));
}

module.exports = { claims, check, conclusion, NEAR_CONSTANT_MS, NEAR_CONSTANT_RELATIVE, LINEAR_MIN_POINTS, NEAR_CONSTANT_MIN_POINTS };
