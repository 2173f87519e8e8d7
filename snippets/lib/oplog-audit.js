'use strict';
// Oplog audit concern: oplogAudit. What fills an oplog, per namespace, op,
// update form, field and whole array, over a time range of a live member's
// local.oplog.rs, of an oplog restored into any collection, or of a mongodump
// .bson file. Classification is oplog-classify.js, the same for all three;
// this file reads the entries.

const { readBsonFile } = require('./bson-file.js');
const bsonReader = require('./bson-read.js');

const FN = 'oplogAudit';
const SLICES = 20;
const BATCH = 1000;
// Entries the shell works through before it lets a batch's reply in.
const CHUNK = 100;
const PROGRESS_EVERY_MS = 2000;
const DEFAULT_MAX_TIME_MS = 60000;
const OPTIONS = ['last', 'since', 'until', 'file', 'collection', 'oplogSize', 'maxTimeMS'];
const EXAMPLE = "{last: '6h'}";
// What the audit needs of an insert, a delete or a no-op.
const TOP_FIELDS = new Set(['ns', 'op', 'ts']);

// seams.bsonLibrary: a test's stand-in for the search of the shell's bson
// library (() => null reads files as the standalone binary does).
function makeAudit(shell, seams = {}) {
  const ex = require('./oplog-explain.js')(shell);
  const sv = require('./oplog-server.js')(shell, ex);
  const classify = require('./oplog-classify.js')(shell, ex);
  const fail = (m) => shell.error(FN, m);

  function progress(started, state, text) {
    if (Date.now() - state.shown < PROGRESS_EVERY_MS) return;
    state.shown = Date.now();
    shell.print(`${FN}: ${text} (${Math.round((Date.now() - started) / 1000)} s)`);
  }

  function parseOptions(options) {
    const o = shell.options(FN, options, OPTIONS, EXAMPLE);
    if (o.last !== undefined && o.since !== undefined) throw fail("give 'last' or 'since', not both");
    if (o.last !== undefined && (typeof o.last !== 'string' || !/^\s*\d+(\.\d+)?\s*[smhd]\s*$/i.test(o.last))) {
      throw fail(`'last' must be a duration such as '30m', '6h', '2d'; got ${shell.describe(o.last)}`);
    }
    if (o.file !== undefined && (typeof o.file !== 'string' || o.file === '')) {
      throw fail(`'file' must be the path of a .bson file (mongodump -d local -c oplog.rs), got ${shell.describe(o.file)}`);
    }
    if (o.file !== undefined && o.collection !== undefined) throw fail("give 'file' or 'collection', not both");
    if (o.collection !== undefined && !shell.isCollection(o.collection) && !(typeof o.collection === 'string' && o.collection.includes('.'))) {
      throw fail(`'collection' must be a collection (db.getSiblingDB('support').oplog) or 'db.collection', got ${shell.describe(o.collection)}`);
    }
    let oplogBytes;
    if (o.oplogSize !== undefined) {
      oplogBytes = shell.parseBytes(o.oplogSize);
      if (!oplogBytes) throw fail(`'oplogSize' must be a size such as '50GB' or a number of bytes, got ${shell.describe(o.oplogSize)}`);
    }
    const maxTimeMS = sv.checkMaxTime(FN, o.maxTimeMS, DEFAULT_MAX_TIME_MS);
    return { ...o, oplogBytes, maxTimeMS };
  }

  // The range asked for, resolved against the audited oplog's newest entry
  // (a duration is before it, not before the client's clock).
  function parseRange(o, now) {
    if (o.last !== undefined) return { since: sv.parseTime(FN, 'last', o.last, now, false), until: null };
    return {
      since: o.since === undefined ? null : sv.parseTime(FN, 'since', o.since, now, false),
      until: o.until === undefined ? null : sv.parseTime(FN, 'until', o.until, now, true),
    };
  }

  function tsText(ts) {
    return `${sv.tsDate(ts).toISOString()} (Timestamp(${sv.tsSeconds(ts)}, ${sv.tsIncrement(ts)}))`;
  }

  // Both ends of the range must fall inside what the oplog holds; an end past
  // it is cut to it, a range wholly outside it is refused.
  function checkRange(range, first, last, where) {
    if (range.until && range.since && sv.compareTs(range.until, range.since) < 0) throw fail("'until' is before 'since'");
    if ((range.until && sv.compareTs(range.until, first) < 0) || (range.since && sv.compareTs(range.since, last) > 0)) {
      throw fail(`the time range is outside the oplog: ${where} holds ${tsText(first)} to ${tsText(last)}`);
    }
    return {
      since: range.since && sv.compareTs(range.since, first) > 0 ? range.since : first,
      until: range.until && sv.compareTs(range.until, last) < 0 ? range.until : last,
    };
  }

  // ---- offline: a .bson file ------------------------------------------------

  // mongosh's own BSON library, the one its ObjectId and Timestamp come from,
  // or null. The shell has no global with deserialize() (its EJSON reads JSON,
  // and the bson subset its service provider keeps has no reader): a mongosh
  // installed from npm has loaded the package as a module, found here by its
  // classes being the shell's. The standalone binary bundles it out of reach.
  function shellBsonLibrary() {
    for (const key of Object.keys(require.cache)) {
      const lib = require.cache[key] && require.cache[key].exports;
      if (lib && typeof lib.deserialize === 'function' && lib.ObjectId && lib.ObjectId.prototype === shell.bson.ObjectId.prototype) {
        return lib;
      }
    }
    return null;
  }
  const findLibrary = seams.bsonLibrary || shellBsonLibrary;

  function stringAt(buf, el) {
    // A BSON string: int32 length (with the NUL), the bytes, a NUL.
    return buf.toString('utf8', el[3] + 4, el[3] + el[4] - 1);
  }

  // {topLevel(buf), entry(buf)}: topLevel gives at least ns, op and ts;
  // entry gives what the classification reads of a BSON entry, the whole
  // entry for updates and commands (their o is classified), the top level
  // alone for the rest, which are counted by ns, op and size. The offline and
  // the live raw paths both read entries with it. The shell's library when it
  // is in reach, being its own reader and the faster one (bench/oplog-
  // audit.md); else bson-read.js, which gives the same values.
  // malformed(m): the caller's error for a document that is not BSON.
  function entryReader(malformed) {
    const lib = findLibrary();
    let topLevel;
    let full;
    if (!lib) {
      const read = bsonReader(shell.bson, malformed);
      // Kept only with the types the library path keeps them with.
      topLevel = (buf) => {
        const out = read.top(buf, TOP_FIELDS);
        if (typeof out.op !== 'string') delete out.op;
        if (typeof out.ns !== 'string') delete out.ns;
        if (!out.ts || out.ts._bsontype !== 'Timestamp') delete out.ts;
        return out;
      };
      full = read;
    } else {
      const { Timestamp } = shell.bson;
      const parseTop = lib.onDemand && typeof lib.onDemand.parseToElements === 'function' ? lib.onDemand.parseToElements : null;
      full = (buf) => lib.deserialize(buf);
      // ns, op and ts from the top level only: an insert or a delete is
      // counted without parsing its document.
      topLevel = !parseTop ? full : (buf) => {
        const out = {};
        for (const el of parseTop(buf, 0)) {
          if (el[2] !== 2) continue;
          const a = buf[el[1]];
          const b = buf[el[1] + 1];
          if (a === 0x6f && b === 0x70 && el[0] === 2) out.op = stringAt(buf, el);
          else if (a === 0x6e && b === 0x73 && el[0] === 2) out.ns = stringAt(buf, el);
          else if (a === 0x74 && b === 0x73 && el[0] === 17) out.ts = new Timestamp({ t: buf.readUInt32LE(el[3] + 4), i: buf.readUInt32LE(el[3]) });
        }
        return out;
      };
    }
    const entry = (buf, top = topLevel(buf)) => (full !== topLevel && (top.op === 'u' || top.op === 'c' || top.op === undefined) ? full(buf) : top);
    return { topLevel, entry };
  }

  const auditFile = shell.async(FN, async (o) => {
    let entries = 0;
    const { topLevel, entry: readEntry } = entryReader((m) => fail(`${JSON.stringify(o.file)} is not a BSON dump: entry ${entries} is malformed ${m}`));
    const started = Date.now();
    const shown = { shown: started };
    const onProgress = ({ fileBytes, fileSize, documents }) => progress(started, shown,
      `read ${documents} entries, ${shell.formatBytes(fileBytes)} of ${shell.formatBytes(fileSize)} (${fileSize ? Math.floor((100 * fileBytes) / fileSize) : 100}%)`);
    let range = null;
    if (o.last !== undefined || o.since !== undefined || o.until !== undefined) {
      // A dump's newest entry is known only at its end: a first pass finds
      // both ends (reading ts alone), the second audits the range.
      let first = null;
      let last = null;
      await readBsonFile(o.file, {
        fail,
        onProgress,
        onDocument: (buf) => {
          entries++;
          const { ts } = topLevel(buf);
          if (!ts || ts._bsontype !== 'Timestamp') return;
          if (!first || sv.compareTs(ts, first) < 0) first = ts;
          if (!last || sv.compareTs(ts, last) > 0) last = ts;
        },
      });
      if (!first) throw fail(`${JSON.stringify(o.file)} holds no oplog entries (no document has a Timestamp ts)`);
      range = checkRange(parseRange(o, last), first, last, `the file ${JSON.stringify(o.file)}`);
      entries = 0;
    }
    const state = classify.create();
    const info = await readBsonFile(o.file, {
      fail,
      onProgress,
      onDocument: (buf) => {
        entries++;
        const top = topLevel(buf);
        if (range && (!top.ts || sv.compareTs(top.ts, range.since) < 0 || sv.compareTs(top.ts, range.until) > 0)) return;
        classify.add(state, readEntry(buf, top), buf.length);
      },
    });
    const source = { kind: 'file', name: o.file, gzip: info.gzip, fileBytes: info.fileBytes };
    if (range) {
      const shown = range.given || range;
      if (shown.since) source.since = shown.since;
      if (shown.until) source.until = shown.until;
    }
    return classify.result(state, source, o.oplogBytes ? { maxBytes: o.oplogBytes } : {});
  });

  // ---- live: local.oplog.rs or a restored collection ------------------------

  // Reads go to a secondary when the connection can reach one (a direct
  // connection reads the member it is connected to).
  const READ = { readPreference: 'secondaryPreferred' };

  // The oldest (dir 1) or newest (dir -1) entry's ts. The oplog's natural
  // order is its ts order, so this reads one record; a restored copy has
  // neither that order nor an index on ts, and is sorted by ts.
  async function edge(coll, isOplog, dir) {
    try {
      const cursor = await coll.find({ ts: { $type: 'timestamp' } }, { ts: 1 }, READ);
      const docs = await cursor.sort(isOplog ? { $natural: dir } : { ts: dir }).limit(1).toArray();
      return docs[0] ? docs[0].ts : null;
    } catch (err) {
      throw sv.serverError(FN, err);
    }
  }

  // Every entry of the cursor to onDoc, in order. The driver asks for the
  // next batch only when the shell has taken the last entry of the current
  // one, so read entry by entry the server and the shell take turns, each
  // idle while the other works. Here a reader takes entries off the cursor
  // into a queue as they arrive, asking for the next batch as soon as one is
  // drained, and onDoc works through the queue, yielding to the event loop
  // every CHUNK entries: the next batch's getMore is sent, and its reply
  // taken in, while the shell works on the one before. The queue holds two
  // batches at most: past that, the reader waits.
  async function collect(cursorPromise, onDoc, onChunk) {
    let cursor;
    let queue = [];
    let readerDone = false;
    let stop = false;
    let wakeWorker = null;
    let wakeReader = null;
    const wake = (w) => { if (w) w(); return null; };
    let failure = null;
    // Never rejects: its error is the worker's to throw.
    const reader = async () => {
      try {
        for await (const doc of cursor) {
          queue.push(doc);
          wakeWorker = wake(wakeWorker);
          if (queue.length >= 2 * BATCH) await new Promise((r) => { wakeReader = r; });
          if (stop) break;
        }
      } catch (err) {
        failure = err;
      } finally {
        readerDone = true;
        wakeWorker = wake(wakeWorker);
      }
    };
    let reading = null;
    try {
      cursor = await cursorPromise;
      reading = reader();
      for (;;) {
        if (failure) throw failure;
        if (!queue.length) {
          if (readerDone) break;
          await new Promise((r) => { wakeWorker = r; });
          continue;
        }
        const docs = queue;
        queue = [];
        wakeReader = wake(wakeReader);
        for (let k = 0; k < docs.length; k++) {
          onDoc(docs[k]);
          if ((k + 1) % CHUNK === 0) await new Promise(setImmediate);
        }
        if (onChunk) onChunk();
        await new Promise(setImmediate);
      }
    } finally {
      stop = true;
      wakeReader = wake(wakeReader);
      if (reading) await reading;
      // Ctrl-C or an error part-way: kill the server's cursor now, not at its
      // 10-minute idle timeout.
      if (cursor && !cursor.isClosed()) await cursor.close();
    }
  }

  const NOT_GROUPED = ['u', 'c'];

  const auditLive = shell.async(FN, async (o) => {
    const db = shell.db(FN);
    let coll;
    let isOplog = false;
    if (o.collection === undefined) {
      // The shell's own hello(): it falls back to isMaster on servers older
      // than hello (4.4.2, 4.2.10, 4.0.21).
      const h = await db.hello();
      const reason = sv.noOplogReason(h);
      if (reason) throw fail(`needs a replica set member; ${reason} (an oplog dump reads offline: oplogAudit({file: 'dump/local/oplog.rs.bson'}))`);
      coll = db.getSiblingDB('local').getCollection('oplog.rs');
      isOplog = true;
    } else if (typeof o.collection === 'string') {
      const dot = o.collection.indexOf('.');
      coll = db.getSiblingDB(o.collection.slice(0, dot)).getCollection(o.collection.slice(dot + 1));
    } else {
      coll = o.collection;
    }
    const name = coll.getFullName();
    const noEntries = () => fail(`${name} holds no oplog entries (no document with a Timestamp ts)`);
    const ranged = o.last !== undefined || o.since !== undefined || o.until !== undefined;
    let first = null;
    let last = null;
    let range = null;
    const edges = async () => {
      [first, last] = [await edge(coll, isOplog, 1), await edge(coll, isOplog, -1)];
      if (!first || !last) throw noEntries();
    };
    if (isOplog) {
      await edges();
      range = checkRange(parseRange(o, last), first, last, name);
    } else if (ranged) {
      // Each end of a copy costs a pass: only {last} needs one before the
      // audit; a range outside the copy shows as an empty audit, checked then.
      const isDuration = (x) => typeof x === 'string' && /^\s*\d+(\.\d+)?\s*[smhd]\s*$/i.test(x);
      let newest = null;
      if (o.last !== undefined || isDuration(o.since) || isDuration(o.until)) {
        newest = await edge(coll, false, -1);
        if (!newest) throw noEntries();
      }
      const r = parseRange(o, newest);
      if (r.until && r.since && sv.compareTs(r.until, r.since) < 0) throw fail("'until' is before 'since'");
      range = { since: r.since || sv.makeTs(0, 0), until: r.until || sv.makeTs(0xFFFFFFFF, 0xFFFFFFFF), given: r };
    }

    let maxBytes = o.oplogBytes;
    if (isOplog && !maxBytes) {
      try {
        const [stats] = await (await coll.aggregate([{ $collStats: { storageStats: {} } }])).toArray();
        maxBytes = stats && stats.storageStats && ex.toNumber(stats.storageStats.maxSize);
      } catch (err) {
        throw sv.serverError(FN, err);
      }
    }

    const state = classify.create();
    const started = Date.now();
    const shown = { shown: started };
    // $bsonSize (4.4+) lets the server size and group what needs no reading
    // (inserts, deletes, no-ops) and size the rest; without it (FerretDB,
    // older servers) every entry comes to the shell, as its BSON bytes.
    let serverSizes = true;
    const { entry: rawEntry } = entryReader((m) => fail(`${name} sent an entry that is not BSON: ${m}`));
    const onChunk = () => progress(started, shown, `read ${state.entries} entries (${shell.formatBytes(state.bytes)})`);
    // A restored copy's documents carry the _id the server gave each insert;
    // local.oplog.rs entries have none, and the audit sizes them as they were.
    const unId = isOplog ? [] : [{ $project: { _id: 0 } }];
    // The oplog is read in slices of its range, each starting where its ts
    // starts (ts is the oplog's record key); without that key (a restored
    // copy) each slice would be a whole scan, so a copy is read in one pass.
    const slices = !range ? [{}] : isOplog ? sv.scanSlices(range.since, range.until, SLICES) :
      [{ ts: { $gte: range.since, $lte: range.until } }];
    const options = { ...READ, maxTimeMS: o.maxTimeMS, batchSize: BATCH };
    for (let k = 0; k < slices.length; k++) {
      const slice = slices[k];
      try {
        if (serverSizes) {
          try {
            await collect(coll.aggregate([
              { $match: { ...slice, op: { $nin: NOT_GROUPED } } },
              ...unId,
              { $project: { ns: 1, op: 1, ts: 1, b: { $bsonSize: '$$ROOT' } } },
              { $group: { _id: { ns: '$ns', op: '$op' }, entries: { $sum: 1 }, bytes: { $sum: '$b' }, min: { $min: '$b' }, max: { $max: '$b' }, first: { $min: '$ts' }, last: { $max: '$ts' } } },
            ], options), (g) => classify.addGroup(state, { ns: g._id.ns, op: g._id.op, entries: g.entries, bytes: g.bytes, min: g.min, max: g.max, first: g.first, last: g.last }));
          } catch (err) {
            if (!/\$bsonSize/.test(String(err && err.message))) throw err;
            serverSizes = false;
          }
        }
        if (serverSizes) {
          await collect(coll.aggregate([
            { $match: { ...slice, op: { $in: NOT_GROUPED } } },
            ...unId,
            { $project: { _id: 0, ts: 1, op: 1, ns: 1, o: 1, o2: 1, lsid: 1, txnNumber: 1, b: { $bsonSize: '$$ROOT' } } },
          ], options), (e) => { const b = ex.toNumber(e.b); delete e.b; classify.add(state, e, b); }, onChunk);
        } else {
          // raw (a driver option find() passes on): each entry as the
          // server's BSON bytes, its size their length, read as a dump's
          // entries are. A shell that ignores the option gives documents,
          // sized with bsonsize().
          await collect(coll.find(slice, isOplog ? {} : { _id: 0 }, { ...options, raw: true }),
            (e) => (Buffer.isBuffer(e) ? classify.add(state, rawEntry(e), e.length) : classify.add(state, e, shell.bsonsize(e))), onChunk);
        }
      } catch (err) {
        throw sv.serverError(FN, err, o.maxTimeMS);
      }
      if (k + 1 < slices.length) progress(started, shown, `read ${state.entries} entries (${shell.formatBytes(state.bytes)}), ${k + 1}/${slices.length} of the range`);
    }
    if (!state.entries && range && !isOplog) {
      await edges();
      checkRange(parseRange(o, last), first, last, name);
    }
    if (!state.entries) throw noEntries();
    const source = { kind: isOplog ? 'oplog' : 'collection', name, serverSizes };
    if (range) {
      const shown = range.given || range;
      if (shown.since) source.since = shown.since;
      if (shown.until) source.until = shown.until;
    }
    return classify.result(state, source, { first, last, maxBytes });
  });

  const oplogAudit = shell.withHelp(function oplogAudit(options) {
    const o = parseOptions(options);
    return o.file !== undefined ? auditFile(o) : auditLive(o);
  }, `
oplogAudit(options?)
  What fills an oplog: per namespace and op, per update form, field and whole
  array, with applyOps (transactions, batched writes) unwrapped. Reads only.

  oplogAudit({last: '6h'})             the last 6 hours of this member's oplog
  oplogAudit({since, until})           Timestamp, Date, ISO string or a duration
                                       before the newest entry ('30m', '2h', '1d')
  oplogAudit()                         the whole oplog
  oplogAudit({file: 'dump/local/oplog.rs.bson'})
                                       offline: mongodump -d local -c oplog.rs
                                       output, plain or --gzip; takes since/until/last;
                                       the standalone mongosh binary reads it too,
                                       with the snippet's own BSON reader (slower)
  oplogAudit({collection: db.getSiblingDB('support').oplog})
                                       an oplog restored into any collection
    oplogSize   the oplog's configured size ('50GB'), for the window at the
                audited rate (live: read from the oplog itself)
    maxTimeMS   server time limit of each batch (default 60000)

  Live, it reads from a secondary where the connection allows, in 20 slices of
  the range, each a bounded batch with maxTimeMS; with $bsonSize (4.4+) the
  server sizes every entry and groups inserts, deletes and no-ops itself, and
  only updates and commands come to the shell. Long scans print a progress line;
  Ctrl-C closes the open cursor.

  Returns {source, first, last, seconds, entries, bytes,
           byNamespace: [{ns, op, entries, bytes: {total, min, max, mean}, share}],
           updateForms: [{ns, form, description, entries, bytes}],
           wholeArrays: [{ns, field, entries, bytes, maxElements, exampleId, rewrite}],
           topFields: [{ns, field, entries, bytes, exampleId}],
           transactions: {applyOpsEntries, bytes, innerOps, committed, partial,
                          prepared, batchedWrites, commits, aborts},
           window: {nowSeconds, nowHours, maxBytes?, auditedBytesPerHour?,
                    hoursAtAuditedRate?}, skipped?}
    byNamespace  applyOps inner ops under their own ns and op; the applyOps
                 envelope's bytes are in transactions.bytes
    form         v1, v1-whole-array, v2-whole-array, v2-elements, v2-fields,
                 replacement. An $addToSet of a new element is a whole
                 array before 7.1 and an element write from 7.1 (SERVER-72941)
    field        a dotted path, array positions as $ (readings.$)

  Examples:
    oplogAudit({last: '6h'})
    oplogAudit({file: 'dump/local/oplog.rs.bson.gz', oplogSize: '50GB'}).wholeArrays
`);

  return { oplogAudit };
}

module.exports = makeAudit;
