// analyze (mongosh --nodb): the timed samples of the run into the timing
// table, per-method measurements, the floor notes and the verdicts
// (analysis.js does the arithmetic; this file only reports it).
(() => {
  const fs = require('fs');
  const path = require('path');
  const analysis = require(path.resolve(stage.params.lib, 'model.js'));
  const samples = fs.readFileSync(stage.params.samples, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const shapes = JSON.parse(fs.readFileSync(stage.params.shapes, 'utf8'));
  const { figures, rows, verdicts, notes } = analysis.analyze(samples, shapes);

  stage.table('timing', 'Time per method (median of the runs; CPU and memory of the client process only)', analysis.TIMING_COLUMNS);
  for (const row of rows) stage.row('timing', row);
  stage.table('timing_runs', 'Every timed client process (the runs behind the medians)', ['shape', 'method', 'repeat', 'part', 'wall_s', 'user_s', 'sys_s', 'max_rss_bytes', 'exit']);
  for (const s of samples) {
    stage.row('timing_runs', { shape: s.shape, method: s.method, repeat: s.repeat, part: s.part || '', wall_s: s.wall, user_s: s.user, sys_s: s.sys, max_rss_bytes: s.maxRssBytes, exit: s.exit });
  }
  for (const f of figures) {
    if (!f.runs) continue;
    stage.measure(`${f.shape}.${f.method}.wallSeconds`, f.wall, 's');
    stage.measure(`${f.shape}.${f.method}.cpuSeconds`, f.user + f.sys, 's');
  }
  for (const n of notes) stage.note(n);
  for (const v of verdicts) stage.verdict(v);
  const failed = rows.filter((r) => r.status !== 'ok');
  if (failed.length) {
    stage.note(`**Methods that did not run cleanly:** ${failed.map((r) => `${r.shape} ${r.method} (${r.status})`).join('; ')}. Their errors are in run.log.`);
  }
})();
