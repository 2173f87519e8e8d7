// Benchmark: explainOplogEntry and oplogEntrySize(entry) on large oplog entries.
//
// What: time per call on three hand-built entries shaped as the server logs them
// (src/mongo/db/update/document_diff_serialization.cpp): a $v:2 update that
// rewrites a 100,000-element array of small documents (~3.8 MB), a $v:2 update
// with 10,000 positional element writes, and a transaction applyOps of 1,000
// inner updates.
// How: mongosh --nodb --quiet bench/oplog-explain.js   (from the repository root)
// Each case runs until 2 s have passed; prints calls, ms per call and MB/s of
// entry bytes. How explainOplogEntry scales from 1k to 1M elements, against
// bsonsize() of the same entry: bench/explain-oplog-scale.js (figures in
// bench/README.md).
(() => {
  const path = require('path');
  load(path.join(process.cwd(), 'snippets', 'index.js'));

  const ui = UUID('437fb549-cfdd-4526-9dd5-9b9bf0eb3547');
  const top = (o) => ({ op: 'u', ns: 'bench.c', ui, o, o2: { _id: 1 }, ts: Timestamp({ t: 1700000000, i: 1 }), t: Long(1), v: Long(2), wall: new Date(0) });
  const readings = Array.from({ length: 100000 }, (_, i) => ({ t: i, v: i + 0.5 }));
  const elementWrites = {};
  elementWrites.a = true;
  for (let i = 0; i < 10000; i++) elementWrites[`u${i + 5}`] = { t: i, v: i + 0.5 };
  const cases = {
    'whole array (100k elements)': top({ $v: 2, diff: { sdata: { u: { readings } } } }),
    'element writes (10k)': top({ $v: 2, diff: { sr: elementWrites } }),
    'applyOps (1k inner updates)': {
      op: 'c', ns: 'admin.$cmd', ts: Timestamp({ t: 1700000000, i: 2 }), t: Long(1), v: Long(2), wall: new Date(0),
      o: { applyOps: Array.from({ length: 1000 }, (_, i) => ({ op: 'u', ns: 'bench.c', ui, o: { $v: 2, diff: { u: { n: i }, sa: { a: true, u3: i } } }, o2: { _id: i } })) },
    },
  };

  for (const [name, entry] of Object.entries(cases)) {
    const bytes = bsonsize(entry);
    for (const [fnName, fn] of [['explainOplogEntry', explainOplogEntry], ['oplogEntrySize', oplogEntrySize]]) {
      fn(entry); // warm up
      let calls = 0;
      const start = Date.now();
      while (Date.now() - start < 2000) { fn(entry); calls++; }
      const ms = (Date.now() - start) / calls;
      print(`${fnName.padEnd(18)} ${name.padEnd(28)} ${(bytes / 1048576).toFixed(2)} MB entry: ${calls} calls, ${ms.toFixed(2)} ms/call, ${((bytes / 1048576) / (ms / 1000)).toFixed(1)} MB/s`);
    }
  }
})();
