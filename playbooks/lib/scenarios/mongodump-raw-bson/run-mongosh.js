// The mongosh reader the playbook times: find().toArray() on each collection,
// every document decoded into a shell object. Prints {docs, seconds}.
// Parameters arrive as globalThis.dbaLabRead = {db, collections: [...]}.
(() => {
  const { db: dbName, collections } = globalThis.dbaLabRead;
  const d = db.getSiblingDB(dbName);
  const t0 = Number(process.hrtime.bigint());
  let docs = 0;
  for (const name of collections) {
    docs += d.getCollection(name).find().toArray().length;
  }
  print(JSON.stringify({ docs, seconds: (Number(process.hrtime.bigint()) - t0) / 1e9 }));
})();
