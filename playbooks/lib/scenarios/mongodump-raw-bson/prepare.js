// prepare: seed the collections each document shape is read from.
//   tiny    the article's data: seedCollection recipe tiny-docs, N collections of
//           {_id, a: "b"} (about 31 bytes: per-document costs dominate)
//   nested  seedCollection recipe sensor-hourly (the hourly sensor documents of array-push-oplog): each
//           an array of 3600 sub-documents of 7 numeric fields, about 350 KB
//           and 25,000 values, so decoding costs far more per byte
// Writes {shape: {collections: [...], docs, bytes}} to params.out for the run.
(() => {
  const fs = require('fs');
  const { shapes, collections, docs, nestedDocs, out } = stage.params;
  const result = {};
  for (const shape of String(shapes).split(',')) {
    let r;
    if (shape === 'tiny') {
      stage.log(`seeding ${collections} collections x ${docs} documents {a: "b"} (recipe tiny-docs)`);
      r = seedCollection(stage.db.getCollection('tiny'), { recipe: 'tiny-docs', collections, docs, progress: 5 });
    } else if (shape === 'nested') {
      stage.log(`seeding ${nestedDocs} nested documents (recipe sensor-hourly)`);
      r = seedCollection(stage.db.getCollection('nested'), { recipe: 'sensor-hourly', docs: nestedDocs, progress: 5 });
    } else {
      throw new Error(`prepare.js: unknown shape ${shape}`);
    }
    const names = r.ns.map((ns) => ns.slice(stage.dbName.length + 1));
    result[shape] = { collections: names, docs: r.docs, bytes: r.bytes };
    stage.measure(`${shape}.docs`, r.docs, 'documents');
    stage.measure(`${shape}.bytes`, r.bytes, 'bytes');
    stage.measure(`${shape}.seedSeconds`, r.seconds, 's');
    stage.note(`Shape **${shape}**: ${r.docs.toLocaleString('en-US')} documents, ${(r.bytes / 1048576).toFixed(1)} MB of BSON `
      + `in ${names.join(', ')} (seedCollection, ${r.seconds} s).`);
  }
  fs.writeFileSync(out, JSON.stringify(result));
})();
