'use strict';
// What the renderers share: reading a report folder's results.json and the
// labels that must stay honest (the article's figures, requested versions, a
// server that only presents itself as MongoDB).

const fs = require('fs');
const path = require('path');

const VERDICTS = ['REPRODUCED', 'NOT REPRODUCED', 'NOT APPLICABLE'];
const PREDICTIONS = ['AS PREDICTED', 'NOT AS PREDICTED', 'NO PREDICTION'];

function readResults(dir) {
  const file = path.join(dir, 'results.json');
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${dir}: no results.json (${e.code || e.message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${e.message})`);
  }
}

// The server the run talked to, when it is not MongoDB itself: FerretDB
// answers buildInfo with a MongoDB version and adds ferretdbVersion.
function serverProduct(results) {
  const s = (results.environment || {}).server;
  if (s && s.product && s.product !== 'MongoDB') return s;
  return null;
}

// A version as a reader should see it: "FerretDB v1.24.2 (presents itself as
// MongoDB 7.0.42)" rather than a bare "7.0.42" on a server that is not MongoDB.
function versionLabel(results, version) {
  if (!version) return '';
  const p = serverProduct(results);
  if (p && (version === p.reportsAs || version === p.version)) {
    return `${p.product} ${p.version} (presents itself as MongoDB ${p.reportsAs})`;
  }
  return version;
}

// The same, short, for table rows and notes: "FerretDB v1.24.2".
function shortVersionLabel(results, version) {
  const p = serverProduct(results);
  if (version && p && (version === p.reportsAs || version === p.version)) return `${p.product} ${p.version}`;
  return version || '';
}

// "MongoDB 8.0.4 (requested 8.0, /path/bin)"; requested only when it was asked.
function serverLines(results) {
  const env = results.environment || {};
  const p = serverProduct(results);
  return (env.versions || []).map((v) => {
    const shown = v.server || v.resolved || '?';
    const extra = [];
    if (v.requested) extra.push(`requested ${v.requested}`);
    if (v.binpath) extra.push(v.binpath);
    const name = p && (shown === p.reportsAs || shown === p.version)
      ? `${p.product} ${p.version}, which answers buildInfo as MongoDB ${p.reportsAs}: not a MongoDB server`
      : `MongoDB ${shown}`;
    return extra.length ? `${name} (${extra.join(', ')})` : name;
  });
}

// Rows of a table whose figures come from elsewhere (the article) carry no
// run version, whatever an older results.json recorded.
function tableRows(table, results) {
  if (table.source) return table.rows.map((r) => ({ ...r, version: '' }));
  if (results && serverProduct(results)) return table.rows.map((r) => ({ ...r, version: shortVersionLabel(results, r.version) }));
  return table.rows;
}

function hasVersionColumn(table) {
  return tableRows(table).some((r) => r.version);
}

// The label under a table's title: where its figures come from.
function sourceLabel(table) {
  const s = table.source;
  if (!s) return '';
  if (s.kind === 'article') return `The article's own figures${s.setup ? ` (${s.setup})` : ''}: not measured in this run.`;
  return `${s.kind || 'Reference'} figures${s.setup ? ` (${s.setup})` : ''}: not measured in this run.`;
}

// What the playbook predicted for each judged claim and version, once each:
// {rows: [{claim, version, predicted, reason, ref, url, verified}], none:
// [why there was no prediction, once per reason]} (a run on FerretDB has
// only the latter).
function predictionRows(results) {
  const seen = new Set();
  const rows = [];
  const none = new Set();
  for (const v of results.verdicts || []) {
    const b = v.predictionBasis;
    if (!b) continue;
    if (b.none) {
      none.add(b.none);
      continue;
    }
    const key = `${v.claim}\u0000${v.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({
      claim: v.claim, version: v.version, predicted: b.holds ? 'holds' : 'does not hold',
      reason: b.reason, ref: b.source.ref, url: b.source.url, verified: b.source.checked ? 'read in the source' : 'unverified',
    });
  }
  return { rows, none: [...none] };
}

function verdictCounts(results) {
  const counts = {};
  for (const v of results.verdicts || []) counts[v.verdict] = (counts[v.verdict] || 0) + 1;
  return counts;
}

// How many verdicts went as predicted, and not ({} in an older report).
function predictionCounts(results) {
  const counts = {};
  for (const v of results.verdicts || []) if (PREDICTIONS.includes(v.prediction)) counts[v.prediction] = (counts[v.prediction] || 0) + 1;
  return counts;
}

function cellText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

// The opening paragraph of a report: what this run did (scale and the
// options it ran with, deployment, servers), from what was recorded, never
// from the playbook's --help. results.params (the options as run) is newer
// than environment.scale.params (the scale's values), which older reports have.
function runSummary(results) {
  const env = results.environment || {};
  const scale = env.scale || {};
  const params = results.params
    ? Object.fromEntries(Object.entries(results.params).filter(([k, v]) => k !== 'scale' && v !== '' && v !== null))
    : scale.params || {};
  const settings = Object.entries(params).map(([k, v]) => `${k}=${v}`).join(' ');
  const servers = [...new Set((env.versions || []).map((v) => v.server || v.resolved).filter(Boolean))]
    .map((v) => (serverProduct(results) ? versionLabel(results, v) : `MongoDB ${v}`));
  const out = [`This run: scale ${scale.name || '?'}${settings ? ` (${settings})` : ''}`];
  if ((env.topology || {}).summary) out.push(`on ${env.topology.summary}`);
  if (servers.length) out.push(`against ${servers.join(', ')}`);
  let text = `${out.join(', ')}.`;
  if (unfinished(results)) {
    const last = (results.stages || []).slice(-1)[0];
    const stopped = `It ${results.status === 'interrupted' ? 'was interrupted' : 'stopped'}${last ? ` in stage ${last.name}` : ''}`;
    if ((results.verdicts || []).length) text += ` ${stopped}: its verdicts cover what was measured before.`;
    else if (measuredSoFar(results).count) text += ` ${stopped}, before any verdict: what it measured until then follows the verdicts.`;
    else text += ` ${stopped}, before anything was measured.`;
  }
  return text;
}

// A run that did not reach its report (failed or interrupted): its report
// shows what it measured right after the verdicts, not only at the end.
function unfinished(results) {
  return Boolean(results.status) && results.status !== 'done';
}

// What a run recorded before it stopped: {measurements, tables (names, in
// order; not the article's own figures, which no run measures), count}.
function measuredSoFar(results) {
  const measurements = results.measurements || [];
  const tables = Object.keys(results.tables || {}).sort()
    .filter((n) => !results.tables[n].source && (results.tables[n].rows || []).length);
  return { measurements, tables, count: measurements.length + tables.length };
}

// A stage's label as a reader should see it ("launch (FerretDB v1.24.2)").
function stageLabel(results, label) {
  return label ? shortVersionLabel(results, label) : '';
}

// Host and CPU lines with what was recorded only (an article's machine is
// mostly unknown): '' when nothing was.
function hostLine(host) {
  const sys = [host.kernel, host.arch].filter(Boolean).join(', ');
  return [host.name, host.os].filter(Boolean).join(', ') + (sys ? ` (${sys})` : '');
}

function cpuLine(host) {
  const parts = [];
  if (host.cpu || host.cpus) parts.push(`${host.cpu || 'CPU'}${host.cpus ? `, ${host.cpus} cores` : ''}`);
  if (host.memoryBytes) parts.push(`memory ${gib(host.memoryBytes)} GiB`);
  return parts.join('; ');
}

function gib(bytes) {
  return Math.round(((bytes || 0) / 1073741824) * 10) / 10;
}

// Files of the folder a page may link to: only those present.
function exists(dir, rel) {
  try {
    return fs.statSync(path.join(dir, rel)).isFile();
  } catch {
    return false;
  }
}

// The charts that answer a claim (pb::chart --answers), in the verdicts'
// order; a report whose charts declare none (an older results.json) shows its
// first drawn chart there, as a person would rather look first.
function answeringCharts(r, charts) {
  const drawn = charts.filter((c) => c.svg);
  const ids = (r.verdicts || []).map((v) => v.id);
  const rank = (c) => Math.min(...(c.answers || []).map((id) => (ids.includes(id) ? ids.indexOf(id) : ids.length)));
  const answering = drawn.filter((c) => (c.answers || []).length).sort((a, b) => rank(a) - rank(b));
  if (answering.length) return answering;
  return drawn.slice(0, 1);
}

module.exports = {
  VERDICTS, PREDICTIONS, predictionCounts, predictionRows, readResults, serverProduct, versionLabel, shortVersionLabel, serverLines, tableRows, hasVersionColumn,
  sourceLabel, verdictCounts, runSummary, unfinished, measuredSoFar, stageLabel, answeringCharts, cellText, gib, hostLine, cpuLine, exists,
};
