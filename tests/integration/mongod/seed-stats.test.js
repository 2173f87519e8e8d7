// seedCollection and collStatsSummary on a real replica set
// (tests/servers/mongod.sh): what the dry run promised is what the server
// holds, and the sizes $collStats reports are those of what was written.
// collStatsSummary's counts and sizes are Longs: compared by value
// (tests/lib/values.js), never with === or >=.

load(require('path').join(test.root, 'tests', 'lib', 'values.js'));

function ssDb() { return db.getSiblingDB('dba_lab_seed_stats'); }

// Count and BSON bytes as the server returns the documents.
function ssServerFigures(coll) {
  let docs = 0;
  let bytes = 0;
  coll.find().forEach((d) => { docs++; bytes += bsonsize(d); });
  return { docs, bytes };
}

const SS_CASES = [
  ['csr', { recipe: 'change-stream-resume', docs: 6, size: '256KB' }],
  ['tiny', { recipe: 'tiny-docs', docs: 2000, collections: 2 }],
  ['sensor', { recipe: 'sensor-hourly', docs: 3 }],
  ['ticker', { recipe: 'ticker', docs: 2500, batchDocs: 1000 }],
  ['keys', { recipe: 'sharded-ids', docs: 2000 }],
  ['padded', { docs: 50, size: '16KB' }],
];

for (const [name, o] of SS_CASES) {
  test(`${o.recipe || 'padded'}: the dry run's documents and bytes are what the server holds`, () => {
    const dry = seedCollection(ssDb().getCollection(name), { ...o, dryRun: true });
    const r = seedCollection(ssDb().getCollection(name), { ...o, drop: true, progress: false });
    assert.strictEqual(r.docs, dry.docs);
    assert.strictEqual(r.bytes, dry.bytes);
    let docs = 0;
    let bytes = 0;
    for (const ns of dry.ns) {
      const f = ssServerFigures(ssDb().getCollection(ns.split('.').slice(1).join('.')));
      docs += f.docs;
      bytes += f.bytes;
    }
    assert.deepStrictEqual({ docs, bytes }, { docs: dry.docs, bytes: dry.bytes });
  });
}

test('collStatsSummary(collection): count and size are what seedCollection wrote', () => {
  const r = seedCollection(ssDb().sized, { docs: 200, size: '4KB', drop: true, progress: false });
  const rows = collStatsSummary(ssDb().sized);
  assert.strictEqual(rows.length, 1);
  const [row] = rows;
  assert.strictEqual(row.ns, 'dba_lab_seed_stats.sized');
  assert.strictEqual(row.type, 'collection');
  assertSameValue(row.count, 200, 'count');
  assertSameValue(row.size, r.bytes, 'size');
  assertSameValue(row.avgObjSize, Math.floor(r.bytes / 200), 'avgObjSize');
  assert.ok(compareValues(row.storageSize, 0) > 0 && compareValues(row.totalIndexSize, 0) > 0, EJSON.stringify(row));
  assert.strictEqual(row.nindexes, 1);
  assert.strictEqual(row.capped, false);
  assert.strictEqual(row.shard, undefined);
});

// The capped size the server keeps for a request, as it reports it
// (listCollections options.size): older code rounds it up to a multiple of
// 256 (CollectionOptions' adjustCappedSize), newer code behind
// featureFlagCappedCollectionsRelaxedSize (SERVER-67246, 6.2) keeps it. Asking
// for the flag is no way to tell: getParameter of a flag the server does not
// know fails, and mongosh throws on it. So the size is read, and must be one
// of the two.
function ssServerCappedSize(name, requested) {
  const [info] = ssDb().getCollectionInfos({ name });
  const kept = Number(info.options.size);
  assert.ok([requested, Math.ceil(requested / 256) * 256].includes(kept), `${name}: asked ${requested}, the server keeps ${kept}`);
  return kept;
}

test('collStatsSummary(database): every collection, a capped one with its limits, largest first', () => {
  ssDb().getCollection('topic').drop();
  ssDb().createCollection('topic', { capped: true, size: 100000, max: 1000 });
  ssDb().topic.insertOne({ time: new Date(), ticker: 'PIP', price: 4.45 });
  const rows = collStatsSummary(ssDb());
  const names = rows.map((r) => r.ns);
  for (const n of ['sized', 'topic', 'ticker', 'sensor']) assert.ok(names.includes(`dba_lab_seed_stats.${n}`), names.join(', '));
  const topic = rows.find((r) => r.ns === 'dba_lab_seed_stats.topic');
  assert.strictEqual(topic.capped, true);
  assertSameValue(topic.maxSize, ssServerCappedSize('topic', 100000), 'capped maxSize');
  assertSameValue(topic.max, 1000, 'capped max');
  // A collection the server would not describe is a row with an error and no
  // figures, listed after every row with figures.
  const figured = rows.filter((r) => r.error === undefined);
  assert.deepEqual(rows.slice(figured.length).filter((r) => r.error === undefined), [], 'error rows come last');
  for (let i = 1; i < figured.length; i++) assert.ok(compareValues(figured[i - 1].storageSize, figured[i].storageSize) >= 0, `${figured[i - 1].ns} (${figured[i - 1].storageSize}) before ${figured[i].ns} (${figured[i].storageSize})`);
});

test('collStatsSummary(): the whole deployment leaves admin, config and local out unless asked', () => {
  const all = collStatsSummary();
  assert.ok(all.some((r) => r.ns.startsWith('dba_lab_seed_stats.')));
  assert.ok(!all.some((r) => /^(admin|config|local)\./.test(r.ns)));
  const withSystem = collStatsSummary(undefined, { system: true });
  assert.ok(withSystem.some((r) => r.ns === 'local.oplog.rs'));
});
