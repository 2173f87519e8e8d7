// array-push-oplog run, part 1: the oplog bytes of one update per pattern at
// several array lengths (oplogEntrySize with a function: only this session's
// entries are counted) and the article's fix counted whole. The curves are
// kept for measure.js; the worst and best ways to ingest a reading for
// run-load.js.
(() => {
  const { model, versionTag, reading } = require(require('path').resolve(__dirname, 'common.js'));
  const lengths = model.parseLengths(stage.params.lengths);
  const selected = model.selectPatterns(stage.params.patterns);
  const tag = versionTag(stage.version);
  const db = stage.db;
  // oplogEntrySize hands the function the shell's current database, bound to
  // its session; getSiblingDB keeps that session.
  const own = (sdb) => sdb.getSiblingDB(stage.dbName);
  const source = db.getCollection('hourly_source').findOne();
  if (!source || !Array.isArray(source.readings)) throw new Error('run.js: no sensor-hourly document in hourly_source (did prepare run?)');
  const readings = source.readings;
  const hour = source.hour;

  // The one entry an update wrote; anything else means the measurement is not what it claims.
  const oneEntry = (res, what) => {
    if (res.count !== 1) {
      throw new Error(`run.js: ${what} wrote ${res.count} oplog entries with this session's lsid, expected 1 ` +
        '(retryable writes off? connect with retryWrites=true, the drivers\' default)');
    }
    return res.entries[0];
  };
  const arrayOf = (e) => (e.explanation.arrays || []).find((a) => a.path === 'readings') || {};

  const curveTable = `curve-${tag}`;
  stage.table(curveTable, `Oplog bytes of one update vs array length (${stage.version})`,
    ['pattern', 'length', 'bytes', 'format', 'array', 'elements']);
  stage.table('explain', 'One sample entry per pattern (explainOplogEntry), at the longest array',
    ['pattern', 'length', 'bytes', 'format', 'array', 'summary']);

  const curves = {};
  const samples = {};
  const updatePatterns = selected.filter((n) => n !== model.FIX.name);
  const total = updatePatterns.length * lengths.length + (selected.includes(model.FIX.name) ? 1 : 0);
  let done = 0;
  const work = db.getCollection('curve');
  work.drop();
  for (const name of updatePatterns) {
    const p = model.pattern(name);
    curves[name] = [];
    for (const L of lengths) {
      const _id = `${name}-${L}`;
      work.insertOne({ _id, device: source.device, hour, readings: readings.slice(0, L).map((r, i) => reading(readings, i, Int32)) });
      const update = p.update(reading(readings, L, Int32), L);
      const res = oplogEntrySize(function (sdb) { return own(sdb).getCollection('curve').updateOne({ _id }, update); });
      const e = oneEntry(res, `${name} at length ${L}`);
      const a = arrayOf(e);
      curves[name].push({ length: L, bytes: e.bytes });
      samples[name] = { length: L, entry: e };
      stage.row(curveTable, { pattern: name, length: L, bytes: e.bytes, format: e.explanation.format, array: a.action || '', elements: a.elements ?? '' });
      work.deleteOne({ _id });
      // The bytes ride on the progress line: the --step ticker shows them.
      stage.progress(`updates measured (${name} at ${L}: ${e.bytes} B per update)`, ++done, total);
    }
  }

  let fix = null;
  if (selected.includes(model.FIX.name)) {
    // One device-hour of the fix, on the primary: 3600 per-second inserts, then
    // the compaction (the hourly document in, the per-second documents out).
    const seconds = db.getCollection('seconds');
    const hourly = db.getCollection('hourly');
    seconds.drop();
    hourly.drop();
    const device = source.device;
    const ins = oplogEntrySize(function (sdb) {
      const c = own(sdb).getCollection('seconds');
      for (let s = 0; s < model.HOUR; s++) {
        const r = reading(readings, s, Int32);
        c.insertOne({ device, t: new Date(hour.getTime() + s * 1000), ...r });
      }
    });
    if (ins.count !== model.HOUR) throw new Error(`run.js: ${model.HOUR} per-second inserts wrote ${ins.count} entries with this session's lsid`);
    let deleted = 0;
    const comp = oplogEntrySize(function (sdb) {
      const docs = own(sdb).getCollection('seconds').find({ device }, { _id: 0, device: 0, t: 0 }).sort({ s: 1 }).toArray();
      own(sdb).getCollection('hourly').insertOne({ device, hour, readings: docs });
      deleted = own(sdb).getCollection('seconds').deleteMany({ device }).deletedCount;
    });
    const compInsert = oneEntry(comp, 'the compaction insert');
    // deleteMany is not a retryable write: its entries carry no lsid, so they
    // are counted by namespace, from the compaction insert on. From 6.1 the
    // deletes are batched: applyOps entries of many deletes each (found by the
    // ns inside applyOps), so entries are fewer than deletes. Wait until they
    // are all visible (or the count stops moving, for batched deletes).
    const ns = `${stage.dbName}.seconds`;
    let del;
    let previous = -1;
    for (let attempt = 0; attempt < 20; attempt++) {
      del = oplogEntrySize({ ns, since: compInsert.ts, limit: 0 });
      const n = Number(del.entries);
      if (n >= deleted || (n > 0 && n === previous)) break;
      previous = n;
      sleep(250);
    }
    fix = {
      insertBytes: ins.bytes,
      compactionInsertBytes: compInsert.bytes,
      compactionDeleteBytes: Number(del.bytes),
    };
    curves[model.FIX.name] = lengths.map((L) => ({ length: L, bytes: ins.entries[Math.min(L, model.HOUR - 1)].bytes }));
    for (const pt of curves[model.FIX.name]) {
      stage.row(curveTable, { pattern: model.FIX.name, length: pt.length, bytes: pt.bytes, format: 'insert', array: '', elements: '' });
    }
    samples[model.FIX.name] = { length: lengths[lengths.length - 1], entry: ins.entries[Math.min(lengths[lengths.length - 1], model.HOUR - 1)] };
    samples['per-second compaction'] = { length: model.HOUR, entry: compInsert };
    stage.measure('fix.insertBytes', fix.insertBytes, 'B');
    stage.measure('fix.compactionInsertBytes', fix.compactionInsertBytes, 'B');
    stage.measure('fix.compactionDeleteBytes', fix.compactionDeleteBytes, 'B');
    stage.measure('fix.compactionDeleteEntries', Number(del.entries), 'entries');
    stage.note(`Fix (one device-hour): ${model.HOUR} per-second inserts ${model.fmtBytes(fix.insertBytes)}, ` +
      `compaction insert ${model.fmtBytes(fix.compactionInsertBytes)}, ${model.deletesText(deleted, del.entries, fix.compactionDeleteBytes)}.`);
    stage.progress('updates measured', ++done, total);
  }

  // explainOplogEntry on the stored entry itself, read back by its ts.
  const oplog = db.getSiblingDB('local').getCollection('oplog.rs');
  for (const [name, { length, entry }] of Object.entries(samples)) {
    // A range on ts, so the server starts the oplog scan there (4.4+).
    const raw = oplog.findOne({ ts: { $gte: entry.ts, $lte: entry.ts }, ns: entry.ns });
    if (!raw) {
      stage.row('explain', { pattern: name, length, bytes: entry.bytes, format: '', array: '', summary: 'entry no longer in the oplog' });
      continue;
    }
    const x = explainOplogEntry(raw);
    const a = (x.arrays || []).find((y) => y.path === 'readings') || {};
    let summary = `${x.op} ${x.format || ''}`.trim();
    if (a.action === 'replace') summary += `: whole array rewritten, ${a.elements} elements`;
    else if (a.action === 'elements') summary += `: ${a.elements} element write(s), positional`;
    else if (a.action === 'resize') summary += ': array length change only';
    summary += ` (paths: ${(x.paths || []).map((q) => `${q.path} ${q.change}`).join(', ') || 'whole document'})`;
    stage.row('explain', { pattern: name, length, bytes: x.bytes, format: x.format || '', array: a.action || '', summary });
  }

  // What measure.js reads (the curves) and run-load.js runs (the worst and
  // best ways to ingest a reading).
  const updates = Object.fromEntries(Object.entries(curves).filter(([n]) => n !== model.FIX.name));
  const hours = model.hourTable(updates, fix);
  db.getCollection('summary').replaceOne({ _id: 'curves' }, { _id: 'curves', curves: updates, fix }, { upsert: true });
  db.getCollection('summary').replaceOne({ _id: 'hourTable' }, { _id: 'hourTable', worst: hours.worst, best: hours.best, rows: hours.rows }, { upsert: true });
  stage.log(`load patterns: worst ${hours.worst}, best ${hours.best}`);
})();
