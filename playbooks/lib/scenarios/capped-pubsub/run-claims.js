// capped-pubsub claims that need the server: claim=grow | shard | replicate | restart.
(() => {
  const path = require('path');
  const pubsub = require(path.resolve(__dirname, 'model.js'));
  const { claim, before } = stage.params;
  const db = stage.db;
  const admin = db.getSiblingDB('admin');
  const report = (v) => stage.verdict(v);
  const err = (e) => ({ code: e.code, codeName: e.codeName, errmsg: e.errmsg || e.message });

  if (claim === 'grow') {
    // A capped collection of its own, so the topic is not disturbed.
    db.createCollection('grow_probe', { capped: true, size: 100000 });
    const coll = db.getCollection('grow_probe');
    coll.insertOne({ _id: 1, time: new Date(), ticker: 'PIP', price: 4.45 });
    const oldSize = bsonsize(coll.findOne({ _id: 1 }));
    let outcome;
    try {
      const r = coll.updateOne({ _id: 1 }, { $set: { note: 'x'.repeat(100) } });
      const doc = coll.findOne({ _id: 1 });
      outcome = { allowed: r.modifiedCount === 1 && bsonsize(doc) > oldSize, oldSize, newSize: bsonsize(doc) };
    } catch (e) {
      outcome = { allowed: false, oldSize, ...err(e) };
    }
    let fcv = null;
    try {
      fcv = admin.runCommand({ getParameter: 1, featureCompatibilityVersion: 1 }).featureCompatibilityVersion;
      fcv = fcv && (fcv.version || fcv);
    } catch (e) { /* mongos or no privilege: FCV unknown */ }
    stage.measure('grow.allowed', outcome.allowed);
    stage.measure('grow.featureCompatibilityVersion', fcv || 'unknown');
    report(pubsub.growClaim(outcome, fcv));
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
    const hello = admin.runCommand({ hello: 1 });
    if (hello.msg !== 'isdbgrid') {
      report(pubsub.shardClaim({ sharded: false }));
      return;
    }
    let outcome;
    try {
      admin.runCommand({ enableSharding: stage.dbName });
      const r = admin.runCommand({ shardCollection: `${stage.dbName}.ticker`, key: { time: 1 } });
      outcome = r.ok ? { sharded: true, refused: false } : { sharded: true, refused: true, code: r.code, codeName: r.codeName, errmsg: r.errmsg };
    } catch (e) {
      outcome = { sharded: true, refused: true, ...err(e) };
    }
    report(pubsub.shardClaim(outcome));
  } else if (claim === 'replicate') {
    const hello = admin.runCommand({ hello: 1 });
    const n = hello.setName
      ? db.getSiblingDB('local').getCollection('oplog.rs').countDocuments({ ns: `${stage.dbName}.ticker`, op: 'i' })
      : 0;
    report(pubsub.replicationClaim(hello.setName, n));
  } else if (claim === 'restart') {
    const after = db.runCommand({ count: 'ticker' }).n;
    stage.measure('restart.documentsBefore', before, 'documents');
    stage.measure('restart.documentsAfter', after, 'documents');
    report(pubsub.restartClaim(Number(before), after));
  } else {
    throw new Error(`claims.js: claim must be grow, shard, replicate or restart, got '${claim}'`);
  }
})();
