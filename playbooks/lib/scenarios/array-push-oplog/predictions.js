'use strict';
// array-push-oplog: what each release series is predicted to do with the
// article's claims (MongoDB 2.2 in the article), and how it logs each array
// pattern (the facts: the versions claim and the real-server oplog tests read
// them). Read by checker.js, the lab guide's "What changes per version" and
// docs/predictions.md (playbooks/lib/js/predictions.js).
const { table } = require('../../js/predictions.js');
const { PATTERNS } = require('./model.js');

const PUSH_NODE = {
  ref: 'src/mongo/db/update/push_node.cpp: PushNode::logUpdate (an append is logged per element, any other change as the whole array)',
  url: 'https://github.com/mongodb/mongo/blob/01d84b2565fc9ea9626a55dcf1f3f817968088f2/src/mongo/db/update/push_node.cpp',
  checked: true,
};
const ADD_TO_SET = {
  ref: 'SERVER-72941: $addToSet logs only the appended elements (AddToSetNode::logUpdate, kArrayAppendUpdate)',
  url: 'https://jira.mongodb.org/browse/SERVER-72941',
  checked: false,
};
const POP = {
  ref: 'src/mongo/db/update/pop_node.cpp: PopNode::updateExistingElement returns kNormalUpdate, logged as the whole array',
  url: 'https://github.com/mongodb/mongo/blob/master/src/mongo/db/update/pop_node.cpp',
  checked: true,
};
const PULL = {
  ref: 'src/mongo/db/update/array_culling_node.cpp: $pull rewrites the array (not re-read)',
  url: 'https://github.com/mongodb/mongo/blob/master/src/mongo/db/update/array_culling_node.cpp',
  checked: false,
};
const SET_ELEMENT = {
  ref: 'jstests/replsets/oplog_format.js: a $set of one element is logged as that path',
  url: 'https://github.com/mongodb/mongo/blob/master/jstests/replsets/oplog_format.js',
  checked: true,
};

const whole = (reason, source) => ({ spans: [{ from: '4.4', holds: true, reason, source }] });
const positional = (reason, source) => ({ spans: [{ from: '4.4', holds: false, reason, source }] });

// Whether an update of each pattern (model.js PATTERNS) is logged as the whole array.
const LOGGED_WHOLE = {
  push: positional('a $push that appends to a non-empty array is logged per new element (since 2.6)', PUSH_NODE),
  'push-slice': whole('a $slice that trims makes the push a normal update, logged as the whole array', PUSH_NODE),
  'push-sort': whole('any $sort makes the push a normal update, logged as the whole array', PUSH_NODE),
  'push-position0': whole('$position before the end makes the push a normal update, logged as the whole array', PUSH_NODE),
  addtoset: {
    spans: [
      { from: '4.4', holds: true, reason: '$addToSet has no log rule of its own before SERVER-72941 and logs the whole array', source: ADD_TO_SET },
      { from: '7.1', holds: false, reason: 'from SERVER-72941 $addToSet logs only the appended elements, as an array append', source: ADD_TO_SET },
    ],
  },
  pull: whole('$pull logs the whole array', PULL),
  'pop-first': whole('$pop logs the whole array', POP),
  'pop-last': whole('$pop logs the whole array', POP),
  'set-one': positional('a $set of one element is logged as that element\'s path', SET_ELEMENT),
};

module.exports = table({
  scenario: 'array-push-oplog',
  claims: {
    push: {
      spans: [{ from: '4.4', holds: false, reason: 'since 2.6 a plain $push to a non-empty array is logged positionally: its entry stays flat as the array grows', source: PUSH_NODE }],
    },
    'push-slice': {
      spans: [{ from: '4.4', holds: true, reason: 'a $slice that trims turns the push into a normal update, logged as the whole array, $v:1 and $v:2 alike', source: PUSH_NODE }],
    },
    fix: {
      spans: [{ from: '4.4', holds: true, reason: 'one small insert per reading and an hourly compaction replicate the hour about once, where the whole-array pattern replicates it about 1800 times', source: PUSH_NODE }],
    },
    versions: {
      sameAcross: Object.keys(LOGGED_WHOLE).map((p) => `whole:${p}`),
      reason: 'holds when every version compared is on the same side of each change of the facts below',
    },
  },
  facts: Object.fromEntries(Object.entries(LOGGED_WHOLE).map(([p, f]) => [`whole:${p}`, { label: `${PATTERNS.find((x) => x.name === p).label} logged as the whole array`, ...f }])),
  notes: [
    { from: '2.2', text: 'every $push is logged as a $set of the whole array (the article\'s release)', source: { ref: 'SERVER-9784', url: 'https://jira.mongodb.org/browse/SERVER-9784', checked: true } },
    { from: '2.6', text: 'a plain $push to a non-empty array is logged positionally', source: PUSH_NODE },
    { from: '3.6', text: 'update entries are $v:1: {$set: {\'readings.N\': r}} for an append', source: { ref: 'jstests/replsets/oplog_format.js', url: 'https://github.com/mongodb/mongo/blob/master/jstests/replsets/oplog_format.js', checked: true } },
    { from: '5.0', text: 'update entries are $v:2 diffs ({sreadings: {a: true, uN: r}}) at FCV 4.7 and later; $v:1 ($set of readings.N) before', source: { ref: 'jstests/replsets/oplog_format.js', url: 'https://github.com/mongodb/mongo/blob/master/jstests/replsets/oplog_format.js', checked: true } },
    { from: '6.1', text: 'a deleteMany is written in batches as applyOps entries: the fix\'s 3600 deletes take fewer entries', source: { ref: 'SERVER-63044: batched multi-document deletes', url: 'https://jira.mongodb.org/browse/SERVER-63044', checked: true } },
  ],
});
