// oplogAudit's live path against a real server: an oplog restored into an
// ordinary collection (the support-case workflow) on FerretDB v1, which is
// not MongoDB: no oplog of its own, no $bsonSize (the audit then sizes each
// entry in the shell), and it refuses field names starting with '$', so
// update entries ($v, $set) cannot be stored there. The entries it takes
// (tests/fixtures/oplog-audit/entries.js) must audit exactly as the same
// entries do from a .bson file: one classification path for both.

const OA_DB = 'dba_lab_oplog_audit_test';

function oaT() {
  const helpers = require(test.fixture('oplog-audit', 'tmp-file.js'));
  const lib = Object.values(require.cache).map((m) => m.exports)
    .find((e) => e && typeof e.serialize === 'function' && e.ObjectId && e.ObjectId.prototype === ObjectId.prototype);
  const list = require(test.fixture('oplog-audit', 'entries.js'))({ Timestamp, Long, Int32, UUID, ObjectId, Binary }, 1700000000);
  const hasDollarKey = (x) => x !== null && typeof x === 'object' && !x._bsontype &&
    Object.keys(x).some((k) => k[0] === '$' || hasDollarKey(x[k]));
  const storable = list.filter((x) => !hasDollarKey(x.entry)).map((x) => x.entry);
  const coll = db.getSiblingDB(OA_DB).getCollection('oplog_case');
  const plain = (x) => JSON.parse(JSON.stringify(x));
  return { ...helpers, lib, list, storable, coll, plain };
}

test('the fixture entries FerretDB can store still hold every op and applyOps kind', () => {
  const t = oaT();
  const ops = new Set(t.storable.map((e) => e.op));
  assert.deepStrictEqual([...ops].sort(), ['c', 'd', 'i', 'n', 'u']); // the update: a replacement document
  assert.strictEqual(t.storable.filter((e) => e.o.applyOps).length, 3); // partial, prepared, batched delete
});

test('a restored oplog audits exactly as the same entries from a .bson file', async () => {
  const t = oaT();
  t.coll.drop();
  t.coll.insertMany(t.storable);
  const live = oplogAudit({ collection: t.coll });
  const offline = await t.withFile(Buffer.concat(t.storable.map((e) => t.lib.serialize(e))), (file) => oplogAudit({ file }));
  assert.strictEqual(live.source.kind, 'collection');
  assert.strictEqual(live.entries, t.storable.length);
  for (const key of ['byNamespace', 'transactions', 'updateForms', 'wholeArrays', 'topFields', 'bytes', 'first', 'last']) {
    assert.deepStrictEqual(t.plain(live[key]), t.plain(offline[key]), key);
  }
  t.coll.drop();
});

test('an entry counts the bytes the server holds: a whole-number double is 8 bytes, as in a .bson file', () => {
  const t = oaT();
  const insert = t.list.find((x) => x.name === 'insert').entry;
  // The insert fixture with a reading of exactly 22.0: the shell's copy of
  // the entry holds the number 22, which bsonsize() writes as a 4-byte int32.
  const entry = { ...insert, o: { ...insert.o, temp: new Double(22) } };
  const stored = t.lib.serialize(entry).length;
  t.coll.drop();
  t.coll.insertOne(entry);
  assert.strictEqual(oplogAudit({ collection: t.coll }).bytes, stored);
  t.coll.drop();
});

test("'db.collection' names the restored collection as a handle does", () => {
  const t = oaT();
  t.coll.drop();
  t.coll.insertMany(t.storable);
  const a = oplogAudit({ collection: `${OA_DB}.oplog_case`, last: '3s' });
  assert.strictEqual(a.source.name, `${OA_DB}.oplog_case`);
  assert.strictEqual(a.entries, 4); // AT+13 to AT+16: partial, prepared, commit, batched delete
  t.coll.drop();
});

test('the audit writes nothing: the collection and its count are as they were', () => {
  const t = oaT();
  t.coll.drop();
  t.coll.insertMany(t.storable);
  const before = db.getSiblingDB(OA_DB).getCollectionNames().sort();
  oplogAudit({ collection: t.coll });
  assert.deepStrictEqual(db.getSiblingDB(OA_DB).getCollectionNames().sort(), before);
  assert.strictEqual(t.coll.countDocuments({}), t.storable.length);
  t.coll.drop();
});

test('a range outside the restored oplog is refused, naming what it holds', () => {
  const t = oaT();
  t.coll.drop();
  t.coll.insertMany(t.storable);
  const err = test.thrown(() => oplogAudit({ collection: t.coll, until: new Date('2020-01-01T00:00:00Z') }));
  assert.match(err.message, /^oplogAudit: the time range is outside the oplog: dba_lab_oplog_audit_test\.oplog_case holds 2023-11-14T22:13:20\.000Z/);
  t.coll.drop();
});

test('a collection with no oplog entries is refused', () => {
  const t = oaT();
  t.coll.drop();
  const err = test.thrown(() => oplogAudit({ collection: t.coll }));
  assert.strictEqual(err.message, 'oplogAudit: dba_lab_oplog_audit_test.oplog_case holds no oplog entries (no document with a Timestamp ts)');
});

test('the live oplog audit on a server without an oplog asks for a replica set member', () => {
  const err = test.thrown(() => oplogAudit({ last: '6h' }));
  assert.match(err.message, /^oplogAudit: needs a replica set member; this server is not a replica set member \(hello reports no setName/);
});
