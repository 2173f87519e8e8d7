'use strict';
// playbooks/report [--out FILE] [--index FOLDER] [DIR...]
// Re-renders report.md and report.html (and the charts) of each report folder
// from its results.json; with several folders also writes one comparison page;
// --index rewrites FOLDER/index.html. Errors: one line on stderr, exit 1
// (usage: exit 2).

const fs = require('fs');
const path = require('path');
const { renderFolder } = require('./render');
const { writeIndex } = require('./index-page');
const { renderComparison } = require('./compare');

const USAGE = 'usage: playbooks/report [--out FILE] [--index FOLDER] REPORT_DIR...';

function parse(argv) {
  const opts = { dirs: [], out: '', index: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') opts.help = true;
    else if (a === '--out' || a === '--index') {
      if (i + 1 >= argv.length) throw Object.assign(new Error(`${a} needs a value`), { usage: true });
      opts[a.slice(2)] = argv[++i];
    } else if (a.startsWith('-')) throw Object.assign(new Error(`unknown option '${a}'`), { usage: true });
    else opts.dirs.push(a);
  }
  if (!opts.help && !opts.dirs.length && !opts.index) throw Object.assign(new Error('give at least one report folder'), { usage: true });
  if (opts.out && opts.dirs.length < 2) throw Object.assign(new Error('--out is for a comparison of several folders'), { usage: true });
  return opts;
}

async function main(argv) {
  let opts;
  try {
    opts = parse(argv);
  } catch (e) {
    process.stderr.write(`playbooks/report: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}

Re-renders report.md, report.html and charts/ (SVG and Vega-Lite spec) of each
report folder from its results.json. With several folders, also writes one
comparison page (default ./comparison.html, or --out FILE). --index FOLDER
rewrites FOLDER/index.html, the list of every report under FOLDER.
`);
    return 0;
  }
  try {
    const rendered = [];
    for (const dir of opts.dirs) {
      rendered.push(await renderFolder(dir));
      process.stdout.write(`${path.join(dir, 'report.html')}\n`);
    }
    if (rendered.length > 1) {
      const out = path.resolve(opts.out || 'comparison.html');
      fs.writeFileSync(out, await renderComparison(rendered.map((x) => ({ ...x, dir: path.resolve(x.dir) })), path.dirname(out)));
      process.stdout.write(`${opts.out || 'comparison.html'}\n`);
    }
    if (opts.index) process.stdout.write(`${writeIndex(opts.index)}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`playbooks/report: ${e.message}\n`);
    return 1;
  }
}

if (require.main === module) main(process.argv.slice(2)).then((code) => { process.exitCode = code; });

module.exports = { main, parse };
