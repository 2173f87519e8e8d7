'use strict';
// Shared plumbing for every snippet module.
//
// Modules under snippets/lib/ are plain CommonJS loaded with require(): mongosh's
// load() would run them through its async rewriter, which costs startup time.
// The price is that they do not see the shell's globals (BSON constructors, db,
// print), so index.js, which mongosh does load() in the shell context, hands them
// over here.

const fs = require('fs');
const path = require('path');
const util = require('util');
const args = require('./args.js');

// mongosh implicitly awaits promises carrying this marker, exactly as it does
// for its own shell API calls, so `const r = seedCollection(...)` works in
// scripts and at the prompt without an explicit await.
const SYNTHETIC = Symbol.for('@@mongosh.syntheticPromise');

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

const NO_CONNECTION = 'needs a connected shell; started with --nodb or not connected';

// Stable codes beside the messages, as mongosh's own errors carry theirs
// (@mongosh/errors): scripts test err.code, not the wording.
const CODES = {
  BAD_ARGUMENT: 'DBALAB_BAD_ARGUMENT',
  NO_CONNECTION: 'DBALAB_NO_CONNECTION',
  BAD_DATA: 'DBALAB_BAD_DATA',
  FAILED: 'DBALAB_FAILED',
};

// The package README's table of functions: name -> one-line purpose. Read at
// help time, so the README stays the one place the purposes are written.
function purposes() {
  const out = {};
  let readme = '';
  try {
    readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  } catch {
    return out;
  }
  for (const line of readme.split('\n')) {
    const m = /^\| `(\w+)\(.*?\)` \| (.+?) \|$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

// '\n  name(args):\n\n  purpose\n\n  usage...\n\n  For more information on usage: ...'
function helpText(name, text) {
  const lines = text.replace(/^\n+/, '').replace(/\s+$/, '').split('\n');
  const signature = lines.shift();
  while (lines.length && lines[0].trim() === '') lines.shift();
  const purpose = purposes()[name];
  const body = lines.map((l) => (l ? `  ${l}` : ''));
  const sentence = purpose && `${purpose[0].toUpperCase()}${purpose.slice(1)}`;
  return ['', `  ${signature}:`, '', ...(sentence ? [`  ${sentence}`, ''] : []), ...body, '',
    '  For more information on usage: snippet help dba-lab'].join('\n');
}

function makeShell(ctx) {
  // The shell's own constructors: this module's Object, Array, Error and Date
  // are another realm's, so `x instanceof Error` would be false at the prompt.
  // ctx.realm: {Object, Array, Error, Date, pathRecord} of the shell (the
  // loader's); a caller outside a shell (a bench, a unit test of one module)
  // may leave it out and gets this realm's.
  const realm = ctx.realm || { Object, Array, Error, Date };
  const ownObjectProto = Object.prototype;
  const ownArrayProto = Array.prototype;

  // Moves a result into the shell's realm in place: plain objects and arrays
  // take the shell's prototypes (keeping every property, custom inspect
  // included), Dates are rebuilt; BSON values are the shell's already.
  function adopt(value, seen) {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Date) return new realm.Date(value.getTime());
    const proto = Object.getPrototypeOf(value);
    const isArray = proto === ownArrayProto;
    if (!isArray && proto !== ownObjectProto) return value;
    if (seen.has(value)) return value;
    seen.add(value);
    Object.setPrototypeOf(value, isArray ? realm.Array.prototype : realm.Object.prototype);
    if (isArray) {
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        if (v !== null && typeof v === 'object') value[i] = adopt(v, seen);
      }
    } else {
      for (const key of Object.keys(value)) {
        const v = value[key];
        if (v !== null && typeof v === 'object') {
          const a = adopt(v, seen);
          if (a !== v) value[key] = a;
        }
      }
    }
    return value;
  }

  // Any failure as the shell's Error, under the public function's name, with
  // a code: ours keep theirs, a server's or driver's keeps its own (e.g. 13).
  function adoptError(fnName, err) {
    if (err instanceof realm.Error && err.code !== undefined && String(err.message).startsWith(`${fnName}:`)) return err;
    const text = String(err && err.message !== undefined ? err.message : err);
    const out = new realm.Error(text.startsWith(`${fnName}:`) ? text : `${fnName}: ${text}`);
    out.code = err && err.code !== undefined ? err.code : CODES.FAILED;
    if (err && err.codeName !== undefined) out.codeName = err.codeName;
    if (err && typeof err.stack === 'string') out.stack = `Error: ${out.message}`;
    return out;
  }

  const shell = {
    bson: ctx.bson,
    print: ctx.print,
    bsonsize: ctx.bsonsize,
    inspect: util.inspect.custom,

    // The current database handle: `use other` replaces the shell's db, so
    // never cache it. Throws when the shell has no connection (--nodb).
    db(fnName) {
      const db = ctx.getDb();
      if (!db) throw shell.error(fnName, NO_CONNECTION, CODES.NO_CONNECTION);
      return db;
    },

    codes: CODES,
    // {path, change, bytes} made in the shell's realm (explainOplogEntry's
    // per-path records, a million on large entries).
    pathRecord: realm.pathRecord || ((path, change, bytes) => ({ path, change, bytes })),
    describe: args.describe,
    preview: args.preview,
    quote: args.quote,
    isDocument: args.isDocument,
    isCollection: args.isCollection,
    isDatabase: args.isDatabase,
    // options(fnName, value, accepted, example): the checked options document.
    options: (fnName, value, accepted, example) => args.options((m) => shell.error(fnName, m), value, accepted, example),

    // An error of the shell's realm, message prefixed with the function's
    // name, code DBALAB_BAD_ARGUMENT unless another is given.
    error(fnName, message, code = CODES.BAD_ARGUMENT) {
      const err = new realm.Error(`${fnName}: ${message}`);
      err.code = code;
      return err;
    },

    // Calls a public function for the shell: its result (awaited, if the
    // shell awaits it) and its errors come out in the shell's realm.
    call(fnName, fn, thisArg, callArgs) {
      let result;
      try {
        result = Reflect.apply(fn, thisArg, callArgs);
      } catch (err) {
        throw adoptError(fnName, err);
      }
      if (result && result[SYNTHETIC]) {
        const p = result.then((v) => adopt(v, new Set()), (err) => { throw adoptError(fnName, err); });
        Object.defineProperty(p, SYNTHETIC, { value: true });
        return p;
      }
      return adopt(result, new Set());
    },

    // Wrap an async implementation so callers in mongosh get its result as if
    // it were synchronous, and any failure is reported under the public
    // function's name.
    async(fnName, impl) {
      const wrapper = function (...callArgs) {
        const p = impl.apply(this, callArgs).catch((err) => { throw adoptError(fnName, err); });
        Object.defineProperty(p, SYNTHETIC, { value: true });
        return p;
      };
      // Named after the public function, so the shell prints it by name.
      Object.defineProperty(wrapper, 'name', { value: fnName });
      return wrapper;
    },

    // Attach `fn.help()`: prints, in the layout of mongosh's own method help
    // (`sh.status.help()`), the signature, the one-line purpose the package's
    // README lists (what `snippet help dba-lab` shows), then the usage text;
    // returns nothing, as the shell's `.help()` methods do.
    withHelp(fn, text) {
      const help = () => { ctx.print(helpText(fn.name, text)); };
      Object.defineProperty(fn, 'help', { value: help, enumerable: false });
      Object.defineProperty(fn, util.inspect.custom, {
        value: () => `[Function ${fn.name}] (run ${fn.name}.help() for usage)`,
        enumerable: false,
      });
      return fn;
    },

    // 1536 -> '1.5 KB'; binary multiples, as mongosh and the server report sizes.
    formatBytes(n) {
      let v = Number(n);
      if (!Number.isFinite(v)) return String(n);
      const neg = v < 0;
      v = Math.abs(v);
      let u = 0;
      while (v >= 1024 && u < UNITS.length - 1) { v /= 1024; u++; }
      const text = u === 0 ? String(v) : v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0);
      return `${neg ? '-' : ''}${text} ${UNITS[u]}`;
    },

    // '6MB', '1.5 KiB', '512', 1024 -> bytes (binary multiples); null when unparsable.
    parseBytes(x) {
      if (typeof x === 'number') return Number.isFinite(x) && x >= 0 ? Math.round(x) : null;
      if (typeof x !== 'string') return null;
      const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b)?\s*$/i.exec(x);
      if (!m) return null;
      const power = ' kmgtp'.indexOf((m[2] || ' ').toLowerCase());
      return Math.round(Number(m[1]) * 1024 ** power);
    },
  };
  return shell;
}

module.exports = makeShell;
module.exports.helpText = helpText;
