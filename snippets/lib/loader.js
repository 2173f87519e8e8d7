'use strict';
// Defines the public globals: one CommonJS module per concern, listed with
// the globals it defines in concerns.json. Nothing else reaches the shell.
const path = require('path');

const BSON_TYPES = [
  'Binary', 'BSONRegExp', 'BSONSymbol', 'Code', 'DBRef', 'Decimal128', 'Double', 'Int32', 'Long',
  'MaxKey', 'MinKey', 'ObjectId', 'Timestamp', 'UUID',
];

// shellGlobal: the globalThis of mongosh's evaluation context, which is not
// this module's global.
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
    const api = require(`./${concern}.js`)(shell);
    for (const name of concerns[concern]) shellGlobal[name] = api[name];
  }
};
