// routing-refresh, run: for each chunk count of the sweep, make the chunks
// (method chosen per version by the playbook), then time refreshes:
// incremental (split or move one chunk, then the first query through mongos)
// and full (refresh-plan.js: every mongos and shard primary drops its table,
// the shards are made to reload theirs, then the first query).
// Each repetition is recorded as a row of table "phases" (start, end, first
// query latency) that the analyze stage matches with the refresh log lines.
//
// params: counts "1000,10000", methods "1000:hashed 10000:reshard",
//         reps, presetMax, testCommands, mongos "localhost:27100,..."
(() => {
  const path = require('path');
  load(path.resolve(__dirname, 'nodes.js'));
  const nodes = globalThis.routingRefreshNodes;
  const plan = require(path.resolve(__dirname, 'chunk-plan.js'));
  const refreshPlan = require(path.resolve(__dirname, 'refresh-plan.js'));
  const { reps, presetMax } = stage.params;
  const counts = String(stage.params.counts).split(',').map(Number);
  const methods = Object.fromEntries(String(stage.params.methods).split(' ').map((w) => w.split(':')));
  const admin = db.getSiblingDB('admin');
  const run = nodes.command;
  const config = db.getSiblingDB('config');
  const dbName = stage.dbName;
  // Plain loops, not map(): a callback that talks to a server is not awaited there.
  const shardIds = [];
  const shardConns = [];
  for (const s of nodes.shards(db)) {
    shardIds.push(s.id);
    shardConns.push(nodes.connect(s.uri));
  }
  const mongosConns = [];
  for (const h of String(stage.params.mongos).split(',')) mongosConns.push(nodes.direct(h));
  let probes = 0; // probe split points are never reused, across counts too

  const ok = (res, what) => {
    if (!res || !res.ok) throw new Error(`${what} failed: ${res ? `${res.codeName || ''} ${res.errmsg || JSON.stringify(res)}` : 'no reply'}`);
    return res;
  };

  const en = run(admin, { enableSharding: dbName });
  if (!en.ok && en.codeName !== 'AlreadyInitialized') ok(en, `enableSharding ${dbName}`);

  // Chunks of a namespace: by uuid (5.0+) or ns, as its config.collections
  // entry says; never a probe of config.chunks by ns, which reads all of it on 5.0+.
  const chunkFilter = (ns) => plan.chunkFilter(ns, config.getCollection('collections').findOne({ _id: ns }));
  const chunkCount = (ns) => config.getCollection('chunks').countDocuments(chunkFilter(ns));
  const perShard = (ns) => config.getCollection('chunks').aggregate([{ $match: chunkFilter(ns) }, { $group: { _id: '$shard', n: { $sum: 1 } } }]).toArray()
    .map((x) => `${x._id} ${x.n}`).join(', ');

  // Splits at every point of plan.grid(target) that is not a boundary yet.
  const splitTo = (ns, target, boundaries, label) => {
    const points = plan.grid(target).filter((p) => !boundaries.has(p));
    const t0 = stage.now();
    let done = 0;
    for (const p of points) {
      ok(run(admin, { split: ns, middle: { k: p } }), `split ${ns} at k=${p}`);
      boundaries.add(p);
      done += 1;
      if (done % 100 === 0 || done === points.length) {
        const rate = done / ((stage.now() - t0) / 1000);
        stage.progress(`${label}: splits (${rate.toFixed(0)}/s, about ${Math.round((points.length - done) / rate)} s left)`, done, points.length);
      }
    }
    return points.length;
  };

  // The range-key collection the split method grows from one count to the next.
  let splitColl = null;
  const splitCollection = () => {
    if (splitColl) return splitColl;
    const ns = `${dbName}.split_range`;
    ok(run(admin, { shardCollection: ns, key: { k: 1 } }), `shardCollection ${ns}`);
    // One range per shard, each on its shard, so that later splits spread.
    const starts = plan.shardStarts(shardIds.length);
    for (let i = 1; i < starts.length; i++) ok(run(admin, { split: ns, middle: { k: starts[i] } }), `split ${ns}`);
    const filter = chunkFilter(ns);
    for (let i = 0; i < starts.length; i++) {
      const min = i === 0 ? new MinKey() : starts[i];
      const chunk = config.getCollection('chunks').findOne({ ...filter, min: { k: min } });
      if (!chunk) throw new Error(`${ns}: no chunk starts at k=${i === 0 ? 'MinKey' : min}`);
      if (chunk.shard !== shardIds[i]) ok(run(admin, { moveChunk: ns, find: { k: starts[i] }, to: shardIds[i] }), `moveChunk ${ns} to ${shardIds[i]}`);
    }
    splitColl = { ns, key: 'range', boundaries: new Set(starts.slice(1)) };
    return splitColl;
  };

  const create = (count, method) => {
    const label = `${count} chunks (${method})`;
    if (method === 'split') {
      const c = splitCollection();
      splitTo(c.ns, count, c.boundaries, label);
      return { ...c, fresh: false };
    }
    const ns = `${dbName}.chunks_${count}`;
    if (method === 'hashed') {
      ok(run(admin, { shardCollection: ns, key: { k: 'hashed' }, numInitialChunks: count }), `shardCollection ${ns} numInitialChunks ${count}`);
      return { ns, key: 'hashed', fresh: true };
    }
    // reshard / reshard+split: sharded on _id first, then resharded on k with
    // the chunks given (test-only _presetReshardedChunks, enableTestCommands).
    ok(run(admin, { shardCollection: ns, key: { _id: 1 } }), `shardCollection ${ns}`);
    const preset = Math.min(count, presetMax);
    stage.log(`${label}: reshardCollection with ${preset} preset chunks`);
    ok(run(admin, { reshardCollection: ns, key: { k: 1 }, _presetReshardedChunks: plan.presetChunks(preset, shardIds, { minKey: new MinKey(), maxKey: new MaxKey() }) }), `reshardCollection ${ns}`);
    const boundaries = new Set(plan.grid(preset));
    if (count > preset) splitTo(ns, count, boundaries, label);
    return { ns, key: 'range', boundaries, fresh: true };
  };

  // One repetition: the step that makes the routing tables stale, then the
  // first query through mongos (timed by the client).
  const phase = (coll, chunks, kind, rep, step) => {
    const start = new Date();
    const t0 = stage.now();
    const probe = step();
    const tq = stage.now();
    db.getSiblingDB(dbName).getCollection(coll.ns.slice(dbName.length + 1)).find({ k: probe }).toArray();
    const t1 = stage.now();
    const end = new Date();
    stage.row('phases', {
      chunks, kind, rep, ns: coll.ns, start: start.toISOString(), end: end.toISOString(),
      opMs: Math.round((tq - t0) * 10) / 10, firstQueryMs: Math.round((t1 - tq) * 10) / 10,
    });
    sleep(300); // keeps the next phase's log lines apart from this one's
    return t1 - tq;
  };

  const incrementalStep = (coll, rep) => {
    if (coll.key === 'range') {
      // A new split point inside a chunk in the middle of the key range.
      const p = plan.probePoint(probes++);
      ok(run(admin, { split: coll.ns, middle: { k: p } }), `split ${coll.ns} at k=${p}`);
      coll.boundaries.add(p);
      return p;
    }
    // Hashed: move one chunk (bounds of an existing chunk) to another shard.
    const c = config.getCollection('chunks').find(chunkFilter(coll.ns)).sort({ min: 1 }).skip(rep).limit(1).toArray()[0];
    const to = shardIds[(shardIds.indexOf(c.shard) + 1) % shardIds.length];
    ok(run(admin, { moveChunk: coll.ns, bounds: [c.min, c.max], to }), `moveChunk ${coll.ns} to ${to}`);
    return rep;
  };

  // Full refresh: refresh-plan.js says which commands and why (a shard
  // refreshes only when told to by _flushRoutingTableCacheUpdates). A shard
  // that refuses them makes its full-refresh series not measurable here; the
  // reason is recorded once and the mongos part goes on.
  let shardFullRefusal = null;
  const fullStep = (coll, rep) => {
    for (const step of refreshPlan.fullRefresh(coll.ns)) {
      if (step.on === 'mongos') {
        for (const m of mongosConns) ok(run(m.getDB('admin'), step.command), `${Object.keys(step.command)[0]} on mongos`);
        continue;
      }
      if (shardFullRefusal) continue;
      for (const s of shardConns) {
        const res = run(s.getDB('admin'), step.command);
        if (!res.ok) {
          shardFullRefusal = `${JSON.stringify(step.command)} on a shard: ${res.codeName || ''} ${res.errmsg || ''}`.trim();
          stage.measure('shardFullRefreshMeasurable', 0);
          stage.note(`The shards' full refresh is not measurable on this version: they refused ${shardFullRefusal}. Full refreshes are of mongos only.`);
          break;
        }
      }
    }
    return coll.key === 'range' ? plan.probePoint(-1) : rep;
  };

  stage.table('creation', 'Chunk creation per count', ['chunks', 'target', 'method', 'seconds', 'chunksPerSecond', 'perShard', 'configChunksMB']);
  stage.table('phases', 'Refresh phases (one row per repetition; the analyze stage matches log lines to them)',
    ['chunks', 'kind', 'rep', 'ns', 'start', 'end', 'opMs', 'firstQueryMs']);

  for (const target of counts) {
    const method = methods[target];
    if (!method) throw new Error(`no method planned for ${target} chunks`);
    const before = method === 'split' && splitColl ? chunkCount(splitColl.ns) : 0;
    const t0 = stage.now();
    const coll = create(target, method);
    const seconds = (stage.now() - t0) / 1000;
    const chunks = chunkCount(coll.ns);
    const cstats = run(config, { collStats: 'chunks' });
    const rate = (chunks - before) / Math.max(seconds, 0.001);
    stage.row('creation', {
      chunks, target, method, seconds: Math.round(seconds * 10) / 10, chunksPerSecond: Math.round(rate),
      perShard: perShard(coll.ns), configChunksMB: cstats.ok ? Math.round(((cstats.size + cstats.totalIndexSize) / 1048576) * 10) / 10 : null,
    });
    stage.log(`${chunks} chunks in ${seconds.toFixed(1)} s (${Math.round(rate)} chunks/s) by ${method}: ${perShard(coll.ns)}`);

    for (let rep = 0; rep < reps; rep++) {
      const ms = phase(coll, chunks, 'incremental', rep, () => incrementalStep(coll, rep));
      stage.log(`${chunks} chunks, incremental #${rep + 1}: first query ${ms.toFixed(1)} ms`);
    }
    for (let rep = 0; rep < reps; rep++) {
      const ms = phase(coll, chunks, 'full', rep, () => fullStep(coll, rep));
      stage.log(`${chunks} chunks, full #${rep + 1}: first query ${ms.toFixed(1)} ms`);
    }
    // Each fresh collection goes once measured: its chunks would count on disk.
    if (coll.fresh) db.getSiblingDB(dbName).getCollection(coll.ns.slice(dbName.length + 1)).drop();
  }
})();
