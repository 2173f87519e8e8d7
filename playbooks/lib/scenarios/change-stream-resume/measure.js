// change-stream-resume analyze: the per-run server figures (the run's mongod
// log lines through `playbooks/analyze cursors --json`, one file per run),
// changeStreamResumeCheck on every saved token (is it still in the oplog
// window, how much oplog a resume from it reads), and what explains this
// version's runs. Measurements and tables only: checker.js decides.
(() => {
  const fs = require('fs');
  const path = require('path');
  const state = require(path.resolve(__dirname, 'state.js'));
  const model = require(path.resolve(__dirname, 'model.js'));
  const { stateFile, cursorsPrefix, runs } = stage.params;

  for (const run of String(runs).split(',')) {
    const file = `${cursorsPrefix}${run}.jsonl`;
    const records = fs.existsSync(file)
      ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
      : [];
    const figures = model.sumCursors(run, records);
    if (figures.missing) {
      stage.note(`Run ${run} (${stage.version}) left no change stream cursor line in the mongod log: its server figures are missing.`);
      continue;
    }
    stage.row('server', model.SERVER_COLUMNS.map((c) => figures[c]));
    stage.measure(`run${run}.docsExamined`, figures.docsExamined, 'docs');
    stage.measure(`run${run}.bytesRead`, figures.bytesRead, 'bytes');
  }

  const saved = state.read(stateFile);
  const names = {
    first: 'first event (runs A, B)',
    marker200: '"200 6MB documents added" (runs C, D)',
    pbrtA: "A's postBatchResumeToken (run E)",
  };
  for (const [key, label] of Object.entries(names)) {
    if (!saved.tokens[key]) continue;
    const token = EJSON.deserialize(saved.tokens[key]);
    const r = changeStreamResumeCheck(token);
    const scan = r.scan || {};
    // Without an ns the check's stream is the token's collection, when the
    // token names one (an event token): what the scan lets through for it.
    const onCollection = decodeResumeToken(token).uuid && scan.namespace ? scan.namespace.entries : undefined;
    stage.row('tokens', {
      token: label,
      tokenType: r.tokenType === 0 ? 'high-water mark' : (r.tokenType === 128 ? 'event' : String(r.tokenType)),
      position: r.position,
      resumable: r.resumable,
      oplogEntries: scan.entries,
      oplogBytes: scan.bytes,
      sameCollection: onCollection,
      complete: scan.complete,
      advice: r.advice || '',
    });
    stage.measure(`token.${key}.oplogEntries`, scan.entries, 'entries');
    stage.measure(`token.${key}.oplogBytes`, scan.bytes, 'bytes');
  }

  // What explains this version's runs ($match pushdown, the knob's reach, E's wait).
  for (const n of model.notes(stage.version)) stage.note(n);
})();
