'use strict';
// Writes a mongodump-style local/oplog.rs.bson of a given size from the
// entries of tests/fixtures/oplog-audit/entries.js (each shaped as the server
// writes it, source named there), repeated with new times: every copy keeps
// its template's shape and size, only ts and wall move on.
//
//   node bench/oplog-audit-gen.js --bytes N --out FILE [--storable] [--gzip]
//     --storable  only entries a server refusing '$' field names (FerretDB)
//                 can store: no $v/$set updates
//     --gzip      write it gzip-compressed, as mongodump --gzip does
// Prints one JSON line: {file, bytes, entries, templates}.
//
// A cycle writes the templates in a mix closer to a busy oplog than one of
// each: inserts, small updates and deletes outnumber whole-array rewrites.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const bson = require('bson');

const WEIGHTS = { insert: 20, 'v2-fields': 10, 'v2-elements': 10, delete: 10, 'v1-set': 4 };
const AT = 1700000000;

function args(argv) {
  const out = { bytes: 0, out: '', storable: false, gzip: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--bytes') out.bytes = Number(argv[++i]);
    else if (a === '--out') out.out = argv[++i];
    else if (a === '--storable') out.storable = true;
    else if (a === '--gzip') out.gzip = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(out.bytes) || out.bytes <= 0 || !out.out) {
    throw new Error('usage: node bench/oplog-audit-gen.js --bytes N --out FILE [--storable] [--gzip]');
  }
  return out;
}

function hasDollarKey(x) {
  return x !== null && typeof x === 'object' && !x._bsontype && !(x instanceof Date) &&
    Object.keys(x).some((k) => k[0] === '$' || hasDollarKey(x[k]));
}

// Offsets of the top-level ts (Timestamp: increment, then seconds) and wall
// (Date: int64 ms) values, so a copy is the template's bytes with those patched.
function template(entry) {
  const buf = Buffer.from(bson.serialize(entry));
  const t = { buf };
  for (const el of bson.onDemand.parseToElements(buf, 0)) {
    const name = buf.toString('utf8', el[1], el[1] + el[2]);
    if (name === 'ts') t.ts = el[3];
    if (name === 'wall') t.wall = el[3];
  }
  return t;
}

function main() {
  const o = args(process.argv.slice(2));
  const list = require(path.join(__dirname, '..', 'tests', 'fixtures', 'oplog-audit', 'entries.js'))(bson, AT);
  const cycle = [];
  for (const x of list) {
    if (o.storable && hasDollarKey(x.entry)) continue;
    const t = template(x.entry);
    for (let k = 0; k < (WEIGHTS[x.name] || 1); k++) cycle.push(t);
  }
  const fd = fs.openSync(o.out, 'w');
  const gz = o.gzip;
  const chunks = [];
  let pending = 0;
  const flush = () => {
    const b = Buffer.concat(chunks, pending);
    if (gz) fs.writeSync(fd, zlib.gzipSync(b));
    else fs.writeSync(fd, b);
    chunks.length = 0;
    pending = 0;
  };
  let written = 0;
  let n = 0;
  while (written < o.bytes) {
    const t = cycle[n % cycle.length];
    const copy = Buffer.from(t.buf);
    // 100 entries a second: a day of oplog per 8.6 million entries.
    const seconds = AT + Math.floor(n / 100);
    copy.writeUInt32LE((n % 100) + 1, t.ts);
    copy.writeUInt32LE(seconds, t.ts + 4);
    if (t.wall !== undefined) copy.writeBigInt64LE(BigInt(seconds) * 1000n, t.wall);
    chunks.push(copy);
    pending += copy.length;
    written += copy.length;
    n++;
    if (pending >= 8 << 20) flush();
  }
  if (pending) flush();
  fs.closeSync(fd);
  // Concatenated gzip members are one gzip stream to every reader (RFC 1952).
  process.stdout.write(`${JSON.stringify({ file: o.out, bytes: written, entries: n, templates: cycle.length })}\n`);
}

main();
