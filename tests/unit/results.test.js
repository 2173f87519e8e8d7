'use strict';
// playbooks/lib/js/results.js: how checkers read their input, both as
// pb::check builds it (versions at the top) and as a results.json holds it
// (versions under environment), on the recorded example reports.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const { versions, measurement, rows } = require(path.join(ROOT, 'playbooks', 'lib', 'js', 'results.js'));
const CAPPED = require(path.join(ROOT, 'tests', 'fixtures', 'reports', 'capped-pubsub', 'results.json'));

test('versions: the resolved versions in run order, from pb::check input or a results.json', () => {
  assert.deepEqual(versions({ versions: [{ requested: '4.4', resolved: '4.4.29' }, { requested: '8.0', resolved: '8.0.4' }] }), ['4.4.29', '8.0.4']);
  assert.deepEqual(versions(CAPPED), ['7.0.42']);
});

test("versions: without version records, the measurements' versions; with none at all, one unnamed version", () => {
  assert.deepEqual(versions({ measurements: [{ version: '6.0.1', key: 'a', value: 1 }, { version: '6.0.1', key: 'b', value: 2 }] }), ['6.0.1']);
  assert.deepEqual(versions({ measurements: [] }), ['']);
});

test('measurement: the value of one key of one version, undefined when not recorded', () => {
  const r = { measurements: [{ version: '7.0.1', key: 'x', value: false }, { version: '8.0.4', key: 'x', value: 3 }] };
  assert.equal(measurement(r, '7.0.1', 'x'), false);
  assert.equal(measurement(r, '8.0.4', 'x'), 3);
  assert.equal(measurement(r, '8.0.4', 'y'), undefined);
});

test("rows: a table's rows as objects by column, of one version or all; a missing table has none", () => {
  const delivery = rows(CAPPED, 'delivery', '7.0.42');
  assert.deepEqual(delivery.map((r) => [r.mode, r.subscribers, r.expected, r.received]), [['capped', 1, 60, 60], ['capped', 2, 120, 120], ['capped', 4, 240, 240]]);
  assert.equal(rows(CAPPED, 'delivery', '8.0.4').length, 0);
  assert.equal(rows(CAPPED, 'article').length, 4);
  assert.deepEqual(rows(CAPPED, 'no-such-table'), []);
});
