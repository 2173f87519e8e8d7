// decodeResumeToken and compareResumeTokens on the tokens of a real change
// stream (a replica set started by tests/servers/mongod.sh), taken in the
// order the server delivered them. Expected shapes: snippets/lib/resume-token.js
// and the public vectors in tests/snippets/resume-token.test.js; the token
// version a new stream emits on this release comes from change-stream-resume's
// predictions table (the fact 'resume-token-v2').

function rtDb() { return db.getSiblingDB('dba_lab_resume_token'); }

function rtServer() {
  const path = require('path');
  const { predict } = require(path.join(test.root, 'playbooks', 'lib', 'js', 'predictions.js'));
  const table = require(path.join(test.root, 'playbooks', 'lib', 'scenarios', 'change-stream-resume', 'predictions.js'));
  const v2 = predict(table, 'resume-token-v2', db.version());
  assert.ok(!v2.none, `${v2.none}: the real-server lane runs the series the tables cover`);
  const [major, minor] = db.version().split('.').map(Number);
  return { major, minor, tokenVersion: v2.holds ? 2 : 1 };
}

// Canonical Extended JSON keeps Int32, Long, Double and Decimal128 apart.
function rtCanonical(x) { return EJSON.stringify(x, { relaxed: false }); }

function rtTsCompare(a, b) {
  const ta = [Number(a.high ?? a.t), Number(a.low ?? a.i)];
  const tb = [Number(b.high ?? b.t), Number(b.low ?? b.i)];
  return ta[0] - tb[0] || ta[1] - tb[1];
}

// Every event of the writes, as the stream delivered them, then the stream's
// own resume token once it has nothing more to give (a postBatchResumeToken).
let rtRun = null;
function rtEvents() {
  if (rtRun) return rtRun;
  rtDb().dropDatabase();
  rtDb().createCollection('events');
  const coll = rtDb().getCollection('events');
  const uuid = rtDb().getCollectionInfos({ name: 'events' })[0].info.uuid;
  // The first tryNext sends the aggregate: the stream starts here, before
  // the writes, whenever mongosh would otherwise have opened it.
  const cs = coll.watch();
  assert.strictEqual(cs.tryNext(), null);
  const oid = new ObjectId();
  const numericId = { i: NumberInt(7), l: NumberLong(8), d: 2.5, m: NumberDecimal('9.5') };
  coll.insertOne({ _id: oid, v: 1 });
  coll.insertOne({ _id: numericId, v: 2 });
  coll.updateOne({ _id: oid }, { $set: { v: 3 } });
  coll.replaceOne({ _id: numericId }, { v: 4 });
  const session = db.getMongo().startSession();
  session.startTransaction();
  session.getDatabase(rtDb().getName()).getCollection('events').insertOne({ _id: 'txn-a' });
  session.getDatabase(rtDb().getName()).getCollection('events').insertOne({ _id: 'txn-b' });
  session.commitTransaction();
  session.endSession();
  coll.deleteOne({ _id: oid });
  const expected = 7;
  const events = [];
  const deadline = Date.now() + 30000;
  while (events.length < expected && Date.now() < deadline) {
    const ev = cs.tryNext();
    if (ev) events.push(ev);
  }
  // Nothing more to come: the token is now the batch's postBatchResumeToken.
  const extra = cs.tryNext();
  const after = cs.getResumeToken();
  cs.close();
  assert.strictEqual(extra, null, `an unexpected event: ${extra && extra.operationType}`);
  assert.strictEqual(events.length, expected, `the stream delivered ${events.length} of ${expected} events in 30 s`);
  rtRun = { events, after, uuid, oid, numericId };
  return rtRun;
}

test('the stream delivered the writes in order: insert, insert, update, replace, txn inserts, delete', () => {
  const { events } = rtEvents();
  assert.deepStrictEqual(events.map((e) => e.operationType),
    ['insert', 'insert', 'update', 'replace', 'insert', 'insert', 'delete']);
});

test('every event token decodes to the event\'s clusterTime, the server\'s token version and an event type', () => {
  const { events } = rtEvents();
  const { tokenVersion } = rtServer();
  for (const ev of events) {
    const r = decodeResumeToken(ev);
    assert.strictEqual(r.timestamp._bsontype, 'Timestamp');
    assert.strictEqual(rtCanonical(r.timestamp), rtCanonical(ev.clusterTime), ev.operationType);
    assert.strictEqual(r.version, tokenVersion, `${ev.operationType} on ${db.version()}`);
    assert.strictEqual(r.tokenType, 128);
    assert.strictEqual(r.fromInvalidate, false);
  }
});

test('the event, its _id and {_data, _typeBits} decode alike; the hex alone gives the same time and order', () => {
  const { events } = rtEvents();
  for (const ev of events) {
    const a = rtCanonical(decodeResumeToken(ev));
    assert.strictEqual(rtCanonical(decodeResumeToken(ev._id)), a);
    const parts = ev._id._typeBits === undefined ? { _data: ev._id._data } : { _data: ev._id._data, _typeBits: ev._id._typeBits };
    assert.strictEqual(rtCanonical(decodeResumeToken(parts)), a);
    // Without _typeBits only the numeric types of the key can differ.
    assert.strictEqual(rtCanonical(decodeResumeToken(ev._id._data).timestamp), rtCanonical(decodeResumeToken(ev).timestamp));
  }
});

test('the numeric document key carries _typeBits, and they are what keeps its types', () => {
  const { events } = rtEvents();
  assert.notStrictEqual(events[1]._id._typeBits, undefined, 'the server writes _typeBits for a Long/Double/Decimal128 key');
  assert.strictEqual(events[0]._id._typeBits, undefined, 'an ObjectId key needs none');
});

test('every event token holds the collection\'s uuid', () => {
  const { events, uuid } = rtEvents();
  for (const ev of events) {
    const r = decodeResumeToken(ev);
    assert.strictEqual(r.uuid.sub_type, 4);
    assert.strictEqual(r.uuid.toString('hex'), uuid.toString('hex'), ev.operationType);
  }
});

test('the document key in the token is the event\'s, every numeric BSON type kept', () => {
  const { events } = rtEvents();
  const { tokenVersion } = rtServer();
  for (const ev of events) {
    const r = decodeResumeToken(ev);
    if (tokenVersion === 1) {
      assert.strictEqual(rtCanonical(r.documentKey), rtCanonical(ev.documentKey), ev.operationType);
    } else {
      assert.strictEqual(r.eventIdentifier.operationType, ev.operationType);
      assert.strictEqual(rtCanonical(r.eventIdentifier.documentKey), rtCanonical(ev.documentKey), ev.operationType);
    }
  }
  const key = tokenVersion === 1 ? decodeResumeToken(events[1]).documentKey : decodeResumeToken(events[1]).eventIdentifier.documentKey;
  assert.strictEqual(key._id.l._bsontype, 'Long');
  assert.strictEqual(key._id.m._bsontype, 'Decimal128');
  assert.strictEqual(Number(key._id.d), 2.5);
  assert.strictEqual(Number(key._id.i), 7);
});

test('the two inserts of one transaction share a clusterTime and count up txnOpIndex', () => {
  const { events } = rtEvents();
  const [a, b] = [decodeResumeToken(events[4]), decodeResumeToken(events[5])];
  assert.strictEqual(rtCanonical(a.timestamp), rtCanonical(b.timestamp));
  assert.deepStrictEqual([a.txnOpIndex, b.txnOpIndex], [0, 1]);
});

test('compareResumeTokens puts each token before the next one delivered', () => {
  const { events } = rtEvents();
  for (let i = 0; i + 1 < events.length; i++) {
    assert.strictEqual(compareResumeTokens(events[i], events[i + 1]), -1, `event ${i} vs ${i + 1}`);
    assert.strictEqual(compareResumeTokens(events[i + 1], events[i]), 1, `event ${i + 1} vs ${i}`);
    assert.strictEqual(compareResumeTokens(events[i]._id, events[i]._id._data), 0);
  }
});

test('sorting the tokens with compareResumeTokens gives back the delivery order', () => {
  const { events } = rtEvents();
  const tokens = events.map((e) => e._id._data);
  const shuffled = [tokens[3], tokens[6], tokens[0], tokens[5], tokens[2], tokens[4], tokens[1]];
  assert.deepStrictEqual(shuffled.sort(compareResumeTokens), tokens);
});

test('the stream\'s resume token after the last event decodes, at or after the last event', () => {
  const { events, after } = rtEvents();
  assert.ok(after, 'getResumeToken() after the last event');
  const r = decodeResumeToken(after);
  const last = decodeResumeToken(events[events.length - 1]);
  assert.ok(rtTsCompare(r.timestamp, last.timestamp) >= 0);
  if (r.tokenType === 128) {
    assert.strictEqual(compareResumeTokens(after, events[events.length - 1]), 0);
  } else {
    assert.strictEqual(r.tokenType, 0);
    assert.strictEqual(r.documentKey, undefined);
  }
});
