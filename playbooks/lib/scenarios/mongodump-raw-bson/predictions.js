'use strict';
// mongodump-raw-bson: what each release series is predicted to do with the
// article's claims. The claims are about the tools, not the server: mongodump
// copies each document's bytes as the server sent them, and a driver that
// decodes pays for every field on every release alike. Read by checker.js,
// the lab guide's "What changes per version" and docs/predictions.md
// (playbooks/lib/js/predictions.js).
const { table } = require('../../js/predictions.js');

const DUMP = {
  ref: 'mongo-tools mongodump/mongodump.go: dumpValidatedIterToWriter copies each cursor document\'s raw bytes (iter.Current) to the file without decoding it',
  url: 'https://github.com/mongodb/mongo-tools/blob/master/mongodump/mongodump.go',
  checked: true,
};
const RESTORE = {
  ref: 'mongo-tools mongorestore: every document is inserted again, so the server writes, journals and indexes it',
  url: 'https://github.com/mongodb/mongo-tools/blob/master/mongorestore/restore.go',
  checked: false,
};
const same = (holds, reason, source) => ({ spans: [{ from: '4.4', holds, reason, source }] });

module.exports = table({
  scenario: 'mongodump-raw-bson',
  claims: {
    decoding: same(true, 'mongodump moves each document as raw BSON, while a decoding reader builds an object per document: the gap is on the client, whatever the server version', DUMP),
    raw: same(true, 'a driver loop that keeps documents raw does the same work as mongodump, so decoding is what separates the two', DUMP),
    restore: same(true, 'a restore makes the server insert, journal and index every document again, which a dump never does', RESTORE),
    shape: same(true, 'decoding cost grows with the fields and nesting of each document, which raw copying never looks at', DUMP),
  },
  notes: [
    { from: '4.4', text: 'the Database Tools (mongodump, mongorestore) are versioned apart from the server (100.x): the tools, not the server, decide how documents are copied', source: DUMP },
    { from: '8.0', text: 'a multi-document insertMany is replicated as applyOps entries: with --replicaset a driver restore writes fewer, larger oplog entries', source: { ref: 'jstests/change_streams/apply_ops_vectored_insert.js', url: 'https://github.com/mongodb/mongo/blob/3e0ff89ff121d04bdb697eefb2e90cdb91f9ce9e/jstests/change_streams/apply_ops_vectored_insert.js#L6', checked: true } },
  ],
});
