'use strict';
// report.html: the report as a self-contained page (inline CSS and SVG, links
// only to files of the folder): title and claim, the verdicts with the charts
// that answer them, environment, what was done, the other charts, then every
// table in full.

const m = require('./model');
const { esc, inline, verdictBadge, predictionBadge, page, td } = require('./html');
const legend = require('./legend');
const { VERDICT_HEAD } = require('./render-md');

// The verdicts at a glance: the claim and its two answers, one line each, so
// that they, the legend and the chart answering them fit one projector screen.
// The version column only where the run compared several.
function verdictGlance(r) {
  const versions = new Set(r.verdicts.map((v) => v.version));
  const many = versions.size > 1;
  const rows = r.verdicts.map((v) => `<tr><td>${esc(v.claim)}</td>${many ? `<td>${esc(m.shortVersionLabel(r, v.version))}</td>` : ''}`
    + `<td>${verdictBadge(v.verdict)}</td><td>${predictionBadge(v, { short: true })}</td></tr>`);
  return `<table class="verdicts at-a-glance"><thead><tr><th>claim</th>${many ? '<th>version</th>' : ''}${VERDICT_HEAD.slice(2).map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}

// Each verdict with what was expected and observed, its evidence and reason.
function verdictTable(r) {
  const rows = r.verdicts.map((v) => `<tr><td>${esc(v.claim)}</td><td>${esc(m.versionLabel(r, v.version))}</td>`
    + `<td>${esc(v.expected)}</td><td>${esc(v.observed)}${v.test ? `<br><code>${esc(v.test)}</code>` : ''}`
    + `${v.evidence && v.evidence.summary ? `<br><span class="muted">evidence: ${esc(v.evidence.summary)}</span>` : ''}</td>`
    + `<td>${verdictBadge(v.verdict)}${v.reason ? `<br>${esc(v.reason)}` : ''}</td><td>${predictionBadge(v)}</td></tr>`);
  return `<div class="scroll"><table class="verdicts details"><thead><tr><th>claim</th><th>version</th>${VERDICT_HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

// Verdicts at a glance and the legend in a line beside the first answering
// chart, then the other answering charts, every verdict in detail and the
// whole legend.
function verdictSection(r, answering) {
  if (!(r.verdicts || []).length) {
    const none = `<p>No verdict was reached${r.status !== 'done' ? ' (the run did not finish)' : ''}.</p>`;
    return ['<section id="verdicts"><h2>Verdicts</h2>', none, ...answering.map((c) => figure(c, '', r)), '</section>'].join('\n');
  }
  const [first, ...rest] = answering;
  return ['<section id="verdicts"><h2>Verdicts</h2>',
    `<div class="glance"><div>${verdictGlance(r)}\n${shortLegendHtml()}</div>${first ? `\n${figure(first, '', r)}` : ''}</div>`,
    rest.length ? `<div class="side">${rest.map((c) => figure(c, '', r)).join('\n')}</div>` : '',
    '<h3>Each verdict in detail</h3>', verdictTable(r), legendHtml(), predictionTable(r), '</section>'].filter(Boolean).join('\n');
}

// What the table predicted for each judged claim, with its reason and source
// (its address as text: the page links only to files of its folder).
function predictionTable(r) {
  const { rows, none } = m.predictionRows(r);
  if (!rows.length && !none.length) return '';
  const body = rows.map((p) => `<tr><td>${esc(p.claim)}</td><td>${esc(m.versionLabel(r, p.version))}</td><td>${esc(p.predicted)}</td>`
    + `<td>${esc(p.reason)}</td><td>${esc(p.ref)}<br><code>${esc(p.url)}</code> <span class="muted">(${esc(p.verified)})</span></td></tr>`);
  const table = rows.length ? `
<div class="scroll"><table class="predictions"><thead><tr><th>claim</th><th>version</th><th>predicted</th><th>why</th><th>source</th></tr></thead>
<tbody>
${body.join('\n')}
</tbody></table></div>` : '';
  return `<h3>What the playbook predicted</h3>${table}${none.map((why) => `\n<p>No prediction: ${esc(why)} (the predictions tables cover MongoDB 4.4 to 8.0).</p>`).join('')}`;
}

// The one-line legend beside the verdicts, its words as the badges they explain.
function shortLegendHtml() {
  const badge = (w) => (legend.CLAIM_WORDS.some(([c]) => c === w) ? verdictBadge(w) : predictionBadge({ prediction: w }));
  const parts = legend.SHORT_PARTS.map(([words, text]) => `${words.map(badge).join(' / ')}: ${esc(text)}`);
  return `<p class="legend short">${parts.join('; ')}. In full: under the verdicts in detail.</p>`;
}

function legendHtml() {
  const words = [...legend.CLAIM_WORDS.map(([w, t]) => [verdictBadge(w), t]), ...legend.PREDICTION_WORDS.map(([w, t]) => [predictionBadge({ prediction: w }), t])];
  return `<details class="legend" open><summary>How to read a verdict</summary><dl>
${words.map(([w, t]) => `<dt>${w}</dt><dd>${esc(t)}</dd>`).join('\n')}
</dl><p>${esc(legend.EVIDENCE)}</p></details>`;
}

function environment(r) {
  const env = r.environment || {};
  const host = env.host || {};
  const topo = env.topology || {};
  const scale = env.scale || {};
  const servers = m.serverLines(r);
  const items = [
    ['Host', m.hostLine(host) || 'not recorded'],
    ['CPU', m.cpuLine(host) || 'not recorded'],
    ['Topology', `${topo.summary || '?'}${topo.extraServerOptions ? `; server options: ${topo.extraServerOptions}` : ''}`],
    ['Scale', `${scale.name || '?'} ${Object.entries(scale.params || {}).map(([k, v]) => `${k}=${v}`).join(' ')}`],
    ['Server', servers.length ? servers.join('; ') : 'none'],
    ['Tools', Object.entries(env.tools || {}).map(([k, v]) => `${k} ${v}`).join(', ')],
  ];
  return `<dl class="env">\n${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('\n')}\n</dl>`;
}

function htmlTable(name, t, dir, r) {
  const v = m.hasVersionColumn(t);
  const head = (v ? ['version'] : []).concat(t.columns);
  const body = m.tableRows(t, r).map((row) => `<tr>${(v ? [row.version] : []).concat(row.values)
    .map((x) => td(x, m.cellText(x))).join('')}</tr>`);
  const csv = !dir || m.exists(dir, `${name}.csv`) ? ` <a href="${esc(name)}.csv">${esc(name)}.csv</a>` : '';
  return `<section class="table" id="table-${esc(name)}">
<h3>${esc(t.title)}</h3>
${t.source ? `<p class="source">${esc(m.sourceLabel(t))}</p>\n` : ''}<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body.join('\n')}
</tbody></table></div>
<p class="muted">Data:${csv || ' results.json'}</p>
</section>`;
}

// A run that stopped before its report: every measurement and table it
// recorded until then, right after the verdicts.
function measuredSoFarHtml(r, early, dir) {
  const out = ['<section id="measured"><h2>What was measured before the run stopped</h2>'];
  if (!early.count) out.push('<p>Nothing: the run stopped before its first measurement.</p>');
  if (early.measurements.length) {
    out.push('<div class="scroll"><table class="measurements"><thead><tr><th>version</th><th>measurement</th><th>value</th><th>unit</th></tr></thead><tbody>');
    for (const x of early.measurements) {
      out.push(`<tr><td>${esc(m.shortVersionLabel(r, x.version))}</td><td><code>${esc(x.key)}</code></td>${td(x.value, m.cellText(x.value))}<td>${esc(x.unit)}</td></tr>`);
    }
    out.push('</tbody></table></div>');
  }
  out.push(...early.tables.map((n) => htmlTable(n, r.tables[n], dir, r)), '</section>');
  return out.join('\n');
}

// A chart's figure; given the report, its caption names the claims it answers.
function figure(c, prefix = '', r = null) {
  if (!c.svg) return `<figure class="chart missing" id="chart-${esc(c.name)}"><figcaption>Chart ${esc(c.name)}: not drawn: ${esc(c.error)}.</figcaption></figure>`;
  const claims = r ? [...new Set((r.verdicts || []).filter((v) => (c.answers || []).includes(v.id)).map((v) => v.claim))] : [];
  return `<figure class="chart" id="chart-${esc(c.name)}" data-chart="${esc(c.name)}">
${c.svg}
<figcaption>${claims.length ? `Answers: ${claims.map((t) => `<q>${esc(t)}</q>`).join(', ')}. ` : ''}${esc(c.title || c.name)}. ${c.caption ? `${esc(c.caption)} ` : ''}Spec: <a href="${esc(prefix)}charts/${esc(c.name)}.vl.json">charts/${esc(c.name)}.vl.json</a> (Vega-Lite), image: <a href="${esc(prefix)}charts/${esc(c.name)}.svg">charts/${esc(c.name)}.svg</a></figcaption>
</figure>`;
}

function renderHtml(r, charts, dir) {
  const out = [];
  out.push(`<header><h1>${esc(r.title)}</h1>`);
  out.push(`<p class="claim">${esc(m.runSummary(r))}</p>`);
  out.push(`<p class="meta"><span>playbook <code>${esc(r.playbook)}</code></span><span>status <strong>${esc(r.status)}</strong></span>`
    + `<span>${esc(r.started)} to ${esc(r.finished)} (${esc(r.durationSeconds)} s)</span></p>`);
  if (r.failure) out.push(`<p class="failure"><strong>Failure:</strong> ${esc(r.failure)}</p>`);
  out.push(`<p class="muted">Command: <code>${esc(r.command)}</code></p></header>`);
  const product = m.serverProduct(r);
  if (product) {
    out.push(`<p class="warning"><strong>Measured on ${esc(product.product)} ${esc(product.version)}, not on MongoDB</strong> (it answers buildInfo as MongoDB ${esc(product.reportsAs)}): every verdict below is about ${esc(product.product)}.</p>`);
  }
  const answering = m.answeringCharts(r, charts);
  out.push(verdictSection(r, answering));
  const early = m.unfinished(r) ? m.measuredSoFar(r) : null;
  if (early) out.push(measuredSoFarHtml(r, early, dir));
  out.push('<section id="environment"><h2>Environment</h2>', environment(r), '</section>');
  out.push('<section id="done"><h2>What was done</h2><ul>');
  for (const s of r.stages || []) out.push(`<li>${esc(s.name)}${s.label ? ` (${esc(m.stageLabel(r, s.label))})` : ''}: ${esc(s.seconds)} s</li>`);
  out.push('</ul>');
  for (const n of r.notes || []) out.push(`<p>${n.version ? `<strong>[${esc(m.shortVersionLabel(r, n.version))}]</strong> ` : ''}${inline(n.text)}</p>`);
  if ((r.knobs || []).length) {
    out.push('<p>Server parameters changed during the run (restored at cleanup):</p><ul>');
    for (const k of r.knobs) out.push(`<li><code>${esc(k.name)}</code>: ${esc(JSON.stringify(k.old))} → ${esc(JSON.stringify(k.new))}${k.target ? ` on ${esc(k.target)}` : ''}</li>`);
    out.push('</ul>');
  }
  out.push('</section>');
  const more = charts.filter((c) => !answering.includes(c));
  if (more.length) out.push(`<section id="charts"><h2>${answering.length ? 'More charts' : 'Charts'}</h2>`, ...more.map((c) => figure(c, '', r)), '</section>');
  const names = Object.keys(r.tables || {}).sort().filter((n) => !(early && early.tables.includes(n)));
  if (names.length) out.push('<section id="tables"><h2>Tables</h2>', ...names.map((n) => htmlTable(n, r.tables[n], dir, r)), '</section>');
  if ((r.logExcerpts || []).length) {
    out.push('<section id="logs"><h2>Log excerpts</h2><ul>');
    for (const e of r.logExcerpts) {
      const name = !dir || m.exists(dir, e.file) ? `<a href="${esc(e.file)}">${esc(e.name)}</a>` : esc(e.name);
      out.push(`<li>${name}: ${esc(e.lines)} line(s) from <code>${esc(e.source)}</code>${e.grep ? ` matching <code>${esc(e.grep)}</code>` : ''}${e.note ? `: ${inline(e.note)}` : ''}</li>`);
    }
    out.push('</ul></section>');
  }
  if (r.description) {
    out.push('<section id="about"><h2>About this playbook</h2><p class="muted">The playbook\'s own description (its --help), the same for every run:</p>', `<p>${inline(r.description)}</p></section>`);
  }
  const files = [['report.md', 'this report in Markdown'], ['results.json', 'every measurement, table, verdict and the environment'], ['run.log', 'every command and its output']]
    .filter(([f]) => !dir || m.exists(dir, f) || f === 'report.md');
  out.push('<section id="files"><h2>Files</h2><ul>', ...files.map(([f, what]) => `<li><a href="${f}">${f}</a>: ${what}</li>`), '</ul></section>');
  return page(r.title, out.join('\n'));
}

module.exports = { renderHtml, verdictTable, figure };
