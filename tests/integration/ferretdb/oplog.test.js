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
