'use strict';
// The HTML reports as a reader gets them: every example folder under
// tests/fixtures/reports rendered, then read back structurally.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { renderFolder } = require('../../playbooks/lib/js/report/render');
const { writeIndex } = require('../../playbooks/lib/js/report/index-page');
const { renderComparison } = require('../../playbooks/lib/js/report/compare');
const { axisLabels } = require('./lib/svg-axis');

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'reports');
const PLAYBOOKS = ['array-push-oplog', 'capped-pubsub', 'change-stream-resume', 'mongodump-raw-bson', 'routing-refresh'];

// Every copy goes when the file's tests are done, passed or failed.
const copies = [];
test.after(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

function copyFixtures() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-report-'));
  copies.push(dir);
  fs.cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

const rendered = (async () => {
  const root = copyFixtures();
  const out = {};
  for (const p of PLAYBOOKS) out[p] = await renderFolder(path.join(root, p));
  return { root, out };
})();

// Each declared chart's <figure>, its inline SVG.
function figures(html) {
  const out = {};
  for (const m of html.matchAll(/<figure class="chart" id="chart-[^"]+" data-chart="([^"]+)">([\s\S]*?)<\/figure>/g)) out[m[1]] = m[2];
  return out;
}

function links(html) {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
}

test('there is an example report folder for each of the five playbooks', () => {
  for (const p of PLAYBOOKS) {
    const r = JSON.parse(fs.readFileSync(path.join(FIXTURES, p, 'results.json'), 'utf8'));
    assert.equal(r.playbook, p);
    assert.ok(r.description.startsWith('Example report:'), `${p}: says where its figures come from`);
  }
});

for (const p of PLAYBOOKS) {
  test(`${p}: every declared chart is an inline SVG with two axes and its series`, async () => {
    const { out } = await rendered;
    const html = fs.readFileSync(path.join(out[p].dir, 'report.html'), 'utf8');
    const declared = out[p].results.charts;
    assert.ok(declared.length > 0);
    const figs = figures(html);
    for (const c of declared) {
      const svg = figs[c.name];
      assert.ok(svg, `chart ${c.name} is in the page`);
      assert.match(svg, /^\s*<svg /);
      assert.equal((svg.match(/role-axis"/g) || []).length >= 2, true, `${c.name}: x and y axes`);
      assert.ok(svg.includes(`>${c.xlabel}</text>`) || svg.includes(c.xlabel.replace(/'/g, '&#x27;')), `${c.name}: x axis title`);
      assert.match(svg, /role-mark/, `${c.name}: data marks`);
      const series = new Set(out[p].charts.find((x) => x.name === c.name).spec.data.values.map((d) => d.series));
      if (series.size > 1) {
        assert.match(svg, /role-legend/, `${c.name}: a legend`);
      }
      for (const s of series) assert.ok(svg.includes(`series: ${s.replace(/&/g, '&amp;')}`), `${c.name}: a mark of series ${s}`);
      assert.ok(fs.existsSync(path.join(out[p].dir, 'charts', `${c.name}.svg`)));
      const spec = JSON.parse(fs.readFileSync(path.join(out[p].dir, 'charts', `${c.name}.vl.json`), 'utf8'));
      assert.match(spec.$schema, /vega-lite/);
    }
  });

  test(`${p}: the verdict table comes first, one row per verdict with its numbers`, async () => {
    const { out } = await rendered;
    const html = fs.readFileSync(path.join(out[p].dir, 'report.html'), 'utf8');
    const v = html.indexOf('id="verdicts"');
    assert.ok(v > 0 && v < html.indexOf('id="environment"') && v < html.indexOf('id="tables"'));
    const table = html.slice(v, html.indexOf('</table>', v));
    const rows = table.match(/<tr><td>/g) || [];
    assert.equal(rows.length, out[p].results.verdicts.length);
    for (const verdict of out[p].results.verdicts) {
      assert.ok(table.includes(`class="verdict `) && table.includes(`>${verdict.verdict}</span>`));
    }
  });

  test(`${p}: the first chart answers a claim and sits under the verdicts, before the first full table`, async () => {
    const { out } = await rendered;
    const html = fs.readFileSync(path.join(out[p].dir, 'report.html'), 'utf8');
    const first = html.match(/<figure class="chart" id="chart-[^"]+" data-chart="([^"]+)">/);
    const declared = out[p].results.charts.find((c) => c.name === first[1]);
    const ids = out[p].results.verdicts.map((v) => v.id);
    assert.ok(declared.answers.some((id) => ids.includes(id)), `${first[1]} answers one of ${ids.join(', ')}`);
    assert.ok(html.indexOf('id="verdicts"') < first.index, 'after the verdicts');
    assert.ok(first.index < html.indexOf('<section class="table"'), 'before the first full table');
    assert.ok(first.index < html.indexOf('id="environment"'), 'before the environment');
  });

  test(`${p}: every link points at a file of the folder, nothing outside it`, async () => {
    const { out } = await rendered;
    const html = fs.readFileSync(path.join(out[p].dir, 'report.html'), 'utf8');
    const ls = links(html);
    assert.ok(ls.length > 0);
    for (const l of ls) {
      assert.doesNotMatch(l, /^(?:[a-z]+:|\/)/i, `${l} is relative`);
      assert.ok(fs.existsSync(path.join(out[p].dir, l)), `${l} exists`);
    }
    assert.doesNotMatch(html, /<(?:script|link|img)\b/, 'no script, stylesheet or image to fetch');
  });
}

test('a folder renders the same wherever it lies (no absolute path baked in)', async () => {
  const a = copyFixtures();
  const b = path.join(copyFixtures(), 'deeper', 'still');
  fs.mkdirSync(b, { recursive: true });
  fs.cpSync(path.join(a, 'capped-pubsub'), path.join(b, 'capped-pubsub'), { recursive: true });
  await renderFolder(path.join(a, 'capped-pubsub'));
  await renderFolder(path.join(b, 'capped-pubsub'));
  for (const f of ['report.html', 'report.md', 'charts/cpu-vs-subscribers.svg']) {
    assert.equal(fs.readFileSync(path.join(a, 'capped-pubsub', f), 'utf8'), fs.readFileSync(path.join(b, 'capped-pubsub', f), 'utf8'), f);
  }
});

test('FerretDB is named as what it is, in the environment and in each verdict', async () => {
  const { out } = await rendered;
  const html = fs.readFileSync(path.join(out['capped-pubsub'].dir, 'report.html'), 'utf8');
  assert.match(html, /<dt>Server<\/dt><dd>FerretDB v1\.24\.2, which answers buildInfo as MongoDB 7\.0\.42: not a MongoDB server<\/dd>/);
  assert.match(html, /Measured on FerretDB v1\.24\.2, not on MongoDB/);
  const verdicts = html.slice(html.indexOf('id="verdicts"'), html.indexOf('id="environment"'));
  assert.equal((verdicts.match(/FerretDB v1\.24\.2 \(presents itself as MongoDB 7\.0\.42\)/g) || []).length, 7);
});

test("the article's figures carry the article's setup, never this run's version", async () => {
  const { out } = await rendered;
  const html = fs.readFileSync(path.join(out['capped-pubsub'].dir, 'report.html'), 'utf8');
  const section = html.slice(html.indexOf('id="table-article"'), html.indexOf('</section>', html.indexOf('id="table-article"')));
  assert.match(section, /The article's own figures \(.*MongoDB 3\.0\.1.*\): not measured in this run\./);
  assert.doesNotMatch(section, /7\.0\.42|FerretDB|<th>version<\/th>/);
  const csv = fs.readFileSync(path.join(out['capped-pubsub'].dir, 'article.csv'), 'utf8');
  assert.match(csv.split('\n')[0], /^"engine"/);
});

test('requested is shown when a version was asked for and left out when not', async () => {
  const { out } = await rendered;
  const md = (p) => fs.readFileSync(path.join(out[p].dir, 'report.md'), 'utf8');
  assert.match(md('routing-refresh'), /^- Server: MongoDB 4\.2\.24 \(requested 4\.2\)$/m);
  assert.match(md('capped-pubsub'), /^- Server: FerretDB v1\.24\.2, which answers buildInfo as MongoDB 7\.0\.42: not a MongoDB server$/m);
  assert.doesNotMatch(md('capped-pubsub'), /requested/);
});

test('report.md keeps the verdict table and links the SVG charts and their specs', async () => {
  const { out } = await rendered;
  const md = fs.readFileSync(path.join(out['mongodump-raw-bson'].dir, 'report.md'), 'utf8');
  assert.match(md, /^\| claim \| version \| expected for this version \| observed \| the article's claim \| as predicted\? \|$/m);
  assert.match(md, /^!\[throughput\]\(charts\/throughput\.svg\)$/m);
  assert.match(md, /\[charts\/throughput\.vl\.json\]\(charts\/throughput\.vl\.json\)/);
});

test('report.md shows the chart answering a claim right after the verdicts, the full tables after it', async () => {
  const { out } = await rendered;
  const md = fs.readFileSync(path.join(out['capped-pubsub'].dir, 'report.md'), 'utf8');
  const chart = md.indexOf('![cpu-vs-subscribers](charts/cpu-vs-subscribers.svg)');
  assert.ok(md.indexOf('## Verdicts') < chart && chart < md.indexOf('## Environment'), 'between the verdicts and the environment');
  assert.ok(md.indexOf('![p99-vs-subscribers]') < md.indexOf('## Tables'), 'the other charts before the tables too');
});

test('the index lists every report newest first, with links and verdicts', async () => {
  const { root } = await rendered;
  const file = writeIndex(root);
  const html = fs.readFileSync(file, 'utf8');
  const order = [...html.matchAll(/<td><code>([a-z-]+)<\/code><\/td>/g)].map((m) => m[1]);
  assert.deepEqual(order, ['array-push-oplog', 'change-stream-resume', 'routing-refresh', 'mongodump-raw-bson', 'capped-pubsub']);
  for (const l of links(html)) assert.ok(fs.existsSync(path.join(root, l)), `${l} exists`);
  assert.equal(links(html).length, 5);
  const capped = html.slice(html.indexOf('<td><code>capped-pubsub'), html.indexOf('</tr>', html.indexOf('<td><code>capped-pubsub')));
  assert.match(capped, /<td><span class="count">2&nbsp;<span class="verdict v-held">REPRODUCED<\/span><\/span> <span class="count">5&nbsp;<span class="verdict v-na">NOT APPLICABLE<\/span><\/span><br><span class="count">2&nbsp;<span class="verdict v-na">NO PREDICTION<\/span><\/span><\/td>$/);
  assert.match(capped, /<td>FerretDB v1\.24\.2 \(presents itself as MongoDB 7\.0\.42\)<\/td>/);
  // A start time on one line: '2026-11-' above '20T10:00:00Z' reads as two values.
  assert.match(capped, /<td class="when">2026-11-20T10:00:00Z<\/td>/);
});

// Each count and the badge it counts, as one unbreakable unit: the count
// alone at a line's end would read as the previous badge's.
const COUNT_UNIT = /<span class="count">(\d+)&nbsp;<span class="verdict [^"]+">([A-Z ]+)<\/span><\/span>/g;

test('the index keeps each verdict count with its badge when the cell wraps', async () => {
  const { root } = await rendered;
  const html = fs.readFileSync(writeIndex(root), 'utf8');
  const cells = [...html.matchAll(/<td>([^<]*<span class="(?:count|verdict)[\s\S]*?)<\/td><\/tr>/g)].map((m) => m[1]);
  assert.equal(cells.length, 5);
  for (const cell of cells) {
    const bare = cell.replace(COUNT_UNIT, '').replace(/<br>| /g, '');
    assert.equal(bare, '', `only count units in ${cell}`);
  }
  assert.match(html, /\.count, td\.when \{ white-space: nowrap; \}/);
});

test('a comparison names each run\'s verdicts as counts kept with their badges', async () => {
  const root = copyFixtures();
  const a = await renderFolder(path.join(root, 'capped-pubsub'));
  const b = await renderFolder(path.join(root, 'routing-refresh'));
  const html = await renderComparison([a, b], root);
  const runs = html.slice(html.indexOf('<section id="runs">'), html.indexOf('</section>'));
  assert.deepEqual([...runs.matchAll(COUNT_UNIT)].map((m) => `${m[1]} ${m[2]}`).slice(0, 2), ['2 REPRODUCED', '5 NOT APPLICABLE']);
});

test('a comparison of runs of different playbooks names the playbook in each run label', async () => {
  const root = copyFixtures();
  const a = await renderFolder(path.join(root, 'capped-pubsub'));
  const b = await renderFolder(path.join(root, 'routing-refresh'));
  const html = await renderComparison([a, b], root);
  const labels = [...html.matchAll(/<tr><td>\d<\/td><td><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
  assert.equal(labels.length, 2);
  assert.match(labels[0], /^capped-pubsub: FerretDB v1\.24\.2 /);
  assert.match(labels[1], /^routing-refresh: /);
});

test('a comparison of runs of one playbook keeps its run labels short: no playbook name', async () => {
  const root = copyFixtures();
  const a = await renderFolder(path.join(root, 'capped-pubsub'));
  fs.cpSync(path.join(root, 'capped-pubsub'), path.join(root, 'other'), { recursive: true });
  const b = await renderFolder(path.join(root, 'other'));
  const html = await renderComparison([a, b], root);
  const labels = [...html.matchAll(/<tr><td>\d<\/td><td><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
  assert.deepEqual(labels.map((l) => l.startsWith('FerretDB v1.24.2 ')), [true, true]);
});

test('a comparison page puts the runs, their verdicts and the same chart side by side', async () => {
  const root = copyFixtures();
  const a = await renderFolder(path.join(root, 'capped-pubsub'));
  fs.cpSync(path.join(root, 'capped-pubsub'), path.join(root, 'other'), { recursive: true });
  const b = await renderFolder(path.join(root, 'other'));
  const html = await renderComparison([a, b], root);
  assert.equal((html.match(/<tr><td>\d<\/td>/g) || []).length, 2);
  const side = html.slice(html.indexOf('<h3>cpu-vs-subscribers</h3>'));
  assert.equal((side.slice(0, side.indexOf('</div>')).match(/<svg /g) || []).length, 2);
  for (const l of links(html)) assert.ok(fs.existsSync(path.join(root, l)), `${l} exists`);
});

test('a comparison page draws the charts of one quantity on one y scale', async () => {
  const root = copyFixtures();
  const a = await renderFolder(path.join(root, 'capped-pubsub'));
  const other = path.join(root, 'other');
  fs.cpSync(path.join(root, 'capped-pubsub'), other, { recursive: true });
  const file = path.join(other, 'results.json');
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const i = r.tables.cpu.columns.indexOf('cpu_ms_per_msg');
  for (const row of r.tables.cpu.rows) row.values[i] *= 10;
  fs.writeFileSync(file, JSON.stringify(r));
  const b = await renderFolder(other);
  const html = await renderComparison([a, b], root);
  const side = html.slice(html.indexOf('<h3>cpu-vs-subscribers</h3>'));
  const [one, two] = side.slice(0, side.indexOf('</div>')).split('<svg ').slice(1).map((svg) => axisLabels(svg, 'left'));
  assert.ok(one.length > 1);
  assert.deepEqual(one, two);
});

test("one report's charts of one quantity (two versions' curves) share their y scale", async () => {
  const root = copyFixtures();
  const dir = path.join(root, 'array-push-oplog');
  const file = path.join(dir, 'results.json');
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const row of r.tables['curve-8-0'].rows) row.values[2] = Math.min(row.values[2], 1000);
  fs.writeFileSync(file, JSON.stringify(r));
  const out = await renderFolder(dir);
  const [a, b] = ['curve-4-4', 'curve-8-0'].map((n) => out.charts.find((c) => c.name === n));
  assert.ok(axisLabels(a.svg, 'left').length > 1);
  assert.deepEqual(axisLabels(a.svg, 'left'), axisLabels(b.svg, 'left'));
  assert.deepEqual(a.spec.encoding.y.scale.domain, b.spec.encoding.y.scale.domain);
});

test('mongodump-raw-bson: its charts name the methods on the x axis, in the order of the timing table', async () => {
  const { out } = await rendered;
  const t = out['mongodump-raw-bson'].results.tables.timing;
  const methods = [...new Set(t.rows.map((row) => row.values[t.columns.indexOf('method')]))];
  for (const c of out['mongodump-raw-bson'].charts) assert.deepEqual(axisLabels(c.svg, 'bottom'), methods, c.name);
});

test('mongodump-raw-bson: every series of its charts has a colour of its own', async () => {
  const { out } = await rendered;
  for (const c of out['mongodump-raw-bson'].charts) {
    const series = new Set(c.spec.data.values.map((d) => d.series));
    const legend = c.svg.slice(c.svg.indexOf('role-legend'));
    const swatches = [...legend.matchAll(/role-legend-symbol[\s\S]*?fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    assert.equal(new Set(swatches).size, series.size, `${c.name}: ${swatches.join(' ')}`);
  }
});

// A copy of the capped-pubsub example whose verdicts the checker gives today
// (two parts and evidence), with the growth probe of a 7.0 server: allowed,
// as SERVER-58865 predicts. The example ran on FerretDB; onMongoDB drops that
// server, as a run on MongoDB 7.0.42 would have recorded it.
async function twoPartExample({ onMongoDB = true } = {}) {
  const root = copyFixtures();
  const dir = path.join(root, 'capped-pubsub');
  const file = path.join(dir, 'results.json');
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (onMongoDB) delete r.environment.server;
  const checker = require('../../playbooks/lib/scenarios/capped-pubsub/checker.js');
  const { runChecker } = require('../../playbooks/lib/js/check.js');
  const grow = { 'grow.allowed': true, 'grow.oldSizeBytes': 59, 'grow.newSizeBytes': 170, 'grow.featureCompatibilityVersion': '7.0' };
  r.measurements.push(...Object.entries(grow).map(([key, value]) => ({ version: '7.0.42', key, value, unit: '' })));
  r.verdicts = runChecker(checker, { ...r, versions: r.environment.versions });
  fs.writeFileSync(file, JSON.stringify(r));
  return renderFolder(dir);
}

test('a claim that did not hold, as predicted, reads as both: NOT REPRODUCED and AS PREDICTED', async () => {
  const out = await twoPartExample();
  const md = fs.readFileSync(path.join(out.dir, 'report.md'), 'utf8');
  assert.match(md, /^\| documents in a capped collection cannot grow \| 7\.0\.42 \| an update that adds bytes is refused \| allowed: 59 -> 170 bytes \(FCV 7\.0\) \| \*\*NOT REPRODUCED\*\* \| AS PREDICTED \|$/m);
  const html = fs.readFileSync(path.join(out.dir, 'report.html'), 'utf8');
  const row = html.slice(html.indexOf('<tr><td>documents in a capped collection cannot grow'));
  assert.match(row.slice(0, row.indexOf('</tr>')), /<span class="verdict v-held">NOT REPRODUCED<\/span><\/td><td><span class="verdict v-yes">AS PREDICTED<\/span><\/td>$/);
});

test('report.md and report.html say what the playbook predicted per claim, why, and the source, marking an unverified one', async () => {
  const out = await twoPartExample();
  const md = fs.readFileSync(path.join(out.dir, 'report.md'), 'utf8');
  const section = md.slice(md.indexOf('## What the playbook predicted'));
  assert.match(section, /^\| claim \| version \| predicted \| why \| source \|$/m);
  assert.match(section, /^\| documents in a capped collection cannot grow \| 7\.0\.42 \| does not hold \| at feature compatibility version 5\.3 and later .* \| SERVER-58865: .*: `https:\/\/jira\.mongodb\.org\/browse\/SERVER-58865` \(read in the source\) \|$/m);
  assert.match(section, /^\| publishers keep the target write rate \| 7\.0\.42 \| holds \| .* \(unverified\) \|$/m);
  assert.match(md, /^\| publishers keep the target write rate \| .* \| \*\*REPRODUCED\*\* \| AS PREDICTED \(unverified prediction\) \|$/m);
  const html = fs.readFileSync(path.join(out.dir, 'report.html'), 'utf8');
  assert.match(html, /<h3>What the playbook predicted<\/h3>/);
  assert.match(html, /SERVER-58865: [^<]*<br><code>https:\/\/jira\.mongodb\.org\/browse\/SERVER-58865<\/code> <span class="muted">\(read in the source\)<\/span>/);
});

test('on FerretDB every judged claim reads NO PREDICTION, naming the server, never a MongoDB prediction', async () => {
  const out = await twoPartExample({ onMongoDB: false });
  const md = fs.readFileSync(path.join(out.dir, 'report.md'), 'utf8');
  assert.match(md, /^\| documents in a capped collection cannot grow \| .* \| \*\*NOT REPRODUCED\*\* \| NO PREDICTION: no prediction for FerretDB v1\.24\.2 \|$/m);
  assert.doesNotMatch(md, /\| (NOT )?AS PREDICTED/);
  assert.match(md, /^No prediction: no prediction for FerretDB v1\.24\.2 \(the predictions tables cover MongoDB 4\.4 to 8\.0\)\.$/m);
  assert.equal(md.match(/No prediction: /g).length, 1, 'said once, not once per claim');
  const html = fs.readFileSync(path.join(out.dir, 'report.html'), 'utf8');
  assert.match(html, /<span class="verdict v-na">NO PREDICTION<\/span><span class="muted">: no prediction for FerretDB v1\.24\.2<\/span>/);
  assert.doesNotMatch(html, /class="verdict v-(yes|no)">(NOT )?AS PREDICTED<\/span><\/td>/);
});

test('a verdict shows the evidence it was judged on, and a claim below its minimum says what it needed', async () => {
  const out = await twoPartExample();
  const md = fs.readFileSync(path.join(out.dir, 'report.md'), 'utf8');
  assert.match(md, /\(evidence: 3 subscriber counts with server CPU figures, spread 0\.32\) \| \*\*NOT APPLICABLE\*\*: the points scatter too much/);
  assert.match(md, /\(evidence: 3 sweep points of the capped fan-out\) \| \*\*REPRODUCED\*\* \| AS PREDICTED \|$/m);
  const html = fs.readFileSync(path.join(out.dir, 'report.html'), 'utf8');
  assert.match(html, /<span class="muted">evidence: 3 subscriber counts with server CPU figures, spread 0\.32<\/span>/);
});

test('every report has the legend of the verdict words, in Markdown and in HTML', async () => {
  const { out } = await rendered;
  const legend = require('../../playbooks/lib/js/report/legend');
  const { esc } = require('../../playbooks/lib/js/report/html');
  for (const p of PLAYBOOKS) {
    const md = fs.readFileSync(path.join(out[p].dir, 'report.md'), 'utf8');
    const html = fs.readFileSync(path.join(out[p].dir, 'report.html'), 'utf8');
    for (const [word, text] of [...legend.CLAIM_WORDS, ...legend.PREDICTION_WORDS]) {
      assert.ok(md.includes(`- **${word}**: ${text}`), `${p} report.md: ${word}`);
      assert.ok(html.includes(`<dd>${esc(text)}</dd>`), `${p} report.html: ${word}`);
    }
  }
});

test('an older results.json, whose verdicts have no prediction, still renders and says so', async () => {
  const { md, html } = await cappedWith((r) => {
    for (const v of r.verdicts) {
      delete v.prediction;
      delete v.predictionBasis;
    }
  });
  assert.match(md, /\| \*\*REPRODUCED\*\* \| not recorded \(an older report\) \|$/m);
  assert.doesNotMatch(md, /## What the playbook predicted/);
  assert.match(html, /<td><span class="muted">not recorded \(an older report\)<\/span><\/td><\/tr>/);
});

test('every example report carries a prediction, or says there is none, for each judged claim', async () => {
  const { out } = await rendered;
  const withJudged = PLAYBOOKS.filter((p) => out[p].results.verdicts.some((v) => v.verdict !== 'NOT APPLICABLE'));
  assert.ok(withJudged.length >= 4, withJudged.join(', '));
  for (const p of withJudged) {
    const judged = out[p].results.verdicts.filter((v) => v.verdict !== 'NOT APPLICABLE');
    for (const v of judged) assert.ok(['AS PREDICTED', 'NOT AS PREDICTED', 'NO PREDICTION'].includes(v.prediction), `${p} ${v.claim}: ${v.prediction}`);
  }
  for (const p of ['capped-pubsub', 'mongodump-raw-bson']) {
    const md = fs.readFileSync(path.join(out[p].dir, 'report.md'), 'utf8');
    assert.match(md, /No prediction: no prediction for FerretDB v1\.24\.2/, p);
  }
});

// The capped-pubsub example with CHANGE applied to its results.json, rendered.
async function cappedWith(change) {
  const root = copyFixtures();
  const dir = path.join(root, 'capped-pubsub');
  const file = path.join(dir, 'results.json');
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  change(r);
  fs.writeFileSync(file, JSON.stringify(r));
  const out = await renderFolder(dir);
  return { md: fs.readFileSync(path.join(dir, 'report.md'), 'utf8'), html: fs.readFileSync(path.join(dir, 'report.html'), 'utf8'), out };
}

test('charts of an older results.json, which name no claim, still open the report: the first one under the verdicts', async () => {
  const { html } = await cappedWith((r) => { for (const c of r.charts) delete c.answers; r.charts.reverse(); });
  const first = html.match(/<figure class="chart" id="chart-[^"]+" data-chart="([^"]+)">/);
  assert.equal(first[1], 'publish-p99-vs-subscribers');
  assert.ok(first.index < html.indexOf('id="environment"'));
});

test('the opening paragraph says what this run did: its scale and options, deployment and server', async () => {
  const { md, html } = await cappedWith((r) => { r.params = { scale: 'tiny', subscribers: '1,8', rate: 50 }; r.environment.scale.name = 'tiny'; });
  const first = 'This run: scale tiny (subscribers=1,8 rate=50), on --uri mongodb://127.0.0.1:PORT/ (FerretDB v1 on SQLite), against FerretDB v1.24.2 (presents itself as MongoDB 7.0.42).';
  assert.equal(md.split('\n')[2], first);
  assert.match(html, new RegExp(`<p class="claim">${first.replace(/[.()*+?]/g, '\\$&')}</p>`));
});

test("the playbook's --help paragraph is no longer the report's opening: it comes last, labelled as the same for every run", async () => {
  const { md } = await cappedWith((r) => { r.description = 'The subscriber count is swept (1, 10, 40 by default).'; });
  assert.ok(md.indexOf('swept (1, 10, 40 by default)') > md.indexOf('## About this playbook'));
  assert.ok(md.indexOf('## About this playbook') > md.indexOf('## Verdicts'));
});

test('a report of an interrupted run says so in its opening paragraph', async () => {
  const { md } = await cappedWith((r) => { r.status = 'interrupted'; r.stages = [{ name: 'run', label: '7.0.42', seconds: 11 }]; });
  assert.match(md.split('\n')[2], / It was interrupted in stage run: its verdicts cover what was measured before\.$/);
});

test("'What was done' names FerretDB where a stage is labelled with the version it presents itself as", async () => {
  const { md, html } = await cappedWith((r) => { r.stages = [{ name: 'launch', label: '7.0.42', seconds: 3 }]; });
  assert.match(md, /^- launch \(FerretDB v1\.24\.2\): 3 s$/m);
  assert.match(html, /<li>launch \(FerretDB v1\.24\.2\): 3 s<\/li>/);
  assert.doesNotMatch(md, /\(7\.0\.42\)/);
});

// The capped-pubsub example as a run interrupted in its run stage, before
// any verdict or chart: what it recorded until then is all it has.
const interrupted = (r) => {
  r.status = 'interrupted';
  r.stages = [{ name: 'run', label: '7.0.42', seconds: 11 }];
  r.verdicts = [];
  r.charts = [];
  r.measurements = [{ version: '7.0.42', stage: 'run', key: 'capped-1.published', value: 60, unit: 'messages' }];
};

test('an interrupted report shows what was measured before, right after the verdicts: measurements and tables', async () => {
  const { md, html } = await cappedWith(interrupted);
  const section = md.slice(md.indexOf('## What was measured before the run stopped'), md.indexOf('## Environment'));
  assert.ok(md.indexOf('## Verdicts') < md.indexOf('## What was measured before the run stopped'));
  assert.match(section, /^\| FerretDB v1\.24\.2 \| capped-1\.published \| 60 \| messages \|$/m);
  for (const title of ['Server CPU per sweep point', 'End-to-end delivery per sweep point (publish to subscriber, ms)']) {
    assert.ok(section.includes(`### ${title}\n`), title);
    assert.equal(md.split(`### ${title}\n`).length, 2, `${title}: once, with what was measured`);
  }
  assert.doesNotMatch(section, /### The article's tables/, "the article's figures were not measured: they stay under Tables");
  const measured = html.slice(html.indexOf('<section id="measured">'), html.indexOf('<section id="environment">'));
  assert.ok(html.indexOf('<section id="verdicts">') < html.indexOf('<section id="measured">'));
  assert.match(measured, /<td><code>capped-1\.published<\/code><\/td><td class="num">60<\/td><td>messages<\/td>/);
  assert.match(measured, /<section class="table" id="table-cpu">/);
});

test('an interrupted report with no verdict says so in its opening paragraph, and where the measurements are', async () => {
  const { md } = await cappedWith(interrupted);
  assert.match(md.split('\n')[2], / It was interrupted in stage run, before any verdict: what it measured until then follows the verdicts\.$/);
});

test('a report interrupted before anything was measured says so', async () => {
  const { md, html } = await cappedWith((r) => { interrupted(r); r.measurements = []; r.tables = {}; });
  assert.match(md.split('\n')[2], / It was interrupted in stage run, before anything was measured\.$/);
  assert.match(md, /## What was measured before the run stopped\n\nNothing: the run stopped before its first measurement\./);
  assert.match(html, /<section id="measured"><h2>What was measured before the run stopped<\/h2>\n<p>Nothing: the run stopped before its first measurement\.<\/p>/);
});

test('a finished report keeps its tables at the end and has no section of what was measured before a stop', async () => {
  const { md, html } = await cappedWith(() => {});
  assert.doesNotMatch(md, /What was measured before the run stopped/);
  assert.doesNotMatch(html, /id="measured"/);
  assert.ok(md.indexOf('## Tables') > md.indexOf('## Environment'));
});
