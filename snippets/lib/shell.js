'use strict';
// Shared plumbing for every snippet module.
//
// Modules under snippets/lib/ are plain CommonJS loaded with require(): mongosh's
// load() would run them through its async rewriter, which costs startup time.
// The price is that they do not see the shell's globals (BSON constructors, db,
// print), so index.js, which mongosh does load() in the shell context, hands them
// over here.

const util = require('util');

// mongosh implicitly awaits promises carrying this marker, exactly as it does
// for its own shell API calls, so `const r = seedCollection(...)` works in
// scripts and at the prompt without an explicit await.
const SYNTHETIC = Symbol.for('@@mongosh.syntheticPromise');

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

const NO_CONNECTION = 'needs a connected shell; started with --nodb or not connected';

function makeShell(ctx) {
  const shell = {
    bson: ctx.bson,
    print: ctx.print,
    bsonsize: ctx.bsonsize,
    inspect: util.inspect.custom,

    // The current database handle: `use other` replaces the shell's db, so
    // never cache it. Throws when the shell has no connection (--nodb).
    db(fnName) {
      const db = ctx.getDb();
      if (!db) throw shell.error(fnName, NO_CONNECTION);
      return db;
    },

    error(fnName, message) {
      return new Error(`${fnName}: ${message}`);
    },

    // Wrap an async implementation so callers in mongosh get its result as if
    // it were synchronous, and any failure that is not already ours is
    // reported under the public function's name.
    async(fnName, impl) {
      const wrapper = function (...args) {
        const p = impl.apply(this, args).catch((err) => {
          if (err && typeof err.message === 'string' && !err.message.startsWith(`${fnName}:`)) {
            err.message = `${fnName}: ${err.message}`;
          }
          throw err;
        });
        Object.defineProperty(p, SYNTHETIC, { value: true });
        return p;
      };
      // Named after the public function, so the shell prints it by name.
      Object.defineProperty(wrapper, 'name', { value: fnName });
      return wrapper;
    },

    // Attach `fn.help()`: prints the usage text and returns nothing, as the
    // shell's own `.help()` methods do.
    withHelp(fn, text) {
      const help = () => { ctx.print(text.replace(/^\n/, '').replace(/\s+$/, '')); };
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
