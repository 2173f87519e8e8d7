'use strict';
// A chart record of results.json (pb::chart) as a Vega-Lite spec, rendered to
// SVG by Vega's SVG string renderer in Node: no canvas, no browser, no network.

const vega = require('vega');
const vegaLite = require('vega-lite');
const { tableRows } = require('./model');

const MARKS = {
  lines: { type: 'line' },
  points: { type: 'point', filled: true, size: 45 },
  linespoints: { type: 'line', point: { filled: true, size: 35 } },
};

// One datum per (row, y column): {x, y, series, version}. Values that are not
// numbers, and values a log axis cannot show, are left out.
function chartData(chart, table) {
  const col = (name) => table.columns.indexOf(name);
  const xi = col(chart.x);
  const gi = chart.group && chart.group !== 'version' ? col(chart.group) : -1;
  const ys = chart.y.map((y) => [y, col(y)]).filter(([, i]) => i >= 0);
  if (xi < 0 || ys.length === 0) return [];
  const rows = tableRows(table);
  const data = [];
  for (const r of rows) {
    const group = chart.group === 'version' ? r.version : gi >= 0 ? String(r.values[gi]) : '';
    for (const [yName, yi] of ys) {
      const x = r.values[xi];
      const y = r.values[yi];
      if (typeof y !== 'number' || !Number.isFinite(y)) continue;
      if (x === null || x === undefined || x === '') continue;
      if (chart.logy && y <= 0) continue;
      if (chart.logx && !(typeof x === 'number' && x > 0)) continue;
      const series = [group, ys.length > 1 || !group ? yName : ''].filter(Boolean).join(' ');
      data.push({ x, y, series, version: r.version || '' });
    }
  }
  return data;
}

// Versions side by side (one panel each) when a table holds rows of several
// versions and the chart does not already tell them apart by colour.
function facetByVersion(chart, data) {
  return chart.group !== 'version' && new Set(data.map((d) => d.version)).size > 1;
}

function spec(chart, table) {
  const data = chartData(chart, table);
  const numericX = data.length > 0 && data.every((d) => typeof d.x === 'number');
  const encoding = {
    x: {
      field: 'x',
      type: numericX ? 'quantitative' : 'ordinal',
      title: chart.xlabel || chart.x,
      ...(numericX ? { scale: chart.logx ? { type: 'log' } : { zero: false } } : {}),
    },
    y: {
      field: 'y',
      type: 'quantitative',
      title: chart.ylabel || chart.y.join(', '),
      scale: chart.logy ? { type: 'log' } : { zero: false },
    },
    color: { field: 'series', type: 'nominal', title: chart.group || 'series', legend: { orient: 'bottom', columns: 2, labelLimit: 360 } },
    tooltip: [{ field: 'series' }, { field: 'x' }, { field: 'y' }],
  };
  const mark = MARKS[chart.style] || MARKS.linespoints;
  if (mark.type === 'line') encoding.order = { field: 'x' };
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: chart.title || chart.name,
    description: `Chart ${chart.name} of table ${chart.table} (x ${chart.x}, y ${chart.y.join(', ')}${chart.group ? `, one series per ${chart.group}` : ''})`,
    data: { values: data },
    config: { font: 'sans-serif', view: { stroke: '#999' } },
  };
  if (facetByVersion(chart, data)) {
    return {
      ...base,
      facet: { column: { field: 'version', type: 'nominal', title: 'MongoDB version' } },
      spec: { width: 300, height: 220, mark, encoding },
      resolve: { scale: { x: 'shared', y: 'shared' } },
    };
  }
  return { ...base, width: 560, height: 280, mark, encoding };
}

async function toSvg(vlSpec) {
  const view = new vega.View(vega.parse(vegaLite.compile(vlSpec).spec), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

// {name, title, spec, svg, points} for one chart record, or {error} when its
// table is missing or has nothing to draw.
async function render(chart, results) {
  const table = (results.tables || {})[chart.table];
  if (!table) return { name: chart.name, title: chart.title, error: `table ${chart.table} was not recorded` };
  const vl = spec(chart, table);
  const points = (vl.data.values || []).length;
  if (points === 0) return { name: chart.name, title: chart.title, spec: vl, error: `table ${chart.table} has no numeric ${chart.x}/${chart.y.join(',')} values` };
  return { name: chart.name, title: chart.title, spec: vl, svg: await toSvg(vl), points };
}

module.exports = { chartData, spec, toSvg, render };
