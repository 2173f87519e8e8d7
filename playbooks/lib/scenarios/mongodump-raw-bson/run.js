'use strict';
// The Node driver as a client the playbook times (through timed.py), the way
// the article's hand-written sync tool read and wrote.
//
//   node run.js read  [--uri URI] --db DB --collections a,b [--raw]
//   node run.js write [--uri URI] --db DB --from DIR --collections a,b --prefix P [--batch N] [--batch-bytes B]
//   node run.js drop  [--uri URI] --db DB --collections a,b
//   node run.js server-cpu [--uri URI]
//
// Without --uri the connection string comes from DBA_LAB_CONN_URI: how the
// playbook passes one that has a password (never on a command line).
// read: find({}) on each collection in turn; every document is decoded into a
// JavaScript object unless --raw (the driver's `raw: true` hands over each
// document's BSON bytes as a Buffer, with no decoding: what mongodump does).
// Both loops are identical otherwise, so the difference is the decoding.
// write: reads DIR/<collection>.bson (a mongodump output file), decodes each
// document, and insertMany()s batches of --batch documents (default 10,000, the
// article's sync_buffer_size) or --batch-bytes of BSON (default 16 MiB, so big
// documents do not pile up in memory), unordered like mongorestore's default,
// into P<collection>, the collections in parallel as the article's tool did.
// Prints one JSON line: {docs, bytes, seconds} (seconds inside the process,
// after the connection is made).

const fs = require('fs');
const path = require('path');
const { MongoClient, BSON } = require('mongodb');

function usage(msg) {
  process.stderr.write(`run.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const mode = argv[0];
  if (!['read', 'write', 'drop', 'server-cpu'].includes(mode)) usage(`first argument must be read, write, drop or server-cpu, got ${JSON.stringify(mode)}`);
  const o = { mode, raw: false, batch: 10000, batchBytes: 16 * 1048576 };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      i += 1;
      return argv[i];
    };
    switch (a) {
      case '--uri': o.uri = value(); break;
      case '--db': o.db = value(); break;
      case '--collections': o.collections = value().split(',').filter(Boolean); break;
      case '--from': o.from = value(); break;
      case '--prefix': o.prefix = value(); break;
      case '--batch': o.batch = Number(value()); break;
      case '--batch-bytes': o.batchBytes = Number(value()); break;
      case '--raw': o.raw = true; break;
      default: usage(`unknown argument ${a}`);
    }
  }
  if (!o.uri && process.env.DBA_LAB_CONN_URI) o.uri = process.env.DBA_LAB_CONN_URI;
  if (!o.uri) usage(`${mode} needs --uri (or DBA_LAB_CONN_URI in the environment)`);
  if (mode === 'server-cpu') return o;
  if (!o.db || !o.collections || o.collections.length === 0) usage('--db and --collections are required');
  if (mode === 'write' && (!o.from || !o.prefix)) usage('write needs --from DIR and --prefix P');
  if (!Number.isInteger(o.batch) || o.batch < 1 || o.batch > 100000) usage('--batch must be a whole number from 1 to 100000');
  if (!Number.isInteger(o.batchBytes) || o.batchBytes < 1) usage('--batch-bytes must be a whole number of bytes');
  return o;
}

async function readAll(db, o) {
  let docs = 0;
  let bytes = 0;
  for (const name of o.collections) {
    const cursor = db.collection(name).find({}, { raw: o.raw });
    // Drain whole batches: the same loop for raw and decoded documents.
    while (await cursor.hasNext()) {
      for (const doc of cursor.readBufferedDocuments()) {
        docs += 1;
        if (o.raw) bytes += doc.length;
      }
    }
    await cursor.close();
  }
  return { docs, bytes: o.raw ? bytes : null };
}

// Yields each document of a .bson dump file (length-prefixed BSON documents),
// reading 8 MiB at a time so memory stays flat for any file size.
function* bsonFileDocuments(file) {
  const fd = fs.openSync(file, 'r');
  try {
    let buf = Buffer.alloc(8 * 1048576);
    let start = 0;
    let end = 0;
    for (;;) {
      if (end - start >= 4) {
        const len = buf.readInt32LE(start);
        if (len < 5) throw new Error(`${file}: corrupt BSON length ${len} at a document boundary`);
        if (end - start >= len) {
          yield buf.subarray(start, start + len);
          start += len;
          continue;
        }
        if (len > buf.length) {
          const bigger = Buffer.alloc(len * 2);
          buf.copy(bigger, 0, start, end);
          end -= start;
          start = 0;
          buf = bigger;
        }
      }
      if (start > 0) {
        buf.copy(buf, 0, start, end);
        end -= start;
        start = 0;
      }
      const n = fs.readSync(fd, buf, end, buf.length - end, null);
      if (n === 0) {
        if (end !== start) throw new Error(`${file}: ends inside a document`);
        return;
      }
      end += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

async function writeOne(db, o, name) {
  const file = path.join(o.from, `${name}.bson`);
  if (!fs.existsSync(file)) throw new Error(`no dump file ${file}`);
  const target = db.collection(`${o.prefix}${name}`);
  let docs = 0;
  let bytes = 0;
  let batch = [];
  let batchBytes = 0;
  for (const raw of bsonFileDocuments(file)) {
    batch.push(BSON.deserialize(raw));
    bytes += raw.length;
    batchBytes += raw.length;
    if (batch.length === o.batch || batchBytes >= o.batchBytes) {
      await target.insertMany(batch, { ordered: false });
      docs += batch.length;
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length) {
    await target.insertMany(batch, { ordered: false });
    docs += batch.length;
  }
  return { docs, bytes };
}

// The server process's CPU so far (serverStatus extra_info, reported on
// Linux and macOS; needs the clusterMonitor role or equivalent). Nulls when
// the server does not report it or refuses: the report then says so.
async function serverCpu(client) {
  try {
    const s = await client.db('admin').command({ serverStatus: 1 });
    const x = s.extra_info || {};
    const num = (v) => (v === undefined || v === null ? null : Number(v) / 1e6);
    return { user: num(x.user_time_us), sys: num(x.system_time_us), process: s.process || null, host: s.host || null };
  } catch (err) {
    return { user: null, sys: null, error: err.message };
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const client = new MongoClient(o.uri);
  try {
    await client.connect();
    if (o.mode === 'server-cpu') {
      process.stdout.write(`${JSON.stringify(await serverCpu(client))}\n`);
      return;
    }
    const db = client.db(o.db);
    const t0 = process.hrtime.bigint();
    let result;
    if (o.mode === 'read') {
      result = await readAll(db, o);
    } else if (o.mode === 'drop') {
      // Between timed writes: the targets start empty each time.
      const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
      for (const name of o.collections) if (existing.has(name)) await db.collection(name).drop();
      result = { dropped: o.collections.filter((n) => existing.has(n)) };
    } else {
      const parts = await Promise.all(o.collections.map((c) => writeOne(db, o, c)));
      result = parts.reduce((a, p) => ({ docs: a.docs + p.docs, bytes: a.bytes + p.bytes }), { docs: 0, bytes: 0 });
    }
    result.seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await client.close();
  }
}

main().catch((err) => {
  process.stderr.write(`run.js: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
});
