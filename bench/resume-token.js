// bench/resume-token.js: decodeResumeToken as users call it, against the npm
// mongodb-resumetoken-decoder (the decoder mongosh-snippets' resumetoken
// snippet wraps).
//
//   node bench/resume-token.js [--rounds N] [--seconds S] [--help]
//
// What: tokens decoded per second by the global `decodeResumeToken` that
// snippets/index.js defines (its lazy stand-in included, as a mongosh user
// calls it), and by the npm decoder, on the same 14 tokens, inside one
// `mongosh --nodb` after load('snippets/index.js'). Also the first call's
// time, which pays the deferred require of the decoder module.
//
// How: node starts `mongosh --nodb --quiet --norc` on this same file; there,
// the timing loop comes from require(this file) so that mongosh's async
// rewriter, which instruments every function a shell script defines, is not
// in the measured loop for either side. N pairs of rounds (default 15) of S
// seconds each (default 0.2), the order of the two sides swapped at every
// pair so neither always runs on a warmer JIT or a quieter machine; one
// warm-up round each first. Monotonic clock: process.hrtime.bigint().
//
// Reading it: tokens/s are medians over the rounds; the ratio is the median
// of the per-pair ratios ours/npm with its interquartile range and min-max.
// A pair's two rounds run back to back, so the ratio holds up on a loaded
// machine better than the rates do. Goal (issue 2): ours >= 2x.
//
// Tokens: the eleven v1 insert tokens (ObjectId _id) printed in the article
// "Performance Analysis of Resuming a MongoDB Change Stream", and public
// vectors: v1 and v2 high-water marks, a v2 insert, a v1 key of doubles.
'use strict';

const RUNNING = Symbol.for('dba-lab.bench.resume-token');

const TOKENS = [
  '82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004',
  '82621F54B3000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54B33284546A99670EFD0004',
  '82621F54C4000000062B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54C43284546A99670F620004',
  '82621F54D4000000072B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54D43284546A99670FC70004',
  '82621F54D5000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54D53284546A99670FC80004',
  '82621F54E8000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54E83284546A9967102D0004',
  '82621F54E9000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F54E93284546A9967102E0004',
  '82621F5531000000072B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F55313284546A996712230004',
  '82621F554D000000052B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F554D3284546A996712EC0004',
  '82621F554D000000062B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F554D3284546A996712ED0004',
  '82621F5724000000012B022C0100296E5A1004D9EC8991B42F4F71BA61FC5BA26E2DED46645F69640064621F57243284546A99671ABE0004',
  '82612F653E000000022B0229296E04',
  '826275077A000000012B042C0100296E5A1004BFFDB617400E486099007C0E0048B305463C6F7065726174696F6E54797065003C696E736572740046646F63756D656E744B65790046645F696400646275077A2F3159F971E405C6000004',
  '8265523992000000012B022C0100296E5A1004754B35D306B342E8BA0A3DE71005B66446465F6964004650666F6F0050337F78F63E7958E8661F808709C186A717992A6083F43058818C1A289F7C0BCFA77E73E500000004',
];

// Tokens per second of `fn` over `seconds`, whole passes over the tokens.
function rate(fn, tokens, seconds) {
  const limit = BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  let n = 0;
  let sink = 0;
  for (;;) {
    for (let k = 0; k < tokens.length; k++) sink += fn(tokens[k]).version;
    n += tokens.length;
    const ns = process.hrtime.bigint() - start;
    if (ns >= limit) return { rate: (n * 1e9) / Number(ns), sink };
  }
}

// rounds pairs, the order swapped at every pair; returns the rates per side
// and the per-pair ratios ours/theirs.
function race(ours, theirs, tokens, rounds, seconds) {
  rate(ours, tokens, seconds);
  rate(theirs, tokens, seconds);
  const result = { ours: [], theirs: [], ratios: [] };
  for (let r = 0; r < rounds; r++) {
    let o;
    let t;
    if (r % 2 === 0) {
      o = rate(ours, tokens, seconds).rate;
      t = rate(theirs, tokens, seconds).rate;
    } else {
      t = rate(theirs, tokens, seconds).rate;
      o = rate(ours, tokens, seconds).rate;
    }
    result.ours.push(o);
    result.theirs.push(t);
    result.ratios.push(o / t);
  }
  return result;
}

// Median and quartiles (linear interpolation between closest ranks).
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

function firstCallMs(fn, token) {
  const t0 = process.hrtime.bigint();
  fn(token);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// Runs inside mongosh --nodb, in the shell's own context.
function shellMain(options) {
  const path = require('path');
  const root = path.resolve(__dirname, '..');
  const harness = require(__filename);
  const t0 = process.hrtime.bigint();
  load(path.join(root, 'snippets', 'index.js'));
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const ours = globalThis.decodeResumeToken;
  const first = harness.firstCallMs(ours, harness.TOKENS[0]);
  const npmPath = require.resolve('mongodb-resumetoken-decoder', { paths: [root] });
  const theirs = require(npmPath).decodeResumeToken;
  const npmDir = npmPath.slice(0, npmPath.lastIndexOf(`${path.sep}mongodb-resumetoken-decoder${path.sep}`))
    + `${path.sep}mongodb-resumetoken-decoder`;
  const npmVersion = JSON.parse(require('fs').readFileSync(path.join(npmDir, 'package.json'), 'utf8')).version;

  // Both must read every token the same way, or the race means nothing.
  for (const t of harness.TOKENS) {
    if (ours(t).timestamp.toString() !== theirs(t).timestamp.toString()) throw new Error(`decoders disagree on ${t}`);
  }

  const r = harness.race(ours, theirs, harness.TOKENS, options.rounds, options.seconds);
  const q = harness.quantile;
  const fmt = (x) => Math.round(x).toLocaleString('en-US').padStart(11);
  print(`resume token decoding in mongosh --nodb (node ${process.version}), ${harness.TOKENS.length} tokens, `
    + `${options.rounds} alternated pairs of ${options.seconds} s rounds`);
  print(`  load(snippets/index.js) ${loadMs.toFixed(1)} ms; first decodeResumeToken call ${first.toFixed(1)} ms (loads its module)`);
  print(`  decodeResumeToken (global)          ${fmt(q(r.ours, 0.5))} tokens/s   (min ${fmt(Math.min(...r.ours)).trim()}, max ${fmt(Math.max(...r.ours)).trim()})`);
  print(`  mongodb-resumetoken-decoder ${npmVersion.padEnd(7)} ${fmt(q(r.theirs, 0.5))} tokens/s   (min ${fmt(Math.min(...r.theirs)).trim()}, max ${fmt(Math.max(...r.theirs)).trim()})`);
  print(`  ratio ours/npm, median of pairs     ${q(r.ratios, 0.5).toFixed(2).padStart(11)}x   `
    + `(IQR ${q(r.ratios, 0.25).toFixed(2)}-${q(r.ratios, 0.75).toFixed(2)}, min-max ${Math.min(...r.ratios).toFixed(2)}-${Math.max(...r.ratios).toFixed(2)}; goal >= 2x)`);
}

const USAGE = `usage: node bench/resume-token.js [--rounds N] [--seconds S]

Tokens/s of the global decodeResumeToken (snippets/index.js loaded in
mongosh --nodb) against the npm mongodb-resumetoken-decoder, N alternated
pairs of rounds (default 15) of S seconds each (default 0.2).`;

// Runs under node: reads the options, then starts mongosh on this file.
function cli(argv) {
  const path = require('path');
  const fs = require('fs');
  const { spawnSync } = require('child_process');
  const options = { rounds: 15, seconds: 0.2 };
  const fail = (msg) => {
    process.stderr.write(`bench/resume-token.js: ${msg}\n`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    if (a === '--rounds' || a === '--seconds') {
      const v = Number(argv[++i]);
      if (a === '--rounds' && !(Number.isInteger(v) && v > 0)) fail('--rounds takes a positive whole number');
      if (a === '--seconds' && !(v > 0 && v <= 60)) fail('--seconds takes a number of seconds, above 0 and at most 60');
      options[a.slice(2)] = v;
    } else {
      fail(`unknown argument ${a} (see --help)`);
    }
  }
  const root = path.resolve(__dirname, '..');
  const local = path.join(root, '.tools', 'bin', 'mongosh');
  const mongosh = fs.existsSync(local) ? local : 'mongosh';
  const r = spawnSync(mongosh, ['--nodb', '--quiet', '--norc', '--eval', `var benchOptions = ${JSON.stringify(options)}`, __filename],
    { stdio: 'inherit' });
  if (r.error) fail(`cannot run mongosh: ${r.error.message} (source setup/env.sh first)`);
  process.exitCode = r.status === null ? 1 : r.status;
}

if (typeof module === 'object' && module !== null) {
  module.exports = { TOKENS, rate, race, quantile, firstCallMs };
}
if (typeof require === 'function' && require.main === module) {
  cli(process.argv.slice(2));
} else if (typeof globalThis.bsonsize === 'function' && !globalThis[RUNNING]) {
  // Inside mongosh; the flag keeps require(__filename) from starting a second run.
  globalThis[RUNNING] = true;
  try {
    // eslint-disable-next-line no-undef
    shellMain(typeof benchOptions === 'object' ? benchOptions : { rounds: 15, seconds: 0.2 });
  } finally {
    delete globalThis[RUNNING];
  }
}
