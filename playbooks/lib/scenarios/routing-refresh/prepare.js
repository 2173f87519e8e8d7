// routing-refresh, prepare: balancer off (chunks must stay where they are
// made), every refresh logged (sharding.shardingCatalogRefresh at verbosity 1
// on each mongos and shard member: a refresh that found a new version is at
// the default level on every version, but some that found nothing new are only
// at 1, which ones depending on the release: src/mongo/s/catalog_cache.cpp,
// routing-refresh.md), and whether this version has chunk grouping (SERVER-71627).
(() => {
  load(require('path').resolve(__dirname, 'nodes.js'));
  const nodes = globalThis.routingRefreshNodes;
  const admin = db.getSiblingDB('admin');
  const run = nodes.command;

  const stop = run(admin, { balancerStop: 1 });
  if (!stop.ok) throw new Error(`balancerStop failed: ${stop.errmsg}`);
  stage.log('balancer stopped');

  const targets = String(stage.params.mongos).split(',');
  for (const m of nodes.shardMembers(db)) targets.push(m.host);
  let raised = 0;
  for (const host of targets) {
    const a = nodes.direct(host).getDB('admin');
    const cur = run(a, { getParameter: 1, logComponentVerbosity: 1 });
    const sharding = cur.ok && cur.logComponentVerbosity && cur.logComponentVerbosity.sharding;
    if (!sharding || sharding.shardingCatalogRefresh === undefined) {
      stage.note(`${host}: no sharding.shardingCatalogRefresh log component; refreshes are logged at the default level only.`);
      continue;
    }
    const res = run(a, { setParameter: 1, logComponentVerbosity: { sharding: { shardingCatalogRefresh: { verbosity: 1 } } } });
    if (!res.ok) throw new Error(`${host}: setting the log verbosity failed: ${res.errmsg}`);
    raised += 1;
  }
  stage.log(`sharding.shardingCatalogRefresh verbosity 1 on ${raised} of ${targets.length} node(s)`);
  stage.note(`Balancer stopped; sharding.shardingCatalogRefresh log verbosity 1 on ${raised} of ${targets.length} mongos/shard node(s) (left so: the cluster is thrown away).`);

  const p = run(admin, { getParameter: 1, routingTableCacheChunkBucketSize: 1 });
  if (p.ok && p.routingTableCacheChunkBucketSize !== undefined) {
    stage.measure('chunkGrouping', 1);
    stage.measure('routingTableCacheChunkBucketSize', p.routingTableCacheChunkBucketSize);
    stage.note(`Chunk grouping present: routingTableCacheChunkBucketSize = ${p.routingTableCacheChunkBucketSize} on mongos.`);
  } else {
    stage.measure('chunkGrouping', 0);
    stage.note('No chunk grouping: this mongos does not know routingTableCacheChunkBucketSize (SERVER-71627 is not in this version).');
  }
})();
