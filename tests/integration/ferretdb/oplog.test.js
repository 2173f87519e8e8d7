// The oplog snippets against a real server that keeps no oplog (FerretDB v1:
// hello has no setName). Each function that needs one must say so, clearly,
// after a real hello round trip, and must write nothing.

test('oplogWindow() on a server without an oplog asks for a replica set member', () => {
  const err = test.thrown(() => oplogWindow());
  assert.match(err.message, /^oplogWindow: needs a replica set member; this server is not a replica set member \(hello reports no setName/);
});

test('oplogEntrySize(filter) on a server without an oplog asks for a replica set member', () => {
  const err = test.thrown(() => oplogEntrySize({ ns: 'test.c', since: '1h' }));
  assert.match(err.message, /^oplogEntrySize: needs a replica set member; this server is not a replica set member/);
});

test('oplogEntrySize(function) refuses before running the function', () => {
  const coll = db.getSiblingDB('dba_lab_oplog_test').getCollection('never_written');
  coll.drop();
  let ran = false;
  const err = test.thrown(() => oplogEntrySize((d) => { ran = true; return d.getCollection('never_written').insertOne({ a: 1 }); }));
  assert.match(err.message, /^oplogEntrySize: needs a replica set member/);
  assert.strictEqual(ran, false);
  assert.strictEqual(coll.countDocuments({}), 0);
});

test('changeStreamResumeCheck(Timestamp) on a server without an oplog asks for a replica set member', () => {
  const err = test.thrown(() => changeStreamResumeCheck(Timestamp({ t: 1644927205, i: 2 })));
  assert.match(err.message, /^changeStreamResumeCheck: needs a replica set member; this server is not a replica set member/);
});

test('explainOplogEntry needs no server and works while connected', () => {
  const x = explainOplogEntry({ op: 'u', ns: 'test.c', o: { $v: 2, diff: { sa: { a: true, u1: 1 } } }, o2: { _id: 1 } });
  assert.strictEqual(x.arrays[0].action, 'elements');
});

// changeStreamResumeCheck's stream filters run by a real query engine on a
// restored oplog (the support-case workflow: mongorestore of local.oplog.rs
// into any collection). FerretDB cannot run the scan itself ($facet and
// $bsonSize are not implemented there), and its regex engine (Go's RE2) has no
// lookahead, so the database and whole-cluster scopes, which use the server's
// lookahead regexes, are proven in the real-MongoDB lane
// (tests/integration/mongod/oplog.test.js).
function cscServer() {
  const path = require('path');
  const lib = path.join(test.root, 'snippets', 'lib');
  const shell = require(path.join(lib, 'shell.js'))({
    bson: { Binary, BSONRegExp, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID },
    print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date },
  });
  return require(path.join(lib, 'oplog-server.js'))(shell, require(path.join(lib, 'oplog-explain.js'))(shell));
}

const CSC_UI = UUID('437fb549-cfdd-4526-9dd5-9b9bf0eb3547');

// One entry of each kind a resume of the change-stream-resume article's stream
// (test.foo, collection uuid 437fb549-...) reads past, shaped as the server
// logs them: the article's first event (its _id and msg), a junk insert, an
// insert elsewhere, a replacement and a delete (jstests/replsets/
// oplog_format.js), a create command (op_observer_impl.cpp onCreateCollection),
// a transaction touching test.foo and one touching only test.bar
// (op_observer_impl.cpp onUnpreparedTransactionCommit: applyOps with a null
// prevOpTime for the first entry), a periodic no-op (noop_writer.cpp).
// No $v:1 or $v:2 update: FerretDB refuses their '$v'/'$set' keys on insert;
// updates are counted in the real-MongoDB lane.
function cscEntries() {
  let t = 1644927205;
  const at = () => { t += 1; return { ts: Timestamp({ t, i: 1 }), t: Long(1), v: Long(2), wall: new Date(t * 1000) }; };
  const nullOpTime = { ts: Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) };
  return [
    { op: 'i', ns: 'test.foo', ui: CSC_UI, o: { _id: ObjectId('620b98e564da118651c64200'), msg: 'We expect our filter to match this' }, ...at() },
    { op: 'i', ns: 'test.foo', ui: CSC_UI, o: { _id: ObjectId('620b98e564da118651c64201'), junk: 'x'.repeat(4096) }, ...at() },
    { op: 'i', ns: 'test.bar', ui: UUID('d9ec8991-b42f-4f71-ba61-fc5ba26e2ded'), o: { _id: 1, msg: 'another collection' }, ...at() },
    { op: 'u', ns: 'test.foo', ui: CSC_UI, o: { _id: ObjectId('620b98e564da118651c64201'), msg: 'replaced' }, o2: { _id: ObjectId('620b98e564da118651c64201') }, ...at() },
    { op: 'd', ns: 'test.foo', ui: CSC_UI, o: { _id: ObjectId('620b98e564da118651c64201') }, ...at() },
    { op: 'c', ns: 'test.$cmd', ui: UUID('0f6a3a3e-9b1c-4c55-a0d3-5d8a1e2f4b61'), o: { create: 'returns', idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } }, ...at() },
    { op: 'c', ns: 'admin.$cmd', o: { applyOps: [{ op: 'i', ns: 'test.foo', ui: CSC_UI, o: { _id: 3, msg: 'in a transaction' } }] },
      lsid: { id: UUID('7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f') }, txnNumber: Long(1), prevOpTime: nullOpTime, ...at() },
    { op: 'c', ns: 'admin.$cmd', o: { applyOps: [{ op: 'i', ns: 'test.bar', o: { _id: 4 } }] },
      lsid: { id: UUID('7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f') }, txnNumber: Long(2), prevOpTime: nullOpTime, ...at() },
    { op: 'n', ns: '', o: { msg: 'periodic noop' }, ...at() },
  ];
}

function cscRestored() {
  const coll = db.getSiblingDB('dba_lab_oplog_test').getCollection('restored_oplog');
  coll.drop();
  coll.insertMany(cscEntries());
  return coll;
}

// The entries a filter keeps, as their places in cscEntries(): '0,1,3'.
function cscKept(coll, match) {
  return coll.find(match, { ts: 1 }).sort({ ts: 1 }).toArray().map((e) => e.ts.getHighBits() - 1644927206).join(',');
}

test("stream filter, test.foo: its CRUD entries, and the transaction that touches it; not test.bar, its commands or the no-op", () => {
  const sv = cscServer();
  const coll = cscRestored();
  assert.strictEqual(cscKept(coll, sv.streamMatch(sv.streamScope('f', 'test.foo'), null)), '0,1,3,4,6');
});

test("stream filter by the token's uuid keeps the same entries as by the name", () => {
  const sv = cscServer();
  const coll = cscRestored();
  assert.strictEqual(cscKept(coll, sv.streamMatch(sv.streamScope('f', undefined, CSC_UI), null)), '0,1,3,4,6');
});

test("the article's $match on fullDocument.msg: inserts and replacements with msg, the transaction whole", () => {
  const sv = cscServer();
  const coll = cscRestored();
  const t = sv.translateFilter('f', { 'fullDocument.msg': { $exists: true } });
  assert.strictEqual(cscKept(coll, sv.streamMatch(sv.streamScope('f', 'test.foo'), t.match)), '0,3,6');
});

test('$match on operationType delete, and on documentKey._id, keep exactly those entries', () => {
  const sv = cscServer();
  const coll = cscRestored();
  const scope = sv.streamScope('f', 'test.foo');
  assert.strictEqual(cscKept(coll, sv.streamMatch(scope, sv.translateFilter('f', { operationType: 'delete' }).match)), '4,6');
  const key = sv.translateFilter('f', { 'documentKey._id': ObjectId('620b98e564da118651c64201') }).match;
  assert.strictEqual(cscKept(coll, sv.streamMatch(scope, key)), '1,3,4,6');
});

test('changeStreamResumeCheck refuses a bad ns before asking the server anything', () => {
  const err = test.thrown(() => changeStreamResumeCheck(Timestamp({ t: 1644927205, i: 2 }), { ns: 42 }));
  assert.match(err.message, /^changeStreamResumeCheck: 'ns' is the stream's namespace/);
});
