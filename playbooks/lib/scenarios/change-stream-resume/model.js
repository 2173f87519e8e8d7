'use strict';
// change-stream-resume: event timelines and the article's claims, as pure
// functions of measurements (no server, no shell): the mongosh stages call
// them on what they measured, the bats tests on seed 000's printed timings.
//
// A run is {events: [{seconds, msg?}]}: each event's arrival in seconds since
// the stream was opened. Server figures per run come from `playbooks/analyze
// cursors --json`: {docsExamined, bytesRead, commands, durationMillis}.

// Events "arrive together" when the spread of their arrivals is at most this
// fraction of the wait for the last one (seed 000: 10 events within 3 ms after
// 12.9 s; C: 7 ms apart after 6.7 s; B's are spread over 11.4 s of 12.6 s).
const TOGETHER_FRACTION = 0.1;
// "at least 5x sooner" (the bar for B vs A and D vs C).
const SPEEDUP = 5;
// Below the timer's useful resolution: a first event faster than this counts
// as this, so a ratio never divides by zero.
const MIN_SECONDS = 0.0001;

function arrivals(run) {
  if (!run || !Array.isArray(run.events)) return [];
  return run.events.map((e) => Number(e.seconds)).filter(Number.isFinite).sort((a, b) => a - b);
}

// Arrival seconds from timestamps printed by a client (the article's
// `new Date().toISOString()` lines): opened is the "Resuming ..." line.
function fromPrintedTimestamps(opened, stamps) {
  const t0 = Date.parse(opened);
  if (!Number.isFinite(t0)) throw new Error(`fromPrintedTimestamps: cannot read ${JSON.stringify(opened)} as a time`);
  return stamps.map((s) => {
    const t = Date.parse(s);
    if (!Number.isFinite(t)) throw new Error(`fromPrintedTimestamps: cannot read ${JSON.stringify(s)} as a time`);
    return Math.round(t - t0) / 1000;
  });
}

const fmt = (s) => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(3)} s`);
const ratioText = (r) => (r >= 100 ? r.toFixed(0) : r.toFixed(1));

// Spread of a run's arrivals against the wait for its last event.
function spread(run) {
  const t = arrivals(run);
  if (t.length === 0) return null;
  const first = t[0];
  const last = t[t.length - 1];
  return { count: t.length, first, last, spread: last - first, together: last - first <= TOGETHER_FRACTION * last };
}

// One row per event with its gap to the previous one (the timeline table).
function timelineRows(runName, run) {
  const out = [];
  let prev = null;
  (run.events || []).forEach((e, i) => {
    const s = Number(e.seconds);
    out.push({ run: runName, event: i + 1, msg: e.msg || '', seconds: s, gapSeconds: prev === null ? s : Math.round((s - prev) * 1e6) / 1e6 });
    prev = s;
  });
  return out;
}

function notApplicable(claim, expected, reason) {
  return { claim, expected, observed: '', holds: null, reason };
}

function burstClaim(id, claim, run, minEvents, label) {
  const expected = `all ${label} arrive within ${TOGETHER_FRACTION * 100}% of the wait for the last`;
  const s = spread(run);
  if (!s || s.count < minEvents) {
    return { id, ...notApplicable(claim, expected, `run ${id} has ${s ? s.count : 0} event(s) measured, ${minEvents} needed`) };
  }
  return {
    id, claim, expected,
    observed: `${s.count} events between ${fmt(s.first)} and ${fmt(s.last)} (spread ${fmt(s.spread)}, ${((100 * s.spread) / Math.max(s.last, MIN_SECONDS)).toFixed(1)}% of the wait)`,
    holds: s.together, reason: '',
  };
}

function speedupClaim(id, claim, slowName, slow, fastName, fast) {
  const expected = `first event >= ${SPEEDUP}x sooner`;
  const a = arrivals(slow);
  const b = arrivals(fast);
  if (a.length === 0 || b.length === 0) {
    const missing = a.length === 0 ? slowName : fastName;
    return { id, ...notApplicable(claim, expected, `run ${missing} has no event measured`) };
  }
  const ratio = a[0] / Math.max(b[0], MIN_SECONDS);
  return {
    id, claim, expected,
    observed: `${fastName} ${fmt(b[0])} vs ${slowName} ${fmt(a[0])}: ${ratioText(ratio)}x`,
    holds: ratio >= SPEEDUP, reason: '', ratio,
  };
}

function scanClaim(id, claim, cursors) {
  const expected = 'fewer docsExamined for E than for A';
  const a = cursors && cursors.A;
  const e = cursors && cursors.E;
  if (!a || !e || !Number.isFinite(Number(a.docsExamined)) || !Number.isFinite(Number(e.docsExamined))) {
    const missing = [!a && 'A', !e && 'E'].filter(Boolean).join(' and ') || 'A or E';
    return { id, ...notApplicable(claim, expected, `no server figures for ${missing} (its slow-query log lines are missing)`) };
  }
  const bytes = (c) => (Number.isFinite(Number(c.bytesRead)) ? `, ${(Number(c.bytesRead) / 1048576).toFixed(1)} MiB read` : '');
  return {
    id, claim, expected,
    observed: `E ${Number(e.docsExamined)} docs examined${bytes(e)} vs A ${Number(a.docsExamined)}${bytes(a)}`,
    holds: Number(e.docsExamined) < Number(a.docsExamined), reason: '',
  };
}

// The five claims, each {id, claim, expected, observed, holds, reason};
// holds null (with a reason) when a run or its figures are missing.
function verdicts(runs, cursors) {
  const r = runs || {};
  return [
    burstClaim('A', "A (default batch size): the events arrive in one burst at the end", r.A, 2, 'events'),
    speedupClaim('B', 'B (batchSize 1): the first event arrives at least 5x sooner than with the default batch size', 'A', r.A, 'B', r.B),
    burstClaim('C', 'C (batchSize 1, resumed after "200 6MB documents added"): its two events arrive together', r.C, 2, 'events'),
    speedupClaim('D', "D (C with internalDocumentSourceCursorBatchSizeBytes 128, which bounds the opening aggregate's first batch): the first event arrives at least 5x sooner than in C", 'C', r.C, 'D', r.D),
    scanClaim('E', 'E (resumed from the postBatchResumeToken saved at the end of A) scans less than A', cursors),
  ];
}

// notes(version): what the server does that explains this version's runs, in
// the report's words (mongodb/mongo):
// - 5.1 rewrites the stream's $match into the oplog scan (jstests/change_streams/
//   oplog_rewrite/*, requires_fcv_51).
// - internalDocumentSourceCursorBatchSizeBytes ends the $cursor stage's internal
//   batch only where no awaitData wait is on: document_source_cursor.cpp
//   (loadBatch) ends the batch after every document while
//   awaitDataState.shouldWaitForInserts is set, which getmore_cmd.cpp sets for
//   every getMore on an awaitData cursor. So the knob shapes only the opening
//   aggregate's first batch: what D changes.
// - An empty first batch (E) is followed at once by an awaitData getMore
//   (the Node driver 7 in mongosh: AbstractCursor.fetchBatch), which the
//   server holds up to 1 s when no maxAwaitTimeMS is given.
function notes(version) {
  const [major, minor] = String(version || '0.0').split('.').map(Number);
  const pushdown = major > 5 || (major === 5 && minor >= 1);
  return [
    pushdown
      ? `MongoDB ${version} (5.1 or newer) rewrites the stream's $match on fullDocument into the oplog scan: non-matching entries are dropped before the $cursor stage batches what it read, so the opening aggregate's batch (internalDocumentSourceCursorBatchSizeBytes, 4 MB) fills only with matching events and C's two events leave together unless the knob is lowered (D).`
      : `MongoDB ${version} (before 5.1) applies the stream's $match after the $cursor stage: every 6 MB junk entry enters that stage's batch and ends it (one entry is over 4 MB), so C's first event should already leave alone and D has little to improve: compare with a 5.1+ version.`,
    'internalDocumentSourceCursorBatchSizeBytes shapes only the opening aggregate\'s first batch: every awaitData getMore already ends its internal batch after each document (document_source_cursor.cpp, with shouldWaitForInserts set by getmore_cmd.cpp). D differs from C in that first batch only.',
    "E's first answer includes one awaitData getMore: its aggregate comes back empty (nothing after A's postBatchResumeToken), the driver sends a getMore at once, and the server holds it up to 1 s (no maxAwaitTimeMS) waiting for a new entry. About a second there is the wait, not a scan.",
  ];
}

module.exports = {
  notes,
  TOGETHER_FRACTION, SPEEDUP, arrivals, fromPrintedTimestamps, spread, timelineRows, verdicts,
};
