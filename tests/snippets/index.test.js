// The package's contract with mongosh: what loading snippets/index.js defines.
// concerns.json is the list of public globals, per module.

test('every concern module exports exactly the globals concerns.json lists', () => {
  const path = require('path');
  const concerns = require(path.join(test.root, 'snippets', 'lib', 'concerns.json'));
  const makeShell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'));
  const shell = makeShell({ bson: { Long, Timestamp, UUID, Double, Int32, Decimal128, ObjectId, Binary }, print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date } });
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
  const shell = makeShell({ bson: {}, print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date } });
  const err = test.thrown(() => shell.db('oplogWindow'));
  assert.match(err.message, /^oplogWindow: needs a connected shell/);
});

test('sizes parse in binary units and reject what is not a size', () => {
  const path = require('path');
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({ bson: {}, print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date } });
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
  const shell = require(path.join(test.root, 'snippets', 'lib', 'shell.js'))({ bson: {}, print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date } });
  assert.strictEqual(shell.formatBytes(512), '512 B');
  assert.strictEqual(shell.formatBytes(1536), '1.50 KB');
  assert.strictEqual(shell.formatBytes(6 * 1024 * 1024), '6.00 MB');
  assert.strictEqual(shell.formatBytes(18.9 * 1024 ** 3), '18.9 GB');
});

// The functions are made in required modules (another realm than the
// prompt's): what reaches the user must still be the shell's own kind.
test('every bad-argument error is the shell\'s Error with a stable code', () => {
  const calls = [
    () => decodeResumeToken(42),
    () => compareResumeTokens('82', null),
    () => explainOplogEntry(undefined),
    () => oplogEntrySize(new Date()),
    () => seedCollection(null),
    () => collStatsSummary(42),
    () => chunkSummary(NaN),
  ];
  for (const call of calls) {
    const err = test.thrown(call);
    assert.ok(err instanceof Error, `${err && err.message} is not the shell's Error`);
    assert.strictEqual(err.code, 'DBALAB_BAD_ARGUMENT', err.message);
  }
});

test('without a connection the error says so with its own code', () => {
  const err = test.thrown(() => oplogWindow());
  assert.ok(err instanceof Error);
  assert.strictEqual(err.code, 'DBALAB_NO_CONNECTION');
});

test('results are the shell\'s Objects and Arrays, nested ones included', () => {
  const r = decodeResumeToken('826275077A000000012B042C0100296E5A1004BFFDB617400E486099007C0E0048B305463C6F7065726174696F6E54797065003C696E736572740046646F63756D656E744B65790046645F696400646275077A2F3159F971E405C6000004');
  assert.ok(r instanceof Object);
  assert.ok(r.eventIdentifier instanceof Object);
  const e = explainOplogEntry({ op: 'u', ns: 'a.b', o: { $v: 2, diff: { sarr: { a: true, u3: 1 } } }, o2: { _id: 1 } });
  assert.ok(e instanceof Object);
  const arrays = Object.values(e).filter((v) => Array.isArray(v));
  assert.ok(arrays.length > 0, 'explainOplogEntry returns no array to check');
  for (const a of arrays) assert.ok(a instanceof Array);
});

test('the first argument is checked first', () => {
  assert.match(test.thrown(() => seedCollection(null, { bogus: 1 })).message,
    /^seedCollection: target must be a collection .*; got null$/);
  assert.match(test.thrown(() => collStatsSummary(42, 'x')).message, /^collStatsSummary: target .*; got the number 42$/);
});

test('values are described by what they are', () => {
  const explain = (x) => test.thrown(() => explainOplogEntry(x)).message.replace(/^.*, got /, '');
  assert.strictEqual(explain(undefined), 'undefined');
  assert.strictEqual(explain(NaN), 'NaN');
  assert.strictEqual(explain(new Date(0)), 'a Date');
  assert.strictEqual(explain(Long(5)), 'a Long');
  assert.strictEqual(explain(ObjectId('000000000000000000000000')), 'an ObjectId');
  assert.strictEqual(explain('abc'), 'the string "abc"');
});

test('a huge argument is quoted by a short prefix only', () => {
  const huge = 'x'.repeat(2 * 1024 * 1024);
  for (const call of [() => explainOplogEntry(huge), () => seedCollection('t', huge), () => chunkSummary(huge),
    () => decodeResumeToken({ _data: 5, [huge]: 1 })]) {
    const err = test.thrown(call);
    assert.ok(err.message.length < 400, `${err.message.length} characters: ${err.message.slice(0, 120)}`);
  }
});

test('a type error is not placed at a byte', () => {
  assert.doesNotMatch(test.thrown(() => decodeResumeToken({ _data: 'aa', _typeBits: 5 })).message, /at byte/);
  assert.doesNotMatch(test.thrown(() => decodeResumeToken(true)).message, /at byte/);
});

test('each help() prints as mongosh\'s own method help, with the purpose the README lists', () => {
  const path = require('path');
  const concerns = require(path.join(test.root, 'snippets', 'lib', 'concerns.json'));
  const readme = require('fs').readFileSync(path.join(test.root, 'snippets', 'README.md'), 'utf8');
  const realPrint = globalThis.print;
  for (const name of Object.values(concerns).flat()) {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${name}(`));
    assert.ok(row, `snippets/README.md (what snippet help dba-lab prints) lists no ${name}`);
    const purpose = row.split(' | ')[1].replace(/ \|$/, '');
    const printed = [];
    globalThis.print = (...a) => printed.push(a.join(' '));
    try { globalThis[name].help(); } finally { globalThis.print = realPrint; }
    const lines = printed.join('\n').split('\n');
    assert.strictEqual(lines[0], '');
    assert.match(lines[1], new RegExp(`^  ${name}\\(.*\\):$`));
    assert.strictEqual(lines[3].toLowerCase(), `  ${purpose}`.toLowerCase());
    assert.strictEqual(lines[lines.length - 1], '  For more information on usage: snippet help dba-lab');
  }
});
