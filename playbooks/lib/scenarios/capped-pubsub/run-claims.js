// capped-pubsub, stage run: what each of the article's server-side claims
// needs, measured (checker.js decides): claim=grow | shard | replicate | restart.
(() => {
  const { claim, before } = stage.params;
  const db = stage.db;
  const admin = db.getSiblingDB('admin');
  const measureError = (prefix, e) => {
    stage.measure(`${prefix}.errorCode`, e.code === undefined ? '' : e.code);
    stage.measure(`${prefix}.errorCodeName`, e.codeName || '');
    stage.measure(`${prefix}.errmsg`, e.errmsg || e.message || '');
  };

  if (claim === 'grow') {
    // A capped collection of its own, so the topic is not disturbed.
    db.createCollection('grow_probe', { capped: true, size: 100000 });
    const coll = db.getCollection('grow_probe');
    coll.insertOne({ _id: 1, time: new Date(), ticker: 'PIP', price: 4.45 });
    const oldSize = bsonsize(coll.findOne({ _id: 1 }));
    stage.measure('grow.oldSizeBytes', oldSize, 'bytes');
    try {
      const r = coll.updateOne({ _id: 1 }, { $set: { note: 'x'.repeat(100) } });
      const newSize = bsonsize(coll.findOne({ _id: 1 }));
      stage.measure('grow.newSizeBytes', newSize, 'bytes');
      stage.measure('grow.allowed', r.modifiedCount === 1 && newSize > oldSize);
    } catch (e) {
      stage.measure('grow.allowed', false);
      measureError('grow', e);
    }
    let fcv = null;
    try {
      fcv = admin.runCommand({ getParameter: 1, featureCompatibilityVersion: 1 }).featureCompatibilityVersion;
      fcv = fcv && (fcv.version || fcv);
    } catch (e) { /* mongos or no privilege: FCV unknown */ }
    stage.measure('grow.featureCompatibilityVersion', fcv || 'unknown');
    // Resizing (collMod cappedSize, 6.0+, SERVER-1864): recorded, not a claim of the article.
    let resize;
    try {
      const r = db.runCommand({ collMod: 'grow_probe', cappedSize: 200000 });
      resize = r.ok ? 'allowed (collMod cappedSize)' : `refused: ${r.codeName} (${r.code}) ${r.errmsg}`;
    } catch (e) {
      resize = `refused: ${e.codeName || ''} (${e.code}) ${e.message}`;
    }
    stage.note(`Resizing a capped collection with \`collMod: {cappedSize}\` (6.0+, SERVER-1864): ${resize}.`);
  } else if (claim === 'shard') {
    const hello = stage.hello();
    stage.measure('shard.cluster', hello.msg === 'isdbgrid');
    if (hello.msg !== 'isdbgrid') return;
    try {
      admin.runCommand({ enableSharding: stage.dbName });
      const r = admin.runCommand({ shardCollection: `${stage.dbName}.ticker`, key: { time: 1 } });
      stage.measure('shard.refused', !r.ok);
      if (!r.ok) measureError('shard', r);
    } catch (e) {
      stage.measure('shard.refused', true);
      measureError('shard', e);
    }
  } else if (claim === 'replicate') {
    const hello = stage.hello();
    stage.measure('replicate.setName', hello.setName || '');
    if (hello.setName) {
      const n = db.getSiblingDB('local').getCollection('oplog.rs').countDocuments({ ns: `${stage.dbName}.ticker`, op: 'i' });
      stage.measure('replicate.oplogInserts', n, 'inserts');
    }
  } else if (claim === 'restart') {
    const after = db.runCommand({ count: 'ticker' }).n;
    stage.measure('restart.documentsBefore', before, 'documents');
    stage.measure('restart.documentsAfter', after, 'documents');
  } else {
    throw new Error(`run-claims.js: claim must be grow, shard, replicate or restart, got '${claim}'`);
  }
})();
