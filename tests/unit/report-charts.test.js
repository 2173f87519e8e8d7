'use strict';
// pb::chart records as Vega-Lite specs (playbooks/lib/js/report/charts.js).

const test = require('node:test');
const assert = require('node:assert/strict');
const charts = require('../../playbooks/lib/js/report/charts');
const { axisLabels } = require('./lib/svg-axis');
const cappedPubsub = require('../../playbooks/lib/scenarios/capped-pubsub/checker');

const table = (rows) => ({ title: 'T', columns: ['run', 'x', 'y', 'z'], rows });
const chart = (o) => ({ name: 'c', table: 't', x: 'x', y: ['y'], group: '', title: 'C', xlabel: 'X', ylabel: 'Y', logx: false, logy: false, style: 'linespoints', ...o });

test('one series per --group value, values that are not numbers left out', () => {
  const t = table([{ version: '', values: ['A', 1, 10, 0] }, { version: '', values: ['B', 1, 'n/a', 0] }, { version: '', values: ['B', 2, 5, 0] }]);
  assert.deepEqual(charts.chartData(chart({ group: 'run' }), t).map((d) => [d.series, d.x, d.y]), [['A', 1, 10], ['B', 2, 5]]);
});

test('several --y columns are series of their own, named after the column', () => {
  const t = table([{ version: '', values: ['A', 1, 10, 3] }]);
  assert.deepEqual(charts.chartData(chart({ y: ['y', 'z'] }), t).map((d) => d.series), ['y', 'z']);
});

test('--logy and --logx: log scales, and the zero and negative values a log axis cannot show are dropped', () => {
  const t = table([{ version: '', values: ['A', 1, 0, 0] }, { version: '', values: ['A', 0, 5, 0] }, { version: '', values: ['A', 10, 100, 0] }]);
  const s = charts.spec(chart({ logx: true, logy: true }), t);
  assert.equal(s.encoding.x.scale.type, 'log');
  assert.equal(s.encoding.y.scale.type, 'log');
  assert.deepEqual(s.data.values.map((d) => [d.x, d.y]), [[10, 100]]);
});

test('a table with rows of several versions is drawn one panel per version, side by side', () => {
  const t = table([{ version: '4.4.29', values: ['A', 1, 10, 0] }, { version: '8.0.4', values: ['A', 1, 4, 0] }]);
  const s = charts.spec(chart({ group: 'run' }), t);
  assert.equal(s.facet.column.field, 'version');
  assert.equal(s.spec.encoding.color.field, 'series');
});

test('--group version colours the versions in one panel instead', () => {
  const t = table([{ version: '4.4.29', values: ['A', 1, 10, 0] }, { version: '8.0.4', values: ['A', 1, 4, 0] }]);
  const s = charts.spec(chart({ group: 'version' }), t);
  assert.equal(s.facet, undefined);
  assert.deepEqual(s.data.values.map((d) => d.series), ['4.4.29', '8.0.4']);
});

test('--style maps to line, point, or line with points', () => {
  const t = table([{ version: '', values: ['A', 1, 10, 0] }]);
  assert.equal(charts.spec(chart({ style: 'lines' }), t).mark.type, 'line');
  assert.equal(charts.spec(chart({ style: 'points' }), t).mark.type, 'point');
  assert.deepEqual(charts.spec(chart({}), t).mark.point.filled, true);
});

test('the SVG is drawn in Node: axes titled, one mark per point', async () => {
  const t = table([{ version: '', values: ['A', 1, 10, 0] }, { version: '', values: ['A', 2, 20, 0] }, { version: '', values: ['B', 1, 5, 0] }]);
  const r = await charts.render(chart({ group: 'run', style: 'points' }), { tables: { t } });
  assert.equal(r.points, 3);
  assert.match(r.svg, /^<svg /);
  assert.match(r.svg, />X<\/text>/);
  assert.match(r.svg, />Y<\/text>/);
  assert.equal((r.svg.match(/aria-roledescription="point"/g) || []).length, 3);
  assert.match(r.svg, /aria-label="X: 1; Y: 5; run: B; series: B/);
});

test('a chart on a missing or empty table says why it is not drawn', async () => {
  assert.match((await charts.render(chart({}), { tables: {} })).error, /table t was not recorded/);
  assert.match((await charts.render(chart({}), { tables: { t: table([]) } })).error, /no numeric x\/y values/);
});

test('versions side by side: one titled panel per version in the SVG, sharing the y scale', async () => {
  const t = table([{ version: '4.4.29', values: ['A', 1, 10, 0] }, { version: '4.4.29', values: ['A', 2, 30, 0] }, { version: '8.0.4', values: ['A', 1, 4, 0] }, { version: '8.0.4', values: ['A', 2, 6, 0] }]);
  const r = await charts.render(chart({ group: 'run' }), { tables: { t } });
  assert.match(r.svg, />4\.4\.29<\/text>/);
  assert.match(r.svg, />8\.0\.4<\/text>/);
  assert.match(r.svg, />MongoDB version<\/text>/);
  assert.equal((r.svg.match(/aria-roledescription="line mark"/g) || []).length, 2);
});

test('a count axis (whole numbers only) is labelled in whole numbers, each once', async () => {
  const t = table([1, 2, 4].map((x) => ({ version: '', values: ['A', x, x * 10, 0] })));
  const r = await charts.render(chart({}), { tables: { t } });
  const labels = axisLabels(r.svg, 'bottom');
  assert.ok(labels.length >= 3, labels.join(' '));
  assert.ok(labels.every((l) => /^\d+$/.test(l)), `whole numbers: ${labels.join(' ')}`);
  assert.equal(new Set(labels).size, labels.length, `each once: ${labels.join(' ')}`);
});

test('an axis of measured fractions keeps its fractional ticks', async () => {
  const t = table([1, 2, 4].map((x) => ({ version: '', values: ['A', x, x / 10, 0] })));
  const r = await charts.render(chart({}), { tables: { t } });
  assert.ok(axisLabels(r.svg, 'left').some((l) => l.includes('.')));
});

test("an x column of names is a named axis, in the table's order", async () => {
  const t = table(['mongodump-dir', 'driver-raw', 'floor-cat'].map((name, i) => ({ version: '', values: [name, i, 10 + i, 0] })));
  const r = await charts.render(chart({ x: 'run', xlabel: 'method' }), { tables: { t } });
  assert.equal(r.spec.encoding.x.type, 'nominal');
  assert.deepEqual(axisLabels(r.svg, 'bottom'), ['mongodump-dir', 'driver-raw', 'floor-cat']);
});

test('every series has a colour of its own, from a palette of distinct hues', async () => {
  const t = table(['a', 'b', 'c', 'd'].map((s, i) => ({ version: '', values: [s, 1, i + 1, 0] })));
  const r = await charts.render(chart({ group: 'run', style: 'points' }), { tables: { t } });
  assert.equal(r.spec.encoding.color.scale.scheme, 'tableau10');
  const fills = [...r.svg.matchAll(/aria-roledescription="point"[^>]*?fill="(#[0-9a-f]{6})"|fill="(#[0-9a-f]{6})"[^>]*aria-roledescription="point"/g)].map((m) => m[1] || m[2]);
  assert.equal(new Set(fills).size, 4, fills.join(' '));
});

test('a chart record says which claims it answers', async () => {
  const t = table([{ version: '', values: ['A', 1, 10, 0] }]);
  assert.deepEqual((await charts.render(chart({ answers: ['cpu'] }), { tables: { t } })).answers, ['cpu']);
  assert.deepEqual((await charts.render(chart({}), { tables: { t } })).answers, []);
});

test('a y domain given to the spec (shared with another chart) is its y scale', () => {
  const t = table([{ version: '', values: ['A', 1, 100, 0] }, { version: '', values: ['A', 2, 120, 0] }]);
  assert.deepEqual(charts.spec(chart({}), t, { yDomain: [90, 1200] }).encoding.y.scale.domain, [90, 1200]);
});

test('a long title wraps instead of widening the drawing (which would shrink the plot on the page)', async () => {
  const t = table([{ version: '', values: ['A', 1, 10, 0] }, { version: '', values: ['A', 2, 20, 0] }]);
  const width = async (title) => Number((await charts.render(chart({ title }), { tables: { t } })).svg.match(/^<svg [^>]*width="([\d.]+)"/)[1]);
  const long = 'Routing refresh duration (server durationMillis, median) vs chunk count, first query through mongos after the refresh';
  assert.equal(await width(long), await width('Short'));
});

// capped-pubsub's CPU chart as pb::chart --trend-of cpu records it: the cpu
// claim's needs, taken from its checker.
const CPU_NEEDS = cappedPubsub.claims.find((c) => c.id === 'cpu').needs;
const cpuChart = () => chart({ group: 'run', answers: ['cpu'], trend: { claim: 'cpu', minPoints: CPU_NEEDS.minPoints, pointsOf: CPU_NEEDS.pointsOf } });
const subscribers = (n) => [1, 10, 20, 40, 80, 160].slice(0, n);
const sweep = (mode, n) => subscribers(n).map((x, i) => ({ version: '', values: [mode, x, 0.1 * (i + 1), 0] }));
const lineMarks = (svg) => svg.match(/<path [^>]*aria-roledescription="line mark"[^>]*>/g) || [];
const pointMarks = (svg) => (svg.match(/aria-roledescription="point"/g) || []).length;
const BELOW = CPU_NEEDS.minPoints - 1;

test("a series with fewer points than the trend claim's minimum (two of three) is drawn as points, without a line", async () => {
  const r = await charts.render(cpuChart(), { tables: { t: table(sweep('capped', BELOW)) } });
  assert.equal(lineMarks(r.svg).length, 0);
  assert.equal(pointMarks(r.svg), BELOW);
});

test("the chart's caption says why a series has no line: the claim, its minimum and what the points are", async () => {
  const r = await charts.render(cpuChart(), { tables: { t: table(sweep('capped', BELOW)) } });
  assert.equal(r.caption, `No line through capped (${BELOW} points): the cpu verdict judges a trend only on at least `
    + `${CPU_NEEDS.minPoints} ${CPU_NEEDS.pointsOf}.`);
});

test("a series with the trend claim's minimum of points (three) keeps its line, and the caption says nothing of it", async () => {
  const r = await charts.render(cpuChart(), { tables: { t: table(sweep('capped', CPU_NEEDS.minPoints)) } });
  assert.equal(lineMarks(r.svg).length, 1);
  assert.equal(pointMarks(r.svg), CPU_NEEDS.minPoints);
  assert.equal(r.caption, undefined);
});

test('beside a series too short for a line, a long enough one keeps its line', async () => {
  const rows = [...sweep('capped', BELOW), ...sweep('changestream', CPU_NEEDS.minPoints)];
  const r = await charts.render(cpuChart(), { tables: { t: table(rows) } });
  const lines = lineMarks(r.svg);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /aria-label="[^"]*\bseries: changestream\b/);
  assert.match(r.caption, /^No line through capped \(/);
});
