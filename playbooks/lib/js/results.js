'use strict';
// Reading a checker's input: the shape of results.json's measurements,
// tables, params and versions (pb::check builds it from the run's records; a
// results.json from another machine has the same parts, its versions under
// environment). Pure functions, no I/O: what the scenarios' checker.js share.

// The server versions of the run, in run order ([''] when none is named).
function versions(results) {
  const list = results.versions || (results.environment && results.environment.versions) || [];
  const out = list.map((v) => v.resolved || v.server || '').filter(Boolean);
  if (out.length) return [...new Set(out)];
  const seen = (results.measurements || []).map((m) => m.version).filter(Boolean);
  return seen.length ? [...new Set(seen)] : [''];
}

// The value of measurement KEY of VERSION, or undefined when it was not recorded.
function measurement(results, version, key) {
  const m = (results.measurements || []).find((x) => x.version === version && x.key === key);
  return m ? m.value : undefined;
}

// The rows of table NAME as {column: value} objects, of VERSION only when it
// is given; [] when the table is missing.
function rows(results, name, version) {
  const t = results.tables && results.tables[name];
  if (!t) return [];
  return t.rows
    .filter((r) => version === undefined || r.version === version)
    .map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r.values[i]])));
}

module.exports = { versions, measurement, rows };
