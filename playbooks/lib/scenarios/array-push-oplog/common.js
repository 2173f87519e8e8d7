'use strict';
// array-push-oplog: what the curve and load stages share (plain CommonJS,
// required from the stage files with the shell's BSON types passed in).

const path = require('path');
const model = require(path.resolve(__dirname, 'model.js'));

// The table names carry the version: the framework's charts group one column,
// so each version gets its own table and chart.
function versionTag(version) {
  return String(version || 'uri').replace(/[^0-9a-z]/gi, '-').toLowerCase();
}

// The reading of second `s`: the source document's reading of that second of
// the hour (its values), with s counting on past the hour.
function reading(readings, s, Int32) {
  const r = readings[s % readings.length];
  return { ...r, s: new Int32(s) };
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

module.exports = { model, versionTag, reading, escapeRegExp };
