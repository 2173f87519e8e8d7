// array-push-oplog prepare: one sensor-hourly document (seed 001's hourly
// array of 3600 readings of ~100 bytes), the source of every reading the
// run writes. seedCollection's recipe, so its shape is the article's.
(() => {
  const src = stage.db.getCollection('hourly_source');
  src.drop();
  const r = seedCollection(src, { recipe: 'sensor-hourly', docs: 1, progress: false });
  stage.log(`seeded ${r.docs} sensor-hourly document (${r.bytes} bytes) into ${stage.dbName}.hourly_source`);
  stage.measure('sourceDocumentBytes', r.bytes, 'B');
})();
