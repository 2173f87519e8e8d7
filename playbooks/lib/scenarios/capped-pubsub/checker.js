'use strict';
// capped-pubsub's checker: the article's claims decided from what the run
// measured (pb::check runs it on the run's records). Pure: no server, no I/O.
//   measurements (run-claims.js): grow.*, shard.*, replicate.*, restart.*
//   tables (measure.js): cpu, delivery, publish-latency, one row per sweep point
const path = require('path');
const { versions, measurement, rows } = require(path.resolve(__dirname, '../../js/results.js'));
const model = require(path.resolve(__dirname, 'model.js'));
const { judge, shortfall } = require(path.resolve(__dirname, '../../js/evidence.js'));
const { predict } = require(path.resolve(__dirname, '../../js/predictions.js'));
const PREDICTIONS = require(path.resolve(__dirname, 'predictions.js'));

// "Markedly": the fitted CPU per message at the most subscribers is more
// than this share above its value at the fewest (+50%: 1.5 times), on a line
// that explains the points (r2 at least CPU_MIN_R2). The share is of the
// sweep's start, as "rises > 50%" reads: a reader checks it from the two
// fitted figures the verdict shows. "Pretty much exactly 1000": within this
// share of the target rate.
const CPU_MARKEDLY = 0.5;
const CPU_MIN_R2 = 0.9;
const RATE_TOLERANCE = 0.05;
// A line through two points always fits: the CPU trend is judged on three
// subscriber counts or more.
const CPU_MIN_POINTS = 3;

const claims = [
  { id: 'grow', claim: 'documents in a capped collection cannot grow', expected: 'an update that adds bytes is refused' },
  { id: 'shard', claim: 'capped collections cannot be sharded', expected: "shardCollection refused (InvalidOptions: can't shard a capped collection)" },
  { id: 'replicate', claim: 'capped collections replicate (their inserts are in the oplog)', expected: "the topic's inserts in the oplog" },
  { id: 'restart', claim: 'capped collections are in-memory only: their documents are gone after a restart', expected: '0 documents after a restart' },
  { id: 'cpu', claim: 'more tailing cursors raise server CPU markedly (CPU per message grows with subscribers)', expected: `CPU per message rises > ${CPU_MARKEDLY * 100}% across the sweep, linearly (r2 >= ${CPU_MIN_R2})`,
    needs: { minPoints: CPU_MIN_POINTS, pointsOf: 'subscriber counts with server CPU figures', hint: 'give --subscribers with three counts or more, e.g. 1,10,40' } },
  { id: 'delivery', claim: 'every subscriber receives every published message', expected: 'every delivery made, 0 lost, 0 duplicated',
    needs: { minPoints: 1, pointsOf: 'sweep points of the capped fan-out' } },
  { id: 'rate', claim: 'publishers keep the target write rate', expected: `within ${RATE_TOLERANCE * 100}% of the target at every point`,
    needs: { minPoints: 1, pointsOf: 'sweep points' } },
];
const CLAIM = Object.fromEntries(claims.map((c) => [c.id, c]));

const verdict = (id, version, fields) => ({ id, claim: CLAIM[id].claim, expected: CLAIM[id].expected, observed: '', version: version || 'all', ...fields });
const decided = (holds) => (holds ? 'REPRODUCED' : 'NOT_REPRODUCED');
const error = (code, codeName, errmsg) => `${codeName || ''}${code !== undefined && code !== '' ? ` (${code})` : ''} ${errmsg || ''}`.trim();

function grow(results, version) {
  const m = (k) => measurement(results, version, `grow.${k}`);
  const allowed = m('allowed');
  if (allowed === undefined) {
    return verdict('grow', version, { result: 'NOT_APPLICABLE', why: 'no growth probe was recorded for this version' });
  }
  const fcv = m('featureCompatibilityVersion');
  // The server checks the FCV, not the binary (collection_impl.cpp); with no
  // FCV read, a freshly launched server runs at its own version's.
  const known = fcv === 'unknown' ? '' : String(fcv || '');
  return verdict('grow', version, {
    predictAt: known,
    observed: `${allowed
      ? `allowed: ${m('oldSizeBytes')} -> ${m('newSizeBytes')} bytes`
      : `refused: ${error(m('errorCode'), m('errorCodeName'), m('errmsg'))}`}${known ? ` (FCV ${known})` : ''}`,
    result: decided(!allowed),
  });
}

function shard(results, version) {
  const m = (k) => measurement(results, version, `shard.${k}`);
  if (m('cluster') !== true) {
    return verdict('shard', version, { result: 'NOT_APPLICABLE', why: 'not a sharded cluster (launch with --sharded, or --uri to a mongos)' });
  }
  const refused = m('refused') === true;
  return verdict('shard', version, {
    observed: refused ? `refused: ${error(m('errorCode'), m('errorCodeName'), m('errmsg'))}` : 'shardCollection succeeded',
    result: decided(refused),
  });
}

// "The capped collections will however replicate across to secondaries": the
// topic's inserts counted in the oplog of the replica set member answering.
function replicate(results, version) {
  const setName = measurement(results, version, 'replicate.setName');
  const inserts = measurement(results, version, 'replicate.oplogInserts');
  if (!setName || !Number.isFinite(inserts)) {
    return verdict('replicate', version, { result: 'NOT_APPLICABLE', why: 'not connected to a replica set member (standalone or mongos)' });
  }
  return verdict('replicate', version, {
    observed: `${inserts} insert(s) of the topic in ${setName}'s oplog`,
    result: decided(inserts > 0),
  });
}

// In-memory only: documents counted before a stop/start of every node and after.
function restart(results, version) {
  const before = measurement(results, version, 'restart.documentsBefore');
  const after = measurement(results, version, 'restart.documentsAfter');
  if (!Number.isFinite(before) || !Number.isFinite(after)) {
    return verdict('restart', version, { result: 'NOT_APPLICABLE', why: 'no restart was measured: the playbook restarts only a deployment it launched (never one given with --uri)' });
  }
  if (!(before > 0)) {
    return verdict('restart', version, { observed: `${before} before`, result: 'NOT_APPLICABLE', why: 'the collection was empty before the restart' });
  }
  return verdict('restart', version, {
    expected: `0 of ${before} documents after the restart`,
    observed: `${after} of ${before} documents after the restart`,
    result: decided(after === 0),
  });
}

// "As you add more and more tailing cursors, the MongoDB cpu usage increases
// markedly": the fit of CPU per message against subscribers calls it.
function cpu(results, version) {
  const points = rows(results, 'cpu', version).filter((r) => r.mode === 'capped')
    .map((r) => ({ subscribers: r.subscribers, cpuMsPerMsg: r.cpu_ms_per_msg }));
  const usable = points.filter((p) => Number.isFinite(p.cpuMsPerMsg));
  const g = model.cpuGrowth(points);
  const evidence = { points: new Set(usable.map((p) => p.subscribers)).size, ...(g.fit ? { spread: g.fit.spread } : {}) };
  const judged = (fields) => judge(CLAIM.cpu.needs, evidence, verdict('cpu', version, fields));
  if (points.length && usable.length < points.length) return judged({ result: 'NOT_APPLICABLE', why: g.reason });
  const trend = g.fit ? g.trend : null;
  const observed = trend ? trend.text : `${usable.length} sweep point(s)`;
  const short = shortfall(CLAIM.cpu.needs, evidence);
  if (short) return judged({ observed, result: 'NOT_APPLICABLE', why: short });
  if (trend.rise > CPU_MARKEDLY && g.fit.r2 >= CPU_MIN_R2) return judged({ observed, result: 'REPRODUCED' });
  // Not markedly, and the points close enough to their mean to say so.
  if (trend.rise <= CPU_MARKEDLY && g.fit.spread <= CPU_MARKEDLY) return judged({ observed, result: 'NOT_REPRODUCED' });
  return judged({
    observed,
    result: 'NOT_APPLICABLE',
    why: `the points scatter too much to call (r2 ${model.round(g.fit.r2, 2)}, spread ${model.round(g.fit.spread, 2)}): rerun with --seconds larger`,
  });
}

// "All subscribers receive the same message": every message to every subscriber.
function delivery(results, version) {
  const points = rows(results, 'delivery', version).filter((r) => r.mode === 'capped');
  const judged = (fields) => judge(CLAIM.delivery.needs, { points: points.length }, verdict('delivery', version, fields));
  if (!points.length) return judged({ observed: 'no sweep point', result: 'NOT_APPLICABLE', why: 'no sweep point of the capped fan-out was recorded' });
  const sum = (k) => points.reduce((a, p) => a + p[k], 0);
  const expected = sum('expected');
  const lost = sum('lost');
  const dup = sum('duplicated');
  return judged({
    expected: `${expected} deliveries, 0 lost, 0 duplicated`,
    observed: `${expected - lost} delivered, ${lost} lost, ${dup} duplicated`,
    result: decided(lost === 0 && dup === 0),
  });
}

// "The writes per second is pretty much exactly 1000": the achieved rate of
// every sweep point (both fan-outs) within RATE_TOLERANCE of the target.
function rate(results, version) {
  const points = rows(results, 'publish-latency', version);
  const judged = (fields) => judge(CLAIM.rate.needs, { points: points.length }, verdict('rate', version, fields));
  if (!points.length) return judged({ observed: 'no sweep point', result: 'NOT_APPLICABLE', why: 'no sweep point was recorded' });
  const worst = points.reduce((w, p) => {
    const dev = Math.abs(p.rate_per_s - p.target_per_s) / p.target_per_s;
    return !w || dev > w.dev ? { dev, p } : w;
  }, null);
  return judged({
    observed: `worst ${worst.p.rate_per_s}/s for ${worst.p.target_per_s}/s (${worst.p.mode}, ${worst.p.subscribers} subscribers)`,
    result: decided(worst.dev <= RATE_TOLERANCE),
  });
}

const CHECKS = { grow, shard, replicate, restart, cpu, delivery, rate };

function check(results) {
  const out = [];
  for (const version of versions(results)) {
    for (const c of claims) {
      const { predictAt, ...v } = CHECKS[c.id](results, version);
      out.push({ ...v, predicted: predict(PREDICTIONS, c.id, v.version, results, { at: predictAt }) });
    }
  }
  return out;
}

module.exports = { claims, check, CPU_MARKEDLY, RATE_TOLERANCE, CPU_MIN_POINTS };
