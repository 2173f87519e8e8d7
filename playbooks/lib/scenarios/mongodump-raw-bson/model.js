'use strict';
// From timed samples to the timing table and the measurements checker.js
// judges. Pure functions on recorded numbers (no server, no shell), used by
// measure.js (mongosh --nodb) and the tests, on fixtures:
//   require('./model.js').analyze(samples, shapes)
//
// A sample is one timed client process (timed.py's JSON plus where it
// belongs): {shape, side: 'read'|'write'|'floor', method, repeat, part,
// wall, user, sys, maxRssBytes, exit, result}. A method run in several
// processes (mongoexport: one per collection) has one sample per part; the
// parts of a repeat add up. A method's figure is the median over repeats.

const path = require('path');

const stats = require(path.resolve(__dirname, '../../js/stats.js'));

const MB = 1048576;

const round = (x, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits)));
const fmt = (x, digits = 2) => (x === null || x === undefined ? '?' : x.toFixed(digits));

// Sums the parts of each repeat, then takes medians per method.
function methodFigures(samples) {
  const order = [];
  const byMethod = new Map();
  for (const s of samples) {
    const key = `${s.shape}\u0000${s.method}`;
    if (!byMethod.has(key)) {
      byMethod.set(key, { shape: s.shape, side: s.side, method: s.method, repeats: new Map() });
      order.push(key);
    }
    const m = byMethod.get(key);
    const r = m.repeats.get(s.repeat) || { wall: 0, user: 0, sys: 0, maxRss: 0, exit: 0, docs: null, bytes: null, inner: null, server: 0 };
    r.wall += s.wall;
    r.user += s.user;
    r.sys += s.sys;
    r.maxRss = Math.max(r.maxRss, s.maxRssBytes || 0);
    if (s.exit !== 0 && r.exit === 0) r.exit = s.exit;
    if (s.result && Number.isFinite(s.result.docs)) r.docs = (r.docs || 0) + s.result.docs;
    if (s.result && Number.isFinite(s.result.seconds)) r.inner = (r.inner || 0) + s.result.seconds;
    // Server CPU around the run: null as soon as one part lacks it.
    const sc = Number.isFinite(s.serverUser) && Number.isFinite(s.serverSys) ? s.serverUser + s.serverSys : null;
    r.server = r.server === null || sc === null ? null : r.server + sc;
    if (Number.isFinite(s.stdoutBytes)) r.bytes = (r.bytes || 0) + s.stdoutBytes;
    m.repeats.set(s.repeat, r);
  }
  return order.map((key) => {
    const m = byMethod.get(key);
    const all = [...m.repeats.values()];
    const ok = all.filter((r) => r.exit === 0);
    const failed = all.find((r) => r.exit !== 0);
    const med = (f) => (ok.length ? stats.median(ok.map(f)) : null);
    return {
      shape: m.shape,
      side: m.side,
      method: m.method,
      runs: ok.length,
      failedExit: failed ? failed.exit : null,
      wall: med((r) => r.wall),
      user: med((r) => r.user),
      sys: med((r) => r.sys),
      maxRss: med((r) => r.maxRss),
      inner: ok.length && ok.every((r) => r.inner !== null) ? med((r) => r.inner) : null,
      serverCpu: ok.length && ok.every((r) => r.server !== null) ? med((r) => r.server) : null,
      docsSeen: ok.length && ok[0].docs !== null ? ok[0].docs : null,
      outputBytes: ok.length && ok[0].bytes !== null ? ok[0].bytes : null,
    };
  });
}

// One row per method of the timing table (columns in TIMING_COLUMNS).
const TIMING_COLUMNS = ['n', 'shape', 'side', 'method', 'runs', 'wall_s', 'in_process_s', 'user_s', 'sys_s', 'cpu_pct_of_wall', 'server_cpu_s',
  'docs_per_s', 'mb_per_s', 'peak_rss_mb', 'x_mongodump', 'docs_seen', 'status'];

function timingRows(figures, shapes) {
  const dumpWall = {};
  for (const f of figures) if (f.method === 'mongodump-dir' && f.runs) dumpWall[f.shape] = f.wall;
  return figures.map((f, i) => {
    const data = shapes[f.shape] || {};
    const cpu = f.runs ? f.user + f.sys : null;
    let status = 'ok';
    if (f.failedExit !== null) status = f.runs ? `${f.runs} ok, a run failed (exit ${f.failedExit})` : `FAILED (exit ${f.failedExit})`;
    else if (f.docsSeen !== null && data.docs && f.docsSeen !== data.docs) status = `read ${f.docsSeen} of ${data.docs} documents`;
    return {
      n: i + 1,
      shape: f.shape,
      side: f.side,
      method: f.method,
      runs: f.runs,
      wall_s: round(f.wall),
      // The client's own timer around its reads/writes (after start-up and
      // connection), where the client reports one: wall_s minus this is start-up.
      in_process_s: round(f.inner),
      user_s: round(f.user),
      sys_s: round(f.sys),
      cpu_pct_of_wall: f.runs && f.wall > 0 ? round((100 * cpu) / f.wall, 1) : null,
      // The server's CPU (serverStatus extra_info) from just before to just
      // after the run: all its work in that time, background work included.
      server_cpu_s: round(f.serverCpu),
      docs_per_s: f.runs && data.docs ? Math.round(data.docs / f.wall) : null,
      mb_per_s: f.runs && data.bytes ? round(data.bytes / MB / f.wall, 2) : null,
      peak_rss_mb: f.runs ? round(f.maxRss / MB, 1) : null,
      x_mongodump: f.runs && dumpWall[f.shape] ? round(f.wall / dumpWall[f.shape], 2) : null,
      // What the client itself counted (the driver and mongosh clients report it).
      docs_seen: f.docsSeen,
      status,
    };
  });
}

function find(figures, shape, method) {
  const f = figures.find((x) => x.shape === shape && x.method === method);
  return f && f.runs ? f : null;
}

// The figures checker.js decides from, per method that ran cleanly at least
// once: {key, value, unit} with keys SHAPE.METHOD.wallSeconds, .cpuSeconds
// (the client's user + system) and .serverCpuSeconds (where the server
// reported its CPU around every run).
function measurements(figures) {
  const out = [];
  for (const f of figures) {
    if (!f.runs) continue;
    out.push({ key: `${f.shape}.${f.method}.wallSeconds`, value: f.wall, unit: 's' });
    out.push({ key: `${f.shape}.${f.method}.cpuSeconds`, value: f.user + f.sys, unit: 's' });
    if (f.serverCpu !== null) out.push({ key: `${f.shape}.${f.method}.serverCpuSeconds`, value: f.serverCpu, unit: 's' });
  }
  return out;
}

// Sentences for the report: the floor, and what each shape's data was.
function notes(figures, shapes) {
  const out = [];
  for (const shape of Object.keys(shapes)) {
    const floor = find(figures, shape, 'floor-cat');
    const dump = find(figures, shape, 'mongodump-dir');
    if (floor && dump) {
      out.push(`[${shape}] The floor: \`cat\` of the dump files (warm page cache) took ${fmt(floor.wall, 3)} s; `
        + `mongodump to a directory took ${fmt(dump.wall / floor.wall, 1)}x that.`);
    }
  }
  return out;
}

function analyze(samples, shapes) {
  const figures = methodFigures(samples);
  return { figures, rows: timingRows(figures, shapes), measurements: measurements(figures), notes: notes(figures, shapes) };
}

module.exports = { TIMING_COLUMNS, methodFigures, timingRows, measurements, notes, analyze };
