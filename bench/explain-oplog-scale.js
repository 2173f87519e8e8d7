// Benchmark: explainOplogEntry against bsonsize() of the same entry, 1k to 1M
// array elements, for each $v:2 array shape the server writes.
//
// What: for every shape and size, the ratio of one explainOplogEntry(entry) call
// to one bsonsize(entry) call (the cost of merely serializing the entry once).
// The goal is at most 3x for every shape and size.
// Shapes (src/mongo/db/update/document_diff_serialization.cpp):
//   element writes  {sarr: {a: true, u<i>: {t, v}}}        (a $push of many, a $set of arr.i)
//   resize          {sarr: {a: true, l: n, u<i>: {t, v}}}  (elements written and the array shortened)
//   sub-diffs       {sarr: {a: true, s<i>: {u: {v}}}}      ($set of arr.i.v)
//   whole array     {u: {arr: [{t, v}, ...]}}              (the array logged whole)
// How: mongosh --nodb --quiet bench/explain-oplog-scale.js   (repository root; set
// DBA_LAB_BENCH_MAX_ELEMENTS=100000 to stop at 100k)
// The two sides alternate call by call, each timed with the monotonic clock
// (process.hrtime.bigint); the figure is the median over the repeats. It calls
// the global users call, explainOplogEntry, as loaded by snippets/index.js.
(() => {
  const path = require('path');
  load(path.join(process.cwd(), 'snippets', 'index.js'));
  const maxElements = Number(process.env.DBA_LAB_BENCH_MAX_ELEMENTS) || 1000000;

  const entry = (diff) => ({
    op: 'u', ns: 'bench.c', ui: UUID('437fb549-cfdd-4526-9dd5-9b9bf0eb3547'), o: { $v: 2, diff }, o2: { _id: 1 },
    ts: Timestamp({ t: 1700000000, i: 1 }), t: Long(1), v: Long(2), wall: new Date(0),
  });
  const shapes = {
    'element writes': (n) => {
      const d = { a: true };
      for (let i = 0; i < n; i++) d[`u${i}`] = { t: i, v: i + 0.5 };
      return entry({ sarr: d });
    },
    resize: (n) => {
      const d = { a: true, l: n };
      for (let i = 0; i < n; i++) d[`u${i}`] = { t: i, v: i + 0.5 };
      return entry({ sarr: d });
    },
    'sub-diffs': (n) => {
      const d = { a: true };
      for (let i = 0; i < n; i++) d[`s${i}`] = { u: { v: i + 0.5 } };
      return entry({ sarr: d });
    },
    'whole array': (n) => entry({ u: { arr: Array.from({ length: n }, (_, i) => ({ t: i, v: i + 0.5 })) } }),
  };

  const time = (fn) => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

  print('shape           elements  entry MB  bsonsize ms  explain ms  ratio');
  for (let n = 1000; n <= maxElements; n *= 10) {
    for (const [name, make] of Object.entries(shapes)) {
      const e = make(n);
      const repeats = n >= 1000000 ? 3 : n >= 100000 ? 5 : 15;
      explainOplogEntry(e); bsonsize(e); // warm up
      const a = [];
      const b = [];
      for (let r = 0; r < repeats; r++) {
        a.push(time(() => bsonsize(e)));
        b.push(time(() => explainOplogEntry(e)));
      }
      const ms = median(a);
      const ex = median(b);
      print(`${name.padEnd(15)} ${String(n).padStart(8)}  ${(bsonsize(e) / 1048576).toFixed(2).padStart(8)}  ` +
        `${ms.toFixed(2).padStart(11)}  ${ex.toFixed(2).padStart(10)}  ${(ex / ms).toFixed(2).padStart(5)}`);
    }
  }
})();
