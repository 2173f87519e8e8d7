'use strict';
// node [--experimental-websocket] page-shot.js CHROMIUM PAGE.html SHOT.png [screen|print] [WxH]
// Loads a page in headless Chromium through the DevTools protocol, takes a
// full-page screenshot (or, given WxH, a screenshot of that window only, as a
// projector shows it) and prints JSON: {errors, title, svgs, width, height, boxes}.
// boxes: where the verdicts, the legend, the first chart and the first full
// table lie on the page ({top, bottom} in CSS px from the top, or null).
// errors: console errors, uncaught exceptions and failed loads (Log domain).
// Runs in its own process: Node 20 has WebSocket only behind a flag.

const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--remote-debugging-port=0', '--window-size=1200,900'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForPort(profile, child) {
  const file = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`chromium exited with ${child.exitCode}`);
    try {
      const port = fs.readFileSync(file, 'utf8').split('\n')[0].trim();
      if (port) return port;
    } catch { /* not yet written */ }
    await sleep(100);
  }
  throw new Error('chromium did not open its DevTools port in 30 s');
}

function client(url) {
  const ws = new WebSocket(url);
  let id = 0;
  const pending = new Map();
  const listeners = [];
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message}`));
      else resolve(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  };
  const opened = new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('DevTools WebSocket failed'));
  });
  return {
    opened,
    on: (fn) => listeners.push(fn),
    send: (method, params = {}) => new Promise((resolve, reject) => {
      id += 1;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    }),
    close: () => ws.close(),
  };
}

// The page's own layout, measured in the page rather than eyeballed.
const MEASURE = `(() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
  return JSON.stringify({ title: document.title, svgs: document.querySelectorAll('figure svg').length,
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
    boxes: { verdicts: box('table.verdicts'), legend: box('.legend'), firstChart: box('figure.chart svg'), firstTable: box('section.table') } });
})()`;

async function main([chromium, page, shot, media, viewport]) {
  const [vw, vh] = viewport ? viewport.split('x').map(Number) : [];
  // A caller's timeout (execFileSync's) stops this process with SIGTERM, and
  // then the finally below never runs: the browser and its profile go here.
  // Listened for before either exists: on a busy machine the browser can be
  // up (and the caller's signal on its way) before spawn() returns here.
  let profile = null;
  let child = null;
  process.once('SIGTERM', () => {
    if (child) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ } }
    if (profile) fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    process.exit(143);
  });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-chromium-'));
  // Its own process group: the browser's helper processes end with it.
  child = spawn(chromium, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore', detached: true });
  const exited = new Promise((r) => child.once('exit', r));
  let cdp;
  try {
    const port = await waitForPort(profile, child);
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const target = targets.find((t) => t.type === 'page');
    cdp = client(target.webSocketDebuggerUrl);
    await cdp.opened;
    const errors = [];
    let loaded;
    const load = new Promise((r) => { loaded = r; });
    cdp.on((msg) => {
      if (msg.method === 'Runtime.consoleAPICalled' && ['error', 'assert'].includes(msg.params.type)) {
        errors.push(`console.${msg.params.type}: ${msg.params.args.map((a) => a.value ?? a.description).join(' ')}`);
      } else if (msg.method === 'Runtime.exceptionThrown') {
        errors.push(`exception: ${msg.params.exceptionDetails.text}`);
      } else if (msg.method === 'Log.entryAdded' && msg.params.entry.level === 'error') {
        errors.push(`${msg.params.entry.source}: ${msg.params.entry.text} ${msg.params.entry.url || ''}`.trim());
      } else if (msg.method === 'Page.loadEventFired') {
        loaded();
      }
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Log.enable');
    await cdp.send('Page.enable');
    // print: the page as its @media print rules lay it out.
    if (media === 'print') await cdp.send('Emulation.setEmulatedMedia', { media: 'print' });
    if (vw) await cdp.send('Emulation.setDeviceMetricsOverride', { width: vw, height: vh, deviceScaleFactor: 1, mobile: false });
    await cdp.send('Page.navigate', { url: `file://${path.resolve(page)}` });
    let timer;
    const timeout = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error('page did not load in 20 s')), 20000); });
    await Promise.race([load, timeout]).finally(() => clearTimeout(timer));
    // Log entries of a failed load can trail the load event a little.
    await sleep(300);
    const { result } = await cdp.send('Runtime.evaluate', { returnByValue: true, expression: MEASURE });
    const info = JSON.parse(result.value);
    if (!vw) {
      const height = Math.min(info.height, 16000);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1200, height, deviceScaleFactor: 1, mobile: false });
    }
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(shot, Buffer.from(data, 'base64'));
    process.stdout.write(`${JSON.stringify({ errors, ...info })}\n`);
  } finally {
    if (cdp) {
      cdp.send('Browser.close').catch(() => {});
      // unref: a pending timer keeps node alive, so a plain sleep(5000) made
      // every shot last 5 s after the browser had exited in 0.1 s.
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      cdp.close();
    }
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`page-shot: ${e.message}\n`);
  process.exitCode = 1;
});
