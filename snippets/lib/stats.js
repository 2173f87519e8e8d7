'use strict';
// collStatsSummary: sizes of a collection, a database or every database, from
// $collStats storageStats (4.4 to 8.x; db.collection.stats() and the collStats
// command are deprecated from 6.2).

const shape = require('./stats-shape.js');

const FN = 'collStatsSummary';
const OPTION_KEYS = ['scale', 'sort', 'limit', 'system'];
// Databases left out of the whole-deployment summary unless `system: true`.
const SYSTEM_DBS = ['admin', 'config', 'local'];

const HELP = `
collStatsSummary(target?, options?)

Sizes at a glance, from $collStats storageStats (works on 4.4 to 8.x, also
where db.collection.stats() is deprecated), one row per collection and, on a
sharded cluster, one per shard plus a 'total' row.

target:   a collection (db.foo) or its name ('foo', in the current db), a
          database (db, db.getSiblingDB('x')), or nothing: every database
          except admin, config and local (add them with {system: true}).
          Views are skipped; time-series collections are named with their
          buckets collection (system.buckets.<name> is not listed twice).
options:  scale   1 (default: table in human units), 1024 or 'KB' | 'MB' | 'GB' | 'TB'
                  (size fields divided and rounded down, as the server's scale does)
          sort    'storageSize' (default, descending), any of ${shape.SORTABLE.join(', ')};
                  or {field: 1 | -1}
          limit   at most this many namespaces
          system  true: include admin, config and local in the whole-deployment summary

Returns an array of rows (printed as an aligned table):
  {ns, shard?, type: 'collection' | 'timeseries', count, size, avgObjSize,
   storageSize, freeStorageSize, nindexes, totalIndexSize, totalSize, capped,
   max?, maxSize?, orphans?, bucketsNs?, indexSizes, error?}
  A row with 'error' is a collection whose $collStats failed (e.g. not authorized).

Examples:
  collStatsSummary()                                   every database, largest first
  collStatsSummary(db, {sort: 'count', limit: 10})
  collStatsSummary('foo', {scale: 'MB'})
  collStatsSummary(db.getSiblingDB('bb')).map(r => r.count)
`;

module.exports = function stats(shell) {
  function fail(msg) { return shell.error(FN, msg); }

  function parseOptions(options) {
    options = shell.options(FN, options, OPTION_KEYS, "{sort: 'size', limit: 10}");
    const scale = shape.parseScale(options.scale);
    if (scale === null) throw fail(`scale must be a number >= 1 or one of KB, MB, GB, TB; got ${shell.describe(options.scale)}`);
    const sort = shape.parseSort(options.sort);
    if (sort === null) throw fail(`sort must be one of ${shape.SORTABLE.join(', ')} or {field: 1 | -1}; got ${shell.describe(options.sort)}`);
    const limit = options.limit === undefined ? undefined : shape.num(options.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw fail(`limit must be a whole number > 0; got ${shell.describe(options.limit)}`);
    if (options.system !== undefined && typeof options.system !== 'boolean') throw fail('system must be true or false');
    return { scale, sort, limit, system: options.system === true };
  }

  const { isCollection, isDatabase } = shell;

  async function collStats(database, name, meta) {
    try {
      const cursor = await database.getCollection(name).aggregate([{ $collStats: { storageStats: {} } }]);
      const docs = await cursor.toArray();
      const rows = shape.rowsFromCollStats(docs, meta);
      // storageStats carries max/maxSize for capped collections on MongoDB;
      // listCollections' options are the fallback.
      for (const r of rows) {
        if (r.capped && r.maxSize === undefined && meta.maxSize !== undefined) r.maxSize = meta.maxSize;
        if (r.capped && r.max === undefined && meta.max !== undefined) r.max = meta.max;
      }
      return rows;
    } catch (err) {
      return [{ ns: `${database.getName()}.${name}`, type: meta.type || 'collection', error: String(err.message || err) }];
    }
  }

  async function forDatabase(database) {
    const infos = await database.getCollectionInfos({}, { nameOnly: false });
    const rows = [];
    for (const { name, meta } of shape.collectionsToSummarize(infos, database.getName())) {
      rows.push(...await collStats(database, name, meta));
    }
    return rows;
  }

  async function summary(target, o) {
    let rows;
    if (target === undefined || target === null) {
      const database = shell.db(FN);
      const res = await database.adminCommand({ listDatabases: 1, nameOnly: true });
      rows = [];
      for (const d of res.databases) {
        if (!o.system && SYSTEM_DBS.includes(d.name)) continue;
        rows.push(...await forDatabase(database.getSiblingDB(d.name)));
      }
    } else if (isCollection(target)) {
      const database = target.getDB();
      const name = target.getName();
      const [info] = await database.getCollectionInfos({ name }, { nameOnly: false });
      if (info && info.type === 'view') throw fail(`${target.getFullName()} is a view: $collStats storageStats does not apply to views`);
      const meta = info ? shape.collectionMeta(info, database.getName()) : { ns: target.getFullName(), type: 'collection' };
      rows = await collStats(database, name, meta);
    } else {
      rows = await forDatabase(target);
    }
    const arranged = shape.arrange(rows, o);
    // The shell's Long constructor is a checking wrapper; its class carries fromBigInt.
    const result = shape.toLongs(arranged, new shell.bson.Long(0).constructor);
    Object.defineProperty(result, shell.inspect, {
      value: () => shape.renderTable(arranged, { scale: o.scale, formatBytes: shell.formatBytes }),
      enumerable: false,
    });
    return result;
  }

  const summaryAsync = shell.async(FN, summary);

  function collStatsSummary(target, options) {
    if (typeof target === 'string') {
      if (target === '' || /[$\0]/.test(target)) throw fail(`invalid collection name ${shell.preview(target)}`);
    } else if (target !== undefined && target !== null && !isCollection(target) && !isDatabase(target)) {
      throw fail(`target must be a collection (db.foo), a collection name ('foo'), a database (db), or nothing for every database; got ${shell.describe(target)}`);
    }
    const o = parseOptions(options);
    if (typeof target === 'string') target = shell.db(FN).getCollection(target);
    if (target === undefined || target === null) shell.db(FN);
    return summaryAsync(target, o);
  }

  return { collStatsSummary: shell.withHelp(collStatsSummary, HELP) };
};
