'use strict';
// Defines the public globals: one CommonJS module per concern, listed with
// the globals it defines in concerns.json. Nothing else reaches the shell.
const path = require('path');
const util = require('util');

const BSON_TYPES = [
  'Binary', 'BSONRegExp', 'BSONSymbol', 'Code', 'DBRef', 'Decimal128', 'Double', 'Int32', 'Long',
  'MaxKey', 'MinKey', 'ObjectId', 'Timestamp', 'UUID',
];

// shellGlobal: the globalThis of mongosh's evaluation context, which is not
// this module's global.
// A stand-in for a public function whose module is required on first use
// (a call, .help(), printing it): startup pays for none of the modules, some
// of which build tables or pools when they load.
function lazy(name, real, shell) {
  const target = function () {};
  Object.defineProperty(target, 'name', { value: name });
  // util.inspect looks at a proxy's target, not through its traps.
  Object.defineProperty(target, util.inspect.custom, {
    value(...args) {
      const fn = real();
      return typeof fn[util.inspect.custom] === 'function' ? fn[util.inspect.custom](...args) : fn;
    },
  });
  return new Proxy(target, {
    apply: (_t, thisArg, args) => shell.call(name, real(), thisArg, args),
    get: (_t, prop) => Reflect.get(real(), prop),
    has: (_t, prop) => Reflect.has(real(), prop),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, prop) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), prop);
      // A proxy may not report a non-configurable property its target lacks.
      if (d && !Reflect.getOwnPropertyDescriptor(target, prop)) d.configurable = true;
      return d;
    },
  });
}

module.exports = function loadSnippets(shellGlobal) {
  const libDir = __dirname;
  // A second load() (snippet update, or a user re-running it) must pick up
  // edited files rather than require()'s cached copies.
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(libDir + path.sep) && key !== __filename) delete require.cache[key];
  }
  const bson = {};
  for (const name of BSON_TYPES) bson[name] = shellGlobal[name];
  const shell = require('./shell.js')({
    bson,
    realm: {
      Object: shellGlobal.Object, Array: shellGlobal.Array, Error: shellGlobal.Error, Date: shellGlobal.Date,
      // An object literal takes the Object.prototype of the realm of the code
      // that evaluates it: records made by this function are the shell's
      // from birth, which spares a million-path result a second pass.
      pathRecord: new shellGlobal.Function('path', 'change', 'bytes', 'return { path, change, bytes };'),
    },
    print: (...args) => shellGlobal.print(...args),
    bsonsize: (doc) => shellGlobal.bsonsize(doc),
    // `use other` replaces the shell's db: look it up at each call. Under
    // --nodb it is a stand-in (shell-api's no-db.js) whose every property
    // throws; report no db, so shell.db() gives our own message.
    getDb: () => {
      try {
        const db = shellGlobal.db;
        return typeof db.getName === 'function' ? db : undefined;
      } catch {
        return undefined;
      }
    },
  });
  const concerns = require('./concerns.json');
  for (const concern of Object.keys(concerns)) {
    let api;
    const real = (name) => {
      if (!api) api = require(`./${concern}.js`)(shell);
      return api[name];
    };
    for (const name of concerns[concern]) shellGlobal[name] = lazy(name, () => real(name), shell);
  }
};
