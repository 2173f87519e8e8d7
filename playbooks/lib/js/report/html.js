'use strict';
// Small HTML helpers shared by the report, index and comparison pages: one
// stylesheet inlined in every page (no external file, readable printed).

const { predictionText } = require('./legend');
const m = require('./model');

const esc = (s) => String(s === null || s === undefined ? '' : s)
  .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// The little markdown notes use: `code` and **bold**.
function inline(text) {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

// Whether the article's claim held is neither good nor bad news: its badge is
// neutral. Green and red belong to the prediction (legend.js).
const VERDICT_CLASS = { REPRODUCED: 'v-held', 'NOT REPRODUCED': 'v-held', 'NOT APPLICABLE': 'v-na' };
const PREDICTION_CLASS = { 'AS PREDICTED': 'v-yes', 'NOT AS PREDICTED': 'v-no', 'NO PREDICTION': 'v-na' };

function verdictBadge(verdict) {
  return `<span class="verdict ${VERDICT_CLASS[verdict] || 'v-na'}">${esc(verdict)}</span>`;
}

// A verdict record's prediction; plain words where it has none. short: the
// word alone (the verdicts at a glance), without why there is none or
// that it is unverified.
function predictionBadge(v, { short = false } = {}) {
  const cls = PREDICTION_CLASS[v.prediction];
  if (!cls) return `<span class="muted">${esc(predictionText(v))}</span>`;
  const more = short ? '' : predictionText(v).slice(v.prediction.length);
  return `<span class="verdict ${cls}">${esc(v.prediction)}</span>${more ? `<span class="muted">${esc(more)}</span>` : ''}`;
}

// A count and its badge, kept on one line ("2 NOT REPRODUCED" never breaks
// after the 2): a wrapped cell would put the count at the end of the line
// before, beside the previous badge.
function counted(n, badge) {
  return `<span class="count">${esc(n)}&nbsp;${badge}</span>`;
}

// A run's verdict counts as badges, then its prediction counts on a line of
// their own (the index and the comparison's runs); 'no verdict' when none.
function verdictCounts(results) {
  const c = m.verdictCounts(results);
  const p = m.predictionCounts(results);
  const verdicts = m.VERDICTS.filter((k) => c[k]).map((k) => counted(c[k], verdictBadge(k))).join(' ');
  const predicted = m.PREDICTIONS.filter((k) => p[k]).map((k) => counted(p[k], predictionBadge({ prediction: k }))).join(' ');
  return (verdicts || 'no verdict') + (predicted ? `<br>${predicted}` : '');
}

const CSS = `
:root { --fg: #1b1b1b; --muted: #555; --line: #d0d0d0; --yes: #1a7f37; --no: #b42318; --na: #8a6100; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; max-width: 1240px; padding: 1rem 1.5rem; }
h1 { font-size: 1.45rem; line-height: 1.25; margin: 0 0 .3rem; } h2 { font-size: 1.25rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; margin: 1.2rem 0 .6rem; }
header p { margin: .25rem 0; } header .meta, header .muted { font-size: .85rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
.meta, .muted { color: var(--muted); } .meta span + span::before { content: " · "; }
code { font: 0.9em ui-monospace, Menlo, Consolas, monospace; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; word-break: break-word; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; } table.index code { white-space: nowrap; }
.count, td.when { white-space: nowrap; }
.verdict { font-weight: 700; white-space: nowrap; padding: 0 .35em; border-radius: 3px; border: 1px solid currentColor; }
.v-yes { color: var(--yes); } .v-no { color: var(--no); } .v-na { color: var(--na); } .v-held { color: var(--fg); }
details.legend { font-size: .9rem; margin: .5rem 0; } details.legend dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .4rem 0; } details.legend dd { margin: 0; }
.warning { border-left: 4px solid var(--no); background: #fdf1f0; padding: .5rem .8rem; }
.failure { border-left: 4px solid var(--no); padding: .5rem .8rem; }
.source { border-left: 4px solid var(--na); background: #fdf8ec; padding: .3rem .6rem; font-style: italic; }
figure { margin: 1rem 0; break-inside: avoid; } figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .85rem; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dl.env dt { font-weight: 600; } dl.env dd { margin: 0; }
.side { display: flex; flex-wrap: wrap; gap: 1rem; } .side > figure { flex: 1 1 420px; }
/* Verdicts, legend and the chart answering them on one projector screen (1280x720). */
div.glance { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 500px); gap: 0 1.5rem; align-items: start; }
.glance > figure { margin: 0; } table.at-a-glance { font-size: .85rem; margin-top: 0; } table.at-a-glance td, table.at-a-glance th { padding: .1rem .4rem; }
p.legend.short { font-size: .8rem; line-height: 1.5; margin: .3rem 0; }
@media (max-width: 1000px) { div.glance { grid-template-columns: minmax(0, 1fr); } }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; } a { color: inherit; } h2, h3 { break-after: avoid; }
  figure, tr { break-inside: avoid; } .scroll { overflow: visible; } div.glance { grid-template-columns: minmax(0, 1fr); }
  table { font-size: 7.5pt; width: 100%; } th, td { padding: 1px 3px; overflow-wrap: anywhere; }
}
`;

function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

// A table cell: numbers right-aligned.
function td(v, text) {
  return typeof v === 'number' ? `<td class="num">${esc(text)}</td>` : `<td>${esc(text)}</td>`;
}

module.exports = { esc, inline, verdictBadge, predictionBadge, counted, verdictCounts, page, td };
