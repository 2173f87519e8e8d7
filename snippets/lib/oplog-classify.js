'use strict';
// oplogAudit's one classification code path: the live audit (entries from a
// cursor, bytes from $bsonSize or bsonsize) and the offline one (entries from a
// .bson dump, bytes = the document's length) both feed add() and groups(), and
// read the same result. Pure: no server, no file.
//
// An entry's `o` is read only for updates and commands: inserts, deletes and
// no-ops are counted by ns, op and bytes, so the live path may group them on
// the server and the offline one need not parse them.

const bsonSize = require('./bson-size.js');

const OP_NAMES = { i: 'insert', u: 'update', d: 'delete', c: 'command', n: 'noop' };
const TOP_FIELDS = 10;
// Forms of an update, as the oplog tells them (oplog-explain.js reads the entry).
const FORMS = {
  v1: '$v:1 $set/$unset',
  'v1-whole-array': '$v:1 $set of a whole array',
  'v2-whole-array': '$v:2 diff, whole array',
  'v2-elements': '$v:2 diff, array elements',
  'v2-fields': '$v:2 diff, fields only',
  replacement: 'replacement document',
};
// What the array-push-oplog lab measures (playbooks/array-push-oplog.md): an
// append by a plain $push is logged per element; $push with $slice, $sort or
// $position, $pull, $pop and $addToSet log the whole array on every write.
const REWRITE = 'append with a plain $push (logged per element) and trim in batches, or keep one document per ' +
  'reading and compact hourly (the array-push-oplog lab\'s per-second fix); $push with $slice/$sort/$position, ' +
  '$pull, $pop and $addToSet log the whole array';

function makeClassify(shell, ex) {
  const fmt = (n) => shell.formatBytes(n);

  function create() {
    return {
      entries: 0, bytes: 0, first: null, last: null,
      groups: new Map(), forms: new Map(), fields: new Map(), arrays: new Map(),
      transactions: { applyOpsEntries: 0, bytes: 0, innerOps: 0, committed: 0, partial: 0, prepared: 0, batchedWrites: 0, commits: 0, aborts: 0 },
      skipped: 0, skippedReason: null,
    };
  }

  // Numeric path parts are array positions: readings.1799 and readings.1800
  // are one field, or a month of appends would list a field per index.
  function fieldOf(path) {
    return path.split('.').map((p) => (/^\d+$/.test(p) ? '$' : p)).join('.');
  }

  function bump(map, key, make, bytes) {
    let g = map.get(key);
    if (!g) { g = make(); map.set(key, g); }
    g.entries++;
    g.bytes += bytes;
    return g;
  }

  function group(state, ns, op, entries, total, min, max) {
    const key = `${ns}\u0000${op}`;
    let g = state.groups.get(key);
    if (!g) { g = { ns, op, entries: 0, total: 0, min: Infinity, max: 0 }; state.groups.set(key, g); }
    g.entries += entries;
    g.total += total;
    if (min < g.min) g.min = min;
    if (max > g.max) g.max = max;
  }

  function seen(state, ts) {
    if (!ts || ts._bsontype !== 'Timestamp') return;
    if (!state.first || compareTs(ts, state.first) < 0) state.first = ts;
    if (!state.last || compareTs(ts, state.last) > 0) state.last = ts;
  }

  function compareTs(a, b) {
    return (a.getHighBits() >>> 0) - (b.getHighBits() >>> 0) || (a.getLowBits() >>> 0) - (b.getLowBits() >>> 0);
  }

  function updateForm(x) {
    const whole = x.arrays.some((a) => a.action === 'replace');
    if (x.format === 'replacement') return 'replacement';
    if (x.format === '$v:1') return whole ? 'v1-whole-array' : 'v1';
    if (whole) return 'v2-whole-array';
    return x.arrays.length ? 'v2-elements' : 'v2-fields';
  }

  function addUpdate(state, entry, bytes) {
    const x = ex.explainEntry('oplogAudit', entry, bytes);
    const ns = entry.ns;
    const form = updateForm(x);
    bump(state.forms, `${ns}\u0000${form}`, () => ({ ns, form, entries: 0, bytes: 0 }), bytes);
    const id = x.documentKey && x.documentKey._id;
    const perField = new Map();
    for (const p of x.paths) {
      const f = fieldOf(p.path);
      perField.set(f, (perField.get(f) || 0) + p.bytes);
    }
    for (const [field, b] of perField) {
      const g = bump(state.fields, `${ns}\u0000${field}`, () => ({ ns, field, entries: 0, bytes: 0, exampleId: id }), b);
      if (g.exampleId === undefined) g.exampleId = id;
    }
    for (const a of x.arrays) {
      if (a.action !== 'replace') continue;
      const field = fieldOf(a.path);
      const g = bump(state.arrays, `${ns}\u0000${field}`, () => ({ ns, field, entries: 0, bytes: 0, maxElements: 0, exampleId: id }), a.bytes);
      if (a.elements > g.maxElements) g.maxElements = a.elements;
    }
  }

  // One operation, top-level or inside applyOps.
  function addOp(state, entry, bytes) {
    const op = entry.op;
    const ns = typeof entry.ns === 'string' ? entry.ns : '';
    if (op === 'c' && entry.o && Array.isArray(entry.o.applyOps)) {
      addApplyOps(state, entry, bytes);
      return;
    }
    group(state, ns, op, 1, bytes, bytes, bytes);
    if (op === 'u') addUpdate(state, entry, bytes);
    else if (op === 'c' && entry.o) {
      if (entry.o.commitTransaction !== undefined) state.transactions.commits++;
      if (entry.o.abortTransaction !== undefined) state.transactions.aborts++;
    }
  }

  // Each inner op is counted under its own ns and op, as it stands in the
  // oplog (prepared or not); the entry itself is counted as the transaction or
  // batched write it was. The envelope's own bytes (its ts, lsid, ...) are in
  // transactions.bytes and the audit's total, not in any inner op.
  function addApplyOps(state, entry, bytes) {
    const t = state.transactions;
    t.applyOpsEntries++;
    t.bytes += bytes;
    const o = entry.o;
    if (entry.lsid === undefined) t.batchedWrites++;
    else if (o.prepare) t.prepared++;
    else if (o.partialTxn) t.partial++;
    else t.committed++;
    for (const inner of o.applyOps) {
      t.innerOps++;
      const b = bsonSize.documentBytes(inner);
      addOp(state, inner, b === null ? shell.bsonsize(inner) : b);
    }
  }

  // A whole top-level entry and its size in bytes. An entry the explanation
  // refuses (not an oplog entry: a restored collection may hold anything) is
  // counted as skipped, with the first reason, rather than ending the audit.
  function add(state, entry, bytes) {
    state.entries++;
    state.bytes += bytes;
    seen(state, entry.ts);
    try {
      if (typeof entry.op !== 'string' || typeof entry.ns !== 'string') {
        throw new Error("not an oplog entry: it has no string 'op' and 'ns'");
      }
      addOp(state, entry, bytes);
    } catch (err) {
      state.skipped++;
      if (state.skippedReason === null) state.skippedReason = String(err && err.message).replace(/^oplogAudit: /, '');
    }
  }

  // Entries the server grouped already ({ns, op, entries, bytes, min, max,
  // first, last}): inserts, deletes and no-ops of the live path.
  function addGroup(state, g) {
    const n = ex.toNumber(g.entries);
    const total = ex.toNumber(g.bytes);
    state.entries += n;
    state.bytes += total;
    seen(state, g.first);
    seen(state, g.last);
    group(state, g.ns, g.op, n, total, ex.toNumber(g.min), ex.toNumber(g.max));
  }

  function tsDate(ts) {
    return new Date((ts.getHighBits() >>> 0) * 1000);
  }

  const byBytes = (a, b) => b.bytes - a.bytes;

  // window: {maxBytes?, usedBytes?, first?, last?} of the oplog audited (live),
  // or {maxBytes} given for a dump.
  function result(state, source, window) {
    const seconds = state.first && state.last ? (state.last.getHighBits() >>> 0) - (state.first.getHighBits() >>> 0) : 0;
    const byNamespace = [...state.groups.values()].map((g) => ({
      ns: g.ns, op: OP_NAMES[g.op] || g.op, entries: g.entries,
      bytes: { total: g.total, min: g.entries ? g.min : 0, max: g.max, mean: g.entries ? Math.round(g.total / g.entries) : 0 },
      share: state.bytes ? Math.round((10000 * g.total) / state.bytes) / 10000 : 0,
    })).sort((a, b) => b.bytes.total - a.bytes.total);
    const out = {
      source,
      first: state.first ? { ts: state.first, wall: tsDate(state.first) } : null,
      last: state.last ? { ts: state.last, wall: tsDate(state.last) } : null,
      seconds,
      entries: state.entries,
      bytes: state.bytes,
      byNamespace,
      updateForms: [...state.forms.values()].map((f) => ({ ns: f.ns, form: f.form, description: FORMS[f.form], entries: f.entries, bytes: f.bytes })).sort(byBytes),
      wholeArrays: [...state.arrays.values()].map((a) => ({ ns: a.ns, field: a.field, entries: a.entries, bytes: a.bytes, maxElements: a.maxElements, exampleId: a.exampleId, rewrite: REWRITE })).sort(byBytes),
      topFields: [...state.fields.values()].sort(byBytes).slice(0, TOP_FIELDS)
        .map((f) => ({ ns: f.ns, field: f.field, entries: f.entries, bytes: f.bytes, exampleId: f.exampleId })),
      transactions: { ...state.transactions },
      window: shapeWindow(state, seconds, window || {}),
    };
    if (state.skipped) out.skipped = { entries: state.skipped, firstReason: state.skippedReason };
    return ex.withInspect(out, lines);
  }

  // The window now (the oplog's own first and last entry when live, the
  // audited span for a dump) and the window the oplog's configured size would
  // hold if every hour were written at the audited rate.
  function shapeWindow(state, seconds, w) {
    const out = {};
    if (w.first && w.last) {
      out.nowSeconds = (w.last.getHighBits() >>> 0) - (w.first.getHighBits() >>> 0);
    } else {
      out.nowSeconds = seconds;
    }
    out.nowHours = Math.round((out.nowSeconds / 3600) * 100) / 100;
    if (w.maxBytes) out.maxBytes = w.maxBytes;
    if (seconds > 0 && state.bytes > 0) {
      out.auditedBytesPerHour = Math.round((state.bytes / seconds) * 3600);
      if (w.maxBytes) out.hoursAtAuditedRate = Math.round((w.maxBytes / out.auditedBytesPerHour) * 100) / 100;
    }
    return out;
  }

  // ---- the table ---------------------------------------------------------------

  const entriesText = (n) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  const pct = (share) => `${(100 * share).toFixed(1)}%`;
  const pad = (s, n) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const lpad = (s, n) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

  function idText(id) {
    if (id === undefined) return '';
    if (id && typeof id.toHexString === 'function') return ` (e.g. _id ${id.toHexString()})`;
    try {
      return ` (e.g. _id ${JSON.stringify(id)})`;
    } catch {
      return '';
    }
  }

  function lines(x) {
    const span = x.first ? `${x.first.wall.toISOString()} to ${x.last.wall.toISOString()} (${Math.round((x.seconds / 3600) * 100) / 100} h)` : 'no entries';
    const out = [`oplog audit of ${x.source.name}: ${entriesText(x.entries)}, ${fmt(x.bytes)}, ${span}`];
    const w = x.window;
    let wl = `  window now ${w.nowHours} h`;
    if (w.auditedBytesPerHour !== undefined) wl += `; audited rate ${fmt(w.auditedBytesPerHour)}/h`;
    if (w.hoursAtAuditedRate !== undefined) wl += `, at which ${fmt(w.maxBytes)} of oplog holds ${w.hoursAtAuditedRate} h`;
    out.push(wl);
    if (x.byNamespace.length) {
      const nsWidth = Math.min(40, Math.max(9, ...x.byNamespace.map((g) => g.ns.length)));
      out.push(`  ${pad('namespace', nsWidth)}  ${pad('op', 7)}  ${lpad('entries', 9)}  ${lpad('total', 9)}  ${lpad('mean', 9)}  ${lpad('max', 9)}  ${lpad('share', 6)}`);
      for (const g of x.byNamespace.slice(0, 20)) {
        out.push(`  ${pad(g.ns || '(none)', nsWidth)}  ${pad(g.op, 7)}  ${lpad(String(g.entries), 9)}  ${lpad(fmt(g.bytes.total), 9)}  ${lpad(fmt(g.bytes.mean), 9)}  ${lpad(fmt(g.bytes.max), 9)}  ${lpad(pct(g.share), 6)}`);
      }
      if (x.byNamespace.length > 20) out.push(`  (+${x.byNamespace.length - 20} more in .byNamespace)`);
    }
    if (x.updateForms.length) {
      out.push('  updates by form:');
      for (const f of x.updateForms.slice(0, 10)) out.push(`    ${f.ns}: ${f.description}, ${entriesText(f.entries)}, ${fmt(f.bytes)}`);
    }
    if (x.wholeArrays.length) {
      out.push('  whole arrays written by updates:');
      for (const a of x.wholeArrays.slice(0, 10)) {
        out.push(`    ${a.ns} ${a.field}: ${entriesText(a.entries)}, ${fmt(a.bytes)}, up to ${a.maxElements} elements${idText(a.exampleId)}`);
      }
      out.push(`    rewrite: ${REWRITE}`);
    }
    if (x.topFields.length) {
      out.push('  top fields by bytes (updates):');
      for (const f of x.topFields) out.push(`    ${f.ns} ${f.field}: ${fmt(f.bytes)} in ${entriesText(f.entries)}${idText(f.exampleId)}`);
    }
    const t = x.transactions;
    if (t.applyOpsEntries) {
      out.push(`  applyOps: ${entriesText(t.applyOpsEntries)} (${fmt(t.bytes)}) holding ${t.innerOps} operations: ` +
        `${t.committed} committed transactions, ${t.partial} partial, ${t.prepared} prepared, ${t.batchedWrites} batched writes`);
    }
    if (x.skipped) out.push(`  skipped ${entriesText(x.skipped.entries)} that are not oplog entries, e.g.: ${x.skipped.firstReason}`);
    return out;
  }

  return { create, add, addGroup, result, fieldOf, FORMS, REWRITE };
}

module.exports = makeClassify;
