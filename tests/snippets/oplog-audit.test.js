// oplogAudit over a mongodump .bson file (snippets/lib/oplog-audit.js,
// oplog-classify.js, bson-file.js). The entries are
// tests/fixtures/oplog-audit/entries.js: one of every form, each shaped as
// the server writes it and naming its source. The live path is in
// tests/integration/ferretdb/oplog-audit.test.js.

function auditT() {
  const zlib = require('zlib');
  // The bson package mongosh itself loads (the shell's ObjectId is its
  // ObjectId): what mongodump's files hold, written by the same library.
  const lib = Object.values(require.cache).map((m) => m.exports)
    .find((e) => e && typeof e.serialize === 'function' && e.ObjectId && e.ObjectId.prototype === ObjectId.prototype);
  const AT = 1700000000;
  const list = require(test.fixture('oplog-audit', 'entries.js'))({ Timestamp, Long, Int32, UUID, ObjectId, Binary }, AT);
  const byName = Object.fromEntries(list.map((x) => [x.name, x.entry]));
  const bytes = (...names) => names.map((n) => bsonsize(byName[n]));
  const dump = (entries) => Buffer.concat(entries.map((e) => lib.serialize(e)));
  const { withFile, rejected } = require(test.fixture('oplog-audit', 'tmp-file.js'));
  const all = dump(list.map((x) => x.entry));
  const plain = (x) => JSON.parse(JSON.stringify(x));
  const group = (a, ns, op) => a.byNamespace.find((g) => g.ns === ns && g.op === op);
  return { AT, lib, list, byName, bytes, dump, withFile, rejected, all, gzip: zlib.gzipSync, plain, group };
}

const CURVE = 'dbalab_array-push-oplog.curve';
const SECONDS = 'dbalab_array-push-oplog.seconds';
const ORDERS = 'shop.orders';

test('every form the audit tells apart has a fixture entry', () => {
  const t = auditT();
  assert.deepStrictEqual(Array.from(t.list, (x) => x.name), ['insert', 'v1-set', 'v1-unset', 'v1-whole-array', 'v2-whole-array',
    'v2-addtoset-5.0', 'v2-elements', 'v2-fields', 'replacement', 'delete', 'noop', 'command', 'transaction',
    'transaction-partial', 'transaction-prepared', 'commit', 'batched-delete']);
  for (const x of t.list) assert.ok(x.source.length > 20, `${x.name} names its source`);
});

test('byNamespace counts each applyOps inner op under its own ns and op', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const counts = Object.fromEntries(a.byNamespace.map((g) => [`${g.ns} ${g.op}`, g.entries]));
  assert.deepStrictEqual(counts, {
    [`${CURVE} update`]: 5,
    [`${ORDERS} update`]: 4, // v1-unset, v2-fields, replacement, and the transaction's update
    [`${SECONDS} delete`]: 4, // the delete and the batched delete's three
    [`${SECONDS} insert`]: 1,
    [`${ORDERS} insert`]: 2, // the transaction's and the partial transaction's
    [`${ORDERS} delete`]: 1, // the prepared transaction's
    'admin.$cmd command': 1, // commitTransaction; the applyOps envelopes are transactions, not commands
    'shop.$cmd command': 1,
    ' noop': 1,
  });
});

test('byNamespace bytes are each entry\'s bsonsize: total, min, max and mean per group', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const sizes = t.bytes('v1-set', 'v1-whole-array', 'v2-whole-array', 'v2-addtoset-5.0', 'v2-elements');
  const total = sizes.reduce((x, y) => x + y, 0);
  assert.deepStrictEqual(t.plain(t.group(a, CURVE, 'update').bytes),
    { total, min: Math.min(...sizes), max: Math.max(...sizes), mean: Math.round(total / sizes.length) });
});

test('an inner op is sized as its own document inside applyOps', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const inner = t.byName['batched-delete'].o.applyOps.map((op) => bsonsize(op));
  const outer = bsonsize(t.byName.delete);
  assert.strictEqual(t.group(a, SECONDS, 'delete').bytes.total, outer + inner.reduce((x, y) => x + y, 0));
});

test('the audit\'s bytes are the file\'s bytes, and its entries the top-level entries', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  assert.strictEqual(a.bytes, t.all.length);
  assert.strictEqual(a.entries, t.list.length);
  assert.strictEqual(a.source.fileBytes, t.all.length);
});

test('applyOps entries are counted as the transactions and batched writes they were', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const envelopes = t.bytes('transaction', 'transaction-partial', 'transaction-prepared', 'batched-delete');
  assert.deepStrictEqual(t.plain(a.transactions), {
    applyOpsEntries: 4, bytes: envelopes.reduce((x, y) => x + y, 0), innerOps: 7,
    committed: 1, partial: 1, prepared: 1, batchedWrites: 1, commits: 1, aborts: 0,
  });
});

test('updates are split by form, per namespace', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const forms = Object.fromEntries(a.updateForms.map((f) => [`${f.ns} ${f.form}`, f.entries]));
  assert.deepStrictEqual(forms, {
    [`${CURVE} v1`]: 1,
    [`${CURVE} v1-whole-array`]: 1,
    [`${CURVE} v2-whole-array`]: 2, // $push with $slice, and $addToSet before 7.1
    [`${CURVE} v2-elements`]: 1,
    [`${ORDERS} v1`]: 1,
    [`${ORDERS} v2-fields`]: 2,
    [`${ORDERS} replacement`]: 1,
  });
  assert.strictEqual(a.updateForms.find((f) => f.form === 'v1-whole-array').bytes, bsonsize(t.byName['v1-whole-array']));
});

test('wholeArrays lists each array an update wrote whole, with the lab\'s rewrite', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const curve = a.wholeArrays.find((w) => w.ns === CURVE);
  assert.deepStrictEqual([curve.field, curve.entries, curve.maxElements], ['readings', 3, 1200]);
  assert.strictEqual(a.wholeArrays[0], curve);
  assert.match(curve.rewrite, /plain \$push .*per-second fix/);
  // The array's own element sizes: the entry's bytes less its envelope.
  const arrayBytes = (n) => bsonsize({ readings: n === 'v1-whole-array' ? t.byName[n].o.$set.readings : t.byName[n].o.diff.u.readings }) - 5;
  assert.strictEqual(curve.bytes, ['v1-whole-array', 'v2-whole-array', 'v2-addtoset-5.0'].map(arrayBytes).reduce((x, y) => x + y, 0));
});

test('positional writes are one field, readings.$, with an example _id', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const f = a.topFields.find((x) => x.ns === CURVE && x.field === 'readings.$');
  assert.strictEqual(f.entries, 2); // the $v:1 positional $set and the $v:2 u1800
  assert.strictEqual(f.exampleId, 'x-1800');
  assert.strictEqual(a.topFields[0].field, 'readings');
});

test('a gzip dump (told by its magic bytes, whatever its name) audits the same as the plain one', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const z = await t.withFile(t.gzip(t.all), (file) => oplogAudit({ file }));
  assert.strictEqual(z.source.gzip, true);
  assert.strictEqual(a.source.gzip, false);
  const strip = (x) => ({ ...t.plain(x), source: undefined });
  assert.deepStrictEqual(strip(z), strip(a));
});

test('an entry larger than a read chunk (256 KiB) is read whole, across several chunks', async () => {
  const t = auditT();
  const big = { ...t.byName['v1-whole-array'], o: { $v: 1, $set: { readings: Array.from({ length: 50000 }, (_, i) => ({ s: i, temp: 21.5 })) } } };
  const buf = t.dump([t.byName.insert, big, t.byName.delete]);
  assert.ok(bsonsize(big) > 1024 * 1024);
  const a = await t.withFile(buf, (file) => oplogAudit({ file }));
  assert.strictEqual(a.entries, 3);
  assert.strictEqual(a.wholeArrays[0].maxElements, 50000);
});

test('{since, until} audits the entries of that range only', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file, since: Timestamp({ t: t.AT + 9, i: 0 }), until: Timestamp({ t: t.AT + 10, i: 1 }) }));
  assert.strictEqual(a.entries, 2); // entry 9 (delete) and 10 (noop)
  assert.deepStrictEqual(a.byNamespace.map((g) => g.op).sort(), ['delete', 'noop']);
});

test('{last} is counted back from the dump\'s newest entry', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file, last: '3s' }));
  assert.strictEqual(a.entries, 4); // entries at AT+13 ... AT+16
  assert.strictEqual(a.first.ts.getHighBits(), t.AT + 13);
});

test('a time range outside the dump is refused, naming what the dump holds', async () => {
  const t = auditT();
  const err = await t.withFile(t.all, (file) => t.rejected(() => oplogAudit({ file, since: new Date('2030-01-01T00:00:00Z') })));
  assert.match(err.message, /^oplogAudit: the time range is outside the oplog: the file ".*" holds 2023-11-14T22:13:20.000Z \(Timestamp\(1700000000, 1\)\) to 2023-11-14T22:13:36.000Z/);
});

test('the window at the audited rate needs the oplog\'s size, and uses it', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file, oplogSize: '1GB' }));
  const rate = Math.round((t.all.length / 16) * 3600);
  assert.strictEqual(a.window.auditedBytesPerHour, rate);
  assert.strictEqual(a.window.hoursAtAuditedRate, Math.round((1024 ** 3 / rate) * 100) / 100);
  const b = await t.withFile(t.all, (file) => oplogAudit({ file }));
  assert.strictEqual(b.window.hoursAtAuditedRate, undefined);
});

test('a document that is not an oplog entry is skipped, with the reason', async () => {
  const t = auditT();
  const a = await t.withFile(t.dump([t.byName.insert, { _id: 1, name: 'not an entry' }]), (file) => oplogAudit({ file }));
  assert.strictEqual(a.entries, 2);
  assert.deepStrictEqual(t.plain(a.skipped), { entries: 1, firstReason: "not an oplog entry: it has no string 'op' and 'ns'" });
});

test('the table reads at a prompt: totals, columns, forms, whole arrays, applyOps', async () => {
  const t = auditT();
  const a = await t.withFile(t.all, (file) => oplogAudit({ file }));
  const text = require('util').inspect(a);
  const lines = text.split('\n');
  assert.match(lines[0], /^oplog audit of .*oplog\.rs\.bson: 17 entries, \d+(\.\d+)? KB, 2023-11-14T22:13:20.000Z to 2023-11-14T22:13:36.000Z/);
  assert.match(lines[2], /^ {2}namespace +op +entries +total +mean +max +share$/);
  assert.match(lines[3], /^ {2}dbalab_array-push-oplog\.curve +update +5 /);
  assert.match(text, /\n {4}dbalab_array-push-oplog\.curve readings: 3 entries, .*, up to 1200 elements \(e\.g\. _id "x-600"\)/);
  assert.match(text, /\n {2}applyOps: 4 entries \(.*\) holding 7 operations: 1 committed transactions, 1 partial, 1 prepared, 1 batched writes/);
});

test('an unreadable file is a one-line error', () => {
  const err = test.thrown(() => oplogAudit({ file: '/nonexistent/oplog.rs.bson' }));
  assert.strictEqual(err.message, 'oplogAudit: cannot read the file "/nonexistent/oplog.rs.bson": no such file');
  assert.strictEqual(err.code, 'DBALAB_BAD_ARGUMENT');
  assert.ok(err instanceof Error, 'the shell\'s own Error');
});

test('a file that is not BSON is refused at its first document', async () => {
  const t = auditT();
  const err = await t.withFile(Buffer.from('{"op": "i"}\n'), (file) => t.rejected(() => oplogAudit({ file })));
  assert.match(err.message, /^oplogAudit: ".*" is not a BSON dump: at byte 0 a document claims \d+ bytes/);
});

test('a truncated dump is refused, plain or gzip', async () => {
  const t = auditT();
  const cut = t.all.subarray(0, t.all.length - 10);
  const err = await t.withFile(cut, (file) => t.rejected(() => oplogAudit({ file })));
  assert.match(err.message, /ends inside a document \(\d+ bytes left at byte \d+\): the dump is truncated$/);
  const gz = t.gzip(t.all);
  const errZ = await t.withFile(gz.subarray(0, gz.length - 200), (file) => t.rejected(() => oplogAudit({ file })));
  assert.match(errZ.message, /^oplogAudit: ".*" is a truncated gzip file$/);
});

test('bad options are refused before any read', () => {
  assert.match(test.thrown(() => oplogAudit({ lastt: '6h' })).message, /^oplogAudit: unknown option 'lastt'; accepted: last, since, until, file, collection, oplogSize, maxTimeMS$/);
  assert.match(test.thrown(() => oplogAudit({ last: '6h', since: '1h' })).message, /give 'last' or 'since', not both/);
  assert.match(test.thrown(() => oplogAudit({ last: 6 })).message, /'last' must be a duration such as '30m', '6h', '2d'; got the number 6/);
  assert.match(test.thrown(() => oplogAudit({ file: 'x.bson', oplogSize: 'big' })).message, /'oplogSize' must be a size such as '50GB'/);
  assert.match(test.thrown(() => oplogAudit('6h')).message, /^oplogAudit: options must be a document, e\.g\. \{last: '6h'\}; got the string "6h"$/);
});

test('the live audit without a connection says so', () => {
  const err = test.thrown(() => oplogAudit({ last: '6h' }));
  assert.strictEqual(err.code, 'DBALAB_NO_CONNECTION');
});

test('help gives every entry point with an example', () => {
  const printed = [];
  const saved = globalThis.print;
  globalThis.print = (s) => printed.push(s);
  try {
    oplogAudit.help();
  } finally {
    globalThis.print = saved;
  }
  const text = printed.join('\n');
  for (const s of ["oplogAudit({last: '6h'})", 'oplogAudit({since, until})', "oplogAudit({file: 'dump/local/oplog.rs.bson'})", 'oplogAudit({collection:', 'Examples:']) {
    assert.ok(text.includes(s), `help shows ${s}`);
  }
});

// The standalone mongosh binary keeps its bson library out of reach: the
// audit then reads entries with snippets/lib/bson-read.js. This is that
// audit, through the module's internal seam standing in for the library search.
function fallbackAudit() {
  const path = require('path');
  const lib = path.join(test.root, 'snippets', 'lib');
  const shell = require(path.join(lib, 'shell.js'))({
    bson: { Binary, BSONRegExp, Code, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID },
    print: () => {}, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date },
  });
  return require(path.join(lib, 'oplog-audit.js'))(shell, { bsonLibrary: () => null }).oplogAudit;
}

test('without the shell\'s bson library, a generated dump audits as it does with it', async () => {
  const t = auditT();
  const { execFileSync } = require('child_process');
  const { withFile } = require(test.fixture('oplog-audit', 'tmp-file.js'));
  const gen = require('path').join(test.root, 'bench', 'oplog-audit-gen.js');
  const [withLib, without] = await withFile(Buffer.alloc(0), async (file) => {
    execFileSync(process.execPath, [gen, '--bytes', String(2 * 1024 * 1024), '--out', file], { cwd: test.root });
    return [await oplogAudit({ file }), await fallbackAudit()({ file })];
  });
  assert.ok(withLib.entries > 500, `${withLib.entries} entries`);
  assert.deepStrictEqual(t.plain(without), t.plain(withLib));
});

test('without the shell\'s bson library, a malformed entry is a one-line error naming the entry and the byte', async () => {
  const t = auditT();
  const bad = Buffer.from(t.all);
  const second = bad.readInt32LE(0);
  bad[second + 4] = 0x20; // the second entry's first type byte
  const err = await t.rejected(() => t.withFile(bad, (file) => fallbackAudit()({ file })));
  assert.match(err.message, /^oplogAudit: ".*oplog\.rs\.bson" is not a BSON dump: entry 2 is malformed at byte 4: unknown BSON type 0x20$/);
});
