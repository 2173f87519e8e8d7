// seedCollection without a server: recipes, exact dry-run figures, options.
// The expected sizes are computed here from the BSON spec (bsonspec.org:
// int32 length + elements + 0x00; element = type byte + cstring name + value;
// string = int32 length + bytes + 0x00; ObjectId 12, int32 4, double 8,
// date 8), not with the code under test.

// Values made by the snippet modules come from another realm than this file's
// (require() vs the shell's eval context): compare them as plain data.
function seedPlain(x) { return JSON.parse(JSON.stringify(x)); }

function seedTestRecipes() {
  const path = require('path');
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({
    bson: { ObjectId, Int32, Double, Long, Timestamp, UUID }, print, bsonsize, getDb: () => undefined,
  });
  return require(path.join(test.root, 'snippets', 'lib', 'recipes.js'))(shell);
}

const seedSpec = {
  str: (name, len) => 1 + name.length + 1 + 4 + len + 1,
  oid: (name) => 1 + name.length + 1 + 12,
  int: (name) => 1 + name.length + 1 + 4,
  dbl: (name) => 1 + name.length + 1 + 8,
  doc: (...elements) => 4 + elements.reduce((a, b) => a + b, 0) + 1,
};

// The change-stream-resume article's seedCollection(), transcribed: [msg, randomString length] or a junk count.
const SEED000 = [
  ['This document will be 1Kb', 1024], 100,
  ['100 6MB documents, then another 1Kb document', 1024], 100,
  ['And another 100 6MB documents, then another 1Kb document', 1024],
  ['... followed immediately by a 1MB document', 1048576], 100,
  ['100 6MB documents preceded this 3MB document', 3145728],
  ['... followed by another 1MB document', 1048576], 500,
  ['500 6MB documents added', null], 200,
  ['200 6MB documents added', null],
  ['Adding 2000 more 6MB documents...', null], 2000,
  ["This is the last document we'd expect", null],
];

function articleJunkBytes(junkCounts) {
  const S = seedSpec;
  const junk = S.doc(S.oid('_id'), S.int('i'), S.str('s', 6 * 1048576));
  let bytes = 0;
  let run = 0;
  for (const step of SEED000) {
    if (typeof step === 'number') { bytes += junkCounts[run++] * junk; continue; }
    const [msg, s] = step;
    bytes += s === null ? S.doc(S.oid('_id'), S.str('msg', msg.length))
      : S.doc(S.oid('_id'), S.str('msg', msg.length), S.str('s', s));
  }
  return bytes;
}

test('change-stream-resume at full scale is the change-stream-resume article\'s data exactly: 3010 documents, about 18.9 GB', () => {
  const r = seedCollection('foo', { recipe: 'change-stream-resume', scale: 'full', dryRun: true });
  assert.strictEqual(r.docs, 3010);
  assert.strictEqual(r.bytes, articleJunkBytes([100, 100, 100, 500, 200, 2000]));
  assert.strictEqual(r.largestDoc, 6291493);
  assert.strictEqual((r.bytes / 1e9).toFixed(1), '18.9');
  assert.deepStrictEqual(seedPlain(r.ns), ['test.foo']);
});

test('change-stream-resume keeps the article\'s order: marker texts and junk runs', () => {
  const recipes = seedTestRecipes();
  const [coll] = recipes.plan('change-stream-resume', { name: 'foo', docs: 3000, seed: 1 });
  const got = coll.segments.map((s) => (s.kind === 'junk' ? s.count : [s.msg, s.strLen || null]));
  assert.deepStrictEqual(seedPlain(got), SEED000);
});

test('change-stream-resume shrinks the junk runs proportionally: tiny (the default) = 1/1/1/5/2/20, small ten times that', () => {
  const r = seedCollection('foo', { recipe: 'change-stream-resume', dryRun: true });
  assert.strictEqual(r.scale, 'tiny');
  assert.strictEqual(r.docs, 40);
  assert.strictEqual(r.bytes, articleJunkBytes([1, 1, 1, 5, 2, 20]));
  const tiny = seedCollection('foo', { recipe: 'change-stream-resume', scale: 'tiny', dryRun: true });
  assert.strictEqual(tiny.bytes, r.bytes);
  const small = seedCollection('foo', { recipe: 'change-stream-resume', scale: 'small', dryRun: true });
  assert.strictEqual(small.bytes, articleJunkBytes([10, 10, 10, 50, 20, 200]));
  const medium = seedCollection('foo', { recipe: 'change-stream-resume', scale: 'medium', dryRun: true });
  assert.strictEqual(medium.bytes, articleJunkBytes([30, 30, 30, 150, 60, 600]));
});

// A playbook's pb::scale lines: {scale: {key: value}} (playbooks/lib/options.sh).
function seedPlaybookScales(name) {
  const fs = require('fs');
  const path = require('path');
  const text = fs.readFileSync(path.join(test.root, 'playbooks', `${name}.sh`), 'utf8');
  const scales = {};
  for (const [, word, rest] of text.matchAll(/^pb::scale (\S+) "[^"]*" (.*)$/gm)) {
    scales[word] = Object.fromEntries(rest.split(' ').map((kv) => kv.split('=')));
  }
  return scales;
}

test('a scale word names data of the size the playbooks seed at their --scale of that word (within 2x)', () => {
  // The two playbooks whose --scale sizes the data seedCollection writes:
  // change-stream-resume's junk documents, mongodump-raw-bson's per collection.
  const seeded = [
    ['change-stream-resume', 'change-stream-resume', 'junk', (r) => r.docs - 10],
    ['mongodump-raw-bson', 'tiny-docs', 'docs', (r) => r.collections[0].docs],
  ];
  for (const [playbook, recipe, key, docsOf] of seeded) {
    const scales = seedPlaybookScales(playbook);
    assert.deepStrictEqual(Object.keys(scales), ['tiny', 'small', 'medium', 'full'], playbook);
    for (const [word, values] of Object.entries(scales)) {
      const ours = docsOf(seedCollection('c', { recipe, scale: word, dryRun: true }));
      const theirs = Number(values[key]);
      assert.ok(ours <= 2 * theirs && theirs <= 2 * ours, `${playbook} --scale ${word}: ${key}=${theirs}, seedCollection ${ours}`);
    }
  }
});

test('tiny-docs: tiny, small, medium and full are 1%, 10%, 30% and all of the article\'s 1,000,000 documents per collection', () => {
  const perCollection = (scale) => seedCollection('c', { recipe: 'tiny-docs', scale, dryRun: true }).collections[0].docs;
  assert.deepStrictEqual(['tiny', 'small', 'medium', 'full'].map(perCollection), [10000, 100000, 300000, 1000000]);
});

test('docs splits the junk by largest remainder and always adds up', () => {
  const recipes = seedTestRecipes();
  assert.deepStrictEqual(seedPlain(recipes.apportion(7, [100, 100, 100, 500, 200, 2000])), [0, 0, 0, 1, 1, 5]);
  for (const n of [0, 1, 2, 13, 299, 3001]) {
    const r = seedCollection('foo', { recipe: 'change-stream-resume', docs: n, dryRun: true });
    assert.strictEqual(r.docs, n + 10, `docs ${n}`);
  }
});

test('tiny-docs at full scale is the mongodump-raw-bson article\'s data: 4 collections x 1,000,000 documents of 31 bytes', () => {
  const r = seedCollection('c', { recipe: 'tiny-docs', scale: 'full', dryRun: true });
  const tiny = seedSpec.doc(seedSpec.oid('_id'), seedSpec.str('a', 1));
  assert.strictEqual(tiny, 31);
  assert.deepStrictEqual(seedPlain(r.collections), [1, 2, 3, 4].map((k) => ({ ns: `test.c_${k}`, docs: 1000000, bytes: 31000000 })));
  assert.strictEqual(r.docs, 4000000);
  const two = seedCollection('c', { recipe: 'tiny-docs', collections: 2, docs: 5, dryRun: true });
  assert.deepStrictEqual(seedPlain(two.ns), ['test.c_1', 'test.c_2']);
  assert.strictEqual(two.bytes, 2 * 5 * 31);
});

test('sensor-hourly: 3600 readings of about 100 bytes per hourly document', () => {
  const S = seedSpec;
  const reading = (k) => 1 + String(k).length + 1
    + S.doc(S.int('s'), ...['temp', 'hum', 'pm25', 'pm10', 'no2', 'co'].map((f) => S.dbl(f)));
  let array = 4 + 1;
  for (let k = 0; k < 3600; k++) array += reading(k);
  const hourly = S.doc(S.oid('_id'), S.int('device'), 1 + 'hour'.length + 1 + 8, 1 + 'readings'.length + 1 + array);
  const r = seedCollection('s', { recipe: 'sensor-hourly', scale: 'full', dryRun: true });
  assert.strictEqual(r.docs, 1200);
  assert.strictEqual(r.largestDoc, hourly);
  assert.ok(reading(1800) > 90 && reading(1800) < 110, `reading is ${reading(1800)} bytes`);
});

test('ticker and sharded-ids: fixed-size documents, full = 100,000 and 2,000,000', () => {
  const S = seedSpec;
  const t = seedCollection('t', { recipe: 'ticker', scale: 'full', dryRun: true });
  assert.strictEqual(t.docs, 100000);
  assert.strictEqual(t.bytes, 100000 * S.doc(S.oid('_id'), 1 + 5 + 8, S.str('ticker', 3), S.dbl('price')));
  const k = seedCollection('k', { recipe: 'sharded-ids', scale: 'full', dryRun: true });
  assert.strictEqual(k.docs, 2000000);
  assert.strictEqual(k.bytes, 2000000 * S.doc(S.oid('_id'), S.int('id'), S.str('s', 64)));
});

test('sharded-ids spreads the shard key over 0..100,000,000 as the routing-refresh article\'s cluster', () => {
  const recipes = seedTestRecipes();
  const [coll] = recipes.plan('sharded-ids', { name: 'k', docs: 2000000, seed: 1 });
  const ids = [];
  for (const { doc } of recipes.documents(coll, 1, 1999998)) ids.push(doc.id.valueOf());
  assert.deepStrictEqual(ids, [99999900, 99999950]);
});

test('every recipe writes exactly the bytes its dry run promised (documents generated, sizes summed)', () => {
  const recipes = seedTestRecipes();
  const cases = [
    ['change-stream-resume', { docs: 12 }], ['tiny-docs', { docs: 50, collections: 4 }],
    ['sensor-hourly', { docs: 3 }], ['ticker', { docs: 500 }], ['sharded-ids', { docs: 500 }],
    ['sharded-ids', { docs: 20, size: 5000 }], ['padded', { docs: 30, size: 3000 }],
    ['change-stream-resume', { docs: 6, size: 2 * 1048576 }],
  ];
  for (const [recipe, o] of cases) {
    const dry = seedCollection('x', { recipe, ...o, dryRun: true });
    const planned = recipes.plan(recipe, { name: 'x', seed: 1, collections: o.collections || 1, ...o });
    let docs = 0;
    let bytes = 0;
    for (const c of planned) {
      for (const { doc, size } of recipes.documents(c, 1)) {
        const real = bsonsize(doc);
        assert.strictEqual(real, size, `${recipe}: document ${docs}`);
        docs++;
        bytes += real;
      }
    }
    assert.strictEqual(docs, dry.docs, `${recipe} docs`);
    assert.strictEqual(bytes, dry.bytes, `${recipe} bytes`);
  }
});

test('documents are deterministic: same seed same data, another seed other ids and values', () => {
  const recipes = seedTestRecipes();
  const first = (seed) => {
    const [c] = recipes.plan('ticker', { name: 't', docs: 3, seed });
    return [...recipes.documents(c, seed)].map((x) => EJSON.stringify(x.doc));
  };
  assert.deepStrictEqual(first(1), first(1));
  assert.notDeepStrictEqual(first(1), first(2));
  const a = first(1).map((d) => EJSON.parse(d));
  assert.ok(a[0]._id.toHexString() < a[1]._id.toHexString(), '_ids sort in write order');
});

test('a resumed run generates the same documents from its starting position', () => {
  const recipes = seedTestRecipes();
  const [c] = recipes.plan('sensor-hourly', { name: 's', docs: 4, seed: 7 });
  const all = [...recipes.documents(c, 7)].map((x) => EJSON.stringify(x.doc));
  const tail = [...recipes.documents(c, 7, 2)].map((x) => EJSON.stringify(x.doc));
  assert.deepStrictEqual(tail, all.slice(2));
});

test('large strings differ between documents (not one repeated string)', () => {
  const recipes = seedTestRecipes();
  const [c] = recipes.plan('padded', { name: 'p', docs: 3, size: 100000, seed: 1 });
  const s = [...recipes.documents(c, 1)].map((x) => x.doc.s);
  assert.strictEqual(new Set(s).size, 3);
  assert.match(s[0], /^[A-Za-z0-9]+$/);
});

test('padded documents are exactly `size` bytes; sizes read human units', () => {
  for (const [size, bytes] of [['1KB', 1024], ['6MB', 6291456], ['1.5KB', 1536], [4096, 4096], ['2 KiB', 2048]]) {
    const r = seedCollection('p', { docs: 3, size, dryRun: true });
    assert.strictEqual(r.largestDoc, bytes, String(size));
    assert.strictEqual(r.bytes, 3 * bytes, String(size));
  }
  assert.strictEqual(seedCollection('p', { docs: 2, dryRun: true }).bytes, 2048, 'default 1 KB');
});

test('the dry run estimates the oplog a replica set needs (the change-stream-resume article resized it to 20 GB)', () => {
  const r = seedCollection('foo', { recipe: 'change-stream-resume', scale: 'full', dryRun: true });
  assert.ok(r.oplogBytes > r.bytes + 3010 * 50 && r.oplogBytes < r.bytes + 3010 * 200, String(r.oplogBytes));
  assert.strictEqual(r.oplogSizeMB, Math.ceil((r.oplogBytes * 1.1) / 1048576));
  assert.ok(r.oplogSizeMB < 20480);
  assert.strictEqual(seedCollection('t', { recipe: 'ticker', dryRun: true }).oplogSizeMB, 990, 'floor: replSetResizeOplog minimum');
});

test('the recipe can be given as the second argument', () => {
  // Accepted as a recipe: the call gets as far as needing a connection.
  assert.match(test.thrown(() => seedCollection('c', 'ticker')).message, /needs a connected shell/);
  assert.match(test.thrown(() => seedCollection('c', 'tickers')).message, /unknown recipe "tickers"/);
});

test('a scale word given where the recipe goes is named as a scale, with the call to make', () => {
  const err = test.thrown(() => seedCollection('c', 'tiny'));
  assert.match(err.message, /^seedCollection: "tiny" is a scale, not a recipe: give both, e\.g\. \{recipe: 'tiny-docs', scale: 'tiny'\}/);
  assert.match(err.message, /recipes: change-stream-resume, tiny-docs/);
});

test('bad options: an Error starting "seedCollection:" that says what is accepted', () => {
  const cases = [
    [() => seedCollection('c', { recipe: 'nope', dryRun: true }), /unknown recipe "nope"; accepted: change-stream-resume, tiny-docs/],
    [() => seedCollection('c', { recipe: 'ticker', docs: -1, dryRun: true }), /docs must be a whole number >= 0; got the number -1/],
    [() => seedCollection('c', { recipe: 'ticker', docs: 1.5, dryRun: true }), /docs must be a whole number/],
    [() => seedCollection('c', { docs: 10, size: 'big', dryRun: true }), /size must be a number of bytes or a size like .*; got the string "big"/],
    [() => seedCollection('c', { docs: 10, size: '17MB', dryRun: true }), /size must be between 37 bytes .* and 16MB/],
    [() => seedCollection('c', { docs: 10, size: 10, dryRun: true }), /size must be between 37 bytes/],
    [() => seedCollection(undefined, { recipe: 'ticker', dryRun: true }), /target must be a collection .*; got undefined$/],
    [() => seedCollection('', { recipe: 'ticker', dryRun: true }), /target must be a collection .*; got an empty string$/],
    [() => seedCollection(42, { recipe: 'ticker', dryRun: true }), /target must be a collection/],
    [() => seedCollection('a$b', { recipe: 'ticker', dryRun: true }), /invalid collection name/],
    [() => seedCollection('c', { recipe: 'ticker', scale: 'huge', dryRun: true }), /unknown scale "huge"; accepted: tiny, small, medium, full/],
    [() => seedCollection('c', { recipe: 'ticker', sizee: 1, dryRun: true }), /unknown option 'sizee'; accepted: recipe, scale, docs/],
    [() => seedCollection('c', { dryRun: true }), /recipe padded needs docs/],
    [() => seedCollection('c', { recipe: 'tiny-docs', size: '1KB', dryRun: true }), /fixed document shape; size is accepted by: change-stream-resume, sharded-ids, padded/],
    [() => seedCollection('c', { recipe: 'ticker', collections: 2, dryRun: true }), /collections is only for recipe tiny-docs/],
    [() => seedCollection('c', { recipe: 'change-stream-resume', concurrency: 2, dryRun: true }), /writes its documents in order/],
    [() => seedCollection('c', { recipe: 'ticker', batchBytes: '100MB', dryRun: true }), /batchBytes must be between 1KB and 48MB/],
    [() => seedCollection('c', { recipe: 'ticker', batchDocs: 0, dryRun: true }), /batchDocs must be between 1 and 100000/],
    [() => seedCollection('c', { recipe: 'ticker', progress: 'yes', dryRun: true }), /progress must be true, false/],
    [() => seedCollection('c', { recipe: 'ticker', dryRun: 1 }), /dryRun must be true or false/],
    [() => seedCollection('c', { recipe: 'ticker', writeConcern: 'majority', dryRun: true }), /writeConcern must be an object/],
    [() => seedCollection('c', ['ticker']), /options must be a document, e.g. .*; got an array of 1 element$/],
  ];
  for (const [fn, re] of cases) {
    const err = test.thrown(fn);
    assert.match(err.message, /^seedCollection: /);
    assert.match(err.message, re);
  }
});

test('writing needs a connection: a clear error under --nodb', () => {
  const err = test.thrown(() => seedCollection('c', { recipe: 'ticker' }));
  assert.match(err.message, /^seedCollection: needs a connected shell/);
});

test('help() names every recipe and both return shapes', () => {
  const path = require('path');
  const lines = [];
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({
    bson: { ObjectId, Int32, Double, Long, Timestamp, UUID },
    print: (...a) => lines.push(a.join(' ')), bsonsize, getDb: () => undefined,
  });
  require(path.join(test.root, 'snippets', 'lib', 'seed.js'))(shell).seedCollection.help();
  const text = lines.join('\n');
  for (const r of ['change-stream-resume', 'tiny-docs', 'sensor-hourly', 'ticker', 'sharded-ids', 'padded']) assert.ok(text.includes(r), r);
  assert.match(text, /\{ns: \[\.\.\.\], recipe, docs, bytes, skipped, seconds, docsPerSec, mbPerSec\}/);
  assert.match(text, /oplogBytes, oplogSizeMB/);
  // The scale words, what each means, and that they are the playbooks' words.
  assert.match(text, /'tiny' \(1%, the default\), 'small' \(10%\), 'medium' \(30%\) or 'full' \(100%\)/);
  assert.match(text, /the playbooks' --scale/);
});
