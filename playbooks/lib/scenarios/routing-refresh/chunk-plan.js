'use strict';
// routing-refresh: where the chunk boundaries go. The collection is empty and
// sharded on a numeric key k; chunk counts are reached on one fixed key range
// [0, SPAN), so that a count can be grown from a smaller one by splitting
// (every chunk of 1e7 is still 109,951 wide: room for the probe splits).
// Plain CommonJS (no shell globals): run.js and the tests require it.

const path = require('path');
const { chunkQuery } = require(path.resolve(__dirname, '../../../../snippets/lib/chunks-shape.js'));

const SPAN = 2 ** 40;

// The N - 1 interior boundaries that cut [0, SPAN) into N equal ranges (the
// first chunk also holds MinKey up to the first boundary, the last up to MaxKey).
function grid(n) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`chunk-plan.grid: n must be a positive integer, got ${n}`);
  const out = new Array(n - 1);
  for (let i = 1; i < n; i++) out[i - 1] = Math.floor((i * SPAN) / n);
  return out;
}

// Where each shard's range starts when a split collection is made: one range
// per shard, moved to it, so that later splits stay spread.
function shardStarts(shards) {
  return [0, ...grid(shards)];
}

// _presetReshardedChunks for N chunks: {min, max, recipientShardId}, from
// MinKey to MaxKey, consecutive chunks on alternating shards (as
// jstests/sharding/resharding_large_number_of_initial_chunks.js does).
function presetChunks(n, shardIds, { minKey, maxKey }) {
  if (!Array.isArray(shardIds) || shardIds.length === 0) throw new Error('chunk-plan.presetChunks: needs the shard ids');
  const bounds = [minKey, ...grid(n), maxKey];
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = { min: { k: bounds[i] }, max: { k: bounds[i + 1] }, recipientShardId: shardIds[i % shardIds.length] };
  }
  return out;
}

// The key a repetition splits at (and then queries): just past the middle of
// the range, a new point each time; -1 gives the middle itself (full refreshes
// query it without splitting).
function probePoint(rep) {
  return Math.floor(SPAN / 2) + 1 + rep;
}

// The config.chunks filter of a namespace from its config.collections entry
// (null when it has none): {uuid} from 5.0, where chunks are keyed by the
// collection's uuid (a filter on ns matches nothing there, after reading the
// whole collection), {ns} before; the rule is the chunkSummary snippet's.
// The caller looks the entry up (shell calls are awaited only in the stage
// file) and asks again after reshardCollection, which gives a new uuid.
function chunkFilter(ns, entry) {
  if (!entry) throw new Error(`${ns} is not in config.collections`);
  return chunkQuery(entry);
}

module.exports = { SPAN, grid, shardStarts, presetChunks, probePoint, chunkFilter };
