'use strict';
// Each example report page, the index and a comparison page loaded in headless
// Chromium: a screenshot of the whole page, no console error, no failed load,
// every chart drawn. Chromium comes from the system (setup installs Debian's
// chromium when CI=true); elsewhere these tests are skipped, saying so.
// DBA_LAB_SCREENSHOTS=DIR keeps the screenshots there to look at.

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { renderFolder } = require('../../playbooks/lib/js/report/render');
const { writeIndex } = require('../../playbooks/lib/js/report/index-page');
const { renderComparison } = require('../../playbooks/lib/js/report/compare');

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'reports');
const SHOT = path.join(__dirname, 'lib', 'page-shot.js');

function findChromium() {
  const names = [process.env.DBA_LAB_CHROMIUM, 'chromium', 'chromium-headless-shell', 'chromium-browser', 'google-chrome'].filter(Boolean);
  for (const name of names) {
    try {
      return execFileSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' }).trim();
    } catch { /* not this one */ }
  }
  return '';
}

const chromium = findChromium();
const skip = chromium ? false : 'chromium not found: install it (Debian: apt-get install chromium) to run the browser tests of the report pages';
if (!chromium && process.env.CI === 'true') {
  test('CI has chromium for the browser tests (setup installs it when CI=true)', () => assert.fail(skip));
}

// PNG width and height from the IHDR chunk.
function pngSize(file) {
  const b = fs.readFileSync(file);
  assert.equal(b.toString('latin1', 1, 4), 'PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}

// viewport 'WxH': a screenshot of that window only, as a projector shows it.
function shoot(page, png, media = 'screen', viewport = '') {
  const flags = typeof WebSocket === 'undefined' ? ['--experimental-websocket', '--no-warnings'] : [];
  const out = execFileSync(process.execPath, [...flags, SHOT, chromium, page, png, media, ...(viewport ? [viewport] : [])], { encoding: 'utf8', timeout: 60000 });
  return JSON.parse(out.trim().split('\n').pop());
}

// Every folder these tests make goes when the file's tests are done, passed
// or failed.
const made = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

// Rendered on first use: without chromium every test is skipped and nothing is made.
let rendering;
const pages = () => rendering || (rendering = (async () => {
  const root = tempDir('dba-lab-browser-');
  fs.cpSync(FIXTURES, root, { recursive: true });
  const list = [];
  const rendered = {};
  for (const name of fs.readdirSync(root).filter((n) => fs.existsSync(path.join(root, n, 'results.json'))).sort()) {
    rendered[name] = await renderFolder(path.join(root, name));
    list.push({ name, file: path.join(root, name, 'report.html'), charts: rendered[name].results.charts.length, title: rendered[name].results.title });
  }
  list.push({ name: 'index', file: writeIndex(root), charts: 0, title: 'Reports' });
  fs.cpSync(path.join(root, 'capped-pubsub'), path.join(root, 'capped-pubsub-again'), { recursive: true });
  const again = await renderFolder(path.join(root, 'capped-pubsub-again'));
  const compare = path.join(root, 'comparison.html');
  fs.writeFileSync(compare, await renderComparison([rendered['capped-pubsub'], again], root));
  list.push({ name: 'comparison', file: compare, charts: 2 * again.results.charts.length, title: 'Comparison: capped-pubsub' });
  const shots = process.env.DBA_LAB_SCREENSHOTS || path.join(root, 'screenshots');
  fs.mkdirSync(shots, { recursive: true });
  return { list, shots };
})());

for (const name of ['array-push-oplog', 'capped-pubsub', 'change-stream-resume', 'mongodump-raw-bson', 'routing-refresh', 'index', 'comparison']) {
  test(`${name}: renders in Chromium with every chart and no console error`, { skip }, async () => {
    const { list, shots } = await pages();
    const page = list.find((p) => p.name === name);
    const png = path.join(shots, `${name}.png`);
    const seen = shoot(page.file, png);
    assert.deepEqual(seen.errors, []);
    assert.equal(seen.title, page.title);
    assert.equal(seen.svgs, page.charts);
    assert.ok(seen.width <= 1200, `no horizontal overflow of the page (${seen.width} px)`);
    const size = pngSize(png);
    assert.equal(size.width, 1200);
    assert.ok(size.height >= 300 && size.bytes > 10000, `a screenshot with content (${size.height} px, ${size.bytes} bytes)`);
  });
}

// A trainer's projector: the verdicts, the legend and the chart answering
// them on the first screen, positions measured in the page.
for (const name of ['array-push-oplog', 'capped-pubsub', 'change-stream-resume', 'mongodump-raw-bson', 'routing-refresh']) {
  test(`${name}: at 1280x720 the verdicts, the legend and the first chart show without scrolling`, { skip }, async () => {
    const { list, shots } = await pages();
    const png = path.join(shots, `${name}-1280x720.png`);
    const seen = shoot(list.find((p) => p.name === name).file, png, 'screen', '1280x720');
    assert.deepEqual(seen.errors, []);
    for (const part of ['verdicts', 'legend', 'firstChart']) {
      const box = seen.boxes[part];
      assert.ok(box && box.top >= 0 && box.bottom <= 720, `${part} inside the first 720 px: ${JSON.stringify(box)}`);
    }
    assert.ok(seen.boxes.firstChart.bottom < seen.boxes.firstTable.top, 'the chart before the full tables');
    const size = pngSize(png);
    assert.deepEqual([size.width, size.height], [1280, 720]);
  });
}

test('printed (print media), a report keeps its charts and fits the page width', { skip }, async () => {
  const { list, shots } = await pages();
  const page = list.find((p) => p.name === 'mongodump-raw-bson');
  const png = path.join(shots, 'mongodump-raw-bson-print.png');
  const seen = shoot(page.file, png, 'print');
  assert.deepEqual(seen.errors, []);
  assert.equal(seen.svgs, page.charts);
  assert.ok(seen.width <= 1200, `no horizontal overflow (${seen.width} px)`);
});

test('the browser check sees a console error and a file that fails to load', { skip }, () => {
  const dir = tempDir('dba-lab-browser-bad-');
  const page = path.join(dir, 'bad.html');
  fs.writeFileSync(page, '<!DOCTYPE html><title>bad</title><img src="missing.png"><script>console.error("drawn wrong")</script>');
  const seen = shoot(page, path.join(dir, 'bad.png'));
  assert.equal(seen.errors.length, 2, JSON.stringify(seen.errors));
  assert.ok(seen.errors.some((e) => e.includes('drawn wrong')));
  assert.ok(seen.errors.some((e) => e.includes('missing.png')));
});

// execFileSync's timeout stops page-shot with SIGTERM: the browser it started
// and the profile folder it made must go with it. A stand-in browser that
// never opens its DevTools port keeps page-shot waiting until the signal.
test('page-shot stopped by SIGTERM ends its browser and removes its profile folder', async () => {
  const tmp = tempDir('dba-lab-browser-shot-');
  const browser = path.join(tmp, 'browser');
  const pidFile = path.join(tmp, 'browser.pid');
  fs.writeFileSync(browser, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`, { mode: 0o755 });
  const shotTmp = path.join(tmp, 'tmp');
  fs.mkdirSync(shotTmp);
  const { spawn } = require('child_process');
  const shot = spawn(process.execPath, [SHOT, browser, path.join(tmp, 'page.html'), path.join(tmp, 'page.png')],
    { env: { ...process.env, TMPDIR: shotTmp }, stdio: 'ignore' });
  const exited = new Promise((resolve) => shot.once('exit', (code, signal) => resolve({ code, signal })));
  const browserPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
  try {
    for (let i = 0; i < 100 && !browserPid(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(browserPid(), 'the stand-in browser started');
    assert.equal(fs.readdirSync(shotTmp).filter((n) => n.startsWith('dba-lab-chromium-')).length, 1);
    shot.kill('SIGTERM');
    const { code } = await exited;
    assert.notEqual(code, 0);
    assert.deepEqual(fs.readdirSync(shotTmp), []);
    let alive = true;
    for (let i = 0; i < 40 && alive; i++) {
      try { process.kill(browserPid(), 0); await new Promise((r) => setTimeout(r, 50)); } catch { alive = false; }
    }
    assert.equal(alive, false, 'the browser was stopped');
  } finally {
    // A failed test must not leave the stand-in running either.
    shot.kill('SIGKILL');
    const pid = browserPid();
    if (pid > 0) try { process.kill(pid, 'SIGKILL'); } catch { /* already stopped */ }
  }
});
