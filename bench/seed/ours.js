// seedCollection, the global a user calls (its first call's require of the
// module included), writing the documents bench/seed/baseline.js writes:
//   sequence: recipe change-stream-resume at benchScale (the article's markers and junk runs)
//   single:   benchDocs documents {_id, i, s} of 6291493 bytes
// Timed around the call with process.hrtime.bigint(); the count after it is untimed.
load(require('path').join(process.env.DBA_LAB_ROOT, 'snippets', 'index.js'));
db.getSiblingDB('test').dropDatabase();
const benchOptions = benchMode === 'sequence'
  ? { recipe: 'change-stream-resume', docs: Math.round(3000 * benchScale) }
  : { docs: benchDocs, size: 6291493 };
const benchStart = process.hrtime.bigint();
seedCollection(db.getSiblingDB('test').foo, Object.assign({ progress: false }, benchOptions));
const benchSeconds = Number(process.hrtime.bigint() - benchStart) / 1e9;
print(JSON.stringify({ method: 'seedCollection', mode: benchMode, docs: db.getSiblingDB('test').foo.countDocuments({}), seconds: benchSeconds }));
