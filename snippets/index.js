// mongosh-dba-lab: mongosh load()s this file (snippet install dba-lab).
// One statement, because load() runs every line through mongosh's async
// rewriter and that costs startup time: the work is in lib/loader.js, plain
// Node, which takes the shell's globals (BSON types, print, db) from here.
require(require('path').join(__dirname, 'lib', 'loader.js'))(globalThis);
