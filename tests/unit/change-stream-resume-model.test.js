'use strict';
// playbooks/lib/scenarios/change-stream-resume/model.js on the article's own
// printed timings (tests/fixtures/change-stream-resume/article-timings.json)
// and the analyze records of its log lines.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const model = require(path.join(ROOT, 'playbooks/lib/scenarios/change-stream-resume/model.js'));
const article = require(path.join(ROOT, 'tests/fixtures/change-stream-resume/article-timings.json'));

const runOf = (name) => {
  const r = article.runs[name];
  const seconds = model.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0]));
  return { events: seconds.map((s, i) => ({ seconds: s, msg: r.events[i][1] })) };
};

test('printed timestamps become seconds since the stream was opened', () => {
  assert.deepEqual(model.fromPrintedTimestamps('2022-03-02T11:38:37.014Z', ['2022-03-02T11:38:49.888Z', '2022-03-02T11:38:49.891Z']), [12.874, 12.877]);
});

test('an unreadable timestamp is an error naming it', () => {
  assert.throws(() => model.fromPrintedTimestamps('yesterday', []), /cannot read "yesterday" as a time/);
  assert.throws(() => model.fromPrintedTimestamps('2022-03-02T11:38:37.014Z', ['soon']), /cannot read "soon" as a time/);
});

test("A's ten events arrive within 3 ms after 12.9 s: together", () => {
  const s = model.spread(runOf('A'));
  assert.deepEqual([s.count, s.first, s.last, s.together], [10, 12.874, 12.877, true]);
});

test("B's events are spread over 11.4 s of a 12.6 s wait: not together", () => {
  const s = model.spread(runOf('B'));
  assert.deepEqual([s.count, s.first, s.last, s.together], [10, 1.209, 12.591, false]);
});

test('a run without events has no spread and no arrivals', () => {
  assert.equal(model.spread({ events: [] }), null);
  assert.deepEqual(model.arrivals(undefined), []);
});

test('timeline rows number the events and give each gap to the previous one', () => {
  assert.deepEqual(model.timelineRows('C', runOf('C')), [
    { run: 'C', event: 1, msg: 'Adding 2000 more 6MB documents...', seconds: 6.697, gapSeconds: 6.697 },
    { run: 'C', event: 2, msg: "This is the last document we'd expect", seconds: 6.704, gapSeconds: 0.007 },
  ]);
});

test("sumCursors adds up a run's change stream cursors and ignores other records", () => {
  const records = [
    { record: 'cursor', changeStream: true, cursorId: '1', commands: 1, getMores: 0, nreturned: 6, docsExamined: 3000, bytesRead: 100, durationMillis: 10 },
    { record: 'cursor', changeStream: true, cursorId: '2', commands: 3, getMores: 2, nreturned: 4, docsExamined: 39, durationMillis: 5 },
    { record: 'cursor', changeStream: false, cursorId: '3', commands: 9, docsExamined: 7 },
    { record: 'summary' },
  ];
  assert.deepEqual(model.sumCursors('A', records), {
    run: 'A', cursors: 2, cursorIds: ['1', '2'], commands: 4, getMores: 2, nreturned: 10, docsExamined: 3039, bytesRead: 100, durationMillis: 15,
  });
});

test('a run that left no cursor line is missing', () => {
  assert.deepEqual(model.sumCursors('C', []), { run: 'C', missing: true });
  assert.deepEqual(model.sumCursors('C', [{ record: 'cursor', changeStream: false }]), { run: 'C', missing: true });
});

test('notes: C and D as the predictions table has them, the $match pushdown from 5.1 on and not before', () => {
  assert.match(model.notes('5.0.30')[0], /^MongoDB 5\.0\.30: C and D are predicted not to hold: before 5\.1 the stream's \$match runs after the \$cursor stage.* \(SERVER-56872: /);
  assert.match(model.notes('6.0.19')[0], /^MongoDB 6\.0\.19: C and D are predicted to hold: from 5\.1 the stream's \$match is rewritten into the oplog scan/);
  assert.match(model.notes('5.1.0')[0], /^MongoDB 5\.1\.0: no prediction for 5\.1 \(the table covers 4\.4, 5\.0, 6\.0, 7\.0, 8\.0\)/);
});

test("notes: a getMore batches by run D's knob again once it has its first result, on every version", () => {
  for (const v of ['4.4.29', '8.0.4']) {
    assert.ok(model.notes(v).includes("internalDocumentSourceCursorBatchSizeBytes bounds the internal batches the $cursor stage reads: the opening aggregate's, and a getMore's once it has its first result. An awaitData getMore still waiting for its first result ends each internal batch after one document; once it has one it batches by the knob again (getmore_cmd.cpp clears shouldWaitForInserts, document_source_cursor.cpp loadBatch). With batchSize 1 that getMore returns the one event, so D differs from C in the opening aggregate only."));
  }
});

test("notes: run E's first answer includes one awaitData getMore of about a second", () => {
  const e = model.notes('8.0.4')[2];
  assert.match(e, /E's first answer includes one awaitData getMore/);
  assert.match(e, /holds it up to 1 s \(no maxAwaitTimeMS\)/);
});
