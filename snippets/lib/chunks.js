'use strict';
// chunkSummary: chunk distribution of a sharded collection from the config
// database, and its recent routing-table refresh durations from getLog.

const shape = require('./chunks-shape.js');

const FN = 'chunkSummary';
const OPTION_KEYS = ['log', 'jumboList'];

const HELP = `
chunkSummary(ns, options?)

Chunks of a sharded collection per shard (count, share, jumbo), min/max/avg
chunks per shard, and recent routing-table refresh durations for ns from the
connected node's log (getLog 'global': the last 1024 lines).

ns:       'db.collection' or a collection (db.foo). Chunk counts need a mongos
          (or the config server); on a shard only the refresh part is filled.
          Works whether config.chunks is keyed by collection UUID (5.0+) or by
          ns (<= 4.4): the config.collections entry says which.
options:  log        false to skip getLog (default true)
          jumboList  how many jumbo chunks to list (default 10)

Refresh lines read: JSON id 4619901 "Refreshed cached collection" (4.4+;
at the default level when it found a new version, some that found nothing
new only at level 1, depending on the release) and
the legacy text "Refresh for collection NS from version A to version B took N ms".

Returns (printed as a summary):
  {ns, keyedBy: 'uuid' | 'ns', uuid?, shardKey, unique, chunks, jumbo,
   shards: [{shard, chunks, jumbo, percent}], perShard: {min, max, avg},
   jumboChunks: [{shard, min, max}],
   refresh: {count, minMillis, medianMillis, maxMillis, avgMillis,
             entries: [{t, durationMillis, from, to, format, id?}]} | {error}}
  On a shard: {ns, note, refresh}.

Examples:
  chunkSummary('test.users')
  chunkSummary(db.users).shards
  chunkSummary('wukong.actions', {log: false}).perShard
`;

module.exports = function chunks(shell) {
  function fail(msg) { return shell.error(FN, msg); }

  function parseNs(ns) {
    if (shell.isCollection(ns)) return ns.getFullName();
    if (typeof ns !== 'string' || !/^[^.$\0/\\ "]+\.[^$\0]+$/.test(ns)) {
      throw fail(`ns must be 'db.collection' or a collection (db.foo); got ${shell.describe(ns)}`);
    }
    return ns;
  }

  function parseOptions(options) {
    options = shell.options(FN, options, OPTION_KEYS, '{log: false}');
    if (options.log !== undefined && typeof options.log !== 'boolean') throw fail(`log must be true or false; got ${shell.describe(options.log)}`);
    const jumboList = options.jumboList === undefined ? 10 : Number(options.jumboList);
    if (!Number.isInteger(jumboList) || jumboList < 0) throw fail(`jumboList must be a whole number >= 0; got ${shell.describe(options.jumboList)}`);
    return { log: options.log !== false, jumboList };
  }

  async function toArray(cursorPromise) {
    const cursor = await cursorPromise;
    return cursor.toArray();
  }

  async function refresh(database, ns) {
    try {
      const res = await database.adminCommand({ getLog: 'global' });
      return shape.refreshStats(shape.parseRefreshLines(res.log || [], ns));
    } catch (err) {
      return { error: `getLog failed: ${err.message || err}` };
    }
  }

  async function summary(ns, o) {
    const database = shell.db(FN);
    const hello = await database.adminCommand({ isMaster: 1 });
    const onRouter = hello.msg === 'isdbgrid' || Boolean(hello.configsvr);
    let result;
    if (onRouter) {
      const config = database.getSiblingDB('config');
      const [dbName, ...rest] = ns.split('.');
      let collection = await config.getCollection('collections').findOne({ _id: ns });
      // Time-series collections (5.0-8.x) are sharded under their buckets namespace.
      if (!collection) collection = await config.getCollection('collections').findOne({ _id: `${dbName}.system.buckets.${rest.join('.')}` });
      if (!collection || collection.dropped === true) {
        throw fail(`${ns} is not sharded: no entry in config.collections`);
      }
      const match = shape.chunkQuery(collection);
      const perShard = await toArray(config.getCollection('chunks').aggregate([
        { $match: match },
        { $group: { _id: '$shard', chunks: { $sum: 1 }, jumbo: { $sum: { $cond: [{ $eq: ['$jumbo', true] }, 1, 0] } } } },
      ]));
      const shards = (await toArray(config.getCollection('shards').find({}, { _id: 1 }))).map((s) => s._id);
      const jumboChunks = o.jumboList
        ? await (await config.getCollection('chunks').find({ ...match, jumbo: true }, { shard: 1, min: 1, max: 1 })).limit(o.jumboList).toArray()
        : [];
      result = shape.summarize({ collection, perShard, shards, jumboChunks });
      result.ns = ns;
    } else {
      result = { ns, note: 'not a mongos or config server: chunk counts need one (connect to a mongos); refresh durations below are this node\'s' };
    }
    if (o.log) result.refresh = await refresh(database, ns);
    Object.defineProperty(result, shell.inspect, { value: () => shape.render(result), enumerable: false });
    return result;
  }

  const summaryAsync = shell.async(FN, summary);

  function chunkSummary(ns, options) {
    const name = parseNs(ns);
    const o = parseOptions(options);
    shell.db(FN);
    return summaryAsync(name, o);
  }

  return { chunkSummary: shell.withHelp(chunkSummary, HELP) };
};
