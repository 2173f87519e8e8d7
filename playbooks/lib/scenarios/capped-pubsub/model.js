'use strict';
// capped-pubsub: the parts of the measurement that need no server, so tests
// can run them on recorded numbers. Plain CommonJS, used by run.js (node),
// measure.js (mongosh --nodb) and checker.js.
const path = require('path');
const stats = require(path.resolve(__dirname, '../../js/stats.js'));

// ---- delivery bookkeeping of one subscriber --------------------------------

// Publishers number their messages 0, 1, 2, ... and await each insert before
// the next, so one publisher's messages enter the capped collection in seq
// order and a tailing cursor meets them in that order. A subscriber whose
// cursor is gone (CappedPositionLost, a dead cursor) reopens from the time of
// the newest message it saw, less a margin: a publisher stamps `time` before
// its insert, so a slow insert can land after a message stamped later. What
// it meets again from before that time is the reopen overlap, not a
// duplicate. The first message of a publisher after a reopen that skips seqs
// is a gap: messages the ring buffer overwrote before this subscriber read
// them. A skip without a reopen is out-of-order delivery (the final `lost`
// count says whether the skipped ones came later).
class Tracker {
  constructor(publishers, { marginMs = 1000 } = {}) {
    if (!(publishers >= 1)) throw new Error('Tracker: publishers must be >= 1');
    this.marginMs = marginMs;
    this.seen = Array.from({ length: publishers }, () => new Set());
    this.next = new Array(publishers).fill(0);
    this.sinceReopen = new Array(publishers).fill(false);
    this.received = 0; // distinct messages
    this.duplicates = 0;
    this.overlap = 0;
    this.outOfOrder = 0;
    this.gaps = 0; // gap events
    this.gapMessages = 0; // messages skipped by those gaps
    this.reopens = {};
    this.lastTime = null; // Date of the newest message seen
    this.overlapUntil = null; // after a reopen: seen messages up to this time may repeat
  }

  // Returns 'new', 'overlap' or 'duplicate'.
  receive(doc) {
    const p = doc.pub;
    const seq = doc.seq;
    if (!Number.isInteger(p) || p < 0 || p >= this.seen.length || !Number.isInteger(seq) || seq < 0) {
      throw new Error(`Tracker: message without a valid pub/seq (${JSON.stringify({ pub: p, seq })})`);
    }
    const time = doc.time instanceof Date ? doc.time : new Date(doc.time);
    if (this.seen[p].has(seq)) {
      if (this.overlapUntil !== null && time.getTime() <= this.overlapUntil) {
        this.overlap++;
        return 'overlap';
      }
      this.duplicates++;
      return 'duplicate';
    }
    if (seq > this.next[p]) {
      if (this.sinceReopen[p]) {
        this.gaps++;
        this.gapMessages += seq - this.next[p];
      } else {
        this.outOfOrder++;
      }
    }
    this.sinceReopen[p] = false;
    if (seq >= this.next[p]) this.next[p] = seq + 1;
    this.seen[p].add(seq);
    this.received++;
    if (this.lastTime === null || time > this.lastTime) this.lastTime = time;
    return 'new';
  }

  // The cursor is gone (reason: 'CappedPositionLost', 'dead cursor', an error
  // code name). Returns the Date to reopen from ({time: {$gte: it}}), or null
  // when nothing was seen yet (reopen from the start time).
  reopened(reason) {
    this.reopens[reason] = (this.reopens[reason] || 0) + 1;
    this.sinceReopen.fill(true);
    if (this.lastTime === null) return null;
    this.overlapUntil = this.lastTime.getTime();
    return new Date(this.lastTime.getTime() - this.marginMs);
  }

  reopenCount() {
    return Object.values(this.reopens).reduce((a, b) => a + b, 0);
  }

  // Messages of `published` (seq counts per publisher) never received.
  lost(published) {
    let lost = 0;
    published.forEach((count, p) => {
      for (let s = 0; s < count; s++) if (!this.seen[p].has(s)) lost++;
    });
    return lost;
  }
}

// ---- server CPU --------------------------------------------------------------

// utime + stime of /proc/PID/stat in clock ticks. The command name (field 2)
// is in parentheses and may hold spaces or parentheses: split after the last ')'.
function parseProcStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error('parseProcStat: not a /proc/PID/stat line');
  const fields = text.slice(close + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state); utime is field 14, stime field 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('parseProcStat: no utime/stime');
  return utime + stime;
}

// `ps -o cputime=` ([[dd-]hh:]mm:ss[.ss]) in seconds, for systems without /proc.
function parsePsCputime(text) {
  const m = /^\s*(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) throw new Error(`parsePsCputime: cannot read '${text.trim()}'`);
  return (Number(m[1] || 0) * 86400) + (Number(m[2] || 0) * 3600) + (Number(m[3]) * 60) + Number(m[4]);
}

// serverStatus().extra_info user_time_us + system_time_us in seconds, or null
// where the server does not report them.
function serverStatusCpuSeconds(status) {
  const x = status && status.extra_info;
  if (!x || x.user_time_us === undefined || x.system_time_us === undefined) return null;
  return (Number(x.user_time_us) + Number(x.system_time_us)) / 1e6;
}

// ---- report rows ---------------------------------------------------------------

function round(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// The article's "Statistics | Value" rows ("Mean 2.848 milliseconds"),
// milliseconds to three decimals, the runtime to two.
function articleRows(summary, runtimeSeconds) {
  const ms = (v) => `${round(v, 3)} milliseconds`;
  return [
    ['Runtime', `${round(runtimeSeconds, 2)} seconds`],
    ['Mean', ms(summary.mean)],
    ['Standard Deviation', ms(summary.stddev)],
    ['75 percentile', ms(summary.p75)],
    ['95 percentile', ms(summary.p95)],
    ['99 percentile', ms(summary.p99)],
    ['Minimum', ms(summary.min)],
    ['Maximum', ms(summary.max)],
  ];
}

// One sweep point's result file (load.js) as the rows of the report tables.
function pointRows(r) {
  const pub = r.publish;
  const del = r.delivery;
  const published = r.published;
  const deliveries = published * r.subscribers;
  const cpu = r.cpu && Number.isFinite(r.cpu.seconds) ? r.cpu.seconds : null;
  return {
    publish: {
      mode: r.mode,
      subscribers: r.subscribers,
      messages: published,
      runtime_s: round(r.publishSeconds, 2),
      rate_per_s: round(published / r.scheduleSeconds, 1),
      target_per_s: r.rate,
      mean_ms: round(pub.mean),
      stddev_ms: round(pub.stddev),
      p75_ms: round(pub.p75),
      p95_ms: round(pub.p95),
      p99_ms: round(pub.p99),
      min_ms: round(pub.min),
      max_ms: round(pub.max),
    },
    delivery: {
      mode: r.mode,
      subscribers: r.subscribers,
      expected: deliveries,
      received: r.received,
      lost: r.lost,
      duplicated: r.duplicates,
      gaps: r.gaps,
      reopens: r.reopens,
      mean_ms: del ? round(del.mean) : null,
      p50_ms: del ? round(del.p50) : null,
      p95_ms: del ? round(del.p95) : null,
      p99_ms: del ? round(del.p99) : null,
      max_ms: del ? round(del.max) : null,
    },
    cpu: {
      mode: r.mode,
      subscribers: r.subscribers,
      server_cpu_s: round(cpu, 3),
      cpu_ms_per_msg: cpu === null ? null : round((cpu * 1000) / published, 4),
      cpu_us_per_delivery: cpu === null ? null : round((cpu * 1e6) / deliveries, 2),
      source: r.cpu ? r.cpu.source : 'none',
      client_cpu_s: round(r.client.cpuSeconds, 3),
      loop_lag_p99_ms: round(r.client.loopLagP99Ms, 2),
      idle_cpu_pct: r.idle && Number.isFinite(r.idle.cpuSeconds) ? round((100 * r.idle.cpuSeconds) / r.idle.seconds, 1) : null,
    },
  };
}

// ---- CPU against listeners ----------------------------------------------------

// Server CPU per published message against the subscriber count, fitted
// (stats.growth) and told as its rise from the fewest subscribers to the most
// (cpuTrend), the words the claim is judged in: a "flat" by the share of the
// mean could sit beside figures that rise 64%. points: [{subscribers,
// cpuMsPerMsg}]. fit null with a reason when it cannot be fitted: no CPU
// figures, or fewer than two subscriber counts.
function cpuGrowth(points, { tolerance = 0.5 } = {}) {
  const usable = points.filter((p) => Number.isFinite(p.cpuMsPerMsg));
  if (usable.length < 2 || new Set(usable.map((p) => p.subscribers)).size < 2) {
    return {
      fit: null,
      reason: usable.length < points.length
        ? 'no server CPU figures (no readable process and no serverStatus extra_info CPU times)'
        : 'needs at least two subscriber counts (--subscribers 1,10,40)',
    };
  }
  const xs = usable.map((p) => p.subscribers);
  const g = stats.growth(xs, usable.map((p) => p.cpuMsPerMsg), { tolerance });
  const trend = cpuTrend(g, xs);
  return { fit: g, trend, description: trend.text };
}

// The fitted line from the fewest subscribers to the most, in the words the
// claim is judged by: {rise (a share of the start; Infinity where the line
// starts at 0 or below and rises), text}.
function cpuTrend(fit, subscribers) {
  const lo = Math.min(...subscribers);
  const hi = Math.max(...subscribers);
  const from = fit.intercept + fit.slope * lo;
  const to = fit.intercept + fit.slope * hi;
  let rise;
  if (from > 0) rise = (to - from) / from;
  else rise = to > from ? Infinity : 0;
  const share = Number.isFinite(rise) ? `${rise < 0 ? '-' : '+'}${round(Math.abs(rise) * 100, 0)}%` : 'from 0 or less';
  return {
    rise,
    text: `${to >= from ? 'rises' : 'falls'} ${share} from ${lo} to ${hi} subscribers: fitted ${round(from, 4)} -> ${round(to, 4)} ms per message`
      + ` (slope ${round(fit.slope * 1000, 2)} us per message per subscriber, r2 ${round(fit.r2, 2)})`,
  };
}

module.exports = {
  Tracker,
  parseProcStat,
  parsePsCputime,
  serverStatusCpuSeconds,
  articleRows,
  pointRows,
  cpuGrowth,
  round,
};
