'use strict';
// routing-refresh: from refresh events (playbooks/analyze refresh --json) and
// the run's phases (what was done when) to durations per chunk count and
// fitted slopes. Plain CommonJS: measure.js requires it inside mongosh,
// checker.js and tests/unit/routing-refresh-*.test.js from node.
const path = require('path');
const stats = require(path.resolve(__dirname, '../../js/stats.js'));

// Log times: JSON logs "2022-10-17T16:15:56.209+08:00", legacy iso8601-local
// "2022-10-05T04:06:33.340+0800", UTC "...Z". ctime stamps ("Thu Oct 6
// 11:25:04.878", no year, no zone) cannot be placed in time: NaN.
function parseLogTime(s) {
  if (typeof s !== 'string') return NaN;
  const m = s.match(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d:?\d\d)$/);
  if (!m) return NaN;
  const zone = m[2] === 'Z' ? 'Z' : `${m[2].slice(0, 3)}:${m[2].slice(-2)}`;
  return Date.parse(`${m[1]}${zone}`);
}

// Slack after a phase's end: a log line can be written a little after the
// reply that ended the phase reached the client.
const SLACK_MS = 250;

// attribute(phases, events): per phase, the longest refresh of its namespace
// logged by a mongos and by a shard inside its time window.
//   phases: [{chunks, kind, rep, ns, startMs, endMs, firstQueryMs, opMs}]
//   events: [{role: 'mongos'|'shard', namespace, time, durationMillis, status}]
function attribute(phases, events) {
  const timed = events
    .filter((e) => e.status !== 'failed' && Number.isFinite(e.durationMillis))
    .map((e) => ({ ...e, at: parseLogTime(e.time) }))
    .filter((e) => Number.isFinite(e.at));
  return phases.map((p) => {
    const inside = timed.filter((e) => e.namespace === p.ns && e.at >= p.startMs && e.at <= p.endMs + SLACK_MS);
    const longest = (role) => {
      const d = inside.filter((e) => e.role === role).map((e) => e.durationMillis);
      return d.length ? Math.max(...d) : null;
    };
    return { ...p, mongosMs: longest('mongos'), shardMs: longest('shard'), events: inside.length };
  });
}

// summarize(attributed): one row per chunk count, node and kind: median
// server duration, median client first-query latency, repetitions that had a
// logged refresh.
function summarize(attributed) {
  const rows = [];
  const keys = new Map();
  for (const p of attributed) {
    for (const node of ['mongos', 'shard']) {
      const k = `${p.chunks}|${node}|${p.kind}`;
      if (!keys.has(k)) keys.set(k, { chunks: p.chunks, node, kind: p.kind, durations: [], firstQuery: [] });
      const g = keys.get(k);
      const d = node === 'mongos' ? p.mongosMs : p.shardMs;
      if (d !== null && d !== undefined) g.durations.push(d);
      if (Number.isFinite(p.firstQueryMs)) g.firstQuery.push(p.firstQueryMs);
    }
  }
  for (const g of keys.values()) {
    rows.push({
      chunks: g.chunks,
      node: g.node,
      kind: g.kind,
      medianMs: g.durations.length ? stats.median(g.durations) : null,
      maxMs: g.durations.length ? Math.max(...g.durations) : null,
      firstQueryMs: g.firstQuery.length ? round(stats.median(g.firstQuery), 1) : null,
      refreshesLogged: g.durations.length,
      reps: g.firstQuery.length,
    });
  }
  return rows.sort((a, b) => a.node.localeCompare(b.node) || a.kind.localeCompare(b.kind) || a.chunks - b.chunks);
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// line(xs, ys): the least-squares line of durations (ms) against chunk
// counts, for the fits table (rounded: slopeMsPer10k, interceptMs, r2,
// changeMs over the measured range, points) and for checker.js (exact:
// change, mean, and stats.growth's kind of the series).
function line(xs, ys) {
  const fit = stats.linearFit(xs, ys);
  const span = Math.max(...xs) - Math.min(...xs);
  const change = fit.slope * span;
  return {
    slopeMsPer10k: round(fit.slope * 10000, 3),
    interceptMs: round(fit.intercept, 1),
    r2: round(fit.r2, 3),
    changeMs: round(change, 1),
    points: xs.length,
    change,
    mean: stats.mean(ys),
    growth: stats.growth(xs, ys).kind,
  };
}

// fits(summary): one line per node and kind over the chunk counts that had a
// logged refresh; fewer than two counts cannot be fitted ({node, kind, points}).
function fits(summary) {
  const out = [];
  const groups = new Map();
  for (const r of summary) {
    const k = `${r.node}|${r.kind}`;
    if (!groups.has(k)) groups.set(k, { node: r.node, kind: r.kind, xs: [], ys: [] });
    if (r.medianMs !== null && r.medianMs !== undefined) {
      groups.get(k).xs.push(r.chunks);
      groups.get(k).ys.push(r.medianMs);
    }
  }
  for (const g of groups.values()) {
    if (new Set(g.xs).size < 2) {
      out.push({ node: g.node, kind: g.kind, points: g.xs.length });
    } else {
      out.push({ node: g.node, kind: g.kind, ...line(g.xs, g.ys) });
    }
  }
  return out;
}

module.exports = { parseLogTime, attribute, summarize, line, fits };
