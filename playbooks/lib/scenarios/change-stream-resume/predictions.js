'use strict';
// change-stream-resume: what each release series is predicted to do with the
// article's claims (MongoDB 5.2.0 in the article). Read by checker.js, the lab
// guide's "What changes per version" and docs/predictions.md (playbooks/lib/js/predictions.js).
const { table } = require('../../js/predictions.js');

// The batching facts changeStreamResumeCheck also states: one place for both.
const path = require('path');
const { SOURCES, REASONS } = require(path.resolve(__dirname, '../../../../snippets/lib/change-stream-batching.js'));

const REWRITE = SOURCES.REWRITE;
const KNOB = SOURCES.KNOB;
const PBRT = {
  ref: 'MongoDB manual: resume a change stream (postBatchResumeToken, 4.0.7+)',
  url: 'https://www.mongodb.com/docs/manual/changeStreams/#resume-a-change-stream',
  checked: true,
};

const { BEFORE_REWRITE, WITH_REWRITE } = REASONS;

module.exports = table({
  scenario: 'change-stream-resume',
  claims: {
    A: {
      spans: [{ from: '4.4', holds: true, reason: REASONS.A, source: KNOB }],
    },
    B: {
      spans: [{ from: '4.4', holds: true, reason: REASONS.B, source: KNOB }],
    },
    C: {
      spans: [
        { from: '4.4', holds: false, reason: BEFORE_REWRITE, source: REWRITE },
        { from: '5.1', holds: true, reason: `${WITH_REWRITE}: C's two events share one batch`, source: REWRITE },
      ],
    },
    D: {
      spans: [
        { from: '4.4', holds: false, reason: `${BEFORE_REWRITE}: C's first event already leaves early, so lowering the knob has nothing to improve`, source: REWRITE },
        { from: '5.1', holds: true, reason: `${WITH_REWRITE}; a 128-byte knob ends the batch after the first matching event`, source: REWRITE },
      ],
    },
    E: {
      spans: [{ from: '4.4', holds: true, reason: 'a postBatchResumeToken (4.0.7+) marks how far the server already scanned, so resuming from it skips what A read', source: PBRT }],
    },
  },
  facts: {
    // Read by the real-server tests (tests/integration/mongod/resume-token.test.js).
    'resume-token-v2': {
      label: 'a new change stream emits version 2 resume tokens',
      spans: [
        { from: '4.4', holds: false, reason: 'before 6.1 new streams emit version 1 tokens (6.0 has version 2 only through a test-only option)', source: { ref: 'jstests/change_streams/generate_v2_resume_token.js (requires_fcv_60): v1 is the default', url: 'https://github.com/mongodb/mongo/blob/r6.0.0/jstests/change_streams/generate_v2_resume_token.js', checked: true } },
        { from: '6.1', holds: true, reason: 'from 6.1 new streams emit version 2 tokens', source: { ref: 'SERVER-64970: v2 resume tokens by default', url: 'https://jira.mongodb.org/browse/SERVER-64970', checked: true } },
      ],
    },
  },
  notes: [
    { from: '3.4.2', text: 'the default of internalDocumentSourceCursorBatchSizeBytes drops from 16 MB to 4 MB, as the article says', source: KNOB },
    { from: '4.0.7', text: 'change streams return a postBatchResumeToken (run E resumes from it)', source: PBRT },
    { from: '8.0', text: 'a stream resumed from a version 1 token adopts the higher of its default and the token\'s version, so it emits version 2 once past the token (read in current code, DocumentSourceChangeStream::createFromBson; 7.0 not read)', source: { ref: 'src/mongo/db/pipeline/document_source_change_stream.cpp: createFromBson', url: 'https://github.com/mongodb/mongo/blob/master/src/mongo/db/pipeline/document_source_change_stream.cpp', checked: false } },
    { from: '8.0', text: 'a multi-document insertMany becomes applyOps entries (the playbook inserts one by one)', source: { ref: 'jstests/change_streams/apply_ops_vectored_insert.js', url: 'https://github.com/mongodb/mongo/blob/3e0ff89ff121d04bdb697eefb2e90cdb91f9ce9e/jstests/change_streams/apply_ops_vectored_insert.js#L6', checked: true } },
  ],
});
