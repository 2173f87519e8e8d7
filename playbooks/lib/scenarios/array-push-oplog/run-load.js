// array-push-oplog run, part 2: the article's load (devices x seconds, one
// reading per device per simulated second, back to back) with the worst or
// best way to ingest a reading found by run.js; total oplog bytes of the
// load and the secondaries' lag sampled while it runs and until they catch up.
(() => {
  const { model, versionTag, reading, escapeRegExp } = require(require('path').resolve(__dirname, 'common.js'));
  const { which, devices, seconds } = stage.params;
  const lagEveryMs = stage.params.lagEveryMs || 1000;
  const catchUpSeconds = stage.params.catchUpSeconds || 600;
  const db = stage.db;
  const tag = versionTag(stage.version);

  // Declared even when this load is skipped: the playbook charts it.
  const lagTable = `lag-${tag}`;
  stage.table(lagTable, `Secondary lag during the load (${stage.version})`,
    ['series', 'pattern', 'phase', 'elapsed_s', 'simulated_s', 'secondary', 'lag_ms', 'source']);
  const summary = db.getCollection('summary').findOne({ _id: 'hourTable' });
  if (!summary) throw new Error('run-load.js: no curve summary (run run.js first)');
  const name = which === 'worst' || which === 'best' ? summary[which] : which;
  if (!name) {
    stage.note(`Load (${which}): skipped, the measured patterns give no ${which} way to ingest a reading.`);
    return;
  }
  const isFix = name === model.FIX.name;
  const p = isFix ? model.FIX : model.pattern(name);
  const source = db.getCollection('hourly_source').findOne();
  const readings = source.readings;
  const hourStart = source.hour.getTime();

  const collName = `load_${name}`;
  const coll = db.getCollection(collName);
  const hourlyColl = db.getCollection(`${collName}_hourly`);
  coll.drop();
  hourlyColl.drop();
  // Updates start from empty hourly arrays, as the article's documents did at
  // the top of each hour.
  if (!isFix) {
    coll.insertMany(Array.from({ length: devices }, (_, d) => ({ _id: d, device: NumberInt(d), hour: source.hour, readings: [] })));
  }
  const admin = db.getSiblingDB('admin');
  const oplog = db.getSiblingDB('local').getCollection('oplog.rs');
  const newestTs = () => oplog.find({}, { ts: 1 }).sort({ $natural: -1 }).limit(1).next().ts;
  // Just after the newest entry (the set-up above): the load's own entries only.
  const last = newestTs();
  const startTs = Timestamp({ t: last.t, i: last.i + 1 });

  const t0 = stage.now();
  let maxLag = 0;
  let lagSource = '';
  let lastSample = -Infinity;
  const sample = (phase, simulated) => {
    const st = admin.runCommand({ replSetGetStatus: 1 });
    const lag = model.lagFromStatus(st);
    const elapsed = Number(((stage.now() - t0) / 1000).toFixed(2));
    for (const m of lag.members) {
      if (m.lagMs === null) continue;
      maxLag = Math.max(maxLag, m.lagMs);
      lagSource = m.source;
      stage.row(lagTable, { series: `${name} ${m.name}`, pattern: name, phase, elapsed_s: elapsed, simulated_s: simulated, secondary: m.name, lag_ms: m.lagMs, source: m.source });
    }
    lastSample = stage.now();
    return st;
  };
  const wc = { w: 1 };

  const compact = (s) => {
    // The article's hourly compaction, per device: read the hour's seconds,
    // write the hourly document, delete the seconds.
    for (let d = 0; d < devices; d++) {
      const docs = coll.find({ device: NumberInt(d) }, { _id: 0, device: 0, t: 0 }).sort({ s: 1 }).toArray();
      if (!docs.length) continue;
      hourlyColl.insertOne({ device: NumberInt(d), hour: new Date(hourStart + Math.floor(s / model.HOUR) * 3600000), readings: docs }, { writeConcern: wc });
      coll.deleteMany({ device: NumberInt(d) }, { writeConcern: wc });
    }
  };

  sample('load', 0);
  for (let s = 0; s < seconds; s++) {
    const r = reading(readings, s, Int32);
    const L = s % model.HOUR;
    if (isFix) {
      coll.insertMany(Array.from({ length: devices }, (_, d) => ({ device: NumberInt(d), t: new Date(hourStart + s * 1000), ...r })),
        { ordered: false, writeConcern: wc });
      if (L === model.HOUR - 1 || s === seconds - 1) compact(s);
    } else {
      if (L === 0 && s > 0) {
        // A new hour: a fresh hourly document per device.
        coll.updateMany({}, { $set: { readings: [], hour: new Date(hourStart + (s / model.HOUR) * 3600000) } }, { writeConcern: wc });
      }
      const update = p.update(r, L);
      coll.bulkWrite(Array.from({ length: devices }, (_, d) => ({ updateOne: { filter: { _id: d }, update } })),
        { ordered: false, writeConcern: wc });
    }
    if (stage.now() - lastSample >= lagEveryMs) sample('load', s + 1);
    stage.progress(`load ${name} (secondary lag up to ${maxLag} ms so far): simulated seconds`, s + 1, seconds);
  }
  const loadSeconds = (stage.now() - t0) / 1000;
  const endTs = newestTs();
  // Until every secondary has applied the primary's newest entry.
  let caught = false;
  const deadline = stage.now() + catchUpSeconds * 1000;
  while (stage.now() < deadline) {
    const st = sample('catch-up', seconds);
    if (model.caughtUp(st)) {
      caught = true;
      break;
    }
    sleep(Math.max(100, lagEveryMs / 4));
  }
  const catchUp = (stage.now() - t0) / 1000 - loadSeconds;

  const ns = new RegExp(`^${escapeRegExp(stage.dbName)}\\.${escapeRegExp(collName)}(_hourly)?$`);
  const size = oplogEntrySize({ ns, since: startTs, until: endTs, limit: 1, maxTimeMS: 600000 });
  const writes = devices * seconds;
  stage.table('load', 'The simulated load: total oplog bytes and secondary lag', [
    'which', 'pattern', 'devices', 'simulated_s', 'wall_s', 'readings_per_s', 'oplog_entries', 'oplog_bytes', 'bytes_per_reading', 'max_lag_ms', 'lag_source', 'catch_up_s']);
  stage.row('load', {
    which, pattern: name, devices, simulated_s: seconds, wall_s: Number(loadSeconds.toFixed(1)),
    readings_per_s: Math.round(writes / loadSeconds), oplog_entries: Number(size.entries), oplog_bytes: Number(size.bytes),
    bytes_per_reading: Math.round(Number(size.bytes) / writes), max_lag_ms: maxLag, lag_source: lagSource,
    catch_up_s: caught ? Number(catchUp.toFixed(1)) : `> ${catchUpSeconds}`,
  });
  stage.measure(`load.${which}.pattern`, name);
  stage.measure(`load.${which}.oplogBytes`, Number(size.bytes), 'B');
  stage.measure(`load.${which}.maxLagMs`, maxLag, 'ms');
  if (!caught) stage.note(`Load ${name}: the secondaries had not caught up ${catchUpSeconds} s after the load ended.`);
  coll.drop();
  hourlyColl.drop();
})();
