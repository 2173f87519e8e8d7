'use strict';
// The server-side half of the oplog snippets, kept pure: what to ask the server
// (hello checks, aggregation pipelines over local.oplog.rs) and how to shape its
// answers. oplog.js does the round trips; tests feed recorded or hand-derived
// documents straight into these functions.

const OP_CODES = { insert: 'i', update: 'u', delete: 'd', command: 'c', noop: 'n' };
const OP_NAMES = { i: 'insert', u: 'update', d: 'delete', c: 'command', n: 'noop' };
const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86400 };
const MAX_TS_INCREMENT = 0xFFFFFFFF;

function makeServer(shell, ex) {
  const { Timestamp } = shell.bson;
  const fmt = (n) => shell.formatBytes(n);

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
      out.ns = isRegex || ns.includes('.') ? ns : new RegExp(`^${ns.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`);
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

  function scanPipeline(slice, uuid) {
    const group = { _id: null, entries: { $sum: 1 }, bytes: { $sum: { $bsonSize: '$$ROOT' } } };
    if (uuid) group.sameCollection = { $sum: { $cond: [{ $eq: ['$ui', uuid] }, 1, 0] } };
    return [{ $match: slice }, { $group: group }];
  }

  function addScan(total, doc) {
    if (!doc) return total;
    total.entries += num(doc.entries);
    total.bytes += num(doc.bytes);
    if (doc.sameCollection !== undefined) total.sameCollection = (total.sameCollection || 0) + num(doc.sameCollection);
    return total;
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

  function shapeResume(decoded, window, scan) {
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
    if (scan) out.scan = scan;
    out.advice = resumeAdvice(out);
    return ex.withInspect(out, (x) => {
      const kind = x.tokenType === 0 ? 'high-water mark token' : x.tokenType === 128 ? 'event token' : 'time';
      const where = { inside: 'inside', 'before-initiation': 'before', ahead: 'ahead of' }[x.position] || 'outside';
      const lines = [`${kind} at ${tsText(x.timestamp)}: ${where} the oplog window ` +
        `(${x.window.first.wall.toISOString()} to ${x.window.last.wall.toISOString()})`];
      if (x.scan) {
        const same = x.scan.sameCollection !== undefined ? `, ${x.scan.sameCollection} on the token's collection` : '';
        lines.push(`  a resume scans ${x.scan.complete ? '' : 'at least '}${x.scan.entries} entries, ${fmt(x.scan.bytes)}${same}` +
          `${x.scan.complete ? '' : ` (stopped at maxTimeMS, reached ${tsText(x.scan.scannedUntil)})`}`);
      }
      lines.push(`  ${x.advice}`);
      return lines;
    });
  }

  return {
    noOplogReason, isPrimary, serverError, parseTime, parseSizeFilter, checkMaxTime, sizePipeline, shapeSizeResult,
    sessionPipeline, othersPipeline, sessionCaughtUp, shapeRunResult, shapeWindow, isInitiatingSet, tokenPosition, isResumable, scanSlices, scanPipeline,
    addScan, resumeAdvice, shapeResume, tsSeconds, tsIncrement, tsDate, compareTs, makeTs,
  };
}

module.exports = makeServer;
