'use strict';
// mongodump-raw-bson's model (playbooks/lib/scenarios/mongodump-raw-bson/model.js):
// timed samples into medians, the timing table and the measurements the
// checker reads, on the article's own figures and a real run against FerretDB
// (tests/fixtures/mongodump-raw-bson/README.md says where each comes from).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const FIX = path.join(ROOT, 'tests', 'fixtures', 'mongodump-raw-bson');
const m = require(path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'mongodump-raw-bson', 'model.js'));

const samples = (file) => fs.readFileSync(path.join(FIX, file), 'utf8').split('\n').filter(Boolean).map(JSON.parse);
const shapes = (file) => JSON.parse(fs.readFileSync(path.join(FIX, file), 'utf8'));
const sample = (fields) => ({ shape: 'tiny', side: 'read', part: '', maxRssBytes: 1, exit: 0, ...fields });

test("the article's docs/s and MB/s come from the seeded sizes and the median wall time", () => {
  const { rows } = m.analyze(samples('article.jsonl'), shapes('article-shapes.json'));
  assert.deepEqual([rows[0].method, rows[0].docs_per_s, rows[0].mb_per_s, rows[0].x_mongodump], ['mongodump-dir', 2739726, 81, 1]);
});

test("the FerretDB run's medians (mean of the middle two of 2 runs), method by method in run order", () => {
  const { rows } = m.analyze(samples('ferretdb-run.jsonl'), shapes('ferretdb-shapes.json'));
  assert.deepEqual(rows.filter((r) => r.shape === 'tiny').map((r) => [r.method, r.wall_s]), [
    ['mongodump-dir', 0.713], ['mongodump-archive', 0.706], ['driver-raw', 0.637], ['driver-decoded', 0.61],
    ['mongosh-toArray', 1.448], ['mongoexport', 0.771], ['floor-cat', 0.003], ['mongorestore', 0.329],
    ['mongorestore-workers-4', 0.482], ['mongorestore-parallel-1', 0.323], ['driver-insertMany', 0.899],
  ]);
});

test("mongoexport's parts (one process per collection) add up per run", () => {
  const { figures } = m.analyze(samples('ferretdb-run.jsonl'), shapes('ferretdb-shapes.json'));
  const f = figures.find((x) => x.shape === 'tiny' && x.method === 'mongoexport');
  const run1 = 0.177017 + 0.166666 + 0.174947 + 0.191359;
  const run2 = 0.143999 + 0.177343 + 0.23555 + 0.275578;
  assert.equal(Math.round(f.wall * 1e6), Math.round(((run1 + run2) / 2) * 1e6));
});

test('a failed method shows its exit status and keeps the others', () => {
  const list = [...samples('ferretdb-run.jsonl').slice(0, 2),
    sample({ method: 'mongoexport', repeat: 1, part: 'tiny_1', wall: 0.1, user: 0.01, sys: 0, exit: 1 })];
  const { rows, measurements } = m.analyze(list, shapes('ferretdb-shapes.json'));
  assert.deepEqual(rows.map((r) => [r.method, r.runs, r.status]), [['mongodump-dir', 2, 'ok'], ['mongoexport', 0, 'FAILED (exit 1)']]);
  assert.ok(!measurements.some((x) => x.key.startsWith('tiny.mongoexport.')), 'no figures of a method that never ran cleanly');
});

test("the client's own timer (after start-up) is its median in_process_s, and its document count docs_seen", () => {
  const result = (seconds) => ({ docs: 8000, bytes: 248000, seconds });
  const list = [[1, 1.0, 0.4], [2, 1.2, 0.6], [3, 3.0, 2.5]]
    .map(([repeat, wall, inner]) => sample({ method: 'driver-raw', repeat, wall, user: 0.5, sys: 0.1, maxRssBytes: 1048576, result: result(inner) }));
  const [row] = m.analyze(list, shapes('ferretdb-shapes.json')).rows;
  assert.deepEqual([row.wall_s, row.in_process_s, row.docs_seen, row.status, row.cpu_pct_of_wall], [1.2, 0.6, 8000, 'ok', 50]);
});

test("server CPU around a run goes into server_cpu_s and the measurement serverCpuSeconds", () => {
  const list = [
    sample({ method: 'mongodump-dir', repeat: 1, wall: 1.46, user: 0.3, sys: 0.2, serverUser: 1.0, serverSys: 0.2 }),
    sample({ side: 'write', method: 'mongorestore', repeat: 1, wall: 79.8, user: 2.0, sys: 1.0, serverUser: 60.0, serverSys: 12.5 }),
  ];
  const { rows, measurements } = m.analyze(list, shapes('article-shapes.json'));
  assert.deepEqual(rows.map((r) => r.server_cpu_s), [1.2, 72.5]);
  assert.deepEqual(measurements.filter((x) => x.key.startsWith('tiny.mongorestore.')), [
    { key: 'tiny.mongorestore.wallSeconds', value: 79.8, unit: 's' },
    { key: 'tiny.mongorestore.cpuSeconds', value: 3, unit: 's' },
    { key: 'tiny.mongorestore.serverCpuSeconds', value: 72.5, unit: 's' },
  ]);
});

test('without server CPU figures there is no serverCpuSeconds measurement', () => {
  const { measurements } = m.analyze(samples('article.jsonl'), shapes('article-shapes.json'));
  assert.deepEqual(measurements.map((x) => x.key), [
    'tiny.mongodump-dir.wallSeconds', 'tiny.mongodump-dir.cpuSeconds', 'tiny.mongorestore.wallSeconds', 'tiny.mongorestore.cpuSeconds',
  ]);
});

test('the floor note compares mongodump with cat of its own files', () => {
  const { notes } = m.analyze(samples('ferretdb-run.jsonl'), shapes('ferretdb-shapes.json'));
  assert.match(notes[0], /^\[tiny\] The floor: `cat` of the dump files \(warm page cache\) took 0\.003 s; mongodump to a directory took \d+\.\dx that\.$/);
});
