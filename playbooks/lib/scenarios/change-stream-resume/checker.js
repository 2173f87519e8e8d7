// change-stream-resume analyze (no connection): the article's claims for one
// version, decided by timeline.js from the arrival times the runs measured and
// the per-cursor figures `playbooks/analyze cursors` read from the mongod log.
(() => {
  const fs = require('fs');
  const path = require('path');
  const state = require(path.resolve(__dirname, 'state.js'));
  const timeline = require(path.resolve(__dirname, 'timeline.js'));
  const { stateFile, cursorsFile } = stage.params;
  const saved = state.read(stateFile);

  // One JSON object per run: {run, ...analyze cursors record} (or {run, missing}).
  const cursors = {};
  if (fs.existsSync(cursorsFile)) {
    for (const line of fs.readFileSync(cursorsFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const c = JSON.parse(line);
      if (!c.missing) cursors[c.run] = c;
    }
  }
  for (const v of timeline.verdicts(saved.runs, cursors)) {
    stage.verdict({ claim: v.claim, expected: v.expected, observed: v.observed, holds: v.holds, reason: v.reason });
  }

  // What explains this version's runs ($match pushdown, the knob's reach, E's wait).
  for (const n of timeline.notes(stage.version)) stage.note(n);
})();
