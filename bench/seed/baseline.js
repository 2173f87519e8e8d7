// The fair baseline for bench/seed.sh: the documents bench/seed/ours.js
// writes, by a plain insertMany loop. The article's generator ("Performance
// Analysis of Resuming a MongoDB Change Stream") builds each string one
// character at a time; here every string is built once, before the clock
// starts, so the timed part is only the writing, as in seedCollection.
//   sequence: the article's order (1 KB/1 MB/3 MB markers between runs of
//             6 MiB documents), runs scaled by benchScale, one insertMany per run
//   single:   one insertMany of benchDocs {i, s} documents of 6 MiB
// Run: mongosh URI/test --eval 'var benchMode = "single", benchDocs = 30' bench/seed/baseline.js
const MIB = 1048576;
const junk = 'x'.repeat(6 * MIB);
const kb = junk.slice(0, 1024);
const mb = junk.slice(0, MIB);
const mb3 = junk.slice(0, 3 * MIB);
const coll = db.getSiblingDB('test').foo;
const runs = {};
for (const count of [100, 500, 200, 2000]) {
  const n = Math.round(count * (typeof benchScale === 'number' ? benchScale : 0));
  runs[count] = Array.from({ length: n }, (_, i) => ({ i, s: junk }));
}
const docs = Array.from({ length: typeof benchDocs === 'number' ? benchDocs : 0 }, (_, i) => ({ i, s: junk }));
function junkRun(count) {
  // insertMany adds _ids to its documents: a fresh copy per run.
  if (runs[count].length) coll.insertMany(runs[count].map((d) => ({ i: d.i, s: d.s })));
}
db.getSiblingDB('test').dropDatabase();
const benchStart = process.hrtime.bigint();
if (benchMode === 'sequence') {
  coll.insertOne({ msg: 'This document will be 1Kb', s: kb });
  junkRun(100);
  coll.insertOne({ msg: '100 6MB documents, then another 1Kb document', s: kb });
  junkRun(100);
  coll.insertOne({ msg: 'And another 100 6MB documents, then another 1Kb document', s: kb });
  coll.insertOne({ msg: '... followed immediately by a 1MB document', s: mb });
  junkRun(100);
  coll.insertOne({ msg: '100 6MB documents preceded this 3MB document', s: mb3 });
  coll.insertOne({ msg: '... followed by another 1MB document', s: mb });
  junkRun(500);
  coll.insertOne({ msg: '500 6MB documents added' });
  junkRun(200);
  coll.insertOne({ msg: '200 6MB documents added' });
  coll.insertOne({ msg: 'Adding 2000 more 6MB documents...' });
  junkRun(2000);
  coll.insertOne({ msg: "This is the last document we'd expect" });
} else {
  coll.insertMany(docs);
}
const benchSeconds = Number(process.hrtime.bigint() - benchStart) / 1e9;
print(JSON.stringify({ method: 'insertMany', mode: benchMode, docs: coll.countDocuments({}), seconds: benchSeconds }));
