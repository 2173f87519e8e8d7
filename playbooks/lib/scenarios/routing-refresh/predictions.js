'use strict';
// routing-refresh: what each release series is predicted to do with the
// article's claims (MongoDB 4.2 and 5.0 in the article). Chunk grouping
// (SERVER-71627) arrived in patch releases, so a series can change inside
// itself. Read by checker.js, the lab guide's "What changes per version" and
// docs/predictions.md (playbooks/lib/js/predictions.js).
const { table } = require('../../js/predictions.js');

// SERVER-71627's first release per series, read in MongoDB's release changelogs
// (mongodb/docs source/includes/changelogs/releases/X.Y.Z.rst); 5.0.21 is the
// one release between two read changelogs that lack it, its own not stored.
const GROUPING = {
  ref: 'SERVER-71627: the routing table cache groups chunks in buckets (routingTableCacheChunkBucketSize, 500); in the 4.4.25, 6.0.10 and 7.0.1 changelogs',
  url: 'https://jira.mongodb.org/browse/SERVER-71627',
  checked: true,
};
const GROUPING_50 = { ...GROUPING, ref: 'SERVER-71627 in 5.0.21: absent from the 5.0.20 and 5.0.22 changelogs, 5.0.21\'s not read', checked: false };
const FULL = {
  ref: 'src/mongo/s/catalog_cache.cpp: a full refresh reads every chunk of the collection from the config server',
  url: 'https://github.com/mongodb/mongo/blob/00361bb6f7a801ac264e751e401c669cf3b6b222/src/mongo/s/catalog_cache.cpp',
  checked: true,
};

// The first patch release of each series with chunk grouping (SERVER-71627's Fix Versions).
const GROUPED_FROM = ['4.4.25', '5.0.21', '6.0.10', '7.0.1'];
const sourceFrom = (from) => (from.startsWith('5.0.') ? GROUPING_50 : GROUPING);
const WALKS = 'without chunk grouping an incremental refresh copies and walks the whole in-memory routing table, so it costs more as the chunks grow';
const BUCKETS = 'with chunk grouping an incremental refresh touches only the buckets that changed, whatever the chunk count';

// BEFORE up to each series' first grouped release, AFTER from it; 8.0 has it from its start.
const acrossGrouping = (before, after) => ({
  spans: [
    { from: '4.4', ...before, source: GROUPING },
    ...GROUPED_FROM.flatMap((from, i) => [
      { from, ...after, source: sourceFrom(from) },
      ...(i + 1 < GROUPED_FROM.length ? [{ from: `${GROUPED_FROM[i + 1].split('.').slice(0, 2).join('.')}.0`, ...before, source: sourceFrom(GROUPED_FROM[i + 1]) }] : []),
    ]),
  ],
});

module.exports = table({
  scenario: 'routing-refresh',
  claims: {
    linear: {
      spans: [{ from: '4.4', holds: true, reason: 'a full refresh loads every chunk of the collection, so its time grows with the chunk count on every release', source: FULL }],
    },
    'near-constant': acrossGrouping({ holds: false, reason: WALKS }, { holds: true, reason: BUCKETS }),
  },
  facts: {
    'linear:incremental': acrossGrouping({ holds: true, reason: WALKS }, { holds: false, reason: BUCKETS }),
  },
  notes: [
    { from: '4.2', text: 'the refresh is logged as legacy text: Refresh for collection NS from version A to version B took N ms', source: FULL },
    { from: '4.4', text: 'JSON logs: a refresh is id 24104 (SH_REFR) with durationMillis; from 5.0 id 4619901 "Refreshed cached collection"', source: FULL },
    { from: '5.0', text: 'config.chunks is keyed by the collection\'s uuid, and reshardCollection exists (the fast way to make chunks)', source: { ref: 'SERVER-53105', url: 'https://jira.mongodb.org/browse/SERVER-53105', checked: true } },
    { from: '4.4.25', text: 'a follow-on bug of chunk grouping, SERVER-81966, in the first grouped releases: fixed in 5.0.22, 6.0.12 and 7.0.3 (4.4: after 4.4.25)', source: { ref: 'SERVER-81966, in the 5.0.22, 6.0.12 and 7.0.3 changelogs', url: 'https://jira.mongodb.org/browse/SERVER-81966', checked: true } },
    { from: '7.0', text: 'an incremental refresh that finds nothing new is logged at level 1 (5.0/6.0 log every incremental refresh at level 0): the playbook raises shardingCatalogRefresh to 1', source: { ref: 'src/mongo/s/catalog_cache.cpp', url: 'https://github.com/mongodb/mongo/blob/00361bb6f7a801ac264e751e401c669cf3b6b222/src/mongo/s/catalog_cache.cpp', checked: true } },
    { from: '7.2', text: 'numInitialChunks is ignored: the playbook splits chunk by chunk instead', source: { ref: 'SERVER-74747', url: 'https://jira.mongodb.org/browse/SERVER-74747', checked: true } },
  ],
});
