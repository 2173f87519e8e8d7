// decodeResumeToken / compareResumeTokens against the public vectors in
// docs/mongodb-facts.md#resume-token-vectors (layouts: #resume-token-keystring,
// #keystring-bytes, #resume-token-versions) and the eleven real tokens printed
// in the change-stream-resume article (docs/articles.md#change-stream-resume),
// checked against the events printed beside them. Layouts: mongodb/mongo src/mongo/db/pipeline/resume_token.cpp,
// ResumeToken::ResumeToken(const ResumeTokenData&) and ResumeToken::getData().

// Objects built by the module live in another realm than this file's literals.
function rtPlain(v) {
  return JSON.parse(JSON.stringify(v));
}

const RT_ARTICLE_FIRST = '82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004';

// The article, "Performance Using Cursor Defaults": message, token, then what the
// token text says (t, i, _id) typed from it by hand.
const RT_ARTICLE_EVENTS = [
  ['This document will be 1Kb', '82621F54B3000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54B33284546A99670EFD0004', 1646220467, 1, '621f54b33284546a99670efd'],
  ['100 6MB documents, then another 1Kb document', '82621F54C4000000062B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54C43284546A99670F620004', 1646220484, 6, '621f54c43284546a99670f62'],
  ['And another 100 6MB documents, then another 1Kb document', '82621F54D4000000072B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54D43284546A99670FC70004', 1646220500, 7, '621f54d43284546a99670fc7'],
  ['... followed immediately by a 1MB document', '82621F54D5000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54D53284546A99670FC80004', 1646220501, 1, '621f54d53284546a99670fc8'],
  ['100 6MB documents preceded this 3MB document', '82621F54E8000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54E83284546A9967102D0004', 1646220520, 1, '621f54e83284546a9967102d'],
  ['... followed by another 1MB document', '82621F54E9000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54E93284546A9967102E0004', 1646220521, 1, '621f54e93284546a9967102e'],
  ['500 6MB documents added', '82621F5531000000072B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F55313284546A996712230004', 1646220593, 7, '621f55313284546a99671223'],
  ['200 6MB documents added', '82621F554D000000052B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F554D3284546A996712EC0004', 1646220621, 5, '621f554d3284546a996712ec'],
  ['Adding 2000 more 6MB documents...', '82621F554D000000062B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F554D3284546A996712ED0004', 1646220621, 6, '621f554d3284546a996712ed'],
  ["This is the last document we'd expect", '82621F5724000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F57243284546A99671ABE0004', 1646221092, 1, '621f57243284546a99671abe'],
];

const RT_V1_HWM = '82612F653E000000022B0229296E04';
const RT_V2_INSERT = '826275077A000000012B042C0100296E5A1004BFFDB617400E486099007C0E0048B305463C6F7065726174696F6E54797065003C696E736572740046646F63756D656E744B65790046645F696400646275077A2F3159F971E405C6000004';
const RT_V1_DOUBLES = '8265523992000000012B022C0100296E5A1004754B35D306B342E8BA0A3DE71005B66446465F6964004650666F6F0050337F78F63E7958E8661F808709C186A717992A6083F43058818C1A289F7C0BCFA77E73E500000004';

test('the article\'s decoded example: every field, in order, with its BSON type', () => {
  const r = decodeResumeToken(RT_ARTICLE_FIRST);
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'version', 'tokenType', 'txnOpIndex', 'fromInvalidate', 'uuid', 'documentKey']);
  assert.strictEqual(r.timestamp._bsontype, 'Timestamp');
  assert.strictEqual(r.timestamp.high, 1644927205);
  assert.strictEqual(r.timestamp.low, 2);
  assert.strictEqual(r.version, 1);
  assert.strictEqual(r.tokenType, 128);
  assert.strictEqual(r.txnOpIndex, 0);
  assert.strictEqual(r.fromInvalidate, false);
  assert.strictEqual(r.uuid.sub_type, 4);
  assert.strictEqual(r.uuid.toUUID().toString(), '437fb549-cfdd-4526-9dd5-9b9bf0eb3547');
  assert.strictEqual(r.documentKey._id._bsontype, 'ObjectId');
  assert.strictEqual(r.documentKey._id.toHexString(), '620b98e564da118651c64200');
  // The event printed beside it arrived at 2022-02-15T12:13:26.173Z.
  assert.strictEqual(new Date(r.timestamp.high * 1000).toISOString(), '2022-02-15T12:13:25.000Z');
});

test('the article: the same token as a change event, its _id and {_data} give the same result', () => {
  const event = {
    _id: { _data: RT_ARTICLE_FIRST },
    operationType: 'insert',
    clusterTime: Timestamp({ t: 1644927205, i: 2 }),
    documentKey: { _id: ObjectId('620b98e564da118651c64200') },
  };
  const fromEvent = decodeResumeToken(event);
  assert.strictEqual(fromEvent.timestamp.toString(), event.clusterTime.toString());
  assert.ok(fromEvent.documentKey._id.equals(event.documentKey._id));
  assert.deepStrictEqual(rtPlain(fromEvent), rtPlain(decodeResumeToken(event._id)));
  assert.deepStrictEqual(rtPlain(fromEvent), rtPlain(decodeResumeToken(RT_ARTICLE_FIRST.toLowerCase())));
});

test('the article: the ten tokens decode to the events printed beside them', () => {
  for (const [msg, token, t, i, oid] of RT_ARTICLE_EVENTS) {
    const r = decodeResumeToken(token);
    assert.strictEqual(r.timestamp.high, t, msg);
    assert.strictEqual(r.timestamp.low, i, msg);
    assert.strictEqual(r.version, 1, msg);
    assert.strictEqual(r.tokenType, 128, msg);
    assert.strictEqual(r.uuid.toUUID().toString(), 'd9ec8991-b42f-4f71-ba61-fc5ba26e2ded', msg);
    assert.strictEqual(r.documentKey._id.toHexString(), oid, msg);
    // The client made the _id in the same second the server logged the insert.
    assert.strictEqual(r.documentKey._id.getTimestamp().getTime() / 1000, t, msg);
    // ... and before the resumed stream printed it (2022-03-02T11:38:49Z).
    assert.ok(t * 1000 < Date.parse('2022-03-02T11:38:49Z'), msg);
  }
});

test("the article: ObjectId counters step by the documents seedCollection() inserts between the markers", () => {
  // shell-configure-test.js in the article: 1 marker, 100 junk, marker, 100 junk,
  // marker, marker, 100 junk, marker, marker, 500 junk, marker, 200 junk,
  // marker, marker, 2000 junk, marker.
  const counters = RT_ARTICLE_EVENTS.map(([, token]) => parseInt(decodeResumeToken(token).documentKey._id.toHexString().slice(18), 16));
  const steps = counters.slice(1).map((c, k) => c - counters[k]);
  assert.deepStrictEqual(steps, [101, 101, 1, 101, 1, 501, 201, 1, 2001]);
});

test('the article: the ten tokens are in stream order, and the resumeAfter token precedes them', () => {
  const tokens = RT_ARTICLE_EVENTS.map(([, token]) => token);
  for (let k = 1; k < tokens.length; k++) {
    assert.strictEqual(compareResumeTokens(tokens[k - 1], tokens[k]), -1, `${k - 1} < ${k}`);
    assert.strictEqual(compareResumeTokens(tokens[k], tokens[k - 1]), 1, `${k} > ${k - 1}`);
  }
  const resumeAfter = { _data: '82621F5485000000022B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54853284546A99670EFC0004' };
  assert.strictEqual(compareResumeTokens(resumeAfter, tokens[0]), -1);
  const shuffled = [tokens[5], tokens[9], tokens[0], tokens[8], tokens[7], tokens[2], tokens[1], tokens[6], tokens[3], tokens[4]];
  assert.deepStrictEqual(shuffled.sort(compareResumeTokens), tokens);
});

test('public vector: v1 high-water mark 82612F653E000000022B0229296E04', () => {
  const r = decodeResumeToken(RT_V1_HWM);
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'version', 'tokenType', 'txnOpIndex', 'fromInvalidate']);
  assert.strictEqual(r.timestamp.high, 1630496062);
  assert.strictEqual(r.timestamp.low, 2);
  assert.strictEqual(r.version, 1);
  assert.strictEqual(r.tokenType, 0);
  assert.strictEqual(r.txnOpIndex, 0);
  assert.strictEqual(r.fromInvalidate, false);
});

test('public vector: v2 high-water mark ends 2B0429296E1404 (uuid an explicit null)', () => {
  const r = decodeResumeToken('82612F653E00000002' + '2B0429296E1404');
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'version', 'tokenType', 'txnOpIndex', 'fromInvalidate', 'uuid']);
  assert.strictEqual(r.version, 2);
  assert.strictEqual(r.tokenType, 0);
  assert.strictEqual(r.uuid, null);
});

test('public vector: v2 insert, Timestamp(1651836794, 1), eventIdentifier {operationType, documentKey}', () => {
  const r = decodeResumeToken(RT_V2_INSERT);
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'version', 'tokenType', 'txnOpIndex', 'fromInvalidate', 'uuid', 'eventIdentifier']);
  assert.strictEqual(r.timestamp.high, 1651836794);
  assert.strictEqual(r.timestamp.low, 1);
  assert.strictEqual(r.version, 2);
  assert.strictEqual(r.uuid.toUUID().toString(), 'bffdb617-400e-4860-9900-7c0e0048b305');
  assert.strictEqual(r.eventIdentifier.operationType, 'insert');
  assert.strictEqual(r.eventIdentifier.documentKey._id.toHexString(), '6275077a2f3159f971e405c6');
  assert.deepStrictEqual(Object.keys(r.eventIdentifier), ['operationType', 'documentKey']);
});

test('public vector: v1 key {_id: {foo: [2e307, -2e307, 2e-307, -2e-307]}}', () => {
  const r = decodeResumeToken(RT_V1_DOUBLES);
  assert.strictEqual(r.timestamp.high, 1699887506);
  assert.strictEqual(r.uuid.toUUID().toString(), '754b35d3-06b3-42e8-ba0a-3de71005b664');
  const foo = r.documentKey._id.foo;
  assert.strictEqual(foo.length, 4);
  assert.strictEqual(foo[0]._bsontype, 'Double'); // integral doubles stay Double
  assert.strictEqual(foo[0].valueOf(), 2e307);
  assert.strictEqual(foo[1].valueOf(), -2e307);
  assert.strictEqual(foo[2], 2e-307);
  assert.strictEqual(foo[3], -2e-307);
});

test('v2 token with fragmentNum ($changeStreamSplitLargeEvent)', () => {
  const r = decodeResumeToken(RT_V2_INSERT.slice(0, -2) + '2B0404'); // fragment 2, then the end byte
  assert.strictEqual(r.fragmentNum, 2);
  assert.strictEqual(r.eventIdentifier.operationType, 'insert');
  const first = RT_V2_INSERT.slice(0, -2) + '2904';
  assert.strictEqual(decodeResumeToken(first).fragmentNum, 0);
  assert.strictEqual(compareResumeTokens(first, RT_V2_INSERT.slice(0, -2) + '2B0404'), -1);
});

test('v0 token (4.0.0-4.0.6): no tokenType or fromInvalidate; applyOpsIndex comes back as txnOpIndex', () => {
  // clusterTime, version 0 (29), applyOpsIndex 3 (2B06), uuid, documentKey.
  const r = decodeResumeToken('82620B98E500000002' + '29' + '2B06' + '5A1004437FB549CFDD45269DD59B9BF0EB3547' +
    '46645F69640064620B98E564DA118651C6420000' + '04');
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'version', 'txnOpIndex', 'uuid', 'documentKey']);
  assert.strictEqual(r.version, 0);
  assert.strictEqual(r.txnOpIndex, 3);
  assert.strictEqual(r.documentKey._id.toHexString(), '620b98e564da118651c64200');
});

test('3.6 token with BinData _data: clusterTime, documentKey, uuid', () => {
  const hex = '82620B98E500000002' + '46645F69640064620B98E564DA118651C6420000' + '5A1004437FB549CFDD45269DD59B9BF0EB3547' + '04';
  const r = decodeResumeToken({ _data: BinData(0, Buffer.from(hex, 'hex').toString('base64')) });
  assert.deepStrictEqual(Object.keys(r), ['timestamp', 'uuid', 'documentKey']);
  assert.strictEqual(r.timestamp.high, 1644927205);
  assert.strictEqual(r.uuid.toUUID().toString(), '437fb549-cfdd-4526-9dd5-9b9bf0eb3547');
  assert.strictEqual(r.documentKey._id.toHexString(), '620b98e564da118651c64200');
  // Extended JSON, as a log line shows it.
  const ejson = { _data: { $binary: { base64: Buffer.from(hex, 'hex').toString('base64'), subType: '00' } } };
  assert.strictEqual(decodeResumeToken(ejson).documentKey._id.toHexString(), '620b98e564da118651c64200');
  // A missing documentKey is written as null before the uuid.
  const noKey = '82620B98E500000002' + '14' + '5A1004437FB549CFDD45269DD59B9BF0EB3547' + '04';
  assert.deepStrictEqual(Object.keys(decodeResumeToken({ _data: BinData(0, Buffer.from(noKey, 'hex').toString('base64')) })), ['timestamp', 'uuid']);
});

test('_typeBits beside _data restore Long and Double; an Int32 header stays a number', () => {
  // v1 token, documentKey {_id: 2}: 6 header bits, then kDouble (10) or kLong (01).
  const data = '82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB3547461E5F6964002B040004';
  assert.strictEqual(decodeResumeToken(data).documentKey._id, 2);
  const asDouble = decodeResumeToken({ _data: data, _typeBits: BinData(0, Buffer.from([0x40]).toString('base64')) });
  assert.strictEqual(asDouble.documentKey._id._bsontype, 'Double');
  const asLong = decodeResumeToken({ _data: data, _typeBits: { $binary: { base64: Buffer.from([0x81, 0x80]).toString('base64'), subType: '00' } } });
  assert.strictEqual(asLong.documentKey._id._bsontype, 'Long');
  assert.strictEqual(asLong.version, 1);
});

test('compareResumeTokens: equal tokens in any form are 0; a high-water mark precedes events of its time', () => {
  assert.strictEqual(compareResumeTokens(RT_ARTICLE_FIRST, { _data: RT_ARTICLE_FIRST }), 0);
  assert.strictEqual(compareResumeTokens({ _id: { _data: RT_ARTICLE_FIRST } }, RT_ARTICLE_FIRST.toLowerCase()), 0);
  const hwm = '82620B98E5000000022B0229296E04';
  assert.strictEqual(compareResumeTokens(hwm, RT_ARTICLE_FIRST), -1);
  assert.strictEqual(compareResumeTokens(RT_ARTICLE_FIRST, hwm), 1);
  // Different versions at one time: the event is still after the v2 high-water mark.
  assert.strictEqual(compareResumeTokens(RT_ARTICLE_FIRST, '82620B98E5000000022B0429296E1404'), 1);
  // Earlier cluster time first, whatever the version.
  assert.strictEqual(compareResumeTokens(RT_V1_HWM, RT_V2_INSERT), -1);
});

test('errors name the byte offset and start with the function name', () => {
  const cases = [
    ['', /^decodeResumeToken: empty token.*at byte 0 of _data/],
    ['826', /^decodeResumeToken: odd-length hex \(3 characters\).*at byte 1 of _data/],
    ['82620B98E50000000G', /^decodeResumeToken: not hex: character "G" at position 17.*at byte 8 of _data/],
    ['82620B98', /^decodeResumeToken: truncated key: a Timestamp needs 8 bytes, 3 left \(at byte 1 of _data\)$/],
    [RT_ARTICLE_FIRST.slice(0, -2), /^decodeResumeToken: truncated key: no end-of-key byte \(04\) \(at byte 55 of _data\)$/],
    [RT_ARTICLE_FIRST.slice(0, 60), /^decodeResumeToken: truncated key: BinData of 16 bytes needs 16 bytes, 11 left \(at byte 19 of _data\)$/],
    [RT_ARTICLE_FIRST + '00', /^decodeResumeToken: 1 trailing byte\(s\) after the end-of-key byte \(at byte 56 of _data\)$/],
    ['82612F653E000000022B0629296E04', /^decodeResumeToken: unknown resume token version 3 .*at byte 9 of _data/],
    ['2B02' + '04', /^decodeResumeToken: not a resume token: the first value is not a Timestamp \(at byte 0 of _data\)$/],
    ['04', /^decodeResumeToken: invalid empty resume token/],
    ['82612F653E000000022B022B0229296E04', /^decodeResumeToken: tokenType must be .* \(at byte 11 of _data\)$/],
    ['82612F653E00000002FF04', /^decodeResumeToken: unknown KeyString type byte 0xff \(at byte 9 of _data\)$/],
    [42, /^decodeResumeToken: wrong argument type: .*got the number 42$/],
    [null, /^decodeResumeToken: wrong argument type: .*got null/],
    [[RT_V1_HWM], /^decodeResumeToken: wrong argument type: .*got an array/],
    [{ _data: 5 }, /^decodeResumeToken: wrong argument type: .*_data as the number 5/],
    [{ _data: RT_V1_HWM, _typeBits: 'x' }, /^decodeResumeToken: _typeBits must be BinData; got the string "x"$/],
    [{ foo: 1 }, /^decodeResumeToken: wrong argument type: .*an object with field foo/],
  ];
  for (const [input, re] of cases) {
    const err = test.thrown(() => decodeResumeToken(input));
    assert.strictEqual(err.constructor.name, 'Error', String(input));
    assert.match(err.message, re);
  }
  assert.match(test.thrown(() => decodeResumeToken()).message, /^decodeResumeToken: takes one token, got 0 arguments/);
});

test('compareResumeTokens errors say which token was wrong', () => {
  assert.match(test.thrown(() => compareResumeTokens(RT_V1_HWM, 'xyz')).message,
    /^compareResumeTokens: second token: odd-length hex/);
  assert.match(test.thrown(() => compareResumeTokens({}, RT_V1_HWM)).message,
    /^compareResumeTokens: first token: wrong argument type/);
  assert.match(test.thrown(() => compareResumeTokens(RT_V1_HWM)).message,
    /^compareResumeTokens: takes two tokens, got 1 arguments/);
});

test('help() prints usage with examples for both functions', () => {
  // help() prints with the shell's print as index.js handed it over, so build
  // the module here with a print that records.
  const path = require('path');
  const printed = [];
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({
    bson: {}, print: (s) => printed.push(s), bsonsize, getDb: () => undefined,
  });
  const api = require(path.join(test.root, 'snippets', 'lib', 'resume-token.js'))(shell);
  api.decodeResumeToken.help();
  api.compareResumeTokens.help();
  const text = printed.join('\n');
  assert.match(text, /^\n {2}decodeResumeToken\(token\):\n/);
  assert.match(text, /Examples:\n {4}decodeResumeToken\('82620B98E5/);
  assert.match(text, /compareResumeTokens\(a, b\)/);
  assert.match(text, /tokens\.sort\(compareResumeTokens\)/);
});

test('agrees with the npm mongodb-resumetoken-decoder on every token both can read', () => {
  // An independent implementation (a devDependency, used here and in bench/ only).
  const npm = require(require.resolve('mongodb-resumetoken-decoder', { paths: [test.root] }));
  const tokens = [RT_ARTICLE_FIRST, ...RT_ARTICLE_EVENTS.map(([, token]) => token), RT_V1_HWM, RT_V2_INSERT, RT_V1_DOUBLES];
  for (const token of tokens) {
    const ours = decodeResumeToken(token);
    const theirs = npm.decodeResumeToken(token);
    assert.strictEqual(ours.timestamp.toString(), theirs.timestamp.toString(), token);
    for (const k of ['version', 'tokenType', 'txnOpIndex', 'fromInvalidate']) {
      assert.strictEqual(ours[k], theirs[k], `${k} of ${token}`);
    }
    if (theirs.uuid) assert.strictEqual(ours.uuid.toString('hex'), theirs.uuid.toHexString().replace(/-/g, ''), token);
    const key = ours.documentKey || (ours.eventIdentifier && ours.eventIdentifier.documentKey);
    const theirKey = theirs.documentKey || (theirs.eventIdentifier && theirs.eventIdentifier.documentKey);
    assert.strictEqual(Boolean(key), Boolean(theirKey), token);
    if (key && key._id._bsontype === 'ObjectId') assert.strictEqual(key._id.toHexString(), theirKey._id.toHexString(), token);
  }
});
