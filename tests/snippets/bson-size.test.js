// The JS BSON sizes explainOplogEntry uses instead of one bsonsize() per
// element must equal the shell's bsonsize() for every type it answers for.

function bsonSizeLib() {
  return require(require('path').join(test.root, 'snippets', 'lib', 'bson-size.js'));
}

test('element sizes equal bsonsize() for every BSON type the shell writes', () => {
  const { elementBytes } = bsonSizeLib();
  const values = [
    0, 1, -1, 2147483647, 2147483648, -2147483648, -2147483649, 0.5, -0, NaN, Infinity, 2 ** 53 + 2,
    '', 'abc', 'é漢字🙂', '\ud800x', 'x\udc00', 'ü'.repeat(100), true, false, null, 10n,
    new Date(0), /a.b/, /x/gimsuy, [], [1, 'two', [3]], Array.from({ length: 12 }, (_, i) => i),
    {}, { a: 1, b: { c: [null, true] } }, { 'ключ': 'значение' },
    Long('9223372036854775807'), Int32(5), Double(1), Decimal128('1.5'), Timestamp({ t: 1, i: 2 }),
    ObjectId('000000000000000000000000'), UUID('437fb549-cfdd-4526-9dd5-9b9bf0eb3547'),
    Binary(Buffer.from('hello'), 0), Binary(Buffer.from('hello'), 2), MinKey(), MaxKey(),
    BSONRegExp('a+', 'ix'),
  ];
  for (const v of values) {
    for (const name of ['u7', 'a', 'ключ']) {
      const got = elementBytes(name, v);
      assert.notStrictEqual(got, null, `no size for ${String(v)}`);
      assert.strictEqual(got, bsonsize({ [name]: v }) - 5, `${name}: ${String(v)}`);
    }
  }
});

test('a value it cannot size is left to bsonsize() (null), not guessed', () => {
  const { elementBytes } = bsonSizeLib();
  assert.strictEqual(elementBytes('c', Code('x')), null);
  assert.strictEqual(elementBytes('f', { toBSON: () => ({}) }), null);
});

test('explainOplogEntry sizes element writes exactly as bsonsize() does', () => {
  const diff = { a: true, l: 9 };
  for (let i = 0; i < 5; i++) diff[`u${i}`] = { t: i, s: 'x'.repeat(i), d: new Date(i) };
  diff.s5 = { a: true, u0: Long(5) };
  const e = explainOplogEntry({ op: 'u', ns: 'a.b', o: { $v: 2, diff: { sarr: diff } }, o2: { _id: 1 } });
  const update = e.paths.find((p) => p.path === 'arr.2');
  assert.strictEqual(update.bytes, bsonsize({ u2: diff.u2 }) - 5);
  const arr = e.arrays.find((a) => a.path === 'arr');
  assert.strictEqual(arr.bytes, bsonsize({ sarr: diff }) - 5);
});
