'use strict';
// array-push-oplog: the update patterns, the curve classification and the
// device-hour arithmetic. Plain Node (CommonJS), no server: the stage files
// require it inside mongosh, the checker and tests/unit from node.

const path = require('path');
const stats = require(path.resolve(__dirname, '../../js/stats.js'));

// Seconds in the article's hourly document.
const HOUR = 3600;

// Each pattern turns "the reading of second L arrives at a document whose
// readings array holds L elements (seconds 0..L-1)" into an update. `append`
// marks the ways to ingest a reading (candidates for the load); the others
// change an array that is already there.
const PATTERNS = [
  { name: 'push', label: '$push', append: true,
    update: (r) => ({ $push: { readings: r } }) },
  // The capped array at steady state: keep the last L, so every push trims one.
  { name: 'push-slice', label: '$push $each + $slice: -L (keep the last L)', append: true, capped: true,
    update: (r, L) => ({ $push: { readings: { $each: [r], $slice: -Math.max(L, 1) } } }) },
  { name: 'push-sort', label: '$push $each + $sort {s: 1}', append: true,
    update: (r) => ({ $push: { readings: { $each: [r], $sort: { s: 1 } } } }) },
  { name: 'push-position0', label: '$push $each + $position: 0', append: true,
    update: (r) => ({ $push: { readings: { $each: [r], $position: 0 } } }) },
  { name: 'addtoset', label: '$addToSet', append: true,
    update: (r) => ({ $addToSet: { readings: r } }) },
  // {s: 0} is a query on each element (pull_node.cpp, ObjectMatcher): the oldest reading goes.
  { name: 'pull', label: '$pull of the oldest reading',
    update: () => ({ $pull: { readings: { s: 0 } } }) },
  { name: 'pop-first', label: '$pop: -1 (the oldest)',
    update: () => ({ $pop: { readings: -1 } }) },
  { name: 'pop-last', label: '$pop: 1 (the newest)',
    update: () => ({ $pop: { readings: 1 } }) },
  { name: 'set-one', label: '$set of one element (readings.<L-1>)',
    update: (r, L) => ({ $set: { [`readings.${Math.max(L, 1) - 1}`]: r } }) },
];

// The article's fix: one document per second, compacted into the hourly
// document every hour (insert it, delete the per-second ones).
const FIX = { name: 'per-second', label: 'one document per second + hourly compaction', append: true };

const PATTERN_NAMES = PATTERNS.map((p) => p.name);

function pattern(name) {
  const p = PATTERNS.find((x) => x.name === name);
  if (!p) throw new Error(`array-push-oplog: unknown pattern '${name}' (known: ${PATTERN_NAMES.join(', ')})`);
  return p;
}

// Patterns named in a comma-separated list, in the table's order.
function selectPatterns(list) {
  const wanted = String(list).split(',').map((s) => s.trim()).filter(Boolean);
  const all = [...PATTERN_NAMES, FIX.name];
  for (const w of wanted) {
    if (!all.includes(w)) throw new Error(`array-push-oplog: unknown pattern '${w}' (known: ${all.join(', ')})`);
  }
  return all.filter((n) => wanted.includes(n));
}

function parseLengths(list) {
  const out = String(list).split(',').map((s) => Number(s.trim()));
  if (out.length < 2 || out.some((n) => !Number.isInteger(n) || n < 1 || n > HOUR)) {
    throw new Error(`array-push-oplog: lengths must be at least two whole numbers within 1..${HOUR}, got '${list}'`);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

// points: [{length, bytes}] of one pattern. flat | linear | irregular, with the fit.
function classify(points) {
  const xs = points.map((p) => p.length);
  const ys = points.map((p) => p.bytes);
  return stats.growth(xs, ys);
}

// Bytes per update at array length L, read off the measured points: linear
// between them, the nearest measurement outside their range.
function interpolate(points, L) {
  const pts = [...points].sort((a, b) => a.length - b.length);
  if (L <= pts[0].length) return pts[0].bytes;
  for (let i = 1; i < pts.length; i++) {
    if (L <= pts[i].length) {
      const a = pts[i - 1];
      const b = pts[i];
      return a.bytes + ((b.bytes - a.bytes) * (L - a.length)) / (b.length - a.length);
    }
  }
  return pts[pts.length - 1].bytes;
}

// One device-hour of a pattern: the updates at lengths 0..3599, each costing
// what was measured at that length.
function hourBytes(points, hour = HOUR) {
  let sum = 0;
  for (let L = 0; L < hour; L++) sum += interpolate(points, L);
  return Math.round(sum);
}

// One device-hour of the fix: every per-second insert plus the compaction
// (the hourly insert and all the deletes), all measured.
function fixHourBytes({ insertBytes, compactionInsertBytes, compactionDeleteBytes }) {
  return insertBytes + compactionInsertBytes + compactionDeleteBytes;
}

function fmtBytes(n) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

function curveText(points, kind) {
  const pts = [...points].sort((a, b) => a.length - b.length);
  const a = pts[0];
  const b = pts[pts.length - 1];
  return `${kind}: ${fmtBytes(a.bytes)} at ${a.length} readings, ${fmtBytes(b.bytes)} at ${b.length}`;
}

// Hour totals of every measured pattern, the fix's included, and the
// worst/best of the ways to ingest a reading (the load runs those two).
// Capped arrays (push-slice) are left out of the load: their cost depends on
// the cap, not on how far into the hour the document is.
function hourTable(curves, fix) {
  const rows = Object.entries(curves).map(([name, points]) => ({
    pattern: name, kind: classify(points).kind, hourBytes: hourBytes(points),
  }));
  if (fix) rows.push({ pattern: FIX.name, kind: 'flat', hourBytes: fixHourBytes(fix) });
  const fixBytes = fix ? fixHourBytes(fix) : null;
  for (const r of rows) {
    r.perReading = Math.round(r.hourBytes / HOUR);
    r.vsFix = fixBytes ? Number((r.hourBytes / fixBytes).toFixed(2)) : null;
  }
  const loadable = rows.filter((r) => r.pattern === FIX.name || PATTERNS.find((p) => p.name === r.pattern && p.append && !p.capped));
  const sorted = [...loadable].sort((a, b) => b.hourBytes - a.hourBytes);
  return { rows, worst: sorted.length ? sorted[0].pattern : null, best: sorted.length > 1 ? sorted[sorted.length - 1].pattern : null };
}

// Secondary lag from one replSetGetStatus answer, as the primary sees it.
// topology_coordinator.cpp (prepareStatusResponse) fills a non-self member's
// lastAppliedWallTime from replSetUpdatePosition (ms, as the secondary
// applies) but its optime/optimeDate from heartbeats (whole seconds, up to
// heartbeatIntervalMillis late); older servers lack lastAppliedWallTime
// per member (DOCS-14906). So: lastAppliedWallTime when the primary and the
// secondary both have it, else optimeDate. Returns
// {primary, members: [{name, state, lagMs, source}]}; lag is never below 0.
function lagFromStatus(status) {
  const members = (status && status.members) || [];
  const primary = members.find((m) => Number(m.state) === 1);
  if (!primary) throw new Error('array-push-oplog: replSetGetStatus shows no primary');
  const time = (d) => (d instanceof Date ? d.getTime() : d ? new Date(d).getTime() : NaN);
  const out = [];
  for (const m of members) {
    if (Number(m.state) !== 2) continue;
    let source = 'lastAppliedWallTime';
    let lag = time(primary.lastAppliedWallTime) - time(m.lastAppliedWallTime);
    if (!Number.isFinite(lag)) {
      source = 'optimeDate';
      lag = time(primary.optimeDate) - time(m.optimeDate);
    }
    out.push({ name: m.name, state: 'SECONDARY', lagMs: Number.isFinite(lag) ? Math.max(0, lag) : null, source });
  }
  return { primary: primary.name, members: out };
}

// Whether every secondary has applied the primary's newest write: by
// lastAppliedWallTime where reported (see lagFromStatus), else by optime.
function caughtUp(status) {
  const members = (status && status.members) || [];
  const primary = members.find((m) => Number(m.state) === 1);
  if (!primary) return false;
  const time = (d) => (d instanceof Date ? d.getTime() : d ? new Date(d).getTime() : NaN);
  const ts = (o) => (o && o.ts ? [Number(o.ts.t ?? o.ts.high), Number(o.ts.i ?? o.ts.low)] : [0, 0]);
  const [pt, pi] = ts(primary.optime);
  return members.filter((m) => Number(m.state) === 2).every((m) => {
    const pw = time(primary.lastAppliedWallTime);
    const mw = time(m.lastAppliedWallTime);
    if (Number.isFinite(pw) && Number.isFinite(mw)) return mw >= pw;
    const [t, i] = ts(m.optime);
    return t > pt || (t === pt && i >= pi);
  });
}

// The compaction's deletes in words: "N deletes (M entries) SIZE". From 6.1 a
// deleteMany is replicated in batches, applyOps entries of many deletes each
// (no lsid), so M counts entries, not deletes.
function deletesText(deletes, entries, bytes) {
  const batched = Number(entries) < Number(deletes) ? ': batched, several deletes per applyOps entry (6.1+)' : '';
  return `${deletes} deletes (${entries} entries) ${fmtBytes(Number(bytes))}${batched}`;
}

module.exports = {
  deletesText,
  HOUR, PATTERNS, FIX, PATTERN_NAMES, pattern, selectPatterns, parseLengths,
  classify, interpolate, hourBytes, fixHourBytes, hourTable, fmtBytes, curveText, lagFromStatus, caughtUp,
};
