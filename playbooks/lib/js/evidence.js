'use strict';
// The evidence a claim needs before it is judged, and what a verdict records
// of the evidence it had. A checker declares it per claim:
//
//   { id, claim, expected, needs: { minPoints: 3, pointsOf: 'subscriber counts', minRepetitions: 1, hint } }
//
// and passes what it measured to judge(): a quantitative claim decided from
// too little (a line through two points always fits) becomes NOT_APPLICABLE
// with the reason, e.g. "needs at least 3 subscriber counts, had 2". Pure.

const KEYS = [
  // [needs key, evidence key, label key, default label]
  ['minPoints', 'points', 'pointsOf', 'points'],
  ['minRepetitions', 'repetitions', 'repetitionsOf', 'repetitions per point'],
];

const isCount = (n) => Number.isInteger(n) && n >= 0;

// A claim's declaration, checked: '' when valid, else what is wrong.
function invalidNeeds(needs) {
  if (needs === undefined) return '';
  if (!needs || typeof needs !== 'object') return 'needs must be an object';
  const mins = KEYS.filter(([min]) => needs[min] !== undefined);
  if (!mins.length) return 'needs must declare minPoints or minRepetitions';
  for (const [min] of mins) if (!isCount(needs[min]) || needs[min] < 1) return `needs.${min} must be a positive integer`;
  return '';
}

// '' when EVIDENCE meets NEEDS, else the first shortfall in words.
function shortfall(needs, evidence) {
  if (!needs) return '';
  for (const [min, key, label, fallback] of KEYS) {
    if (needs[min] === undefined) continue;
    const had = evidence ? evidence[key] : undefined;
    if (!isCount(had) || had < needs[min]) {
      return `needs at least ${needs[min]} ${needs[label] || fallback}, had ${isCount(had) ? had : 0}${needs.hint ? ` (${needs.hint})` : ''}`;
    }
  }
  return '';
}

// "at least 3 subscriber counts and 2 repetitions per point": NEEDS in words.
function needsText(needs) {
  if (!needs) return '';
  return `at least ${KEYS.filter(([min]) => needs[min] !== undefined)
    .map(([min, , label, fallback]) => `${needs[min]} ${needs[label] || fallback}`).join(' and ')}`;
}

// VERDICT with EVIDENCE recorded, and NOT_APPLICABLE when it falls short of NEEDS.
function judge(needs, evidence, verdict) {
  const out = { ...verdict, evidence: { ...evidence } };
  const short = shortfall(needs, evidence);
  if (short && verdict.result !== 'NOT_APPLICABLE') return { ...out, result: 'NOT_APPLICABLE', why: short };
  return out;
}

// "3 points, 5 repetitions per point, spread 0.12" of what was recorded.
function describe(evidence, needs = {}) {
  if (!evidence) return '';
  const parts = [];
  for (const [, key, label, fallback] of KEYS) {
    if (isCount(evidence[key])) parts.push(`${evidence[key]} ${needs[label] || fallback}`);
  }
  if (Number.isFinite(evidence.spread)) parts.push(`spread ${Math.round(evidence.spread * 100) / 100}`);
  return parts.join(', ');
}

module.exports = { invalidNeeds, shortfall, judge, describe, needsText };
