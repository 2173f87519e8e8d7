'use strict';
// The lab-guide standard (docs/lab-guides.md), checked on every guide
// playbooks/<name>.md against its own playbook: the required sections in
// order, one answer per question, a "what to watch" entry for every stage the
// playbook narrates under --step, only options the playbook's --help lists,
// every command a student is told to type accepted by the playbook, and a
// time plan of 45 minutes. Then the corrections of issue 27 that live in the
// guides and the other user-facing texts.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const PLAYBOOKS = ['change-stream-resume', 'array-push-oplog', 'capped-pubsub', 'mongodump-raw-bson', 'routing-refresh'];

// The sections every guide has, in this order (other sections may sit between them).
const REQUIRED = [
  'Level and prerequisites',
  'Learning goals',
  'Time plan (45 minutes)',
  'What to run',
  'What to watch at each --step',
  'Questions',
  'Answers',
  'Common mistakes',
  'What changes per version',
  'Where MongoDB cannot be downloaded',
];

const guidePath = (name) => path.join(ROOT, 'playbooks', `${name}.md`);
const scriptPath = (name) => path.join(ROOT, 'playbooks', `${name}.sh`);
const readGuide = (name) => fs.readFileSync(guidePath(name), 'utf8');

// Markdown lines with fenced code blocks marked, so headings inside code never count.
function lines(md) {
  let fenced = false;
  return md.split('\n').map((text) => {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return { text, code: true, fence: true };
    }
    return { text, code: fenced, fence: false };
  });
}

const plain = (heading) => heading.replace(/`/g, '').trim();

// {title, body} of each heading of LEVEL (2 = ##), in document order.
function sections(md, level = 2) {
  const marker = `${'#'.repeat(level)} `;
  const out = [];
  for (const l of lines(md)) {
    if (!l.code && l.text.startsWith(marker)) out.push({ title: plain(l.text.slice(marker.length)), body: [] });
    else if (!l.code && /^#{1,6} /.test(l.text) && l.text.match(/^#+/)[0].length < level) out.push({ title: null, body: [] });
    else if (out.length) out[out.length - 1].body.push(l);
  }
  return out.filter((s) => s.title !== null).map((s) => ({ title: s.title, lines: s.body, text: s.body.map((l) => l.text).join('\n') }));
}

function section(md, title) {
  const found = sections(md).find((s) => s.title === title);
  assert.ok(found, `no section "## ${title}"`);
  return found;
}

// Top-level numbered items ("1. ...") outside code, as their numbers.
const numbered = (ls) => ls.filter((l) => !l.code && /^\d+\. /.test(l.text)).map((l) => Number(l.text.match(/^(\d+)\./)[1]));

// The stages playbooks/<name>.sh narrates under --step (pb::narration STAGE).
function narratedStages(name) {
  const sh = fs.readFileSync(scriptPath(name), 'utf8');
  return [...sh.matchAll(/^pb::narration ([a-z]+) /gm)].map((m) => m[1]);
}

const helpCache = new Map();
function help(name) {
  if (!helpCache.has(name)) helpCache.set(name, execFileSync(scriptPath(name), ['--help'], { cwd: ROOT, encoding: 'utf8' }));
  return helpCache.get(name);
}

// The options --help lists: lines such as "  --scale tiny|small" or "  -h, --help".
function helpOptions(name) {
  return new Set([...help(name).matchAll(/^ {2}(?:-[a-z], )?(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1]));
}

// Every command line the guide tells a student to type for its own playbook:
// in code blocks and in inline code, starting with (./)playbooks/<name>.sh.
function typedCommands(name, md) {
  const start = new RegExp(`^(?:\\./)?playbooks/${name}\\.sh(?:\\s|$)`);
  const out = [];
  for (const l of lines(md)) {
    if (l.fence) continue;
    if (l.code) {
      const cmd = l.text.replace(/\s+#.*$/, '').trim();
      if (start.test(cmd)) out.push(cmd);
    } else {
      for (const m of l.text.matchAll(/`([^`]+)`/g)) if (start.test(m[1].trim())) out.push(m[1].trim());
    }
  }
  return out;
}

const optionsOf = (cmd) => [...cmd.matchAll(/(?:^|\s)(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]);

// Runs CMD (a guide's command line) in dry-run mode with a throw-away HOME
// and TMPDIR, up to the line the playbook prints once every option check
// has passed ("... DRY RUN: commands are shown"): then it is stopped, since
// the plan itself is not what is tested here. Resolves to {accepted, code, stderr}.
const ACCEPTED = /DRY RUN: commands are shown, not run/;
function dryRun(cmd, dir) {
  const extra = [/\s--dry-run\b/.test(cmd) ? '' : ' --dry-run', /\s--yes\b/.test(cmd) ? '' : ' --yes'].join('');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${cmd}${extra} </dev/null`], {
      cwd: ROOT,
      env: { ...process.env, HOME: dir, TMPDIR: dir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let stderr = '';
    let accepted = false;
    const seen = (d) => {
      out += d;
      if (!accepted && ACCEPTED.test(out)) {
        accepted = true;
        try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', (d) => { stderr += d; seen(d); });
    child.on('close', (code) => resolve({ accepted, code, stderr }));
  });
}

// Does the playbook refuse --uri (a usage error, exit 2)?
const refusesUriCache = new Map();
async function refusesUri(name, dir) {
  if (!refusesUriCache.has(name)) {
    const r = await dryRun(`playbooks/${name}.sh --uri mongodb://127.0.0.1:1/`, dir);
    refusesUriCache.set(name, r.code === 2 && /--uri is not supported/.test(r.stderr));
  }
  return refusesUriCache.get(name);
}

// The minutes of the time plan: the first column of its table rows.
function planMinutes(body) {
  const rows = body.lines.filter((l) => !l.code && /^\|\s*\d+\s*\|/.test(l.text));
  return rows.map((l) => Number(l.text.match(/^\|\s*(\d+)\s*\|/)[1]));
}

for (const name of PLAYBOOKS) {
  test(`${name}.md has the required sections in order`, () => {
    const titles = sections(readGuide(name)).map((s) => s.title);
    const positions = REQUIRED.map((t) => titles.indexOf(t));
    for (const [i, t] of REQUIRED.entries()) assert.notEqual(positions[i], -1, `missing "## ${t}"`);
    assert.deepEqual([...positions].sort((a, b) => a - b), positions, `sections out of order: ${titles.join(' / ')}`);
  });

  test(`${name}.md: before class, playbooks/check --prepare then --offline for this playbook`, () => {
    const text = section(readGuide(name), 'Level and prerequisites').text;
    const at = text.indexOf('**Before class**');
    assert.notEqual(at, -1, 'no **Before class** item under "## Level and prerequisites"');
    const before = text.slice(at);
    const step = (mode) => before.search(new RegExp(`playbooks/check --${mode}(?: [^\\n\`]*)? ${name}(?![\\w-])`));
    const prepare = step('prepare');
    const offline = step('offline');
    assert.notEqual(prepare, -1, `the Before class item lacks "playbooks/check --prepare ${name}"`);
    assert.notEqual(offline, -1, `the Before class item lacks "playbooks/check --offline ${name}"`);
    assert.ok(prepare < offline, '--prepare (with the network) comes before --offline');
  });

  test(`${name}.md: the time plan says which times were measured (when, on what) and which are estimates`, () => {
    const body = section(readGuide(name), 'Time plan (45 minutes)');
    const paragraphs = body.text.split(/\n\s*\n/);
    const measured = paragraphs.filter((p) => /^\*\*Measured:?\*\*/.test(p.trim()));
    const estimated = paragraphs.filter((p) => /^\*\*Estimated:?\*\*/.test(p.trim()));
    assert.ok(measured.length + estimated.length > 0, 'no **Measured** or **Estimated** paragraph under the time plan');
    for (const p of measured) assert.match(p, /\b\d{4}-\d{2}-\d{2}\b/, `a measured figure without its date: ${p.trim().slice(0, 80)}`);
    for (const p of estimated) assert.match(p, /--help|--dry-run/, `an estimate that does not say whose: ${p.trim().slice(0, 80)}`);
    assert.doesNotMatch(body.text.replace(/\s+/g, ' '), /none (?:was|has been) measured/i);
  });

  test(`${name}.md: the time plan adds up to 45 minutes`, () => {
    const minutes = planMinutes(section(readGuide(name), 'Time plan (45 minutes)'));
    assert.ok(minutes.length >= 3, `the time plan has ${minutes.length} rows`);
    assert.equal(minutes.reduce((a, b) => a + b, 0), 45);
  });

  test(`${name}.md: the answers sit in a collapsed section, one per question`, () => {
    const md = readGuide(name);
    const questions = numbered(section(md, 'Questions').lines);
    assert.ok(questions.length >= 3, `${questions.length} questions`);
    assert.deepEqual(questions, questions.map((_, i) => i + 1), 'questions are numbered 1, 2, 3, ...');
    const answers = section(md, 'Answers').text;
    const details = answers.match(/<details><summary>Answers<\/summary>([\s\S]*?)<\/details>/);
    assert.ok(details, 'the answers are inside <details><summary>Answers</summary> ... </details>');
    assert.deepEqual(numbered(lines(details[1])), questions, 'one answer per question, numbered as the questions');
  });

  test(`${name}.md: every stage the playbook narrates has a "what to watch" entry with the output to expect`, () => {
    const watch = sections(section(readGuide(name), 'What to watch at each --step').text, 3);
    const stages = narratedStages(name);
    assert.ok(stages.length > 0, `${name}.sh narrates no stage`);
    for (const stage of stages) {
      const entry = watch.find((s) => s.title.split(/[\s:(]/)[0] === stage);
      assert.ok(entry, `no "### ${stage}" entry under "What to watch at each --step"`);
      assert.match(entry.text, /^Expect:/m, `the ${stage} entry has no "Expect:" paragraph`);
    }
  });

  test(`${name}.md: reading the report, the chart comes before the table`, () => {
    const text = section(readGuide(name), 'Reading the report').text;
    const chart = text.search(/\bcharts?\b/i);
    const table = text.search(/\btables?\b/i);
    assert.notEqual(chart, -1, 'the section names the chart');
    assert.ok(table === -1 || chart < table, 'the chart is shown before the table');
  });

  test(`${name}.md: every option a student is told to type is in ${name}.sh --help`, () => {
    const known = helpOptions(name);
    const commands = typedCommands(name, readGuide(name));
    assert.ok(commands.length >= 3, `${commands.length} commands to type`);
    for (const cmd of commands) {
      for (const opt of optionsOf(cmd)) assert.ok(known.has(opt), `"${cmd}": ${opt} is not in ${name}.sh --help`);
    }
  });

  test(`${name}.md: the playbook accepts every command the guide shows (no usage error in a dry run)`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lab-guide-${name}-`));
    try {
      const commands = typedCommands(name, readGuide(name)).filter((c) => !/\s(--help|-h)\b/.test(c));
      const results = [];
      for (const c of commands) results.push({ c, ...await dryRun(c, dir) });
      for (const r of results) assert.ok(r.accepted, `"${r.c}" was refused (exit ${r.code}): ${r.stderr.trim()}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${name}.md: where MongoDB cannot be downloaded, the guide gives --binarypath and what --uri really does`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lab-guide-${name}-`));
    try {
      const text = section(readGuide(name), 'Where MongoDB cannot be downloaded').text;
      assert.match(text, /--binarypath/);
      if (await refusesUri(name, dir)) {
        assert.match(text, /`--uri` is refused/, 'the playbook refuses --uri: the guide must say so');
      } else {
        assert.match(text, new RegExp(`playbooks/${name}\\.sh [^\\n]*--uri`), 'a --uri command');
        assert.match(text, /FerretDB/, 'what FerretDB can and cannot show');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

// Issue 27, item 10: an awaitData getMore stops waiting once it has its first
// result and then batches by internalDocumentSourceCursorBatchSizeBytes again
// (getmore_cmd.cpp clears shouldWaitForInserts; document_source_cursor.cpp
// loadBatch). The wrong claim was in the guide, --help and the report's note.
const WRONG_GETMORE = /(?:every|an) awaitData `?getMore`? (?:already )?ends (?:its|each) (?:internal )?batch after (?:each|one) document|never gathers more than\s+one document|shapes only the opening `?aggregate`?'s (?:first )?batch/;

test('change-stream-resume: no user-facing text says every awaitData getMore ends its batch after each document', () => {
  const model = require(path.join(ROOT, 'playbooks', 'lib', 'scenarios', 'change-stream-resume', 'model.js'));
  const texts = {
    guide: readGuide('change-stream-resume').replace(/\s+/g, ' '),
    help: help('change-stream-resume').replace(/\s+/g, ' '),
    notes: ['4.4.29', '5.0.30', '8.0.4'].flatMap((v) => model.notes(v)).join(' '),
    facts: fs.readFileSync(path.join(ROOT, 'docs', 'mongodb-facts.md'), 'utf8').replace(/\s+/g, ' '),
  };
  for (const [where, text] of Object.entries(texts)) assert.doesNotMatch(text, WRONG_GETMORE, where);
  assert.match(texts.guide, /first result/, 'the guide says what a getMore does once it has its first result');
});

test('change-stream-resume.md: C and D are NOT REPRODUCED on 4.4 and 5.0 by design (the $match rewrite arrived in 5.1)', () => {
  const md = readGuide('change-stream-resume');
  const verdicts = sections(md).find((s) => /verdict/i.test(s.title));
  assert.ok(verdicts, 'a section about the verdicts');
  const text = verdicts.text.replace(/\s+/g, ' ');
  assert.match(text, /C and D are NOT REPRODUCED on 4\.4 and 5\.0 by design/);
  assert.match(text, /5\.1/);
});

// Issue 27, item 11: the newest addtoset_node.cpp logs only the appended
// elements (ModifyResult::kArrayAppendUpdate, SERVER-72941): a claim that
// every version logs the same patterns whole must be made per version.
test('array-push-oplog.md: what changes per version gives $addToSet both ways and the ticket that changed it', () => {
  const text = section(readGuide('array-push-oplog'), 'What changes per version').text.replace(/\s+/g, ' ');
  assert.match(text, /\$addToSet/);
  assert.match(text, /SERVER-72941/);
  assert.match(text, /whole array/);
  assert.match(text, /only the appended element/);
});

test('array-push-oplog.md: wherever it names the "same patterns whole" verdict, it says when that verdict flips', () => {
  const paragraphs = readGuide('array-push-oplog').split(/\n\s*\n/).filter((p) => /same patterns\s+whole/.test(p));
  assert.ok(paragraphs.length > 0, 'the guide explains the verdict across versions');
  for (const p of paragraphs) {
    assert.match(p, /\$addToSet/, p);
    assert.match(p, /NOT REPRODUCED/, p);
  }
});

test('docs/mongodb-facts.md does not say $addToSet logs the whole array on every $v:2 version', () => {
  const facts = fs.readFileSync(path.join(ROOT, 'docs', 'mongodb-facts.md'), 'utf8');
  const rows = facts.split('\n').filter((l) => /^\|.*\$addToSet.*\|/.test(l));
  assert.ok(rows.length > 0, 'the oplog table has a $addToSet row');
  for (const row of rows) assert.doesNotMatch(row, /\| whole array \| whole array \|\s*$/, row);
});

// A tailable cursor survives an empty first batch unless its collection has
// no records (shouldSaveCursor in src/mongo/db/query/find.cpp): "dies if its
// first batch is empty" was too broad.
const WRONG_TAILABLE = /dies if its first batch is empty|(?:empty first batch|first batch is empty)[^.]{0,80}\b(?:dies|closes|is closed|kills)\b/i;

function docsAndGuides() {
  const files = [
    ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f)),
    ...fs.readdirSync(path.join(ROOT, 'playbooks')).filter((f) => f.endsWith('.md')).map((f) => path.join('playbooks', f)),
    path.join('snippets', 'README.md'),
  ];
  return files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/\s+/g, ' ')]);
}

test('no doc or guide says an empty first batch kills a tailable cursor', () => {
  for (const [file, text] of docsAndGuides()) assert.doesNotMatch(text, WRONG_TAILABLE, file);
});

test('docs/mongodb-facts.md gives the condition a tailable cursor is closed on, linked to shouldSaveCursor', () => {
  const facts = fs.readFileSync(path.join(ROOT, 'docs', 'mongodb-facts.md'), 'utf8').replace(/\s+/g, ' ');
  assert.match(facts, /numRecords\(opCtx\) != 0U/);
  assert.match(facts, /\(https:\/\/github\.com\/mongodb\/mongo\/blob\/[0-9a-f]{40}\/src\/mongo\/db\/query\/find\.cpp\),? `shouldSaveCursor`/);
});

test('playbooks/check has the --prepare and --offline modes the guides send the trainer to', () => {
  const text = execFileSync(path.join(ROOT, 'playbooks', 'check'), ['--help'], { cwd: ROOT, encoding: 'utf8' });
  assert.match(text, /^ {2}--prepare\b/m);
  assert.match(text, /^ {2}--offline\b/m);
  assert.match(text, /playbooks\/check --prepare .*\[PLAYBOOK\.\.\.\]/);
  assert.match(text, /playbooks\/check --offline .*\[PLAYBOOK\.\.\.\]/);
});

test('the lab-guide standard is linked from docs/README.md and the README', () => {
  assert.ok(fs.existsSync(path.join(ROOT, 'docs', 'lab-guides.md')));
  assert.match(fs.readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8'), /\(lab-guides\.md\)/);
  assert.match(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), /\(docs\/lab-guides\.md\)/);
});
