// tests/lib/values.js: the integration suites' by-value comparisons, on the
// shell's own BSON numbers, where string order and numeric order differ.

load(require('path').join(test.root, 'tests', 'lib', 'values.js'));

test('the trap it avoids: two Longs under >= compare as strings, 0 + Long is a string', () => {
  assert.strictEqual(Long(9) >= Long(10), true);
  assert.strictEqual(typeof (0 + Long(9)), 'string');
  assert.notStrictEqual(Long(9), 9);
});

test('compareValues orders Long 9 below Long 10, and Long 10 above Long 9', () => {
  assert.strictEqual(compareValues(Long(9), Long(10)), -1);
  assert.strictEqual(compareValues(Long(10), Long(9)), 1);
  assert.strictEqual(compareValues(Long(10), Long(10)), 0);
});

test('compareValues mixes Long, Int32, Double, Decimal128, number and bigint by value', () => {
  assert.strictEqual(compareValues(Long(100096), 100096), 0);
  assert.strictEqual(compareValues(NumberInt(255), Long(256)), -1);
  assert.strictEqual(compareValues(Double(2.5), 2), 1);
  assert.strictEqual(compareValues(Decimal128('100000'), Long(100000)), 0);
  assert.strictEqual(compareValues(10n, Long(9)), 1);
});

test('compareValues stays exact beyond 2^53, where numbers round', () => {
  assert.strictEqual(compareValues(Long('9007199254740993'), Long('9007199254740992')), 1);
  assert.strictEqual(compareValues(Long('9007199254740993'), 9007199254740992), 1);
});

test('sumValues adds Longs as numbers (9 + 10 = 19), not as strings', () => {
  assert.strictEqual(sumValues([0, Long(9), Long(10)]), 19n);
  assert.strictEqual(sumValues([]), 0n);
});

test('assertSameValue passes on equal values of different types and names both on a mismatch', () => {
  assertSameValue(Long(1000), 1000);
  const err = test.thrown(() => assertSameValue(Long(100096), 100000, 'maxSize'));
  assert.strictEqual(err.message, 'maxSize: 100096 is not 100000');
});

test('a value that is no number is refused, not compared as a string', () => {
  const err = test.thrown(() => compareValues('10', 9));
  assert.match(err.message, /^exactValue: not a number: 10$/);
});

// What collStatsSummary returns for a collection whose $collStats failed
// (snippets/lib/stats.js collStats): no figures, the server's message.
const STATS_ERROR_ROW = { ns: 'dba_lab_seed_stats.locked', type: 'collection', error: 'not authorized on dba_lab_seed_stats to execute command { aggregate: "locked", pipeline: [ { $collStats: { storageStats: {} } } ] }' };

test("compareValues given collStatsSummary's error row fails an assertion that names the collection and its error", () => {
  const err = test.thrown(() => compareValues(STATS_ERROR_ROW, 0));
  assert.ok(err instanceof assert.AssertionError, `${err.name}: ${err.message}`);
  assert.strictEqual(err.message, `compareValues: dba_lab_seed_stats.locked has no figures: collStatsSummary could not read it: ${STATS_ERROR_ROW.error}`);
});

test('assertSameValue given an error row fails that assertion too, not a TypeError', () => {
  const err = test.thrown(() => assertSameValue(STATS_ERROR_ROW, 200, 'count'));
  assert.ok(err instanceof assert.AssertionError, `${err.name}: ${err.message}`);
  assert.match(err.message, /^assertSameValue: dba_lab_seed_stats\.locked has no figures: collStatsSummary could not read it: not authorized/);
});

test('sumValues over shard rows with an error row fails an assertion naming that row, not a TypeError', () => {
  const err = test.thrown(() => sumValues([Long(1), STATS_ERROR_ROW]));
  assert.ok(err instanceof assert.AssertionError, `${err.name}: ${err.message}`);
  assert.match(err.message, /^sumValues: dba_lab_seed_stats\.locked has no figures: collStatsSummary could not read it: not authorized/);
});
