'use strict';
// capped-pubsub: what each release series is predicted to do with the
// article's claims (MongoDB 3.0.1 in the article). Read by checker.js, the lab
// guide's "What changes per version" and docs/predictions.md (playbooks/lib/js/predictions.js).
const { table } = require('../../js/predictions.js');

const jira = (n, what) => ({ ref: `SERVER-${n}: ${what}`, url: `https://jira.mongodb.org/browse/SERVER-${n}`, checked: true });

module.exports = table({
  scenario: 'capped-pubsub',
  claims: {
    grow: {
      keyedBy: 'feature compatibility version (a launched server runs at its own release\'s)',
      spans: [
        { from: '4.4', holds: true, reason: 'since 3.2 an update that changes the size of a document in a capped collection is refused (error 10003)', source: jira(20529, 'refuse size changes of capped documents') },
        { from: '5.3', holds: false, reason: 'at feature compatibility version 5.3 and later an update may change the size of a capped document', source: jira(58865, 'allow size changes of capped documents') },
      ],
    },
    shard: {
      spans: [{ from: '4.4', holds: true, reason: 'shardCollection refuses a capped collection (InvalidOptions "can\'t shard a capped collection")', source: { ref: 'src/mongo/db/s/create_collection_coordinator.cpp: uassert InvalidOptions (72) "can\'t shard a capped collection"', url: 'https://github.com/mongodb/mongo/blob/master/src/mongo/db/s/create_collection_coordinator.cpp', checked: true } }],
    },
    replicate: {
      spans: [{ from: '4.4', holds: true, reason: 'inserts into a capped collection are written to the oplog like any other insert', source: { ref: 'MongoDB manual: capped collections', url: 'https://www.mongodb.com/docs/manual/core/capped-collections/', checked: true } }],
    },
    restart: {
      spans: [{ from: '4.4', holds: false, reason: 'capped collections are ordinary WiredTiger tables: their documents survive a restart, through the journal on a standalone and through the last checkpoint and the oplog on a replica set', source: { ref: 'src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp: WiredTigerUtil::useTableLogging (replicated collections are recovered from the oplog, not the journal)', url: 'https://github.com/mongodb/mongo/blob/master/src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp', checked: true } }],
    },
    cpu: {
      spans: [{ from: '4.4', holds: true, reason: 'every insert wakes every waiting awaitData cursor and each runs a getMore, so the server\'s work per message grows with the subscribers', source: { ref: 'CappedInsertNotifier::notifyAll wakes every waiter (src/mongo/db/catalog/collection_impl.cpp, notifyCappedWaitersIfNeeded)', url: 'https://github.com/mongodb/mongo/blob/r6.0.0/src/mongo/db/catalog/collection_impl.cpp', checked: true } }],
    },
    delivery: {
      spans: [{ from: '4.4', holds: true, reason: 'a tailable cursor returns every document in insertion order while the collection does not wrap past it', source: { ref: 'MongoDB manual: tailable cursors', url: 'https://www.mongodb.com/docs/manual/core/tailable-cursors/', checked: true } }],
    },
    rate: {
      spans: [{ from: '4.4', holds: true, reason: 'the publishers\' target rates are far below what one mongod inserts per second on a laptop; a miss points at the machine, not the version', source: { ref: 'the article\'s simulation: 1000 inserts/s with 40 readers on 3.0.1', url: 'https://github.com/christkv/mongodb-schema-simulator/blob/master/examples/simulations/topic_simulation.js', checked: false } }],
    },
  },
  notes: [
    { from: '3.0', text: 'MMAPv1 could not move a record: documents of a capped collection could not grow (the article\'s release)', source: jira(20529, 'refuse size changes of capped documents') },
    { from: '4.4', text: 'the server rounds a capped size up to a multiple of 256 (size 100000 is kept as 100096); the report records the size the server reports', source: { ref: 'src/mongo/db/catalog/collection_options.cpp: adjustCappedSize (always rounds in 5.0-era code)', url: 'https://github.com/mongodb/mongo/blob/018b205b9180d05ad858f4976e6e2bc85a7d15e7/src/mongo/db/catalog/collection_options.cpp', checked: true } },
    { from: '6.2', text: 'the rounding is behind featureFlagCappedCollectionsRelaxedSize: with it enabled the server keeps the size as asked', source: jira(67246, 'relax the capped size rounding') },
    { from: 'all', text: 'a tailable cursor is kept after an empty first batch unless the collection has no records at all (SERVER-13955): the playbook inserts a sentinel document first', source: { ref: 'src/mongo/db/query/find.cpp: shouldSaveCursor', url: 'https://github.com/mongodb/mongo/blob/e508ddcb51eec941ae50d9c2efb06b601811dc19/src/mongo/db/query/find.cpp', checked: true } },
    { from: '6.0', text: 'collMod {cappedSize, cappedMax} resizes a capped collection; the lab notes whether the server accepts it', source: jira(1864, 'resize capped collections') },
  ],
});
