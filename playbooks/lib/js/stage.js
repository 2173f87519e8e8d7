// Prelude of every mongosh stage (pb::mongosh_stage): loads the snippets and
// defines `stage`, the stage file's way to report back to the playbook.
// Configuration arrives as globalThis.dbaLabStage (set by --eval).
//
//   stage.params, stage.scale, stage.scaleParams, stage.version, stage.playbook
//   stage.db                      the playbook's own database (dbalab_<playbook>)
//   stage.measure(key, value, unit)
//   stage.table(name, title, columns[, {source: 'article', setup: '...'}])
//                                 figures from elsewhere (the article's own): labelled
//                                 with their setup in the report, never with this run's version
//   stage.row(name, {column: value} | [values])
//   stage.note(markdown)          stage.log(message)
//   stage.progress(label, done, total)   a line `progress: label: done of total (pct%)`,
//                                 at most one a second: the ticker of --progress shows it
//   stage.setParameter(name, value)   returns the old value; restored at cleanup
//   stage.now()                   milliseconds (fractional, monotonic)
//   stage.hello([db])             hello, or isMaster where hello is missing (lib/js/hello.js)
(() => {
  const cfg = globalThis.dbaLabStage;
  if (!cfg || typeof cfg !== 'object') {
    throw new Error('stage.js: run through pb::mongosh_stage (globalThis.dbaLabStage is missing)');
  }
  const fs = require('fs');
  load(`${cfg.root}/snippets/index.js`);
  load(`${cfg.root}/playbooks/lib/js/hello.js`);

  // Report values as plain JSON: BSON numbers become numbers while exact,
  // longer integers (cursor ids) strings, dates ISO strings.
  const plain = (v) => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'bigint') {
      return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
    }
    if (typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v)) return v.map(plain);
    switch (v._bsontype) {
      case 'Long': {
        const s = v.toString();
        return Math.abs(Number(s)) <= Number.MAX_SAFE_INTEGER ? Number(s) : s;
      }
      case 'Int32':
      case 'Double':
        return Number(v.valueOf());
      case 'Decimal128':
        return v.toString();
      case 'ObjectId':
        return v.toHexString();
      case 'Timestamp':
        return { t: v.t ?? v.high, i: v.i ?? v.low };
      case undefined:
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
      default:
        return EJSON.serialize(v, { relaxed: true });
    }
  };

  const write = (record) => {
    fs.appendFileSync(cfg.records, `${JSON.stringify(record)}\n`);
  };

  const fail = (fn, msg) => {
    throw new Error(`stage.${fn}: ${msg}`);
  };

  const tables = new Set();
  let lastProgress = 0;

  const stage = {
    params: cfg.params || {},
    scale: cfg.scale,
    scaleParams: cfg.scaleParams || {},
    version: cfg.version,
    playbook: cfg.playbook,
    dbName: cfg.dbName,
    uriMode: cfg.uriMode,
    runId: cfg.runId,
    get db() {
      if (typeof db === 'undefined') fail('db', 'no connection (the stage runs with --nodb)');
      return db.getSiblingDB(cfg.dbName);
    },
    now() {
      return Number(process.hrtime.bigint()) / 1e6;
    },
    log(message) {
      print(`  ${message}`);
    },
    progress(label, done, total) {
      const now = Date.now();
      if (done < total && now - lastProgress < 1000) return;
      lastProgress = now;
      const pct = total ? ` (${Math.floor((100 * done) / total)}%)` : '';
      // The form pb::progress_wait looks for in the run log (PB_PROGRESS_RE in
      // log.sh): its ticker shows the newest such line on the terminal.
      print(`progress: ${label}: ${done}${total ? ` of ${total}` : ''}${pct}`);
    },
    measure(key, value, unit = '') {
      if (typeof key !== 'string' || !key) fail('measure', 'key must be a non-empty string');
      write({ type: 'measure', version: cfg.version, stage: cfg.stage || '', key, value: plain(value), unit });
    },
    table(name, title, columns, options = {}) {
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) fail('table', `name '${name}' must be lower-case letters, digits, - or _`);
      if (!Array.isArray(columns) || columns.length === 0) fail('table', `${name}: columns must be a non-empty array`);
      tables.add(name);
      const source = options.source ? { kind: String(options.source), setup: String(options.setup || '') } : undefined;
      write({ type: 'table', name, title: title || name, columns, ...(source ? { source } : {}) });
    },
    row(name, row) {
      if (Array.isArray(row)) {
        write({ type: 'row', table: name, version: cfg.version, values: row.map(plain) });
      } else if (row && typeof row === 'object') {
        write({ type: 'row', table: name, version: cfg.version, row: plain(row) });
      } else {
        fail('row', `${name}: a row is an object {column: value} or an array of values`);
      }
    },
    note(text) {
      write({ type: 'note', version: cfg.version, stage: cfg.stage || '', text: String(text) });
    },
    hello(target) {
      if (target === undefined && typeof db === 'undefined') fail('hello', 'no connection');
      return globalThis.dbaLabHello(target || db);
    },
    setParameter(name, value) {
      if (typeof db === 'undefined') fail('setParameter', 'no connection');
      const admin = db.getSiblingDB('admin');
      const old = admin.runCommand({ getParameter: 1, [name]: 1 })[name];
      if (old === undefined) fail('setParameter', `the server does not know parameter ${name}`);
      // Recorded before the change: a failure half-way is still restored.
      write({ type: 'knob', target: cfg.target, name, old: plain(old), new: plain(value) });
      admin.runCommand({ setParameter: 1, [name]: value });
      return old;
    },
  };
  globalThis.stage = stage;
})();
