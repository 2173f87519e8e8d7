'use strict';
// The scenarios' predictions tables (lib/scenarios/<name>/predictions.js) as
// Markdown: the block between the markers of each lab guide's "What changes
// per version" section, and docs/predictions.md. Generated, never edited by
// hand, so the guides say what the checkers predict.
//
//   node predictions-md.js --write   rewrite the guides' blocks and docs/predictions.md
//   node predictions-md.js --check   exit 1, naming the files, when any is out of date

const fs = require('node:fs');
const path = require('node:path');
const { SERIES, seriesCell } = require('./predictions.js');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCENARIOS = ['change-stream-resume', 'array-push-oplog', 'capped-pubsub', 'mongodump-raw-bson', 'routing-refresh'];
const BEGIN = '<!-- predictions: generated from lib/scenarios/NAME/predictions.js by `node playbooks/lib/js/predictions-md.js --write`; do not edit -->';
const END = '<!-- predictions: end -->';

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const link = (src) => `[${cell(src.ref)}](${src.url})${src.checked ? '' : ' (unverified)'}`;

function load(name) {
  const dir = path.join(ROOT, 'playbooks', 'lib', 'scenarios', name);
  return { table: require(path.join(dir, 'predictions.js')), claims: require(path.join(dir, 'checker.js')).claims };
}

// Each distinct reason once, in the order they first apply; a later one
// says from which releases it applies (unless it says so itself).
function whyOf(spans) {
  const reasons = [...new Set(spans.map((s) => s.reason))];
  return reasons.map((r, i) => {
    if (i === 0 || /^(before|from|since) /.test(r)) return r;
    return `from ${spans.filter((s) => s.reason === r).map((s) => s.from).join(', ')}: ${r}`;
  }).join('; ');
}

// One row per claim (and per fact a claim rests on): its word per series,
// then why, and the sources.
function row(label, spans) {
  const cells = SERIES.map((s) => seriesCell(spans, s).text);
  const sources = [...new Map(spans.map((s) => [s.source.ref, s.source])).values()].map(link).join('; ');
  return `| ${cell(label)} | ${cells.join(' | ')} | ${cell(whyOf(spans))} | ${sources} |`;
}

// A sameAcross claim's why: its reason, and the changes that make versions on
// both sides of them differ (so the claim is NOT REPRODUCED there by design).
function acrossWhy(table, claim) {
  const changes = claim.sameAcross.map((f) => table.facts[f]).filter((f) => f.spans.length > 1)
    .map((f) => `${f.label} (changes in ${f.spans.slice(1).map((s) => s.from).join(', ')})`);
  if (!changes.length) return claim.reason;
  return `${claim.reason}: ${changes.join('; ')}. Versions on both sides of a change are NOT REPRODUCED, as predicted`;
}

// The block a guide holds between its markers (markers included).
function guideBlock(name) {
  const { table, claims } = load(name);
  const out = [BEGIN.replace('NAME', name), '', `| claim | ${SERIES.join(' | ')} | why | source |`, `|---|${SERIES.map(() => '---').join('|')}|---|---|`];
  const facts = [];
  for (const c of claims) {
    const t = table.claims[c.id];
    if (t.sameAcross) {
      out.push(`| ${cell(c.claim)} | ${SERIES.map(() => 'see below').join(' | ')} | ${cell(acrossWhy(table, t))} | |`);
      facts.push(...t.sameAcross);
    } else {
      out.push(row(c.claim, t.spans));
    }
  }
  for (const [id, f] of Object.entries(table.facts)) {
    if (!table.claims[id] && !facts.includes(id) && id.includes(':') && table.claims[id.split(':')[0]]) {
      const claim = claims.find((c) => c.id === id.split(':')[0]);
      out.push(row(`${claim.claim} (${id.split(':')[1]})`, f.spans));
    }
  }
  const factHead = [`| fact | ${SERIES.join(' | ')} | why | source |`, `|---|${SERIES.map(() => '---').join('|')}|---|---|`];
  if (facts.length) {
    out.push('', 'The facts the versions claim rests on:', '', ...factHead);
    for (const id of facts) out.push(row(table.facts[id].label || id, table.facts[id].spans));
  }
  const others = Object.keys(table.facts).filter((id) => !facts.includes(id) && !table.claims[id.split(':')[0]]);
  if (others.length) {
    out.push('', 'Facts the real-server tests expect:', '', ...factHead);
    for (const id of others) out.push(row(table.facts[id].label || id, table.facts[id].spans));
  }
  if (table.notes.length) {
    out.push('', 'Other changes that decide no claim:', '', '| from | what changes for this lab | source |', '|---|---|---|');
    for (const n of table.notes) out.push(`| ${n.from} | ${cell(n.text)} | ${link(n.source)} |`);
  }
  out.push('', END);
  return out.join('\n');
}

function guideFile(name) {
  return path.join(ROOT, 'playbooks', `${name}.md`);
}

// The guide's text with its block replaced; throws when the markers are missing.
function withBlock(text, name) {
  const begin = text.indexOf(BEGIN.replace('NAME', name));
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`playbooks/${name}.md has no predictions markers`);
  return text.slice(0, begin) + guideBlock(name) + text.slice(end + END.length);
}

function docsPage() {
  const out = [
    '# What the playbooks predict, per MongoDB release series',
    '',
    'Generated from each scenario\'s `playbooks/lib/scenarios/<name>/predictions.js` by',
    '`node playbooks/lib/js/predictions-md.js --write`; do not edit. The checkers take every',
    'verdict\'s prediction from these tables, the lab guides show the same tables under "What',
    'changes per version", and the real-server integration tests read their expectations from',
    'them. [verdicts.md](verdicts.md) says how a report shows a prediction.',
    '',
    `A table covers the release series ${SERIES.join(', ')}. A release inside a series is`,
    'predicted by the rows in force for it ("holds from 6.0.5" splits a series). A server of',
    'another series (9.0, a rapid release such as 7.1) or a server that is not MongoDB (FerretDB)',
    'gets NO PREDICTION, never a default. A source marked "unverified" could not be read where the',
    'table was written: its row is the team\'s reading of tickets and documentation.',
  ];
  for (const name of SCENARIOS) {
    const block = guideBlock(name).split('\n').filter((l) => !l.startsWith('<!-- predictions'));
    out.push('', `## ${name}`, '', ...block.slice(1, block[block.length - 1] === '' ? -1 : undefined));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

const DOCS = path.join(ROOT, 'docs', 'predictions.md');

// [file, wanted text] of every generated file.
function generated() {
  return [
    ...SCENARIOS.map((n) => [guideFile(n), withBlock(fs.readFileSync(guideFile(n), 'utf8'), n)]),
    [DOCS, docsPage()],
  ];
}

function main(argv) {
  const mode = argv[0];
  if (argv.length !== 1 || !['--write', '--check'].includes(mode)) {
    process.stderr.write('usage: predictions-md.js --write | --check\n');
    return 2;
  }
  const stale = [];
  for (const [file, text] of generated()) {
    const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (now === text) continue;
    if (mode === '--write') fs.writeFileSync(file, text);
    else stale.push(path.relative(ROOT, file));
  }
  if (stale.length) {
    process.stderr.write(`out of date with the predictions tables: ${stale.join(', ')} (run node playbooks/lib/js/predictions-md.js --write)\n`);
    return 1;
  }
  return 0;
}

module.exports = { SCENARIOS, guideBlock, withBlock, docsPage, generated, BEGIN, END };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
