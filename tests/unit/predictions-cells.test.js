'use strict';
// Every cell of every scenario's predictions table, through the real checker,
// check.js and report.md: measurements that match the table's prediction for
// a release render the claim AS PREDICTED, measurements that contradict it
// NOT AS PREDICTED. One generated test per scenario, claim and release (each
// series' first release, and each release inside a series where a row changes).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const SCENARIOS = path.join(ROOT, 'playbooks', 'lib', 'scenarios');
const { loadChecker, runChecker } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'check.js'));
const { SERIES, predict, predictAcross, parse } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'predictions.js'));
const { renderMarkdown } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'report', 'render-md.js'));
const csrModel = require(path.join(SCENARIOS, 'change-stream-resume', 'model.js'));
const { versionTag } = require(path.join(SCENARIOS, 'array-push-oplog', 'common.js'));

// A results table of row objects, every row of VERSION.
function tableOf(columns, objects, version) {
  return { title: 'built', columns, rows: objects.map((o) => ({ version, values: columns.map((c) => o[c]) })) };
}
const measured = (version, values) => Object.entries(values).map(([key, value]) => ({ version, key, value, unit: '' }));
const resultsOf = (version, { measurements = [], tables = {} }) => ({
  measurements, tables, params: { scale: 'small' }, versions: [{ requested: '', resolved: version, server: version }],
});

// Each scenario: how to make the run's measurements give claim ID the outcome
// HOLDS at VERSION, and which table row predicts it.
const BUILDERS = {
  'change-stream-resume': {
    claims: ['A', 'B', 'C', 'D', 'E'],
    build(version, id, holds) {
      const burst = holds ? [10, 10.001] : [1, 10];
      const runs = {
        A: { A: burst },
        B: { A: [10, 10.001], B: holds ? [1, 5] : [9, 10] },
        C: { C: burst },
        D: { C: [10, 10.001], D: holds ? [0.5, 10] : [9, 10] },
        E: {},
      }[id];
      const columns = ['series', 'run', 'event', 'msg', 'seconds', 'gapSeconds'];
      const timeline = Object.entries(runs).flatMap(([run, secs]) => csrModel.timelineRows(run, { events: secs.map((s) => ({ seconds: s })) })
        .map((r) => ({ ...r, series: `${version} ${run}` })));
      const server = id === 'E' ? [{ run: 'A', docsExamined: 300 }, { run: 'E', docsExamined: holds ? 2 : 600 }] : [];
      return resultsOf(version, {
        tables: {
          timeline: tableOf(columns, timeline, version),
          server: tableOf(csrModel.SERVER_COLUMNS, server.map((s) => Object.fromEntries(csrModel.SERVER_COLUMNS.map((c) => [c, s[c] ?? '']))), version),
        },
      });
    },
  },
  'capped-pubsub': {
    claims: ['grow', 'shard', 'replicate', 'restart', 'cpu', 'delivery', 'rate'],
    build(version, id, holds) {
      const series = version.split('.').slice(0, 2).join('.');
      const m = {
        grow: { 'grow.allowed': !holds, 'grow.oldSizeBytes': 59, 'grow.newSizeBytes': 170, 'grow.featureCompatibilityVersion': series },
        shard: { 'shard.cluster': true, 'shard.refused': holds, 'shard.errorCode': holds ? 72 : '', 'shard.errorCodeName': holds ? 'InvalidOptions' : '' },
        replicate: { 'replicate.setName': 'rs', 'replicate.oplogInserts': holds ? 40 : 0 },
        restart: { 'restart.documentsBefore': 40, 'restart.documentsAfter': holds ? 0 : 40 },
      }[id];
      const cpu = [1, 10, 40].map((subscribers) => ({ mode: 'capped', subscribers, cpu_ms_per_msg: holds ? 0.1 * subscribers : 0.5 }));
      const delivery = [{ mode: 'capped', expected: 100, lost: holds ? 0 : 3, duplicated: 0 }];
      const latency = [{ mode: 'capped', subscribers: 1, target_per_s: 100, rate_per_s: holds ? 100 : 60 }];
      return resultsOf(version, {
        measurements: m ? measured(version, m) : [],
        tables: {
          ...(id === 'cpu' ? { cpu: tableOf(['mode', 'subscribers', 'cpu_ms_per_msg'], cpu, version) } : {}),
          ...(id === 'delivery' ? { delivery: tableOf(['mode', 'expected', 'lost', 'duplicated'], delivery, version) } : {}),
          ...(id === 'rate' ? { 'publish-latency': tableOf(['mode', 'subscribers', 'target_per_s', 'rate_per_s'], latency, version) } : {}),
        },
      });
    },
  },
  'mongodump-raw-bson': {
    claims: ['decoding', 'raw', 'restore', 'shape'],
    build(version, id, holds) {
      // Wall seconds per method; the claim under test is the one these decide.
      const walls = {
        decoding: { 'mongodump-dir': 1, 'driver-decoded': holds ? 3 : 1.2 },
        raw: { 'mongodump-dir': 1, 'driver-raw': holds ? 1.1 : 3, 'driver-decoded': holds ? 2 : 3.1 },
        restore: { 'mongodump-dir': 1, mongorestore: holds ? 8 : 2 },
        shape: { 'mongodump-dir': 1, 'driver-decoded': 2 },
      }[id];
      const shapes = id === 'shape' ? ['tiny', 'nested'] : ['tiny'];
      const values = {};
      const timing = [];
      for (const shape of shapes) {
        values[`${shape}.docs`] = 1000;
        for (const [method, wall] of Object.entries(walls)) {
          // Nested documents cost the decoding reader more, or (contradicting the claim) less.
          const w = shape === 'nested' && method === 'driver-decoded' ? wall * (holds ? 3 : 0.6) : wall;
          Object.assign(values, { [`${shape}.${method}.wallSeconds`]: w, [`${shape}.${method}.cpuSeconds`]: w / 2 });
          timing.push({ shape, method, runs: 3 });
        }
      }
      return resultsOf(version, { measurements: measured(version, values), tables: { timing: tableOf(['shape', 'method', 'runs'], timing, version) } });
    },
  },
  'routing-refresh': {
    claims: ['linear', 'linear:incremental', 'near-constant'],
    // A claim's verdicts: 'linear' has one per node and kind of refresh.
    pick: (id) => (r) => (id === 'linear:incremental' ? r.id === 'linear' && /incremental refresh\)$/.test(r.claim)
      : id === 'linear' ? r.id === 'linear' && /full refresh\)$/.test(r.claim) : r.id === id),
    build(version, id, holds) {
      const grows = id === 'near-constant' ? !holds : holds;
      const kind = id === 'linear' ? 'full' : 'incremental';
      const rows = [10000, 50000, 100000].flatMap((chunks) => ['mongos', 'shard'].map((node) => ({
        chunks, node, kind, medianMs: grows ? chunks / 100 : 40, refreshesLogged: 3,
      })));
      return resultsOf(version, {
        measurements: measured(version, { chunkGrouping: 1, shardFullRefreshMeasurable: 1 }),
        tables: { durations: tableOf(['chunks', 'node', 'kind', 'medianMs', 'refreshesLogged'], rows, version) },
      });
    },
  },
  'array-push-oplog': {
    claims: ['push', 'push-slice', 'fix'],
    build(version, id, holds) {
      const lengths = [100, 1000, 3000];
      const linear = lengths.map((length) => ({ length, bytes: 200 + 100 * length }));
      const flat = lengths.map((length) => ({ length, bytes: 200 }));
      const curves = {
        push: { push: holds ? linear : flat },
        'push-slice': { 'push-slice': holds ? linear : flat },
        fix: { 'push-slice': linear },
      }[id];
      const rows = Object.entries(curves).flatMap(([pattern, pts]) => pts.map((p) => ({ pattern, ...p })));
      const fix = holds ? { insertBytes: 150, compactionInsertBytes: 400000, compactionDeleteBytes: 80 } : { insertBytes: 300000, compactionInsertBytes: 400000000, compactionDeleteBytes: 80 };
      return resultsOf(version, {
        measurements: id === 'fix' ? measured(version, Object.fromEntries(Object.entries(fix).map(([k, v]) => [`fix.${k}`, v]))) : [],
        tables: { [`curve-${versionTag(version)}`]: tableOf(['pattern', 'length', 'bytes'], rows, version) },
      });
    },
  },
};

// Each series' first release, and every release inside a series where a row of ID changes.
function releasesOf(table, id) {
  const row = table.claims[id] || table.facts[id];
  const inside = row.spans.map((s) => s.from).filter((f) => parse(f)[2] > 0 && SERIES.includes(f.split('.').slice(0, 2).join('.')));
  return [...SERIES.map((s) => `${s}.0`), ...inside];
}

const word = (holds, predicted) => (holds === predicted ? 'AS PREDICTED' : 'NOT AS PREDICTED');

function judged(name, id, results) {
  const checker = loadChecker(path.join(SCENARIOS, name, 'checker.js'));
  const pick = (BUILDERS[name].pick || ((i) => (r) => r.id === i))(id);
  return runChecker(checker, results).filter((r) => pick(r) && r.verdict !== 'NOT APPLICABLE');
}

for (const [name, builder] of Object.entries(BUILDERS)) {
  const table = require(path.join(SCENARIOS, name, 'predictions.js'));
  for (const id of builder.claims) {
    for (const release of releasesOf(table, id)) {
      const p = predict(table, id, release);
      test(`${name} ${id} on ${release}: predicted to ${p.holds ? 'hold' : 'fail'}; as measured it is AS PREDICTED, the contrary NOT AS PREDICTED`, () => {
        for (const holds of [true, false]) {
          const results = builder.build(release, id, holds);
          const records = judged(name, id, results);
          assert.ok(records.length > 0, `${holds ? 'holding' : 'failing'} measurements judge ${id}`);
          for (const r of records) {
            assert.equal(r.verdict, holds ? 'REPRODUCED' : 'NOT REPRODUCED', `${r.claim}: ${r.observed} ${r.reason}`);
            assert.equal(r.prediction, word(holds, p.holds), r.claim);
            assert.deepEqual([r.predictionBasis.reason, r.predictionBasis.source.url], [p.reason, p.source.url]);
          }
          const md = renderMarkdown({ ...results, title: name, playbook: name, status: 'done', verdicts: records }, [], null);
          for (const r of records) {
            assert.ok(md.includes(`| **${r.verdict}** | ${r.prediction}`), `${name} report.md shows ${r.claim}: ${r.verdict}, ${r.prediction}`);
          }
        }
      });
    }
  }
}

// array-push-oplog's versions claim is predicted across the releases compared:
// each pair of series, logging $addToSet alike or not.
{
  const table = require(path.join(SCENARIOS, 'array-push-oplog', 'predictions.js'));
  const lengths = [100, 1000, 3000];
  const curveRows = (version, whole) => ['push-slice', 'addtoset'].flatMap((pattern) => lengths.map((length) => ({
    pattern, length, bytes: pattern === 'addtoset' && !whole ? 200 : 200 + 100 * length,
  })));
  for (let i = 0; i < SERIES.length; i += 1) {
    for (let j = i + 1; j < SERIES.length; j += 1) {
      const [a, b] = [`${SERIES[i]}.0`, `${SERIES[j]}.0`];
      const p = predictAcross(table, 'versions', [a, b]);
      test(`array-push-oplog versions on ${a} and ${b}: predicted to ${p.holds ? 'hold' : 'fail'}; alike is ${word(true, p.holds)}, differing ${word(false, p.holds)}`, () => {
        for (const holds of [true, false]) {
          const aWhole = predict(table, 'whole:addtoset', a).holds;
          const results = {
            measurements: [], params: {}, versions: [a, b].map((v) => ({ resolved: v })),
            tables: {
              [`curve-${versionTag(a)}`]: tableOf(['pattern', 'length', 'bytes'], curveRows(a, aWhole), a),
              [`curve-${versionTag(b)}`]: tableOf(['pattern', 'length', 'bytes'], curveRows(b, holds ? aWhole : !aWhole), b),
            },
          };
          const [r] = judged('array-push-oplog', 'versions', results);
          assert.ok(r, 'the versions claim is judged');
          assert.deepEqual([r.verdict, r.prediction], [holds ? 'REPRODUCED' : 'NOT REPRODUCED', word(holds, p.holds)]);
        }
      });
    }
  }
}

test('every claim of every checker has a builder here, so no cell goes untested', () => {
  for (const [name, builder] of Object.entries(BUILDERS)) {
    const { claims } = require(path.join(SCENARIOS, name, 'checker.js'));
    const covered = new Set(builder.claims.map((c) => c.split(':')[0]));
    if (name === 'array-push-oplog') covered.add('versions');
    assert.deepEqual(claims.map((c) => c.id).filter((c) => !covered.has(c)), [], name);
  }
});
