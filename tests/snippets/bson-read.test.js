// snippets/lib/bson-read.js, the BSON reader oplogAudit({file}) uses when the
// shell's bson library is out of reach (the standalone mongosh binary),
// against that library's deserialize() as mongosh from npm loads it.

function readT() {
  const path = require('path');
  const lib = Object.values(require.cache).map((m) => m.exports)
    .find((e) => e && typeof e.deserialize === 'function' && e.ObjectId && e.ObjectId.prototype === ObjectId.prototype);
  const bson = { Binary, BSONRegExp, Code, DBRef, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID };
  const read = require(path.join(test.root, 'snippets', 'lib', 'bson-read.js'))(bson, (m) => new Error(m));
  // One BSON element, as bsonspec.org/spec.html lays it out: type, e_name, payload.
  const el = (type, name, payload) => Buffer.concat([Buffer.from([type]), Buffer.from(`${name}\0`, 'utf8'), payload]);
  const int32 = (n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; };
  const str = (s) => { const b = Buffer.from(`${s}\0`, 'utf8'); return Buffer.concat([int32(b.length), b]); };
  const doc = (...els) => { const body = Buffer.concat([...els, Buffer.from([0])]); return Buffer.concat([int32(body.length + 4), body]); };
  // Same values, same classes, all the way down.
  const same = (a, b) => {
    assert.deepStrictEqual(a, b);
    const walk = (x, y, at) => {
      if (x === null || x === undefined) return assert.strictEqual(x, y, at);
      assert.strictEqual(Object.getPrototypeOf(x), Object.getPrototypeOf(y), at);
      if (x && typeof x === 'object') for (const k of Object.keys(x)) walk(x[k], y[k], `${at}.${k}`);
    };
    walk(a, b, '');
  };
  return { lib, read, el, int32, str, doc, same };
}

// Every type of the spec, the deprecated ones included, written byte by byte.
function everyType(t) {
  const oid = Buffer.from('5180a6000000000000000001', 'hex');
  const uuid = Buffer.from('0f6a3a3e9b1c4c55a0d35d8a1e2f4b61', 'hex');
  const i64 = (hi, lo) => { const b = Buffer.alloc(8); b.writeUInt32LE(lo, 0); b.writeInt32LE(hi, 4); return b; };
  const i64n = (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(n); return b; };
  const f64 = (x) => { const b = Buffer.alloc(8); b.writeDoubleLE(x); return b; };
  return t.doc(
    t.el(0x01, 'double', f64(21.355)),
    t.el(0x02, 'string', t.str('grüße ✓ 𝄞')),
    t.el(0x03, 'document', t.doc(t.el(0x10, 'a', t.int32(1)))),
    t.el(0x04, 'array', t.doc(t.el(0x10, '0', t.int32(1)), t.el(0x02, '1', t.str('b')))),
    t.el(0x05, 'binary', Buffer.concat([t.int32(3), Buffer.from([0]), Buffer.from('abc')])),
    t.el(0x05, 'binaryOld', Buffer.concat([t.int32(7), Buffer.from([2]), t.int32(3), Buffer.from('abc')])),
    t.el(0x05, 'uuid', Buffer.concat([t.int32(16), Buffer.from([4]), uuid])),
    t.el(0x06, 'undefined', Buffer.alloc(0)),
    t.el(0x07, 'objectId', oid),
    t.el(0x08, 'true', Buffer.from([1])),
    t.el(0x08, 'false', Buffer.from([0])),
    t.el(0x09, 'date', i64n(1367366400000n)),
    t.el(0x09, 'dateBefore1970', i64n(-1000n)),
    t.el(0x0a, 'null', Buffer.alloc(0)),
    t.el(0x0b, 'regex', Buffer.from('^a.c\0imsx\0', 'utf8')),
    t.el(0x0c, 'dbPointer', Buffer.concat([t.str('shop.orders'), oid])),
    t.el(0x0d, 'code', t.str('function () { return 1; }')),
    t.el(0x0e, 'symbol', t.str('sym')),
    (() => {
      const code = t.str('x + y');
      const scope = t.doc(t.el(0x10, 'y', t.int32(2)));
      return t.el(0x0f, 'codeWithScope', Buffer.concat([t.int32(4 + code.length + scope.length), code, scope]));
    })(),
    t.el(0x10, 'int32', t.int32(-7)),
    t.el(0x11, 'timestamp', i64(1700000000, 3)),
    t.el(0x12, 'int64Small', i64(0, 42)),
    t.el(0x12, 'int64Minus1', i64(-1, 4294967295)),
    t.el(0x12, 'int64TwoTo53', i64(0x200000, 0)),
    t.el(0x12, 'int64Big', i64(0x200000, 1)),
    t.el(0x12, 'int64Min', i64(-2147483648, 0)),
    t.el(0x13, 'decimal128', Buffer.from('0f000000000000000000000000003e30', 'hex')), // 1.5: bsonspec's decimal128 corpus
    t.el(0x03, 'dbRef', t.doc(t.el(0x02, '$ref', t.str('orders')), t.el(0x07, '$id', oid), t.el(0x02, '$db', t.str('shop')), t.el(0x10, 'n', t.int32(1)))),
    t.el(0x03, 'notDbRef', t.doc(t.el(0x02, '$ref', t.str('orders')), t.el(0x10, '$v', t.int32(2)))),
    t.el(0xff, 'minKey', Buffer.alloc(0)),
    t.el(0x7f, 'maxKey', Buffer.alloc(0)),
  );
}

test('every entry of the oplog-audit fixtures reads as the shell\'s bson library reads it', () => {
  const t = readT();
  const list = require(test.fixture('oplog-audit', 'entries.js'))({ Timestamp, Long, Int32, UUID, ObjectId, Binary }, 1700000000);
  for (const { name, entry } of list) {
    const buf = t.lib.serialize(entry);
    assert.doesNotThrow(() => t.same(t.read(buf), t.lib.deserialize(buf)), name);
  }
});

test('a document of every BSON type, deprecated ones included, reads as the library reads it', () => {
  const t = readT();
  const buf = everyType(t);
  const theirs = t.lib.deserialize(buf);
  assert.strictEqual(Object.keys(theirs).length, 31);
  t.same(t.read(buf), theirs);
});

test('the values are the shell\'s own BSON classes', () => {
  const t = readT();
  const d = t.read(everyType(t));
  for (const [field, Class] of [['objectId', ObjectId], ['uuid', UUID], ['binary', Binary], ['timestamp', Timestamp],
    ['int64Big', Long], ['decimal128', Decimal128], ['code', Code], ['dbPointer', DBRef], ['minKey', MinKey], ['maxKey', MaxKey]]) {
    assert.ok(d[field] instanceof Class, field);
  }
});

test('a document shorter than its length is a one-line error at byte 0', () => {
  const t = readT();
  const buf = t.doc(t.el(0x10, 'a', t.int32(1)));
  const err = test.thrown(() => t.read(buf.subarray(0, buf.length - 2)));
  assert.strictEqual(err.message, 'at byte 0: the document claims 12 bytes, 10 are there');
});

test('a document cut inside its length field is a one-line error at byte 0', () => {
  const t = readT();
  const err = test.thrown(() => t.read(t.doc().subarray(0, 3)));
  assert.strictEqual(err.message, 'at byte 0: a document is 5 bytes at least, this one is 3');
});

test('a string whose length runs past its document is a one-line error at its offset', () => {
  const t = readT();
  const buf = t.doc(t.el(0x02, 's', Buffer.concat([t.int32(400), Buffer.from('ab\0')])));
  const err = test.thrown(() => t.read(buf));
  assert.strictEqual(err.message, 'at byte 7: a string claims 400 bytes, 3 left in its document');
});

test('a document without its closing NUL is a one-line error at its last byte', () => {
  const t = readT();
  const buf = t.doc(t.el(0x10, 'a', t.int32(1)));
  buf[buf.length - 1] = 1;
  const err = test.thrown(() => t.read(buf));
  assert.strictEqual(err.message, 'at byte 11: the document at byte 0 does not end with a NUL byte');
});

test('an unknown type byte is a one-line error at that byte', () => {
  const t = readT();
  const buf = t.doc(t.el(0x10, 'a', t.int32(1)), t.el(0x10, 'b', t.int32(2)));
  buf[11] = 0x20;
  const err = test.thrown(() => t.read(buf));
  assert.strictEqual(err.message, 'at byte 11: unknown BSON type 0x20');
});

test('a string that is not UTF-8 is a one-line error at its offset', () => {
  const t = readT();
  const buf = t.doc(t.el(0x02, 's', Buffer.concat([t.int32(3), Buffer.from([0xc3, 0x28, 0])])));
  const err = test.thrown(() => t.read(buf));
  assert.strictEqual(err.message, 'at byte 7: a string is not valid UTF-8');
  assert.throws(() => t.lib.deserialize(buf), /utf-?8/i);
});

test('top reads the named top-level fields as the whole read does, and no others', () => {
  const t = readT();
  const list = require(test.fixture('oplog-audit', 'entries.js'))({ Timestamp, Long, Int32, UUID, ObjectId, Binary }, 1700000000);
  const names = new Set(['ns', 'op', 'ts']);
  for (const { name, entry } of list) {
    const buf = t.lib.serialize(entry);
    const whole = t.read(buf);
    const top = t.read.top(buf, names);
    assert.deepStrictEqual(Object.keys(top).sort(), ['ns', 'op', 'ts'], name);
    for (const k of names) assert.doesNotThrow(() => t.same(top[k], whole[k]), `${name} ${k}`);
  }
});

test('top refuses a value whose length runs past the document, unread as it is', () => {
  const t = readT();
  const buf = t.doc(t.el(0x03, 'o', Buffer.concat([t.int32(400), Buffer.from([0])])), t.el(0x02, 'op', t.str('i')));
  const err = test.thrown(() => t.read.top(buf, new Set(['op'])));
  assert.strictEqual(err.message, 'at byte 7: a value claims 400 bytes, 15 left in its document');
});
