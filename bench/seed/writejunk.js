// The article's generator from seed 000 (shell-configure-test.js, CC BY 4.0):
// randomString(), writeJunk() and seedCollection() as published, except that
// seedCollection's writeJunk counts are multiplied by `benchScale` (1 = the
// article's 3000 junk documents) so smaller runs keep the same sequence.
// Run: mongosh URI/test --eval 'var benchMode = "sequence", benchScale = 0.01' bench/seed/writejunk.js
//      mongosh URI/test --eval 'var benchMode = "single", benchDocs = 100' bench/seed/writejunk.js
function randomString(length) {
   var result           = '';
   var characters       = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
   var charactersLength = characters.length;
   for ( var i = 0; i < length; i++ ) {
      result += characters.charAt(Math.floor(Math.random() * charactersLength));
   }
   return result;
}

function writeJunk(count, stringLength) {
  print("Pushing " + count + " junk docs of size " + stringLength);
  var data = [];
  // doesn't matter what the string is so just reuse it
  var string = randomString(stringLength);
  for (var i = 0; i < count; i++) {
    data.push({ i: i, s: string });
  }
  db.getSiblingDB("test").foo.insertMany(data);
}

function n(count) { return Math.round(count * benchScale); }

function seedCollection() {
  db.foo.insertOne({ msg: "This document will be 1Kb", s: randomString(1024) });
  writeJunk(n(100), 1048576 * 6);
  db.foo.insertOne({ msg: "100 6MB documents, then another 1Kb document", s: randomString(1024) });
  writeJunk(n(100), 1048576 * 6);
  db.foo.insertOne({ msg: "And another 100 6MB documents, then another 1Kb document", s: randomString(1024) });
  db.foo.insertOne({ msg: "... followed immediately by a 1MB document", s: randomString(1024 * 1024) });
  writeJunk(n(100), 1048576 * 6);
  db.foo.insertOne({ msg: "100 6MB documents preceded this 3MB document", s: randomString(1024 * 1024 * 3) });
  db.foo.insertOne({ msg: "... followed by another 1MB document", s: randomString(1024 * 1024) });
  writeJunk(n(500), 1048576 * 6);
  db.foo.insertOne({ msg: "500 6MB documents added" });
  writeJunk(n(200), 1048576 * 6);
  db.foo.insertOne({ msg: "200 6MB documents added" });
  db.foo.insertOne({ msg: "Adding 2000 more 6MB documents..." });
  writeJunk(n(2000), 1048576 * 6);
  db.foo.insertOne({ msg: "This is the last document we'd expect" });
}

db.getSiblingDB('test').dropDatabase();
var benchStart = Date.now();
if (benchMode === 'sequence') seedCollection(); else writeJunk(benchDocs, 1048576 * 6);
var benchSeconds = (Date.now() - benchStart) / 1000;
print(JSON.stringify({ method: 'writeJunk', mode: benchMode, docs: db.getSiblingDB('test').foo.countDocuments({}), seconds: benchSeconds }));
