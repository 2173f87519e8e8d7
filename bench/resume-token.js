// Throughput of decodeResumeToken against the npm mongodb-resumetoken-decoder
// (the decoder mongosh-snippets' resumetoken snippet wraps), on the same
// tokens, in the same process, alternating rounds so neither gets a warmer JIT.
//
//   node bench/resume-token.js [seconds-per-round]      (default 0.5, 6 rounds each)
//   mongosh --nodb --quiet bench/resume-token.js
//
// Tokens: the eleven of seed 000 (v1 inserts with an ObjectId _id), the public
// vectors in FACTS.md (v1/v2 high-water marks, a v2 insert, a v1 key of doubles).
// Prints tokens/s for each decoder and the ratio (goal: ours >= 2x).
'use strict';

(function main() {
  const path = require('path');
  const inMongosh = typeof globalThis.bsonsize === 'function';
  const root = inMongosh ? process.cwd() : path.resolve(__dirname, '..');
  const out = inMongosh ? print : console.log;
  const req = (m) => require(require.resolve(m, { paths: [root] }));

  const bson = inMongosh
    ? { Binary, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID } // eslint-disable-line no-undef
    : req('bson');
  const shell = require(path.join(root, 'snippets', 'lib', 'shell.js'))({
    bson, print: out, bsonsize: () => 0, getDb: () => undefined,
  });
  const ours = require(path.join(root, 'snippets', 'lib', 'resume-token.js'))(shell).decodeResumeToken;
  const theirs = req('mongodb-resumetoken-decoder').decodeResumeToken;
  const theirsVersion = JSON.parse(require('fs').readFileSync(
    path.join(root, 'node_modules', 'mongodb-resumetoken-decoder', 'package.json'), 'utf8')).version;

  const tokens = [
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

  const argv = inMongosh ? [] : process.argv.slice(2);
  const seconds = Number(argv[0]) > 0 ? Number(argv[0]) : 0.5;
  const rounds = 6;

  // Both must agree on what they decode, or the race means nothing.
  for (const t of tokens) {
    const a = ours(t);
    const b = theirs(t);
    if (a.timestamp.toString() !== b.timestamp.toString()) throw new Error(`decoders disagree on ${t}`);
  }

  let sink = 0;
  function run(fn) {
    const start = process.hrtime.bigint();
    const limit = BigInt(Math.round(seconds * 1e9));
    let n = 0;
    for (;;) {
      for (let k = 0; k < tokens.length; k++) sink += fn(tokens[k]).version;
      n += tokens.length;
      const ns = process.hrtime.bigint() - start;
      if (ns >= limit) return (n * 1e9) / Number(ns);
    }
  }

  run(ours); run(theirs); // warm-up
  const ourRates = [];
  const theirRates = [];
  for (let r = 0; r < rounds; r++) {
    theirRates.push(run(theirs));
    ourRates.push(run(ours));
  }
  const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
  const o = median(ourRates);
  const t = median(theirRates);
  const fmt = (x) => Math.round(x).toLocaleString('en-US');
  out(`resume token decoding, ${tokens.length} tokens, ${rounds} rounds of ${seconds}s each, median (${inMongosh ? 'mongosh' : 'node'} ${process.version})`);
  out(`  decodeResumeToken (ours)                 ${fmt(o).padStart(12)} tokens/s`);
  out(`  mongodb-resumetoken-decoder ${theirsVersion.padEnd(12)} ${fmt(t).padStart(12)} tokens/s`);
  out(`  ratio ours/npm                           ${(o / t).toFixed(2).padStart(12)}x   (goal >= 2x)`);
  if (sink === -1) out('');
})();
