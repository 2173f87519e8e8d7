// The oplog snippets on a real replica set (tests/servers/mongod.sh):
// oplogEntrySize and explainOplogEntry on real update entries of each array
// pattern ($v:1 before 5.0, $v:2 diffs from 5.0: docs/mongodb-facts.md#oplog-update-v1,
// #oplog-update-v2), oplogWindow, changeStreamResumeCheck.

function opDb() { return db.getSiblingDB('dba_lab_oplog'); }

function opFormat() {
  return Number(db.version().split('.')[0]) >= 5 ? '$v:2' : '$v:1';
}

// A document with a 50-element array, one update through oplogEntrySize, and
// the one entry it wrote.
function opUpdate(name, update) {
  const coll = opDb().getCollection('arrays');
  coll.deleteOne({ _id: name });
  coll.insertOne({ _id: name, arr: Array.from({ length: 50 }, (_, i) => ({ s: NumberInt(i), v: 'x'.repeat(20) })) });
  const res = oplogEntrySize(function (sdb) { return sdb.getSiblingDB('dba_lab_oplog').getCollection('arrays').updateOne({ _id: name }, update); });
  assert.strictEqual(res.count, 1, `${name}: ${res.count} entries with the session's lsid`);
  return res.entries[0];
}

// Whether this release logs a pattern's update as the whole array ('replace')
// or by element ('elements'): array-push-oplog's predictions table, the facts
// 'whole:<pattern>' ($addToSet changes with SERVER-72941, from 7.1).
function opAction(name) {
  const path = require('path');
  const { predict } = require(path.join(test.root, 'playbooks', 'lib', 'js', 'predictions.js'));
  const table = require(path.join(test.root, 'playbooks', 'lib', 'scenarios', 'array-push-oplog', 'predictions.js'));
  const p = predict(table, `whole:${name}`, db.version());
  assert.ok(!p.none, `${p.none}: the real-server lane runs the series the tables cover`);
  return p.holds ? 'replace' : 'elements';
}

const OP_PATTERNS = [
  ['push', { $push: { arr: { s: NumberInt(50), v: 'y' } } }],
  ['set-one', { $set: { 'arr.49': { s: NumberInt(49), v: 'z' } } }],
  ['push-slice', { $push: { arr: { $each: [{ s: NumberInt(50), v: 'y' }], $slice: -50 } } }],
  ['push-sort', { $push: { arr: { $each: [{ s: NumberInt(50), v: 'y' }], $sort: { s: 1 } } } }],
  ['push-position0', { $push: { arr: { $each: [{ s: NumberInt(-1), v: 'y' }], $position: 0 } } }],
  ['addtoset', { $addToSet: { arr: { s: NumberInt(50), v: 'y' } } }],
  ['pull', { $pull: { arr: { s: 0 } } }],
  ['pop-first', { $pop: { arr: -1 } }],
  ['pop-last', { $pop: { arr: 1 } }],
];

for (const [name, update] of OP_PATTERNS) {
  test(`${name}: one update entry in this version's format; explainOplogEntry says the array is written as the predictions table says`, () => {
    const action = opAction(name);
    const e = opUpdate(name, update);
    assert.strictEqual(e.op, 'u');
    assert.strictEqual(e.ns, 'dba_lab_oplog.arrays');
    assert.strictEqual(e.explanation.format, opFormat());
    const arr = (e.explanation.arrays || []).find((a) => a.path === 'arr');
    assert.ok(arr, `${name}: no array in ${JSON.stringify(e.explanation.arrays)}`);
    assert.strictEqual(arr.action, action, `${name} on ${db.version()}`);
    if (action === 'replace') assert.ok(arr.elements >= 49, `${name}: ${arr.elements} elements`);
  });
}

test('the stored entry read back from local.oplog.rs: oplogEntrySize(entry) is its bsonsize, explainOplogEntry agrees', () => {
  const e = opUpdate('readback', { $push: { arr: { $each: [{ s: NumberInt(50), v: 'y' }], $sort: { s: 1 } } } });
  const raw = db.getSiblingDB('local').getCollection('oplog.rs').findOne({ ts: e.ts, ns: e.ns });
  assert.ok(raw, 'the entry is in the oplog');
  const size = oplogEntrySize(raw);
  assert.strictEqual(size.bytes, bsonsize(raw));
  assert.strictEqual(size.bytes, e.bytes);
  const parts = Object.values(size.breakdown).reduce((a, b) => a + b, 0);
  assert.strictEqual(parts, size.bytes - 5);
  const x = explainOplogEntry(raw);
  assert.strictEqual(x.format, opFormat());
  assert.strictEqual(x.arrays.find((a) => a.path === 'arr').action, 'replace');
});

test('whole-array entries grow with the array, positional ones do not', () => {
  const sizes = (name, update, n) => {
    const coll = opDb().getCollection('growth');
    coll.deleteOne({ _id: name });
    coll.insertOne({ _id: name, arr: Array.from({ length: n }, (_, i) => ({ s: NumberInt(i), v: 'x'.repeat(20) })) });
    const u = update(n);
    return oplogEntrySize(function (sdb) { return sdb.getSiblingDB('dba_lab_oplog').getCollection('growth').updateOne({ _id: name }, u); }).bytes;
  };
  const push = () => ({ $push: { arr: { s: NumberInt(0), v: 'y' } } });
  // Keep the last n: every push trims one, as a capped array does.
  const slice = (n) => ({ $push: { arr: { $each: [{ s: NumberInt(0), v: 'y' }], $slice: -n } } });
  const pushSmall = sizes('p10', push, 10);
  const pushBig = sizes('p1000', push, 1000);
  assert.ok(Math.abs(pushBig - pushSmall) < 16, `plain $push: ${pushSmall} B at 10, ${pushBig} B at 1000`);
  const sliceSmall = sizes('s10', slice, 10);
  const sliceBig = sizes('s1000', slice, 1000);
  assert.ok(sliceBig > sliceSmall + 990 * 30, `$slice: ${sliceSmall} B at 10, ${sliceBig} B at 1000`);
});

test('oplogEntrySize(filter): the namespace\'s updates counted and sized on the server', () => {
  const r = oplogEntrySize({ ns: 'dba_lab_oplog.arrays', op: 'u', since: '1h' });
  assert.ok(Number(r.entries) >= OP_PATTERNS.length + 1, `${r.entries} entries`);
  assert.ok(Number(r.bytes) > 0);
  const row = r.byNamespace.find((x) => x.ns === 'dba_lab_oplog.arrays');
  assert.ok(row, JSON.stringify(r.byNamespace));
  assert.strictEqual(Number(row.count), Number(r.entries));
  assert.ok(r.largest.length >= 1 && r.largest.length <= 10);
});

test('oplogWindow(): first before last, sizes from the server, maxBytes the configured oplog (1024 MB)', () => {
  const w = oplogWindow();
  assert.strictEqual(w.first.ts._bsontype, 'Timestamp');
  assert.ok(w.windowSeconds >= 0);
  assert.ok(w.last.wall >= w.first.wall);
  assert.ok(w.usedBytes > 0 && w.entries > 0, JSON.stringify(w));
  // tests/servers/mongod.sh starts the replica set with --oplogSize 1024.
  assert.strictEqual(w.maxBytes, 1024 * 1048576);
  assert.strictEqual(w.full, false);
});

test('changeStreamResumeCheck: a fresh token is inside the window and counts the entries written after it', () => {
  const coll = opDb().getCollection('resume');
  coll.drop();
  opDb().createCollection('resume');
  const cs = coll.watch();
  assert.strictEqual(cs.tryNext(), null);
  coll.insertOne({ _id: 1 });
  let ev = null;
  const deadline = Date.now() + 30000;
  while (!ev && Date.now() < deadline) ev = cs.tryNext();
  cs.close();
  assert.ok(ev, 'the insert event');
  coll.insertMany([{ _id: 2 }, { _id: 3 }, { _id: 4 }]);
  opDb().getCollection('elsewhere').insertOne({ _id: 1 });
  const r = changeStreamResumeCheck(ev);
  assert.strictEqual(r.position, 'inside');
  assert.strictEqual(r.resumable, true);
  assert.strictEqual(r.tokenType, 128);
  assert.strictEqual(r.scan.complete, true);
  // At least the three inserts and the other collection's one (8.0 may log
  // insertMany as one applyOps entry).
  assert.ok(r.scan.entries >= 2, JSON.stringify(r.scan));
  assert.ok(r.scan.bytes > 0);
  // No ns given: the token's collection, by its uuid: its insert and the insertMany (one applyOps entry on 8.0).
  assert.strictEqual(r.stream.namespace, "the token's collection (by its uuid)");
  assert.ok(r.scan.namespace.entries >= 2, JSON.stringify(r.scan));
  assert.ok(typeof r.advice === 'string' && r.advice.length > 0);
});

test('changeStreamResumeCheck: a Timestamp older than a never-truncated oplog resumes, as the server does', () => {
  // tests/servers/mongod.sh initiates a new set with a 1 GB oplog: nothing has
  // been truncated, so its oldest entry is still the 'initiating set' no-op,
  // and the server resumes from any older time (collection_scan.cpp).
  const first = db.getSiblingDB('local').getCollection('oplog.rs').find().sort({ $natural: 1 }).limit(1).next();
  assert.strictEqual(first.op, 'n');
  assert.strictEqual(EJSON.stringify(first.o), '{"msg":"initiating set"}');
  const r = changeStreamResumeCheck(Timestamp({ t: 1, i: 1 }));
  assert.strictEqual(r.position, 'before-initiation');
  assert.strictEqual(r.resumable, true);
  assert.strictEqual(r.window.firstIsInitiatingSet, true);
  assert.ok(r.scan && r.scan.entries > 0, JSON.stringify(r.scan));
});

// A known workload after a token, on a collection of its own: the resume's
// cost predicted entry by entry. After the token's own insert (a resume reads
// from the token's entry, ts $gte): three inserts with msg, two without, a
// $set, a replacement, a delete, then an insert into another collection of
// the database (its implicit create logs a create command). Each write is its
// own command (8.0 logs a multi-document insertMany as applyOps).
function opCostWorkload() {
  const coll = opDb().getCollection('resume_cost');
  coll.drop();
  opDb().getCollection('resume_cost_elsewhere').drop();
  opDb().createCollection('resume_cost');
  const cs = coll.watch([{ $match: { 'fullDocument.msg': { $exists: true } } }]);
  assert.strictEqual(cs.tryNext(), null);
  coll.insertOne({ _id: 0, msg: 'the token' });
  let ev = null;
  const deadline = Date.now() + 30000;
  while (!ev && Date.now() < deadline) ev = cs.tryNext();
  cs.close();
  assert.ok(ev, 'the insert event');
  for (const k of [1, 2, 3]) coll.insertOne({ _id: k, msg: `marker ${k}` });
  coll.insertOne({ _id: 4, junk: 'x'.repeat(4096) });
  coll.insertOne({ _id: 5, junk: 'y'.repeat(4096) });
  coll.updateOne({ _id: 4 }, { $set: { status: 'paid' } });
  coll.replaceOne({ _id: 5 }, { msg: 'replaced' });
  coll.deleteOne({ _id: 1 });
  opDb().getCollection('resume_cost_elsewhere').insertOne({ _id: 1, msg: 'elsewhere' });
  const oplog = db.getSiblingDB('local').getCollection('oplog.rs');
  const own = oplog.find({ ts: { $gte: ev.clusterTime }, ns: 'dba_lab_oplog.resume_cost' }).sort({ $natural: 1 }).toArray();
  return { ev, oplog, own };
}

const opBytes = (entries) => entries.reduce((sum, e) => sum + bsonsize(e), 0);

test("changeStreamResumeCheck, collection and filter: 9 entries on it, 6 through the article's $match (inserts with msg, the $set, the replacement), sized exactly", () => {
  const { ev, oplog, own } = opCostWorkload();
  assert.strictEqual(own.length, 9, EJSON.stringify(own.map((e) => e.op)));
  const r = changeStreamResumeCheck(ev, { ns: 'dba_lab_oplog.resume_cost', filter: { 'fullDocument.msg': { $exists: true } } });
  assert.strictEqual(r.scan.complete, true);
  assert.strictEqual(r.scan.namespace.entries, 9);
  assert.strictEqual(r.scan.namespace.bytes, opBytes(own));
  // The token's insert, the three markers, the $set (every update passes: its
  // full document is not in the oplog), the replacement; not the two junk
  // inserts, not the delete.
  const kept = [0, 1, 2, 3, 6, 7].map((k) => own[k]);
  assert.strictEqual(r.scan.matching.entries, 6);
  assert.strictEqual(r.scan.matching.bytes, opBytes(kept));
  assert.strictEqual(r.stream.exact, false);
  // Everything read: what the oplog holds from the token to where the scan ended.
  const read = oplog.find({ ts: { $gte: ev.clusterTime, $lte: r.scan.scannedUntil } }).toArray();
  assert.strictEqual(r.scan.entries, read.length);
  assert.strictEqual(r.scan.bytes, opBytes(read));
});

test("changeStreamResumeCheck, the database: also the other collection's insert and its create command", () => {
  const { ev } = opCostWorkload();
  const r = changeStreamResumeCheck(ev, { ns: 'dba_lab_oplog' });
  assert.strictEqual(r.scan.namespace.entries, 11);
  assert.strictEqual(r.stream.namespace, 'database dba_lab_oplog');
});

test("changeStreamResumeCheck's arrival: six small events, the first after the whole scan by default (claim A); with batchSize 1 as the lab predicts for this version", () => {
  const path = require('path');
  const { predict } = require(path.join(test.root, 'playbooks', 'lib', 'js', 'predictions.js'));
  const table = require(path.join(test.root, 'playbooks', 'lib', 'scenarios', 'change-stream-resume', 'predictions.js'));
  const { ev, own } = opCostWorkload();
  const r = changeStreamResumeCheck(ev, { ns: 'dba_lab_oplog.resume_cost', filter: { 'fullDocument.msg': { $exists: true } } });
  const a = r.arrival;
  assert.strictEqual(a.serverVersion, db.version());
  assert.strictEqual(a.defaultBatchSize.wholeScan, true);
  assert.strictEqual(a.defaultBatchSize.read.entries, r.scan.entries);
  assert.deepStrictEqual(Array.from(a.defaultBatchSize.lab), ['A']);
  if (predict(table, 'C', db.version()).holds) {
    // 5.1+: the $match is in the scan; six small entries never fill 4 MiB.
    assert.strictEqual(a.filterInScan, true);
    assert.strictEqual(a.batchSize1.wholeScan, true);
  } else {
    // Before 5.1: the batch that holds the first matching entry, the token's own.
    assert.strictEqual(a.filterInScan, false);
    assert.strictEqual(a.batchSize1.atLeast, true);
    assert.strictEqual(a.batchSize1.read.entries, 1);
    assert.strictEqual(a.batchSize1.read.bytes, bsonsize(own[0]));
  }
});
