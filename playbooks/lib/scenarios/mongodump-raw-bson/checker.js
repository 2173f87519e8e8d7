'use strict';
// mongodump-raw-bson's checker: the article's claims decided from the median
// wall and CPU times measure.js recorded per document shape and method
// (SHAPE.METHOD.wallSeconds, .cpuSeconds, .serverCpuSeconds; a method that
// never ran cleanly has none). Pure: no server, no I/O.
const path = require('path');
const { versions, rows } = require(path.resolve(__dirname, '../../js/results.js'));
const { judge, shortfall } = require(path.resolve(__dirname, '../../js/evidence.js'));
const { predict } = require(path.resolve(__dirname, '../../js/predictions.js'));
const PREDICTIONS = require(path.resolve(__dirname, 'predictions.js'));

// What the claims call "much faster", "close" and "far slower". The
// article's own figures are far beyond them: dump 1.46 s, restore 79.8 s
// (55x), the decoding sync tool about 78 s (53x).
const THRESHOLDS = {
  decodedVsDump: 2, // a decoding reader takes at least this many times mongodump's wall time
  rawVsDump: 1.5, // a raw driver read takes at most this many times mongodump's wall time
  decodedVsRaw: 1.25, // and decoding makes the same driver loop at least this much slower
  restoreVsDump: 5, // mongorestore takes at least this many times mongodump's wall time
};
const SHAPES = ['tiny', 'nested'];
// A ratio of two single runs is as much noise as method: every method a claim
// compares must have run cleanly at least this often (--repeats, the median's runs).
const MIN_RUNS = 2;
const NEEDS = { minRepetitions: MIN_RUNS, repetitionsOf: 'clean runs of each method compared', hint: 'give --repeats 3 or more' };

const claims = [
  {
    id: 'decoding',
    claim: 'mongodump is much faster than a decoding reader',
    expected: `the Node driver reading decoded documents takes >= ${THRESHOLDS.decodedVsDump}x mongodump's wall time`,
    needs: NEEDS,
  },
  {
    id: 'raw',
    claim: 'a raw, non-decoding driver read comes close to mongodump: the cost is decoding',
    expected: `raw driver read <= ${THRESHOLDS.rawVsDump}x mongodump's wall time, and decoding makes the same loop >= ${THRESHOLDS.decodedVsRaw}x slower`,
    needs: NEEDS,
  },
  {
    id: 'restore',
    claim: 'restore is far slower than dump',
    expected: `mongorestore takes >= ${THRESHOLDS.restoreVsDump}x mongodump's wall time`,
    needs: NEEDS,
  },
  {
    id: 'shape',
    claim: 'decoding costs grow with an expensive document shape (nested, many fields)',
    expected: 'the decoded driver read / mongodump factor is larger for nested documents than for tiny ones',
    needs: NEEDS,
  },
];
const CLAIM = Object.fromEntries(claims.map((c) => [c.id, c]));

const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '?');
const decided = (holds) => (holds ? 'REPRODUCED' : 'NOT_REPRODUCED');

// The clean runs behind the medians of one version: runs(shape, methods) ->
// the fewest of those methods (the timing table's runs column; 0 when absent).
function runsOf(results, version) {
  const timing = rows(results, 'timing', version);
  return (shape, methods) => Math.min(...methods.map((method) => {
    const row = timing.find((r) => r.shape === shape && r.method === method);
    return row && Number.isInteger(row.runs) ? row.runs : 0;
  }));
}

// The figures of one version: figure(shape, method) -> {wall, cpu, server} or null.
function figuresOf(results, version) {
  const byKey = new Map();
  for (const m of results.measurements || []) {
    if (m.version === version) byKey.set(m.key, m.value);
  }
  const figure = (shape, method) => {
    const wall = byKey.get(`${shape}.${method}.wallSeconds`);
    if (!Number.isFinite(wall)) return null;
    const server = byKey.get(`${shape}.${method}.serverCpuSeconds`);
    return { wall, cpu: byKey.get(`${shape}.${method}.cpuSeconds`), server: Number.isFinite(server) ? server : null };
  };
  // A shape ran when it was seeded (prepare.js: SHAPE.docs) or timed.
  const ran = SHAPES.filter((s) => [...byKey.keys()].some((k) => k === `${s}.docs` || (k.startsWith(`${s}.`) && k.endsWith('.wallSeconds'))));
  return { figure, shapes: ran };
}

function missing(figure, shape, methods) {
  const names = methods.filter((m) => !figure(shape, m));
  return names.length ? `no successful run of ${names.join(', ')} (see the timing table and run.log)` : '';
}

// The three claims of one shape, tagged with it.
function shapeVerdicts(figure, runs, shape, version) {
  const METHODS = {
    decoding: ['mongodump-dir', 'driver-decoded'],
    raw: ['mongodump-dir', 'driver-raw', 'driver-decoded'],
    restore: ['mongodump-dir', 'mongorestore'],
  };
  const tagged = (id, fields) => {
    const evidence = { repetitions: runs(shape, METHODS[id]) };
    const v = { id, claim: `[${shape}] ${CLAIM[id].claim}`, expected: CLAIM[id].expected, observed: '', version, ...fields };
    const short = v.result === 'NOT_APPLICABLE' ? '' : shortfall(NEEDS, evidence);
    return judge(NEEDS, evidence, short ? { ...v, result: 'NOT_APPLICABLE', why: short } : v);
  };
  const dump = figure(shape, 'mongodump-dir');
  const raw = figure(shape, 'driver-raw');
  const decoded = figure(shape, 'driver-decoded');
  const out = [];

  const why1 = missing(figure, shape, METHODS.decoding);
  if (why1) {
    out.push(tagged('decoding', { result: 'NOT_APPLICABLE', why: why1 }));
  } else {
    const f = decoded.wall / dump.wall;
    const others = [['mongosh-toArray', 'mongosh toArray'], ['mongoexport', 'mongoexport']]
      .map(([m, name]) => [figure(shape, m), name]).filter(([x]) => x)
      .map(([x, name]) => `${name} ${fmt(x.wall / dump.wall, 1)}x`).join(', ');
    out.push(tagged('decoding', {
      observed: `${fmt(f, 1)}x (${fmt(decoded.wall)} s vs ${fmt(dump.wall)} s${others ? `; ${others}` : ''})`,
      result: decided(f >= THRESHOLDS.decodedVsDump),
    }));
  }

  const why2 = missing(figure, shape, METHODS.raw);
  if (why2) {
    out.push(tagged('raw', { result: 'NOT_APPLICABLE', why: why2 }));
  } else {
    const r = raw.wall / dump.wall;
    const d = decoded.wall / raw.wall;
    out.push(tagged('raw', {
      observed: `raw ${fmt(r)}x mongodump; decoded ${fmt(d)}x raw; client CPU raw ${fmt(raw.cpu)} s vs decoded ${fmt(decoded.cpu)} s`,
      result: decided(r <= THRESHOLDS.rawVsDump && d >= THRESHOLDS.decodedVsRaw),
    }));
  }

  const why3 = missing(figure, shape, METHODS.restore);
  if (why3) {
    out.push(tagged('restore', { result: 'NOT_APPLICABLE', why: why3 }));
  } else {
    const restore = figure(shape, 'mongorestore');
    const f = restore.wall / dump.wall;
    const share = (100 * restore.cpu) / restore.wall;
    out.push(tagged('restore', {
      observed: `${fmt(f, 1)}x (${fmt(restore.wall)} s vs ${fmt(dump.wall)} s); mongorestore's own CPU was ${fmt(restore.cpu)} s, ${fmt(share, 0)}% of its wall time, `
        + (restore.server !== null
          ? `the server's ${fmt(restore.server)} s (mongodump: client ${fmt(dump.cpu)} s, server ${fmt(dump.server)} s): the time goes to the server's inserts`
          : 'the rest waiting for the server (which did not report its own CPU)'),
      result: decided(f >= THRESHOLDS.restoreVsDump),
    }));
  }
  return out;
}

// Decoding's share grows with the shape: the decoded/mongodump factor of both shapes.
function shapeVerdict(figure, runs, shapes, version) {
  const evidence = { repetitions: Math.min(...SHAPES.map((s) => runs(s, ['mongodump-dir', 'driver-decoded']))) };
  const base = { id: 'shape', claim: CLAIM.shape.claim, expected: CLAIM.shape.expected, observed: '', version, evidence };
  if (!SHAPES.every((s) => shapes.includes(s))) {
    return { ...base, result: 'NOT_APPLICABLE', why: 'needs both document shapes (--shape both)' };
  }
  const factor = (s) => {
    const dump = figure(s, 'mongodump-dir');
    const decoded = figure(s, 'driver-decoded');
    return dump && decoded ? decoded.wall / dump.wall : null;
  };
  const tiny = factor('tiny');
  const nested = factor('nested');
  if (tiny === null || nested === null) {
    return { ...base, result: 'NOT_APPLICABLE', why: 'needs the decoded-vs-mongodump factor of both shapes' };
  }
  const observed = `nested ${fmt(nested, 1)}x vs tiny ${fmt(tiny, 1)}x`;
  const short = shortfall(NEEDS, evidence);
  if (short) return { ...base, observed, result: 'NOT_APPLICABLE', why: short };
  return judge(NEEDS, evidence, { ...base, observed, result: decided(nested > tiny) });
}

function check(results) {
  const out = [];
  for (const version of versions(results)) {
    const { figure, shapes } = figuresOf(results, version);
    const runs = runsOf(results, version);
    const label = version || 'all';
    for (const shape of shapes) out.push(...shapeVerdicts(figure, runs, shape, label));
    if (!shapes.length) {
      for (const id of ['decoding', 'raw', 'restore']) {
        out.push({ id, claim: CLAIM[id].claim, expected: CLAIM[id].expected, observed: '', version: label, result: 'NOT_APPLICABLE', why: 'no method was timed for this version', evidence: { repetitions: 0 } });
      }
    }
    out.push(shapeVerdict(figure, runs, shapes, label));
  }
  return out.map((v) => ({ ...v, predicted: predict(PREDICTIONS, v.id, v.version, results) }));
}

module.exports = { claims, check, THRESHOLDS, MIN_RUNS };
