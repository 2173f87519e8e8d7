'use strict';
// array-push-oplog's checker: per version, whether a plain $push and a capped
// $push replicate the whole array (the curve's growth, stats.growth) and how
// much the per-second fix saves per device-hour; across versions, whether
// every version logs the same patterns whole. Decided from the curve-<version>
// tables and the fix.* measurements. Pure: no server, no I/O.
const model = require('./model.js');
const { versionTag } = require('./common.js');
const { judge, shortfall } = require('../../js/evidence.js');
const { predict, predictAcross } = require('../../js/predictions.js');
const PREDICTIONS = require('./predictions.js');

// "Two orders of magnitude": the article's 1800x blow-up and 440x saving.
const FIX_RATIO = 100;
// Flat, linear or irregular is read off a curve: a line through two array
// lengths always fits, so a curve is judged on three or more.
const MIN_LENGTHS = 3;
const CURVE = { minPoints: MIN_LENGTHS, pointsOf: 'array lengths' };

const claims = [
  { id: 'push', claim: 'a plain $push replicates the whole array',
    expected: 'bytes grow linearly with the array', needs: CURVE },
  { id: 'push-slice', claim: '$push with $each + $slice (keep the last N) replicates the whole array',
    expected: 'bytes grow linearly with the array', needs: CURVE },
  { id: 'fix', claim: 'the per-second fix cuts replicated bytes by two orders of magnitude vs the whole-array pattern',
    expected: `>= ${FIX_RATIO}x per device-hour (article: 1800x blow-up, 440x less after the fix)`,
    needs: { minPoints: MIN_LENGTHS, pointsOf: 'array lengths of the whole-array pattern' } },
  { id: 'versions', claim: 'every version compared replicates the same patterns whole ($v:1 and $v:2 alike)',
    expected: 'the same patterns logged whole on every version compared',
    needs: { minPoints: 2, pointsOf: 'versions', hint: 'give --mongodb-version A,B to compare' } },
];
const NEEDS = Object.fromEntries(claims.map((c) => [c.id, c.needs]));

const na = (id, version, observed, why, points = 0) => ({ id, version, observed, result: 'NOT_APPLICABLE', why, evidence: { points } });

// {pattern: [{length, bytes}]} of one version's curve table, the fix's rows left out.
function curvesOf(results, version) {
  const table = (results.tables || {})[`curve-${versionTag(version)}`];
  if (!table) return null;
  const col = (name) => table.columns.indexOf(name);
  const [p, l, b] = [col('pattern'), col('length'), col('bytes')];
  const curves = {};
  for (const row of table.rows || []) {
    if (row.version !== version || row.values[p] === model.FIX.name) continue;
    (curves[row.values[p]] = curves[row.values[p]] || []).push({ length: Number(row.values[l]), bytes: Number(row.values[b]) });
  }
  return Object.keys(curves).length ? curves : null;
}

// The fix's three byte counts of one version, or null when not measured.
function fixOf(results, version) {
  const get = (key) => (results.measurements || []).find((m) => m.version === version && m.key === `fix.${key}`);
  const parts = ['insertBytes', 'compactionInsertBytes', 'compactionDeleteBytes'].map(get);
  if (parts.some((m) => !m)) return null;
  const [insertBytes, compactionInsertBytes, compactionDeleteBytes] = parts.map((m) => Number(m.value));
  return { insertBytes, compactionInsertBytes, compactionDeleteBytes };
}

function versionsOf(results) {
  const recorded = (results.versions || []).map((v) => v.resolved).filter(Boolean);
  if (recorded.length) return recorded;
  const seen = new Set();
  for (const [name, table] of Object.entries(results.tables || {})) {
    if (name.startsWith('curve-')) for (const row of table.rows || []) seen.add(row.version);
  }
  return [...seen];
}

// A pattern's claim "replicates the whole array": linear growth reproduces it.
function wholeArray(id, version, curves, kinds) {
  if (!curves[id]) return na(id, version, 'not measured', `pattern ${id} was not selected (--patterns)`);
  const observed = model.curveText(curves[id], kinds[id]);
  const points = new Set(curves[id].map((p) => p.length)).size;
  const short = shortfall(NEEDS[id], { points });
  if (short) return na(id, version, observed, short, points);
  if (kinds[id] === 'irregular') {
    return na(id, version, observed, 'the sizes neither stay flat nor grow in line with the array; see the curve table', points);
  }
  return judge(NEEDS[id], { points }, {
    id, version, observed, result: kinds[id] === 'linear' ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

// The fix against the costliest append pattern that replicates the whole array.
function fixClaim(version, curves, kinds, fix) {
  if (!fix) return na('fix', version, 'fix not measured', 'pattern per-second was not selected (--patterns)');
  const whole = Object.keys(curves)
    .filter((n) => kinds[n] === 'linear' && model.PATTERNS.find((p) => p.name === n && p.append))
    .map((n) => ({ name: n, bytes: model.hourBytes(curves[n]) }))
    .sort((a, b) => b.bytes - a.bytes)[0];
  if (!whole) {
    return na('fix', version, 'no append pattern grew with the array', 'no measured append pattern replicated the whole array on this version');
  }
  const fixBytes = model.fixHourBytes(fix);
  const ratio = whole.bytes / fixBytes;
  return judge(NEEDS.fix, { points: new Set(curves[whole.name].map((p) => p.length)).size }, {
    id: 'fix', version,
    observed: `${ratio.toFixed(1)}x (${whole.name}: ${model.fmtBytes(whole.bytes)} vs per-second: ${model.fmtBytes(fixBytes)} per device-hour)`,
    result: ratio >= FIX_RATIO ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

// Do the versions log the same patterns whole? Only patterns measured on every version count.
function versionsClaim(kindsByVersion, results) {
  const versions = Object.keys(kindsByVersion);
  const short = shortfall(NEEDS.versions, { points: versions.length });
  if (short) {
    return na('versions', 'all', versions.length ? `only ${versions[0]} measured` : 'nothing measured', short, versions.length);
  }
  const common = Object.keys(kindsByVersion[versions[0]]).filter((n) => versions.every((v) => kindsByVersion[v][n] !== undefined));
  const whole = (v) => common.filter((n) => kindsByVersion[v][n] === 'linear').sort();
  const first = whole(versions[0]).join(',');
  return judge(NEEDS.versions, { points: versions.length }, {
    id: 'versions', version: 'all',
    predicted: predictAcross(PREDICTIONS, 'versions', versions, results, { only: common.map((n) => `whole:${n}`) }),
    observed: versions.map((v) => `${v}: ${whole(v).join(', ') || 'none'}`).join('; '),
    result: versions.every((v) => whole(v).join(',') === first) ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

function check(results) {
  const out = [];
  const kindsByVersion = {};
  for (const version of versionsOf(results)) {
    const label = version || 'uri';
    const curves = curvesOf(results, version);
    if (!curves) {
      for (const id of ['push', 'push-slice', 'fix']) out.push(na(id, label, 'not measured', `no curve table for ${label}`));
      continue;
    }
    const kinds = Object.fromEntries(Object.entries(curves).map(([n, points]) => [n, model.classify(points).kind]));
    kindsByVersion[label] = kinds;
    out.push(wholeArray('push', label, curves, kinds), wholeArray('push-slice', label, curves, kinds),
      fixClaim(label, curves, kinds, fixOf(results, version)));
  }
  out.push(versionsClaim(kindsByVersion, results));
  return out.map((v) => {
    const c = claims.find((x) => x.id === v.id);
    return { claim: c.claim, expected: c.expected, predicted: predict(PREDICTIONS, v.id, v.version, results), ...v };
  });
}

module.exports = { claims, check, FIX_RATIO, MIN_LENGTHS };
