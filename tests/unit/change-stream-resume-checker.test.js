'use strict';
// change-stream-resume's checker on recorded measurements: the article's
// printed timings (tests/fixtures/change-stream-resume/article-timings.json)
// as the timeline table a run writes, and the server figures `playbooks/analyze
// cursors` gives for the article's log lines of runs A and B (3039 and 3037
// documents examined). Every claim's REPRODUCED, NOT_REPRODUCED and NOT_APPLICABLE.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const DIR = path.join(ROOT, 'playbooks/lib/scenarios/change-stream-resume');
const checker = require(path.join(DIR, 'checker.js'));
const model = require(path.join(DIR, 'model.js'));
const { runChecker } = require(path.join(ROOT, 'playbooks/lib/js/check.js'));
const article = require(path.join(ROOT, 'tests/fixtures/change-stream-resume/article-timings.json'));

const VERSION = '5.2.0';
const TIMELINE_COLUMNS = ['series', 'run', 'event', 'msg', 'seconds', 'gapSeconds'];

function articleRuns() {
  const runs = {};
  for (const [name, r] of Object.entries(article.runs)) {
    const seconds = model.fromPrintedTimestamps(r.opened, r.events.map((e) => e[0]));
    runs[name] = seconds.map((s, i) => ({ seconds: s, msg: r.events[i][1] }));
  }
  return runs;
}

// results.json's shape: runs {NAME: [seconds | {seconds, msg}]}, server {RUN: {docsExamined, bytesRead}}.
function results({ runs = articleRuns(), server = {}, version = VERSION } = {}) {
  const rows = [];
  for (const [name, events] of Object.entries(runs)) {
    const evs = events.map((e) => (typeof e === 'number' ? { seconds: e } : e));
    for (const row of model.timelineRows(name, { events: evs })) {
      rows.push({ version, values: TIMELINE_COLUMNS.map((c) => (c === 'series' ? `${version} ${name}` : row[c])) });
    }
  }
  const serverRows = Object.entries(server).map(([run, f]) => ({
    version, values: model.SERVER_COLUMNS.map((c) => (c === 'run' ? run : (f[c] ?? ''))),
  }));
  return {
    measurements: [],
    tables: {
      timeline: { title: 'timeline', columns: TIMELINE_COLUMNS, rows },
      server: { title: 'server', columns: model.SERVER_COLUMNS, rows: serverRows },
    },
    params: { scale: 'small', junk: 300 },
    versions: [{ requested: '5.2', resolved: version, server: version }],
  };
}

const verdict = (r, id) => {
  const found = checker.check(r).filter((v) => v.id === id);
  assert.equal(found.length, 1);
  return found[0];
};
const brief = (v) => [v.result, v.observed, v.why || ''];

const ARTICLE_SERVER = { A: { docsExamined: 3039, bytesRead: 19528768718 }, B: { docsExamined: 3037, bytesRead: 19497309628 } };

test('the article: A burst, B 10.6x, C together, D 231x; E not applicable (it has no run E)', () => {
  const all = checker.check(results({ server: ARTICLE_SERVER }));
  assert.deepEqual(all.map((v) => [v.id, v.version, ...brief(v)]), [
    ['A', VERSION, 'REPRODUCED', '10 events between 12.874 s and 12.877 s (spread 3 ms, 0.0% of the wait)', ''],
    ['B', VERSION, 'REPRODUCED', 'B 1.209 s vs A 12.874 s: 10.6x', ''],
    ['C', VERSION, 'REPRODUCED', '2 events between 6.697 s and 6.704 s (spread 7 ms, 0.1% of the wait)', ''],
    ['D', VERSION, 'REPRODUCED', 'D 29 ms vs C 6.697 s: 231x', ''],
    ['E', VERSION, 'NOT_APPLICABLE', 'not measured', 'no server figures for E (its slow-query log lines are missing)'],
  ]);
});

test('every verdict is one check.js accepts', () => {
  const records = runChecker(checker, results({ server: ARTICLE_SERVER }));
  assert.equal(records.length, 5);
});

test('A: events spread over most of the wait are not a burst', () => {
  const runs = { ...articleRuns(), A: articleRuns().B };
  assert.deepEqual(brief(verdict(results({ runs }), 'A')), ['NOT_REPRODUCED', '10 events between 1.209 s and 12.591 s (spread 11.382 s, 90.4% of the wait)', '']);
});

test('A: a single event cannot show a burst', () => {
  assert.deepEqual(brief(verdict(results({ runs: { ...articleRuns(), A: [12.9] } }), 'A')), ['NOT_APPLICABLE', 'not measured', 'needs at least 2 events of run A, had 1']);
});

test('B: a first event less than 5x sooner is not reproduced', () => {
  assert.deepEqual(brief(verdict(results({ runs: { ...articleRuns(), B: [3, 4] } }), 'B')), ['NOT_REPRODUCED', 'B 3.000 s vs A 12.874 s: 4.3x', '']);
});

test('B: a run without events makes the claim not applicable, never a pass', () => {
  assert.deepEqual(brief(verdict(results({ runs: { ...articleRuns(), B: [] } }), 'B')), ['NOT_APPLICABLE', 'not measured', 'run B has no event measured']);
});

test('C: a second event 3 s after the first is not together', () => {
  assert.deepEqual(brief(verdict(results({ runs: { ...articleRuns(), C: [6.697, 9.7] } }), 'C')), ['NOT_REPRODUCED', '2 events between 6.697 s and 9.700 s (spread 3.003 s, 31.0% of the wait)', '']);
});

test('C: no events is not applicable', () => {
  const runs = articleRuns();
  delete runs.C;
  assert.deepEqual(brief(verdict(results({ runs }), 'C')), ['NOT_APPLICABLE', 'not measured', 'needs at least 2 events of run C, had 0']);
});

test('D: no faster than C is not reproduced; without C it is not applicable', () => {
  assert.deepEqual(brief(verdict(results({ runs: { ...articleRuns(), D: [6.1, 9.0] } }), 'D')), ['NOT_REPRODUCED', 'D 6.100 s vs C 6.697 s: 1.1x', '']);
  const runs = articleRuns();
  delete runs.C;
  assert.deepEqual(brief(verdict(results({ runs }), 'D')), ['NOT_APPLICABLE', 'not measured', 'run C has no event measured']);
});

test('E: decided from docsExamined, either way', () => {
  const less = results({ server: { A: ARTICLE_SERVER.A, E: { docsExamined: 1, bytesRead: 0 } } });
  assert.deepEqual(brief(verdict(less, 'E')), ['REPRODUCED', 'E 1 docs examined, 0.0 MiB read vs A 3039, 18624.1 MiB read', '']);
  const same = results({ server: { A: { docsExamined: 3039 }, E: { docsExamined: 3039 } } });
  assert.deepEqual(brief(verdict(same, 'E')), ['NOT_REPRODUCED', 'E 3039 docs examined vs A 3039', '']);
  assert.deepEqual(brief(verdict(results(), 'E')), ['NOT_APPLICABLE', 'not measured', 'no server figures for A and E (its slow-query log lines are missing)']);
});

test('each version is decided on its own rows', () => {
  const a = results({ version: '4.4.29' });
  const b = results({ version: '8.0.4', runs: { ...articleRuns(), B: [3, 4] } });
  const both = {
    ...a,
    tables: { timeline: { ...a.tables.timeline, rows: [...a.tables.timeline.rows, ...b.tables.timeline.rows] }, server: a.tables.server },
    versions: [...a.versions, ...b.versions],
  };
  const bs = checker.check(both).filter((v) => v.id === 'B').map((v) => [v.version, v.result]);
  assert.deepEqual(bs, [['4.4.29', 'REPRODUCED'], ['8.0.4', 'NOT_REPRODUCED']]);
});

test("the recorded report of the article's runs (tests/fixtures/reports) gives the article's verdicts", () => {
  const recorded = require(path.join(ROOT, 'tests/fixtures/reports/change-stream-resume/results.json'));
  const input = { measurements: recorded.measurements, tables: recorded.tables, params: {}, versions: recorded.environment.versions };
  const all = checker.check(input);
  assert.deepEqual(all.map((v) => [v.id, v.version, v.result]), [
    ['A', 'all', 'REPRODUCED'], ['B', 'all', 'REPRODUCED'], ['C', 'all', 'REPRODUCED'], ['D', 'all', 'REPRODUCED'], ['E', 'all', 'NOT_APPLICABLE'],
  ]);
});

test("the D claim names what the knob bounds", () => {
  assert.equal(checker.claims.find((c) => c.id === 'D').claim,
    "D (C with internalDocumentSourceCursorBatchSizeBytes 128, which bounds the opening aggregate's first batch): the first event arrives at least 5x sooner than in C");
});

const recordOf = (r, id) => runChecker(checker, r).find((v) => v.id === id);

test('every claim declares the evidence it needs: two events for a burst, one in each run for a speed-up, both runs for a scan', () => {
  assert.deepEqual(checker.claims.map((c) => [c.id, c.needs.minPoints]), [['A', 2], ['B', 1], ['C', 2], ['D', 1], ['E', 2]]);
});

test('the verdicts record their evidence: the events of the run, or the runs with server figures', () => {
  const records = runChecker(checker, results({ server: ARTICLE_SERVER }));
  assert.deepEqual(records.map((r) => [r.id, r.evidence.summary]), [
    ['A', '10 events of run A'], ['B', '10 events in the run with fewer'], ['C', '2 events of run C'],
    ['D', '2 events in the run with fewer'], ['E', '1 runs with server figures (A and E)'],
  ]);
});

test('B: a run without events is below its minimum of one event per run, recorded as such', () => {
  const r = recordOf(results({ runs: { ...articleRuns(), B: [] } }), 'B');
  assert.deepEqual([r.verdict, r.evidence.points], ['NOT APPLICABLE', 0]);
});
