// array-push-oplog prepare: the target must be a replica set (the bytes are
// counted in its oplog, the lag read from its secondaries); then one
// sensor-hourly document (the array-push-oplog article's hourly array of 3600 readings of ~100
// bytes), the source of every reading the run writes.
(() => {
  const hello = stage.hello();
  if (!hello.setName) {
    throw new Error('array-push-oplog: the target is not a replica set member (hello has no setName): ' +
      'the lab counts bytes in the oplog and reads secondary lag; launch a replica set or give --uri of one');
  }
  const secondaries = (hello.hosts || []).length - 1;
  if (secondaries < 1) {
    stage.note('This replica set has no secondary: the oplog sizes are measured, the lag is not.');
  }
  const src = stage.db.getCollection('hourly_source');
  src.drop();
  const r = seedCollection(src, { recipe: 'sensor-hourly', docs: 1, progress: false });
  stage.log(`seeded ${r.docs} sensor-hourly document (${r.bytes} bytes) into ${stage.dbName}.hourly_source`);
  stage.measure('sourceDocumentBytes', r.bytes, 'B');
})();
