// oplogAudit on a real replica set (tests/servers/mongod.sh): a known
// workload on namespaces of its own, whose audit is predicted exactly: its
// entries per op, update forms, whole arrays and transaction, and its bytes
// against each entry's $bsonSize read back from local.oplog.rs on its own.
// Other writes of the same seconds (no-ops, config.system.sessions) are in the
// audit too, under their own namespaces, and are not asserted on.

const OA_NS_DB = 'dba_lab_oplog_audit';

function oaWorkload() {
  const d = db.getSiblingDB(OA_NS_DB);
  d.dropDatabase();
  d.createCollection('a');
  const oplog = db.getSiblingDB('local').getCollection('oplog.rs');
  const since = oplog.find().sort({ $natural: -1 }).limit(1).next().ts;
  const a = d.getCollection('a');
  a.insertOne({ _id: 1, arr: Array.from({ length: 30 }, (_, i) => ({ s: NumberInt(i), v: 'x'.repeat(20) })) });
  a.insertOne({ _id: 2, status: 'new' });
  a.insertOne({ _id: 3, status: 'new' });
  a.updateOne({ _id: 2 }, { $set: { status: 'paid' } });
  a.updateOne({ _id: 3 }, { $set: { status: 'paid' } });
  // "keep the last N": the whole array on every release (docs/mongodb-facts.md#which-array-updates-replicate-the-whole-array: push_node.cpp)
  a.updateOne({ _id: 1 }, { $push: { arr: { $each: [{ s: NumberInt(30), v: 'y' }], $slice: -30 } } });
  a.updateOne({ _id: 1 }, { $push: { arr: { $each: [{ s: NumberInt(31), v: 'y' }], $slice: -30 } } });
  a.replaceOne({ _id: 3 }, { _id: 3, status: 'archived' });
  a.deleteOne({ _id: 2 });
  const session = db.getMongo().startSession();
  session.startTransaction();
  const sa = session.getDatabase(OA_NS_DB).getCollection('a');
  sa.insertOne({ _id: 4 });
  sa.insertOne({ _id: 5 });
  session.commitTransaction();
  session.endSession();
  const until = oplog.find().sort({ $natural: -1 }).limit(1).next().ts;
  const ns = `${OA_NS_DB}.a`;
  // Sizes from the server ($bsonSize), not from the shell's copy: a double
  // read back as a JS integer would be sized as an int32.
  const mine = oplog.aggregate([
    { $match: { ts: { $gte: since, $lte: until }, $or: [{ ns }, { 'o.applyOps.ns': ns }] } },
    { $project: { op: 1, ns: 1, b: { $bsonSize: '$$ROOT' },
      inner: { $map: { input: { $ifNull: ['$o.applyOps', []] }, in: { op: '$$this.op', ns: '$$this.ns', b: { $bsonSize: '$$this' } } } } } },
  ]).toArray();
  return { since, until, ns, mine };
}

test('a known workload audits exactly: entries per op, forms, whole arrays, the transaction', () => {
  const w = oaWorkload();
  const a = oplogAudit({ since: w.since, until: w.until });
  assert.strictEqual(a.source.kind, 'oplog');
  assert.strictEqual(a.source.serverSizes, true);
  const row = (op) => a.byNamespace.find((g) => g.ns === w.ns && g.op === op);
  assert.strictEqual(row('insert').entries, 5); // three, and the transaction's two
  assert.strictEqual(row('update').entries, 5);
  assert.strictEqual(row('delete').entries, 1);
  const v2 = Number(db.version().split('.')[0]) >= 5;
  const forms = Object.fromEntries(a.updateForms.filter((f) => f.ns === w.ns).map((f) => [f.form, f.entries]));
  assert.deepStrictEqual(forms, v2 ?
    { 'v2-fields': 2, 'v2-whole-array': 2, replacement: 1 } :
    { v1: 2, 'v1-whole-array': 2, replacement: 1 });
  const arr = a.wholeArrays.find((x) => x.ns === w.ns);
  assert.deepStrictEqual([arr.field, arr.entries, arr.maxElements], ['arr', 2, 30]);
  assert.ok(a.transactions.committed >= 1);
  assert.ok(a.transactions.innerOps >= 2);
});

test('the workload\'s bytes are its entries\' $bsonSize, inner ops sized as their own documents', () => {
  const w = oaWorkload();
  const a = oplogAudit({ since: w.since, until: w.until });
  const expected = {};
  const addOp = (op, bytes) => { expected[op] = (expected[op] || 0) + bytes; };
  for (const e of w.mine) {
    if (e.inner.length) {
      for (const inner of e.inner) if (inner.ns === w.ns) addOp(inner.op, Number(inner.b));
    } else addOp(e.op, Number(e.b));
  }
  const names = { i: 'insert', u: 'update', d: 'delete' };
  for (const [op, bytes] of Object.entries(expected)) {
    assert.strictEqual(a.byNamespace.find((g) => g.ns === w.ns && g.op === names[op]).bytes.total, bytes, names[op]);
  }
});

test('a range before the oplog\'s first entry is refused', () => {
  const err = test.thrown(() => oplogAudit({ since: new Date('2001-01-01T00:00:00Z'), until: new Date('2001-01-02T00:00:00Z') }));
  assert.match(err.message, /^oplogAudit: the time range is outside the oplog: local\.oplog\.rs holds /);
});

test('the window at the audited rate uses the oplog\'s configured size', () => {
  const a = oplogAudit({ last: '1h' });
  assert.ok(a.window.maxBytes > 0);
  assert.ok(a.window.nowSeconds >= a.seconds);
});
