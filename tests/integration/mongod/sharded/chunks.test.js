// chunkSummary and collStatsSummary on a real sharded cluster (two shards,
// started by tests/integration/mongod/sharded.bats through
// tests/servers/mongod.sh start sharded). The chunks are split and moved
// while the collection is empty, so no orphan documents blur the counts.

// collStatsSummary's counts and sizes are Longs: compared by value.
load(require('path').join(test.root, 'tests', 'lib', 'values.js'));

const SH_DB = 'dba_lab_sharded';
const SH_NS = `${SH_DB}.keys`;
// seedCollection's sharded-ids recipe spreads `id` evenly over 0..100,000,000.
const SH_SPLITS = [25000000, 50000000, 75000000];

function shOk(res, what) {
  assert.ok(res && res.ok, `${what}: ${JSON.stringify(res)}`);
  return res;
}

let shState = null;
function shCluster() {
  if (shState) return shState;
  const admin = db.getSiblingDB('admin');
  db.getSiblingDB(SH_DB).dropDatabase();
  try { admin.runCommand({ balancerStop: 1 }); } catch (e) { /* the moves below are ours either way */ }
  const shards = db.getSiblingDB('config').getCollection('shards').find().toArray().map((s) => s._id).sort();
  assert.strictEqual(shards.length, 2, `shards: ${shards}`);
  shOk(admin.runCommand({ enableSharding: SH_DB }), 'enableSharding');
  shOk(admin.runCommand({ shardCollection: SH_NS, key: { id: 1 } }), 'shardCollection');
  for (const p of SH_SPLITS) shOk(admin.runCommand({ split: SH_NS, middle: { id: p } }), `split at ${p}`);
  const primary = db.getSiblingDB('config').getCollection('databases').findOne({ _id: SH_DB }).primary;
  const other = shards.find((s) => s !== primary);
  // The upper half goes to the other shard: two chunks each.
  for (const at of [60000000, 90000000]) {
    shOk(admin.runCommand({ moveChunk: SH_NS, find: { id: at }, to: other, _waitForDelete: true }), `moveChunk ${at}`);
  }
  const seeded = seedCollection(db.getSiblingDB(SH_DB).keys, { recipe: 'sharded-ids', docs: 2000, progress: false });
  // A query after the moves: this mongos refreshes its routing table.
  db.getSiblingDB(SH_DB).keys.find({ id: 60000000 }).itcount();
  shState = { shards, primary, other, seeded };
  return shState;
}

function shMajor() { return Number(db.version().split('.')[0]); }

test('chunkSummary: four chunks, two on each shard, keyed as this version keys config.chunks', () => {
  const { shards } = shCluster();
  const s = chunkSummary(SH_NS);
  assert.strictEqual(s.ns, SH_NS);
  assert.strictEqual(s.keyedBy, shMajor() >= 5 ? 'uuid' : 'ns');
  assert.deepStrictEqual(JSON.parse(JSON.stringify(s.shardKey)), { id: 1 });
  assert.strictEqual(s.chunks, 4);
  assert.strictEqual(s.jumbo, 0);
  assert.deepStrictEqual(s.shards.map((x) => x.shard).sort(), shards);
  for (const x of s.shards) {
    assert.strictEqual(x.chunks, 2, JSON.stringify(x));
    assert.strictEqual(x.percent, 50);
  }
  assert.deepStrictEqual({ min: s.perShard.min, max: s.perShard.max, avg: s.perShard.avg }, { min: 2, max: 2, avg: 2 });
});

test('chunkSummary: the mongos log holds this collection\'s routing refreshes (level 0 from 5.0)', () => {
  shCluster();
  const s = chunkSummary(SH_NS);
  assert.ok(s.refresh && !s.refresh.error, JSON.stringify(s.refresh));
  if (shMajor() >= 5) {
    assert.ok(s.refresh.count >= 1, JSON.stringify(s.refresh));
    for (const e of s.refresh.entries) assert.ok(Number.isFinite(e.durationMillis) && e.durationMillis >= 0, JSON.stringify(e));
  }
});

test('chunkSummary with {log: false} reads no log', () => {
  shCluster();
  const s = chunkSummary(SH_NS, { log: false });
  assert.strictEqual(s.chunks, 4);
  assert.strictEqual(s.refresh, undefined);
});

test('collStatsSummary on a sharded collection: one row per shard with its documents, and a total', () => {
  const { shards, seeded } = shCluster();
  const rows = collStatsSummary(db.getSiblingDB(SH_DB).keys);
  const perShard = rows.filter((r) => r.shard !== 'total');
  const total = rows.find((r) => r.shard === 'total');
  assert.deepStrictEqual(perShard.map((r) => r.shard).sort(), shards);
  for (const r of perShard) {
    assert.strictEqual(r.ns, SH_NS);
    assertSameValue(r.count, 1000, `${r.shard} count`);
  }
  assert.ok(total, 'a total row');
  assertSameValue(total.count, 2000, 'total count');
  assertSameValue(total.size, seeded.bytes, 'total size');
  assertSameValue(sumValues(perShard.map((r) => r.size)), seeded.bytes, 'sum of the shards\' sizes');
});

test('collStatsSummary on the database lists the sharded collection per shard', () => {
  shCluster();
  const rows = collStatsSummary(db.getSiblingDB(SH_DB)).filter((r) => r.ns === SH_NS);
  assert.strictEqual(rows.length, 3);
});
