'use strict';
// report.md from results.json and the rendered charts: for tools, diffs and
// reading in a terminal. The same sections as report.html.

const m = require('./model');
const legend = require('./legend');

const cell = (v) => m.cellText(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function mdTable(table, results) {
  const v = m.hasVersionColumn(table);
  const head = (v ? ['version'] : []).concat(table.columns);
  const out = [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of m.tableRows(table, results)) out.push(`| ${(v ? [r.version] : []).concat(r.values).map(cell).join(' | ')} |`);
  return out;
}

// The verdict columns after claim and version, shared with report.html.
const VERDICT_HEAD = ['expected for this version', 'observed', "the article's claim", 'as predicted?'];

// A chart as Markdown lines: its image, why a series has no line (its
// caption), and the spec to restyle it.
function mdChart(c) {
  const out = ['', `### ${c.title || c.name}`, ''];
  if (c.svg) {
    out.push(`![${c.name}](charts/${c.name}.svg)`, '');
    if (c.caption) out.push(c.caption, '');
    out.push(`Spec: [charts/${c.name}.vl.json](charts/${c.name}.vl.json) (Vega-Lite: open it in the Vega editor or change it and run playbooks/report)`);
  } else {
    out.push(`Chart ${c.name}: not drawn: ${c.error}.`);
  }
  return out;
}

function mdTableSection(name, r) {
  const t = r.tables[name];
  const out = ['', `### ${t.title}`, ''];
  if (t.source) out.push(`*${m.sourceLabel(t)}*`, '');
  return [...out, ...mdTable(t, r), '', `Data: [${name}.csv](${name}.csv)`];
}

// A run that stopped before its report: every measurement and table it
// recorded until then, right after the verdicts.
function mdMeasuredSoFar(r, early) {
  const out = ['## What was measured before the run stopped', ''];
  if (!early.count) return [...out, 'Nothing: the run stopped before its first measurement.'];
  if (early.measurements.length) {
    out.push('| version | measurement | value | unit |', '|---|---|---|---|');
    for (const x of early.measurements) out.push(`| ${cell(m.shortVersionLabel(r, x.version))} | ${cell(x.key)} | ${cell(x.value)} | ${cell(x.unit)} |`);
  }
  for (const name of early.tables) out.push(...mdTableSection(name, r));
  return out;
}

function renderMarkdown(results, charts, dir) {
  const r = results;
  const env = r.environment || {};
  const host = env.host || {};
  const out = [`# ${r.title}`, ''];
  out.push(m.runSummary(r), '');
  out.push(`Playbook \`${r.playbook}\` · status **${r.status}** · ${r.started} to ${r.finished} (${r.durationSeconds} s)`, '');
  if (r.failure) out.push(`**Failure:** ${r.failure}`, '');
  out.push(`Command: \`${r.command}\``, '');
  const product = m.serverProduct(r);
  if (product) out.push(`**Measured on ${product.product} ${product.version}, not on MongoDB** (it answers buildInfo as MongoDB ${product.reportsAs}): every verdict below is about ${product.product}.`, '');
  out.push('## Verdicts', '');
  if ((r.verdicts || []).length) {
    out.push(`| claim | version | ${VERDICT_HEAD.join(' | ')} |`, '|---|---|---|---|---|---|');
    for (const v of r.verdicts) {
      const evidence = v.evidence && v.evidence.summary ? ` (evidence: ${v.evidence.summary})` : '';
      out.push(`| ${cell(v.claim)} | ${cell(m.versionLabel(r, v.version))} | ${cell(v.expected)} | ${cell(v.observed)}${cell(evidence)} `
        + `| **${v.verdict}**${v.reason ? `: ${cell(v.reason)}` : ''} | ${cell(legend.predictionText(v))} |`);
    }
    out.push('', 'How to read a verdict:', '', ...legend.lines().map((l) => `- ${l.replace(/^([A-Z ]+|Evidence):/, '**$1**:')}`));
    const predicted = m.predictionRows(r);
    if (predicted.rows.length || predicted.none.length) out.push('', '## What the playbook predicted', '');
    if (predicted.rows.length) {
      out.push('| claim | version | predicted | why | source |', '|---|---|---|---|---|');
      for (const p of predicted.rows) {
        out.push(`| ${cell(p.claim)} | ${cell(m.versionLabel(r, p.version))} | ${p.predicted} | ${cell(p.reason)} | ${cell(p.ref)}: \`${p.url}\` (${p.verified}) |`);
      }
    }
    for (const why of predicted.none) out.push('', `No prediction: ${why} (the predictions tables cover MongoDB 4.4 to 8.0).`);
  } else {
    out.push(`No verdict was reached${r.status !== 'done' ? ' (the run did not finish)' : ''}.`);
  }
  const answering = m.answeringCharts(r, charts);
  if (answering.length) out.push('', '## What the measurements show', ...answering.flatMap(mdChart));
  const early = m.unfinished(r) ? m.measuredSoFar(r) : null;
  if (early) out.push('', ...mdMeasuredSoFar(r, early));
  out.push('', '## Environment', '');
  out.push(`- Host: ${m.hostLine(host) || 'not recorded'}`);
  out.push(`- CPU: ${m.cpuLine(host) || 'not recorded'}`);
  const topo = env.topology || {};
  out.push(`- Topology: ${topo.summary || '?'}${topo.extraServerOptions ? `; server options: \`${topo.extraServerOptions}\`` : ''}`);
  const scale = env.scale || {};
  out.push(`- Scale: ${scale.name || '?'} ${Object.entries(scale.params || {}).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const servers = m.serverLines(r);
  out.push(`- Server: ${servers.length ? servers.join('; ') : 'none'}`);
  out.push(`- Tools: ${Object.entries(env.tools || {}).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out.push('', '## What was done', '');
  for (const s of r.stages || []) out.push(`- ${s.name}${s.label ? ` (${m.stageLabel(r, s.label)})` : ''}: ${s.seconds} s`);
  for (const n of r.notes || []) out.push('', `${n.version ? `**[${m.shortVersionLabel(r, n.version)}]** ` : ''}${n.text}`);
  if ((r.knobs || []).length) {
    out.push('', 'Server parameters changed during the run (restored at cleanup):', '');
    for (const k of r.knobs) out.push(`- \`${k.name}\`: ${JSON.stringify(k.old)} -> ${JSON.stringify(k.new)}${k.target ? ` on ${k.target}` : ''}`);
  }
  const more = charts.filter((c) => !answering.includes(c));
  if (more.length) out.push('', `## ${answering.length ? 'More charts' : 'Charts'}`, ...more.flatMap(mdChart));
  const names = Object.keys(r.tables || {}).sort().filter((n) => !(early && early.tables.includes(n)));
  if (names.length) {
    out.push('', '## Tables');
    for (const name of names) out.push(...mdTableSection(name, r));
  }
  if ((r.logExcerpts || []).length) {
    out.push('', '## Log excerpts', '');
    for (const e of r.logExcerpts) {
      out.push(`- [${e.name}](${e.file}): ${e.lines} line(s) from \`${e.source}\`${e.grep ? ` matching \`${e.grep}\`` : ''}${e.note ? `: ${e.note}` : ''}`);
    }
  }
  if (r.description) out.push('', '## About this playbook', '', "The playbook's own description (its --help), the same for every run:", '', r.description);
  out.push('', '## Files', '', '- report.html: this report as a page, with the charts', '- results.json: every measurement, table, verdict and the environment');
  if (!dir || m.exists(dir, 'run.log')) out.push('- run.log: every command and its output');
  return `${out.join('\n')}\n`;
}

module.exports = { renderMarkdown, mdTable, VERDICT_HEAD };
