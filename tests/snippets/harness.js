// Runs one snippet test file inside a real mongosh and prints TAP.
// Usage: mongosh --nodb --quiet --norc --eval "globalThis.__dbaLabTestFile='F'; void 0" tests/snippets/harness.js
// (or a connection string instead of --nodb for the integration suites).
// One mongosh process per file: startup is paid once, and every case in the
// file sees the snippets exactly as a user's shell does after load().
// The file's last value is the promise of the run: mongosh awaits it before
// it exits, so async cases finish (a top-level await is a SyntaxError in a
// file run after --eval).
(() => {
  const path = require('path');
  const file = globalThis.__dbaLabTestFile;
  delete globalThis.__dbaLabTestFile;
  const root = path.resolve(__dirname, '..', '..');
  const globalsBefore = new Set(Object.getOwnPropertyNames(globalThis));
  load(path.join(root, 'snippets', 'index.js'));
  const globalsAdded = Object.getOwnPropertyNames(globalThis).filter((n) => !globalsBefore.has(n));

  const cases = [];
  const test = (name, fn) => { cases.push({ name, fn }); };
  test.skip = (name, reason) => { cases.push({ name, skip: reason || 'skipped' }); };
  test.globalsAdded = globalsAdded;
  test.root = root;
  test.fixture = (...parts) => path.join(root, 'tests', 'fixtures', ...parts);
  // The error a snippet throws, for asserting on its message.
  test.thrown = (fn) => {
    try { fn(); } catch (err) { return err; }
    throw new Error('expected an Error, nothing was thrown');
  };
  globalThis.test = test;
  globalThis.assert = require('assert');

  load(file);

  return require(path.join(__dirname, 'lib', 'run-cases.js'))(cases, print);
})();
