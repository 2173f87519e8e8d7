// change-stream-resume analyze: changeStreamResumeCheck on every saved token:
// is it still in the oplog window, and how much oplog a resume from it reads.
(() => {
  const path = require('path');
  const state = require(path.resolve(__dirname, 'state.js'));
  const { stateFile } = stage.params;
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
    stage.row('tokens', {
      token: label,
      tokenType: r.tokenType === 0 ? 'high-water mark' : (r.tokenType === 128 ? 'event' : String(r.tokenType)),
      position: r.position,
      resumable: r.resumable,
      oplogEntries: scan.entries,
      oplogBytes: scan.bytes,
      sameCollection: scan.sameCollection,
      complete: scan.complete,
      advice: r.advice || '',
    });
    stage.measure(`token.${key}.oplogEntries`, scan.entries, 'entries');
    stage.measure(`token.${key}.oplogBytes`, scan.bytes, 'bytes');
  }
})();
