'use strict';
// One page comparing several report folders of the same playbook (versions or
// machines): the runs, their verdicts claim by claim, the same chart side by side.

const path = require('path');
const m = require('./model');
const charts = require('./charts');
const { esc, verdictBadge, predictionBadge, verdictCounts, page } = require('./html');
const { figure } = require('./render-html');

// A run as the page names it: versions, host and start; runs of different
// playbooks are told apart by their playbook first.
function runLabel(r, playbooks) {
  const versions = ((r.environment || {}).versions || []).map((v) => m.versionLabel(r, v.server || v.resolved)).filter(Boolean);
  const host = ((r.environment || {}).host || {}).name || '?';
  return `${playbooks.length > 1 ? `${r.playbook}: ` : ''}${versions.join(', ') || 'no server'} on ${host}, ${r.started}`;
}

// rendered: [{dir, results, charts}] from render.renderFolder; outDir: where
// the page is written (its links are relative to it).
async function renderComparison(rendered, outDir) {
  const redrawn = await charts.shareYScales(rendered.flatMap((x) => x.charts.map((drawn) => ({ drawn, results: x.results }))));
  const rel = (dir, file) => `${path.relative(outDir, dir).split(path.sep).join('/') || '.'}/${file}`;
  const playbooks = [...new Set(rendered.map((x) => x.results.playbook))];
  const out = [`<h1>Comparison: ${esc(playbooks.join(', '))}</h1>`];
  if (playbooks.length > 1) out.push('<p class="warning">These reports come from different playbooks: only their common claims and charts line up.</p>');
  out.push('<section id="runs"><h2>Runs</h2><table><thead><tr><th>#</th><th>run</th><th>status</th><th>verdicts</th></tr></thead><tbody>');
  rendered.forEach((x, i) => {
    out.push(`<tr><td>${i + 1}</td><td><a href="${esc(rel(x.dir, 'report.html'))}">${esc(runLabel(x.results, playbooks))}</a></td><td>${esc(x.results.status)}</td><td>${verdictCounts(x.results)}</td></tr>`);
  });
  out.push('</tbody></table></section>');
  const claims = [];
  for (const x of rendered) for (const v of x.results.verdicts || []) if (!claims.includes(v.claim)) claims.push(v.claim);
  out.push('<section id="verdicts"><h2>Verdicts</h2><div class="scroll"><table class="verdicts"><thead><tr><th>claim</th>');
  out.push(...rendered.map((x, i) => `<th>#${i + 1}</th>`), '</tr></thead><tbody>');
  for (const claim of claims) {
    const cells = rendered.map((x) => {
      const vs = (x.results.verdicts || []).filter((v) => v.claim === claim);
      if (!vs.length) return '<td class="muted">not checked</td>';
      return `<td>${vs.map((v) => `${verdictBadge(v.verdict)} ${predictionBadge(v)}${v.version ? ` [${esc(m.versionLabel(x.results, v.version))}]` : ''}<br>${esc(v.observed)}`).join('<br>')}</td>`;
    });
    out.push(`<tr><td>${esc(claim)}</td>${cells.join('')}</tr>`);
  }
  out.push('</tbody></table></div></section>');
  const chartNames = [];
  for (const x of rendered) for (const c of x.charts) if (!chartNames.includes(c.name)) chartNames.push(c.name);
  if (chartNames.length) {
    out.push('<section id="charts"><h2>Charts side by side</h2><p class="muted">Charts of the same quantity share one y scale.</p>');
    for (const name of chartNames) {
      out.push(`<h3>${esc(name)}</h3><div class="side">`);
      rendered.forEach((x, i) => {
        const found = x.charts.find((y) => y.name === name);
        if (!found) return;
        const c = redrawn.get(found) || found;
        const prefix = `${path.relative(outDir, x.dir).split(path.sep).join('/') || '.'}/`;
        out.push(figure({ ...c, title: `#${i + 1} ${runLabel(x.results, playbooks)}: ${c.title || c.name}` }, prefix).replace(/id="chart-/, `id="run${i + 1}-chart-`));
      });
      out.push('</div>');
    }
    out.push('</section>');
  }
  return page(`Comparison: ${playbooks.join(', ')}`, out.join('\n'));
}

module.exports = { renderComparison };
