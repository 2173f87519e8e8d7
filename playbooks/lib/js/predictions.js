'use strict';
// What each MongoDB release series does, claim by claim: the one place a
// scenario's predictions live (playbooks/lib/scenarios/<name>/predictions.js).
// The checkers, the lab guides' "What changes per version" tables, docs/predictions.md
// and the real-server integration tests all read them from here. Pure: no I/O.
//
// A scenario's table:
//
//   module.exports = predictions.table({
//     scenario: 'capped-pubsub',
//     claims: {
//       grow: {
//         keyedBy: 'feature compatibility version',   // optional: what the checker looks up by
//         spans: [
//           { from: '4.4', holds: true, reason: 'one sentence a student can read', source: SOURCE },
//           { from: '5.3', holds: false, reason: '...', source: SOURCE },
//         ],
//       },
//     },
//     facts: { addToSetWhole: { spans: [...] } },  // version facts that are not claims (tests read them)
//     notes: [{ from: '6.1' | 'all', text: '...', source: SOURCE }],  // guide rows that decide no claim
//   });
//
// SOURCE is { ref: 'SERVER-58865' | 'src/mongo/...: function', url, checked }:
// checked true when the team read that source for this fact, false when it
// could not be read (the report then says "unverified"). A span holds from its
// `from` release (X.Y or X.Y.Z) up to the next span's.

const SERIES = ['4.4', '5.0', '6.0', '7.0', '8.0'];
const NO_PREDICTION = 'NO PREDICTION';

class PredictionError extends Error {}

const isText = (v) => typeof v === 'string' && v.trim().length > 0;

// "7.0.14" -> [7, 0, 14]; null when it is not a release number.
function parse(version) {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(version || ''));
  return m ? [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])] : null;
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

const seriesOf = (version) => {
  const p = parse(version);
  return p ? `${p[0]}.${p[1]}` : null;
};

function checkSource(source, where) {
  if (!source || typeof source !== 'object' || !isText(source.ref) || !isText(source.url) || typeof source.checked !== 'boolean') {
    throw new PredictionError(`${where}: source needs ref, url and checked (true or false)`);
  }
  if (!/^https:\/\//.test(source.url)) throw new PredictionError(`${where}: source url must be https://...`);
}

function checkSpans(spans, where) {
  if (!Array.isArray(spans) || spans.length === 0) throw new PredictionError(`${where}: spans must be a non-empty array`);
  let previous = null;
  spans.forEach((s, i) => {
    const at = `${where} span ${i + 1}`;
    const from = parse(s && s.from);
    if (!from) throw new PredictionError(`${at}: from must be a release such as 5.3 or 6.0.5`);
    if (previous && compare(previous, from) >= 0) throw new PredictionError(`${at}: spans must be in release order`);
    if (typeof s.holds !== 'boolean') throw new PredictionError(`${at}: holds must be true or false`);
    if (!isText(s.reason)) throw new PredictionError(`${at}: a reason is needed`);
    checkSource(s.source, at);
    previous = from;
  });
  if (compare(parse(spans[0].from), parse(SERIES[0])) > 0) {
    throw new PredictionError(`${where}: the first span must start at ${SERIES[0]} or before, so every series has a prediction`);
  }
}

// A claim that several versions behave alike: predicted from the facts it
// names, each of which must be the same at every version compared.
function checkSameAcross(t, id, c) {
  const where = `${t.scenario} claim ${id}`;
  if (!Array.isArray(c.sameAcross) || !c.sameAcross.length) throw new PredictionError(`${where}: sameAcross must list facts`);
  for (const f of c.sameAcross) if (!(t.facts || {})[f]) throw new PredictionError(`${where}: sameAcross names '${f}', which is not one of the facts`);
  if (!isText(c.reason)) throw new PredictionError(`${where}: a reason is needed`);
}

// Checks a scenario's table and returns it frozen.
function table(t) {
  if (!t || !isText(t.scenario)) throw new PredictionError('a predictions table needs a scenario name');
  if (!t.claims || typeof t.claims !== 'object' || !Object.keys(t.claims).length) {
    throw new PredictionError(`${t.scenario}: claims must name at least one claim`);
  }
  for (const [id, f] of Object.entries(t.facts || {})) checkSpans(f && f.spans, `${t.scenario} fact ${id}`);
  for (const [id, c] of Object.entries(t.claims)) {
    if (c && c.sameAcross) checkSameAcross(t, id, c);
    else checkSpans(c && c.spans, `${t.scenario} claim ${id}`);
  }
  (t.notes || []).forEach((n, i) => {
    if (!(n.from === 'all' || parse(n.from)) || !isText(n.text)) throw new PredictionError(`${t.scenario} note ${i + 1}: needs from (a release, or 'all') and text`);
    checkSource(n.source, `${t.scenario} note ${i + 1}`);
  });
  return Object.freeze({ facts: {}, notes: [], ...t, series: SERIES });
}

// The span in force at VERSION, and the release where the next one starts.
function spanAt(spans, version) {
  const v = parse(version);
  let at = null;
  let next = null;
  for (const s of spans) {
    if (compare(parse(s.from), v) <= 0) at = s;
    else if (!next) next = s.from;
  }
  return at && { ...at, until: next };
}

// What a server answers in buildInfo is not always MongoDB: a run on FerretDB
// (or any server whose results name another product) gets no MongoDB prediction.
function otherProduct(results) {
  const s = results && (results.server || (results.environment && results.environment.server));
  return s && s.product && s.product !== 'MongoDB' ? `${s.product} ${s.version || ''}`.trim() : '';
}

// The prediction for claim ID at VERSION: {holds, series, reason, source, from, until}
// or {none: 'no prediction for ...'}. A version outside the table's series or a
// server that is not MongoDB has none; a claim missing from the table is a bug.
// options.at: the release to look the claim up at when it is keyed by
// something else than the binary's version (a feature compatibility version).
function predict(t, id, version, results, options = {}) {
  const claim = t.claims[id] || (t.facts && t.facts[id]);
  if (!claim) throw new PredictionError(`${t.scenario}: no prediction for claim '${id}' in predictions.js`);
  if (claim.sameAcross) return predictAcross(t, id, [version], results);
  const product = otherProduct(results);
  if (product) return { none: `no prediction for ${product}` };
  const series = seriesOf(version);
  if (!series) return { none: `no prediction for ${isText(version) ? `version '${version}'` : 'an unknown version'}` };
  if (!SERIES.includes(series)) return { none: `no prediction for ${series}` };
  const s = spanAt(claim.spans, parse(options.at) ? options.at : version);
  return { holds: s.holds, series, reason: s.reason, source: s.source, from: s.from, ...(s.until ? { until: s.until } : {}) };
}

// The prediction of a sameAcross claim for the VERSIONS compared: it holds
// when each fact it names is the same at all of them. options.only: the
// facts the run could compare (the others were not measured on every version).
function predictAcross(t, id, versions, results, options = {}) {
  const claim = t.claims[id];
  if (!claim || !claim.sameAcross) throw new PredictionError(`${t.scenario}: claim '${id}' is not predicted across versions`);
  const facts = claim.sameAcross.filter((f) => !options.only || options.only.includes(f));
  if (!facts.length) return { none: 'no prediction: none of the facts it rests on was measured on every version' };
  const per = facts.map((f) => ({ f, at: versions.map((v) => predict(t, f, v, results)) }));
  for (const { at } of per) {
    const none = at.find((p) => p.none);
    if (none) return none;
  }
  const series = [...new Set(per[0].at.map((p) => p.series))].join(', ');
  const differ = per.filter(({ at }) => new Set(at.map((p) => p.holds)).size > 1);
  if (differ.length) {
    const { f, at } = differ[0];
    const changed = at.find((p) => p.holds !== at[0].holds);
    return {
      holds: false,
      series,
      reason: `${t.facts[f].label || f}: ${versions.map((v, i) => `${v} ${at[i].holds ? 'yes' : 'no'}`).join(', ')} (${changed.reason})`,
      source: changed.source,
    };
  }
  const changing = per.find(({ f }) => t.facts[f].spans.length > 1) || per[0];
  return { holds: true, series, reason: claim.reason, source: changing.at[0].source };
}

// A prediction object as check.js accepts it from a checker.
function invalidPrediction(p) {
  if (!p || typeof p !== 'object') return 'must be the object predict() returns';
  if (p.none !== undefined) return isText(p.none) ? '' : 'none must say why there is no prediction';
  if (typeof p.holds !== 'boolean') return 'holds must be true or false';
  if (!isText(p.reason)) return 'a reason is needed';
  try {
    checkSource(p.source, 'prediction');
  } catch (e) {
    return e.message;
  }
  return '';
}

// One series' cell of a claim in words: "holds", "does not hold",
// "does not hold before 6.0.5, holds from 6.0.5".
function seriesCell(spans, series) {
  const [maj, min] = series.split('.').map(Number);
  const start = [maj, min, 0];
  const inside = spans.filter((s) => {
    const f = parse(s.from);
    return f[0] === maj && f[1] === min && f[2] > 0;
  });
  const first = spanAt(spans, series);
  const word = (s) => (s.holds ? 'holds' : 'does not hold');
  if (!inside.length || compare(parse(inside[0].from), start) === 0) return { text: word(first), spans: [first] };
  const parts = [first, ...inside];
  return {
    text: parts.map((s, i) => (i === 0 ? `${word(s)} before ${inside[0].from}` : `${word(s)} from ${s.from}`)).join(', '),
    spans: parts,
  };
}

module.exports = { SERIES, NO_PREDICTION, table, predict, predictAcross, invalidPrediction, parse, seriesCell };
