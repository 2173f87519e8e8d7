'use strict';
// What a verdict's words mean, said once: every report (Markdown and HTML),
// the terminal's summary (node legend.js) and docs/verdicts.md say the same.
// A verdict answers two questions, kept apart so that an outdated article
// does not read as a failed run: does the article's claim hold on this
// version, and did the run go as the playbook predicted for this version?

const CLAIM_WORDS = [
  ['REPRODUCED', "the article's claim held on this server version in this run."],
  ['NOT REPRODUCED', "the article's claim did not hold on this version in this run. Not a failure: articles age, and the playbook may have predicted it (see the prediction)."],
  ['NOT APPLICABLE', 'not judged: this run lacked what the claim needs (a deployment kind, a measurement, or enough evidence); the reason says which.'],
];

const PREDICTION_WORDS = [
  ['AS PREDICTED', 'the outcome is the one the playbook\'s table predicts for this release series, from MongoDB\'s source, tickets and release notes (under "What the playbook predicted", with the source; "unverified" where that source could not be read).'],
  ['NOT AS PREDICTED', 'the outcome differs from the prediction: the finding to look into (a changed server, a disturbed measurement or a wrong prediction).'],
  ['NO PREDICTION', 'the table has no prediction for this server: a release series it does not cover (it covers 4.4 to 8.0) or a server that is not MongoDB (FerretDB). The claim\'s verdict stands; there is nothing to compare it with.'],
];

const EVIDENCE = 'Evidence: what a quantitative claim was judged on (points of a sweep, repetitions, spread of the points). Below the minimum its checker declares, the claim is NOT APPLICABLE, never guessed.';

// The prediction of a verdict record as words; records written before
// predictions were recorded have none.
function predictionText(v) {
  if (v.prediction === undefined) return 'not recorded (an older report)';
  if (v.prediction === '') return 'not judged';
  const basis = v.predictionBasis;
  if (basis && basis.none) return `${v.prediction}: ${basis.none}`;
  if (basis && basis.source && basis.source.checked === false) return `${v.prediction} (unverified prediction)`;
  return v.prediction;
}

function lines() {
  return [
    ...CLAIM_WORDS.map(([w, text]) => `${w}: ${text}`),
    ...PREDICTION_WORDS.map(([w, text]) => `${w}: ${text}`),
    EVIDENCE,
  ];
}

// The legend in one line: the terminal's summary and the top of report.html
// (beside the verdicts); report.md and report.html have the rest.
const SHORT_PARTS = [
  [['REPRODUCED', 'NOT REPRODUCED'], "did the article's claim hold on this version"],
  [['AS PREDICTED', 'NOT AS PREDICTED'], 'is that what the playbook predicted (NOT AS PREDICTED is the finding)'],
  [['NO PREDICTION'], 'no prediction for this server or series'],
  [['NOT APPLICABLE'], 'not judged, the reason says why'],
];
const SHORT = SHORT_PARTS.map(([words, text]) => `${words.join(' / ')}: ${text}`).join('; ');

module.exports = { CLAIM_WORDS, PREDICTION_WORDS, EVIDENCE, SHORT, SHORT_PARTS, predictionText, lines };

if (require.main === module) process.stdout.write(`${process.argv[2] === '--short' ? SHORT : lines().join('\n')}\n`);
