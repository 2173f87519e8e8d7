// chunkSummary's shaping on config documents shaped as 4.4 and 7.0 write them,
// and refresh lines from the routing-refresh article (sources: tests/fixtures/chunks/README.md).

function chunksShape() {
  return require(require('path').join(test.root, 'snippets', 'lib', 'chunks-shape.js'));
}

function chunksFixture(name) {
  return EJSON.parse(require('fs').readFileSync(test.fixture('chunks', name), 'utf8'), { relaxed: false });
}

function chunksPlain(x) { return JSON.parse(JSON.stringify(x)); }

// What the server's {$match: q} then {$group: {_id: '$shard', ...}} returns,
// computed here over the fixture's chunks (equality on the query's fields).
function chunksGroup(chunks, q) {
  const same = (a, b) => EJSON.stringify(a) === EJSON.stringify(b);
  const groups = new Map();
  for (const c of chunks.filter((d) => Object.keys(q).every((k) => d[k] !== undefined && same(d[k], q[k])))) {
    const g = groups.get(c.shard) || { _id: c.shard, chunks: 0, jumbo: 0 };
    g.chunks++;
    if (c.jumbo === true) g.jumbo++;
    groups.set(c.shard, g);
  }
  return [...groups.values()];
}

function chunksSummary(name) {
  const s = chunksShape();
  const f = chunksFixture(name);
  const [collection] = f.collections;
  const q = s.chunkQuery(collection);
  return s.summarize({
    collection,
    perShard: chunksGroup(f.chunks, q),
    shards: f.shards.map((x) => x._id),
    jumboChunks: f.chunks.filter((c) => c.jumbo === true && chunksGroup([c], q).length),
  });
}

test('4.4: no timestamp in config.collections, so chunks are found by ns', () => {
  const s = chunksShape();
  const [collection] = chunksFixture('4.4-config.json').collections;
  assert.deepStrictEqual(chunksPlain(s.chunkQuery(collection)), { ns: 'test.users' });
  const r = chunksSummary('4.4-config.json');
  assert.strictEqual(r.keyedBy, 'ns');
  assert.strictEqual(r.chunks, 4);
  assert.strictEqual(r.jumbo, 1);
  assert.deepStrictEqual(chunksPlain(r.shards), [
    { shard: 'shard01', chunks: 3, jumbo: 1, percent: 75 },
    { shard: 'shard02', chunks: 1, jumbo: 0, percent: 25 },
    { shard: 'shard03', chunks: 0, jumbo: 0, percent: 0 },
  ]);
  assert.deepStrictEqual(chunksPlain(r.perShard), { min: 0, max: 3, avg: 1.3 });
  assert.deepStrictEqual(chunksPlain(r.shardKey), { id: 1 });
});

test('7.0: timestamp in config.collections, so chunks are found by uuid (an ns query finds none)', () => {
  const s = chunksShape();
  const f = chunksFixture('7.0-config.json');
  const [collection] = f.collections;
  const q = s.chunkQuery(collection);
  assert.deepStrictEqual(Object.keys(q), ['uuid']);
  assert.strictEqual(q.uuid.toHexString(), '754b35d3-06b3-42e8-ba0a-3de71005b664');
  // The support-tools trap: querying 5.0+ config.chunks by ns matches nothing.
  assert.strictEqual(chunksGroup(f.chunks, { ns: 'test.users' }).length, 0);
  const r = chunksSummary('7.0-config.json');
  assert.strictEqual(r.keyedBy, 'uuid');
  assert.strictEqual(r.chunks, 4);
  assert.deepStrictEqual(chunksPlain(r.shards.map((x) => [x.shard, x.chunks, x.jumbo])), [['shard02', 2, 1], ['shard01', 1, 0], ['shard03', 1, 0]]);
  assert.deepStrictEqual(chunksPlain(r.perShard), { min: 1, max: 2, avg: 1.3 });
  assert.strictEqual(r.jumboChunks.length, 1);
  assert.strictEqual(r.jumboChunks[0].shard, 'shard02');
  assert.strictEqual(Number(r.jumboChunks[0].min.id), 1000);
});

test('the summary prints shard rows and the per-shard spread', () => {
  const s = chunksShape();
  const text = s.render({ ...chunksSummary('7.0-config.json'), refresh: { count: 0, entries: [] } });
  const lines = text.split('\n');
  assert.match(lines[0], /^test\.users: 4 chunks on 3 shard\(s\), shard key \{"id":1\}, config\.chunks keyed by uuid$/);
  assert.strictEqual(lines[1], 'per shard: min 1, max 2, avg 1.3; jumbo 1');
  assert.match(lines[3], /^ {2}shard02 +2 +50\.0 +1$/);
  assert.match(text, /routing refreshes in the log: none for this namespace/);
});

test('the routing-refresh article\'s 4.2 text lines: durations and versions for wukong.actions', () => {
  const s = chunksShape();
  const lines = require('fs').readFileSync(test.fixture('chunks', 'routing-refresh-article.log'), 'utf8').split('\n');
  const e = s.parseRefreshLines(lines, 'wukong.actions');
  assert.strictEqual(e.length, 19);
  assert.deepStrictEqual(chunksPlain(e[0]), {
    t: '2022-10-05T04:06:33.340+0800', durationMillis: 745, format: 'text',
    from: '102904|1||626ba80f5fa7cb632d7bf264', to: '102905|1||626ba80f5fa7cb632d7bf264',
  });
  const st = s.refreshStats(e, 5);
  assert.strictEqual(st.count, 19);
  assert.strictEqual(st.minMillis, 73);
  assert.strictEqual(st.maxMillis, 1200);
  assert.strictEqual(st.entries.length, 5);
  assert.strictEqual(st.entries[4].durationMillis, 1035);
});

test('the routing-refresh article\'s 5.0 JSON line (id 4619901): 2442 ms; the article\'s broken JSON line is skipped', () => {
  const s = chunksShape();
  const lines = require('fs').readFileSync(test.fixture('chunks', 'routing-refresh-article.log'), 'utf8').split('\n');
  const e = s.parseRefreshLines(lines, 'test.test2');
  assert.deepStrictEqual(chunksPlain(e), [{
    t: '2022-10-17T16:15:56.209+08:00', durationMillis: 2442, format: 'json', id: 4619901,
    from: '49188|1||626a663821072b82d9059209', to: '49189|1||626a663821072b82d9059209',
  }]);
});

test('text lines reprinted with spaces in the time still parse; other namespaces are left out', () => {
  const s = chunksShape();
  const lines = require('fs').readFileSync(test.fixture('chunks', 'routing-refresh-article.log'), 'utf8').split('\n');
  const e = s.parseRefreshLines(lines, 'orderSchedule.OrderDispatchLogDetail');
  assert.deepStrictEqual(chunksPlain(e.map((x) => x.durationMillis)), [190, 183, 194]);
  assert.strictEqual(e[0].t, '- Thu Oct 6 11: 28: 42.556');
  assert.strictEqual(s.parseRefreshLines(lines, 'wukong').length, 0);
});

test('a JSON line from MongoDB\'s log format with the attrs catalog_cache.cpp logs is read (getLog gives such strings)', () => {
  const s = chunksShape();
  // The attr names of id 4619901 (docs/mongodb-facts.md#refresh-log: namespace, lookupSinceVersion,
  // newVersion, timeInStore, durationMillis), as a level-0 full refresh.
  const line = JSON.stringify({
    t: { $date: '2024-01-01T00:00:00.000+00:00' }, s: 'I', c: 'SH_REFR', id: 4619901, ctx: 'CatalogCache-1',
    msg: 'Refreshed cached collection',
    attr: { namespace: 'test.users', lookupSinceVersion: 'None', newVersion: { chunkVersion: { 0: { $timestamp: { t: 7, i: 3 } }, 1: { $oid: '64a6e0a1c2b3d4e5f6a7b8c9' }, 2: { $timestamp: { t: 1688658017, i: 12 } } } }, timeInStore: 'None', durationMillis: 12 },
  });
  const [e] = s.parseRefreshLines([line, '{"c":"NETWORK","attr":{}}', 'not a log line'], 'test.users');
  assert.strictEqual(e.durationMillis, 12);
  assert.strictEqual(e.to, '7|3||64a6e0a1c2b3d4e5f6a7b8c9');
  assert.strictEqual(e.from, undefined);
});

test('a 5.0-era id 4619901 line logs oldVersion (time in store): its version is the start; "None" is none', () => {
  const s = chunksShape();
  const lines = require('fs').readFileSync(test.fixture('logs', 'refresh-5.0-oldversion.derived.json.log'), 'utf8').split('\n');
  assert.deepStrictEqual(chunksPlain(s.parseRefreshLines(lines, 'test.test2').map((e) => [e.from, e.to])), [
    [null, '49188|1||626a663821072b82d9059209'],
    ['49188|1||626a663821072b82d9059209', '49189|1||626a663821072b82d9059209'],
  ]);
});

test('a version logged as ComparableChunkVersion::toString() (a string, newer servers) reads as major|minor||epoch', () => {
  const s = chunksShape();
  const text = "{ chunkVersion: { e: ObjectId('64a6e0a1c2b3d4e5f6a7b8c9'), t: Timestamp(1688658017, 12), v: Timestamp(11, 1) }, forcedRefreshSequenceNum: 2, epochDisambiguatingSequenceNum: 5 }";
  assert.strictEqual(s.versionText(text), '11|1||64a6e0a1c2b3d4e5f6a7b8c9');
  assert.strictEqual(s.versionText('{ chunkVersion: "None", forcedRefreshSequenceNum: 2, epochDisambiguatingSequenceNum: 4 }'), undefined);
  assert.strictEqual(s.versionText('11|1||64a6e0a1c2b3d4e5f6a7b8c9||Timestamp(1688658017, 12)'), '11|1||64a6e0a1c2b3d4e5f6a7b8c9');
  assert.strictEqual(s.versionText({ v: { $timestamp: { t: 11, i: 1 } }, e: { $oid: '64a6e0a1c2b3d4e5f6a7b8c9' }, t: { $timestamp: { t: 1688658017, i: 12 } } }), '11|1||64a6e0a1c2b3d4e5f6a7b8c9');
});

test('bad arguments: an Error starting "chunkSummary:"', () => {
  const cases = [
    [() => chunkSummary(), /ns must be 'db\.collection' or a collection \(db\.foo\); got undefined/],
    [() => chunkSummary('users'), /ns must be 'db\.collection'/],
    [() => chunkSummary(42), /ns must be/],
    [() => chunkSummary('test.users', { logs: false }), /unknown option 'logs'; accepted: log, jumboList/],
    [() => chunkSummary('test.users', { log: 'no' }), /log must be true or false/],
    [() => chunkSummary('test.users', { jumboList: -1 }), /jumboList must be a whole number >= 0/],
    [() => chunkSummary('test.users'), /needs a connected shell/],
  ];
  for (const [fn, re] of cases) {
    const err = test.thrown(fn);
    assert.match(err.message, /^chunkSummary: /);
    assert.match(err.message, re);
  }
});
