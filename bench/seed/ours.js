// seedCollection writing the same documents as bench/seed/writejunk.js:
//   sequence: recipe change-stream-resume (seed 000's markers and junk runs) at benchScale
//   single:   benchDocs documents {_id, i, s} of 6291493 bytes, as writeJunk(benchDocs, 6 MiB)
load(require('path').join(process.env.DBA_LAB_ROOT, 'snippets', 'index.js'));
db.getSiblingDB('test').dropDatabase();
var benchOptions = benchMode === 'sequence'
  ? { recipe: 'change-stream-resume', docs: Math.round(3000 * benchScale) }
  : { docs: benchDocs, size: 6291493 };
var r = seedCollection(db.getSiblingDB('test').foo, Object.assign({ progress: false }, benchOptions));
print(JSON.stringify({ method: 'seedCollection', mode: benchMode, docs: db.getSiblingDB('test').foo.countDocuments({}), seconds: r.seconds, bytes: r.bytes }));
