// change-stream-resume prepare: the change-stream-resume article's
// (docs/articles.md#change-stream-resume) setupEnvironment() and seedCollection().
// Opens a stream with the article's filter, inserts the first matching
// document, keeps its event's _id (the token runs A and B resume after), then
// writes the recipe's markers and junk in order, one document per insert.
(() => {
  const path = require('path');
  const state = require(path.resolve(__dirname, 'state.js'));
  const { coll: collName, junk, stateFile, filter } = stage.params;
  const coll = stage.db.getCollection(collName);
  const pipeline = [{ $match: JSON.parse(filter) }];

  const cs = coll.watch(pipeline);
  coll.insertOne({ msg: 'We expect our filter to match this' });
  let first = null;
  const deadline = Date.now() + 60000;
  while (first === null && Date.now() < deadline) first = cs.tryNext();
  cs.close();
  if (first === null) throw new Error('prepare: the change stream did not report the first insert within 60 s');
  const decoded = decodeResumeToken(first);
  stage.log(`first event token ${first._id._data} (cluster time ${decoded.timestamp.t}.${decoded.timestamp.i}, token version ${decoded.version})`);

  // One document per insert command: from 8.0 an insertMany of several
  // documents is replicated as one applyOps entry (vectored inserts), which
  // would put markers and 6 MB junk into the same oplog entry; the article's
  // 5.2 oplog held one entry per document, and so does this one on every version.
  const seeded = seedCollection(coll, { recipe: 'change-stream-resume', docs: junk, batchDocs: 1, progress: 10 });
  stage.log(`seeded ${seeded.docs} documents, ${(seeded.bytes / 1048576).toFixed(0)} MiB in ${seeded.seconds.toFixed(1)} s (${seeded.mbPerSec} MB/s)`);
  stage.measure('seed.docs', seeded.docs, 'docs');
  stage.measure('seed.bytes', seeded.bytes, 'bytes');
  stage.measure('seed.seconds', seeded.seconds, 's');

  // As the article's $collStats check: how big the collection really is.
  const row = collStatsSummary(coll)[0];
  if (row) {
    stage.measure('collection.count', row.count, 'docs');
    stage.measure('collection.size', row.size, 'bytes');
    stage.measure('collection.avgObjSize', row.avgObjSize, 'bytes');
    stage.measure('collection.storageSize', row.storageSize, 'bytes');
  }

  state.update(stateFile, (s) => {
    s.tokens.first = EJSON.serialize(first._id);
  });
})();
