// routing-refresh, stage analyze (mongosh --nodb): joins the refresh events
// that playbooks/analyze read from the mongos and shard logs with the phases
// run.js recorded, then writes this version's durations (checker.js decides
// the claims from them) and the fitted lines. params.events:
// "role:port:file;..." (JSON lines files).
(() => {
  const fs = require('fs');
  const path = require('path');
  const model = require(path.resolve(__dirname, 'model.js'));
  const cfg = globalThis.dbaLabStage;
  const version = stage.version;

  const records = fs.readFileSync(cfg.records, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const phases = records
    .filter((r) => r.type === 'row' && r.table === 'phases' && r.version === version && r.row)
    .map((r) => ({ ...r.row, startMs: Date.parse(r.row.start), endMs: Date.parse(r.row.end) }));

  const events = [];
  for (const spec of String(stage.params.events || '').split(';').filter(Boolean)) {
    const [role, port, ...file] = spec.split(':');
    for (const line of fs.readFileSync(file.join(':'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line);
      if (e.record === 'refresh') events.push({ ...e, role, port: Number(port) });
    }
  }
  stage.log(`${events.length} refresh line(s) in the logs, ${phases.length} phase(s) to match`);
  if (phases.length === 0) {
    stage.note('No refresh phase was recorded for this version (the run stage did not get that far).');
    return;
  }

  const attributed = model.attribute(phases, events);
  const unmatched = attributed.filter((p) => p.events === 0).length;
  if (unmatched) {
    stage.note(`${unmatched} of ${attributed.length} refresh phase(s) had no refresh line of their namespace in the logs inside their time window; they count in the first-query latency only.`);
  }
  const summary = model.summarize(attributed);
  stage.table('durations', 'Refresh duration by chunk count: server durationMillis (median and max over the repetitions) and the client first-query latency (median)',
    ['series', 'chunks', 'node', 'kind', 'medianMs', 'maxMs', 'firstQueryMs', 'refreshesLogged', 'reps']);
  for (const r of summary) {
    stage.row('durations', { series: `${version} ${r.node} ${r.kind}`, ...r });
  }

  stage.table('fits', 'Fitted duration vs chunk count (least squares over the medians)',
    ['node', 'kind', 'slopeMsPer10k', 'interceptMs', 'r2', 'changeMs', 'points']);
  for (const f of model.fits(summary)) stage.row('fits', f);
})();
