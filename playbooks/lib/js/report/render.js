'use strict';
// Renders one report folder from its results.json: charts/NAME.svg and
// charts/NAME.vl.json, report.md, report.html. Only relative paths are used,
// so a folder copied from another machine renders the same.

const fs = require('fs');
const path = require('path');
const m = require('./model');
const charts = require('./charts');
const { renderMarkdown } = require('./render-md');
const { renderHtml } = require('./render-html');

// Every chart of a report; charts of the same quantity (two versions' curves)
// share their y scale.
async function renderCharts(results) {
  const out = [];
  for (const c of results.charts || []) out.push(await charts.render(c, results));
  const shared = await charts.shareYScales(out.map((drawn) => ({ drawn, results })));
  return out.map((c) => shared.get(c) || c);
}

function writeAtomic(file, text) {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

async function renderFolder(dir) {
  const results = m.readResults(dir);
  const drawn = await renderCharts(results);
  if (drawn.length) fs.mkdirSync(path.join(dir, 'charts'), { recursive: true });
  for (const c of drawn) {
    if (c.spec) writeAtomic(path.join(dir, 'charts', `${c.name}.vl.json`), `${JSON.stringify(c.spec, null, 2)}\n`);
    if (c.svg) writeAtomic(path.join(dir, 'charts', `${c.name}.svg`), c.svg);
  }
  writeAtomic(path.join(dir, 'report.md'), renderMarkdown(results, drawn, dir));
  writeAtomic(path.join(dir, 'report.html'), renderHtml(results, drawn, dir));
  return { dir, results, charts: drawn };
}

module.exports = { renderFolder, renderCharts };
