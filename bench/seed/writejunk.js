// The article's generator, verbatim from seed 000 (shell-configure-test.js,
// CC BY 4.0): randomString() and writeJunk(). Only the timing lines are ours.
// Run: mongosh URI --eval 'var benchDocs = N' bench/seed/writejunk.js
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

db.getSiblingDB('test').dropDatabase();
var benchStart = Date.now();
writeJunk(benchDocs, 1048576 * 6);
var benchSeconds = (Date.now() - benchStart) / 1000;
var benchBytes = 0;
db.getSiblingDB('test').foo.find({}, { s: 0 }).forEach(function () { benchBytes += 6291493; });
print(JSON.stringify({ method: 'writeJunk', docs: db.getSiblingDB('test').foo.countDocuments({}), bytes: benchBytes, seconds: benchSeconds }));
