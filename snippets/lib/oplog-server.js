'use strict';
// The server-side half of the oplog snippets, kept pure: what to ask the server
// (hello checks, aggregation pipelines over local.oplog.rs) and how to shape its
// answers. oplog.js does the round trips; tests feed recorded or hand-derived
// documents straight into these functions.

const OP_CODES = { insert: 'i', update: 'u', delete: 'd', command: 'c', noop: 'n' };
const OP_NAMES = { i: 'insert', u: 'update', d: 'delete', c: 'command', n: 'noop' };
const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86400 };
const MAX_TS_INCREMENT = 0xFFFFFFFF;

const batching = require('./change-stream-batching.js');

function makeServer(shell, ex) {
  const { Timestamp, Long } = shell.bson;
  const fmt = (n) => shell.formatBytes(n);
  const quoteRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  // ---- which server is this -----------------------------------------------

  // Returns null for a replica set member, else why there is no oplog to read.
  // Fields from hello (src/mongo/db/repl/hello/hello.idl): setName only once the
  // set is initiated, isreplicaset while started with --replSet but not
  // initiated, msg 'isdbgrid' on mongos, arbiterOnly on arbiters.
  function noOplogReason(hello) {
    if (!hello || typeof hello !== 'object') return 'the server did not answer hello';
    if (hello.msg === 'isdbgrid') {
      return 'this server is a mongos router (connect to a member of a shard or config server replica set)';
    }
    if (hello.arbiterOnly) return 'this server is an arbiter, which holds no data and no oplog';
    if (!hello.setName) {
      if (hello.isreplicaset) {
        return 'this server was started with --replSet but the set is not initiated yet (rs.initiate())';
      }
      return 'this server is not a replica set member (hello reports no setName; a standalone server keeps no oplog)';
    }
    return null;
  }

  function isPrimary(hello) {
    return Boolean(hello && (hello.isWritablePrimary || hello.ismaster));
  }

  // Server errors a user can act on, said in their terms; anything else is
  // passed on as it is. Codes from src/mongo/base/error_codes.yml.
  function serverError(fnName, err, maxTimeMS) {
    if (!err || typeof err.message !== 'string') return err;
    if (err.code === 13) {
      return shell.error(fnName, `not allowed to read local.oplog.rs (${err.message}); it needs a role with find ` +
        'on the local database, such as clusterManager, backup or readAnyDatabase');
    }
    if (/Unrecognized expression '\$bsonSize'/.test(err.message)) {
      return shell.error(fnName, 'needs MongoDB 4.4 or newer: oplog sizes are computed on the server with $bsonSize');
    }
    if (err.code === 50 && maxTimeMS) {
      return shell.error(fnName, `the server stopped at maxTimeMS (${maxTimeMS} ms); narrow since/until or raise maxTimeMS`);
    }
    return err;
  }

  // ---- time arguments ------------------------------------------------------

  function tsSeconds(ts) {
    return ts.getHighBits() >>> 0;
  }

  function tsIncrement(ts) {
    return ts.getLowBits() >>> 0;
  }

  function tsDate(ts) {
    return new Date(tsSeconds(ts) * 1000);
  }

  function compareTs(a, b) {
    return tsSeconds(a) - tsSeconds(b) || tsIncrement(a) - tsIncrement(b);
  }

  function makeTs(t, i) {
    return new Timestamp({ t, i });
  }

  // since/until: a Timestamp, a Date, an ISO date string or a duration before
  // `now` ('90s', '30m', '2h', '1d'). `now` is the newest oplog entry's time, so
  // a skewed client clock does not move the range.
  function parseTime(fnName, name, x, now, end) {
    if (x && x._bsontype === 'Timestamp') return x;
    let seconds;
    if (ex.isDate(x)) {
      seconds = x.getTime() / 1000;
    } else if (typeof x === 'string' && /^\s*\d+(\.\d+)?\s*[smhd]\s*$/i.test(x)) {
      const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/i.exec(x);
      seconds = tsSeconds(now) - Number(m[1]) * DURATION_UNITS[m[2].toLowerCase()];
    } else if (typeof x === 'string' && !Number.isNaN(Date.parse(x))) {
      seconds = Date.parse(x) / 1000;
    } else {
      throw shell.error(fnName, `'${name}' must be a Timestamp, a Date, an ISO date string or a duration ` +
        `before the newest entry such as '30m', '2h', '1d'; got ${ex.describe(x)}`);
    }
    if (!Number.isFinite(seconds) || seconds < 0) throw shell.error(fnName, `'${name}' is out of range`);
    return end ? makeTs(Math.floor(seconds), MAX_TS_INCREMENT) : makeTs(Math.floor(seconds), 0);
  }

  // ---- oplogEntrySize({ns, op, since, until, limit}) ------------------------

  const FILTER_KEYS = ['ns', 'op', 'since', 'until', 'limit', 'maxTimeMS'];

  function parseSizeFilter(fnName, filter, now) {
    for (const k of Object.keys(filter)) {
      if (!FILTER_KEYS.includes(k)) {
        throw shell.error(fnName, `unknown filter field '${k}' (accepted: ${FILTER_KEYS.join(', ')})`);
      }
    }
    const out = {};
    out.since = parseTime(fnName, 'since', filter.since === undefined ? '1h' : filter.since, now, false);
    out.until = filter.until === undefined ? null : parseTime(fnName, 'until', filter.until, now, true);
    if (out.until && compareTs(out.until, out.since) < 0) throw shell.error(fnName, "'until' is before 'since'");
    if (filter.ns !== undefined) {
      const ns = filter.ns;
      const isRegex = ex.isRegExp(ns) || (ns && ns._bsontype === 'BSONRegExp');
      if (!isRegex && (typeof ns !== 'string' || ns === '')) {
        throw shell.error(fnName, `'ns' must be 'db.collection', a database name or a RegExp, got ${ex.describe(ns)}`);
      }
      out.ns = isRegex || ns.includes('.') ? ns : new RegExp(`^${quoteRe(ns)}\\.`);
    }
    if (filter.op !== undefined) {
      const list = Array.isArray(filter.op) ? filter.op : [filter.op];
      out.ops = list.map((o) => {
        if (OP_NAMES[o]) return o;
        if (OP_CODES[o]) return OP_CODES[o];
        throw shell.error(fnName, `unknown op ${shell.quote(o)} (accepted: i, u, d, c, n or insert, update, delete, command, noop)`);
      });
      if (!out.ops.length) throw shell.error(fnName, "'op' is an empty list");
    }
    out.limit = filter.limit === undefined ? 10 : filter.limit;
    if (!Number.isInteger(out.limit) || out.limit < 0 || out.limit > 1000) {
      throw shell.error(fnName, `'limit' (how many of the largest entries to list) must be an integer 0-1000, got ${String(filter.limit)}`);
    }
    out.maxTimeMS = checkMaxTime(fnName, filter.maxTimeMS, 60000);
    return out;
  }

  function checkMaxTime(fnName, x, dflt) {
    if (x === undefined) return dflt;
    if (!Number.isInteger(x) || x <= 0) throw shell.error(fnName, `'maxTimeMS' must be a positive integer, got ${String(x)}`);
    return x;
  }

  // The ts range leads the $match so the server reads only that stretch of the
  // oplog: ts is the oplog's record key, and from 4.4 a top-level $gte/$gt on ts
  // starts the scan there without the oplogReplay flag (SERVER-36186); sizes come from $bsonSize (4.4+) so no
  // entry leaves the server, only per-group figures and the top `limit`.
  function sizePipeline(p) {
    const match = { ts: p.until ? { $gte: p.since, $lte: p.until } : { $gte: p.since } };
    if (p.ns !== undefined) match.$or = [{ ns: p.ns }, { 'o.applyOps.ns': p.ns }];
    if (p.ops) match.op = { $in: p.ops };
    const facet = {
      total: [{ $group: { _id: null, count: { $sum: 1 }, bytes: { $sum: '$bytes' }, first: { $min: '$ts' }, last: { $max: '$ts' } } }],
      groups: [
        { $group: { _id: { ns: '$ns', op: '$op' }, count: { $sum: 1 }, bytes: { $sum: '$bytes' }, avgBytes: { $avg: '$bytes' }, maxBytes: { $max: '$bytes' } } },
        { $sort: { bytes: -1 } },
      ],
    };
    // Deletes log the document key as o, updates as o2; inserts carry the whole
    // document, so only its _id is kept.
    const documentKeyExpr = {
      $switch: {
        branches: [
          { case: { $eq: ['$op', 'u'] }, then: '$o2' },
          { case: { $eq: ['$op', 'd'] }, then: '$o' },
          { case: { $eq: ['$op', 'i'] }, then: { _id: '$o._id' } },
        ],
        default: '$$REMOVE',
      },
    };
    if (p.limit > 0) facet.largest = [{ $sort: { bytes: -1 } }, { $limit: p.limit }];
    return [
      { $match: match },
      { $project: { _id: 0, ts: 1, ns: 1, op: 1, bytes: { $bsonSize: '$$ROOT' }, documentKey: documentKeyExpr, command: { $cond: [{ $eq: ['$op', 'c'] }, { $arrayElemAt: [{ $map: { input: { $objectToArray: '$o' }, in: '$$this.k' } }, 0] }, '$$REMOVE'] } } },
      { $facet: facet },
    ];
  }

  // Oplog counts and byte totals as numbers: exact, because an oplog is at
  // most 1 PB (replSetResizeOplog's limit, 2^50 bytes), below 2^53.
  function num(x) {
    const n = ex.toNumber(x);
    return Number.isNaN(n) ? 0 : n;
  }

  function shapeSizeResult(doc, p) {
    const total = (doc && doc.total && doc.total[0]) || { count: 0, bytes: 0 };
    const out = {
      since: p.since,
      until: p.until,
      entries: num(total.count),
      bytes: num(total.bytes),
      avgBytes: num(total.count) ? Math.round(num(total.bytes) / num(total.count)) : 0,
      byNamespace: ((doc && doc.groups) || []).map((g) => ({
        ns: g._id.ns, op: OP_NAMES[g._id.op] || g._id.op, count: num(g.count), bytes: num(g.bytes),
        avgBytes: Math.round(num(g.avgBytes)), maxBytes: num(g.maxBytes),
      })),
      largest: ((doc && doc.largest) || []).map((e) => {
        const row = { ts: e.ts, ns: e.ns, op: OP_NAMES[e.op] || e.op, bytes: num(e.bytes) };
        if (e.documentKey !== undefined && e.documentKey !== null) row.documentKey = e.documentKey;
        if (e.command !== undefined) row.command = e.command;
        return row;
      }),
    };
    if (total.first) out.firstEntry = total.first;
    if (total.last) out.lastEntry = total.last;
    return ex.withInspect(out, sizeResultLines);
  }

  function tsText(ts) {
    return ts ? `${tsDate(ts).toISOString()} (${tsSeconds(ts)}, ${tsIncrement(ts)})` : 'now';
  }

  function sizeResultLines(x) {
    const lines = [`${x.entries} entries, ${fmt(x.bytes)}, average ${fmt(x.avgBytes)}, from ${tsText(x.since)} to ${tsText(x.until)}`];
    if (x.byNamespace.length) {
      lines.push('  namespace / op: count, total, average, largest');
      for (const g of x.byNamespace) {
        lines.push(`  ${g.ns} ${g.op}: ${g.count}, ${fmt(g.bytes)}, ${fmt(g.avgBytes)}, ${fmt(g.maxBytes)}`);
      }
    }
    if (x.largest.length) {
      lines.push('  largest entries:');
      for (const e of x.largest) {
        const what = e.command ? ` ${e.command}` : e.documentKey ? ` ${JSON.stringify(e.documentKey)}` : '';
        lines.push(`  ${fmt(e.bytes)} ${e.op} ${e.ns}${what} at ${tsText(e.ts)}`);
      }
    }
    return lines;
  }

  // ---- oplogEntrySize(function) ---------------------------------------------

  // Entries written under this session after `after`: retryable writes and
  // transactions carry lsid (OperationSessionInfo in oplog_entry.idl).
  function sessionPipeline(lsidId, after) {
    return [
      { $match: { ts: { $gt: after }, 'lsid.id': lsidId } },
      { $addFields: { _dbaLabBytes: { $bsonSize: '$$ROOT' } } },
    ];
  }

  // What else landed in the same stretch: other clients, and this session's
  // writes that are logged without lsid (multi-document updates and deletes
  // are not retryable writes).
  function othersPipeline(lsidId, after, until) {
    return [
      { $match: { ts: { $gt: after, $lte: until }, 'lsid.id': { $ne: lsidId } } },
      { $group: { _id: null, count: { $sum: 1 }, bytes: { $sum: { $bsonSize: '$$ROOT' } } } },
    ];
  }

  // Whether the session's entries read so far reach its last operation time
  // (docs in oplog order). No operation time (no causal session): nothing to wait for.
  function sessionCaughtUp(docs, before, opTime) {
    if (!opTime) return true;
    const newest = docs.length ? docs[docs.length - 1].ts : before;
    return compareTs(newest, opTime) >= 0;
  }

  function shapeRunResult(fnName, docs, others, returned) {
    const entries = docs.map((d) => {
      const bytes = num(d._dbaLabBytes);
      const entry = { ...d };
      delete entry._dbaLabBytes;
      return { ts: entry.ts, op: OP_NAMES[entry.op] || entry.op, ns: entry.ns, bytes, explanation: ex.explain(fnName, entry) };
    });
    const o = (others && others[0]) || { count: 0, bytes: 0 };
    const out = {
      entries,
      count: entries.length,
      bytes: entries.reduce((s, e) => s + e.bytes, 0),
      otherEntries: { count: num(o.count), bytes: num(o.bytes) },
    };
    if (returned !== undefined) out.returned = returned;
    return ex.withInspect(out, (x) => {
      const lines = [`${x.count} oplog ${x.count === 1 ? 'entry' : 'entries'} written by the function, ${fmt(x.bytes)}`];
      for (const e of x.entries) {
        ex.explanationLines(e.explanation).forEach((l, i) => lines.push(`  ${i === 0 ? '- ' : '  '}${l}`));
      }
      if (x.otherEntries.count) {
        lines.push(`  ${x.otherEntries.count} other entries (${fmt(x.otherEntries.bytes)}) in the same time span carry no lsid of this session: ` +
          'other clients, or multi-document writes (not retryable, so logged without lsid)');
      }
      return lines;
    });
  }

  // ---- oplogWindow() ---------------------------------------------------------

  // first/last: {ts, wall?} of the oldest and newest entries; stats: the
  // storageStats of $collStats on local.oplog.rs.
  function shapeWindow(first, last, stats) {
    const firstDate = ex.isDate(first.wall) ? first.wall : tsDate(first.ts);
    const lastDate = ex.isDate(last.wall) ? last.wall : tsDate(last.ts);
    const seconds = Math.max(0, tsSeconds(last.ts) - tsSeconds(first.ts));
    const used = num(stats.size);
    const max = num(stats.maxSize);
    const out = {
      first: { ts: first.ts, wall: firstDate },
      last: { ts: last.ts, wall: lastDate },
      windowSeconds: seconds,
      windowHours: Math.round((seconds / 3600) * 100) / 100,
      usedBytes: used,
      maxBytes: max,
      storageBytes: num(stats.storageSize),
      entries: num(stats.count),
    };
    // The server may let the oplog grow past maxSize (majority commit point,
    // oplogMinRetentionHours), so "full" means at or over the configured size.
    out.full = max > 0 && used >= max * 0.95;
    if (seconds > 0 && used > 0) {
      out.bytesPerHour = Math.round((used / seconds) * 3600);
      if (!out.full && max > 0) out.projectedWindowHours = Math.round((max / out.bytesPerHour) * 100) / 100;
    }
    return ex.withInspect(out, windowLines);
  }

  function windowLines(x) {
    const lines = [
      `oplog window ${x.windowHours} h (${x.windowSeconds} s): ${x.first.wall.toISOString()} to ${x.last.wall.toISOString()}`,
      x.maxBytes ?
        `  used ${fmt(x.usedBytes)} of ${fmt(x.maxBytes)} configured (${((100 * x.usedBytes) / x.maxBytes).toFixed(1)}%), ${fmt(x.storageBytes)} on disk, ${x.entries} entries` :
        `  used ${fmt(x.usedBytes)} (the server reported no configured size), ${fmt(x.storageBytes)} on disk, ${x.entries} entries`,
    ];
    if (x.bytesPerHour !== undefined) lines.push(`  write rate ${fmt(x.bytesPerHour)}/h`);
    if (x.projectedWindowHours !== undefined) {
      lines.push(`  not full yet: at this rate a full oplog would hold about ${x.projectedWindowHours} h`);
    }
    return lines;
  }

  // ---- changeStreamResumeCheck ----------------------------------------------

  // The replica set's first entry, written by replSetInitiate: a no-op whose o
  // is exactly {msg: 'initiating set'} (kInitiatingSetMsg, oplog_entry.h). The
  // server compares o as a whole (binaryEqual), so a no-op with any other field
  // beside msg is not it.
  const INITIATING_SET_MSG = 'initiating set';

  function isInitiatingSet(entry) {
    if (!entry || entry.op !== 'n' || !ex.isDocument(entry.o)) return false;
    const keys = Object.keys(entry.o);
    return keys.length === 1 && keys[0] === 'msg' && entry.o.msg === INITIATING_SET_MSG;
  }

  // Where the token's time lies against the oplog's oldest (first) and newest
  // (last) entries. Older than the oldest entry, the server still resumes when
  // that entry is the replica set's 'initiating set' no-op: nothing older was
  // ever written, so nothing can have fallen off; otherwise it fails
  // (OplogQueryMinTsMissing, ChangeStreamHistoryLost to a change stream):
  // initCursorAndAssertTsHasNotFallenOff in
  // src/mongo/db/exec/classic/collection_scan.cpp.
  function tokenPosition(tokenTs, first, last, firstIsInitiatingSet = false) {
    if (compareTs(tokenTs, first) < 0) return firstIsInitiatingSet ? 'before-initiation' : 'fallen-off';
    if (compareTs(tokenTs, last) > 0) return 'ahead';
    return 'inside';
  }

  function isResumable(position) {
    return position === 'inside' || position === 'before-initiation';
  }

  // Split [from, to] into time slices so a long scan reports progress and
  // stops cleanly at its time budget. The first slice starts exactly at the
  // token (a resume reads from the token's own entry); the last ends at `to`.
  function scanSlices(from, to, count) {
    const t0 = tsSeconds(from);
    const t1 = tsSeconds(to);
    const span = t1 - t0;
    const n = Math.max(1, Math.min(count, span));
    const slices = [];
    let lower = from;
    for (let k = 1; k <= n; k++) {
      if (k === n) {
        slices.push({ ts: { $gte: lower, $lte: to } });
      } else {
        const boundary = makeTs(t0 + Math.round((span * k) / n), 0);
        slices.push({ ts: { $gte: lower, $lt: boundary } });
        lower = boundary;
      }
    }
    return slices;
  }

  // ---- the stream a resume would reopen -------------------------------------

  // The server's own namespace regexes (DocumentSourceChangeStream::
  // getNsRegexForChangeStream, getCollRegexForChangeStream,
  // getCmdNsRegexForChangeStream, kRegexAllDBs, kRegexAllCollections).
  const ALL_DBS = '^(?!(admin|config|local)\\.)[^.]+';
  const ALL_COLLS = '(?!(\\$|system\\.))';

  // ns: 'db.coll', 'db', '' (the whole cluster); uuid: the token's collection
  // when no ns is given (its name is not in the token).
  function streamScope(fnName, ns, uuid) {
    if (ns === undefined) {
      return uuid ? { kind: 'collection', uuid, text: "the token's collection (by its uuid)" } : { kind: 'cluster', text: 'the whole cluster' };
    }
    if (typeof ns !== 'string' || /^\.|\.$|\0/.test(ns)) {
      throw shell.error(fnName, `'ns' is the stream's namespace: 'db.collection', 'db' or '' for a whole-cluster stream; got ${ex.describe(ns)}`);
    }
    if (ns === '') return { kind: 'cluster', text: 'the whole cluster' };
    const dot = ns.indexOf('.');
    if (dot < 0) return { kind: 'database', db: ns, text: `database ${ns}` };
    return { kind: 'collection', db: ns.slice(0, dot), coll: ns.slice(dot + 1), text: ns };
  }

  // What a stream on this scope lets out of its oplog scan before any $match
  // of the user's (change_stream_filter_helpers.cpp: buildOperationFilter,
  // buildTransactionFilter; fromMigrate entries excluded). Internal no-ops
  // (resharding, shardCollection) are left out: no change to the counts of a
  // replica set. crud: the user's translated $match, which the server joins to
  // the CRUD branch only (transactions are unwound later and filtered then).
  function streamMatch(scope, crud) {
    const branches = [];
    let crudMatch;
    let applyOps;
    let commands;
    if (scope.uuid) {
      crudMatch = { ui: scope.uuid, op: { $in: ['i', 'u', 'd'] } };
      applyOps = { 'o.applyOps.ui': scope.uuid };
      commands = { op: 'c', ui: scope.uuid };
    } else {
      const nsRe = scope.kind === 'collection' ? `^${quoteRe(`${scope.db}.${scope.coll}`)}$` :
        scope.kind === 'database' ? `^${quoteRe(scope.db)}\\.${ALL_COLLS}` : `${ALL_DBS}\\.${ALL_COLLS}`;
      const collRe = new RegExp(scope.kind === 'collection' ? `^${quoteRe(scope.coll)}$` : `^${ALL_COLLS}`);
      const cmdRe = new RegExp(scope.kind === 'cluster' ? `${ALL_DBS}\\.\\$cmd$` : `^${quoteRe(scope.db)}\\.\\$cmd$`);
      const ns = new RegExp(nsRe);
      crudMatch = { ns, op: { $nin: ['n', 'c'] } };
      applyOps = { 'o.applyOps.ns': ns };
      const which = [
        { 'o.drop': collRe }, { 'o.renameCollection': ns }, { 'o.renameCollection': { $exists: true }, 'o.to': ns },
        { 'o.create': collRe }, { 'o.createIndexes': collRe }, { 'o.commitIndexBuild': collRe },
        { 'o.dropIndexes': collRe }, { 'o.collMod': collRe },
      ];
      if (scope.kind !== 'collection') which.push({ 'o.dropDatabase': { $exists: true } });
      commands = { op: 'c', ns: cmdRe, $or: which };
    }
    branches.push(crud ? { $and: [crudMatch, crud] } : crudMatch);
    branches.push(commands);
    branches.push({
      op: 'c', 'o.applyOps': { $type: 'array' }, 'o.prepare': { $ne: true }, 'o.partialTxn': { $ne: true },
      // A later entry of a large transaction links to the earlier ones.
      $or: [applyOps, { prevOpTime: { $ne: { ts: makeTs(0, 0), t: Long.fromNumber(-1) } } }],
    });
    branches.push({ op: 'c', 'o.commitTransaction': 1 });
    return { fromMigrate: { $ne: true }, $or: branches };
  }

  // ---- the user's $match, in oplog terms --------------------------------------

  const OPERATION_TYPES = {
    insert: { op: 'i' },
    delete: { op: 'd' },
    update: { op: 'u', 'o._id': { $exists: false } },
    replace: { op: 'u', 'o._id': { $exists: true } },
  };
  // Matches no entry: an event type that is not a CRUD event never comes from the CRUD branch.
  const NOTHING = { op: { $in: [] } };
  // Operators that never match a missing field; anything else might, so the
  // translation keeps the entries a missing field would let through.
  const MISSING_NEVER = new Set(['$exists', '$gt', '$gte', '$lt', '$lte', '$regex', '$type', '$size', '$all', '$elemMatch', '$mod']);

  function isOperatorDoc(v) {
    return ex.isDocument(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$'));
  }

  function mayMatchMissing(v) {
    if (v === null || v === undefined) return true;
    if (!isOperatorDoc(v)) return false;
    return Object.keys(v).some((op) => {
      if (op === '$exists') return !v.$exists;
      if (op === '$eq') return v.$eq === null;
      if (op === '$in') return Array.isArray(v.$in) && v.$in.some((x) => x === null);
      if (op === '$options') return false;
      return !MISSING_NEVER.has(op);
    });
  }

  function rename(path, from, to) {
    return path === from ? to : `${to}${path.slice(from.length)}`;
  }

  // One {path: value} of the user's $match, in change-event terms, as an oplog
  // predicate for the CRUD branch: {match, exact, note} or null when it is not
  // translated (the count then keeps every entry it might pass).
  function translatePath(path, value) {
    if (path === 'operationType') {
      const names = isOperatorDoc(value) ? (Object.keys(value).length === 1 && Array.isArray(value.$in) ? value.$in :
        Object.keys(value).length === 1 && '$eq' in value ? [value.$eq] : null) : [value];
      if (!names || !names.every((n) => typeof n === 'string')) return null;
      const parts = names.map((n) => OPERATION_TYPES[n] || NOTHING);
      return { match: parts.length === 1 ? parts[0] : { $or: parts }, exact: true };
    }
    if (path === 'fullDocument' || path.startsWith('fullDocument.')) {
      // As the server's rewrite (matchRewriteFullDocument): the predicate on
      // the o of inserts and replacements, every other update passes (its full
      // document is looked up later), deletes only if a missing field matches.
      const branches = [
        { op: 'u', 'o._id': { $exists: false } },
        { $and: [{ $or: [{ op: 'i' }, { op: 'u', 'o._id': { $exists: true } }] }, { [rename(path, 'fullDocument', 'o')]: value }] },
      ];
      if (mayMatchMissing(value)) branches.push({ op: 'd' });
      return {
        match: { $or: branches }, exact: false,
        note: `${path}: applied to inserts and replacements; every other update is counted, as the server's own scan lets it through (its full document is not in the oplog)`,
      };
    }
    if (path === 'documentKey._id' || path.startsWith('documentKey._id.')) {
      return {
        match: { $or: [
          { op: 'u', [rename(path, 'documentKey', 'o2')]: value },
          { op: { $in: ['i', 'd'] }, [rename(path, 'documentKey', 'o')]: value },
        ] },
        exact: true,
      };
    }
    if ((path === 'ns.db' || path === 'ns.coll') && typeof value === 'string') {
      const re = path === 'ns.db' ? `^${quoteRe(value)}\\.` : `^[^.]+\\.${quoteRe(value)}$`;
      return { match: { ns: new RegExp(re) }, exact: true };
    }
    if (path.startsWith('updateDescription.updatedFields.') && path.split('.').length === 3 && !mayMatchMissing(value)) {
      const field = path.split('.')[2];
      return {
        match: { op: 'u', 'o._id': { $exists: false }, $or: ['o.diff.i', 'o.diff.u', 'o.$set'].map((at) => ({ [`${at}.${field}`]: value })) },
        exact: true,
      };
    }
    return null;
  }

  // The user's $match (change-event fields) as the oplog predicate its count
  // uses: {match, exact, approximated: [why...]}. A part that is not
  // translated is left out, so the count is an upper bound of what the filter
  // keeps: never fewer entries than the server lets through.
  function translateFilter(fnName, filter) {
    if (!ex.isDocument(filter)) {
      throw shell.error(fnName, `'filter' is the stream's $match, in change-event fields such as {operationType: 'insert', 'fullDocument.status': 'A'}; got ${ex.describe(filter)}`);
    }
    const parts = [];
    const approximated = [];
    let exact = true;
    const add = (path, value) => {
      const t = translatePath(path, value);
      if (!t) {
        exact = false;
        approximated.push(`${path}: not applied in the count (every entry counted as if it passed: an upper bound)`);
        return;
      }
      if (!t.exact) { exact = false; approximated.push(t.note); }
      parts.push(t.match);
    };
    for (const key of Object.keys(filter)) {
      if (key === '$and' && Array.isArray(filter.$and)) {
        for (const sub of filter.$and) {
          const t = translateFilter(fnName, sub);
          if (!t.exact) exact = false;
          approximated.push(...t.approximated);
          if (t.match) parts.push(t.match);
        }
      } else if (key === '$or' && Array.isArray(filter.$or)) {
        const subs = filter.$or.map((sub) => translateFilter(fnName, sub));
        // One branch left out would drop the entries it keeps: the whole $or goes.
        if (subs.some((t) => !t.match)) {
          exact = false;
          approximated.push('$or: a branch is not translated, so the whole $or is not applied in the count (an upper bound)');
        } else {
          if (subs.some((t) => !t.exact)) exact = false;
          subs.forEach((t) => approximated.push(...t.approximated));
          parts.push({ $or: subs.map((t) => t.match) });
        }
      } else if (key.startsWith('$')) {
        exact = false;
        approximated.push(`${key}: not applied in the count (an upper bound)`);
      } else {
        add(key, filter[key]);
      }
    }
    return { match: parts.length === 0 ? null : parts.length === 1 ? parts[0] : { $and: parts }, exact, approximated };
  }

  // ---- the resume's scan ------------------------------------------------------

  // How many of the entries that pass the stream's filter each slice lists
  // ({ts, bytes}): enough to place the first batches (101 events, 4 MiB).
  const HEAD_LIMIT = 10000;

  // One slice of the resume's scan, counted on the server in one pass: every
  // entry read, those of the stream's namespace, those its filter keeps, and
  // the first of these with their sizes.
  function scanPipeline(slice, stream) {
    const group = [{ $group: { _id: null, entries: { $sum: 1 }, bytes: { $sum: { $bsonSize: '$$ROOT' } } } }];
    const facet = { read: group };
    if (stream) {
      facet.namespace = [{ $match: stream.namespace }, ...group];
      facet.matching = [{ $match: stream.matching }, ...group];
      facet.head = [{ $match: stream.matching }, { $limit: HEAD_LIMIT }, { $project: { _id: 0, ts: 1, bytes: { $bsonSize: '$$ROOT' } } }];
    }
    return [{ $match: slice }, { $facet: facet }];
  }

  // Entries and bytes read from the slice's start up to `ts`, inclusive.
  function prefixPipeline(lower, ts) {
    return [{ $match: { ts: { $gte: lower, $lte: ts } } }, { $group: { _id: null, entries: { $sum: 1 }, bytes: { $sum: { $bsonSize: '$$ROOT' } } } }];
  }

  const figure = (arr) => (arr && arr[0] ? { entries: num(arr[0].entries), bytes: num(arr[0].bytes) } : { entries: 0, bytes: 0 });

  // total: {entries, bytes, namespace?, matching?, head?, slices: [...]}; doc: a
  // slice's $facet answer. Each slice keeps its own counts (for the arrival).
  function addScan(total, doc, lower) {
    const read = figure(doc && doc.read);
    const slice = { lower, before: { entries: total.entries, bytes: total.bytes }, read };
    total.entries += read.entries;
    total.bytes += read.bytes;
    if (doc && doc.namespace) {
      for (const k of ['namespace', 'matching']) {
        const f = figure(doc[k]);
        total[k] = total[k] || { entries: 0, bytes: 0 };
        total[k].entries += f.entries;
        total[k].bytes += f.bytes;
      }
      const room = HEAD_LIMIT - (total.head || []).length;
      total.head = (total.head || []).concat((doc.head || []).slice(0, Math.max(0, room)).map((h) => ({ ts: h.ts, bytes: num(h.bytes), slice: (total.slices || []).length })));
    }
    total.slices = (total.slices || []).concat([slice]);
    return total;
  }

  // ---- when the first event can leave -----------------------------------------

  function filterInScan(version) {
    const m = /^(\d+)\.(\d+)/.exec(String(version || ''));
    if (!m) return null;
    const [major, minor] = batching.FILTER_IN_SCAN_FROM;
    return Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor);
  }

  // Where in the scan the first event of a resume can leave, with the default
  // batch size and with batchSize 1, by the change-stream-resume lab's claims
  // (change-stream-batching.js). Each case: {at: index into scan.head, or
  // null for the end of the scan; atLeast: the server may read further; lab:
  // the claims it rests on; why; source}.
  function arrivalPlan(scan, version) {
    const inScan = filterInScan(version);
    const head = scan.head || [];
    const matching = scan.matching ? scan.matching.entries : 0;
    const headIsAll = head.length >= matching;
    const cases = [];
    if (matching >= batching.DEFAULT_FIRST_BATCH) {
      cases.push({ name: 'defaultBatchSize', at: batching.DEFAULT_FIRST_BATCH - 1, atLeast: true, lab: [],
        why: `${matching} entries pass the stream's filter, so the first batch can fill with ${batching.DEFAULT_FIRST_BATCH} events before the scan ends (the lab's claim A has fewer)`,
        source: batching.SOURCES.KNOB });
    } else {
      cases.push({ name: 'defaultBatchSize', at: null, atLeast: false, lab: ['A'], why: batching.REASONS.A, source: batching.SOURCES.KNOB });
    }
    if (inScan === false) {
      cases.push({ name: 'batchSize1', at: head.length ? 0 : null, atLeast: head.length > 0, lab: ['B', 'C'],
        why: `${batching.REASONS.BEFORE_REWRITE}: the first event leaves with the batch that holds the first matching entry, at most ${fmt(batching.CURSOR_BATCH_BYTES)} of the namespace's entries after it`,
        source: batching.SOURCES.REWRITE });
    } else {
      let sum = 0;
      let at = null;
      for (let k = 0; k < head.length; k++) {
        sum += head[k].bytes;
        if (sum >= batching.CURSOR_BATCH_BYTES) { at = k; break; }
      }
      const beyond = at === null && !headIsAll;
      cases.push({ name: 'batchSize1', at: beyond ? head.length - 1 : at, atLeast: beyond, lab: ['C', 'D'],
        why: `${batching.REASONS.WITH_REWRITE}: the first event leaves once ${fmt(batching.CURSOR_BATCH_BYTES)} of them are batched or the scan ends` +
          (inScan === null ? ` (the server's version is unknown: this assumes ${batching.FILTER_IN_SCAN_FROM.join('.')} or newer)` : ''),
        source: batching.SOURCES.REWRITE });
    }
    return { filterInScan: inScan, cases };
  }

  // The plan's cases with what the scan reads before each: `prefix(k)` is
  // the answer of prefixPipeline for head[k] (entries and bytes read from the
  // start of its slice up to it).
  function shapeArrival(plan, scan, prefix, version) {
    const out = { serverVersion: version, filterInScan: plan.filterInScan };
    for (const c of plan.cases) {
      let read;
      let until = null;
      if (c.at === null) {
        read = { entries: scan.entries, bytes: scan.bytes };
      } else {
        const h = scan.head[c.at];
        const slice = scan.slices[h.slice];
        const p = figure([prefix(c.at)]);
        read = { entries: slice.before.entries + p.entries, bytes: slice.before.bytes + p.bytes };
        until = h.ts;
      }
      out[c.name] = {
        read, until, wholeScan: c.at === null, atLeast: c.atLeast,
        share: scan.bytes ? Math.round((1000 * read.bytes) / scan.bytes) / 1000 : 1,
        lab: c.lab, why: c.why, source: c.source.ref,
      };
    }
    return out;
  }

  function arrivalLines(a) {
    const lines = [];
    const label = { defaultBatchSize: 'default batch size', batchSize1: 'batchSize 1' };
    for (const k of ['defaultBatchSize', 'batchSize1']) {
      const c = a[k];
      if (!c) continue;
      const where = c.wholeScan ? 'after the whole scan' : `after ${c.atLeast ? 'at least ' : ''}${c.read.entries} entries, ${fmt(c.read.bytes)} (${Math.round(c.share * 100)}% of the scan)`;
      const claims = c.lab.length ? `; change-stream-resume lab, claim${c.lab.length > 1 ? 's' : ''} ${c.lab.join(', ')}` : '';
      lines.push(`  first event with ${label[k]}: ${where} (${c.source}${claims})`);
    }
    return lines;
  }

  const BIG_SCAN_ENTRIES = 10000;
  const BIG_SCAN_BYTES = 16 * 1024 * 1024;

  function resumeAdvice(r) {
    const at = tsDate(r.timestamp).toISOString();
    if (r.position === 'fallen-off') {
      return `cannot resume: the token's time ${at} is older than the oldest oplog entry ` +
        `${r.window.first.wall.toISOString()}, which is not the replica set's 'initiating set' no-op (ChangeStreamHistoryLost); ` +
        'open a new stream and resync what was missed';
    }
    if (r.position === 'before-initiation') {
      const s = r.scan;
      const amount = s ? `${s.complete ? '' : 'at least '}${s.entries} entries (${fmt(s.bytes)})` : 'every entry';
      return `resumable: the token's time ${at} is older than the oldest oplog entry, but that entry is the replica set's ` +
        `'initiating set' no-op, so the oplog has never been truncated and the server resumes; a resume scans the whole oplog, ${amount}; ` +
        'the oplog\'s first truncation makes the token fall off (ChangeStreamHistoryLost)';
    }
    if (r.position === 'ahead') {
      return `the token's time ${at} is after the newest oplog entry: it comes from another deployment, ` +
        'or this member lags behind the one that issued it';
    }
    const s = r.scan;
    const amount = `${s.complete ? '' : 'at least '}${s.entries} entries (${fmt(s.bytes)})`;
    const warn = r.marginSeconds < r.window.seconds * 0.1 ?
      `only ${Math.round(r.marginSeconds / 60)} min of older history left before it falls off the oplog; ` : '';
    if (r.tokenType === 0) return `${warn}resumable from this high-water mark (postBatchResumeToken); a resume scans ${amount}`;
    if (!s.complete || s.entries > BIG_SCAN_ENTRIES || s.bytes > BIG_SCAN_BYTES) {
      return `${warn}resumable, but the resume rescans ${amount} after this event; resume from the ` +
        "cursor's postBatchResumeToken (4.0.7+) to skip what the server already passed";
    }
    return `${warn}resumable; a resume scans ${amount}`;
  }

  // scan: the summed slices (addScan) with complete, scannedUntil, ms; stream:
  // {scope, filter?} as the scan applied them; arrival: shapeArrival's answer.
  function shapeResume(decoded, window, scan, stream, arrival) {
    const ts = decoded.timestamp;
    const initiating = isInitiatingSet(window.first);
    const out = {
      timestamp: ts,
      tokenType: decoded.tokenType === undefined ? undefined : num(decoded.tokenType),
      version: decoded.version === undefined ? undefined : num(decoded.version),
      position: tokenPosition(ts, window.first.ts, window.last.ts, initiating),
      window: {
        first: { ts: window.first.ts, wall: window.first.wall },
        last: window.last,
        seconds: tsSeconds(window.last.ts) - tsSeconds(window.first.ts),
        firstIsInitiatingSet: initiating,
      },
    };
    for (const k of ['tokenType', 'version']) if (out[k] === undefined) delete out[k];
    out.resumable = isResumable(out.position);
    // Before the initiation no history is left to lose but the first entry:
    // the token falls off with the oplog's first truncation.
    out.marginSeconds = out.position === 'before-initiation' ? 0 : tsSeconds(ts) - tsSeconds(window.first.ts);
    if (scan) {
      out.scan = { entries: scan.entries, bytes: scan.bytes };
      if (scan.namespace) out.scan.namespace = scan.namespace;
      if (scan.matching) out.scan.matching = scan.matching;
      for (const k of ['complete', 'scannedUntil', 'ms']) if (scan[k] !== undefined) out.scan[k] = scan[k];
    }
    if (stream) {
      out.stream = { namespace: stream.scope.text };
      if (stream.filter) {
        out.stream.filter = stream.filter.source;
        out.stream.exact = stream.filter.exact;
        out.stream.approximated = stream.filter.approximated;
      }
    }
    if (arrival) out.arrival = arrival;
    out.advice = resumeAdvice(out);
    return ex.withInspect(out, (x) => {
      const kind = x.tokenType === 0 ? 'high-water mark token' : x.tokenType === 128 ? 'event token' : 'time';
      const where = { inside: 'inside', 'before-initiation': 'before', ahead: 'ahead of' }[x.position] || 'outside';
      const lines = [`${kind} at ${tsText(x.timestamp)}: ${where} the oplog window ` +
        `(${x.window.first.wall.toISOString()} to ${x.window.last.wall.toISOString()})`];
      if (x.scan) {
        lines.push(`  a resume scans ${x.scan.complete ? '' : 'at least '}${x.scan.entries} entries, ${fmt(x.scan.bytes)}` +
          `${x.scan.complete ? '' : ` (stopped at maxTimeMS, reached ${tsText(x.scan.scannedUntil)})`}`);
        if (x.scan.namespace) {
          lines.push(`  of which on ${x.stream.namespace}: ${x.scan.namespace.entries} entries, ${fmt(x.scan.namespace.bytes)}` +
            (x.stream.filter ? `; kept by the filter${x.stream.exact ? '' : ' (at most)'}: ${x.scan.matching.entries} entries, ${fmt(x.scan.matching.bytes)}` : ''));
        }
        if (x.stream && x.stream.approximated && x.stream.approximated.length) {
          for (const a of x.stream.approximated) lines.push(`    ${a}`);
        }
      }
      if (x.arrival) lines.push(...arrivalLines(x.arrival));
      lines.push(`  ${x.advice}`);
      return lines;
    });
  }

  return {
    noOplogReason, isPrimary, serverError, parseTime, parseSizeFilter, checkMaxTime, sizePipeline, shapeSizeResult,
    sessionPipeline, othersPipeline, sessionCaughtUp, shapeRunResult, shapeWindow, isInitiatingSet, tokenPosition, isResumable, scanSlices, scanPipeline,
    addScan, resumeAdvice, shapeResume, streamScope, streamMatch, translateFilter, prefixPipeline, arrivalPlan, shapeArrival,
    filterInScan, tsSeconds, tsIncrement, tsDate, compareTs, makeTs,
  };
}

module.exports = makeServer;
