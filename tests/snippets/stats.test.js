// collStatsSummary's shaping on recorded $collStats outputs (sources in
// tests/fixtures/collstats/README.md), and its option errors.

function statsShape() {
  return require(require('path').join(test.root, 'snippets', 'lib', 'stats-shape.js'));
}

function statsFixture(name) {
  return EJSON.parse(require('fs').readFileSync(test.fixture('collstats', name), 'utf8'), { relaxed: false });
}

function statsFormat(n) {
  const path = require('path');
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({ bson: {}, print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date } });
  return shell.formatBytes(n);
}

// Rows hold counts and sizes as BigInt (exact); the fixtures here are all
// below 2^53, so comparing them as numbers loses nothing.
function statsPlain(x) { return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))); }

test('4.4 docs example (matrices): one row with the storageStats figures', () => {
  const [row, ...rest] = statsShape().rowsFromCollStats(statsFixture('4.4-docs-matrices.json'));
  assert.strictEqual(rest.length, 0);
  assert.deepStrictEqual(statsPlain(row), {
    ns: 'test.matrices', type: 'collection', count: 1104369, size: 608500363, avgObjSize: 550,
    storageSize: 352878592, freeStorageSize: 2490380, nindexes: 2, totalIndexSize: 260337664,
    totalSize: 613216256, capped: false, indexSizes: { _id_: 9891840, _id_1_abc_1: 250445824 },
  });
});

test('the change-stream-resume article\'s recorded 5.2 output: Long sizes stay exact, 15.8 GB in the table', () => {
  const s = statsShape();
  const rows = s.rowsFromCollStats(statsFixture('5.2-change-stream-article-foo.json'));
  assert.strictEqual(rows[0].size, 16993324327n);
  assert.strictEqual(rows[0].totalSize, 17022283776n);
  assert.strictEqual(rows[0].count, 2711n);
  const table = s.renderTable(s.arrange(rows), { scale: 1, formatBytes: statsFormat }).split('\n');
  assert.deepStrictEqual(table[0].split(/\s+/), ['ns', 'count', 'size', 'avgObj', 'storage', 'free', 'idx', 'idxSize', 'notes']);
  assert.deepStrictEqual(table[2].split(/\s{2,}/), ['test.foo', '2,711', '15.8 GB', '5.98 MB', '15.9 GB', '16.9 MB', '1', '112 KB']);
});

test('7.0 sharded output: a row per shard and a total row summing them', () => {
  const s = statsShape();
  const rows = s.rowsFromCollStats(statsFixture('7.0-sharded-users.json'));
  assert.deepStrictEqual(statsPlain(rows.map((r) => r.shard)), ['shard01', 'shard02', 'total']);
  const total = rows[2];
  assert.strictEqual(total.count, 1500000n);
  assert.strictEqual(total.size, 629145600n + 314572800n);
  assert.strictEqual(total.storageSize, 268435456n + 134217728n);
  assert.strictEqual(total.totalIndexSize, 41943040n + 20971520n);
  assert.strictEqual(total.avgObjSize, Math.round((629145600 + 314572800) / 1500000));
  assert.strictEqual(total.orphans, 120n);
  assert.strictEqual(total.nindexes, 2);
  const table = s.renderTable(s.arrange(rows), { scale: 1, formatBytes: statsFormat });
  assert.match(table.split('\n')[0], /^ns\s+shard\s+count/);
  assert.match(table, /test\.users\s+total\s+1,500,000\s+900 MB/);
  assert.match(table, /120 orphans/);
});

test('7.0 time-series: named with its buckets collection', () => {
  const s = statsShape();
  const [row] = s.rowsFromCollStats(statsFixture('7.0-timeseries-weather.json'));
  assert.strictEqual(row.type, 'timeseries');
  assert.strictEqual(row.bucketsNs, 'test.system.buckets.weather');
  assert.strictEqual(row.buckets, 512n);
  assert.strictEqual(row.count, undefined);
  const table = s.renderTable([row], { scale: 1, formatBytes: statsFormat });
  assert.match(table, /time-series, buckets test\.system\.buckets\.weather \(512 buckets\)/);
});

test('capped collections show their limits (the capped-pubsub article\'s ticker)', () => {
  const s = statsShape();
  const [row] = s.rowsFromCollStats(statsFixture('4.4-capped-ticker.json'));
  assert.strictEqual(row.capped, true);
  assert.strictEqual(row.max, 100000n);
  assert.strictEqual(row.maxSize, 100096n);
  assert.match(s.renderTable([row], { scale: 1, formatBytes: statsFormat }), /capped \(max size 97\.8 KB, max 100,000 docs\)/);
  const [kb] = s.arrange([row], { scale: 1024 });
  assert.match(s.renderTable([kb], { scale: 1024, formatBytes: statsFormat }), /capped \(max size 97 KB, max 100,000 docs\)/);
});

test('arrange: largest storageSize first, a sharded ns by its total, shard rows kept together', () => {
  const s = statsShape();
  const rows = [
    ...s.rowsFromCollStats(statsFixture('4.4-docs-matrices.json')),
    ...s.rowsFromCollStats(statsFixture('7.0-sharded-users.json')),
    ...s.rowsFromCollStats(statsFixture('4.4-capped-ticker.json')),
  ];
  const order = s.arrange(rows).map((r) => `${r.ns}${r.shard ? `/${r.shard}` : ''}`);
  assert.deepStrictEqual(statsPlain(order), ['test.users/shard01', 'test.users/shard02', 'test.users/total', 'test.matrices', 'finance.ticker']);
  const byCount = s.arrange(rows, { sort: s.parseSort({ count: 1 }) }).map((r) => r.ns);
  assert.deepStrictEqual(statsPlain(byCount), ['finance.ticker', 'test.matrices', 'test.users', 'test.users', 'test.users']);
  const byName = s.arrange(rows, { sort: s.parseSort('ns'), limit: 2 }).map((r) => r.ns);
  assert.deepStrictEqual(statsPlain(byName), ['finance.ticker', 'test.matrices']);
});

test('scale divides size fields and rounds down like the server; avgObjSize stays in bytes', () => {
  const s = statsShape();
  const [row] = s.arrange(s.rowsFromCollStats(statsFixture('4.4-docs-matrices.json')), { scale: s.parseScale('MB') });
  assert.strictEqual(row.size, 608500363n / 1048576n);
  assert.strictEqual(row.storageSize, 336n);
  assert.strictEqual(row.avgObjSize, 550);
  assert.strictEqual(row.indexSizes._id_1_abc_1, 238n);
  assert.strictEqual(row.count, 1104369n);
  const table = s.renderTable([row], { scale: 1048576, formatBytes: statsFormat });
  assert.match(table.split('\n')[0], /size\(MB\).*storage\(MB\).*free\(MB\).*idxSize\(MB\)/);
  assert.deepStrictEqual([s.parseScale(1024), s.parseScale('gb'), s.parseScale('KiB'), s.parseScale(0), s.parseScale('PB')], [1024, 1073741824, 1024, null, null]);
});

test('a failed $collStats is a row with its error, shown in the table', () => {
  const s = statsShape();
  const table = s.renderTable([{ ns: 'x.y', type: 'collection', error: 'not authorized on x' }], { scale: 1, formatBytes: statsFormat });
  assert.match(table, /^x\.y\s+error: not authorized on x$/m);
});

test('bad options and targets: an Error starting "collStatsSummary:"', () => {
  const cases = [
    [() => collStatsSummary(undefined, { scale: 'XB' }), /scale must be a number >= 1 or one of KB, MB, GB, TB; got the string "XB"/],
    [() => collStatsSummary(undefined, { sort: 'bigness' }), /sort must be one of ns, count, size/],
    [() => collStatsSummary(undefined, { sort: { size: 2 } }), /sort must be one of/],
    [() => collStatsSummary(undefined, { limit: 0 }), /limit must be a whole number > 0/],
    [() => collStatsSummary(undefined, { sortBy: 'size' }), /unknown option 'sortBy'; accepted: scale, sort, limit, system/],
    [() => collStatsSummary(undefined, 'size'), /options must be a document, e.g. .*; got the string "size"$/],
    [() => collStatsSummary(42), /target must be a collection/],
    [() => collStatsSummary(''), /invalid collection name ""/],
    [() => collStatsSummary('foo'), /needs a connected shell/],
    [() => collStatsSummary(), /needs a connected shell/],
  ];
  for (const [fn, re] of cases) {
    const err = test.thrown(fn);
    assert.match(err.message, /^collStatsSummary: /);
    assert.match(err.message, re);
  }
});

test('a database listing: views skipped, time-series once under its name, capped limits noted', () => {
  const s = statsShape();
  const infos = statsFixture('7.0-listcollections.json');
  const got = s.collectionsToSummarize(infos, 'test');
  assert.deepStrictEqual(statsPlain(got), [
    { name: 'weather', meta: { ns: 'test.weather', type: 'timeseries', bucketsNs: 'test.system.buckets.weather' } },
    { name: 'system.buckets.orphan', meta: { ns: 'test.system.buckets.orphan', type: 'collection' } },
    { name: 'ticker', meta: { ns: 'test.ticker', type: 'collection', maxSize: 100000, max: 100000 } },
    { name: 'users', meta: { ns: 'test.users', type: 'collection' } },
  ]);
});

test('counts and sizes beyond 2^53 stay exact, and reach the user as Long', () => {
  const s = statsShape();
  const big = '9007199254740993';
  const [row] = s.rowsFromCollStats({ ns: 'a.b', storageStats: { count: Long(big), size: Long(big), storageSize: Long(1), nindexes: 1 } });
  assert.strictEqual(row.count, 9007199254740993n);
  const table = s.renderTable([row], { scale: 1, formatBytes: statsFormat });
  assert.match(table, /9,007,199,254,740,993/);
  const [out] = s.toLongs([row], Long(0).constructor);
  assert.strictEqual(out.count._bsontype, 'Long');
  assert.strictEqual(out.count.toString(), big);
});

test('a capped max of the largest Long (or 0) is no document limit', () => {
  const s = statsShape();
  for (const max of [Long('9223372036854775807'), 0]) {
    const [row] = s.rowsFromCollStats({ ns: 'a.c', storageStats: { capped: true, max, maxSize: 4096, count: 0, size: 0 } });
    assert.strictEqual(row.max, undefined);
    assert.match(s.renderTable([row], { scale: 1, formatBytes: statsFormat }), /capped \(max size 4\.00 KB, no document limit\)/);
  }
});

test('a total row shows no index count when no shard reported one', () => {
  const s = statsShape();
  const rows = s.rowsFromCollStats([
    { ns: 'a.s', shard: 's1', storageStats: { count: 1, size: 10 } },
    { ns: 'a.s', shard: 's2', storageStats: { count: 2, size: 20 } },
  ]);
  const total = rows.find((r) => r.shard === 'total');
  assert.strictEqual(total.count, 3n);
  assert.strictEqual(total.nindexes, undefined);
});
