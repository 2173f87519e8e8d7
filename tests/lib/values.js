// Numeric comparisons for the integration suites, by value whatever the BSON
// type. collStatsSummary returns Longs, and a Long is an object: `===` against
// a number is always false, two Longs under `<`/`>=` compare as strings
// (Long 9 >= Long 10), and `0 + Long` builds a string. Loaded with load() by
// the suites; tested in tests/snippets/values.test.js.

// A collStatsSummary row for a collection whose $collStats failed: {ns, type,
// error} and no figures (snippets/lib/stats.js). Compared as a value it is a
// failed expectation about that collection, reported with the server's error.
function isStatsErrorRow(x) {
  return x !== null && typeof x === 'object' && !x._bsontype && typeof x.error === 'string';
}

function statsErrorRowFailure(fnName, row) {
  return new assert.AssertionError({
    message: `${fnName}: ${row.ns} has no figures: collStatsSummary could not read it: ${row.error}`,
    actual: row.error,
    expected: 'a number',
    operator: fnName,
  });
}

// x (Long, Int32, Double, Decimal128, number or bigint) -> bigint when it is a
// whole number (exact beyond 2^53), else a number.
function exactValue(x, fnName = 'exactValue') {
  if (isStatsErrorRow(x)) throw statsErrorRowFailure(fnName, x);
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : x;
  const type = x && x._bsontype;
  if (type === 'Long') return BigInt(x.toString());
  if (type === 'Int32' || type === 'Double') return exactValue(x.valueOf());
  if (type === 'Decimal128') {
    const s = x.toString();
    return /^-?\d+$/.test(s) ? BigInt(s) : Number(s);
  }
  throw new TypeError(`exactValue: not a number: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`);
}

// -1, 0 or 1 as a is below, equal to or above b, by value.
function compareValues(a, b) {
  const x = exactValue(a, 'compareValues');
  const y = exactValue(b, 'compareValues');
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  const [p, q] = [Number(x), Number(y)];
  return p < q ? -1 : p > q ? 1 : 0;
}

// The exact sum (a bigint) of whole numbers of any of those types.
function sumValues(list) {
  return list.reduce((acc, v) => {
    const x = exactValue(v, 'sumValues');
    if (typeof x !== 'bigint') throw new TypeError(`sumValues: not a whole number: ${String(v)}`);
    return acc + x;
  }, 0n);
}

// assert that actual equals expected by value, both shown in the message.
function assertSameValue(actual, expected, what = '') {
  for (const v of [actual, expected]) if (isStatsErrorRow(v)) throw statsErrorRowFailure('assertSameValue', v);
  if (compareValues(actual, expected) !== 0) {
    throw new assert.AssertionError({ message: `${what ? `${what}: ` : ''}${String(actual)} is not ${String(expected)}`, actual: String(actual), expected: String(expected), operator: 'compareValues' });
  }
}
