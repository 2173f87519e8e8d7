'use strict';
// change-stream-resume's checker: the article's five claims, per version,
// decided from the `timeline` table (each event's arrival per run) and the
// `server` table (per-run figures from the mongod log via playbooks/analyze
// cursors). Pure: no server, no I/O.
const { SPEEDUP, TOGETHER_FRACTION, MIN_SECONDS, arrivals, spread } = require('./model.js');
const { judge, shortfall } = require('../../js/evidence.js');
const { predict } = require('../../js/predictions.js');
const PREDICTIONS = require('./predictions.js');

// "Arrive together" needs two events or more to compare; a speed-up, the
// first event of both runs; a scan, the server figures of both runs.
const BURST = (run) => ({ minPoints: 2, pointsOf: `events of run ${run}` });
const SPEED = { minPoints: 1, pointsOf: 'events in the run with fewer' };

const claims = [
  { id: 'A', claim: 'A (default batch size): the events arrive in one burst at the end',
    expected: `all events arrive within ${TOGETHER_FRACTION * 100}% of the wait for the last`, needs: BURST('A') },
  { id: 'B', claim: 'B (batchSize 1): the first event arrives at least 5x sooner than with the default batch size',
    expected: `first event >= ${SPEEDUP}x sooner`, needs: SPEED },
  { id: 'C', claim: 'C (batchSize 1, resumed after "200 6MB documents added"): its two events arrive together',
    expected: `all events arrive within ${TOGETHER_FRACTION * 100}% of the wait for the last`, needs: BURST('C') },
  { id: 'D', claim: "D (C with internalDocumentSourceCursorBatchSizeBytes 128, which bounds the opening aggregate's first batch): the first event arrives at least 5x sooner than in C",
    expected: `first event >= ${SPEEDUP}x sooner`, needs: SPEED },
  { id: 'E', claim: 'E (resumed from the postBatchResumeToken saved at the end of A) scans less than A',
    expected: 'fewer docsExamined for E than for A',
    needs: { minPoints: 2, pointsOf: 'runs with server figures (A and E)' } },
];
const claimOf = Object.fromEntries(claims.map((c) => [c.id, c]));

const fmt = (s) => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(3)} s`);
const ratioText = (r) => (r >= 100 ? r.toFixed(0) : r.toFixed(1));

// Rows of table NAME as objects, grouped by the version they were recorded for.
function rowsByVersion(results, name) {
  const table = (results.tables || {})[name];
  const out = new Map();
  if (!table) return out;
  for (const row of table.rows || []) {
    const obj = Object.fromEntries(table.columns.map((c, i) => [c, row.values[i]]));
    if (!out.has(row.version)) out.set(row.version, []);
    out.get(row.version).push(obj);
  }
  return out;
}

function notApplicable(id, version, why, points) {
  return { id, version, observed: 'not measured', result: 'NOT_APPLICABLE', why, evidence: { points } };
}

function burst(id, version, run) {
  const s = spread(run);
  const evidence = { points: s ? s.count : 0 };
  const short = shortfall(claimOf[id].needs, evidence);
  if (short) return notApplicable(id, version, short, evidence.points);
  return judge(claimOf[id].needs, evidence, {
    id, version,
    observed: `${s.count} events between ${fmt(s.first)} and ${fmt(s.last)} (spread ${fmt(s.spread)}, ${((100 * s.spread) / Math.max(s.last, MIN_SECONDS)).toFixed(1)}% of the wait)`,
    result: s.together ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

function speedup(id, version, slowName, slow, fastName, fast) {
  const a = arrivals(slow);
  const b = arrivals(fast);
  const evidence = { points: Math.min(a.length, b.length) };
  if (a.length === 0 || b.length === 0) {
    return notApplicable(id, version, `run ${a.length === 0 ? slowName : fastName} has no event measured`, evidence.points);
  }
  const ratio = a[0] / Math.max(b[0], MIN_SECONDS);
  return judge(SPEED, evidence, {
    id, version,
    observed: `${fastName} ${fmt(b[0])} vs ${slowName} ${fmt(a[0])}: ${ratioText(ratio)}x`,
    result: ratio >= SPEEDUP ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

function scan(version, server) {
  const figures = (run) => server.find((r) => r.run === run && Number.isFinite(Number(r.docsExamined)) && r.docsExamined !== '');
  const a = figures('A');
  const e = figures('E');
  const evidence = { points: [a, e].filter(Boolean).length };
  if (!a || !e) {
    const missing = [!a && 'A', !e && 'E'].filter(Boolean).join(' and ');
    return notApplicable('E', version, `no server figures for ${missing} (its slow-query log lines are missing)`, evidence.points);
  }
  const bytes = (c) => (c.bytesRead !== '' && Number.isFinite(Number(c.bytesRead)) ? `, ${(Number(c.bytesRead) / 1048576).toFixed(1)} MiB read` : '');
  return judge(claimOf.E.needs, evidence, {
    id: 'E', version,
    observed: `E ${Number(e.docsExamined)} docs examined${bytes(e)} vs A ${Number(a.docsExamined)}${bytes(a)}`,
    result: Number(e.docsExamined) < Number(a.docsExamined) ? 'REPRODUCED' : 'NOT_REPRODUCED',
  });
}

// The versions to decide: those the run recorded, else those of the tables.
function versionsOf(results, timeline, server) {
  const recorded = (results.versions || []).map((v) => v.resolved).filter(Boolean);
  if (recorded.length) return recorded;
  return [...new Set([...timeline.keys(), ...server.keys()])];
}

function check(results) {
  const timeline = rowsByVersion(results, 'timeline');
  const server = rowsByVersion(results, 'server');
  const out = [];
  for (const version of versionsOf(results, timeline, server)) {
    const runs = {};
    for (const row of timeline.get(version) || []) {
      (runs[row.run] = runs[row.run] || { events: [] }).events.push({ seconds: row.seconds, msg: row.msg });
    }
    const label = version || 'all';
    out.push(
      burst('A', label, runs.A),
      speedup('B', label, 'A', runs.A, 'B', runs.B),
      burst('C', label, runs.C),
      speedup('D', label, 'C', runs.C, 'D', runs.D),
      scan(label, server.get(version) || []),
    );
  }
  return out.map((v) => ({ claim: claimOf[v.id].claim, expected: claimOf[v.id].expected, ...v, predicted: predict(PREDICTIONS, v.id, v.version, results) }));
}

module.exports = { claims, check };
