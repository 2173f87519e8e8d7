'use strict';
// The runs of one version share a small JSON file (tokens, timelines): each
// stage is its own mongosh process (a fresh connection per run, as in the
// article), so what one measured reaches the next through this file.
const fs = require('fs');

function read(path) {
  return fs.existsSync(path) ? JSON.parse(fs.readFileSync(path, 'utf8')) : { tokens: {}, runs: {} };
}

function update(path, fn) {
  const s = read(path);
  fn(s);
  fs.writeFileSync(path, `${JSON.stringify(s, null, 1)}\n`);
  return s;
}

module.exports = { read, update };
