// change-stream-resume: one run (A to E). Resumes the stream after a saved
// token from this fresh connection and records when each event arrives, in
// seconds since the stream was opened, the way the change-stream-resume article's Node script printed
// them. mongosh's watch() with resumeAfter sends nothing until the first
// tryNext(); the driver answers tryNext() from the batch it holds, and only
// asks the server (aggregate, then getMore) when that batch is empty, so
// events of one batch arrive together, as with the Node driver's 'change' events.
(() => {
  const path = require('path');
  const state = require(path.resolve(__dirname, 'state.js'));
  const model = require(path.resolve(__dirname, 'model.js'));
  const { run, coll: collName, from, batchSize, expect, stateFile, filter, timeout } = stage.params;

  const saved = state.read(stateFile);
  const token = saved.tokens[from] ? EJSON.deserialize(saved.tokens[from]) : null;
  if (!token) throw new Error(`run ${run}: no saved token '${from}' (its run did not finish)`);
  const coll = stage.db.getCollection(collName);
  const pipeline = [{ $match: JSON.parse(filter) }, { $project: { fullDocument: 1 } }];
  const options = { resumeAfter: token };
  if (batchSize > 0) options.batchSize = batchSize;

  const events = [];
  const t0 = stage.now();
  const cs = coll.watch(pipeline, options);
  let answered = null;
  let lastArrival = t0;
  do {
    const ev = cs.tryNext();
    const t = stage.now();
    if (answered === null) answered = (t - t0) / 1000;
    if (ev) {
      events.push({ seconds: (t - t0) / 1000, msg: ev.fullDocument ? ev.fullDocument.msg : '', token: ev._id });
      lastArrival = t;
      stage.log(`${run} ${((t - t0) / 1000).toFixed(3)} s  ${events[events.length - 1].msg}`);
    } else if (t - lastArrival > timeout * 1000) {
      throw new Error(`run ${run}: ${events.length} of ${expect} events after ${timeout} s without a new one (raise --run-timeout on slow disks)`);
    }
  } while (events.length < expect);
  // After the last event of a batch the driver's resume token is that batch's
  // postBatchResumeToken (a high-water mark when the scan reached the end).
  const after = cs.getResumeToken();
  cs.close();

  const afterDecoded = after ? decodeResumeToken(after) : { tokenType: null };
  stage.measure(`run${run}.events`, events.length, 'events');
  stage.measure(`run${run}.firstAnswerSeconds`, answered, 's');
  if (events.length) {
    stage.measure(`run${run}.firstEventSeconds`, events[0].seconds, 's');
    stage.measure(`run${run}.lastEventSeconds`, events[events.length - 1].seconds, 's');
  }
  // tokenType 0: a high-water mark (the scan's position), 128: an event's token.
  if (after) stage.measure(`run${run}.tokenAfterRun.tokenType`, afterDecoded.tokenType, '');
  for (const row of model.timelineRows(run, { events })) {
    stage.row('timeline', { series: `${stage.version} ${run}`, ...row });
  }

  state.update(stateFile, (s) => {
    s.runs[run] = { from, batchSize, answeredSeconds: answered, events: events.map(({ seconds, msg }) => ({ seconds, msg })) };
    // C resumes after this marker's event; E after A's postBatchResumeToken.
    const marker = events.find((e) => e.msg === '200 6MB documents added');
    if (marker && !s.tokens.marker200) s.tokens.marker200 = EJSON.serialize(marker.token);
    if (run === 'A' && after) {
      s.tokens.pbrtA = EJSON.serialize(after);
      s.tokens.pbrtAType = afterDecoded.tokenType;
    }
  });
})();
