'use strict';
// change-stream-resume: event timelines and per-run server figures as pure
// functions (no server, no shell, no I/O), shared by the stages (run.js,
// measure.js) and the checker, and unit-tested on the article's printed timings.
//
// A run is {events: [{seconds, msg?}]}: each event's arrival in seconds since
// the stream was opened. Server figures per run come from `playbooks/analyze
// cursors --json`: {docsExamined, bytesRead, commands, durationMillis}.

// Events "arrive together" when the spread of their arrivals is at most this
// fraction of the wait for the last one (the change-stream-resume article: 10 events within 3 ms after
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

// The server table's figures of one run, summed over its change stream
// cursors, from the `playbooks/analyze cursors --json` records of its log lines
// (told apart by appName); {run, missing: true} when the run left no cursor line.
function sumCursors(run, records) {
  const cursors = (records || []).filter((r) => r && r.record === 'cursor' && r.changeStream);
  if (cursors.length === 0) return { run, missing: true };
  const sum = (key) => cursors.reduce((total, c) => total + (Number(c[key]) || 0), 0);
  return {
    run,
    cursors: cursors.length,
    cursorIds: cursors.map((c) => c.cursorId),
    commands: sum('commands'),
    getMores: sum('getMores'),
    nreturned: sum('nreturned'),
    docsExamined: sum('docsExamined'),
    bytesRead: sum('bytesRead'),
    durationMillis: sum('durationMillis'),
  };
}

// The server table's columns, in order (the playbook declares the table).
const SERVER_COLUMNS = ['run', 'cursors', 'commands', 'getMores', 'nreturned', 'docsExamined', 'bytesRead', 'durationMillis'];

// notes(version): what the server does that explains this version's runs, in
// the report's words (mongodb/mongo):
// - whether C holds on this version, and why: the predictions table
//   (predictions.js; 5.1 rewrites the stream's $match into the oplog scan).
// - internalDocumentSourceCursorBatchSizeBytes ends the $cursor stage's internal
//   batch only where no awaitData wait is on: document_source_cursor.cpp
//   (loadBatch) ends the batch after every document while
//   awaitDataState.shouldWaitForInserts is set, and getmore_cmd.cpp clears it
//   once the getMore has its first result, so from then on the knob applies
//   again. With batchSize 1 that getMore returns its one event: what D changes
//   is the opening aggregate's batch.
// - An empty first batch (E) is followed at once by an awaitData getMore
//   (the Node driver 7 in mongosh: AbstractCursor.fetchBatch), which the
//   server holds up to 1 s when no maxAwaitTimeMS is given.
function notes(version) {
  const c = predict(PREDICTIONS, 'C', version);
  return [
    c.none
      ? `MongoDB ${version}: ${c.none} (the table covers ${PREDICTIONS.series.join(', ')}); C and D depend on whether this release rewrites the stream's $match into the oplog scan (5.1 and later do).`
      : `MongoDB ${version}: C and D are predicted ${c.holds ? 'to hold' : 'not to hold'}: ${c.reason} (${c.source.ref}).`,
    "internalDocumentSourceCursorBatchSizeBytes bounds the internal batches the $cursor stage reads: the opening aggregate's, and a getMore's once it has its first result. An awaitData getMore still waiting for its first result ends each internal batch after one document; once it has one it batches by the knob again (getmore_cmd.cpp clears shouldWaitForInserts, document_source_cursor.cpp loadBatch). With batchSize 1 that getMore returns the one event, so D differs from C in the opening aggregate only.",
    "E's first answer includes one awaitData getMore: its aggregate comes back empty (nothing after A's postBatchResumeToken), the driver sends a getMore at once, and the server holds it up to 1 s (no maxAwaitTimeMS) waiting for a new entry. About a second there is the wait, not a scan.",
  ];
}

const { predict } = require('../../js/predictions.js');
const PREDICTIONS = require('./predictions.js');

module.exports = {
  notes, sumCursors, SERVER_COLUMNS,
  TOGETHER_FRACTION, SPEEDUP, MIN_SECONDS, arrivals, fromPrintedTimestamps, spread, timelineRows,
};
