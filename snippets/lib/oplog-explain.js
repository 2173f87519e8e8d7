'use strict';
// Reading one oplog entry: what it writes, where its bytes are, and whether an
// array travels whole. Pure: no server, so every branch is testable in --nodb.
//
// Formats, as the server writes them (mongodb/mongo):
// - update $v:1 (3.6-4.4, and pre-3.6 without $v): {$set: {path: v}, $unset: {path: true}}
//   (jstests/replsets/oplog_format.js).
// - update $v:2 (FCV >= 4.7, so 5.0+): {$v: 2, diff: D}; a document diff D holds the
//   sections d {field: false}, u {field: value}, i {field: value}, b {field: binary
//   diff} and s<field> {sub diff}; an array diff is {a: true, l?: newLength,
//   u<index>: value, s<index>: {sub diff}} (src/mongo/db/update/document_diff_serialization.cpp).
// - replacement update: o is the whole new document.
// - applyOps (transactions, batched writes): {applyOps: [inner ops], partialTxn?, prepare?}.

const bsonSize = require('./bson-size.js');
const KNOWN_OPS = {
  i: 'insert', u: 'update', d: 'delete', c: 'command', n: 'noop',
  // Container writes, seen only on the server's development branch
  // (src/mongo/db/repl/apply_ops_command_info_test.cpp); not broken down here.
  ci: 'container insert', cu: 'container update', cd: 'container delete',
};
const MAX_APPLYOPS_DEPTH = 8;
const PATHS_SHOWN = 8;

function makeExplain(shell) {
  const fmt = (n) => shell.formatBytes(n);

  // Values typed at the prompt come from the shell's own realm, so
  // `instanceof Date` would miss them: ask for the built-in tag instead.
  function isDate(x) {
    return Object.prototype.toString.call(x) === '[object Date]';
  }

  function isRegExp(x) {
    return Object.prototype.toString.call(x) === '[object RegExp]';
  }

  const { isDocument, describe } = shell;

  function toNumber(x) {
    if (typeof x === 'number') return x;
    if (typeof x === 'bigint') return Number(x);
    if (x && typeof x.toNumber === 'function') return x.toNumber();
    if (x && typeof x.valueOf === 'function' && typeof x.valueOf() === 'number') return x.valueOf();
    return NaN;
  }

  // Size of one BSON element (type byte, name, NUL, value): what a field costs
  // inside its parent document.
  function elementBytes(name, value) {
    const n = bsonSize.elementBytes(name, value);
    return n === null ? shell.bsonsize({ [name]: value }) - 5 : n;
  }

  function entryBytes(entry) {
    const n = bsonSize.documentBytes(entry);
    return n === null ? shell.bsonsize(entry) : n;
  }

  // Every array held whole inside a written value: a value written into the
  // entry carries its arrays in full, however deep.
  // `bytes`: the element's size when the caller has it already (sizing is the
  // costly part on multi-megabyte entries).
  function wholeArrays(path, name, value, out, bytes) {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      out.push({ path, action: 'replace', elements: value.length, length: value.length,
        bytes: bytes === undefined ? elementBytes(name, value) : bytes });
      return;
    }
    if (isDocument(value)) {
      // Paths are built only for values that may hold an array: most fields
      // of a written element are scalars, and on a million elements the
      // strings would cost more than the walk.
      for (const key of Object.keys(value)) {
        const v = value[key];
        if (v !== null && typeof v === 'object') wholeArrays(`${path}.${key}`, key, v, out);
      }
    }
  }

  function join(prefix, name) {
    return prefix ? `${prefix}.${name}` : name;
  }

  // ---- $v:2 diffs ----------------------------------------------------------

  function diffError(fnName, path, msg) {
    return shell.error(fnName, `not a valid $v:2 diff${path ? ` at '${path}'` : ''}: ${msg}`);
  }

  function isArrayDiff(sub) {
    const keys = Object.keys(sub);
    return keys.length > 0 && keys[0] === 'a';
  }

  function walkSubDiff(fnName, ctx, path, key, sub) {
    if (!isDocument(sub)) throw diffError(fnName, path, `'${key}' must be a sub diff object, got ${describe(sub)}`);
    if (isArrayDiff(sub)) walkArrayDiff(fnName, ctx, path, key, sub);
    else walkDocumentDiff(fnName, ctx, path, sub);
  }

  function walkDocumentDiff(fnName, ctx, prefix, diff) {
    const sections = { d: 'delete', u: 'update', i: 'insert', b: 'binary' };
    for (const key of Object.keys(diff)) {
      const value = diff[key];
      if (sections[key]) {
        if (!isDocument(value)) {
          throw diffError(fnName, prefix, `section '${key}' must be an object, got ${describe(value)}`);
        }
        for (const field of Object.keys(value)) {
          const path = join(prefix, field);
          const bytes = elementBytes(field, value[field]);
          ctx.paths.push(shell.pathRecord(path, sections[key], bytes));
          if (key === 'u' || key === 'i') wholeArrays(path, field, value[field], ctx.arrays, bytes);
        }
      } else if (key.length > 1 && key[0] === 's') {
        walkSubDiff(fnName, ctx, join(prefix, key.slice(1)), key, value);
      } else {
        throw diffError(fnName, prefix, `unexpected field '${key}' (a document diff has d, u, i, b and s<field>)`);
      }
    }
  }

  function walkArrayDiff(fnName, ctx, path, key, diff) {
    if (diff.a !== true) throw diffError(fnName, path, `an array diff starts with a: true, got a: ${String(diff.a)}`);
    const entry = { path, action: 'elements', elements: 0, bytes: 0 };
    ctx.arrays.push(entry);
    // The diff's own size is summed from its elements' sizes, which the walk
    // needs anyway: sizing the whole diff first would read every element twice.
    let bytes = 1 + bsonSize.cstringBytes(key) + 5 + elementBytes('a', diff.a);
    for (const k of Object.keys(diff)) {
      if (k === 'a') continue;
      const value = diff[k];
      if (k === 'l') {
        const length = toNumber(value);
        if (!Number.isInteger(length) || length < 0) {
          throw diffError(fnName, path, `'l' (new length) must be a non-negative integer, got ${describe(value)}`);
        }
        entry.action = 'resize';
        entry.length = length;
        const lBytes = elementBytes(k, value);
        bytes += lBytes;
        ctx.paths.push(shell.pathRecord(path, 'resize', lBytes));
        continue;
      }
      const m = /^([us])(\d+)$/.exec(k);
      if (!m) throw diffError(fnName, path, `unexpected field '${k}' (an array diff has a, l, u<index> and s<index>)`);
      const elementPath = `${path}.${m[2]}`;
      entry.elements++;
      if (m[1] === 'u') {
        const uBytes = elementBytes(k, value);
        bytes += uBytes;
        ctx.paths.push(shell.pathRecord(elementPath, 'update', uBytes));
        wholeArrays(elementPath, k, value, ctx.arrays, uBytes);
      } else {
        walkSubDiff(fnName, ctx, elementPath, k, value);
        bytes += elementBytes(k, value);
      }
    }
    entry.bytes = bytes;
  }

  // ---- $v:1 ($set / $unset) ------------------------------------------------

  // $v:1 does not say which path components are array indexes; a numeric one
  // almost always is (that is how the server logs a positional $push).
  function arrayOfPath(path) {
    const parts = path.split('.');
    for (let i = parts.length - 1; i > 0; i--) {
      if (/^\d+$/.test(parts[i])) return parts.slice(0, i).join('.');
    }
    return null;
  }

  function walkV1(fnName, ctx, o) {
    for (const op of Object.keys(o)) {
      if (op === '$v') continue;
      if (op !== '$set' && op !== '$unset') {
        throw shell.error(fnName, `unexpected '${op}' in a $v:1 update entry: the oplog holds only $set and $unset ` +
          '(an update command such as {$push: ...} is not an oplog entry; read the entry from local.oplog.rs)');
      }
      const fields = o[op];
      if (!isDocument(fields)) throw shell.error(fnName, `'${op}' must be an object, got ${describe(fields)}`);
      const change = op === '$set' ? 'set' : 'unset';
      for (const path of Object.keys(fields)) {
        const bytes = elementBytes(path, fields[path]);
        ctx.paths.push(shell.pathRecord(path, change, bytes));
        const array = arrayOfPath(path);
        if (array !== null) {
          let entry = ctx.arrays.find((a) => a.path === array && a.action === 'elements');
          if (!entry) {
            entry = { path: array, action: 'elements', elements: 0, bytes: 0 };
            ctx.arrays.push(entry);
          }
          entry.elements++;
          entry.bytes += bytes;
        }
        if (change === 'set') wholeArrays(path, path, fields[path], ctx.arrays, bytes);
      }
    }
  }

  // ---- entries ---------------------------------------------------------------

  function checkEntry(fnName, entry) {
    if (!isDocument(entry)) {
      throw shell.error(fnName, `expected an oplog entry document (e.g. db.getSiblingDB('local').oplog.rs.findOne()), got ${describe(entry)}`);
    }
    if (typeof entry.op !== 'string') {
      throw shell.error(fnName, `not an oplog entry: ${entry.op === undefined ? "it has no 'op' field" : `'op' is ${describe(entry.op)}`} ` +
        "(an entry has op, ns and o, e.g. {op: 'u', ns: 'db.coll', o: {...}, o2: {_id: ...}})");
    }
    if (!KNOWN_OPS[entry.op]) {
      throw shell.error(fnName, `not an oplog entry: unknown op '${entry.op}' (known: ${Object.keys(KNOWN_OPS).join(', ')})`);
    }
    if (typeof entry.ns !== 'string') {
      throw shell.error(fnName, `not an oplog entry: 'ns' must be a string ('db.collection'), got ${describe(entry.ns)}`);
    }
    if (!isDocument(entry.o)) {
      throw shell.error(fnName, `not an oplog entry: 'o' must be a document, got ${describe(entry.o)}`);
    }
  }

  function updateFormat(fnName, o) {
    if (o.$v !== undefined) {
      const v = toNumber(o.$v);
      if (v === 2) {
        if (!isDocument(o.diff)) throw shell.error(fnName, `a $v:2 update needs a 'diff' object, got ${describe(o.diff)}`);
        return '$v:2';
      }
      if (v === 1) return '$v:1';
      throw shell.error(fnName, `unknown update format $v: ${String(o.$v)} (known: 1, 2)`);
    }
    return Object.keys(o).some((k) => k[0] === '$') ? '$v:1' : 'replacement';
  }

  function documentKey(entry) {
    if (entry.op === 'u') return entry.o2;
    if (entry.op === 'd') return entry.o;
    if (entry.op === 'i') return entry.o2 || (entry.o._id === undefined ? undefined : { _id: entry.o._id });
    return undefined;
  }

  // knownBytes: the entry's size when the caller has it (a dump's document
  // length): sizing a 100 KB entry walks every value in it.
  function explainOne(fnName, entry, depth, knownBytes) {
    checkEntry(fnName, entry);
    const ctx = { paths: [], arrays: [] };
    const bytes = knownBytes === undefined ? entryBytes(entry) : knownBytes;
    const out = { op: KNOWN_OPS[entry.op], ns: entry.ns, format: null, bytes, paths: ctx.paths, arrays: ctx.arrays };
    const key = documentKey(entry);
    if (key !== undefined) out.documentKey = key;
    if (entry.ts !== undefined) out.ts = entry.ts;

    switch (entry.op) {
      case 'i':
        out.format = 'document';
        for (const f of Object.keys(entry.o)) {
          const bytes = elementBytes(f, entry.o[f]);
          ctx.paths.push(shell.pathRecord(f, 'insert', bytes));
          wholeArrays(f, f, entry.o[f], ctx.arrays, bytes);
        }
        break;
      case 'u':
        out.format = updateFormat(fnName, entry.o);
        if (out.format === '$v:2') {
          walkDocumentDiff(fnName, ctx, '', entry.o.diff);
        } else if (out.format === '$v:1') {
          walkV1(fnName, ctx, entry.o);
        } else {
          for (const f of Object.keys(entry.o)) {
            const bytes = elementBytes(f, entry.o[f]);
            ctx.paths.push(shell.pathRecord(f, 'replace', bytes));
            wholeArrays(f, f, entry.o[f], ctx.arrays, bytes);
          }
        }
        break;
      case 'd':
        out.format = 'documentKey';
        break;
      case 'n':
        out.format = 'noop';
        if (typeof entry.o.msg === 'string') out.message = entry.o.msg;
        break;
      case 'c': {
        const command = Object.keys(entry.o)[0];
        if (command !== undefined) out.command = command;
        if (command === 'applyOps') {
          out.format = 'applyOps';
          explainApplyOps(fnName, entry, out, depth);
        } else {
          out.format = 'command';
          const target = entry.o[command];
          if (typeof target === 'string' && entry.ns.endsWith('.$cmd')) {
            out.target = `${entry.ns.slice(0, -'.$cmd'.length)}.${target}`;
          }
        }
        break;
      }
      default:
        out.format = 'container';
        out.message = 'container writes (op ci, cu, cd) are not broken down by this helper';
    }
    return out;
  }

  function explainApplyOps(fnName, entry, out, depth) {
    const inner = entry.o.applyOps;
    if (!Array.isArray(inner)) {
      throw shell.error(fnName, `not an oplog entry: 'o.applyOps' must be an array of operations, got ${describe(inner)}`);
    }
    if (depth >= MAX_APPLYOPS_DEPTH) throw shell.error(fnName, `applyOps nested deeper than ${MAX_APPLYOPS_DEPTH} levels`);
    out.ops = inner.map((op, i) => {
      try {
        return explainOne(fnName, op, depth + 1);
      } catch (err) {
        err.message = err.message.replace(`${fnName}: `, `${fnName}: applyOps[${i}]: `);
        throw err;
      }
    });
    const txn = {};
    if (entry.lsid && entry.lsid.id !== undefined) txn.lsid = entry.lsid.id;
    if (entry.txnNumber !== undefined) txn.txnNumber = entry.txnNumber;
    if (entry.o.partialTxn) txn.partial = true;
    if (entry.o.prepare) txn.prepare = true;
    if (entry.o.count !== undefined) txn.count = toNumber(entry.o.count);
    if (Object.keys(txn).length) out.transaction = txn;
  }

  // ---- printing ------------------------------------------------------------

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
  }

  function arrayLine(a) {
    if (a.action === 'replace') return `${a.path}: whole array rewritten, ${plural(a.elements, 'element')}, ${fmt(a.bytes)}`;
    if (a.action === 'resize') {
      const writes = a.elements ? `, ${plural(a.elements, 'element write')}` : '';
      return `${a.path}: length set to ${a.length}${writes} (no whole-array write), ${fmt(a.bytes)}`;
    }
    return `${a.path}: ${plural(a.elements, 'element write')} (positional), ${fmt(a.bytes)}`;
  }

  function explanationLines(x) {
    const head = [x.op, x.ns || '(no namespace)'];
    if (x.command) head.push(x.command);
    if (x.target) head.push(`on ${x.target}`);
    const lines = [`${head.join(' ')} · ${x.format === 'document' || x.format === 'noop' || x.format === 'command' ? x.format : `${x.format} format`} · ${fmt(x.bytes)}`];
    if (x.message) lines.push(`  ${x.message}`);
    if (x.transaction) {
      const t = x.transaction;
      const bits = [];
      if (t.txnNumber !== undefined) bits.push(`txnNumber ${t.txnNumber}`);
      if (t.partial) bits.push('partial (more entries follow)');
      if (t.prepare) bits.push('prepared');
      if (t.count !== undefined) bits.push(`count ${t.count}`);
      if (bits.length) lines.push(`  transaction: ${bits.join(', ')}`);
    }
    const sorted = [...x.arrays].sort((a, b) => b.bytes - a.bytes);
    for (const a of sorted) lines.push(`  ${arrayLine(a)}`);
    if (x.paths.length) {
      const shown = x.paths.slice(0, PATHS_SHOWN).map((p) => `${p.path} (${p.change})`).join(', ');
      const more = x.paths.length > PATHS_SHOWN ? ` (+${x.paths.length - PATHS_SHOWN} more)` : '';
      lines.push(`  paths: ${shown}${more}`);
    }
    if (x.ops) {
      lines.push(`  ${plural(x.ops.length, 'operation')}:`);
      x.ops.forEach((op, i) => {
        explanationLines(op).forEach((l, j) => lines.push(`    ${j === 0 ? `[${i}] ` : '    '}${l}`));
      });
    }
    return lines;
  }

  function withInspect(obj, lines) {
    Object.defineProperty(obj, shell.inspect, { value: () => lines(obj).join('\n'), enumerable: false });
    return obj;
  }

  function explain(fnName, entry) {
    const out = explainOne(fnName, entry, 0);
    (function attach(x) {
      withInspect(x, explanationLines);
      if (x.ops) x.ops.forEach(attach);
    })(out);
    return out;
  }

  // bytes = bsonsize(entry): a BSON document is its 4-byte length, its
  // elements and a closing NUL, so 5 + the breakdown (one sizing pass, not two).
  function size(fnName, entry) {
    checkEntry(fnName, entry);
    const breakdown = {};
    let bytes = 5;
    for (const f of Object.keys(entry)) {
      breakdown[f] = elementBytes(f, entry[f]);
      bytes += breakdown[f];
    }
    const out = { bytes, breakdown };
    return withInspect(out, (x) => {
      const parts = Object.entries(x.breakdown).sort((a, b) => b[1] - a[1])
        .map(([f, b]) => `${f} ${fmt(b)} (${((100 * b) / x.bytes).toFixed(1)}%)`);
      return [`${fmt(x.bytes)} (${x.bytes} bytes): ${parts.join(', ')}`];
    });
  }

  // The explanation without its printing: oplogAudit reads thousands of
  // entries per second and prints none of them.
  const explainEntry = (fnName, entry, bytes) => explainOne(fnName, entry, 0, bytes);

  return { explain, explainEntry, size, explanationLines, withInspect, isDocument, isDate, isRegExp, toNumber, describe, elementBytes };
}

module.exports = makeExplain;
