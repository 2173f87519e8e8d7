'use strict';
// Runs a test file's cases one after another and prints TAP. A case that
// returns a promise (an async function) is awaited, and its rejection fails it.
// Plain Node, required rather than load()ed: mongosh's async rewriter
// mangles try/await inside async functions of a load()ed file.
module.exports = async function runCases(cases, print) {
  print(`1..${cases.length}`);
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    const n = i + 1;
    if (c.skip) {
      print(`ok ${n} - ${c.name} # SKIP ${c.skip}`);
      continue;
    }
    try {
      await c.fn();
      print(`ok ${n} - ${c.name}`);
    } catch (err) {
      print(`not ok ${n} - ${c.name}`);
      print(String((err && err.stack) || err).split('\n').map((l) => `# ${l}`).join('\n'));
    }
  }
};
