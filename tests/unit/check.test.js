'use strict';
// playbooks/lib/js/check.js: what pb::check accepts from a scenario's checker.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');

const CHECK = path.join(__dirname, '..', '..', 'playbooks', 'lib', 'js', 'check.js');
const { loadChecker, runChecker, validateClaims, CheckerError } = require(CHECK);

const claims = [
  { id: 'burst', claim: 'events arrive in one burst', expected: 'all within 0.5 s' },
  { id: 'restart', claim: 'a restart loses the data', expected: 'documents gone' },
];
const checkerOf = (check) => ({ claims, check });
const SOURCE = { ref: 'SERVER-1', url: 'https://jira.mongodb.org/browse/SERVER-1', checked: true };
// What predictions.predict() answers for a claim predicted to hold, or not.
const HOLDS = { holds: true, series: '8.0', reason: 'it always did', source: SOURCE, from: '4.4' };
const FAILS = { ...HOLDS, holds: false, reason: 'it stopped' };
const ok = { id: 'burst', observed: '0.1 s', result: 'REPRODUCED', version: '8.0.4', predicted: HOLDS };

test('a verdict becomes the report verdict record, claim and expected taken from the claims', () => {
  const [record] = runChecker(checkerOf(() => [ok]), {});
  assert.deepEqual(record, {
    type: 'verdict', id: 'burst', claim: 'events arrive in one burst', expected: 'all within 0.5 s',
    observed: '0.1 s', verdict: 'REPRODUCED', reason: '', version: '8.0.4', test: '', prediction: 'AS PREDICTED',
    predictionBasis: { holds: true, series: '8.0', reason: 'it always did', source: SOURCE, from: '4.4' },
  });
});

test('NOT_REPRODUCED and NOT_APPLICABLE are written with a space, as the report shows them', () => {
  const records = runChecker(checkerOf(() => [
    { ...ok, result: 'NOT_REPRODUCED', why: '2.5 s apart' },
    { id: 'restart', observed: 'not restarted', result: 'NOT_APPLICABLE', why: '--uri target', version: 'all' },
  ]), {});
  assert.deepEqual(records.map((r) => [r.verdict, r.reason]), [['NOT REPRODUCED', '2.5 s apart'], ['NOT APPLICABLE', '--uri target']]);
});

test('a number observed is kept as text', () => {
  assert.equal(runChecker(checkerOf(() => [{ ...ok, observed: 3.5 }]), {})[0].observed, '3.5');
});

test('the checker receives the results as given', () => {
  const results = { measurements: [{ version: '8.0.4', key: 'k', value: 1, unit: '' }], tables: {}, params: {}, versions: [] };
  let seen;
  runChecker(checkerOf((r) => { seen = r; return []; }), results);
  assert.equal(seen, results);
});

test('malformed verdicts are refused with what is wrong', () => {
  const cases = [
    [{ ...ok, result: 'MAYBE' }, /verdict 1 \(burst\): result must be REPRODUCED, NOT_REPRODUCED, NOT_APPLICABLE, got 'MAYBE'/],
    [{ ...ok, result: 'NOT_APPLICABLE' }, /verdict 1 \(burst\): NOT_APPLICABLE needs a why/],
    [{ ...ok, id: 'other' }, /verdict 1: id 'other' is not one of the claims/],
    [{ ...ok, version: '' }, /version must name a server version or 'all'/],
    [{ ...ok, observed: undefined }, /observed must be a string or a number/],
    [{ ...ok, claim: 5 }, /claim must be a string/],
    [null, /verdict 1 is not an object/],
  ];
  for (const [verdict, message] of cases) {
    assert.throws(() => runChecker(checkerOf(() => [verdict]), {}), (e) => e instanceof CheckerError && message.test(e.message));
  }
});

test('a check that throws or returns no array is refused', () => {
  assert.throws(() => runChecker(checkerOf(() => { throw new Error('no bytes'); }), {}), /check\(\) threw: no bytes/);
  assert.throws(() => runChecker(checkerOf(() => ({})), {}), /check\(\) must return an array/);
});

test('claims need an id, a claim and an expected, each id once', () => {
  assert.throws(() => validateClaims([]), /non-empty array/);
  assert.throws(() => validateClaims([{ id: 'a', claim: 'c' }]), /claims\[0\] needs id, claim and expected/);
  assert.throws(() => validateClaims([claims[0], claims[0]]), /claims\[1\]: id 'burst' is listed twice/);
  assert.equal(validateClaims(claims), claims);
});

const made = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const PREDICTIONS_LIB = path.join(__dirname, '..', '..', 'playbooks', 'lib', 'js', 'predictions.js');
// A predictions.js beside a temporary checker, with a row for each claim id given.
const predictionsSource = (ids) => `const { table } = require(${JSON.stringify(PREDICTIONS_LIB)});
const s = { from: '4.4', holds: true, reason: 'a fixture', source: ${JSON.stringify(SOURCE)} };
module.exports = table({ scenario: 'temp', claims: { ${ids.map((id) => `${JSON.stringify(id)}: { spans: [s] }`).join(', ')} } });`;

function tempChecker(source, predictionIds = claims.map((c) => c.id)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dba-lab-check-'));
  made.push(dir);
  const file = path.join(dir, 'checker.js');
  fs.writeFileSync(file, source);
  if (predictionIds) fs.writeFileSync(path.join(dir, 'predictions.js'), predictionsSource(predictionIds));
  return file;
}

test('a checker that cannot be loaded or has no check() is refused', () => {
  assert.throws(() => loadChecker(tempChecker('syntax error here(')), /cannot be loaded/);
  assert.throws(() => loadChecker(tempChecker('module.exports = { claims: [] };')), /must export check\(results\)/);
});

test('a checker without a predictions table, or whose table misses a claim, is refused', () => {
  const source = `module.exports = { claims: ${JSON.stringify(claims)}, check: () => [] };`;
  assert.throws(() => loadChecker(tempChecker(source, null)), /its predictions table predictions\.js cannot be loaded/);
  assert.throws(() => loadChecker(tempChecker(source, ['burst'])), /predictions\.js has no row for claim restart/);
  assert.doesNotThrow(() => loadChecker(tempChecker(source)));
});

test('the command line lists the claims, and turns results.json into verdict lines', () => {
  const file = tempChecker(`module.exports = { claims: ${JSON.stringify(claims)},
    check: (r) => [{ id: 'burst', observed: String(r.measurements.length), result: 'REPRODUCED', version: 'all', predicted: { none: 'no prediction for all' } }] };`);
  const listed = execFileSync(process.execPath, [CHECK, '--claims', file], { encoding: 'utf8' });
  assert.deepEqual(listed.trim().split('\n').map(JSON.parse), claims);
  const input = path.join(path.dirname(file), 'results.json');
  fs.writeFileSync(input, JSON.stringify({ measurements: [{}, {}], tables: {}, params: {}, versions: [] }));
  const out = execFileSync(process.execPath, [CHECK, file, input], { encoding: 'utf8' });
  assert.equal(JSON.parse(out).observed, '2');
});

test('on the command line a failing checker is one error line and exit 1', () => {
  const file = tempChecker(`module.exports = { claims: ${JSON.stringify(claims)}, check() { throw new Error('boom'); } };`);
  const input = path.join(path.dirname(file), 'results.json');
  fs.writeFileSync(input, '{}');
  const r = spawnSync(process.execPath, [CHECK, file, input], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.deepEqual(JSON.parse(r.stdout), { type: 'error', message: 'check() threw: boom' });
  const missing = spawnSync(process.execPath, [CHECK, file, path.join(path.dirname(file), 'none.json')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(JSON.parse(missing.stdout).message, /^cannot read the results /);
});

test('the prediction: the claim held as the table predicted, or not; no prediction is said as such', () => {
  const records = runChecker(checkerOf(() => [
    ok,
    { ...ok, result: 'NOT_REPRODUCED' },
    { ...ok, result: 'NOT_REPRODUCED', predicted: FAILS },
    { ...ok, predicted: FAILS },
    { ...ok, predicted: { none: 'no prediction for FerretDB v1.24.2' } },
    { ...ok, result: 'NOT_APPLICABLE', why: 'not measured', predicted: FAILS },
  ]), {});
  assert.deepEqual(records.map((r) => r.prediction), ['AS PREDICTED', 'NOT AS PREDICTED', 'AS PREDICTED', 'NOT AS PREDICTED', 'NO PREDICTION', '']);
  assert.deepEqual(records[4].predictionBasis, { none: 'no prediction for FerretDB v1.24.2' });
  assert.equal(records[5].predictionBasis, undefined);
});

test('a judged verdict with no prediction is a checker bug: there is no default', () => {
  const { predicted, ...bare } = ok;
  assert.ok(predicted);
  assert.throws(() => runChecker(checkerOf(() => [bare]), {}), /verdict 1 \(burst\): judged with no prediction: take it from the scenario's predictions\.js/);
  assert.equal(runChecker(checkerOf(() => [{ ...bare, result: 'NOT_APPLICABLE', why: 'not measured' }]), {})[0].prediction, '');
});

test('a prediction is the table\'s answer, not a bare true or false', () => {
  const cases = [
    [true, /predicted must be the object predict\(\) returns/],
    [false, /predicted must be the object predict\(\) returns/],
    [{ holds: 'yes', reason: 'r', source: SOURCE }, /predicted holds must be true or false/],
    [{ holds: true, source: SOURCE }, /predicted a reason is needed/],
    [{ holds: true, reason: 'r', source: { ref: 'x', url: 'https://x', checked: 'maybe' } }, /source needs ref, url and checked/],
    [{ none: '' }, /none must say why/],
  ];
  for (const [predicted, message] of cases) {
    assert.throws(() => runChecker(checkerOf(() => [{ ...ok, predicted }]), {}), message, JSON.stringify(predicted));
  }
});

const needy = [{ ...claims[0], needs: { minPoints: 3, pointsOf: 'sweep points', minRepetitions: 2 } }];

test('a verdict of a claim that declares needs records its evidence, with a summary in words', () => {
  const [record] = runChecker({ claims: needy, check: () => [{ ...ok, evidence: { points: 4, repetitions: 2, spread: 0.123 } }] }, {});
  assert.deepEqual(record.evidence, { points: 4, repetitions: 2, spread: 0.123, summary: '4 sweep points, 2 repetitions per point, spread 0.12' });
});

test('a claim with needs decided without evidence, or on less than it needs, is a checker bug', () => {
  assert.throws(() => runChecker({ claims: needy, check: () => [ok] }, {}), /must record its evidence/);
  assert.throws(() => runChecker({ claims: needy, check: () => [{ ...ok, evidence: { points: 2, repetitions: 2 } }] }, {}),
    /decided on too little evidence \(needs at least 3 sweep points, had 2\)/);
  assert.throws(() => runChecker({ claims: needy, check: () => [{ ...ok, evidence: { points: 3, repetitions: 1 } }] }, {}),
    /needs at least 2 repetitions per point, had 1/);
});

test('below its needs a claim may be NOT_APPLICABLE', () => {
  const [record] = runChecker({ claims: needy, check: () => [{ ...ok, result: 'NOT_APPLICABLE', why: 'too few', evidence: { points: 2 } }] }, {});
  assert.equal(record.verdict, 'NOT APPLICABLE');
});

test('needs must declare a positive minimum', () => {
  for (const needs of [{}, { minPoints: 0 }, { minRepetitions: 1.5 }, 'three']) {
    assert.throws(() => validateClaims([{ ...claims[0], needs }]), CheckerError, JSON.stringify(needs));
  }
});

test('the command line lists a claim with what it needs, in words', () => {
  const file = tempChecker(`module.exports = { claims: ${JSON.stringify(needy)}, check: () => [] };`);
  const [listed] = execFileSync(process.execPath, [CHECK, '--claims', file], { encoding: 'utf8' }).trim().split('\n').map(JSON.parse);
  assert.equal(listed.needs, 'at least 3 sweep points and 2 repetitions per point');
});
