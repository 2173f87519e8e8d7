// The package's contract with mongosh: what loading snippets/index.js defines.
// concerns.json is the list of public globals, per module.

test('every concern module exports exactly the globals concerns.json lists', () => {
  const path = require('path');
  const concerns = require(path.join(test.root, 'snippets', 'lib', 'concerns.json'));
  const makeShell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'));
  const shell = makeShell({ bson: {}, print, bsonsize, getDb: () => undefined });
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
