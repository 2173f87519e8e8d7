'use strict';
// seedCollection: batched, deterministic writes of a recipe's documents
// (snippets/lib/recipes.js), with progress, a summary, and an exact dry run.

const makeRecipes = require('./recipes.js');

const FN = 'seedCollection';
const MIB = 1048576;
const BSON_MAX = 16 * MIB;
// Measured with 6 MiB documents against FerretDB (bench/seed.sh and the
// runs noted in bench/README.md): 16 MiB batches with three in flight wrote
// fastest (~55-59 MB/s vs 47-49 for 8 MiB x 2 and 42-50 for one 45 MiB batch
// at a time), with memory bounded by batchBytes x concurrency. Count-bounded
// too, so tiny documents do not make one huge array.
const DEFAULT_BATCH_BYTES = 16 * MIB;
const DEFAULT_BATCH_DOCS = 10000;
const MAX_BATCH_DOCS = 100000; // the server's maxWriteBatchSize
// Writes in flight at once where the recipe's order does not matter: the
// next batch is built and sent while the server stores the previous one.
const DEFAULT_CONCURRENCY = 3;
// replSetResizeOplog's minimum, MB.
const MIN_OPLOG_MB = 990;

const OPTION_KEYS = ['recipe', 'scale', 'docs', 'size', 'collections', 'batchBytes', 'batchDocs',
  'concurrency', 'seed', 'writeConcern', 'progress', 'dryRun', 'drop'];

const HELP = (recipes) => `
seedCollection(target, options) / seedCollection(target, recipe)

Writes a recipe's documents into target (a collection, or a collection name in
the current db) fast: insertMany batches bounded by bytes and count (unordered,
three in flight; ordered and one at a time for change-stream-resume, whose
write order is its point), flat memory for any size, deterministic content and _ids (a rerun continues
where an interrupted one stopped, skipping what is already there).

Recipes (each reproduces a source article's data at scale 'full'):
${Object.entries(recipes.RECIPES).map(([name, r]) => `  ${name.padEnd(21)}${r.article ? `"${r.article}": ` : ''}${r.summary}
${''.padEnd(23)}docs = ${r.docs}${r.full ? ` (full ${r.full.toLocaleString('en-US')})` : ''}${r.size ? `; size = ${r.size}` : ''}`).join('\n')}

Options:
  recipe        one of the names above (default 'padded', which needs docs)
  scale         'tiny' (1%, the default), 'small' (10%), 'medium' (30%) or 'full' (100%): the
                share of the article's documents the recipe writes. Named as the playbooks' --scale:
                the same word, data of about the size they seed (mongodump-raw-bson writes tiny-docs
                at these very shares); a playbook's --help says how long its scales take
  docs          document count, overrides scale (its meaning per recipe is above)
  size          document size in bytes or units ('1KB', '6MB'; 1 KB = 1024 B), where the recipe has one
  collections   tiny-docs only: how many collections (default 4)
  batchBytes    bytes per insertMany (default 16MB)    batchDocs  documents per insertMany (default 10000)
  concurrency   batches in flight (default 3; 1 for change-stream-resume, whose order matters)
  seed          integer for the deterministic generator (default 1)
  writeConcern  e.g. {w: 'majority'}                   drop       drop the target(s) first (default false)
  progress      true (default): one updating line on a terminal; otherwise a line to
                stderr every 5 s (stderr, so a script's stdout holds only the result);
                a number: seconds between those lines; false: silent
  dryRun        true: write nothing, need no connection, return the exact figures

Returns (after writing):
  {ns: [...], recipe, docs, bytes, skipped, seconds, docsPerSec, mbPerSec}
  docs/bytes: written now (bytes = sum of BSON document sizes); skipped: already present.
Returns (dryRun):
  {dryRun: true, recipe, scale, ns: [...], docs, bytes, largestDoc,
   collections: [{ns, docs, bytes}], oplogBytes, oplogSizeMB}
  docs/bytes are exact; oplogBytes estimates the insert entries (document plus
  op/ns/ui/o2/ts/t/v/wall); oplogSizeMB = oplogBytes + 10%, at least ${MIN_OPLOG_MB} (for replSetResizeOplog).
  MB in mbPerSec and oplogSizeMB is 1,048,576 bytes.

Examples:
  seedCollection('foo', {recipe: 'change-stream-resume', scale: 'tiny'})
  seedCollection(db.getSiblingDB('bb').c, {recipe: 'tiny-docs', scale: 'full'})
  seedCollection('junk', {docs: 1000, size: '64KB', writeConcern: {w: 1}})
  seedCollection('foo', {recipe: 'change-stream-resume', scale: 'full', dryRun: true}).oplogSizeMB
`;

module.exports = function seed(shell) {
  const recipes = makeRecipes(shell);

  function fail(msg) { return shell.error(FN, msg); }

  function count(name, x) {
    if (x === undefined) return undefined;
    const n = typeof x === 'number' ? x : (x && typeof x.toNumber === 'function' ? x.toNumber() : Number(x && x.valueOf()));
    if (!Number.isInteger(n) || n < 0) throw fail(`${name} must be a whole number >= 0; got ${shell.describe(x)}`);
    return n;
  }

  function bytes(name, x) {
    if (x === undefined) return undefined;
    const n = shell.parseBytes(x);
    if (n === null) throw fail(`${name} must be a number of bytes or a size like '1KB', '6MB', '1.5GB'; got ${shell.describe(x)}`);
    return n;
  }

  // Resolve target into {dbName, name, database?}; the database only when connected.
  function resolveTarget(target, dryRun) {
    if (target === undefined || target === null || target === '') {
      throw fail(`target must be a collection (db.foo) or a collection name ('foo'); got ${shell.describe(target)}`);
    }
    if (typeof target === 'string') {
      if (/[$\0]/.test(target) || target.startsWith('system.')) throw fail(`invalid collection name ${shell.preview(target)}`);
      if (dryRun) {
        let database;
        try { database = shell.db(FN); } catch (e) { database = undefined; }
        return { dbName: database ? database.getName() : 'test', name: target, database };
      }
      const database = shell.db(FN);
      return { dbName: database.getName(), name: target, database };
    }
    if (shell.isCollection(target)) {
      const database = target.getDB();
      return { dbName: database.getName(), name: target.getName(), database };
    }
    throw fail(`target must be a collection (db.foo) or a collection name ('foo'); got ${shell.describe(target)}`);
  }

  function parseOptions(options) {
    if (typeof options === 'string') options = { recipe: options };
    options = shell.options(FN, options, OPTION_KEYS, "{recipe: 'tiny-docs', scale: 'tiny'} (or a recipe name)");

    const recipeName = options.recipe === undefined ? 'padded' : options.recipe;
    const recipe = recipes.RECIPES[recipeName];
    if (typeof recipeName !== 'string' || !recipe) {
      const names = Object.keys(recipes.RECIPES).join(', ');
      // seedCollection('c', 'tiny'): a scale where the recipe goes.
      if (typeof recipeName === 'string' && Object.prototype.hasOwnProperty.call(recipes.SCALES, recipeName)) {
        throw fail(`${shell.quote(recipeName)} is a scale, not a recipe: give both, e.g. {recipe: 'tiny-docs', scale: '${recipeName}'}; recipes: ${names}`);
      }
      throw fail(`unknown recipe ${shell.quote(recipeName)}; accepted: ${names}`);
    }
    const scale = options.scale === undefined ? recipes.DEFAULT_SCALE : options.scale;
    if (!Object.prototype.hasOwnProperty.call(recipes.SCALES, scale)) {
      throw fail(`unknown scale ${shell.quote(scale)}; accepted: ${Object.keys(recipes.SCALES).join(', ')}`);
    }
    let docs = count('docs', options.docs);
    if (docs === undefined) {
      if (!recipe.full) throw fail(`recipe ${recipeName} needs docs (how many documents), e.g. {docs: 1000, size: '1KB'}`);
      docs = Math.max(1, Math.round(recipe.full * recipes.SCALES[scale]));
    }
    const size = bytes('size', options.size);
    if (size !== undefined) {
      if (!recipe.size) throw fail(`recipe ${recipeName} has a fixed document shape; size is accepted by: ${Object.keys(recipes.RECIPES).filter((n) => recipes.RECIPES[n].size).join(', ')}`);
      const min = recipes.minSize(recipeName);
      if (size < min || size > BSON_MAX) throw fail(`size must be between ${min} bytes (the recipe's smallest document) and 16MB (the BSON limit), got ${size}`);
    }
    const collections = count('collections', options.collections);
    if (collections !== undefined) {
      if (!recipe.collections) throw fail(`collections is only for recipe tiny-docs, not ${recipeName}`);
      if (collections < 1) throw fail('collections must be at least 1');
    }
    const batchBytes = bytes('batchBytes', options.batchBytes);
    if (batchBytes !== undefined && (batchBytes < 1024 || batchBytes > 48 * 1000 * 1000)) {
      throw fail(`batchBytes must be between 1KB and 48MB (the server's message limit), got ${batchBytes}`);
    }
    const batchDocs = count('batchDocs', options.batchDocs);
    if (batchDocs !== undefined && (batchDocs < 1 || batchDocs > MAX_BATCH_DOCS)) {
      throw fail(`batchDocs must be between 1 and ${MAX_BATCH_DOCS}, got ${batchDocs}`);
    }
    const concurrency = count('concurrency', options.concurrency);
    if (concurrency !== undefined && (concurrency < 1 || concurrency > 16)) throw fail(`concurrency must be between 1 and 16, got ${concurrency}`);
    if (concurrency > 1 && recipe.ordered) throw fail(`recipe ${recipeName} writes its documents in order (concurrency 1)`);
    const seedValue = count('seed', options.seed);
    if (seedValue !== undefined && seedValue > 0xFFFFFFFF) throw fail('seed must be below 2^32');
    const progress = options.progress === undefined ? true : options.progress;
    if (typeof progress !== 'boolean' && !(typeof progress === 'number' && progress > 0 && Number.isFinite(progress))) {
      throw fail('progress must be true, false, or the seconds between progress lines off a terminal');
    }
    for (const k of ['dryRun', 'drop']) {
      if (options[k] !== undefined && typeof options[k] !== 'boolean') throw fail(`${k} must be true or false`);
    }
    if (options.writeConcern !== undefined && (typeof options.writeConcern !== 'object' || options.writeConcern === null)) {
      throw fail('writeConcern must be an object, e.g. {w: \'majority\'}');
    }
    return {
      recipeName, recipe, scale, docs, size, collections: collections || recipe.collections || 1,
      batchBytes: batchBytes || DEFAULT_BATCH_BYTES,
      batchDocs: batchDocs || DEFAULT_BATCH_DOCS,
      concurrency: recipe.ordered ? 1 : (concurrency || DEFAULT_CONCURRENCY),
      seed: seedValue === undefined ? 1 : seedValue,
      writeConcern: options.writeConcern,
      progress,
      dryRun: options.dryRun === true,
      drop: options.drop === true,
    };
  }

  function dryRunResult(o, where, planned) {
    let docs = 0;
    let total = 0;
    let largestDoc = 0;
    let oplogBytes = 0;
    const collections = planned.map((c) => {
      const ns = `${where.dbName}.${c.name}`;
      docs += c.docs;
      total += c.bytes;
      oplogBytes += c.bytes + c.docs * recipes.oplogEntryOverhead(ns);
      for (const s of c.segments) if (s.count) largestDoc = Math.max(largestDoc, s.docSize);
      return { ns, docs: c.docs, bytes: c.bytes };
    });
    return {
      dryRun: true, recipe: o.recipeName, scale: o.scale, ns: collections.map((c) => c.ns),
      docs, bytes: total, largestDoc, collections,
      oplogBytes, oplogSizeMB: Math.max(MIN_OPLOG_MB, Math.ceil((oplogBytes * 1.1) / MIB)),
    };
  }

  // Progress: an updating line when stdout is a terminal; otherwise a line to
  // stderr every 5 s, so `mongosh --eval 'printjson(seedCollection(...))'`
  // keeps stdout for the result a script parses.
  function progressReporter(setting, totalDocs, totalBytes) {
    const enabled = setting !== false;
    const tty = Boolean(process.stdout.isTTY);
    const every = tty ? 250 : (typeof setting === 'number' ? setting * 1000 : 5000);
    const start = Date.now();
    let last = start;
    let shown = false;
    const line = (docs, written) => {
      const secs = (Date.now() - start) / 1000;
      const rate = written / MIB / Math.max(secs, 1e-3);
      const eta = rate > 0 ? (totalBytes - written) / MIB / rate : 0;
      const pct = totalBytes ? Math.floor((100 * written) / totalBytes) : 100;
      return `${FN}: ${docs.toLocaleString('en-US')}/${totalDocs.toLocaleString('en-US')} docs, `
        + `${shell.formatBytes(written)} of ${shell.formatBytes(totalBytes)} (${pct}%), `
        + `${rate.toFixed(1)} MB/s, ETA ${formatSeconds(eta)}`;
    };
    return {
      update(docs, written) {
        if (!enabled) return;
        const now = Date.now();
        if (now - last < every) return;
        last = now;
        shown = true;
        if (tty) process.stdout.write(`\r\x1b[K${line(docs, written)}`);
        else process.stderr.write(`${line(docs, written)}\n`);
      },
      done() {
        if (enabled && tty && shown) process.stdout.write('\r\x1b[K');
      },
    };
  }

  function formatSeconds(s) {
    if (!Number.isFinite(s) || s < 0) return '?';
    if (s < 60) return `${Math.ceil(s)}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
    return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  }

  function writeErrorsOf(err) {
    if (!err) return null;
    if (Array.isArray(err.writeErrors)) return err.writeErrors;
    if (err.writeErrors && typeof err.writeErrors === 'object') return [err.writeErrors];
    if (err.result && typeof err.result.getWriteErrors === 'function') return err.result.getWriteErrors();
    return null;
  }

  // One insertMany. Duplicate _ids are documents an earlier run
  // already wrote (ids are deterministic): counted as skipped, not errors.
  async function insertBatch(coll, batch, sizes, writeConcern, ordered) {
    const opts = { ordered };
    if (writeConcern) opts.writeConcern = writeConcern;
    let total = 0;
    for (const s of sizes) total += s;
    try {
      await coll.insertMany(batch, opts);
      return { docs: batch.length, bytes: total, skipped: 0 };
    } catch (err) {
      const errors = writeErrorsOf(err);
      if (!errors || errors.length === 0 || errors.some((e) => (e.code ?? (e.err && e.err.code)) !== 11000)) throw err;
      const failed = errors.map((e) => e.index ?? (e.err && e.err.index));
      // A duplicate on another unique index is a real failure: only count the
      // documents whose _id is indeed there (servers word E11000 differently,
      // so ask rather than parse the message).
      const ids = failed.map((i) => batch[i]._id);
      const there = await coll.countDocuments({ _id: { $in: ids } });
      if (there !== ids.length) {
        err.message = `${err.message} (a unique index other than _id rejected ${ids.length - there} document(s))`;
        throw err;
      }
      let dupBytes = 0;
      for (const i of failed) dupBytes += sizes[i] || 0;
      return { docs: batch.length - errors.length, bytes: total - dupBytes, skipped: errors.length };
    }
  }

  // How many of the collection's documents, from the first, an earlier run
  // already wrote: a binary search on counts of the (sequential) _id range,
  // so a resumed run neither rewrites everything nor leaves a gap. Later
  // documents that exist anyway (unordered batches in flight when it stopped)
  // come back as duplicate keys and are skipped.
  async function completePrefix(coll, seedValue, c) {
    const first = recipes.idFor(seedValue, c.index, 0);
    const below = (k) => coll.countDocuments({ _id: { $gte: first, $lt: recipes.idFor(seedValue, c.index, k) } });
    const present = await coll.countDocuments({
      _id: { $gte: first, $lte: recipes.idFor(seedValue, c.index, c.docs - 1) },
    });
    if (present >= c.docs) return c.docs;
    let lo = 0;
    let hi = present;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (await below(mid) === mid) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  async function write(o, where, planned) {
    const started = Date.now();
    const totals = { docs: 0, bytes: 0, skipped: 0 };
    const totalDocs = planned.reduce((a, c) => a + c.docs, 0);
    const totalBytes = planned.reduce((a, c) => a + c.bytes, 0);
    const progress = progressReporter(o.progress, totalDocs, totalBytes);
    let accounted = 0; // bytes written or skipped, for the progress line
    const account = (r, skippedBytes) => {
      totals.docs += r.docs;
      totals.bytes += r.bytes;
      totals.skipped += r.skipped;
      accounted += r.bytes + skippedBytes;
      progress.update(totals.docs + totals.skipped, accounted);
    };
    try {
      for (const c of planned) {
        const coll = where.database.getCollection(c.name);
        let from = 0;
        if (o.drop) {
          await coll.drop();
        } else if (c.docs > 0) {
          from = await completePrefix(coll, o.seed, c);
          if (from > 0) {
            let skippedBytes = 0;
            for (const s of c.segments) skippedBytes += Math.max(0, Math.min(from, s.first + s.count) - s.first) * s.docSize;
            account({ docs: 0, bytes: 0, skipped: from }, skippedBytes);
          }
        }
        if (from >= c.docs) continue;

        const inflight = [];
        let failure = null;
        const send = (batch, sizes) => {
          const p = insertBatch(coll, batch, sizes, o.writeConcern, Boolean(o.recipe.ordered)).then(
            (r) => { account(r, sizes.reduce((a, s) => a + s, 0) - r.bytes); },
            (err) => { failure = failure || err; },
          );
          inflight.push(p);
        };
        let batch = [];
        let sizes = [];
        let batchBytes = 0;
        for (const { doc, size } of recipes.documents(c, o.seed, from)) {
          if (batch.length && (batchBytes + size > o.batchBytes || batch.length >= o.batchDocs)) {
            send(batch, sizes);
            batch = [];
            sizes = [];
            batchBytes = 0;
            while (inflight.length >= o.concurrency) await inflight.shift();
            if (failure) throw failure;
          }
          batch.push(doc);
          sizes.push(size);
          batchBytes += size;
        }
        if (batch.length) send(batch, sizes);
        while (inflight.length) await inflight.shift();
        if (failure) throw failure;
      }
    } finally {
      progress.done();
    }
    const seconds = (Date.now() - started) / 1000;
    return {
      ns: planned.map((c) => `${where.dbName}.${c.name}`),
      recipe: o.recipeName,
      docs: totals.docs,
      bytes: totals.bytes,
      skipped: totals.skipped,
      seconds,
      docsPerSec: seconds > 0 ? Math.round(totals.docs / seconds) : 0,
      mbPerSec: seconds > 0 ? Math.round((totals.bytes / MIB / seconds) * 100) / 100 : 0,
    };
  }

  const writeAsync = shell.async(FN, write);

  // Validation and the dry run are synchronous, so bad options throw at the
  // call and a dry run returns plain data even in `mongosh --nodb`.
  function seedCollection(target, options) {
    // The first argument is checked first: a bad target is the mistake to report.
    if (typeof target !== 'string' && !shell.isCollection(target)) resolveTarget(target, true);
    const o = parseOptions(options);
    const where = resolveTarget(target, o.dryRun);
    const planned = recipes.plan(o.recipeName, { ...o, name: where.name });
    if (o.dryRun) return dryRunResult(o, where, planned);
    return writeAsync(o, where, planned);
  }

  return { seedCollection: shell.withHelp(seedCollection, HELP(recipes)) };
};
