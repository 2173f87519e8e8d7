'use strict';
// Runs a scenario's checker (playbooks/lib/scenarios/<name>/checker.js) for
// pb::check. A checker is a pure CommonJS module:
//
//   module.exports = {
//     claims: [{ id, claim, expected, needs }, ...],
//     check(results) { return [{ id, claim, expected, observed, result, why, version, predicted, evidence }, ...]; },
//   };
//
// and predictions.js beside it is the scenario's table of what each release
// series does with each claim (js/predictions.js); every claim has a row.
//
// Two questions per verdict, kept apart (the legend in js/report/legend.js):
// `result` says whether the article's claim held on this version;
// `predicted` is what the table predicts for this version (predict()'s
// answer: {holds, reason, source} or {none}), so the record's `prediction` is
// AS PREDICTED, NOT AS PREDICTED or NO PREDICTION. A judged verdict without
// one is refused: there is no default prediction. A claim's `needs`
// (js/evidence.js) is the least evidence it is judged on: its verdicts must
// carry `evidence`, and one decided on less is a checker bug.
//
// `results` has the shape of results.json's measurements, tables, params and
// versions. This file checks what the checker returns and turns it into the
// verdict records of the report (one JSON line each).
//
//   node check.js --claims CHECKER        the claims, one JSON line each
//   node check.js CHECKER RESULTS_JSON    the verdict records, one JSON line each
//
// A checker that cannot be loaded, throws, or returns a malformed verdict:
// one JSON line {"type": "error", "message": ...} and exit 1.

const fs = require('node:fs');
const path = require('node:path');
const evidence = require('./evidence.js');
const predictions = require('./predictions.js');

const RESULTS = ['REPRODUCED', 'NOT_REPRODUCED', 'NOT_APPLICABLE'];

class CheckerError extends Error {}

const isText = (v) => typeof v === 'string' && v.length > 0;

function validateClaims(claims) {
  if (!Array.isArray(claims) || claims.length === 0) {
    throw new CheckerError('claims must be a non-empty array of {id, claim, expected}');
  }
  const ids = new Set();
  claims.forEach((c, i) => {
    if (!c || !isText(c.id) || !isText(c.claim) || !isText(c.expected)) {
      throw new CheckerError(`claims[${i}] needs id, claim and expected (non-empty strings)`);
    }
    if (ids.has(c.id)) throw new CheckerError(`claims[${i}]: id '${c.id}' is listed twice`);
    const bad = evidence.invalidNeeds(c.needs);
    if (bad) throw new CheckerError(`claims[${i}] (${c.id}): ${bad}`);
    ids.add(c.id);
  });
  return claims;
}

// The scenario's predictions table beside the checker: one row per claim.
function loadPredictions(file, claims) {
  const tableFile = path.join(path.dirname(path.resolve(file)), 'predictions.js');
  let t;
  try {
    t = require(tableFile);
  } catch (e) {
    throw new CheckerError(`its predictions table ${path.basename(tableFile)} cannot be loaded: ${e.message.split('\n')[0]}`);
  }
  if (!t || !t.claims || !Array.isArray(t.series)) throw new CheckerError('predictions.js must export predictions.table({...})');
  const missing = claims.map((c) => c.id).filter((id) => !t.claims[id]);
  if (missing.length) throw new CheckerError(`predictions.js has no row for claim ${missing.join(', ')}`);
  return t;
}

function loadChecker(file) {
  let checker;
  try {
    checker = require(path.resolve(file));
  } catch (e) {
    throw new CheckerError(`cannot be loaded: ${e.message.split('\n')[0]}`);
  }
  if (!checker || typeof checker.check !== 'function') {
    throw new CheckerError('must export check(results)');
  }
  validateClaims(checker.claims);
  loadPredictions(file, checker.claims);
  return checker;
}

// One verdict the checker returned -> one verdict record, or a CheckerError.
function toRecord(v, i, claimsById) {
  const where = `verdict ${i + 1}`;
  if (!v || typeof v !== 'object') throw new CheckerError(`${where} is not an object`);
  const claim = claimsById.get(v.id);
  if (!claim) throw new CheckerError(`${where}: id '${v.id}' is not one of the claims`);
  if (!RESULTS.includes(v.result)) {
    throw new CheckerError(`${where} (${v.id}): result must be ${RESULTS.join(', ')}, got '${v.result}'`);
  }
  if (v.result === 'NOT_APPLICABLE' && !isText(v.why)) {
    throw new CheckerError(`${where} (${v.id}): NOT_APPLICABLE needs a why`);
  }
  if (!isText(v.version)) {
    throw new CheckerError(`${where} (${v.id}): version must name a server version or 'all'`);
  }
  if (typeof v.observed !== 'string' && typeof v.observed !== 'number') {
    throw new CheckerError(`${where} (${v.id}): observed must be a string or a number`);
  }
  for (const key of ['claim', 'expected', 'why']) {
    if (v[key] !== undefined && typeof v[key] !== 'string') {
      throw new CheckerError(`${where} (${v.id}): ${key} must be a string`);
    }
  }
  if (v.result !== 'NOT_APPLICABLE' && v.predicted === undefined) {
    throw new CheckerError(`${where} (${v.id}): judged with no prediction: take it from the scenario's predictions.js (predict())`);
  }
  const badPrediction = v.predicted === undefined ? '' : predictions.invalidPrediction(v.predicted);
  if (badPrediction) throw new CheckerError(`${where} (${v.id}): predicted ${badPrediction}`);
  if (claim.needs && (!v.evidence || typeof v.evidence !== 'object')) {
    throw new CheckerError(`${where} (${v.id}): its claim declares needs, so the verdict must record its evidence`);
  }
  const short = evidence.shortfall(claim.needs, v.evidence);
  if (short && v.result !== 'NOT_APPLICABLE') {
    throw new CheckerError(`${where} (${v.id}): decided on too little evidence (${short})`);
  }
  const record = {
    type: 'verdict',
    id: v.id,
    claim: v.claim || claim.claim,
    expected: v.expected || claim.expected,
    observed: String(v.observed),
    verdict: v.result.replace('_', ' '),
    reason: v.why || '',
    version: v.version,
    test: '',
    prediction: predictionOf(v),
  };
  if (record.prediction) record.predictionBasis = basisOf(v.predicted);
  if (v.evidence) record.evidence = { ...v.evidence, summary: evidence.describe(v.evidence, claim.needs) };
  return record;
}

// Whether it went as the table predicted; '' when the claim was not judged.
function predictionOf(v) {
  if (v.result === 'NOT_APPLICABLE') return '';
  if (v.predicted.none) return predictions.NO_PREDICTION;
  return (v.result === 'REPRODUCED') === v.predicted.holds ? 'AS PREDICTED' : 'NOT AS PREDICTED';
}

// What the report shows of the prediction: the table's reason and source, or why there is none.
function basisOf(p) {
  if (p.none) return { none: p.none };
  const { holds, series, reason, source, from, until } = p;
  return { holds, series, reason, source: { ref: source.ref, url: source.url, checked: source.checked }, ...(from ? { from } : {}), ...(until ? { until } : {}) };
}

function runChecker(checker, results) {
  let verdicts;
  try {
    verdicts = checker.check(results);
  } catch (e) {
    throw new CheckerError(`check() threw: ${e.message.split('\n')[0]}`);
  }
  if (!Array.isArray(verdicts)) throw new CheckerError('check() must return an array of verdicts');
  const claimsById = new Map(checker.claims.map((c) => [c.id, c]));
  return verdicts.map((v, i) => toRecord(v, i, claimsById));
}

function main(argv) {
  const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  try {
    if (argv[0] === '--claims' && argv.length === 2) {
      for (const c of loadChecker(argv[1]).claims) {
        out({ id: c.id, claim: c.claim, expected: c.expected, ...(c.needs ? { needs: evidence.needsText(c.needs) } : {}) });
      }
      return 0;
    }
    if (argv.length !== 2) {
      out({ type: 'error', message: 'usage: check.js --claims CHECKER | check.js CHECKER RESULTS_JSON' });
      return 1;
    }
    const checker = loadChecker(argv[0]);
    let results;
    try {
      results = JSON.parse(fs.readFileSync(argv[1], 'utf8'));
    } catch (e) {
      throw new CheckerError(`cannot read the results ${argv[1]}: ${e.message.split('\n')[0]}`);
    }
    for (const record of runChecker(checker, results)) out(record);
    return 0;
  } catch (e) {
    if (!(e instanceof CheckerError)) throw e;
    out({ type: 'error', message: e.message });
    return 1;
  }
}

module.exports = { loadChecker, runChecker, validateClaims, CheckerError, RESULTS };

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
