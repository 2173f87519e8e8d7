'use strict';
// How a resumed change stream batches what its oplog scan finds, as the
// change-stream-resume lab states it: its predictions table
// (playbooks/lib/scenarios/change-stream-resume/predictions.js) takes its
// reasons and sources from here, and changeStreamResumeCheck reads the same
// words to say when a resume's first event can arrive. Plain data, no shell.

const SOURCES = {
  // The user's $match rewritten into the oplog scan: DocumentSourceChangeStreamOplogMatch::doOptimizeAt
  // (document_source_change_stream_oplog_match.cpp) rebuilds the scan's filter with it.
  REWRITE: {
    ref: 'SERVER-56872: the $match rewrite into the oplog scan, behind featureFlagChangeStreamsRewrite (on by default from 5.1, query_feature_flags.idl)',
    url: 'https://jira.mongodb.org/browse/SERVER-56872',
    checked: true,
  },
  KNOB: {
    ref: 'internalDocumentSourceCursorBatchSizeBytes, 4 MiB since 3.4.2 (SERVER-27406)',
    url: 'https://jira.mongodb.org/browse/SERVER-27406',
    checked: true,
  },
};

const REASONS = {
  A: 'with the default batch size the opening aggregate returns only when its scan reaches the end of the oplog, so every event it found leaves in that one batch',
  B: 'with batchSize 1 the opening aggregate returns as soon as it has one event; the rest follow one getMore each',
  BEFORE_REWRITE: 'before 5.1 the stream\'s $match runs after the $cursor stage: every 6 MB junk entry enters that stage\'s batch and ends it, so events leave one by one',
  WITH_REWRITE: 'from 5.1 the stream\'s $match is rewritten into the oplog scan: skipped entries never reach the $cursor stage\'s 4 MB batch, which fills with matching events only',
};

module.exports = {
  SOURCES,
  REASONS,
  // The first release whose oplog scan applies the stream's own $match.
  FILTER_IN_SCAN_FROM: [5, 1],
  // internalDocumentSourceCursorBatchSizeBytes' default (SOURCES.KNOB).
  CURSOR_BATCH_BYTES: 4 * 1024 * 1024,
  // An aggregate's first batch without batchSize (the manual's cursor batches).
  DEFAULT_FIRST_BATCH: 101,
};
