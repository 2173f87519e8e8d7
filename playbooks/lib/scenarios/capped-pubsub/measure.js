// capped-pubsub, stage analyze (mongosh --nodb): the result files of one
// version's sweep (run.js) as the report's tables and notes; checker.js
// decides the claims from these tables.
(() => {
  const fs = require('fs');
  const path = require('path');
  const model = require(path.resolve(__dirname, 'model.js'));
  const { dir, article } = stage.params;
  const declare = stage.params.declare === 1;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  const all = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  const order = (a, b) => (a.mode === b.mode ? a.subscribers - b.subscribers : a.mode === 'capped' ? -1 : 1);
  const points = all.filter((r) => r.supported).sort(order);
  const unsupported = all.filter((r) => !r.supported);
  if (!points.length) throw new Error(`measure.js: no results in ${dir}`);

  if (declare) {
    stage.table('publish-latency', 'Publish latency per sweep point (insert round trip, ms)', Object.keys(model.pointRows(points[0]).publish));
    stage.table('delivery', 'End-to-end delivery per sweep point (publish to subscriber, ms)', Object.keys(model.pointRows(points[0]).delivery));
    stage.table('cpu', 'Server CPU per sweep point', Object.keys(model.pointRows(points[0]).cpu));
    const ref = JSON.parse(fs.readFileSync(article, 'utf8'));
    stage.table('article', `The article's tables (${ref.source})`, ['engine', 'scenario', 'runtime_s', 'mean_ms', 'stddev_ms', 'p75_ms', 'p95_ms', 'p99_ms', 'min_ms', 'max_ms'],
      { source: 'article', setup: ref.source });
    ref.tables.forEach((t) => stage.row('article', [t.engine, t.scenario, t.runtime_s, t.mean, t.stddev, t.p75, t.p95, t.p99, t.min, t.max]));
    points.forEach((r) => stage.table(`publish-${r.mode}-${r.subscribers}`, `publish_to_topics, ${r.mode}, ${r.subscribers} subscriber(s) (the article's layout)`, ['statistic', 'value']));
  }
  points.forEach((r) => {
    const rows = model.pointRows(r);
    stage.row('publish-latency', rows.publish);
    stage.row('delivery', rows.delivery);
    stage.row('cpu', rows.cpu);
    model.articleRows(r.publish, r.publishSeconds).forEach(([k, v]) => stage.row(`publish-${r.mode}-${r.subscribers}`, [k, v]));
    if (r.reopens) stage.note(`${r.mode}, ${r.subscribers} subscriber(s): cursors reopened ${r.reopens} time(s) (${Object.entries(r.reopenReasons).map(([k, v]) => `${k} ${v}`).join(', ')}); ${r.gaps} gap(s) of ${r.gapMessages} message(s), ${r.outOfOrder} out-of-order, ${r.overlap} re-read on reopen.`);
  });

  const claimPoint = (r) => ({ subscribers: r.subscribers, cpuMsPerMsg: model.pointRows(r).cpu.cpu_ms_per_msg });
  const capped = points.filter((r) => r.mode === 'capped');
  if (capped.length) stage.measure('cpu.source', capped[0].cpu.source);
  const idle = capped.map((r) => [r.subscribers, model.pointRows(r).cpu.idle_cpu_pct]).filter(([, v]) => v !== null);
  if (idle.length) {
    stage.note(`Listening alone (every subscriber waiting in getMore, nothing published): server CPU ${idle.map(([n, v]) => `${v}% at ${n}`).join(', ')} subscriber(s).`);
  }

  const streams = points.filter((r) => r.mode === 'changestream');
  if (streams.length) {
    const cs = model.cpuGrowth(streams.map(claimPoint));
    const top = Math.max(...streams.map((r) => r.subscribers));
    const a = model.pointRows(capped.find((r) => r.subscribers === top) || capped[capped.length - 1]);
    const b = model.pointRows(streams.find((r) => r.subscribers === top));
    stage.note(`Change streams instead of tailable cursors (beyond the article), at ${top} subscriber(s): server CPU ${b.cpu.cpu_ms_per_msg} ms per message vs ${a.cpu.cpu_ms_per_msg} (capped), delivery p99 ${b.delivery.p99_ms} ms vs ${a.delivery.p99_ms} ms; change stream CPU against subscribers: ${cs.fit ? cs.description : cs.reason}.`);
  }
  [...new Set(unsupported.map((r) => `The ${r.mode} fan-out did not run: ${r.error}`))].forEach((t) => stage.note(t));
})();
