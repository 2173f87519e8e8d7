// seedCollection writing the same documents as writeJunk(benchDocs, 6 MiB):
// {_id, i, s} with a 6 MiB string, 6291493 bytes each.
// Run: mongosh URI --eval 'var benchDocs = N' bench/seed/ours.js
load(require('path').join(process.env.DBA_LAB_ROOT, 'snippets', 'index.js'));
db.getSiblingDB('test').dropDatabase();
var r = seedCollection(db.getSiblingDB('test').foo, { docs: benchDocs, size: 6291493, progress: false });
print(JSON.stringify({ method: 'seedCollection', docs: db.getSiblingDB('test').foo.countDocuments({}), bytes: r.bytes, seconds: r.seconds }));
