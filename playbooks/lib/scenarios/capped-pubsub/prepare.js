// capped-pubsub prepare: the article's topic (Examples 2 and 5 of "Topics: A Queue With Publishers and Subscribers"),
// a normal collection for the change stream comparison, and one sentinel
// message so the topic is never empty (a tailable cursor on an empty
// collection is closed at once).
(() => {
  const { size, max } = stage.params;
  const db = stage.db;
  const options = { capped: true, size };
  if (max > 0) options.max = max;
  db.createCollection('ticker', options);
  db.getCollection('ticker').createIndex({ time: 1 });
  db.getCollection('ticker').insertOne({ time: new Date(), ticker: 'PIP', price: 4.45, sentinel: true });
  db.createCollection('ticker_stream');
  const info = db.getCollectionInfos({ name: 'ticker' })[0];
  // The size the server keeps, not the one asked for: MongoDB rounds it up to
  // a multiple of 256 unless featureFlagCappedCollectionsRelaxedSize is on.
  const [stats] = db.getCollection('ticker').aggregate([{ $collStats: { storageStats: {} } }]).toArray();
  const fromStats = stats && stats.storageStats ? stats.storageStats.maxSize : undefined;
  const kept = fromStats !== undefined ? fromStats : info && info.options ? info.options.size : undefined;
  if (kept === undefined) throw new Error('capped-pubsub prepare: the server reported no size for the capped collection ticker ($collStats maxSize, listCollections options.size)');
  const keptBytes = Number(kept);
  stage.note(`Topic: \`db.createCollection('ticker', ${JSON.stringify(options)})\` and \`createIndex({time: 1})\`; server options ${info ? EJSON.stringify(info.options, { relaxed: true }) : '{}'}; the server keeps ${keptBytes} bytes (${fromStats !== undefined ? '$collStats maxSize' : 'listCollections options.size'}) for the ${size} asked.`);
  stage.measure('capped.sizeBytes', keptBytes, 'bytes');
  stage.measure('capped.requestedSizeBytes', size, 'bytes');
  stage.measure('capped.maxDocuments', max, 'documents');
})();
