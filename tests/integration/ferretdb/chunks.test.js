// chunkSummary against a server that is not a mongos (FerretDB answers like a
// plain mongod): no chunk counts, a note saying where to connect, and the
// refresh part read from the real getLog 'global' answer.

test('on a non-router node: a note instead of chunk counts, refresh lines searched in getLog', () => {
  const r = chunkSummary('dba_lab_chunks.users');
  assert.strictEqual(r.ns, 'dba_lab_chunks.users');
  assert.strictEqual(r.chunks, undefined);
  assert.match(r.note, /connect to a mongos/);
  assert.strictEqual(r.refresh.count, 0);
  assert.match(require('util').inspect(r), /^dba_lab_chunks\.users: not a mongos or config server.*\nrouting refreshes in the log: none for this namespace/);
});

test('log: false skips getLog', () => {
  const r = chunkSummary(db.getSiblingDB('dba_lab_chunks').users, { log: false });
  assert.strictEqual(r.refresh, undefined);
  assert.strictEqual(r.ns, 'dba_lab_chunks.users');
});
