'use strict';
// routing-refresh's pure modules without a server: where the chunk boundaries
// go (chunk-plan.js), which commands force a full refresh (refresh-plan.js),
// and from real 4.2 mongos log lines and the phases around them to durations
// and fitted lines (model.js). Fixtures: tests/fixtures/routing-refresh/README.md.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const SCEN = path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'routing-refresh');
const FIX = path.join(ROOT, 'tests', 'fixtures', 'routing-refresh');
const model = require(path.join(SCEN, 'model.js'));
const plan = require(path.join(SCEN, 'chunk-plan.js'));
const refreshPlan = require(path.join(SCEN, 'refresh-plan.js'));

// The refresh lines of the article's 4.2 mongos log, as playbooks/analyze reads them.
function mongosEvents() {
  const out = execFileSync(path.join(ROOT, 'playbooks', 'analyze'), ['refresh', '--json', path.join(ROOT, 'tests', 'fixtures', 'logs', 'refresh-4.2-mongos.log')], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map(JSON.parse).filter((e) => e.record === 'refresh').map((e) => ({ ...e, role: 'mongos' }));
}
const phases = () => require(path.join(FIX, 'phases-4.2-mongos.json')).map((p) => ({ ...p, startMs: Date.parse(p.start), endMs: Date.parse(p.end) }));

test('chunk plan: N chunks have N-1 ascending boundaries on [0, 2^40)', () => {
  assert.deepEqual(plan.grid(4), [274877906944, 549755813888, 824633720832]);
  assert.equal(plan.grid(1000).length, 999);
  assert.deepEqual(plan.shardStarts(2), [0, 549755813888]);
});

test('chunk plan: presets go MinKey to MaxKey on alternating shards', () => {
  assert.deepEqual(plan.presetChunks(3, ['a', 'b'], { minKey: 'MIN', maxKey: 'MAX' }), [
    { min: { k: 'MIN' }, max: { k: 366503875925 }, recipientShardId: 'a' },
    { min: { k: 366503875925 }, max: { k: 733007751850 }, recipientShardId: 'b' },
    { min: { k: 733007751850 }, max: { k: 'MAX' }, recipientShardId: 'a' },
  ]);
});

test('chunk filter: a 5.0+ config.collections entry (with timestamp) selects chunks by uuid', () => {
  const entry = { _id: 'dbalab_routing-refresh.chunks_1000', lastmodEpoch: 'e', timestamp: { t: 1700000000, i: 5 }, uuid: 'U-50', key: { k: 1 }, unique: false };
  assert.deepEqual(plan.chunkFilter('dbalab_routing-refresh.chunks_1000', entry), { uuid: 'U-50' });
});

test('chunk filter: a 4.4 entry (uuid but no timestamp) selects chunks by ns', () => {
  const entry = { _id: 'dbalab_routing-refresh.chunks_1000', lastmodEpoch: 'e', dropped: false, uuid: 'U-44', key: { k: 'hashed' }, unique: false };
  assert.deepEqual(plan.chunkFilter('dbalab_routing-refresh.chunks_1000', entry), { ns: 'dbalab_routing-refresh.chunks_1000' });
});

test('chunk filter: a namespace without an entry is an error that names it', () => {
  assert.throws(() => plan.chunkFilter('dbalab_routing-refresh.gone', null), { message: 'dbalab_routing-refresh.gone is not in config.collections' });
});

test('full refresh: each shard primary drops its table, then _flushRoutingTableCacheUpdates with syncFromConfig makes it reload', () => {
  assert.deepEqual(refreshPlan.fullRefresh('d.c').map((s) => [s.on, s.command]), [
    ['mongos', { flushRouterConfig: 'd.c' }],
    ['shard', { flushRouterConfig: 'd.c' }],
    ['shard', { _flushRoutingTableCacheUpdates: 'd.c', syncFromConfig: true }],
  ]);
});

test('log times: JSON, legacy iso8601-local and UTC are placed in time; ctime stamps cannot be', () => {
  assert.deepEqual([
    model.parseLogTime('2022-10-17T16:15:56.209+08:00'), model.parseLogTime('2022-10-05T04:06:33.340+0800'),
    model.parseLogTime('2022-10-04T20:06:33.340Z'), model.parseLogTime('Thu Oct 6 11:25:04.878'),
  ], [1665994556209, 1664913993340, 1664913993340, NaN]);
});

test('attribution: real 4.2 mongos lines fall into the phases around them (745 ms, 73 ms, none)', () => {
  const a = model.attribute(phases(), mongosEvents());
  assert.deepEqual(a.map((p) => [p.mongosMs, p.shardMs, p.events]), [[745, null, 1], [73, null, 1], [null, null, 0]]);
});

test('summary: the median and max server duration per count, node and kind, with the client first-query median', () => {
  assert.deepEqual(model.summarize(model.attribute(phases(), mongosEvents())), [
    { chunks: 1501037, node: 'mongos', kind: 'incremental', medianMs: 409, maxMs: 745, firstQueryMs: 90, refreshesLogged: 2, reps: 3 },
    { chunks: 1501037, node: 'shard', kind: 'incremental', medianMs: null, maxMs: null, firstQueryMs: 90, refreshesLogged: 0, reps: 3 },
  ]);
});

test('line: the article table\'s 5.0 clusters (910 ms at 2M chunks, 2600 ms at 5M) rise +5.633 ms per 10k chunks', () => {
  const f = model.line([2e6, 5e6], [910, 2600]);
  assert.deepEqual(
    [f.slopeMsPer10k, f.interceptMs, f.r2, f.changeMs, f.points, f.growth],
    [5.633, -216.7, 1, 1690, 2, 'linear'],
  );
});

test('fits: one line per node and kind; one chunk count is not a line', () => {
  const summary = [
    { chunks: 1000, node: 'mongos', kind: 'full', medianMs: 10 }, { chunks: 50000, node: 'mongos', kind: 'full', medianMs: 60 },
    { chunks: 1000, node: 'shard', kind: 'full', medianMs: 8 }, { chunks: 50000, node: 'shard', kind: 'full', medianMs: null },
  ];
  const [mongos, shard] = model.fits(summary);
  assert.deepEqual([mongos.node, mongos.slopeMsPer10k, mongos.points], ['mongos', 10.204, 2]);
  assert.deepEqual(shard, { node: 'shard', kind: 'full', points: 1 });
});
