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

  // 5.1 made the change stream rewrite the user's $match into the oplog scan's
  // filter (jstests/change_streams/oplog_rewrite/*, requires_fcv_51): skipped
  // junk never reaches the $cursor stage's 4 MB batch, which is why C's two
  // events wait for each other there.
  const [major, minor] = String(stage.version || '0.0').split('.').map(Number);
  const pushdown = major > 5 || (major === 5 && minor >= 1);
  stage.note(pushdown
    ? `MongoDB ${stage.version} (5.1 or newer) rewrites the stream's $match on fullDocument into the oplog scan: non-matching entries are dropped before the $cursor stage batches what it read, so that batch (internalDocumentSourceCursorBatchSizeBytes, 4 MB) fills only with matching events and C's two events leave together unless the knob is lowered (D).`
    : `MongoDB ${stage.version} (before 5.1) applies the stream's $match after the $cursor stage: every 6 MB junk entry enters that stage's batch and ends it (one entry is over 4 MB), so C's first event should already leave alone and D has little to improve: compare with a 5.1+ version.`);
})();
