'use strict';
// From timed samples to the timing table and the verdicts. Pure functions on
// recorded numbers (no server, no shell), so tests run them on fixtures:
//   node -e "require('./analysis.js').analyze(samples, shapes)"
//
// A sample is one timed client process (timed.py's JSON plus where it
// belongs): {shape, side: 'read'|'write'|'floor', method, repeat, part,
// wall, user, sys, maxRssBytes, exit, result}. A method run in several
// processes (mongoexport: one per collection) has one sample per part; the
// parts of a repeat add up. A method's figure is the median over repeats.

const path = require('path');

const stats = require(path.resolve(__dirname, '../../js/stats.js'));

const MB = 1048576;

// What the verdicts call "much faster", "close" and "far slower". The
// article's own figures are far beyond them: dump 1.46 s, restore 79.8 s
// (55x), the decoding sync tool about 78 s (53x).
const THRESHOLDS = {
  decodedVsDump: 2, // a decoding reader takes at least this many times mongodump's wall time
  rawVsDump: 1.5, // a raw driver read takes at most this many times mongodump's wall time
  decodedVsRaw: 1.25, // and decoding makes the same driver loop at least this much slower
  restoreVsDump: 5, // mongorestore takes at least this many times mongodump's wall time
};

const round = (x, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits)));
const ratio = (a, b) => (a && b ? a / b : null);
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

function missing(figures, shape, methods) {
  const names = methods.filter((m) => !find(figures, shape, m));
  return names.length ? `no successful run of ${names.join(', ')} (see the timing table and run.log)` : '';
}

// The article's three claims, and the shape effect when both shapes ran.
function verdicts(figures, t = THRESHOLDS) {
  const out = [];
  const shapes = [...new Set(figures.map((f) => f.shape))];
  const decodedFactor = {};
  for (const shape of shapes) {
    const dump = find(figures, shape, 'mongodump-dir');
    const raw = find(figures, shape, 'driver-raw');
    const decoded = find(figures, shape, 'driver-decoded');
    const mongosh = find(figures, shape, 'mongosh-toArray');
    const exp = find(figures, shape, 'mongoexport');
    const restore = find(figures, shape, 'mongorestore');
    const tag = `[${shape}] `;

    const c1 = `${tag}mongodump is much faster than a decoding reader`;
    const why1 = missing(figures, shape, ['mongodump-dir', 'driver-decoded']);
    if (why1) {
      out.push({ claim: c1, expected: `driver (decoded) >= ${t.decodedVsDump}x mongodump's time`, observed: '', holds: null, reason: why1 });
    } else {
      const f = decoded.wall / dump.wall;
      decodedFactor[shape] = f;
      const others = [[mongosh, 'mongosh toArray'], [exp, 'mongoexport']]
        .filter(([x]) => x).map(([x, n]) => `${n} ${fmt(x.wall / dump.wall, 1)}x`).join(', ');
      out.push({
        claim: c1,
        expected: `the Node driver reading decoded documents takes >= ${t.decodedVsDump}x mongodump's wall time`,
        observed: `${fmt(f, 1)}x (${fmt(decoded.wall)} s vs ${fmt(dump.wall)} s${others ? `; ${others}` : ''})`,
        holds: f >= t.decodedVsDump,
      });
    }

    const c2 = `${tag}a raw, non-decoding driver read comes close to mongodump: the cost is decoding`;
    const why2 = missing(figures, shape, ['mongodump-dir', 'driver-raw', 'driver-decoded']);
    if (why2) {
      out.push({ claim: c2, expected: '', observed: '', holds: null, reason: why2 });
    } else {
      const r = raw.wall / dump.wall;
      const d = decoded.wall / raw.wall;
      const rawCpu = raw.user + raw.sys;
      const decCpu = decoded.user + decoded.sys;
      out.push({
        claim: c2,
        expected: `raw driver read <= ${t.rawVsDump}x mongodump's wall time, and decoding makes the same loop >= ${t.decodedVsRaw}x slower`,
        observed: `raw ${fmt(r)}x mongodump; decoded ${fmt(d)}x raw; client CPU raw ${fmt(rawCpu)} s vs decoded ${fmt(decCpu)} s`,
        holds: r <= t.rawVsDump && d >= t.decodedVsRaw,
      });
    }

    const c3 = `${tag}restore is far slower than dump`;
    const why3 = missing(figures, shape, ['mongodump-dir', 'mongorestore']);
    if (why3) {
      out.push({ claim: c3, expected: `mongorestore >= ${t.restoreVsDump}x mongodump's time`, observed: '', holds: null, reason: why3 });
    } else {
      const f = restore.wall / dump.wall;
      const cpu = restore.user + restore.sys;
      const share = (100 * cpu) / restore.wall;
      out.push({
        claim: c3,
        expected: `mongorestore takes >= ${t.restoreVsDump}x mongodump's wall time`,
        observed: `${fmt(f, 1)}x (${fmt(restore.wall)} s vs ${fmt(dump.wall)} s); mongorestore's own CPU was ${fmt(cpu)} s, ${fmt(share, 0)}% of its wall time, `
          + (restore.serverCpu !== null
            ? `the server's ${fmt(restore.serverCpu)} s (mongodump: client ${fmt(dump.user + dump.sys)} s, server ${fmt(dump.serverCpu)} s): the time goes to the server's inserts`
            : 'the rest waiting for the server (which did not report its own CPU)'),
        holds: f >= t.restoreVsDump,
      });
    }
  }
  if (shapes.length > 1) {
    const c4 = 'decoding costs grow with an expensive document shape (nested, many fields)';
    if (decodedFactor.tiny === undefined || decodedFactor.nested === undefined) {
      out.push({ claim: c4, expected: '', observed: '', holds: null, reason: 'needs the decoded-vs-mongodump factor of both shapes' });
    } else {
      out.push({
        claim: c4,
        expected: 'the decoded driver read / mongodump factor is larger for nested documents than for tiny ones',
        observed: `nested ${fmt(decodedFactor.nested, 1)}x vs tiny ${fmt(decodedFactor.tiny, 1)}x`,
        holds: decodedFactor.nested > decodedFactor.tiny,
      });
    }
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

function analyze(samples, shapes, thresholds = THRESHOLDS) {
  const figures = methodFigures(samples);
  return { figures, rows: timingRows(figures, shapes), verdicts: verdicts(figures, thresholds), notes: notes(figures, shapes) };
}

module.exports = { THRESHOLDS, TIMING_COLUMNS, methodFigures, timingRows, verdicts, notes, analyze };
