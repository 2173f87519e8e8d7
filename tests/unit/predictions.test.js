'use strict';
// playbooks/lib/js/predictions.js: the scenarios' tables of what each MongoDB
// release series does, and the Markdown the guides and docs/predictions.md
// are generated from them (predictions-md.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const P = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'predictions.js'));
const MD = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'predictions-md.js'));
const tableOf = (name) => require(path.join(ROOT, 'playbooks', 'lib', 'scenarios', name, 'predictions.js'));

const SOURCE = { ref: 'SERVER-1', url: 'https://jira.mongodb.org/browse/SERVER-1', checked: true };
const span = (from, holds, extra = {}) => ({ from, holds, reason: `from ${from}`, source: SOURCE, ...extra });
const small = () => P.table({
  scenario: 'demo',
  claims: { c: { spans: [span('4.4', false), span('6.0.5', true)] } },
  facts: { f: { label: 'f is on', spans: [span('4.4', true), span('7.1', false)] }, g: { spans: [span('4.4', true)] } },
});

test('a release gets the row in force for it: a series can change inside itself', () => {
  const t = small();
  assert.deepEqual(['4.4.29', '6.0.4', '6.0.5', '8.0.4'].map((v) => P.predict(t, 'c', v).holds), [false, false, true, true]);
  assert.deepEqual(P.predict(t, 'c', '6.0.4'), { holds: false, series: '6.0', reason: 'from 4.4', source: SOURCE, from: '4.4', until: '6.0.5' });
});

test('a series outside the table, an unreadable version and a server that is not MongoDB get no prediction, saying why', () => {
  const t = small();
  assert.deepEqual(P.predict(t, 'c', '9.0.1'), { none: 'no prediction for 9.0' });
  assert.deepEqual(P.predict(t, 'c', '7.1.0'), { none: 'no prediction for 7.1' });
  assert.deepEqual(P.predict(t, 'c', 'all'), { none: "no prediction for version 'all'" });
  assert.deepEqual(P.predict(t, 'c', ''), { none: 'no prediction for an unknown version' });
  assert.deepEqual(P.predict(t, 'c', '7.0.42', { server: { product: 'FerretDB', version: 'v1.24.2', reportsAs: '7.0.42' } }), { none: 'no prediction for FerretDB v1.24.2' });
  assert.deepEqual(P.predict(t, 'c', '7.0.42', { environment: { server: { product: 'FerretDB', version: 'v1.24.2' } } }), { none: 'no prediction for FerretDB v1.24.2' });
  assert.equal(P.predict(t, 'c', '7.0.42', { server: { product: 'MongoDB', version: '7.0.42' } }).holds, true);
});

test('a claim missing from the table is a bug, not a default', () => {
  assert.throws(() => P.predict(small(), 'other', '8.0.4'), /demo: no prediction for claim 'other' in predictions\.js/);
});

test('options.at looks a claim up at another release (a feature compatibility version), the series still the binary\'s', () => {
  const t = small();
  assert.equal(P.predict(t, 'c', '8.0.4', {}, { at: '5.0' }).holds, false);
  assert.equal(P.predict(t, 'c', '8.0.4', {}, { at: '5.0' }).series, '8.0');
  assert.deepEqual(P.predict(t, 'c', '9.0.0', {}, { at: '5.0' }), { none: 'no prediction for 9.0' });
});

test('a claim across versions holds when every fact it rests on is the same at all of them', () => {
  const t = P.table({ ...small(), claims: { ...small().claims, same: { sameAcross: ['f', 'g'], reason: 'alike' } } });
  assert.deepEqual(P.predictAcross(t, 'same', ['5.0.1', '7.0.2']), { holds: true, series: '5.0, 7.0', reason: 'alike', source: SOURCE });
  const differ = P.predictAcross(t, 'same', ['5.0.1', '8.0.4']);
  assert.deepEqual([differ.holds, differ.reason], [false, 'f is on: 5.0.1 yes, 8.0.4 no (from 7.1)']);
  assert.equal(P.predictAcross(t, 'same', ['5.0.1', '8.0.4'], {}, { only: ['g'] }).holds, true);
  assert.deepEqual(P.predictAcross(t, 'same', ['5.0.1', '9.0.0']), { none: 'no prediction for 9.0' });
});

test('a malformed table is refused with what is wrong', () => {
  const cases = [
    [{ scenario: 'x', claims: {} }, /x: claims must name at least one claim/],
    [{ scenario: 'x', claims: { c: { spans: [span('6.0', true)] } } }, /first span must start at 4\.4 or before/],
    [{ scenario: 'x', claims: { c: { spans: [span('4.4', true), span('4.2', false)] } } }, /spans must be in release order/],
    [{ scenario: 'x', claims: { c: { spans: [span('4.4', 'yes')] } } }, /holds must be true or false/],
    [{ scenario: 'x', claims: { c: { spans: [span('4.4', true, { reason: '' })] } } }, /a reason is needed/],
    [{ scenario: 'x', claims: { c: { spans: [span('4.4', true, { source: { ref: 'r', url: 'https://x' } })] } } }, /source needs ref, url and checked/],
    [{ scenario: 'x', claims: { c: { spans: [span('4.4', true, { source: { ref: 'r', url: 'http://x', checked: true } })] } } }, /source url must be https/],
    [{ scenario: 'x', claims: { c: { sameAcross: ['nope'], reason: 'r' } } }, /sameAcross names 'nope', which is not one of the facts/],
  ];
  for (const [t, message] of cases) assert.throws(() => P.table(t), message, JSON.stringify(t));
});

test('every scenario\'s table has a row for each of its checker\'s claims, each with a reason and a source', () => {
  for (const name of MD.SCENARIOS) {
    const t = tableOf(name);
    const { claims } = require(path.join(ROOT, 'playbooks', 'lib', 'scenarios', name, 'checker.js'));
    for (const c of claims) {
      assert.ok(t.claims[c.id], `${name}: ${c.id}`);
      for (const s of P.SERIES) {
        const p = t.claims[c.id].sameAcross ? P.predictAcross(t, c.id, [`${s}.0`]) : P.predict(t, c.id, `${s}.0`);
        assert.equal(typeof p.holds, 'boolean', `${name} ${c.id} ${s}`);
        assert.ok(p.reason && p.source.url, `${name} ${c.id} ${s}`);
      }
    }
  }
});

test('the guides and docs/predictions.md say what the tables say (node playbooks/lib/js/predictions-md.js --write)', () => {
  for (const [file, wanted] of MD.generated()) {
    assert.equal(fs.readFileSync(file, 'utf8'), wanted, `${path.relative(ROOT, file)} is out of date with the predictions tables`);
  }
});

test('a guide row gives each series its word, splitting a series where a release changes it, and marks an unread source', () => {
  const block = MD.guideBlock('routing-refresh');
  assert.match(block, /^\| an incremental refresh stays near-constant where chunk grouping is present \| does not hold before 4\.4\.25, holds from 4\.4\.25 \| .* \| holds \|/m);
  assert.match(block, /\[SERVER-71627 in 5\.0\.21: [^\]]*\]\(https:\/\/jira\.mongodb\.org\/browse\/SERVER-71627\) \(unverified\)/);
  const csr = MD.guideBlock('change-stream-resume');
  assert.match(csr, /^\| C \(batchSize 1, [^|]*\| does not hold \| does not hold \| holds \| holds \| holds \|/m);
});

test('the capped-pubsub guide predicts the in-memory claim wrong on every series, as capped collections survive a restart', () => {
  const t = tableOf('capped-pubsub');
  for (const s of P.SERIES) assert.equal(P.predict(t, 'restart', `${s}.0`).holds, false, s);
  assert.match(MD.guideBlock('capped-pubsub'), /^\| capped collections are in-memory only[^|]*\| does not hold \| does not hold \| does not hold \| does not hold \| does not hold \|/m);
});

test('change-stream-resume.md: a stream resumed from a v1 token adopts the higher version, it does not keep v1', () => {
  const guide = fs.readFileSync(path.join(ROOT, 'playbooks', 'change-stream-resume.md'), 'utf8').replace(/\s+/g, ' ');
  assert.doesNotMatch(guide, /keeps v1/);
  assert.match(guide, /adopts the higher of its default and the token's version/);
  assert.match(guide, /\| 6\.1 \| new streams emit version 2 tokens|new streams emit version 2 tokens/);
});

test('capped-pubsub.md: the 256-byte rounding is the older code\'s, which always rounds; SERVER-67246 relaxes it', () => {
  const guide = fs.readFileSync(path.join(ROOT, 'playbooks', 'capped-pubsub.md'), 'utf8');
  assert.doesNotMatch(guide, /newer code \| the server may round/);
  assert.match(guide, /^\| 4\.4 \| the server rounds a capped size up to a multiple of 256 .*always rounds in 5\.0-era code/m);
  assert.match(guide, /^\| 6\.2 \| the rounding is behind featureFlagCappedCollectionsRelaxedSize/m);
});
