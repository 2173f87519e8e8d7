// mongosh-dba-lab: loaded by mongosh with load() (snippet install dba-lab).
// Defines only the public globals; everything else stays inside this IIFE and
// the CommonJS modules under lib/.
(() => {
  const path = require('path');
  const libDir = path.join(__dirname, 'lib');

  // A second load() (snippet update, or a user re-running it) must pick up
  // edited files rather than require()'s cached copies.
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(libDir + path.sep)) delete require.cache[key];
  }

  const shell = require(path.join(libDir, 'shell.js'))({
    bson: {
      Binary, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128, Double, Int32, Long,
      MaxKey, MinKey, ObjectId, Timestamp, UUID,
    },
    print,
    bsonsize,
    // Under --nodb, reading `db` throws (SHAPI-10004) rather than being undefined.
    getDb: () => {
      try {
        return typeof db === 'undefined' ? undefined : db;
      } catch (err) {
        return undefined;
      }
    },
  });

  // One module per concern; concerns.json lists the globals each defines.
  const concerns = require(path.join(libDir, 'concerns.json'));
  for (const concern of Object.keys(concerns)) {
    const api = require(path.join(libDir, `${concern}.js`))(shell);
    for (const name of concerns[concern]) globalThis[name] = api[name];
  }
})();
