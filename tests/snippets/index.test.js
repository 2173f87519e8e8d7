// The package's contract with mongosh: what loading snippets/index.js defines.
// concerns.json is the list of public globals, per module.

test('every concern module exports exactly the globals concerns.json lists', () => {
  const path = require('path');
  const concerns = require(path.join(test.root, 'snippets', 'lib', 'concerns.json'));
  const makeShell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'));
  const shell = makeShell({ bson: { Long, Timestamp, UUID, Double, Int32, Decimal128, ObjectId, Binary }, print, bsonsize, getDb: () => undefined });
  for (const [concern, names] of Object.entries(concerns)) {
    const api = require(path.join(test.root, 'snippets', 'lib', `${concern}.js`))(shell);
    assert.deepStrictEqual(Object.keys(api).sort(), [...names].sort(), concern);
  }
});

test('loading the snippets defines the public globals and nothing else', () => {
  const path = require('path');
  const concerns = require(path.join(test.root, 'snippets', 'lib', 'concerns.json'));
  const expected = Object.values(concerns).flat().sort();
  assert.deepStrictEqual([...test.globalsAdded].sort(), expected);
});

test('every public global is a function with help()', () => {
  for (const name of test.globalsAdded) {
    assert.strictEqual(typeof globalThis[name], 'function', name);
    assert.strictEqual(typeof globalThis[name].help, 'function', `${name}.help`);
  }
});

test('loading the snippets a second time defines the same globals again', () => {
  const path = require('path');
  const before = Object.getOwnPropertyNames(globalThis).sort();
  load(path.join(test.root, 'snippets', 'index.js'));
  assert.deepStrictEqual(Object.getOwnPropertyNames(globalThis).sort(), before);
});

test('without a connection, shell.db() names the function and the reason', () => {
  const path = require('path');
  const makeShell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'));
  const shell = makeShell({ bson: {}, print, bsonsize, getDb: () => undefined });
  const err = test.thrown(() => shell.db('oplogWindow'));
  assert.match(err.message, /^oplogWindow: needs a connected shell/);
});

test('sizes parse in binary units and reject what is not a size', () => {
  const path = require('path');
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({ bson: {}, print, bsonsize, getDb: () => undefined });
  assert.strictEqual(shell.parseBytes('6MB'), 6 * 1024 * 1024);
  assert.strictEqual(shell.parseBytes('1.5 KiB'), 1536);
  assert.strictEqual(shell.parseBytes('512'), 512);
  assert.strictEqual(shell.parseBytes(2048), 2048);
  assert.strictEqual(shell.parseBytes('six MB'), null);
  assert.strictEqual(shell.parseBytes(-1), null);
  assert.strictEqual(shell.parseBytes({}), null);
});

test('byte counts format in human units', () => {
  const path = require('path');
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({ bson: {}, print, bsonsize, getDb: () => undefined });
  assert.strictEqual(shell.formatBytes(512), '512 B');
  assert.strictEqual(shell.formatBytes(1536), '1.50 KB');
  assert.strictEqual(shell.formatBytes(6 * 1024 * 1024), '6.00 MB');
  assert.strictEqual(shell.formatBytes(18.9 * 1024 ** 3), '18.9 GB');
});
