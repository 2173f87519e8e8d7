// explainOplogEntry, oplogEntrySize, oplogWindow, changeStreamResumeCheck (snippets/lib/oplog*.js).
//
// No mongod can run here, so every entry below is written by hand from what the
// server's own tests assert it logs; each test names the file and test case (or
// the article) it follows, in mongodb/mongo unless said otherwise. Server round
// trips are covered by feeding recorded or source-derived answers to the pure
// builders and shapers in oplog-server.js.

function oplogT() {
  const path = require('path');
  const lib = path.join(test.root, 'snippets', 'lib');
  const shell = require(path.join(lib, 'shell.js'))({
    bson: { Binary, BSONRegExp, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID },
    print,
    bsonsize,
    getDb: () => undefined, realm: { Object, Array, Error, Date },
  });
  const ex = require(path.join(lib, 'oplog-explain.js'))(shell);
  const sv = require(path.join(lib, 'oplog-server.js'))(shell, ex);
  return { shell, ex, sv };
}

// A top-level update entry shaped as local.oplog.rs holds it (fields from
// src/mongo/db/repl/oplog_entry.idl: op, ns, ui, o, o2, ts, t, v, wall).
function oplogTUpdate(o, o2) {
  return {
    op: 'u', ns: 'test.c', ui: UUID('437fb549-cfdd-4526-9dd5-9b9bf0eb3547'), o, o2: o2 || { _id: 1 },
    ts: Timestamp({ t: 1700000000, i: 1 }), t: Long(1), v: Long(2), wall: new Date('2023-11-14T22:13:20Z'),
  };
}

// The snippet modules run in Node's realm, this file in the shell's: their arrays
// and objects have other prototypes, which deepStrictEqual rejects. Rebuild
// plain containers here (BSON values and everything else are kept as they are).
function oplogTPlain(x) {
  if (Array.isArray(x)) return Array.from(x, oplogTPlain);
  if (x && typeof x === 'object' && !x._bsontype && Object.prototype.toString.call(x) === '[object Object]') {
    const out = {};
    for (const k of Object.keys(x)) out[k] = oplogTPlain(x[k]);
    return out;
  }
  return x;
}

function oplogTEqual(actual, expected) {
  assert.deepStrictEqual(oplogTPlain(actual), expected);
}

function oplogTInspect(x) {
  return require('util').inspect(x);
}

// ---- docs/mongodb-facts.md#oplog-array-push, row by row ---------------------

test('$push to a non-empty array, $v:1: a positional $set is an element write (push_node_test.cpp ApplyToArrayWithOneElement, 01ed0776)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { 'a.1': 1 } }));
  assert.strictEqual(x.format, '$v:1');
  oplogTEqual(x.arrays, [{ path: 'a', action: 'elements', elements: 1, bytes: 9 }]);
});

test('$push to a non-empty array, $v:2: {sa: {a: true, u1: 1}} is an element write (push_node_test.cpp ApplyToArrayWithOneElement)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { a: true, u1: 1 } } }));
  assert.strictEqual(x.format, '$v:2');
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'elements', 1]]);
  oplogTEqual(x.paths, [{ path: 'a.1', change: 'update', bytes: 8 }]);
});

test('$push $each of two to a non-empty array, $v:2: two element writes (push_node_test.cpp ApplyMultipleEachToArrayWithOneElement)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { a: true, u1: 1, u2: 2 } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'elements', 2]]);
  oplogTEqual(x.paths.map((p) => p.path), ['a.1', 'a.2']);
});

test('$push to an empty array, $v:2: u:{a:[1]} rewrites the whole array (push_node_test.cpp ApplyToEmptyArray)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: [1] } } }));
  oplogTEqual(x.arrays, [{ path: 'a', action: 'replace', elements: 1, length: 1, bytes: 15 }]);
});

test('$push to a missing array, $v:2: i:{a:[1]} inserts the whole array (push_node_test.cpp ApplyToEmptyDocument)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { i: { a: [1] } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['a', 'insert']]);
  oplogTEqual(x.arrays.map((a) => [a.path, a.action]), [['a', 'replace']]);
});

test('$push to a missing array, $v:1: $set of the whole array (push_node_test.cpp ApplyToEmptyDocument, 01ed0776)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { a: [1] } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'replace', 1]]);
});

test('$push with $sort, $v:2: the whole sorted array (push_node_test.cpp ApplyWithNumericSort)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: [-1, 2, 3] } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'replace', 3]]);
});

test('$push $each with a trimming $slice on a nested array, $v:2: the whole array at a dotted path (oplog_format.js "bad array $push $slice")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { u: { b: [1, 2] } } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a.b', 'replace', 2]]);
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['a.b', 'update']]);
});

test('$push $each with a trimming $slice, $v:1: $set of the whole nested array (oplog_format.js "bad array $push $slice")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { 'a.b': [1, 2] } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a.b', 'replace', 2]]);
});

test('$push with $position before the end, $v:2: the whole array (push_node_test.cpp ApplyToPopulatedArrayWithNegativePosition)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: [0, 1, 2, 5, 3, 4] } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'replace', 6]]);
});

test('$push with $position past the end, $v:2: still an element write (push_node_test.cpp ApplyToSingletonArrayWithLargePosition)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { a: true, u1: 1 } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'elements', 1]]);
});

test('$pop, $v:2: the whole remaining array (pop_node_test.cpp PopsFromTheBackOfMultiElementArray)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { u: { b: [1, 2] } } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a.b', 'replace', 2]]);
});

test('two $pull, $v:2: both arrays whole (oplog_format.js "TwoNestedPulls")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { u: { b: [1], c: [1] } } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action]), [['a.b', 'replace'], ['a.c', 'replace']]);
});

test('$addToSet to a non-empty array, $v:2: the whole array (addtoset_node_test.cpp ApplyNonEach, 17f49ab8)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: [0, 1] } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'replace', 2]]);
});

// ---- each $v:2 diff section ------------------------------------------------

test('$v:2 section u: updated fields (oplog_format.js "MultiSets")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: 2, b: 2 } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['a', 'update'], ['b', 'update']]);
  oplogTEqual(x.arrays, []);
});

test('$v:2 section i: inserted fields (oplog_format.js "IncRewriteNonExistingField")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { i: { a: 1, b: 2 } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['a', 'insert'], ['b', 'insert']]);
});

test('$v:2 section d: deleted fields logged as {field: false} (document_diff_serialization.cpp DocumentSubDiffFrame)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { d: { gone: false } } }));
  oplogTEqual(x.paths, [{ path: 'gone', change: 'delete', bytes: 7 }]);
});

test('$v:2 section b: binary diffs, after i and before sub diffs (document_diff_serialization.cpp DocumentSubDiffFrame)', () => {
  // The value's inner layout (a BSONColumn diff of a time-series bucket) is not interpreted.
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { 'control.max': 5 }, b: { temp: { o: 12, d: Binary.createFromBase64('AAAA', 0) } } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['control.max', 'update'], ['temp', 'binary']]);
});

test('$v:2 section s<field>: nested diffs give dotted paths (push_node_test.cpp ApplyToDottedPathElement)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { schoices: { sfirst: { i: { votes: [1] } } } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['choices.first.votes', 'insert']]);
  oplogTEqual(x.arrays.map((a) => [a.path, a.action]), [['choices.first.votes', 'replace']]);
});

test('$v:2 array diff with l: a resize, nested array diffs and a whole element array (document_diff_calculator_test.cpp)', () => {
  const diff = { sfield2: { a: true, l: 6, s3: { a: true, l: 4, u2: [4] }, u5: 6 } };
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements, a.length]), [
    ['field2', 'resize', 2, 6], ['field2.3', 'resize', 1, 4], ['field2.3.2', 'replace', 1, 1],
  ]);
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [
    ['field2', 'resize'], ['field2.3', 'resize'], ['field2.3.2', 'update'], ['field2.5', 'update'],
  ]);
});

test('$v:2 array diff: s<index> with a document sub diff reaches into the element (document_diff_serialization_test.cpp)', () => {
  const diff = { sarr: { a: true, l: 6, u0: { foo: 'bar' }, s2: { d: { dField: false } }, u5: 1 } };
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [
    ['arr', 'resize'], ['arr.0', 'update'], ['arr.2.dField', 'delete'], ['arr.5', 'update'],
  ]);
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['arr', 'resize', 3]]);
});

test('$v:2 array diff: a truncation deep inside an element (pipeline_executor_test.cpp, sf1: {a: true, s1: ...})', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sf1: { a: true, s1: { sa: { sb: { a: true, l: 1 } } } } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['f1', 'elements', 1], ['f1.1.a.b', 'resize', 0]]);
});

test('$v:2 bytes of an array diff are the bytes of its s<field> element in the entry', () => {
  const sub = { a: true, u1: 1 };
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: sub } }));
  assert.strictEqual(x.arrays[0].bytes, bsonsize({ sa: sub }) - 5);
});

test('$unset of an array element, $v:2: u0: null is an element write (unset_node_test.cpp UnsetArrayElement)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { a: true, u0: null } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'elements', 1]]);
});

test('$v:2 pipeline update mixes an insert and an element write (pipeline_executor_test.cpp ComplexDoc)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { i: { c: { d: 1 } }, sb: { a: true, u1: 1 } } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['c', 'insert'], ['b.1', 'update']]);
  oplogTEqual(x.arrays.map((a) => [a.path, a.action]), [['b', 'elements']]);
});

test('an array inside an updated object value is rewritten whole, at its dotted path (issue 4: data.readings)', () => {
  const readings = Array.from({ length: 1200 }, (_, i) => ({ t: i, v: i }));
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { data: { readings } } } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['data.readings', 'replace', 1200]]);
  assert.strictEqual(x.arrays[0].bytes, bsonsize({ readings }) - 5);
});

// ---- $v:1 and replacements ---------------------------------------------------

test('$v:1 $set and $unset give set and unset paths (oplog_format.js, v2 disabled branch)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { a: 3, b: 2 }, $unset: { c: true } }));
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['a', 'set'], ['b', 'set'], ['c', 'unset']]);
});

test('$v:1 positional $inc on an array element is an element write (oplog_format.js "bad array $inc")', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { 'a.0': 3 } }));
  oplogTEqual(x.arrays, [{ path: 'a', action: 'elements', elements: 1, bytes: bsonsize({ 'a.0': 3 }) - 5 }]);
});

test('$v:1 element writes to one array are counted together', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 1, $set: { 'r.7': 1, 'r.8': 2, 'r.9.x': 3 } }));
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['r', 'elements', 3]]);
});

test('a pre-3.6 update without $v is read as $set/$unset (oplog_format.js, before $v existed)', () => {
  const x = explainOplogEntry(oplogTUpdate({ $set: { a: 2 } }));
  assert.strictEqual(x.format, '$v:1');
  oplogTEqual(x.paths.map((p) => p.path), ['a']);
});

test('a replacement update lists every top-level field and every array whole (oplog_format.js "bad save")', () => {
  const x = explainOplogEntry(oplogTUpdate({ _id: 1, a: [2] }));
  assert.strictEqual(x.format, 'replacement');
  oplogTEqual(x.paths.map((p) => [p.path, p.change]), [['_id', 'replace'], ['a', 'replace']]);
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'replace', 1]]);
  oplogTEqual(x.documentKey, { _id: 1 });
});

test('a pipeline update whose diff would be larger is logged as a replacement (pipeline_executor_test.cpp ShouldPreserveIdOfExistingDocumentIfIdNotReplaced)', () => {
  const x = explainOplogEntry(oplogTUpdate({ _id: 0, a: 1, b: 2 }, { _id: 0 }));
  assert.strictEqual(x.format, 'replacement');
});

// ---- other ops ---------------------------------------------------------------

test('an insert: format document, every field inserted, arrays whole (oplog_format.js save setup)', () => {
  const x = explainOplogEntry({ op: 'i', ns: 'o.fake', ui: UUID(), o: { _id: 1, tags: ['a', 'b'] }, ts: Timestamp({ t: 1, i: 1 }), t: Long(1), v: Long(2), wall: new Date(0) });
  assert.strictEqual(x.op, 'insert');
  assert.strictEqual(x.format, 'document');
  oplogTEqual(x.documentKey, { _id: 1 });
  oplogTEqual(x.arrays.map((a) => [a.path, a.action, a.elements]), [['tags', 'replace', 2]]);
});

test('a delete: format documentKey, no paths (oplog_entry.idl: o holds the document key)', () => {
  const x = explainOplogEntry({ op: 'd', ns: 'test.c', ui: UUID(), o: { _id: ObjectId('620b98e564da118651c64200') }, ts: Timestamp({ t: 1, i: 1 }) });
  assert.strictEqual(x.format, 'documentKey');
  oplogTEqual(x.paths, []);
  assert.strictEqual(String(x.documentKey._id), '620b98e564da118651c64200');
});

test("a noop carries its message (noop_writer.cpp: {msg: 'periodic noop'})", () => {
  const x = explainOplogEntry({ op: 'n', ns: '', o: { msg: 'periodic noop' }, ts: Timestamp({ t: 1, i: 1 }), t: Long(1), v: Long(2), wall: new Date(0) });
  assert.strictEqual(x.format, 'noop');
  assert.strictEqual(x.message, 'periodic noop');
});

test('a command names the command and its target collection (oplog_entry.idl CommandType drop)', () => {
  const x = explainOplogEntry({ op: 'c', ns: 'test.$cmd', ui: UUID(), o: { drop: 'c' }, ts: Timestamp({ t: 1, i: 1 }) });
  assert.strictEqual(x.command, 'drop');
  assert.strictEqual(x.target, 'test.c');
});

test('a prepared transaction commit is a command without writes (op_observer_impl_test.cpp TransactionalPreparedCommitTest)', () => {
  const x = explainOplogEntry({ op: 'c', ns: 'admin.$cmd', o: { commitTransaction: 1, commitTimestamp: Timestamp({ t: 5, i: 1 }) }, ts: Timestamp({ t: 6, i: 1 }) });
  assert.strictEqual(x.command, 'commitTransaction');
  oplogTEqual(x.paths, []);
});

// ---- applyOps --------------------------------------------------------------

function oplogTTxn() {
  // A committed unprepared transaction: one applyOps entry on admin.$cmd with
  // lsid and txnNumber (oplog_entry_test.cpp ApplyOpsNotInSession for the
  // shape; README.md in src/mongo/db/repl for transactions).
  return {
    lsid: { id: UUID('4a230956-9cbe-48a9-9093-8c2fae2b659f'), uid: Binary.createFromBase64('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=', 0) },
    txnNumber: Long(3),
    op: 'c', ns: 'admin.$cmd',
    o: {
      applyOps: [
        { op: 'i', ns: 'test.c', ui: UUID(), o: { _id: 2, a: [1, 2, 3] }, o2: { _id: 2 } },
        { op: 'u', ns: 'test.c', ui: UUID(), o: { $v: 2, diff: { sa: { a: true, u3: 4 } } }, o2: { _id: 1 } },
        { op: 'd', ns: 'test.c', ui: UUID(), o: { _id: 9 } },
      ],
    },
    ts: Timestamp({ t: 1700000000, i: 3 }), t: Long(1), v: Long(2), wall: new Date(0),
    prevOpTime: { ts: Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) },
  };
}

test('applyOps explains each inner op in order (oplog_entry_test.cpp ApplyOpsNotInSession)', () => {
  const x = explainOplogEntry(oplogTTxn());
  assert.strictEqual(x.format, 'applyOps');
  oplogTEqual(x.ops.map((o) => [o.op, o.ns, o.format]), [
    ['insert', 'test.c', 'document'], ['update', 'test.c', '$v:2'], ['delete', 'test.c', 'documentKey'],
  ]);
});

test('applyOps: an inner update shows its array writes', () => {
  const x = explainOplogEntry(oplogTTxn());
  oplogTEqual(x.ops[1].arrays.map((a) => [a.path, a.action, a.elements]), [['a', 'elements', 1]]);
});

test('applyOps: inner sizes are the inner ops, the entry size is the whole entry', () => {
  const entry = oplogTTxn();
  const x = explainOplogEntry(entry);
  assert.strictEqual(x.bytes, bsonsize(entry));
  assert.strictEqual(x.ops[0].bytes, bsonsize(entry.o.applyOps[0]));
});

test('applyOps: the transaction fields are reported', () => {
  const entry = oplogTTxn();
  const x = explainOplogEntry(entry);
  assert.strictEqual(x.transaction.txnNumber, entry.txnNumber);
  assert.strictEqual(x.transaction.lsid, entry.lsid.id);
});

test('applyOps with partialTxn: true is marked partial (src/mongo/db/repl/README.md, large transactions)', () => {
  const entry = oplogTTxn();
  entry.o.partialTxn = true;
  assert.strictEqual(explainOplogEntry(entry).transaction.partial, true);
});

test('applyOps with prepare: true is marked prepared (op_observer_impl_test.cpp TransactionalPreparedCommitTest)', () => {
  const entry = oplogTTxn();
  entry.o.prepare = true;
  assert.strictEqual(explainOplogEntry(entry).transaction.prepare, true);
});

test('applyOps: an error in an inner op names its index', () => {
  const entry = oplogTTxn();
  entry.o.applyOps[1].o = { $v: 2, diff: { x: {} } };
  const err = test.thrown(() => explainOplogEntry(entry));
  assert.match(err.message, /^explainOplogEntry: applyOps\[1\]: not a valid \$v:2 diff: unexpected field 'x'/);
});

// ---- printing ----------------------------------------------------------------

test('the shell prints a whole-array rewrite as one readable line', () => {
  const readings = Array.from({ length: 1200 }, (_, i) => i * 1.5);
  const text = oplogTInspect(explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sdata: { u: { readings } } } })));
  const size = oplogT().shell.formatBytes(bsonsize({ readings }) - 5);
  assert.match(text, /^update test\.c · \$v:2 format · /);
  assert.ok(text.includes(`\n  data.readings: whole array rewritten, 1200 elements, ${size}\n`), text);
});

test('the shell prints positional writes and resizes as such', () => {
  const text = oplogTInspect(explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sa: { a: true, u1: 1 }, sb: { a: true, l: 2 } } })));
  assert.match(text, /a: 1 element write \(positional\)/);
  assert.match(text, /b: length set to 2 \(no whole-array write\)/);
});

test('the shell prints applyOps with each inner op indented under it', () => {
  const text = oplogTInspect(explainOplogEntry(oplogTTxn()));
  assert.match(text, /^command admin\.\$cmd applyOps · applyOps format · /);
  assert.match(text, /\n {4}\[1\] update test\.c · \$v:2 format/);
});

test('the custom printing is not an enumerable field: results stay plain data', () => {
  const x = explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: { a: 1 } } }));
  oplogTEqual(Object.keys(x), ['op', 'ns', 'format', 'bytes', 'paths', 'arrays', 'documentKey', 'ts']);
  assert.doesNotThrow(() => JSON.stringify(x));
});

// ---- bad input -----------------------------------------------------------------

test('explainOplogEntry(null) says what it expects', () => {
  assert.match(test.thrown(() => explainOplogEntry(null)).message, /^explainOplogEntry: expected an oplog entry document .*got null$/);
});

test('explainOplogEntry(42) says it got a number', () => {
  assert.match(test.thrown(() => explainOplogEntry(42)).message, /^explainOplogEntry: expected an oplog entry document .*got the number 42$/);
});

test('explainOplogEntry of an array is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry([])).message, /got an empty array$/);
});

test('a document without op is not an oplog entry', () => {
  assert.match(test.thrown(() => explainOplogEntry({ a: 1 })).message, /^explainOplogEntry: not an oplog entry: it has no 'op' field/);
});

test('an unknown op is named with the accepted ones', () => {
  assert.match(test.thrown(() => explainOplogEntry({ op: 'x', ns: 'a.b', o: {} })).message, /unknown op 'x' \(known: i, u, d, c, n/);
});

test('an entry without o is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry({ op: 'i', ns: 'a.b' })).message, /'o' must be a document, got undefined/);
});

test('an entry whose ns is not a string is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry({ op: 'i', ns: 5, o: {} })).message, /'ns' must be a string/);
});

test('an update command pasted instead of an oplog entry is explained as such', () => {
  const err = test.thrown(() => explainOplogEntry(oplogTUpdate({ $push: { a: 1 } })));
  assert.match(err.message, /unexpected '\$push' in a \$v:1 update entry: the oplog holds only \$set and \$unset/);
});

test('an unknown $v is refused with the known ones', () => {
  assert.match(test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 3, diff: {} }))).message, /unknown update format \$v: 3 \(known: 1, 2\)/);
});

test('$v:2 without a diff object is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 2 }))).message, /a \$v:2 update needs a 'diff' object, got undefined/);
});

test('a $v:2 diff with an unknown section is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 2, diff: { q: {} } }))).message, /not a valid \$v:2 diff: unexpected field 'q'/);
});

test('a $v:2 section that is not an object is refused', () => {
  assert.match(test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 2, diff: { u: 5 } }))).message, /section 'u' must be an object, got the number 5/);
});

test('an array diff with an unknown field names its path', () => {
  const err = test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sarr: { a: true, x1: 1 } } })));
  assert.match(err.message, /not a valid \$v:2 diff at 'arr': unexpected field 'x1'/);
});

test('an array diff with a bad length is refused', () => {
  const err = test.thrown(() => explainOplogEntry(oplogTUpdate({ $v: 2, diff: { sarr: { a: true, l: -1 } } })));
  assert.match(err.message, /'l' \(new length\) must be a non-negative integer/);
});

test('applyOps that is not an array is refused', () => {
  const err = test.thrown(() => explainOplogEntry({ op: 'c', ns: 'admin.$cmd', o: { applyOps: 'x' } }));
  assert.match(err.message, /'o.applyOps' must be an array of operations, got the string "x"/);
});

// ---- oplogEntrySize(entry) -------------------------------------------------

test('oplogEntrySize(entry).bytes equals bsonsize(entry)', () => {
  const entry = oplogTTxn();
  assert.strictEqual(oplogEntrySize(entry).bytes, bsonsize(entry));
});

test('oplogEntrySize(entry).breakdown has every top-level field and sums to bytes - 5', () => {
  const entry = oplogTUpdate({ $v: 2, diff: { u: { a: 'x'.repeat(1000) } } });
  const { bytes, breakdown } = oplogEntrySize(entry);
  oplogTEqual(Object.keys(breakdown), Object.keys(entry));
  assert.strictEqual(Object.values(breakdown).reduce((a, b) => a + b, 0) + 5, bytes);
  assert.ok(breakdown.o > 1000);
});

test('oplogEntrySize prints the fields largest first with shares', () => {
  const text = oplogTInspect(oplogEntrySize(oplogTUpdate({ $v: 2, diff: { u: { a: 'x'.repeat(1000) } } })));
  assert.match(text, /^1\.\d\d KB \(\d+ bytes\): o 1\.\d\d KB \(\d\d\.\d%\), ui 25 B /);
});

test('oplogEntrySize(null) lists the three accepted forms', () => {
  assert.match(test.thrown(() => oplogEntrySize(null)).message,
    /^oplogEntrySize: expected an oplog entry, a function that writes, or a filter \{ns, op, since, until, limit\}; got null$/);
});

test('oplogEntrySize("x") is refused', () => {
  assert.match(test.thrown(() => oplogEntrySize('x')).message, /got the string "x"$/);
});

test('oplogEntrySize of a malformed entry reports it', () => {
  assert.match(test.thrown(() => oplogEntrySize({ op: 'u', ns: 'a.b', o: 3 })).message, /^oplogEntrySize: not an oplog entry: 'o' must be a document/);
});

test('oplogEntrySize(function) wants the session database as parameter', () => {
  const err = test.thrown(() => oplogEntrySize(() => 1));
  assert.match(err.message, /^oplogEntrySize: the function must take the database to write through as its first parameter/);
});

test('oplogEntrySize(function) without a connection says so', () => {
  assert.match(test.thrown(() => oplogEntrySize((d) => d)).message, /^oplogEntrySize: needs a connected shell/);
});

test('oplogEntrySize(filter) with an unknown field is refused before any round trip', () => {
  assert.match(test.thrown(() => oplogEntrySize({ nss: 'a.b' })).message, /^oplogEntrySize: unknown filter field 'nss' \(accepted: ns, op, since, until, limit, maxTimeMS\)$/);
});

test('oplogEntrySize(filter) without a connection says so', () => {
  assert.match(test.thrown(() => oplogEntrySize({ ns: 'test.c' })).message, /^oplogEntrySize: needs a connected shell/);
});

// ---- the filter form, pure parts ---------------------------------------------

test('filter: the ts range leads the $match, sizes come from $bsonSize', () => {
  const { sv } = oplogT();
  const now = Timestamp({ t: 1700003600, i: 5 });
  const p = sv.parseSizeFilter('f', { ns: 'test.c', op: 'update' }, now);
  const pipeline = sv.sizePipeline(p);
  oplogTEqual(Object.keys(pipeline[0].$match), ['ts', '$or', 'op']);
  assert.strictEqual(pipeline[0].$match.ts.$gte.t, 1700000000);
  oplogTEqual(pipeline[0].$match.op, { $in: ['u'] });
  oplogTEqual(pipeline[1].$project.bytes, { $bsonSize: '$$ROOT' });
});

test('filter: ns also matches operations inside applyOps', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', { ns: 'test.c' }, Timestamp({ t: 10000, i: 1 }));
  oplogTEqual(sv.sizePipeline(p)[0].$match.$or, [{ ns: 'test.c' }, { 'o.applyOps.ns': 'test.c' }]);
});

test('filter: a database name matches all its collections', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', { ns: 'test' }, Timestamp({ t: 10000, i: 1 }));
  assert.ok(p.ns.test('test.c') && !p.ns.test('test2.c') && !p.ns.test('xtest.c'));
});

test('filter: since defaults to one hour before the newest entry, until to none', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', {}, Timestamp({ t: 1700003600, i: 9 }));
  assert.strictEqual(p.since.t, 1700000000);
  assert.strictEqual(p.since.i, 0);
  assert.strictEqual(p.until, null);
  assert.strictEqual(p.limit, 10);
});

test('filter: durations count back from the newest entry, Dates are taken as they are', () => {
  const { sv } = oplogT();
  const now = Timestamp({ t: 1700086400, i: 1 });
  const p = sv.parseSizeFilter('f', { since: '1d', until: new Date(1700000100 * 1000) }, now);
  assert.strictEqual(p.since.t, 1700000000);
  assert.strictEqual(p.until.t, 1700000100);
  assert.strictEqual(p.until.i, 4294967295);
});

test('filter: until before since is refused', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.parseSizeFilter('f', { since: '1h', until: '2h' }, Timestamp({ t: 100000, i: 1 }))).message, /'until' is before 'since'/);
});

test('filter: a bad since says which forms are accepted', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.parseSizeFilter('f', { since: 5 }, Timestamp({ t: 100000, i: 1 }))).message,
    /'since' must be a Timestamp, a Date, an ISO date string or a duration .* got the number 5/);
});

test('filter: an unknown op is refused', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.parseSizeFilter('f', { op: 'upsert' }, Timestamp({ t: 100000, i: 1 }))).message, /unknown op "upsert"/);
});

test('filter: limit 0 asks for no largest-entries list', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', { limit: 0 }, Timestamp({ t: 100000, i: 1 }));
  oplogTEqual(Object.keys(sv.sizePipeline(p)[2].$facet), ['total', 'groups']);
});

test('filter: a limit over 1000 is refused', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.parseSizeFilter('f', { limit: 5000 }, Timestamp({ t: 100000, i: 1 }))).message, /'limit' .* must be an integer 0-1000/);
});

test('filter: the $facet answer becomes plain numbers per namespace and op', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', {}, Timestamp({ t: 100000, i: 1 }));
  // Shaped as the pipeline's $facet stage returns it; $sum over many ints comes back as Long.
  const doc = {
    total: [{ _id: null, count: 3, bytes: Long(6291700), first: Timestamp({ t: 99000, i: 1 }), last: Timestamp({ t: 99999, i: 1 }) }],
    groups: [
      { _id: { ns: 'test.foo', op: 'i' }, count: 2, bytes: Long(6291600), avgBytes: 3145800, maxBytes: 6291500 },
      { _id: { ns: 'test.bar', op: 'u' }, count: 1, bytes: 100, avgBytes: 100.0, maxBytes: 100 },
    ],
    largest: [{ ts: Timestamp({ t: 99500, i: 2 }), ns: 'test.foo', op: 'i', bytes: 6291500, documentKey: { _id: 7 } }],
  };
  const r = sv.shapeSizeResult(doc, p);
  assert.strictEqual(r.bytes, 6291700);
  assert.strictEqual(r.avgBytes, 2097233);
  oplogTEqual(r.byNamespace[0], { ns: 'test.foo', op: 'insert', count: 2, bytes: 6291600, avgBytes: 3145800, maxBytes: 6291500 });
  oplogTEqual(r.largest[0].documentKey, { _id: 7 });
  assert.match(oplogTInspect(r), /test\.foo insert: 2, 6\.00 MB, 3\.00 MB, 6\.00 MB/);
});

test('filter: an empty range gives zeros, not an error', () => {
  const { sv } = oplogT();
  const p = sv.parseSizeFilter('f', {}, Timestamp({ t: 100000, i: 1 }));
  const r = sv.shapeSizeResult({ total: [], groups: [], largest: [] }, p);
  oplogTEqual([r.entries, r.bytes, r.avgBytes, r.byNamespace.length], [0, 0, 0, 0]);
});

// ---- the function form, pure parts -------------------------------------------

test('function form: entries are those after the start with this session lsid.id', () => {
  const { sv } = oplogT();
  const id = UUID('4a230956-9cbe-48a9-9093-8c2fae2b659f');
  const after = Timestamp({ t: 5, i: 1 });
  const m = sv.sessionPipeline(id, after)[0].$match;
  oplogTEqual(Object.keys(m), ['ts', 'lsid.id']);
  assert.strictEqual(m.ts.$gt, after);
  assert.strictEqual(m['lsid.id'], id);
});

test('function form: the read has caught up once the newest session entry reaches the session operation time', () => {
  const { sv } = oplogT();
  const before = Timestamp({ t: 100, i: 1 });
  const opTime = Timestamp({ t: 101, i: 2 });
  assert.strictEqual(sv.sessionCaughtUp([{ ts: Timestamp({ t: 101, i: 1 }) }, { ts: Timestamp({ t: 101, i: 2 }) }], before, opTime), true);
  assert.strictEqual(sv.sessionCaughtUp([{ ts: Timestamp({ t: 101, i: 1 }) }], before, opTime), false);
  assert.strictEqual(sv.sessionCaughtUp([], before, opTime), false);
  assert.strictEqual(sv.sessionCaughtUp([], before, undefined), true);
});

test('function form: server sizes are kept, the helper field is stripped and each entry explained', () => {
  const { sv } = oplogT();
  const e = oplogTUpdate({ $v: 2, diff: { sa: { a: true, u1: 1 } } });
  const r = sv.shapeRunResult('oplogEntrySize', [{ ...e, _dbaLabBytes: 211 }], [{ _id: null, count: 4, bytes: Long(800) }]);
  assert.strictEqual(r.count, 1);
  assert.strictEqual(r.bytes, 211);
  assert.strictEqual(r.entries[0].explanation.bytes, bsonsize(e));
  oplogTEqual(r.entries[0].explanation.arrays.map((a) => a.action), ['elements']);
  oplogTEqual(r.otherEntries, { count: 4, bytes: 800 });
  assert.match(oplogTInspect(r), /4 other entries \(800 B\) in the same time span carry no lsid of this session/);
});

// ---- which server -------------------------------------------------------------

test('hello of FerretDB v1 (recorded here): not a replica set member', () => {
  const { sv } = oplogT();
  const hello = { isWritablePrimary: true, maxBsonObjectSize: 16777216, maxMessageSizeBytes: 48000000, maxWriteBatchSize: 100000, localTime: new Date(), logicalSessionTimeoutMinutes: 30, connectionId: 42, minWireVersion: 0, maxWireVersion: 21, readOnly: false, ok: 1 };
  assert.match(sv.noOplogReason(hello), /^this server is not a replica set member \(hello reports no setName/);
});

test("hello of a mongos (msg: 'isdbgrid', hello.idl) names the router", () => {
  const { sv } = oplogT();
  assert.match(sv.noOplogReason({ isWritablePrimary: true, msg: 'isdbgrid', ok: 1 }), /mongos router/);
});

test('hello of an arbiter: no data, no oplog', () => {
  const { sv } = oplogT();
  assert.match(sv.noOplogReason({ setName: 'rs0', arbiterOnly: true, ok: 1 }), /arbiter/);
});

test('hello of a member started with --replSet but not initiated (isreplicaset)', () => {
  const { sv } = oplogT();
  assert.match(sv.noOplogReason({ isreplicaset: true, isWritablePrimary: false, ok: 1 }), /not initiated yet \(rs\.initiate\(\)\)/);
});

test('hello of a replica set secondary: it has an oplog but is not the primary', () => {
  const { sv } = oplogT();
  const hello = { setName: 'rs0', isWritablePrimary: false, secondary: true, primary: 'h:27017', ok: 1 };
  assert.strictEqual(sv.noOplogReason(hello), null);
  assert.strictEqual(sv.isPrimary(hello), false);
});

test('isMaster of a 4.2 primary (ismaster) counts as primary', () => {
  const { sv } = oplogT();
  assert.strictEqual(sv.isPrimary({ setName: 'rs0', ismaster: true }), true);
});

test('server error: not authorized to read the oplog names the roles that can', () => {
  const { sv } = oplogT();
  const err = sv.serverError('oplogWindow', { code: 13, codeName: 'Unauthorized', message: 'not authorized on local to execute command { find: "oplog.rs" }' });
  assert.match(err.message, /^oplogWindow: not allowed to read local\.oplog\.rs \(not authorized on local .*\); it needs a role with find on the local database/);
});

test('server error: $bsonSize unknown (before 4.4) asks for 4.4', () => {
  const { sv } = oplogT();
  const err = sv.serverError('oplogEntrySize', { code: 168, codeName: 'InvalidPipelineOperator', message: "Invalid $project :: caused by :: Unrecognized expression '$bsonSize'" });
  assert.strictEqual(err.message, 'oplogEntrySize: needs MongoDB 4.4 or newer: oplog sizes are computed on the server with $bsonSize');
});

test('server error: maxTimeMS expired says how to get an answer', () => {
  const { sv } = oplogT();
  const err = sv.serverError('oplogEntrySize', { code: 50, codeName: 'MaxTimeMSExpired', message: 'operation exceeded time limit' }, 60000);
  assert.match(err.message, /^oplogEntrySize: the server stopped at maxTimeMS \(60000 ms\); narrow since\/until or raise maxTimeMS$/);
});

test('server error: anything else is passed on unchanged', () => {
  const { sv } = oplogT();
  const original = { code: 11600, codeName: 'InterruptedAtShutdown', message: 'interrupted at shutdown' };
  assert.strictEqual(sv.serverError('oplogWindow', original), original);
});

test('oplogWindow() without a connection says so', () => {
  assert.match(test.thrown(() => oplogWindow()).message, /^oplogWindow: needs a connected shell/);
});

test('oplogWindow(x) takes no arguments', () => {
  assert.match(test.thrown(() => oplogWindow(1)).message, /^oplogWindow: takes no arguments$/);
});

// ---- oplogWindow, pure parts -----------------------------------------------------

test('window: length, sizes and rate from the edges and $collStats storageStats', () => {
  const { sv } = oplogT();
  const first = { ts: Timestamp({ t: 1700000000, i: 1 }), wall: new Date(1700000000123) };
  const last = { ts: Timestamp({ t: 1700007200, i: 4 }), wall: new Date(1700007200456) };
  const w = sv.shapeWindow(first, last, { size: 512 * 1024 * 1024, count: 1000, storageSize: Long(200000000), maxSize: Long(1024 * 1024 * 1024), capped: true });
  oplogTEqual([w.windowSeconds, w.windowHours, w.usedBytes, w.maxBytes, w.storageBytes, w.entries, w.full],
    [7200, 2, 536870912, 1073741824, 200000000, 1000, false]);
  assert.strictEqual(w.bytesPerHour, 268435456);
  assert.strictEqual(w.projectedWindowHours, 4);
  assert.match(oplogTInspect(w), /^oplog window 2 h \(7200 s\): 2023-11-14T22:13:20\.123Z to /);
});

test('window: no configured size reported is said, not shown as 0 B', () => {
  const { sv } = oplogT();
  const w = sv.shapeWindow({ ts: Timestamp({ t: 0, i: 1 }) }, { ts: Timestamp({ t: 100, i: 1 }) }, { size: 8192, storageSize: 4096, count: 2 });
  assert.strictEqual(w.maxBytes, 0);
  assert.strictEqual(w.projectedWindowHours, undefined);
  assert.match(oplogTInspect(w), /used 8\.00 KB \(the server reported no configured size\)/);
});

test('window: a full oplog projects nothing', () => {
  const { sv } = oplogT();
  const w = sv.shapeWindow({ ts: Timestamp({ t: 0, i: 1 }) }, { ts: Timestamp({ t: 3600, i: 1 }) }, { size: 1000, maxSize: 1000 });
  assert.strictEqual(w.full, true);
  assert.strictEqual(w.projectedWindowHours, undefined);
  assert.strictEqual(w.first.wall.getTime(), 0);
});

// ---- changeStreamResumeCheck, pure parts --------------------------------------

function oplogTWindow(first, last) {
  return {
    first: { ts: Timestamp({ t: first, i: 1 }), wall: new Date(first * 1000) },
    last: { ts: Timestamp({ t: last, i: 1 }), wall: new Date(last * 1000) },
  };
}

// The first entry of a new replica set's oplog, as db.oplog.rs.findOne()
// prints it there: replSetInitiate logs the no-op {msg: 'initiating set'}
// (kInitiatingSetMsg in src/mongo/db/repl/oplog_entry.h) before any term, so
// it has no t.
function oplogTInitiatingSet(t) {
  return { op: 'n', ns: '', o: { msg: 'initiating set' }, ts: Timestamp({ t, i: 1 }), v: Long(2), wall: new Date(t * 1000) };
}

// The no-op a primary logs on step-up (kNewPrimaryMsg, oplog_entry.h): the
// oldest entry once truncation has dropped everything before an election.
function oplogTNewPrimary(t) {
  return { op: 'n', ns: '', o: { msg: 'new primary' }, ts: Timestamp({ t, i: 1 }), t: Long(1), v: Long(2), wall: new Date(t * 1000) };
}

// A window whose oldest entry is `entry`, with the fields oplog.js reads of it
// (ts, wall, op and, for a no-op, o).
function oplogTWindowFrom(entry, last) {
  const w = oplogTWindow(entry.ts.getHighBits(), last);
  w.first = { ts: entry.ts, wall: entry.wall, op: entry.op, o: entry.o };
  return w;
}

test('resume: a token older than an oldest entry that is not the \'initiating set\' no-op has fallen off', () => {
  const { sv } = oplogT();
  const w = oplogTWindowFrom(oplogTNewPrimary(1000), 2000);
  assert.strictEqual(sv.tokenPosition(Timestamp({ t: 999, i: 7 }), w.first.ts, w.last.ts, sv.isInitiatingSet(w.first)), 'fallen-off');
});

test('resume: a token older than the \'initiating set\' no-op is before the initiation (collection_scan.cpp isNewRS)', () => {
  const { sv } = oplogT();
  const w = oplogTWindowFrom(oplogTInitiatingSet(1000), 2000);
  assert.strictEqual(sv.tokenPosition(Timestamp({ t: 999, i: 7 }), w.first.ts, w.last.ts, sv.isInitiatingSet(w.first)), 'before-initiation');
});

test("resume: the initiating entry is op 'n' with o exactly {msg: 'initiating set'} (binaryEqual), nothing less or more", () => {
  const { sv } = oplogT();
  const entry = oplogTInitiatingSet(1000);
  assert.strictEqual(sv.isInitiatingSet(entry), true);
  assert.strictEqual(sv.isInitiatingSet({ ...entry, op: 'i' }), false);
  assert.strictEqual(sv.isInitiatingSet({ ...entry, o: { msg: 'initiating set', version: 2 } }), false);
  assert.strictEqual(sv.isInitiatingSet({ ...entry, o: { msg: 'periodic noop' } }), false);
  assert.strictEqual(sv.isInitiatingSet({ ts: entry.ts, wall: entry.wall }), false);
});

test('resume: a token at the oldest entry is still inside (the server needs the entry itself)', () => {
  const { sv } = oplogT();
  const w = oplogTWindow(1000, 2000);
  assert.strictEqual(sv.tokenPosition(Timestamp({ t: 1000, i: 1 }), w.first.ts, w.last.ts), 'inside');
  assert.strictEqual(sv.tokenPosition(Timestamp({ t: 1000, i: 0 }), w.first.ts, w.last.ts), 'fallen-off');
});

test('resume: a token newer than the newest entry is ahead', () => {
  const { sv } = oplogT();
  const w = oplogTWindow(1000, 2000);
  assert.strictEqual(sv.tokenPosition(Timestamp({ t: 2000, i: 2 }), w.first.ts, w.last.ts), 'ahead');
});

test('resume scan: slices start at the token, end at the newest entry and leave no gap', () => {
  const { sv } = oplogT();
  const from = Timestamp({ t: 1000, i: 7 });
  const to = Timestamp({ t: 1100, i: 3 });
  const slices = sv.scanSlices(from, to, 20);
  assert.strictEqual(slices.length, 20);
  assert.strictEqual(slices[0].ts.$gte, from);
  assert.strictEqual(slices[19].ts.$lte, to);
  for (let k = 1; k < slices.length; k++) assert.strictEqual(slices[k].ts.$gte, slices[k - 1].ts.$lt);
});

test('resume scan: a span shorter than the slice count gives one slice per second, at least one', () => {
  const { sv } = oplogT();
  assert.strictEqual(sv.scanSlices(Timestamp({ t: 5, i: 1 }), Timestamp({ t: 5, i: 9 }), 20).length, 1);
  assert.strictEqual(sv.scanSlices(Timestamp({ t: 5, i: 1 }), Timestamp({ t: 8, i: 9 }), 20).length, 3);
});

// ---- changeStreamResumeCheck: the stream's namespace and filter ---------------
// The oplog filter a change stream's scan applies is built in mongodb/mongo
// src/mongo/db/pipeline/change_stream_filter_helpers.cpp (buildOperationFilter,
// buildTransactionFilter) from the regexes of document_source_change_stream.cpp
// (getNsRegexForChangeStream, kRegexAllDBs, kRegexAllCollections); the user's
// $match is rewritten by change_stream_rewrite_helpers.cpp.

const OPLOGT_UUID = '437fb549-cfdd-4526-9dd5-9b9bf0eb3547';

test("stream scope: 'db.coll' is one collection, 'db' a database, '' the whole cluster", () => {
  const { sv } = oplogT();
  oplogTEqual(sv.streamScope('f', 'test.foo'), { kind: 'collection', db: 'test', coll: 'foo', text: 'test.foo' });
  oplogTEqual(sv.streamScope('f', 'test'), { kind: 'database', db: 'test', text: 'database test' });
  oplogTEqual(sv.streamScope('f', ''), { kind: 'cluster', text: 'the whole cluster' });
});

test("stream scope: without ns, the token's collection by its uuid, else the whole cluster", () => {
  const { sv } = oplogT();
  const uuid = UUID(OPLOGT_UUID);
  assert.strictEqual(sv.streamScope('f', undefined, uuid).uuid, uuid);
  assert.strictEqual(sv.streamScope('f', undefined, undefined).kind, 'cluster');
});

test('stream scope: an ns that is not a string or starts with a dot is refused, naming the three forms', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.streamScope('changeStreamResumeCheck', 5)).message,
    /^changeStreamResumeCheck: 'ns' is the stream's namespace: 'db.collection', 'db' or '' for a whole-cluster stream; got /);
  assert.match(test.thrown(() => sv.streamScope('changeStreamResumeCheck', '.foo')).message, /'ns' is the stream's namespace/);
});

test('stream filter, one collection: CRUD on its exact namespace, its commands on db.$cmd, transactions touching it, commits; fromMigrate left out', () => {
  const { sv } = oplogT();
  const m = sv.streamMatch(sv.streamScope('f', 'test.foo'), null);
  oplogTEqual(m.fromMigrate, { $ne: true });
  const [crud, commands, txn, commit] = m.$or;
  assert.strictEqual(crud.ns.source, '^test\\.foo$');
  oplogTEqual(crud.op, { $nin: ['n', 'c'] });
  assert.strictEqual(commands.op, 'c');
  assert.strictEqual(commands.ns.source, '^test\\.\\$cmd$');
  assert.strictEqual(commands.$or.find((x) => x['o.drop'])['o.drop'].source, '^foo$');
  assert.ok(!commands.$or.some((x) => x['o.dropDatabase']), 'a collection stream does not report dropDatabase');
  oplogTEqual(txn['o.applyOps'], { $type: 'array' });
  oplogTEqual(txn['o.prepare'], { $ne: true });
  oplogTEqual(txn['o.partialTxn'], { $ne: true });
  assert.strictEqual(txn.$or[0]['o.applyOps.ns'].source, '^test\\.foo$');
  oplogTEqual(commit, { op: 'c', 'o.commitTransaction': 1 });
});

test("stream filter, database and cluster: the server's own regexes, with system collections and admin/config/local left out", () => {
  const { sv } = oplogT();
  const db = sv.streamMatch(sv.streamScope('f', 'test'), null).$or[0].ns;
  const all = sv.streamMatch(sv.streamScope('f', ''), null).$or[0].ns;
  assert.strictEqual(db.source, '^test\\.(?!(\\$|system\\.))');
  assert.strictEqual(all.source, '^(?!(admin|config|local)\\.)[^.]+\\.(?!(\\$|system\\.))');
  const kept = (re) => ['test.foo', 'test.system.views', 'test.$cmd', 'admin.foo', 'config.transactions', 'local.oplog.rs', 'other.foo'].filter((ns) => re.test(ns));
  oplogTEqual(kept(db), ['test.foo']);
  oplogTEqual(kept(all), ['test.foo', 'other.foo']);
  const commands = sv.streamMatch(sv.streamScope('f', 'test'), null).$or[1];
  assert.ok(commands.$or.some((x) => x['o.dropDatabase']), 'a database stream reports dropDatabase');
});

test("stream filter, the token's collection: CRUD and applyOps by uuid (ui), as the name is not in the token", () => {
  const { sv } = oplogT();
  const uuid = UUID(OPLOGT_UUID);
  const m = sv.streamMatch(sv.streamScope('f', undefined, uuid), null);
  assert.strictEqual(m.$or[0].ui, uuid);
  assert.strictEqual(m.$or[2].$or[0]['o.applyOps.ui'], uuid);
});

test("stream filter: the user's $match joins the CRUD branch only; transactions stay whole (buildTransactionFilter)", () => {
  const { sv } = oplogT();
  const m = sv.streamMatch(sv.streamScope('f', 'test.foo'), { op: 'i' });
  oplogTEqual(m.$or[0].$and[1], { op: 'i' });
  assert.strictEqual(m.$or[2].$and, undefined);
});

test("$match on operationType: insert, delete, update and replace as the server rewrites them (matchRewriteOperationType)", () => {
  const { sv } = oplogT();
  oplogTEqual(sv.translateFilter('f', { operationType: 'insert' }).match, { op: 'i' });
  oplogTEqual(sv.translateFilter('f', { operationType: { $in: ['update', 'replace'] } }).match,
    { $or: [{ op: 'u', 'o._id': { $exists: false } }, { op: 'u', 'o._id': { $exists: true } }] });
  const t = sv.translateFilter('f', { operationType: 'delete' });
  assert.strictEqual(t.exact, true);
  oplogTEqual(t.approximated, []);
});

test('$match on a non-CRUD operationType matches no CRUD entry', () => {
  const { sv } = oplogT();
  oplogTEqual(sv.translateFilter('f', { operationType: 'drop' }).match, { op: { $in: [] } });
});

test("$match on fullDocument: applied to inserts and replacements, every other update kept (matchRewriteFullDocument), said so", () => {
  const { sv } = oplogT();
  // The change-stream-resume article's filter.
  const t = sv.translateFilter('f', { 'fullDocument.msg': { $exists: true } });
  oplogTEqual(t.match, { $or: [
    { op: 'u', 'o._id': { $exists: false } },
    { $and: [{ $or: [{ op: 'i' }, { op: 'u', 'o._id': { $exists: true } }] }, { 'o.msg': { $exists: true } }] },
  ] });
  assert.strictEqual(t.exact, false);
  assert.match(t.approximated[0], /^fullDocument\.msg: applied to inserts and replacements; every other update is counted/);
});

test('$match on fullDocument that a missing field satisfies keeps the deletes too', () => {
  const { sv } = oplogT();
  const t = sv.translateFilter('f', { 'fullDocument.msg': { $exists: false } });
  oplogTEqual(t.match.$or[2], { op: 'd' });
});

test('$match on documentKey._id: o2 of updates, o of inserts and deletes (matchRewriteDocumentKey), exact', () => {
  const { sv } = oplogT();
  const id = ObjectId('620b98e564da118651c64200');
  const t = sv.translateFilter('f', { 'documentKey._id': id });
  oplogTEqual(t.match, { $or: [{ op: 'u', 'o2._id': id }, { op: { $in: ['i', 'd'] }, 'o._id': id }] });
  assert.strictEqual(t.exact, true);
});

test('$match on updateDescription.updatedFields.<f>: the diff sections i and u and $v:1 $set', () => {
  const { sv } = oplogT();
  const t = sv.translateFilter('f', { 'updateDescription.updatedFields.status': 'paid' });
  oplogTEqual(t.match, { op: 'u', 'o._id': { $exists: false }, $or: [{ 'o.diff.i.status': 'paid' }, { 'o.diff.u.status': 'paid' }, { 'o.$set.status': 'paid' }] });
});

test('$match on ns.coll and ns.db: a regex on the entry ns', () => {
  const { sv } = oplogT();
  assert.strictEqual(sv.translateFilter('f', { 'ns.coll': 'foo' }).match.ns.source, '^[^.]+\\.foo$');
  assert.strictEqual(sv.translateFilter('f', { 'ns.db': 'test' }).match.ns.source, '^test\\.');
});

test('$match on a field with no oplog counterpart is left out of the count and named: an upper bound', () => {
  const { sv } = oplogT();
  const t = sv.translateFilter('f', { operationType: 'insert', clusterTime: { $gt: Timestamp({ t: 1, i: 1 }) } });
  oplogTEqual(t.match, { op: 'i' });
  assert.strictEqual(t.exact, false);
  oplogTEqual(t.approximated, ['clusterTime: not applied in the count (every entry counted as if it passed: an upper bound)']);
});

test('$match $and: each part translated on its own; $or with one untranslated branch is left out whole', () => {
  const { sv } = oplogT();
  const and = sv.translateFilter('f', { $and: [{ operationType: 'insert' }, { 'documentKey._id': 1 }] });
  assert.strictEqual(and.match.$and.length, 2);
  const or = sv.translateFilter('f', { $or: [{ operationType: 'insert' }, { txnNumber: 5 }] });
  assert.strictEqual(or.match, null);
  assert.match(or.approximated.join('\n'), /^\$or: a branch is not translated/m);
});

test('a filter that is not a document is refused with an example', () => {
  const { sv } = oplogT();
  assert.match(test.thrown(() => sv.translateFilter('changeStreamResumeCheck', [{ $match: {} }])).message,
    /^changeStreamResumeCheck: 'filter' is the stream's \$match, in change-event fields such as/);
});

test('resume scan: one pass per slice, counted on the server with $bsonSize: all read, the namespace, the filter, the first matching entries', () => {
  const { sv } = oplogT();
  const stream = { namespace: { ns: 'n' }, matching: { ns: 'm' } };
  const [match, facet] = sv.scanPipeline({ ts: { $gte: Timestamp({ t: 1, i: 1 }) } }, stream);
  assert.ok(match.$match.ts);
  oplogTEqual(facet.$facet.read[0].$group.bytes, { $sum: { $bsonSize: '$$ROOT' } });
  oplogTEqual(facet.$facet.namespace[0], { $match: { ns: 'n' } });
  oplogTEqual(facet.$facet.matching[0], { $match: { ns: 'm' } });
  oplogTEqual(facet.$facet.head[2], { $project: { _id: 0, ts: 1, bytes: { $bsonSize: '$$ROOT' } } });
});

test('resume scan: slice answers add up, Longs included, and each slice keeps where it starts in the scan', () => {
  const { sv } = oplogT();
  const total = { entries: 0, bytes: 0 };
  const f = (entries, bytes) => [{ _id: null, entries, bytes }];
  sv.addScan(total, { read: f(100, Long(629145600)), namespace: f(60, 600), matching: f(2, 20), head: [{ ts: Timestamp({ t: 5, i: 1 }), bytes: 10 }, { ts: Timestamp({ t: 6, i: 1 }), bytes: 10 }] }, Timestamp({ t: 1, i: 0 }));
  sv.addScan(total, { read: [], namespace: [], matching: [], head: [] }, Timestamp({ t: 7, i: 0 }));
  sv.addScan(total, { read: f(2, 2048), namespace: f(1, 1024), matching: f(1, 1024), head: [{ ts: Timestamp({ t: 9, i: 1 }), bytes: Long(1024) }] }, Timestamp({ t: 8, i: 0 }));
  assert.strictEqual(total.entries, 102);
  assert.strictEqual(total.bytes, 629147648);
  oplogTEqual(total.namespace, { entries: 61, bytes: 1624 });
  oplogTEqual(total.matching, { entries: 3, bytes: 1044 });
  oplogTEqual(total.head.map((h) => [h.slice, h.bytes]), [[0, 10], [0, 10], [2, 1024]]);
  oplogTEqual(total.slices[2].before, { entries: 100, bytes: 629145600 });
});

// The change-stream-resume lab's data, as the server logs it: one insert
// entry per document on test.foo (the article's namespace and collection
// uuid), markers of the lab guide's sizes between 6 MiB junk documents.
function oplogTInsert(k, doc) {
  return { op: 'i', ns: 'test.foo', ui: UUID(OPLOGT_UUID), o: { _id: ObjectId(`620b98e564da118651c6${(0x4200 + k).toString(16).padStart(4, '0')}`), ...doc },
    ts: Timestamp({ t: 1644927205 + k, i: 1 }), t: Long(1), v: Long(2), wall: new Date((1644927205 + k) * 1000) };
}

const OPLOGT_MARKERS = [['This document will be 1Kb', 1024], ['100 6MB documents, then another 1Kb document', 1024],
  ['And another 100 6MB documents, then another 1Kb document', 1024], ['... followed immediately by a 1MB document', 1048576],
  ['100 6MB documents preceded this 3MB document', 3145728], ['... followed by another 1MB document', 1048576],
  ['500 6MB documents added', 0], ['200 6MB documents added', 0], ['Adding 2000 more 6MB documents...', 0], ["This is the last document we'd expect", 0]];

// The scan of run A as addScan sums it: the ten markers are what passes the
// article's filter; 3039 entries and 19528768718 bytes read (its log line).
function oplogTArticleScan(markers) {
  const head = markers.map(([msg, size], k) => {
    const e = oplogTInsert(k + 1, { msg, ...(size ? { s: 'x'.repeat(size) } : {}) });
    return { ts: e.ts, bytes: bsonsize(e), slice: 0 };
  });
  const bytes = head.reduce((a, h) => a + h.bytes, 0);
  return { entries: 3039, bytes: 19528768718, namespace: { entries: 3039, bytes: 19528768718 }, matching: { entries: head.length, bytes },
    head, slices: [{ lower: head[0].ts, before: { entries: 0, bytes: 0 }, read: { entries: 3039, bytes: 19528768718 } }], complete: true };
}

test("arrival, the lab's run A on 5.2 (fewer than 101 events, default batch size): the first event leaves after the whole scan (claim A)", () => {
  const { sv } = oplogT();
  const plan = sv.arrivalPlan(oplogTArticleScan(OPLOGT_MARKERS), '5.2.0');
  const c = plan.cases.find((x) => x.name === 'defaultBatchSize');
  assert.strictEqual(c.at, null);
  oplogTEqual(c.lab, ['A']);
  assert.match(c.why, /^with the default batch size the opening aggregate returns only when its scan reaches the end of the oplog/);
  assert.match(c.source.ref, /SERVER-27406/);
});

test("arrival, run B on 5.2 (batchSize 1): the first batch closes at the 3 MB marker, past 4 MiB of matching entries (the lab's answer 3)", () => {
  const { sv } = oplogT();
  const plan = sv.arrivalPlan(oplogTArticleScan(OPLOGT_MARKERS), '5.2.0');
  assert.strictEqual(plan.filterInScan, true);
  const c = plan.cases.find((x) => x.name === 'batchSize1');
  assert.strictEqual(c.at, 4);
  oplogTEqual(c.lab, ['C', 'D']);
  assert.match(c.source.ref, /SERVER-56872/);
});

test("arrival, run C on 5.2 (resumed after '200 6MB documents added', batchSize 1): two small events never fill 4 MiB, both leave after the whole scan", () => {
  const { sv } = oplogT();
  const scan = oplogTArticleScan(OPLOGT_MARKERS.slice(8));
  assert.strictEqual(sv.arrivalPlan(scan, '5.2.0').cases.find((x) => x.name === 'batchSize1').at, null);
});

test('arrival, batchSize 1 on 4.4 (no $match in the scan): at the first matching entry at the earliest (claims B, C)', () => {
  const { sv } = oplogT();
  const plan = sv.arrivalPlan(oplogTArticleScan(OPLOGT_MARKERS.slice(8)), '4.4.29');
  assert.strictEqual(plan.filterInScan, false);
  const c = plan.cases.find((x) => x.name === 'batchSize1');
  assert.strictEqual(c.at, 0);
  assert.strictEqual(c.atLeast, true);
  assert.match(c.why, /^before 5\.1 the stream's \$match runs after the \$cursor stage/);
});

test('arrival: 101 or more matching entries fill the default first batch before the scan ends', () => {
  const { sv } = oplogT();
  const many = Array.from({ length: 150 }, (_, k) => ['1 KB marker', 1024]);
  const c = sv.arrivalPlan(oplogTArticleScan(many), '8.0.4').cases.find((x) => x.name === 'defaultBatchSize');
  assert.strictEqual(c.at, 100);
  assert.strictEqual(c.atLeast, true);
});

test("arrival: the lab's words come from the predictions table's own source (one place)", () => {
  const path = require('path');
  const table = require(path.join(test.root, 'playbooks', 'lib', 'scenarios', 'change-stream-resume', 'predictions.js'));
  const { predict } = require(path.join(test.root, 'playbooks', 'lib', 'js', 'predictions.js'));
  const { sv } = oplogT();
  for (const v of ['4.4.29', '5.0.30', '6.0.20', '7.0.14', '8.0.4']) {
    assert.strictEqual(sv.filterInScan(v), predict(table, 'C', v).holds, v);
    const plan = sv.arrivalPlan(oplogTArticleScan(OPLOGT_MARKERS), v);
    assert.strictEqual(plan.cases[0].why, predict(table, 'A', v).reason);
  }
});

test('arrival: what is read before the first event is the slices before it plus the count up to it in its own slice', () => {
  const { sv } = oplogT();
  const scan = oplogTArticleScan(OPLOGT_MARKERS);
  scan.slices = [scan.slices[0], { lower: scan.head[4].ts, before: { entries: 300, bytes: 1887436800 }, read: { entries: 2739, bytes: 0 } }];
  scan.head[4].slice = 1;
  const a = sv.shapeArrival(sv.arrivalPlan(scan, '8.0.4'), scan, () => ({ _id: null, entries: 1, bytes: Long(3145900) }), '8.0.4');
  oplogTEqual(a.batchSize1.read, { entries: 301, bytes: 1890582700 });
  assert.strictEqual(a.batchSize1.until, scan.head[4].ts);
  assert.strictEqual(a.batchSize1.share, 0.097);
  assert.strictEqual(a.defaultBatchSize.wholeScan, true);
  oplogTEqual(a.defaultBatchSize.read, { entries: 3039, bytes: 19528768718 });
});

test('the result names the stream, what was approximated, and prints the namespace, the filter and the arrival', () => {
  const { sv } = oplogT();
  const w = oplogTWindow(1644000000, 1646221637);
  const scan = oplogTArticleScan(OPLOGT_MARKERS);
  const filter = { 'fullDocument.msg': { $exists: true } };
  const stream = { scope: sv.streamScope('f', 'test.foo'), filter: { source: filter, ...sv.translateFilter('f', filter) } };
  const arrival = sv.shapeArrival(sv.arrivalPlan(scan, '5.2.0'), scan, () => ({ entries: 8, bytes: 4197800 }), '5.2.0');
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 1644927205, i: 2 }), tokenType: 128 }, w, scan, stream, arrival);
  oplogTEqual(Object.keys(r.scan), ['entries', 'bytes', 'namespace', 'matching', 'complete']);
  assert.strictEqual(r.stream.namespace, 'test.foo');
  assert.strictEqual(r.stream.exact, false);
  const text = oplogTInspect(r);
  assert.match(text, /of which on test\.foo: 3039 entries, 18\.2 GB; kept by the filter \(at most\): 10 entries, 5\.0\d MB/);
  assert.match(text, /first event with default batch size: after the whole scan \(internalDocumentSourceCursorBatchSizeBytes.*claim A\)/);
  assert.match(text, /first event with batchSize 1: after 8 entries, 4\.0\d MB \(0% of the scan\) \(SERVER-56872.*claims C, D\)/);
});

test('resume advice: the change-stream-resume article\'s event token with ~3000 6 MB entries after it points to the postBatchResumeToken', () => {
  const { sv } = oplogT();
  // The change-stream-resume article: the decoded token (t 1644927205, i 2, tokenType 128, v1) and the
  // slow-query line of the resume: docsExamined 3039, bytesRead 19528768718.
  const decoded = { timestamp: Timestamp({ t: 1644927205, i: 2 }), version: 1, tokenType: 128 };
  const window = oplogTWindow(1644000000, 1646221637);
  const scan = { entries: 3039, bytes: 19528768718, complete: true, scannedUntil: window.last.ts, ms: 12356 };
  const r = sv.shapeResume(decoded, window, scan);
  assert.strictEqual(r.position, 'inside');
  assert.strictEqual(r.resumable, true);
  assert.match(r.advice, /^resumable, but the resume rescans 3039 entries \(18\.2 GB\) after this event; resume from the cursor's postBatchResumeToken/);
});

test('resume advice: a high-water mark token says so', () => {
  const { sv } = oplogT();
  // docs/mongodb-facts.md#resume-token-vectors: 82612F653E000000022B0229296E04 is a v1 HWM at Timestamp(1630496062, 2).
  const decoded = { timestamp: Timestamp({ t: 1630496062, i: 2 }), version: 1, tokenType: 0 };
  const r = sv.shapeResume(decoded, oplogTWindow(1630400000, 1630500000), { entries: 12, bytes: 3000, complete: true });
  assert.match(r.advice, /^resumable from this high-water mark \(postBatchResumeToken\); a resume scans 12 entries/);
});

test('resume advice: a token older than a truncated oplog cannot resume', () => {
  const { sv } = oplogT();
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 1644927205, i: 2 }), tokenType: 128 }, oplogTWindowFrom(oplogTNewPrimary(1646000000), 1646221637));
  assert.strictEqual(r.position, 'fallen-off');
  assert.strictEqual(r.resumable, false);
  assert.strictEqual(r.scan, undefined);
  assert.strictEqual(r.window.firstIsInitiatingSet, false);
  assert.match(r.advice, /^cannot resume: the token's time 2022-02-15T12:13:25\.000Z is older than the oldest oplog entry .*not the replica set's 'initiating set' no-op \(ChangeStreamHistoryLost\)/);
});

test('resume advice: a token older than a never-truncated oplog resumes, reading the whole oplog', () => {
  const { sv } = oplogT();
  const w = oplogTWindowFrom(oplogTInitiatingSet(1646000000), 1646221637);
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 1644927205, i: 2 }), tokenType: 128 }, w,
    { entries: 40, bytes: 8000, complete: true, scannedUntil: w.last.ts });
  assert.strictEqual(r.position, 'before-initiation');
  assert.strictEqual(r.resumable, true);
  assert.strictEqual(r.marginSeconds, 0);
  assert.strictEqual(r.window.firstIsInitiatingSet, true);
  oplogTEqual(Object.keys(r.window.first), ['ts', 'wall']);
  assert.match(r.advice, /^resumable: the token's time 2022-02-15T12:13:25\.000Z is older than the oldest oplog entry, but that entry is the replica set's 'initiating set' no-op.*a resume scans the whole oplog, 40 entries/);
  assert.match(oplogTInspect(r), /: before the oplog window/);
});

test('resume advice: a token ahead of the oplog points at the wrong deployment or lag', () => {
  const { sv } = oplogT();
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 3000, i: 1 }) }, oplogTWindow(1000, 2000));
  assert.match(r.advice, /after the newest oplog entry: it comes from another deployment/);
});

test('resume advice: a scan stopped at maxTimeMS gives lower bounds', () => {
  const { sv } = oplogT();
  const w = oplogTWindow(1000, 2000);
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 1500, i: 1 }), tokenType: 128 }, w,
    { entries: 50, bytes: 5000, complete: false, scannedUntil: Timestamp({ t: 1600, i: 0 }) });
  assert.match(r.advice, /rescans at least 50 entries/);
  assert.match(oplogTInspect(r), /stopped at maxTimeMS, reached 1970-01-01T00:26:40\.000Z/);
});

test('resume advice: a token near the old end of the window warns before it falls off', () => {
  const { sv } = oplogT();
  const r = sv.shapeResume({ timestamp: Timestamp({ t: 1060, i: 1 }), tokenType: 128 }, oplogTWindow(1000, 11000),
    { entries: 5, bytes: 500, complete: true });
  assert.strictEqual(r.marginSeconds, 60);
  assert.match(r.advice, /^only 1 min of older history left before it falls off the oplog; resumable; a resume scans 5 entries/);
});

test('changeStreamResumeCheck(Timestamp) skips decoding and needs a connection', () => {
  assert.match(test.thrown(() => changeStreamResumeCheck(Timestamp({ t: 1, i: 1 }))).message, /^changeStreamResumeCheck: needs a connected shell/);
});

test('changeStreamResumeCheck refuses unknown options before any round trip', () => {
  assert.match(test.thrown(() => changeStreamResumeCheck(Timestamp({ t: 1, i: 1 }), { batchSize: 1 })).message,
    /^changeStreamResumeCheck: unknown option 'batchSize'; accepted: ns, filter, maxTimeMS$/);
});

test('changeStreamResumeCheck refuses a non-positive maxTimeMS', () => {
  assert.match(test.thrown(() => changeStreamResumeCheck(Timestamp({ t: 1, i: 1 }), { maxTimeMS: 0 })).message, /'maxTimeMS' must be a positive integer/);
});

if (require('fs').existsSync(require('path').join(test.root, 'snippets', 'lib', 'resume-token.js'))) {
  test('changeStreamResumeCheck decodes the change-stream-resume article\'s token, then needs a connection', () => {
    const err = test.thrown(() => changeStreamResumeCheck('82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004'));
    assert.match(err.message, /^changeStreamResumeCheck: needs a connected shell/);
  });
} else {
  test('changeStreamResumeCheck without resume-token.js says what is missing and what to pass instead', () => {
    const err = test.thrown(() => changeStreamResumeCheck('82612F653E000000022B0229296E04'));
    assert.match(err.message, /^changeStreamResumeCheck: needs decodeResumeToken \(snippets\/lib\/resume-token\.js\).*pass the token's clusterTime as a Timestamp instead$/);
  });
}

test('every oplog function has help with its usage and an example', () => {
  const path = require('path');
  const printed = [];
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({
    bson: { Timestamp }, print: (s) => printed.push(String(s)), bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date },
  });
  const api = require(path.join(test.root, 'snippets', 'lib', 'oplog.js'))(shell);
  for (const name of Object.keys(api)) {
    printed.length = 0;
    api[name].help();
    assert.match(printed.join('\n'), new RegExp(`^\\n  ${name}\\(.*\\):\\n`), name);
    assert.match(printed.join('\n'), /Example/, name);
  }
});
