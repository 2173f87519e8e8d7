'use strict';
// Pure shaping for collStatsSummary: $collStats documents in, rows out, and
// the aligned table. No server access here, so recorded outputs can be fed in.

// Size fields the scale divides (the server's own storageStats scale rounds
// them down the same way); avgObjSize is never scaled.
const SIZE_FIELDS = ['size', 'storageSize', 'freeStorageSize', 'totalIndexSize', 'totalSize', 'maxSize'];
const SORTABLE = ['ns', 'count', 'size', 'avgObjSize', 'storageSize', 'freeStorageSize', 'nindexes', 'totalIndexSize', 'totalSize'];
const UNITS = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

// Counts and sizes are 64-bit on the server: they are held as BigInt here
// (exact, comparable, summable) and become the shell's Long in the result.
const EXACT_FIELDS = ['count', 'size', 'storageSize', 'freeStorageSize', 'totalIndexSize', 'totalSize', 'max', 'maxSize', 'orphans', 'buckets'];

// The largest Long: what a capped collection created without a document
// limit may report as its max; like 0 (no max given, newer servers) it means
// no limit, and such a max is left out of the row.
const LONG_MAX = 2n ** 63n - 1n;

// Long, Int32, Double, Decimal128, number or bigint -> exact BigInt (undefined
// stays; a fraction is cut toward zero).
function exact(x) {
  if (x === undefined || x === null) return undefined;
  if (typeof x === 'bigint') return x;
  if (typeof x.toBigInt === 'function') return x.toBigInt();
  if (x._bsontype === 'Decimal128') {
    const m = /^(-?\d+)/.exec(x.toString());
    return m ? BigInt(m[1]) : undefined;
  }
  const v = typeof x === 'number' ? x : Number(x.valueOf());
  return Number.isFinite(v) ? BigInt(Math.trunc(v)) : undefined;
}

// A capped max that is a real document limit, or undefined for 'no limit'.
function cappedMax(x) {
  const v = exact(x);
  return v === undefined || v <= 0n || v >= LONG_MAX ? undefined : v;
}

// Long, Int32, Double, Decimal128 or number -> number (undefined stays), for
// small values (index counts, options).
function num(x) {
  if (x === undefined || x === null) return undefined;
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  if (typeof x.toNumber === 'function') return x.toNumber();
  if (typeof x.toString === 'function' && x._bsontype === 'Decimal128') return Number(x.toString());
  const v = Number(x.valueOf());
  return Number.isNaN(v) ? undefined : v;
}

// One $collStats output (one document per shard on a sharded cluster) into
// rows: one per shard, plus a total row when more than one shard answered.
function rowsFromCollStats(docs, meta = {}) {
  const list = Array.isArray(docs) ? docs : [docs];
  const rows = list.map((d) => {
    const s = d.storageStats || {};
    const row = {
      ns: d.ns || meta.ns,
      type: meta.type || (s.timeseries ? 'timeseries' : 'collection'),
      count: exact(s.count),
      size: exact(s.size),
      avgObjSize: num(s.avgObjSize),
      storageSize: exact(s.storageSize),
      freeStorageSize: exact(s.freeStorageSize),
      nindexes: num(s.nindexes),
      totalIndexSize: exact(s.totalIndexSize),
      totalSize: exact(s.totalSize),
      capped: Boolean(s.capped),
    };
    if (d.shard !== undefined) row.shard = String(d.shard);
    if (s.capped) {
      const max = cappedMax(s.max);
      if (max !== undefined) row.max = max;
      if (s.maxSize !== undefined) row.maxSize = exact(s.maxSize);
    }
    if (s.numOrphanDocs !== undefined) row.orphans = exact(s.numOrphanDocs);
    if (s.timeseries) {
      row.type = 'timeseries';
      row.bucketsNs = s.timeseries.bucketsNs;
      row.buckets = exact(s.timeseries.bucketCount);
    } else if (meta.bucketsNs) {
      row.bucketsNs = meta.bucketsNs;
    }
    if (s.indexSizes) {
      row.indexSizes = {};
      for (const [k, v] of Object.entries(s.indexSizes)) row.indexSizes[k] = exact(v);
    }
    return row;
  });
  if (rows.length > 1) rows.push(totalRow(rows));
  return rows;
}

function totalRow(rows) {
  const sum = (f) => {
    let any = false;
    let t = 0n;
    for (const r of rows) if (r[f] !== undefined) { any = true; t += r[f]; }
    return any ? t : undefined;
  };
  const total = {
    ns: rows[0].ns,
    type: rows[0].type,
    shard: 'total',
    count: sum('count'),
    size: sum('size'),
    avgObjSize: undefined,
    storageSize: sum('storageSize'),
    freeStorageSize: sum('freeStorageSize'),
    // Unknown is not zero: with no shard reporting it, the total has none.
    nindexes: rows.some((r) => r.nindexes !== undefined)
      ? Math.max(...rows.filter((r) => r.nindexes !== undefined).map((r) => r.nindexes)) : undefined,
    totalIndexSize: sum('totalIndexSize'),
    totalSize: sum('totalSize'),
    capped: rows.some((r) => r.capped),
  };
  total.avgObjSize = total.count && total.size !== undefined ? Number((total.size + total.count / 2n) / total.count) : undefined;
  if (rows.some((r) => r.orphans !== undefined)) total.orphans = sum('orphans');
  if (rows[0].bucketsNs) total.bucketsNs = rows[0].bucketsNs;
  return total;
}

// scale: a number (1024) or a unit ('KB', 'MB', 'GB', 'TB'); null when invalid.
function parseScale(scale) {
  if (scale === undefined) return 1;
  if (typeof scale === 'number') return Number.isFinite(scale) && scale >= 1 ? Math.floor(scale) : null;
  if (typeof scale === 'string') {
    const u = scale.trim().toUpperCase().replace(/IB$/, 'B');
    return UNITS[u] || null;
  }
  return null;
}

// sort: 'storageSize' (numbers descending, ns ascending) or {field: 1|-1};
// null when invalid.
function parseSort(sort) {
  if (sort === undefined) return { field: 'storageSize', dir: -1 };
  if (typeof sort === 'string' && SORTABLE.includes(sort)) return { field: sort, dir: sort === 'ns' ? 1 : -1 };
  if (sort && typeof sort === 'object' && !Array.isArray(sort)) {
    const keys = Object.keys(sort);
    if (keys.length === 1 && SORTABLE.includes(keys[0]) && [1, -1].includes(num(sort[keys[0]]))) {
      return { field: keys[0], dir: num(sort[keys[0]]) };
    }
  }
  return null;
}

// Order namespaces by the sort field (a sharded ns by its total row), keep a
// ns's shard rows together (by shard name, total last), cut to `limit`
// namespaces, then scale the size fields.
function arrange(rows, { sort, limit, scale } = {}) {
  const s = sort || { field: 'storageSize', dir: -1 };
  const groups = new Map();
  for (const r of rows) {
    if (!groups.has(r.ns)) groups.set(r.ns, []);
    groups.get(r.ns).push(r);
  }
  const key = (g) => {
    const lead = g.find((r) => r.shard === 'total') || g[0];
    return lead[s.field];
  };
  const ordered = [...groups.values()].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return a[0].ns < b[0].ns ? -1 : a[0].ns > b[0].ns ? 1 : 0;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    return (x < y ? -1 : 1) * s.dir;
  });
  for (const g of ordered) {
    g.sort((a, b) => (a.shard === 'total') - (b.shard === 'total') || String(a.shard).localeCompare(String(b.shard)));
  }
  const kept = limit ? ordered.slice(0, limit) : ordered;
  const factor = scale || 1;
  return kept.flat().map((r) => {
    if (factor === 1) return { ...r };
    const out = { ...r };
    const f64 = BigInt(factor);
    for (const f of SIZE_FIELDS) if (out[f] !== undefined) out[f] /= f64;
    if (out.indexSizes) {
      out.indexSizes = {};
      for (const [k, v] of Object.entries(r.indexSizes)) out.indexSizes[k] = v / f64;
    }
    return out;
  });
}

// The aligned table mongosh prints for the returned rows.
function renderTable(rows, { scale = 1, formatBytes }) {
  if (rows.length === 0) return '(no collections)';
  const unit = Object.keys(UNITS).find((u) => UNITS[u] === scale);
  const bytes = (v) => {
    if (v === undefined) return '';
    if (scale === 1) return v > BigInt(Number.MAX_SAFE_INTEGER) ? `${v} B` : formatBytes(Number(v));
    return String(v);
  };
  const bytesWithUnit = (v) => (scale === 1 || v === undefined ? bytes(v) : `${v} ${unit || `x${scale} B`}`);
  const sharded = rows.some((r) => r.shard !== undefined);
  const cols = [
    ['ns', (r) => r.ns, 'l'],
    ...(sharded ? [['shard', (r) => r.shard || '', 'l']] : []),
    ['count', (r) => (r.count === undefined ? '' : r.count.toLocaleString('en-US')), 'r'],
    ['size', (r) => bytes(r.size), 'r'],
    ['avgObj', (r) => (r.avgObjSize === undefined ? '' : formatBytes(Math.round(r.avgObjSize))), 'r'],
    ['storage', (r) => bytes(r.storageSize), 'r'],
    ['free', (r) => bytes(r.freeStorageSize), 'r'],
    ['idx', (r) => (r.nindexes === undefined ? '' : String(r.nindexes)), 'r'],
    ['idxSize', (r) => bytes(r.totalIndexSize), 'r'],
    ['notes', (r) => notes(r, bytesWithUnit), 'l'],
  ];
  const header = cols.map(([h]) => (scale !== 1 && ['size', 'storage', 'free', 'idxSize'].includes(h) ? `${h}(${unit || `/${scale}`})` : h));
  const cells = rows.map((r) => cols.map(([, f]) => (r.error ? '' : f(r))));
  rows.forEach((r, i) => {
    if (r.error) {
      cells[i] = cols.map(() => '');
      cells[i][0] = r.ns;
      cells[i][cols.length - 1] = `error: ${r.error}`;
    }
  });
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c].length)));
  const line = (vals) => vals.map((v, c) => (cols[c][2] === 'r' ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join('  ').replace(/\s+$/, '');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

function notes(r, bytes) {
  const out = [];
  if (r.type === 'timeseries') out.push(`time-series${r.bucketsNs ? `, buckets ${r.bucketsNs}` : ''}${r.buckets !== undefined ? ` (${r.buckets} buckets)` : ''}`);
  if (r.capped) {
    const limits = [];
    if (r.maxSize !== undefined) limits.push(`max size ${bytes(r.maxSize)}`);
    limits.push(r.max !== undefined ? `max ${r.max.toLocaleString('en-US')} docs` : 'no document limit');
    out.push(`capped (${limits.join(', ')})`);
  }
  if (r.orphans) out.push(`${r.orphans} orphans`);
  return out.join('; ');
}

// Which entries of a listCollections answer get a $collStats, with what we
// know beforehand: views are skipped ($collStats storageStats fails on them);
// a time-series collection is summarised under its own name, its
// system.buckets.<name> collection not listed again; a capped collection's
// size/max options are the fallback for storageStats' maxSize/max.
function collectionsToSummarize(infos, dbName) {
  const timeseries = new Set(infos.filter((i) => i.type === 'timeseries').map((i) => i.name));
  const out = [];
  for (const info of infos) {
    if (info.type === 'view') continue;
    if (info.name.startsWith('system.buckets.') && timeseries.has(info.name.slice('system.buckets.'.length))) continue;
    out.push({ name: info.name, meta: collectionMeta(info, dbName) });
  }
  return out;
}

function collectionMeta(info, dbName) {
  const meta = { ns: `${dbName}.${info.name}`, type: info.type === 'timeseries' ? 'timeseries' : 'collection' };
  if (info.type === 'timeseries') meta.bucketsNs = `${dbName}.system.buckets.${info.name}`;
  const opts = info.options || {};
  if (opts.capped) {
    if (opts.size !== undefined) meta.maxSize = exact(opts.size);
    if (opts.max !== undefined) meta.max = cappedMax(opts.max);
  }
  return meta;
}

// Rows as the user gets them: every exact field a Long of the given constructor.
function toLongs(rows, Long) {
  return rows.map((r) => {
    const out = { ...r };
    for (const f of EXACT_FIELDS) if (typeof out[f] === 'bigint') out[f] = Long.fromBigInt(out[f]);
    if (out.indexSizes) {
      out.indexSizes = { ...out.indexSizes };
      for (const k of Object.keys(out.indexSizes)) out.indexSizes[k] = Long.fromBigInt(out.indexSizes[k]);
    }
    return out;
  });
}

module.exports = {
  collectionsToSummarize, collectionMeta, rowsFromCollStats, arrange, renderTable, parseScale, parseSort, num, exact,
  toLongs, SORTABLE,
};
