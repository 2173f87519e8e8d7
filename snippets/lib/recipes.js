'use strict';
// The data sets seedCollection writes: one recipe per source article (docs/articles.md), each a
// deterministic sequence of documents whose sizes are known before anything is
// written, so a dry run is exact and needs no connection.
//
// A recipe's plan is a list of collections, each a list of segments: `count`
// documents made by `make(seq, k, gen)` (seq: position in the collection, k:
// position in the segment). Every document of a segment has the same BSON size
// (fixed-width types only: Int32, Double, Date, ObjectId, ASCII strings of a
// set length), so the size of one sample per segment gives the exact total.

// Fractions of a recipe's full size, named with the words of the playbooks'
// --scale: the two playbooks that size their data with seedCollection seed
// about these fractions at the scale of the same name (mongodump-raw-bson
// exactly; change-stream-resume 2%, 10%, 33%). The default is the smallest:
// a call that names no scale writes the 1% it always wrote.
const SCALES = { tiny: 0.01, small: 0.1, medium: 0.3, full: 1 };
const DEFAULT_SCALE = 'tiny';

// the change-stream-resume article's randomString() alphabet
// (docs/articles.md#change-stream-resume).
const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'latin1');

// ObjectId timestamp of every generated _id: the article's first change event
// (2022-02-15T12:13:25Z), a fixed value so ids, and so resumption, are stable.
const ID_TIME = 1644927205;

// Extra random bytes past the longest string, so documents sharing the pool
// start at different offsets and are not byte-identical.
const POOL_SLACK = 65536;

// mulberry32: tiny, fast, good enough to make test data; not for secrets.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Per-document randomness derived from (seed, collection, seq) rather than
// from one running stream, so a resumed run writes the same values as an
// uninterrupted one.
function docRandom(seed, coll, seq) {
  let h = (seed ^ Math.imul(coll + 1, 0x85EBCA6B) ^ Math.imul(seq + 1, 0x9E3779B1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7FEB352D) >>> 0;
  return prng(h ^ (h >>> 15));
}

// Largest-remainder split of `total` in the given proportions: the parts
// always add up to total exactly.
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let j = 0; left > 0; j++, left--) parts[order[j][1]]++;
  return parts;
}

const MIB = 1048576;

// The change-stream-resume article's seedCollection(): the marker texts and the writeJunk() runs, in
// order. `s` is the marker's randomString length (none when null).
const CHANGE_STREAM_SEQUENCE = [
  { msg: 'This document will be 1Kb', s: 1024 },
  { junk: 100 },
  { msg: '100 6MB documents, then another 1Kb document', s: 1024 },
  { junk: 100 },
  { msg: 'And another 100 6MB documents, then another 1Kb document', s: 1024 },
  { msg: '... followed immediately by a 1MB document', s: MIB },
  { junk: 100 },
  { msg: '100 6MB documents preceded this 3MB document', s: 3 * MIB },
  { msg: '... followed by another 1MB document', s: MIB },
  { junk: 500 },
  { msg: '500 6MB documents added', s: null },
  { junk: 200 },
  { msg: '200 6MB documents added', s: null },
  { msg: 'Adding 2000 more 6MB documents...', s: null },
  { junk: 2000 },
  { msg: "This is the last document we'd expect", s: null },
];
const CHANGE_STREAM_JUNK = CHANGE_STREAM_SEQUENCE.filter((x) => x.junk).map((x) => x.junk);

const SENSOR_FIELDS = ['temp', 'hum', 'pm25', 'pm10', 'no2', 'co'];
const TICKERS = ['PIP', 'ACM', 'GLX', 'ZNT'];
const SHARD_KEY_RANGE = 100000000;

// Each recipe: what it reproduces, the meaning of `docs` and `size` for it,
// and plan(o) where o = {name, docs, size, collections} after defaults.
const RECIPES = {
  'change-stream-resume': {
    article: 'Performance Analysis of Resuming a MongoDB Change Stream',
    summary: 'ten marker documents (the article\'s exact `msg` texts) between runs of 100/100/100/500/200/2000 junk documents {i, s} of 6 MiB',
    full: 3000,
    docs: 'junk documents in all, split 100:100:100:500:200:2000 as the article does',
    size: 'BSON size of each junk document (default: the article\'s 6 MiB string, 6291493 bytes)',
    ordered: true,
    plan(o, junkOverhead) {
      const counts = apportion(o.docs, CHANGE_STREAM_JUNK);
      const strLen = o.size === undefined ? 6 * MIB : o.size - junkOverhead;
      let run = 0;
      const segments = CHANGE_STREAM_SEQUENCE.map((step) => {
        if (step.junk) {
          return {
            kind: 'junk', count: counts[run++], strLen,
            make: (seq, k, g) => ({ _id: g.id(seq), i: k, s: g.str(strLen, seq) }),
          };
        }
        return {
          kind: 'marker', count: 1, strLen: step.s || 0, msg: step.msg,
          make: step.s === null
            ? (seq, k, g) => ({ _id: g.id(seq), msg: step.msg })
            : (seq, k, g) => ({ _id: g.id(seq), msg: step.msg, s: g.str(step.s, seq) }),
        };
      });
      return [{ name: o.name, segments }];
    },
  },
  'tiny-docs': {
    article: 'Why mongodump is fast',
    summary: 'N collections <name>_1..<name>_N of documents {a: "b"} (full: 4 x 1,000,000)',
    full: 1000000,
    docs: 'documents per collection',
    size: null,
    collections: 4,
    plan(o) {
      const out = [];
      for (let c = 1; c <= o.collections; c++) {
        out.push({
          name: `${o.name}_${c}`,
          segments: [{ kind: 'tiny', count: o.docs, strLen: 0, make: (seq, k, g) => ({ _id: g.id(seq), a: 'b' }) }],
        });
      }
      return out;
    },
  },
  'sensor-hourly': {
    article: 'Arrays and Replication: A MongoDB Performance Pitfall',
    summary: 'hourly documents {device, hour, readings: [3600 x {s, temp, hum, pm25, pm10, no2, co}]} of ~98 bytes per reading (full: 50 devices x 24 hours)',
    full: 1200,
    docs: 'hourly documents (device = n % 50, hour = n / 50 from 2013-05-01)',
    size: null,
    plan(o) {
      const start = Date.UTC(2013, 4, 1);
      return [{
        name: o.name,
        segments: [{
          kind: 'hourly', count: o.docs, strLen: 0,
          make: (seq, k, g) => {
            const r = g.random(seq);
            const readings = new Array(3600);
            for (let s = 0; s < 3600; s++) {
              const reading = { s: new g.bson.Int32(s) };
              // x.xx5: never integral, so a reader's JS number stays a double
              // when written back (integral ones would shrink to int32).
              for (const f of SENSOR_FIELDS) reading[f] = new g.bson.Double((Math.floor(r() * 100000) + 0.5) / 100);
              readings[s] = reading;
            }
            return {
              _id: g.id(seq),
              device: new g.bson.Int32(seq % 50),
              hour: new Date(start + Math.floor(seq / 50) * 3600000),
              readings,
            };
          },
        }],
      }];
    },
  },
  ticker: {
    article: 'Topics: A Queue With Publishers and Subscribers',
    summary: 'ticks {time, ticker, price} one second apart from 2014-01-01T10:01:22Z, four 3-letter symbols (full: 100,000, the article\'s capped max)',
    full: 100000,
    docs: 'ticks',
    size: null,
    plan(o) {
      const start = Date.UTC(2014, 0, 1, 10, 1, 22);
      return [{
        name: o.name,
        segments: [{
          kind: 'tick', count: o.docs, strLen: 0,
          make: (seq, k, g) => ({
            _id: g.id(seq),
            time: new Date(start + seq * 1000),
            ticker: TICKERS[seq % TICKERS.length],
            price: new g.bson.Double(100 * g.random(seq)()),
          }),
        }],
      }];
    },
  },
  'sharded-ids': {
    article: 'MongoDB Routing Info Storage & Refresh Optimization',
    summary: 'documents {id, s} with a numeric shard key `id` spread evenly over 0..100,000,000 (full: 2,000,000, the article\'s 2M-chunk cluster)',
    full: 2000000,
    docs: 'documents',
    size: 'BSON size of each document (default 102 bytes: a 64-character `s`)',
    plan(o, overhead) {
      const strLen = o.size === undefined ? 64 : o.size - overhead;
      const step = Math.max(1, Math.floor(SHARD_KEY_RANGE / Math.max(1, o.docs)));
      return [{
        name: o.name,
        segments: [{
          kind: 'keyed', count: o.docs, strLen,
          make: (seq, k, g) => ({ _id: g.id(seq), id: new g.bson.Int32(seq * step), s: g.str(strLen, seq) }),
        }],
      }];
    },
  },
  padded: {
    seed: null,
    summary: 'documents {i, s} padded to exactly `size` bytes (the default recipe: give docs and size)',
    full: null,
    docs: 'documents (required)',
    size: 'BSON size of each document (default 1 KB)',
    plan(o, overhead) {
      const strLen = (o.size === undefined ? 1024 : o.size) - overhead;
      return [{
        name: o.name,
        segments: [{
          kind: 'padded', count: o.docs, strLen,
          make: (seq, k, g) => ({ _id: g.id(seq), i: new g.bson.Int32(seq), s: g.str(strLen, seq) }),
        }],
      }];
    },
  },
};

// The smallest document of recipes that take `size`: the part that is not
// the padding string.
const SIZE_TEMPLATES = {
  'change-stream-resume': (b) => ({ _id: new b.ObjectId(), i: 0, s: '' }),
  'sharded-ids': (b) => ({ _id: new b.ObjectId(), id: new b.Int32(0), s: '' }),
  padded: (b) => ({ _id: new b.ObjectId(), i: new b.Int32(0), s: '' }),
};

// Estimated per-entry overhead of an insert in the oplog beyond the document:
// {op, ns, ui, o, o2: {_id}, ts, t, v, wall}. `wall` is on every entry since
// 4.0 (jstests/replsets/oplog_wallclock.js); counting o2 (the document key,
// not on every version's inserts) errs on the large side, which is the safe
// side for sizing an oplog.
function oplogEntryOverhead(shell, ns) {
  const b = shell.bson;
  const id = new b.ObjectId();
  const entry = {
    op: 'i', ns, ui: new b.UUID(), o: {}, o2: { _id: id },
    ts: new b.Timestamp({ t: ID_TIME, i: 1 }), t: new b.Long(1), v: new b.Long(2), wall: new Date(0),
  };
  return shell.bsonsize(entry) - shell.bsonsize({});
}

module.exports = function recipes(shell) {
  const b = shell.bson;

  // Generator context handed to make(): ids, strings, per-document randomness.
  // `measure` uses repeat() strings of the same length: same BSON size, no pool.
  function generator(seed, coll, maxStr, measure) {
    let pool = null;
    // _id = fixed time, then (seed, collection), then the position: ids
    // sort in write order, and a rerun finds what an earlier run wrote.
    const idHead = Buffer.alloc(8);
    idHead.writeUInt32BE(ID_TIME, 0);
    idHead.writeUInt32BE((seed ^ Math.imul(coll, 0x01000193)) >>> 0, 4);
    return {
      bson: b,
      id(seq) {
        const buf = Buffer.alloc(12);
        idHead.copy(buf, 0);
        buf.writeUInt32BE(seq >>> 0, 8);
        return new b.ObjectId(buf);
      },
      random: (seq) => docRandom(seed, coll, seq),
      str(len, seq) {
        if (len === 0) return '';
        if (measure) return 'x'.repeat(len);
        if (!pool) pool = makePool(seed, maxStr + POOL_SLACK);
        const span = pool.length - len + 1;
        const off = (seq * 4099) % span;
        return pool.toString('latin1', off, off + len);
      },
    };
  }

  // One PRNG draw gives four characters (one per byte, through a 256-entry
  // table; the slight bias toward the first letters does not matter here).
  function makePool(seed, n) {
    const r = prng(seed ^ 0x5EED);
    const table = Buffer.alloc(256);
    for (let i = 0; i < 256; i++) table[i] = ALPHABET[i % ALPHABET.length];
    const buf = Buffer.allocUnsafe(n + 3);
    for (let i = 0; i < n; i += 4) {
      const x = (r() * 4294967296) >>> 0;
      buf[i] = table[x & 255];
      buf[i + 1] = table[(x >>> 8) & 255];
      buf[i + 2] = table[(x >>> 16) & 255];
      buf[i + 3] = table[x >>> 24];
    }
    return buf.subarray(0, n);
  }

  // Resolve a recipe and validated options into collections with exact sizes:
  // [{name, docs, bytes, segments: [{count, docSize, ...}]}].
  function plan(recipeName, o) {
    const recipe = RECIPES[recipeName];
    const overhead = SIZE_TEMPLATES[recipeName] ? shell.bsonsize(SIZE_TEMPLATES[recipeName](b)) : 0;
    const colls = recipe.plan(o, overhead);
    return colls.map((c, ci) => {
      const maxStr = Math.max(0, ...c.segments.map((s) => s.strLen));
      const measure = generator(o.seed, ci, maxStr, true);
      let seq = 0;
      let docs = 0;
      let bytes = 0;
      const segments = c.segments.map((s) => {
        const docSize = s.count > 0 ? shell.bsonsize(s.make(seq, 0, measure)) : 0;
        const seg = { ...s, first: seq, docSize };
        seq += s.count;
        docs += s.count;
        bytes += s.count * docSize;
        return seg;
      });
      return { name: c.name, index: ci, docs, bytes, maxStr, segments };
    });
  }

  // Documents of one planned collection from position `from`, in order.
  function* documents(coll, seed, from = 0) {
    const g = generator(seed, coll.index, coll.maxStr, false);
    for (const s of coll.segments) {
      const end = s.first + s.count;
      for (let seq = Math.max(from, s.first); seq < end; seq++) {
        yield { doc: s.make(seq, seq - s.first, g), size: s.docSize, seq };
      }
    }
  }

  return {
    SCALES, DEFAULT_SCALE, RECIPES, plan, documents, apportion,
    minSize: (name) => (SIZE_TEMPLATES[name] ? shell.bsonsize(SIZE_TEMPLATES[name](b)) : null),
    oplogEntryOverhead: (ns) => oplogEntryOverhead(shell, ns),
    idFor: (seed, coll, seq) => generator(seed, coll, 0, true).id(seq),
  };
};

module.exports.SCALES = SCALES;
module.exports.RECIPE_NAMES = Object.keys(RECIPES);
