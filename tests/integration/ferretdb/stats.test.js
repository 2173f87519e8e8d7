// collStatsSummary on a real server's $collStats output (FerretDB).

function statsDb() { return db.getSiblingDB('dba_lab_stats'); }

test('a collection: one row whose count is what was written', () => {
  statsDb().dropDatabase();
  seedCollection(statsDb().tick, { recipe: 'ticker', docs: 300, progress: false });
  const rows = collStatsSummary(statsDb().tick);
  assert.strictEqual(rows.length, 1);
  const [r] = rows;
  assert.strictEqual(r.ns, 'dba_lab_stats.tick');
  // Counts and sizes are 64-bit on the server: they come back as exact Longs.
  assert.ok(r.count.equals(Long(300)), String(r.count));
  assert.ok(r.size.toBigInt() > 0n && r.storageSize.toBigInt() > 0n && r.totalIndexSize.toBigInt() > 0n, EJSON.stringify(r));
  assert.strictEqual(r.nindexes, 1);
  assert.strictEqual(r.capped, false);
  assert.strictEqual(r.indexSizes._id_._bsontype, 'Long');
  assert.ok(r instanceof Object && rows instanceof Array, 'results are the shell\'s own objects');
});

test('a database: every collection, capped limits from listCollections, largest first', () => {
  statsDb().createCollection('topic', { capped: true, size: 100000, max: 1000 });
  statsDb().topic.insertOne({ time: new Date(), ticker: 'PIP', price: 4.45 });
  seedCollection(statsDb().big, { docs: 20, size: '64KB', progress: false });
  const rows = collStatsSummary(statsDb());
  assert.deepStrictEqual(JSON.parse(JSON.stringify(rows.map((r) => r.ns))).sort(), ['dba_lab_stats.big', 'dba_lab_stats.tick', 'dba_lab_stats.topic']);
  assert.strictEqual(rows[0].ns, 'dba_lab_stats.big');
  const topic = rows.find((r) => r.ns === 'dba_lab_stats.topic');
  assert.strictEqual(topic.capped, true);
  assert.strictEqual(topic.maxSize.toString(), '100000');
  assert.strictEqual(topic.max.toString(), '1000');
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].storageSize.toBigInt() >= rows[i].storageSize.toBigInt());
});

test('sort, limit and scale', () => {
  const rows = collStatsSummary(statsDb(), { sort: 'count', limit: 1, scale: 'KB' });
  assert.strictEqual(rows.length, 1);
  assert.strictEqual(rows[0].ns, 'dba_lab_stats.tick');
  const bytes = collStatsSummary(statsDb().tick)[0];
  assert.strictEqual(rows[0].size.toBigInt(), bytes.size.toBigInt() / 1024n);
});

test('no target: the deployment, system databases left out', () => {
  const rows = collStatsSummary();
  const dbs = new Set(rows.map((r) => r.ns.split('.')[0]));
  assert.ok(dbs.has('dba_lab_stats'));
  for (const d of ['admin', 'config', 'local']) assert.ok(!dbs.has(d), d);
});

test('the returned rows print as an aligned table in human units', () => {
  const text = require('util').inspect(collStatsSummary(statsDb()));
  const lines = text.split('\n');
  assert.match(lines[0], /^ns\s+count\s+size\s+avgObj\s+storage\s+free\s+idx\s+idxSize\s+notes$/);
  assert.match(lines[1], /^-+( +-+)+$/);
  assert.match(text, /dba_lab_stats\.topic .*capped \(max size 97\.7 KB, max 1,000 docs\)/);
  assert.match(text, /dba_lab_stats\.big +20 +[\d.]+ (KB|MB)/);
});
