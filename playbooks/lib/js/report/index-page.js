'use strict';
// reports/index.html: every report under a folder (reports/<playbook>/<stamp>/),
// newest first, with its versions, status and verdicts.

const fs = require('fs');
const path = require('path');
const m = require('./model');
const { esc, verdictCounts, page } = require('./html');

// Report folders: those holding results.json, at most three levels down.
function findReports(root, depth = 3) {
  const found = [];
  const walk = (dir, level) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && e.name === 'results.json')) found.push(dir);
    if (level >= depth) return;
    for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name), level + 1);
  };
  walk(root, 0);
  return found;
}

// The server versions of the run; without a server (modelled figures), the
// versions its verdicts name.
function versionsOf(r) {
  const vs = ((r.environment || {}).versions || []).map((v) => m.versionLabel(r, v.server || v.resolved || v.requested)).filter(Boolean);
  if (vs.length) return vs.join(', ');
  const named = [...new Set((r.verdicts || []).map((v) => v.version).filter(Boolean))];
  return named.length ? `${named.join(', ')} (no server)` : 'not recorded';
}

function entries(root) {
  const list = [];
  for (const dir of findReports(root)) {
    let r;
    try {
      r = m.readResults(dir);
    } catch (e) {
      list.push({ dir, error: e.message, started: '' });
      continue;
    }
    list.push({ dir, results: r, started: r.started || '' });
  }
  return list.sort((a, b) => (b.started.localeCompare(a.started)) || a.dir.localeCompare(b.dir));
}

function renderIndex(root) {
  const rows = entries(root).map((e) => {
    const rel = path.relative(root, e.dir).split(path.sep).join('/');
    if (e.error) return `<tr><td colspan="6">${esc(rel)}: ${esc(e.error)}</td></tr>`;
    const r = e.results;
    const link = m.exists(e.dir, 'report.html') ? `<a href="${esc(rel)}/report.html">${esc(r.title || r.playbook)}</a>` : esc(r.title || r.playbook);
    const verdicts = verdictCounts(r);
    return `<tr><td><code>${esc(r.playbook)}</code></td><td>${link}</td><td>${esc(versionsOf(r))}</td><td class="when">${esc(r.started)}</td><td>${esc(r.status)}</td><td>${verdicts}</td></tr>`;
  });
  const body = `<h1>Reports</h1>
<p class="muted">Every run under this folder, newest first. Written after each run; <code>playbooks/report --index FOLDER</code> rewrites it.</p>
<div class="scroll"><table class="index"><thead><tr><th>playbook</th><th>report</th><th>server version</th><th>started (UTC)</th><th>status</th><th>verdicts</th></tr></thead>
<tbody>
${rows.join('\n') || '<tr><td colspan="6">No report yet.</td></tr>'}
</tbody></table></div>`;
  return page('Reports', body);
}

function writeIndex(root) {
  const file = path.join(root, 'index.html');
  fs.writeFileSync(`${file}.tmp`, renderIndex(root));
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

module.exports = { findReports, renderIndex, writeIndex };
