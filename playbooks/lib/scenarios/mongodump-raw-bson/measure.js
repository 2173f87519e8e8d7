// mongodump-raw-bson, stage analyze (mongosh --nodb): the timed samples of
// the run into the timing table, the per-method measurements checker.js
// decides from, and the floor notes (model.js does the arithmetic).
(() => {
  const fs = require('fs');
  const path = require('path');
  const model = require(path.resolve(__dirname, 'model.js'));
  const samples = fs.readFileSync(stage.params.samples, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const shapes = JSON.parse(fs.readFileSync(stage.params.shapes, 'utf8'));
  const { rows, measurements, notes } = model.analyze(samples, shapes);

  stage.table('timing', 'Time per method (median of the runs; CPU and memory of the client process only)', model.TIMING_COLUMNS);
  for (const row of rows) stage.row('timing', row);
  stage.table('timing_runs', 'Every timed client process (the runs behind the medians)', ['shape', 'method', 'repeat', 'part', 'wall_s', 'user_s', 'sys_s', 'max_rss_bytes', 'exit']);
  for (const s of samples) {
    stage.row('timing_runs', { shape: s.shape, method: s.method, repeat: s.repeat, part: s.part || '', wall_s: s.wall, user_s: s.user, sys_s: s.sys, max_rss_bytes: s.maxRssBytes, exit: s.exit });
  }
  for (const m of measurements) stage.measure(m.key, m.value, m.unit);
  for (const n of notes) stage.note(n);
  const failed = rows.filter((r) => r.status !== 'ok');
  if (failed.length) {
    stage.note(`**Methods that did not run cleanly:** ${failed.map((r) => `${r.shape} ${r.method} (${r.status})`).join('; ')}. Their errors are in run.log.`);
  }
})();
