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

// Series told apart by hue (Tableau 10), not by shades of one colour: on a
// projector neighbouring blues look the same.
const PALETTE = 'tableau10';

// A linear axis whose values are all whole numbers counts something
// (subscribers, events, chunks): no tick between two whole numbers. Vega's
// tick step is never below span / count, so at most one tick per unit keeps
// every tick whole (Vega-Lite 5 compiles its tickMinStep away).
function countAxis(values, log) {
  if (log || values.length === 0 || !values.every((v) => Number.isInteger(v))) return {};
  const span = Math.max(...values) - Math.min(...values);
  return { tickCount: Math.max(1, Math.min(span, 10)), format: ',d' };
}

// A chart whose line stands for a claim's trend (pb::chart --trend-of) carries
// that claim's least number of points, as its checker declares it (needs):
// a line through fewer points than the verdict judges on would show a trend
// the verdict refuses. Each series (per version panel) below it is drawn as
// points alone. Returns the series too short for a line.
function shortSeries(chart, data) {
  const min = chart.trend && chart.trend.minPoints;
  if (!Number.isInteger(min) || min < 1) return [];
  const counts = new Map();
  for (const d of data) {
    const key = JSON.stringify([d.version, d.series]);
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const short = [];
  for (const [key, n] of counts) {
    if (n >= min) continue;
    const [version, series] = JSON.parse(key);
    short.push({ version, series, points: n });
  }
  return short;
}

// Why a series has no line, for the chart's caption; '' when every one has it.
function trendCaption(chart, data) {
  const short = shortSeries(chart, data);
  if (!short.length) return '';
  const several = facetByVersion(chart, data);
  const names = short.map((s) => `${[s.series || chart.y.join(', '), several ? `on ${s.version}` : ''].filter(Boolean).join(' ')} `
    + `(${s.points} point${s.points === 1 ? '' : 's'})`);
  const t = chart.trend;
  return `No line through ${names.join(', ')}: the ${t.claim} verdict judges a trend only on at least ${t.minPoints} ${t.pointsOf || 'points'}.`;
}

// opts.yDomain: [min, max] shared with other charts of the same quantity
// (a comparison page).
function spec(chart, table, opts = {}) {
  const data = chartData(chart, table);
  const numericX = data.length > 0 && data.every((d) => typeof d.x === 'number');
  const yScale = chart.logy ? { type: 'log' } : { zero: false };
  if (opts.yDomain) yScale.domain = opts.yDomain;
  const encoding = {
    x: numericX
      ? {
        field: 'x',
        type: 'quantitative',
        title: chart.xlabel || chart.x,
        scale: chart.logx ? { type: 'log' } : { zero: false },
        axis: countAxis(data.map((d) => d.x), chart.logx),
      }
      // Names (methods, modes) in the table's order, readable at an angle and
      // whole (Vega measures text in Node at 0.8 em a character).
      : { field: 'x', type: 'nominal', sort: null, title: chart.xlabel || chart.x, axis: { labelAngle: -30, labelLimit: 400 } },
    y: {
      field: 'y',
      type: 'quantitative',
      title: chart.ylabel || chart.y.join(', '),
      scale: yScale,
      axis: countAxis(data.map((d) => d.y), chart.logy),
    },
    color: {
      field: 'series',
      type: 'nominal',
      title: chart.group || 'series',
      sort: null,
      scale: { scheme: PALETTE },
      legend: { orient: 'bottom', columns: 3, labelLimit: 300 },
    },
    tooltip: [{ field: 'series' }, { field: 'x' }, { field: 'y' }],
  };
  let mark = MARKS[chart.style] || MARKS.linespoints;
  let layer = null;
  const short = mark.type === 'line' ? shortSeries(chart, data) : [];
  if (short.length) {
    const isShort = (d) => short.some((s) => s.version === d.version && s.series === d.series);
    for (const d of data) d.trend = !isShort(d);
    const dots = { type: 'point', filled: true, size: 35 };
    if (data.some((d) => d.trend)) {
      layer = [{ mark: dots }, { mark: { type: 'line' }, transform: [{ filter: 'datum.trend' }], encoding: { order: { field: 'x' } } }];
    } else {
      mark = dots;
    }
  } else if (mark.type === 'line') {
    encoding.order = { field: 'x' };
  }
  const drawing = layer ? { encoding, layer } : { mark, encoding };
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: titleLines(chart.title || chart.name) },
    description: `Chart ${chart.name} of table ${chart.table} (x ${chart.x}, y ${chart.y.join(', ')}${chart.group ? `, one series per ${chart.group}` : ''})`,
    data: { values: data },
    // Labels readable on a projector (Vega's defaults are 10 and 11 px).
    config: {
      font: 'sans-serif',
      view: { stroke: '#999' },
      title: { fontSize: 15 },
      axis: { labelFontSize: 12, titleFontSize: 13 },
      legend: { labelFontSize: 12, titleFontSize: 12, symbolSize: 80 },
      header: { labelFontSize: 13, titleFontSize: 13 },
    },
  };
  if (facetByVersion(chart, data)) {
    return {
      ...base,
      facet: { column: { field: 'version', type: 'nominal', title: 'MongoDB version' } },
      spec: { width: 300, height: 220, ...drawing },
      resolve: { scale: { x: 'shared', y: 'shared' } },
    };
  }
  return { ...base, width: 560, height: 280, ...drawing };
}

// A long title on lines of at most 45 characters: Vega sizes the drawing to
// its title (in Node at 0.8 em a character: 45 at 15 px fit the plot), and a
// title wider than the plot shrinks the plot on the page.
function titleLines(text, width = 45) {
  const lines = [];
  for (const word of String(text).split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && `${lines[last]} ${word}`.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length === 1 ? lines[0] : lines;
}

// The quantity a chart shows: charts of the same y columns and unit (label)
// can share a y scale.
function quantity(chart) {
  return JSON.stringify([chart.y, chart.ylabel || '', Boolean(chart.logy)]);
}

// [min, max] of the y values of several specs, or null when they have none.
function yExtent(specs) {
  const ys = specs.flatMap((s) => (s.data.values || []).map((d) => d.y));
  return ys.length ? [Math.min(...ys), Math.max(...ys)] : null;
}

async function toSvg(vlSpec) {
  const view = new vega.View(vega.parse(vegaLite.compile(vlSpec).spec), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

// {name, title, answers, spec, svg, points, caption?} for one chart record, or
// {error} when its table is missing or has nothing to draw. caption: why a
// series has no line. opts as for spec.
async function render(chart, results, opts = {}) {
  const head = { name: chart.name, title: chart.title, answers: chart.answers || [] };
  const table = (results.tables || {})[chart.table];
  if (!table) return { ...head, error: `table ${chart.table} was not recorded` };
  const vl = spec(chart, table, opts);
  const points = (vl.data.values || []).length;
  if (points === 0) return { ...head, spec: vl, error: `table ${chart.table} has no numeric ${chart.x}/${chart.y.join(',')} values` };
  const drawn = { ...head, spec: vl, svg: await toSvg(vl), points };
  const style = MARKS[chart.style] || MARKS.linespoints;
  const caption = style.type === 'line' ? trendCaption(chart, vl.data.values) : '';
  return caption ? { ...drawn, caption } : drawn;
}

// Charts of the same quantity (y columns and unit) redrawn on one y scale, so
// that side by side their heights compare (two versions in one report, or
// several runs on a comparison page). items: [{drawn, results}], drawn as
// render returns it. A Map from each drawn chart to its redrawn self; a
// chart with no other of its quantity is left as it is.
async function shareYScales(items) {
  const groups = new Map();
  for (const { drawn, results } of items) {
    const record = (results.charts || []).find((c) => c.name === drawn.name);
    if (!record || !drawn.svg) continue;
    const key = quantity(record);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ drawn, record, results });
  }
  const redrawn = new Map();
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const yDomain = yExtent(members.map((g) => g.drawn.spec));
    for (const g of members) redrawn.set(g.drawn, await render(g.record, g.results, { yDomain }));
  }
  return redrawn;
}

module.exports = { chartData, spec, toSvg, render, shareYScales, PALETTE };
