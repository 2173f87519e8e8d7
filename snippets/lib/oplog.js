'use strict';
// Oplog concern: explainOplogEntry, oplogEntrySize, oplogWindow,
// changeStreamResumeCheck. Reading entries is pure (oplog-explain.js); the
// server-side queries and the shaping of their answers live in oplog-server.js;
// this file does the round trips.

const SCAN_SLICES = 20;
const PROGRESS_EVERY_MS = 2000;
const VISIBILITY_RETRIES = 10;
const VISIBILITY_WAIT_MS = 100;
// Server error codes (src/mongo/base/error_codes.yml).
const MAX_TIME_EXPIRED = 50;
const COMMAND_NOT_FOUND = 59;

function makeOplog(shell) {
  const ex = require('./oplog-explain.js')(shell);
  const sv = require('./oplog-server.js')(shell, ex);

  async function hello(db) {
    try {
      return await db.adminCommand({ hello: 1 });
    } catch (err) {
      // hello arrived in 4.4.2 (and 4.2.10, 4.0.21); older servers know isMaster.
      if (err && err.code === COMMAND_NOT_FOUND) return db.adminCommand({ isMaster: 1 });
      throw err;
    }
  }

  async function oplogMember(fnName) {
    const db = shell.db(fnName);
    const h = await hello(db);
    const reason = sv.noOplogReason(h);
    if (reason) throw shell.error(fnName, `needs a replica set member; ${reason}`);
    return { db, hello: h, oplog: db.getSiblingDB('local').getCollection('oplog.rs') };
  }

  async function aggregate(fnName, coll, pipeline, options) {
    try {
      const cursor = await coll.aggregate(pipeline, options || {});
      return await cursor.toArray();
    } catch (err) {
      throw sv.serverError(fnName, err, options && options.maxTimeMS);
    }
  }

  // The oldest (dir 1) or newest (dir -1) entry's ts, wall and op: natural
  // order is insertion order in the capped oplog, so this reads one record.
  // `fields` adds to the projection.
  async function edgeEntry(fnName, oplog, dir, fields) {
    let docs;
    try {
      const cursor = await oplog.find({}, { ts: 1, wall: 1, op: 1, ...fields });
      docs = await cursor.sort({ $natural: dir }).limit(1).toArray();
    } catch (err) {
      throw sv.serverError(fnName, err);
    }
    const d = docs[0];
    if (!d) return null;
    const out = { ts: d.ts, wall: ex.isDate(d.wall) ? d.wall : sv.tsDate(d.ts), op: d.op };
    if (d.o !== undefined) out.o = d.o;
    return out;
  }

  async function oplogEdges(fnName, oplog) {
    const [first, last] = await Promise.all([edgeEntry(fnName, oplog, 1), edgeEntry(fnName, oplog, -1)]);
    if (!first || !last) throw shell.error(fnName, 'local.oplog.rs is empty: nothing has been written on this replica set yet');
    return { first, last };
  }

  // ---- explainOplogEntry ---------------------------------------------------

  const explainOplogEntry = shell.withHelp(function explainOplogEntry(entry) {
    return ex.explain('explainOplogEntry', entry);
  }, `
explainOplogEntry(entry)
  What one oplog entry writes, and where its bytes go. Works offline on any entry
  document: insert (i), update (u), delete (d), noop (n), command (c) and applyOps
  (transactions, batched writes: each inner op is explained in ops[]).
  Updates: $v:1 ($set/$unset, 3.6-4.4), $v:2 diffs (5.0+: u, i, d, b, s<field>,
  array diffs with a, u<i>, s<i>, l) and replacement documents.

  Returns {op, ns, format, bytes, paths: [{path, change, bytes}],
           arrays: [{path, action, elements, bytes}], documentKey?, ops?, ...}
    bytes     bsonsize(entry)
    action    replace  - the whole array is in the entry (set, inserted or replaced)
              elements - positional element writes only (e.g. a plain $push)
              resize   - a length change ('l') with no whole-array write
    Paths are dotted (data.readings). In $v:1 a numeric path part is read as an
    array index ($v:1 does not say). The shell prints a short summary.

  Example:
    explainOplogEntry(db.getSiblingDB('local').oplog.rs.find({op: 'u'}).sort({$natural: -1}).limit(1).next())
    // update test.sensors · $v:2 format · 98 KB
    //   readings: whole array rewritten, 1200 elements, 98 KB
`);

  // ---- oplogEntrySize ----------------------------------------------------

  const SIZE = 'oplogEntrySize';

  const sizeOfFilter = shell.async(SIZE, async (filter) => {
    const { oplog } = await oplogMember(SIZE);
    const { last } = await oplogEdges(SIZE, oplog);
    const p = sv.parseSizeFilter(SIZE, filter, last.ts);
    const [doc] = await aggregate(SIZE, oplog, sv.sizePipeline(p), { maxTimeMS: p.maxTimeMS });
    return sv.shapeSizeResult(doc, p);
  });

  const sizeOfRun = shell.async(SIZE, async (fn) => {
    if (fn.length < 1) {
      throw shell.error(SIZE, 'the function must take the database to write through as its first parameter, ' +
        'e.g. oplogEntrySize(db => db.coll.updateOne({_id: 1}, {$push: {a: 1}})): only writes made through ' +
        'that session carry an lsid that tells them from other clients\' writes');
    }
    const { db, hello: h, oplog } = await oplogMember(SIZE);
    if (!sv.isPrimary(h)) {
      throw shell.error(SIZE, `runs the function's writes, so it needs the primary; this member is ` +
        `${h.secondary ? 'a secondary' : 'not writable'}${h.primary ? ` (the primary is ${h.primary})` : ''}`);
    }
    const { last: before } = await oplogEdges(SIZE, oplog);
    // An explicit session: its lsid is fixed for its whole life, and its
    // retryable writes and transactions log it in each entry.
    const session = db.getMongo().startSession();
    const lsidId = session.id.id;
    let returned;
    let opTime;
    try {
      returned = await fn(session.getDatabase(db.getName()), session);
      opTime = session.getOperationTime();
    } finally {
      await session.endSession();
    }
    // Forward oplog reads stop at the visibility point (no holes behind it),
    // which can trail an acknowledged write for a moment under concurrent
    // load: look again, briefly, until the session's last operation shows.
    let docs;
    for (let attempt = 0; ; attempt++) {
      docs = await aggregate(SIZE, oplog, sv.sessionPipeline(lsidId, before.ts), { maxTimeMS: 60000 });
      if (sv.sessionCaughtUp(docs, before.ts, opTime) || attempt >= VISIBILITY_RETRIES) break;
      await new Promise((resolve) => setTimeout(resolve, VISIBILITY_WAIT_MS));
    }
    const { last: after } = await oplogEdges(SIZE, oplog);
    const others = await aggregate(SIZE, oplog, sv.othersPipeline(lsidId, before.ts, after.ts), { maxTimeMS: 60000 });
    return sv.shapeRunResult(SIZE, docs, others, returned);
  });

  const oplogEntrySize = shell.withHelp(function oplogEntrySize(x) {
    if (typeof x === 'function') return sizeOfRun(x);
    if (ex.isDocument(x) && x.o !== undefined) return ex.size(SIZE, x);
    if (ex.isDocument(x)) {
      // Refuse a bad filter before any round trip; durations are resolved
      // against the newest entry once the server is asked.
      sv.parseSizeFilter(SIZE, x, sv.makeTs(Math.floor(Date.now() / 1000), 0));
      return sizeOfFilter(x);
    }
    throw shell.error(SIZE, `expected an oplog entry, a function that writes, or a filter {ns, op, since, until, limit}; got ${ex.describe(x)}`);
  }, `
oplogEntrySize(x)
  How many oplog bytes writes cost. Three forms:

  oplogEntrySize(entry)
    entry: an oplog entry document. Offline.
    Returns {bytes, breakdown}: bytes = bsonsize(entry); breakdown = bytes per
    top-level field (o, o2, ts, ...), summing to bytes - 5.

  oplogEntrySize(function (db, session) { ... })
    Runs the function on the primary in a new session and returns the entries
    its writes produced: {entries: [{ts, op, ns, bytes, explanation}], count,
    bytes, otherEntries}. Write through the db (or session) it is given: only
    those writes carry this session's lsid. Single-document writes (retryable)
    and transactions are logged with lsid; updateMany/deleteMany are not, and
    show up in otherEntries with everyone else's writes of that time span.

  oplogEntrySize({ns, op, since, until, limit, maxTimeMS})
    Oplog bytes per namespace and op, computed on the server ($bsonSize, 4.4+):
    no entry is sent to the shell. Returns {entries, bytes, avgBytes,
    byNamespace: [{ns, op, count, bytes, avgBytes, maxBytes}], largest: [...]}.
      ns       'db.coll', 'db' (every collection of it) or a RegExp; also
               matches ops inside applyOps
      op       'i' 'u' 'd' 'c' 'n' (or insert, update, ...), or a list of them
      since    Timestamp, Date, ISO string or a duration before the newest
               entry: '30m', '2h', '1d' (default '1h')
      until    same forms (default: up to the newest entry)
      limit    how many of the largest entries to list (default 10)
      maxTimeMS server time limit (default 60000)

  Examples:
    oplogEntrySize(db.getSiblingDB('local').oplog.rs.findOne({op: 'u'}))
    oplogEntrySize(db => db.sensors.updateOne({_id: 1}, {$push: {r: {$each: [1], $slice: -1000}}}))
    oplogEntrySize({ns: 'test.sensors', since: '2h'})
`);

  // ---- oplogWindow -----------------------------------------------------------

  const oplogWindow = shell.withHelp(shell.async('oplogWindow', async (...args) => {
    if (args.length) throw shell.error('oplogWindow', 'takes no arguments');
    const { oplog } = await oplogMember('oplogWindow');
    const [{ first, last }, stats] = await Promise.all([
      oplogEdges('oplogWindow', oplog),
      aggregate('oplogWindow', oplog, [{ $collStats: { storageStats: {} } }]),
    ]);
    return sv.shapeWindow(first, last, (stats[0] && stats[0].storageStats) || {});
  }), `
oplogWindow()
  The oplog's time window and size on the connected replica set member, as data
  (rs.printReplicationInfo() prints the same, without returning it).

  Returns {first: {ts, wall}, last: {ts, wall}, windowSeconds, windowHours,
           usedBytes, maxBytes, storageBytes, entries, full, bytesPerHour?,
           projectedWindowHours?}
    maxBytes     the configured size; the server may keep more (majority
                 commit point, oplogMinRetentionHours)
    full         used >= 95% of maxBytes
    projectedWindowHours  while not full: the window a full oplog would hold
                 at the average write rate so far

  Example:
    oplogWindow().windowHours
`);

  // ---- changeStreamResumeCheck ---------------------------------------------

  const RESUME = 'changeStreamResumeCheck';

  // decodeResumeToken lives in its own concern; loaded here, on first use, so
  // this module loads even where that file is absent.
  function decode(token) {
    if (token && token._bsontype === 'Timestamp') return { timestamp: token };
    let decoder;
    try {
      decoder = require('./resume-token.js');
    } catch (err) {
      if (err && err.code === 'MODULE_NOT_FOUND' && /resume-token/.test(err.message)) {
        throw shell.error(RESUME, 'needs decodeResumeToken (snippets/lib/resume-token.js), which this installation ' +
          'lacks; pass the token\'s clusterTime as a Timestamp instead');
      }
      throw err;
    }
    const decoded = decoder(shell).decodeResumeToken(token);
    if (!decoded || !decoded.timestamp || decoded.timestamp._bsontype !== 'Timestamp') {
      throw shell.error(RESUME, 'the decoded token has no timestamp');
    }
    return decoded;
  }

  async function scan(oplog, from, to, stream, budgetMs) {
    const slices = sv.scanSlices(from, to, SCAN_SLICES);
    const total = { entries: 0, bytes: 0 };
    const started = Date.now();
    let shown = started;
    let stoppedAt = null;
    for (let k = 0; k < slices.length; k++) {
      const remaining = budgetMs - (Date.now() - started);
      const lower = slices[k].ts.$gte;
      if (remaining <= 0) { stoppedAt = lower; break; }
      try {
        const cursor = await oplog.aggregate(sv.scanPipeline(slices[k], stream), { maxTimeMS: remaining });
        const [doc] = await cursor.toArray();
        sv.addScan(total, doc, lower);
      } catch (err) {
        // Out of time: what was counted so far is a lower bound.
        if (err && err.code === MAX_TIME_EXPIRED) { stoppedAt = lower; break; }
        throw sv.serverError(RESUME, err);
      }
      if (Date.now() - shown >= PROGRESS_EVERY_MS && k + 1 < slices.length) {
        shown = Date.now();
        shell.print(`${RESUME}: scanned ${total.entries} entries (${shell.formatBytes(total.bytes)}), ` +
          `${k + 1}/${slices.length} of the way from the token to now`);
      }
    }
    total.complete = stoppedAt === null;
    total.scannedUntil = stoppedAt === null ? to : stoppedAt;
    total.ms = Date.now() - started;
    return total;
  }

  // When the resume's first event can leave: each place in the scan the
  // plan names is sized by one more count, from the start of its slice, so
  // at most a slice is read again. Only for a complete scan: a partial one
  // does not know where the scan ends.
  async function arrival(oplog, total, version, budgetMs) {
    if (!total.complete) return undefined;
    const plan = sv.arrivalPlan(total, version);
    const prefixes = new Map();
    const started = Date.now();
    for (const c of plan.cases) {
      if (c.at === null || prefixes.has(c.at)) continue;
      const h = total.head[c.at];
      const remaining = budgetMs - (Date.now() - started);
      if (remaining <= 0) return undefined;
      try {
        const cursor = await oplog.aggregate(sv.prefixPipeline(total.slices[h.slice].lower, h.ts), { maxTimeMS: remaining });
        const [doc] = await cursor.toArray();
        prefixes.set(c.at, doc);
      } catch (err) {
        if (err && err.code === MAX_TIME_EXPIRED) return undefined;
        throw sv.serverError(RESUME, err);
      }
    }
    return sv.shapeArrival(plan, total, (k) => prefixes.get(k), version);
  }

  async function serverVersion(db) {
    try {
      const info = await db.adminCommand({ buildInfo: 1 });
      return info && typeof info.version === 'string' ? info.version : null;
    } catch {
      // Without a version the arrival says what it assumes.
      return null;
    }
  }

  const changeStreamResumeCheck = shell.withHelp(shell.async(RESUME, async (token, options) => {
    const decoded = decode(token);
    const opts = shell.options(RESUME, options, ['ns', 'filter', 'maxTimeMS'], "{ns: 'test.foo', filter: {operationType: 'insert'}, maxTimeMS: 30000}");
    const budget = sv.checkMaxTime(RESUME, opts.maxTimeMS, 30000);
    const scope = sv.streamScope(RESUME, opts.ns, decoded.uuid);
    const stream = { scope };
    if (opts.filter !== undefined) stream.filter = { source: opts.filter, ...sv.translateFilter(RESUME, opts.filter) };
    stream.namespace = sv.streamMatch(scope, null);
    stream.matching = sv.streamMatch(scope, stream.filter ? stream.filter.match : null);
    const { db, oplog } = await oplogMember(RESUME);
    const window = await oplogEdges(RESUME, oplog);
    // A token older than the oldest entry still resumes when that entry is the
    // 'initiating set' no-op, which only its o tells. o is read for a no-op
    // alone (a few bytes; an insert's o is a whole document), and only when
    // the token's time is older. Truncated in between: another entry comes
    // back, and the token has fallen off.
    if (sv.compareTs(decoded.timestamp, window.first.ts) < 0 && window.first.op === 'n') {
      const first = await edgeEntry(RESUME, oplog, 1, { o: 1 });
      if (first && sv.compareTs(first.ts, window.first.ts) === 0) window.first = first;
    }
    const position = sv.tokenPosition(decoded.timestamp, window.first.ts, window.last.ts, sv.isInitiatingSet(window.first));
    let scanned;
    let arrives;
    if (sv.isResumable(position)) {
      // Before the initiation, a resume reads the whole oplog.
      const from = position === 'inside' ? decoded.timestamp : window.first.ts;
      const started = Date.now();
      const version = await serverVersion(db);
      scanned = await scan(oplog, from, window.last.ts, stream, budget);
      arrives = await arrival(oplog, scanned, version, budget - (Date.now() - started));
    }
    return sv.shapeResume(decoded, window, scanned, stream, arrives);
  }), `
changeStreamResumeCheck(token, {ns, filter, maxTimeMS})
  Can a change stream still resume from this token, how much oplog must the
  resume read, how much of it the stream keeps, and when its first event can
  arrive? Read-only. Run on a replica set member (a secondary is fine); on a
  sharded cluster, on a member of each shard: each shard's oplog is read.
    token      a resume token (hex string, {_data}, a change event) as
               decodeResumeToken accepts, or a Timestamp (clusterTime)
    ns         the stream's namespace: 'db.coll', 'db' (db.watch()) or ''
               (the whole cluster). Default: the token's collection (by its
               uuid), else the whole cluster
    filter     the $match of the stream's pipeline, in change-event fields
               ({operationType: 'insert', 'fullDocument.status': 'A'})
    maxTimeMS  time budget for the server-side scan (default 30000); past it
               the figures are lower bounds (scan.complete: false)

  Returns {timestamp, tokenType?, version?, position, resumable, window,
           marginSeconds, scan?: {entries, bytes, namespace, matching,
           complete, scannedUntil, ms}, stream, arrival?, advice}
    position       inside | before-initiation (older than the oldest entry,
                   which is the replica set's 'initiating set' no-op: the
                   oplog was never truncated, so the server resumes, reading
                   the whole oplog) | fallen-off (older than the oldest entry,
                   which is not that no-op: ChangeStreamHistoryLost) | ahead
                   (newer than the newest)
    resumable      true for inside and before-initiation
    window         {first: {ts, wall}, last: {ts, wall}, seconds,
                   firstIsInitiatingSet}
    scan           every oplog entry from the token to now: the server reads
                   them all, whatever the stream's namespace and filter, and
                   filters as it reads ($bsonSize, counted on the server)
      namespace    {entries, bytes} its scan lets through for the stream's
                   namespace: CRUD entries, the commands a stream reports,
                   transactions touching it (as the server's own filter)
      matching     {entries, bytes} also kept by the filter, as far as it is
                   applied to oplog fields: operationType, documentKey._id,
                   ns.db, ns.coll and updateDescription.updatedFields.<f> are
                   exact; fullDocument.* is applied to inserts and
                   replacements, every other update counted (the server's own
                   rewrite does the same); any other field is not applied
                   (stream.approximated names each; the count is then an
                   upper bound). Transactions count whole, as they leave the
                   server's scan before being unwound
    stream         {namespace, filter?, exact?, approximated?}
    arrival        (once the scan completed) when the first event can leave,
                   by the change-stream-resume lab's claims (A: default batch
                   size; B, C, D: batchSize 1), for this server's version:
                   {serverVersion, filterInScan (5.1+: the $match is part of
                   the oplog scan), defaultBatchSize, batchSize1: {read:
                   {entries, bytes}, until, wholeScan, atLeast, share, lab,
                   why, source}}
    marginSeconds  how much older history the oplog still holds before the
                   token's time falls off (0 before the initiation: the
                   oplog's first truncation drops it)
    advice         one line: e.g. resume from the postBatchResumeToken (4.0.7+)
                   rather than the last event's _id

  Examples:
    changeStreamResumeCheck('82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004')
    changeStreamResumeCheck(savedToken, {ns: 'test.foo', filter: {'fullDocument.msg': {$exists: true}}})
`);

  return { explainOplogEntry, oplogEntrySize, oplogWindow, changeStreamResumeCheck };
}

module.exports = makeOplog;
