'use strict';
// capped-pubsub load generator: one Node process holds every publisher and
// every subscriber of one sweep point (the driver multiplexes them over one
// connection pool), so 40 subscribers cost one process, not 40 shells.
//
//   node run.js [--uri URI] --db DB --collection C --mode capped|changestream
//                --subscribers N --publishers P --rate MSGS_PER_S --seconds S
//                --run-tag TAG --out FILE [--pids 1,2] [--first-batch 1]
//                [--max-await-ms 1000] [--write-concern 1|majority] [--drain-seconds 10]
//                [--idle-seconds 2]
//
// capped: each subscriber tails the capped collection with raw find/getMore
// commands (tailable, awaitData) in a session of its own, from the time it
// started (the article's consumer: {time: {$gte: new Date()}}). A dead cursor
// or CappedPositionLost makes it reopen from the last time it saw, and the
// Tracker counts gaps. changestream: each subscriber watches a normal
// collection (the comparison the article does not make).
// Without --uri the connection string comes from DBA_LAB_CONN_URI: how the
// playbook passes one that has a password (never on a command line).
// Writes one JSON result to --out; exit 0 also when change streams are not
// supported (the result says so), 1 on errors, 2 on bad arguments.
const fs = require('fs');
const path = require('path');
const { performance, monitorEventLoopDelay } = require('perf_hooks');
const { execFileSync } = require('child_process');
const model = require(path.resolve(__dirname, 'model.js'));
const stats = require(path.resolve(__dirname, '../../js/stats.js'));

const CAPPED_POSITION_LOST = 136;
// The cursor is gone and reopening is the answer (error_codes.yml).
const CURSOR_GONE = new Set([CAPPED_POSITION_LOST, 43 /* CursorNotFound */, 175 /* QueryPlanKilled */, 237 /* CursorKilled */]);
const TICKERS = ['PIP', 'ACME', 'INIT', 'MDB', 'KEY', 'LAB', 'OPS', 'DBA'];

function usage(msg) {
  process.stderr.write(`run.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = {
    firstBatch: 1, maxAwaitMs: 1000, writeConcern: '1', drainSeconds: 10, idleSeconds: 2, pids: [], reopenPauseMs: 50,
  };
  const ints = {
    '--subscribers': 'subscribers', '--publishers': 'publishers', '--first-batch': 'firstBatch',
    '--max-await-ms': 'maxAwaitMs', '--drain-seconds': 'drainSeconds', '--idle-seconds': 'idleSeconds',
  };
  const nums = { '--rate': 'rate', '--seconds': 'seconds' };
  const strs = {
    '--uri': 'uri', '--db': 'db', '--collection': 'collection', '--mode': 'mode', '--run-tag': 'tag',
    '--out': 'out', '--write-concern': 'writeConcern',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) usage(`${flag} needs a value`);
    if (ints[flag]) {
      if (!/^\d+$/.test(value)) usage(`${flag} expects a whole number, got '${value}'`);
      o[ints[flag]] = Number(value);
    } else if (nums[flag]) {
      if (!(Number(value) > 0)) usage(`${flag} expects a positive number, got '${value}'`);
      o[nums[flag]] = Number(value);
    } else if (strs[flag]) {
      o[strs[flag]] = value;
    } else if (flag === '--pids') {
      o.pids = value === '' ? [] : value.split(',').map((p) => {
        if (!/^\d+$/.test(p)) usage(`--pids expects process ids such as 123,456, got '${value}'`);
        return Number(p);
      });
    } else {
      usage(`unknown option ${flag}`);
    }
  }
  if (o.uri === undefined && process.env.DBA_LAB_CONN_URI) o.uri = process.env.DBA_LAB_CONN_URI;
  if (o.uri === undefined) usage('--uri is required (or DBA_LAB_CONN_URI in the environment)');
  for (const k of ['db', 'collection', 'mode', 'tag', 'out', 'subscribers', 'publishers', 'rate', 'seconds']) {
    if (o[k] === undefined) usage(`--${k === 'tag' ? 'run-tag' : k} is required`);
  }
  if (!['capped', 'changestream'].includes(o.mode)) usage(`--mode must be capped or changestream, got '${o.mode}'`);
  if (o.subscribers < 1 || o.publishers < 1) usage('--subscribers and --publishers must be at least 1');
  if (o.firstBatch < 1) usage('--first-batch must be at least 1');
  if (!['1', 'majority'].includes(o.writeConcern)) usage(`--write-concern must be 1 or majority, got '${o.writeConcern}'`);
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isZero = (id) => id === 0 || id === 0n || (id && typeof id.isZero === 'function' && id.isZero());

// ---- server CPU: the OS for known processes, else serverStatus -------------

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function procReader(pids) {
  const hz = clockTicks();
  return () => pids.reduce((a, pid) => a + model.parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) / hz, 0);
}

function psReader(pids) {
  return () => pids.reduce((a, pid) => a + model.parsePsCputime(execFileSync('ps', ['-o', 'cputime=', '-p', String(pid)], { encoding: 'utf8' })), 0);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

async function cpuSource(client, pids) {
  if (pids.length) {
    if (pids.every((p) => fs.existsSync(`/proc/${p}/stat`))) return { source: 'proc', pids, read: procReader(pids) };
    try {
      psReader(pids)();
      return { source: 'ps', pids, read: psReader(pids) };
    } catch { /* fall through to serverStatus */ }
  }
  const admin = client.db('admin');
  const status = await admin.command({ serverStatus: 1 });
  // A server on this machine: its own pid, when that process really is it
  // (a container's pid means another process here, so the name must match).
  const hosts = client.options.hosts.map((h) => String(h.host || h).replace(/:\d+$/, ''));
  const pid = status.pid === undefined ? null : Number(status.pid);
  if (pid && hosts.every((h) => LOOPBACK.has(h)) && fs.existsSync(`/proc/${pid}/comm`)) {
    const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const name = path.basename(String(status.process || ''));
    if (comm && name.startsWith(comm)) return { source: 'proc (serverStatus pid)', pids: [pid], read: procReader([pid]) };
  }
  if (model.serverStatusCpuSeconds(status) !== null) {
    return {
      source: 'serverStatus extra_info',
      pids: [],
      read: async () => model.serverStatusCpuSeconds(await admin.command({ serverStatus: 1 })),
    };
  }
  return { source: 'none', pids: [], read: async () => null };
}

// ---- subscribers --------------------------------------------------------------

async function tailCapped(client, o, since, sub, state) {
  const db = client.db(o.db);
  const session = client.startSession();
  const cmd = (c) => db.command(c, { session, promoteLongs: false });
  let filter = { run: o.tag, time: { $gte: since } };
  try {
    while (!state.stop) {
      let reason = 'dead cursor';
      let res;
      try {
        res = await cmd({ find: o.collection, filter, tailable: true, awaitData: true, batchSize: o.firstBatch });
      } catch (e) {
        if (!CURSOR_GONE.has(e.code)) throw e;
        sub.ready();
        const from = sub.tracker.reopened(e.codeName || String(e.code));
        if (from && from > since) filter = { run: o.tag, time: { $gte: from } };
        continue;
      }
      sub.ready();
      let batch = res.cursor.firstBatch;
      let id = res.cursor.id;
      for (;;) {
        for (const doc of batch) sub.deliver(doc);
        if (isZero(id)) break;
        if (state.stop) {
          await cmd({ killCursors: o.collection, cursors: [id] }).catch(() => {});
          break;
        }
        try {
          const g = await cmd({ getMore: id, collection: o.collection, maxTimeMS: o.maxAwaitMs });
          batch = g.cursor.nextBatch;
          id = g.cursor.id;
        } catch (e) {
          if (!CURSOR_GONE.has(e.code)) throw e;
          reason = e.codeName || String(e.code);
          break;
        }
      }
      if (state.stop) break;
      const from = sub.tracker.reopened(reason);
      if (from && from > since) filter = { run: o.tag, time: { $gte: from } };
      // A dead cursor (nothing to tail yet) is retried after a pause, as
      // MongoDB's tailable cursor docs advise; a lost position at once.
      if (reason === 'dead cursor') await sleep(o.reopenPauseMs);
    }
  } finally {
    await session.endSession().catch(() => {});
  }
}

async function watchStream(client, o, sub, state) {
  const coll = client.db(o.db).collection(o.collection);
  const stream = coll.watch([{ $match: { operationType: 'insert', 'fullDocument.run': o.tag } }], { maxAwaitTimeMS: o.maxAwaitMs });
  stream.on('resumeTokenChanged', () => {});
  try {
    // The first tryNext opens the stream: the start point is fixed from here.
    let ev = await stream.tryNext();
    sub.ready();
    for (;;) {
      if (ev) sub.deliver(ev.fullDocument);
      if (state.stop) break;
      ev = await stream.tryNext();
    }
  } finally {
    await stream.close().catch(() => {});
  }
}

async function changeStreamSupport(client, o) {
  const db = client.db(o.db);
  try {
    const r = await db.command({ aggregate: o.collection, pipeline: [{ $changeStream: {} }], cursor: {} }, { promoteLongs: false });
    if (!isZero(r.cursor.id)) await db.command({ killCursors: o.collection, cursors: [r.cursor.id] }).catch(() => {});
    return null;
  } catch (e) {
    return `${e.codeName || 'error'}${e.code !== undefined ? ` (${e.code})` : ''}: ${e.message}`;
  }
}

// ---- publishers ---------------------------------------------------------------

async function publisher(coll, o, p, count, t0, intervalMs, latencies, state) {
  for (let seq = 0; seq < count; seq++) {
    const due = t0 + seq * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const doc = {
      time: new Date(), ticker: TICKERS[p % TICKERS.length], price: 100 * Math.random(), pub: p, seq, run: o.tag, sentAt: performance.now(),
    };
    const start = performance.now();
    state.lastStart = Math.max(state.lastStart, start);
    await coll.insertOne(doc);
    latencies.push(performance.now() - start);
    state.published[p] = seq + 1;
  }
}

// ---- one sweep point ----------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(o.uri, {
    maxPoolSize: o.subscribers + o.publishers + 4,
    writeConcern: { w: o.writeConcern === 'majority' ? 'majority' : 1 },
    serverSelectionTimeoutMS: 30000,
  });
  await client.connect();
  const result = {
    mode: o.mode, subscribers: o.subscribers, publishers: o.publishers, rate: o.rate, seconds: o.seconds,
    writeConcern: o.writeConcern, firstBatch: o.firstBatch, maxAwaitMs: o.maxAwaitMs, supported: true,
  };
  try {
    if (o.mode === 'changestream') {
      const why = await changeStreamSupport(client, o);
      if (why) {
        result.supported = false;
        result.error = why;
        fs.writeFileSync(o.out, JSON.stringify(result));
        process.stderr.write(`change streams are not available here: ${why}\n`);
        return;
      }
    }
    const state = { stop: false, published: new Array(o.publishers).fill(0), lastStart: 0 };
    const deliveryMs = [];
    const subs = [];
    const readyAll = [];
    for (let i = 0; i < o.subscribers; i++) {
      const tracker = new model.Tracker(o.publishers);
      let ready;
      readyAll.push(new Promise((r) => { ready = r; }));
      subs.push({
        tracker,
        ready,
        deliver(doc) {
          const now = performance.now();
          if (tracker.receive(doc) === 'new') deliveryMs.push(now - doc.sentAt);
        },
      });
    }
    const since = new Date();
    const tasks = subs.map((s) => (o.mode === 'capped' ? tailCapped(client, o, since, s, state) : watchStream(client, o, s, state)));
    const failed = Promise.all(tasks).then(() => null, (e) => e);
    await Promise.race([Promise.all(readyAll), failed.then((e) => { if (e) throw e; })]);

    const cpu = await cpuSource(client, o.pids);
    // Server CPU while every subscriber waits in getMore and nothing is
    // published: what listening itself costs.
    let idle = null;
    if (o.idleSeconds > 0) {
      const i0 = await cpu.read();
      const ti = performance.now();
      await Promise.race([sleep(o.idleSeconds * 1000), failed.then((e) => { if (e) throw e; })]);
      const i1 = await cpu.read();
      idle = { seconds: (performance.now() - ti) / 1000, cpuSeconds: i0 === null || i1 === null ? null : i1 - i0 };
    }
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const client0 = process.cpuUsage();
    const cpu0 = await cpu.read();

    const coll = client.db(o.db).collection(o.collection);
    const total = Math.max(o.publishers, Math.round(o.rate * o.seconds));
    const perPub = Array.from({ length: o.publishers }, (_, p) => Math.floor(total / o.publishers) + (p < total % o.publishers ? 1 : 0));
    const intervalMs = (1000 * o.publishers) / o.rate;
    const publishMs = [];
    const t0 = performance.now();
    const ticker = setInterval(() => {
      const pub = state.published.reduce((a, b) => a + b, 0);
      const got = subs.reduce((a, s) => a + s.tracker.received, 0);
      // A progress line (playbooks/lib/log.sh): the playbook's ticker shows it.
      process.stderr.write(`progress: ${pub}/${total} published, ${got}/${total * o.subscribers} delivered\n`);
    }, 2000);
    try {
      await Promise.race([
        Promise.all(perPub.map((n, p) => publisher(coll, o, p, n, t0 + (p * intervalMs) / o.publishers, intervalMs, publishMs, state))),
        failed.then((e) => { if (e) throw e; }),
      ]);
      const t1 = performance.now();
      const deadline = t1 + o.drainSeconds * 1000;
      while (subs.some((s) => s.tracker.received < total) && performance.now() < deadline) {
        const e = await Promise.race([failed, sleep(20).then(() => undefined)]);
        if (e) throw e;
      }
      const t2 = performance.now();
      const cpu1 = await cpu.read();
      const clientCpu = process.cpuUsage(client0);
      loop.disable();
      state.stop = true;
      const err = await failed;
      if (err) throw err;

      const trackers = subs.map((s) => s.tracker);
      const reopens = {};
      trackers.forEach((t) => Object.entries(t.reopens).forEach(([k, v]) => { reopens[k] = (reopens[k] || 0) + v; }));
      Object.assign(result, {
        published: total,
        publishSeconds: (t1 - t0) / 1000,
        // The schedule's span: n messages take n slots of 1/rate seconds.
        scheduleSeconds: (state.lastStart - t0) / 1000 + 1 / o.rate,
        drainSeconds: (t2 - t1) / 1000,
        publish: stats.summary(publishMs),
        delivery: deliveryMs.length ? stats.summary(deliveryMs) : null,
        received: trackers.reduce((a, t) => a + t.received, 0),
        lost: trackers.reduce((a, t) => a + t.lost(perPub), 0),
        duplicates: trackers.reduce((a, t) => a + t.duplicates, 0),
        overlap: trackers.reduce((a, t) => a + t.overlap, 0),
        gaps: trackers.reduce((a, t) => a + t.gaps, 0),
        outOfOrder: trackers.reduce((a, t) => a + t.outOfOrder, 0),
        gapMessages: trackers.reduce((a, t) => a + t.gapMessages, 0),
        reopens: trackers.reduce((a, t) => a + t.reopenCount(), 0),
        reopenReasons: reopens,
        cpu: { source: cpu.source, pids: cpu.pids, seconds: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 },
        idle,
        client: {
          cpuSeconds: (clientCpu.user + clientCpu.system) / 1e6,
          loopLagP99Ms: loop.percentile(99) / 1e6,
        },
        latencies: { publishMs: publishMs.map((x) => model.round(x, 3)) },
      });
      if (deliveryMs.length <= 200000) result.latencies.deliveryMs = deliveryMs.map((x) => model.round(x, 3));
    } finally {
      clearInterval(ticker);
      state.stop = true;
    }
    fs.writeFileSync(o.out, JSON.stringify(result));
    // The point's last progress line: the playbook keeps it on the line that
    // says the point is done, once the ticker is gone.
    process.stderr.write(`progress: ${result.published}/${total} published, ${result.received}/${total * o.subscribers} delivered, ${result.lost} lost, ${result.duplicates} duplicated, p99 publish ${model.round(result.publish.p99, 2)} ms\n`);
  } finally {
    await client.close();
  }
}

main().catch((e) => {
  process.stderr.write(`run.js: ${e.codeName ? `${e.codeName}: ` : ''}${e.message}\n`);
  process.exit(1);
});
