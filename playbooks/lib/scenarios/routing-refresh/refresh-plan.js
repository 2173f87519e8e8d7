'use strict';
// routing-refresh: the commands that make each node refresh a collection's
// routing table from scratch ("full refresh"). run.js sends them; the playbook
// prints them in the plan (--dry-run). Plain CommonJS, no shell globals.
//
// Why a shard needs more than flushRouterConfig (mongodb/mongo, read on 4.4
// to 8.0 and master):
// - flushRouterConfig {ns} (src/mongo/s/commands/flush_router_config_cmd.cpp,
//   FlushRouterConfigCmd::run) only drops the node's cached routing table:
//   catalogCache->purgeCollection(nss) up to 4.2,
//   invalidateCollectionEntry_LINEARIZABLE(nss) from 4.4. On a mongos the next
//   query reloads it. A shard keeps its filtering metadata (what it owns, in
//   CollectionShardingRuntime), and the next request from mongos carries the
//   shard version that metadata already has, so the shard never looks at its
//   routing cache again and nothing is refreshed or logged.
// - _flushRoutingTableCacheUpdates {ns, syncFromConfig: true}
//   (src/mongo/db/s/flush_routing_table_cache_updates_command.cpp, the
//   getSyncFromConfig() branch of typedRun: onShardVersionMismatch(opCtx, ns,
//   boost::none) on 4.4-7.x, FilteringMetadataCache::onShardVersionMismatch on
//   master; forceShardFilteringMetadataRefresh on 4.0/4.2) refreshes the
//   filtering metadata unconditionally: with no received version there is no
//   "already up to date" shortcut, and forceGetCurrentMetadata
//   (src/mongo/db/s/shard_filtering_metadata_refresh.cpp) asks the catalog
//   cache for the routing table *with refresh*
//   (getCollectionRoutingInfoWithRefresh, ...WithPlacementRefresh on 7.x).
//   After the flushRouterConfig above ("would cause full reload from the
//   config server on the next access", its help text) that refresh rebuilds
//   the table and logs "Refreshed cached collection" (src/mongo/s/
//   catalog_cache.cpp, id 4619901; 24104 on early 4.4): at level 0 when it
//   was full or found a new version, else at 1, which prepare.js turns on
//   anyway. It is an internal command (the internal action on the cluster
//   resource: fine on the lab's cluster, which runs without auth) that runs
//   on a shard's primary only (AllowedOnSecondary::kNever).
// Lines pinned to commits (line numbers move between versions; the function
// names above find the same code in each release):
//   flush_router_config_cmd.cpp @ 02fe612fd81a (7.0 era): help text lines
//     62-64, invalidateCollectionEntry_LINEARIZABLE(nss) line 112;
//   flush_routing_table_cache_updates_command.cpp @ 052bc57ebd47 (4.2 era):
//     if (request().getSyncFromConfig()) at line 133, the forced refresh 135.
// On master, once the FCV makes shards authoritative for their metadata (after
// 8.x), the command is refused (MetadataRefreshCanceledDueToFCVTransition):
// run.js then reports the shard's full refresh as not measurable, with the
// server's reason.

// fullRefresh(ns): the steps, in order; `on` is every mongos or every shard's
// primary. The first query through mongos follows them.
function fullRefresh(ns) {
  return [
    { on: 'mongos', command: { flushRouterConfig: ns }, why: 'drops the cached table: the next query reloads it whole' },
    { on: 'shard', command: { flushRouterConfig: ns }, why: "drops the shard's cached table" },
    { on: 'shard', command: { _flushRoutingTableCacheUpdates: ns, syncFromConfig: true }, why: 'makes the shard reload it and its filtering metadata now' },
  ];
}

// describe(ns): the plan's lines.
function describe(ns) {
  return fullRefresh(ns).map((s) => `on each ${s.on === 'mongos' ? 'mongos' : "shard's primary"}: db.adminCommand(${JSON.stringify(s.command)}) (${s.why})`);
}

module.exports = { fullRefresh, describe };
