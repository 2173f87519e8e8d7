// seedCollection against a real wire-protocol server (FerretDB): it writes
// what its dry run promised, 6 MiB documents included, and resumes.

function seedDb() { return db.getSiblingDB('dba_lab_seed'); }

// Count and BSON bytes as the server returns the documents.
function seedServerFigures(coll) {
  let docs = 0;
  let bytes = 0;
  coll.find().forEach((d) => { docs++; bytes += bsonsize(d); });
  return { docs, bytes };
}

test('change-stream-resume writes the dry run\'s documents and bytes, markers in the article\'s order', () => {
  seedDb().dropDatabase();
  const o = { recipe: 'change-stream-resume', docs: 8, progress: false };
  const dry = seedCollection(seedDb().foo, { ...o, dryRun: true });
  const r = seedCollection(seedDb().foo, o);
  assert.strictEqual(r.docs, dry.docs);
  assert.strictEqual(r.bytes, dry.bytes);
  assert.strictEqual(r.skipped, 0);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(r.ns)), ['dba_lab_seed.foo']);
  assert.deepStrictEqual(seedServerFigures(seedDb().foo), { docs: dry.docs, bytes: dry.bytes });
  const big = seedDb().foo.find({ i: { $exists: true } }, { s: 0 }).toArray();
  assert.strictEqual(big.length, 8);
  const msgs = seedDb().foo.find({ msg: { $exists: true } }, { msg: 1 }).sort({ _id: 1 }).toArray().map((d) => d.msg);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(msgs)), [
    'This document will be 1Kb', '100 6MB documents, then another 1Kb document',
    'And another 100 6MB documents, then another 1Kb document', '... followed immediately by a 1MB document',
    '100 6MB documents preceded this 3MB document', '... followed by another 1MB document',
    '500 6MB documents added', '200 6MB documents added', 'Adding 2000 more 6MB documents...',
    "This is the last document we'd expect",
  ]);
  assert.ok(r.mbPerSec > 0 && r.seconds > 0 && r.docsPerSec >= 0);
});

test('6 MiB junk documents arrive whole: {_id, i, s} with a 6 MiB string', () => {
  const d = seedDb().foo.findOne({ i: 0 });
  assert.strictEqual(d.s.length, 6 * 1048576);
  assert.strictEqual(bsonsize(d), 6291493);
});

test('tiny-docs, sensor-hourly, ticker, sharded-ids: server figures equal the dry run', () => {
  const cases = [
    ['tiny', { recipe: 'tiny-docs', docs: 300, collections: 2 }],
    ['sensor', { recipe: 'sensor-hourly', docs: 3 }],
    ['ticker', { recipe: 'ticker', docs: 2500, batchDocs: 1000 }],
    ['keys', { recipe: 'sharded-ids', docs: 2000 }],
  ];
  for (const [name, o] of cases) {
    const dry = seedCollection(seedDb().getCollection(name), { ...o, dryRun: true });
    const r = seedCollection(seedDb().getCollection(name), { ...o, progress: false });
    assert.strictEqual(r.docs, dry.docs, name);
    assert.strictEqual(r.bytes, dry.bytes, name);
    let docs = 0;
    let bytes = 0;
    for (const ns of dry.ns) {
      const f = seedServerFigures(seedDb().getCollection(ns.split('.').slice(1).join('.')));
      docs += f.docs;
      bytes += f.bytes;
    }
    assert.deepStrictEqual({ docs, bytes }, { docs: dry.docs, bytes: dry.bytes }, name);
  }
});

test('a rerun after an interruption writes only what is missing', () => {
  const c = seedDb().resume;
  c.drop();
  const o = { docs: 50, size: '2KB', batchDocs: 7, progress: false };
  seedCollection(c, o);
  // Simulate a run stopped mid-way with unordered batches in flight: a gap
  // at position 10 and nothing from 30 on.
  const ids = c.find({}, { _id: 1 }).sort({ _id: 1 }).toArray().map((d) => d._id);
  c.deleteOne({ _id: ids[10] });
  c.deleteMany({ _id: { $gte: ids[30] } });
  assert.strictEqual(c.countDocuments({}), 29);
  const r = seedCollection(c, o);
  assert.strictEqual(r.docs, 21);
  assert.strictEqual(r.bytes, 21 * 2048);
  assert.strictEqual(r.skipped, 29);
  assert.deepStrictEqual(seedServerFigures(c), { docs: 50, bytes: 50 * 2048 });
  const again = seedCollection(c, o);
  assert.strictEqual(again.docs, 0);
  assert.strictEqual(again.skipped, 50);
});

test('drop: true starts over', () => {
  const c = seedDb().resume;
  const r = seedCollection(c, { docs: 50, size: '2KB', drop: true, progress: false });
  assert.strictEqual(r.docs, 50);
  assert.strictEqual(r.skipped, 0);
  assert.strictEqual(c.countDocuments({}), 50);
});

test('another seed writes other documents beside the first ones', () => {
  const c = seedDb().seeds;
  c.drop();
  seedCollection(c, { recipe: 'ticker', docs: 20, progress: false });
  const r = seedCollection(c, { recipe: 'ticker', docs: 20, seed: 2, progress: false });
  assert.strictEqual(r.docs, 20);
  assert.strictEqual(c.countDocuments({}), 40);
});

test('a server error that is not a duplicate key stops the run with seedCollection: in front', () => {
  const c = seedDb().uniq_1;
  c.drop();
  // A unique index that the recipe's repeated `a: "b"` violates: error 11000
  // on another key than _id must not pass for "already written".
  c.createIndex({ a: 1 }, { unique: true });
  const err = test.thrown(() => seedCollection(seedDb().uniq, { recipe: 'tiny-docs', collections: 1, docs: 5, progress: false }));
  assert.match(err.message, /^seedCollection: /);
});
