'use strict';
// Pure shaping for chunkSummary: config documents and log lines in, a summary
// out. No server access here, so recorded documents and logs can be fed in.

const { num } = require('./stats-shape.js');

// How config.chunks refers to a collection. 5.0 keyed chunks by the
// collection's UUID and added `timestamp` to its config.collections entry;
// before (and at FCV 4.4 on 5.0) chunks carry `ns`. The same rule as
// jstests/sharding/libs/find_chunks_util.js (5.0-7.x): uuid when the entry has
// a timestamp, else ns. (support-tools' chunk script queried {ns} only and
// came back empty on 5.0+.)
function chunkQuery(collection) {
  if (collection.timestamp !== undefined && collection.uuid !== undefined) return { uuid: collection.uuid };
  return { ns: collection._id };
}

// perShard: [{_id: shard, chunks, jumbo}] ($group output); shards: every
// shard name in config.shards (a shard without chunks counts as 0).
function summarize({ collection, perShard, shards = [], jumboChunks = [] }) {
  const counts = new Map();
  for (const name of shards) counts.set(String(name), { chunks: 0, jumbo: 0 });
  for (const g of perShard) counts.set(String(g._id), { chunks: num(g.chunks) || 0, jumbo: num(g.jumbo) || 0 });
  const total = [...counts.values()].reduce((a, c) => a + c.chunks, 0);
  const rows = [...counts.entries()]
    .map(([shard, c]) => ({ shard, chunks: c.chunks, jumbo: c.jumbo, percent: total ? Math.round((1000 * c.chunks) / total) / 10 : 0 }))
    .sort((a, b) => b.chunks - a.chunks || a.shard.localeCompare(b.shard));
  const per = rows.map((r) => r.chunks);
  const q = chunkQuery(collection);
  return {
    ns: collection._id,
    keyedBy: q.uuid !== undefined ? 'uuid' : 'ns',
    ...(collection.uuid !== undefined ? { uuid: collection.uuid } : {}),
    shardKey: collection.key,
    unique: Boolean(collection.unique),
    chunks: total,
    jumbo: rows.reduce((a, r) => a + r.jumbo, 0),
    shards: rows,
    perShard: rows.length
      ? { min: Math.min(...per), max: Math.max(...per), avg: Math.round((10 * total) / rows.length) / 10 }
      : { min: 0, max: 0, avg: 0 },
    jumboChunks: jumboChunks.map((c) => ({ shard: c.shard, min: c.min, max: c.max })),
  };
}

// A chunk version as the logs print it: major|minor||epoch; undefined for
// none. The servers log it as ChunkVersion::toBSON ({"0": Timestamp(major,
// minor), "1": epoch, ...}, or {v, e, t}), wrapped in a ComparableChunkVersion
// ({chunkVersion: ... or "None", ...}); newer ones log a ComparableChunkVersion
// as its toString(), a string: "{ chunkVersion: { e: ObjectId('...'), t:
// Timestamp(...), v: Timestamp(major, minor) }, ... }".
function versionText(v) {
  if (v === undefined || v === null || v === 'None') return undefined;
  if (typeof v === 'string') {
    const text = v.trim().replace(/^from version /, '');
    if (text === '' || /chunkVersion: "None"/.test(text)) return undefined;
    const major = /\bv: Timestamp\((\d+), (\d+)\)/.exec(text);
    const epoch = /\be: ObjectId\('([0-9a-f]{24})'\)/.exec(text);
    if (major && epoch) return `${major[1]}|${major[2]}||${epoch[1]}`;
    const plain = /^\d+\|\d+\|\|[0-9a-f]{24}/.exec(text);
    return plain ? plain[0] : text;
  }
  if (v.chunkVersion !== undefined) return versionText(v.chunkVersion);
  const [place, id] = v['0'] !== undefined ? [v['0'], v['1']] : [v.v, v.e];
  const ts = place && (place.$timestamp || place);
  const epoch = id && (id.$oid || id);
  if (ts && ts.t !== undefined && ts.i !== undefined && typeof epoch === 'string') return `${ts.t}|${ts.i}||${epoch}`;
  return JSON.stringify(v);
}

const TEXT_REFRESH = /^(.*?)\s+\w\s+SH_REFR\s+\[[^\]]*\]\s+Refresh for collection (\S+)(?: from version (\S+))? to version (\S+) took (\d+) ?ms/;

// Routing refreshes of `ns` in log lines (getLog 'global' or a log file):
// JSON (4.4+: id 4619901 "Refreshed cached collection", or any SH_REFR line
// with attr.namespace and attr.durationMillis) and the legacy text form
// (<= 4.2: "Refresh for collection NS from version A to version B took N ms").
function parseRefreshLines(lines, ns) {
  const out = [];
  for (const raw of lines) {
    const line = String(raw).trim();
    if (line.startsWith('{')) {
      let e;
      try { e = JSON.parse(line); } catch (err) { continue; }
      const a = e.attr || {};
      if (e.c !== 'SH_REFR' || a.namespace !== ns || a.durationMillis === undefined) continue;
      out.push({
        t: e.t && (e.t.$date || e.t),
        durationMillis: Number(a.durationMillis),
        // A 5.0-era 4619901 (and 4.4's 24104) logs oldVersion instead.
        from: versionText(a.lookupSinceVersion !== undefined ? a.lookupSinceVersion : a.oldVersion),
        to: versionText(a.newVersion),
        format: 'json',
        id: e.id,
      });
    } else {
      const m = TEXT_REFRESH.exec(line);
      if (!m || m[2] !== ns) continue;
      out.push({ t: m[1], durationMillis: Number(m[5]), from: m[3], to: m[4], format: 'text' });
    }
  }
  return out;
}

function refreshStats(entries, keep = 10) {
  if (entries.length === 0) return { count: 0, entries: [] };
  const d = entries.map((e) => e.durationMillis).sort((a, b) => a - b);
  return {
    count: d.length,
    minMillis: d[0],
    medianMillis: d.length % 2 ? d[(d.length - 1) / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2,
    maxMillis: d[d.length - 1],
    avgMillis: Math.round(d.reduce((a, b) => a + b, 0) / d.length),
    entries: entries.slice(-keep),
  };
}

function render(s) {
  const lines = [];
  if (s.chunks !== undefined) {
    lines.push(`${s.ns}: ${s.chunks.toLocaleString('en-US')} chunks on ${s.shards.length} shard(s), shard key ${JSON.stringify(s.shardKey)}${s.unique ? ' (unique)' : ''}, config.chunks keyed by ${s.keyedBy}`);
    lines.push(`per shard: min ${s.perShard.min}, max ${s.perShard.max}, avg ${s.perShard.avg}; jumbo ${s.jumbo}`);
    const w = Math.max(5, ...s.shards.map((r) => r.shard.length));
    lines.push(`  ${'shard'.padEnd(w)}  ${'chunks'.padStart(10)}  ${'%'.padStart(5)}  jumbo`);
    for (const r of s.shards) {
      lines.push(`  ${r.shard.padEnd(w)}  ${r.chunks.toLocaleString('en-US').padStart(10)}  ${r.percent.toFixed(1).padStart(5)}  ${r.jumbo}`);
    }
  } else {
    lines.push(`${s.ns}: ${s.note}`);
  }
  const r = s.refresh;
  if (r && r.error) lines.push(`routing refreshes: ${r.error}`);
  else if (r && r.count) {
    lines.push(`routing refreshes in the log: ${r.count}, min ${r.minMillis} ms, median ${r.medianMillis} ms, max ${r.maxMillis} ms`);
    for (const e of r.entries) lines.push(`  ${e.t}  ${String(e.durationMillis).padStart(6)} ms  ${e.from || '?'} -> ${e.to || '?'}`);
  } else if (r) lines.push('routing refreshes in the log: none for this namespace (only level-0 refreshes reach getLog)');
  return lines.join('\n');
}

module.exports = { chunkQuery, summarize, parseRefreshLines, refreshStats, versionText, render };
