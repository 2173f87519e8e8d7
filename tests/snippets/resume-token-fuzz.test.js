// 100,000 random and mutated tokens (deterministic seed): each one either
// decodes or throws the clear Error (exactly Error, "decodeResumeToken: ...",
// with the byte offset). Never another exception type, never a hang: the
// harness would report a timeout or a crash as a failure of this file.

test('100k random and mutated tokens decode or throw the clear Error', () => {
  const path = require('path');
  const { fuzzTokens } = require(path.join(test.root, 'tests', 'snippets', 'lib', 'token-fuzz.js'));
  const seeds = [
    '82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004',
    '82612F653E000000022B0229296E04',
    '82612F653E000000022B0429296E1404',
    '826275077A000000012B042C0100296E5A1004BFFDB617400E486099007C0E0048B305463C6F7065726174696F6E54797065003C696E736572740046646F63756D656E744B65790046645F696400646275077A2F3159F971E405C6000004',
    '8265523992000000012B022C0100296E5A1004754B35D306B342E8BA0A3DE71005B66446465F6964004650666F6F0050337F78F63E7958E8661F808709C186A717992A6083F43058818C1A289F7C0BCFA77E73E500000004',
    // documentKey {_id: 12345678901234567890} as a Decimal128 with its continuation (keystring.test.js)
    '820000000100000001' + '2B022C0100296E' + '5A1004' + '00112233445566778899AABBCCDDEEFF' + '461E5F696400' + '3307CAD52A633AC7C30100818478C88000' + '0004',
  ];
  const started = Date.now();
  const r = fuzzTokens(decodeResumeToken, {
    count: 100000,
    seed: 20220302,
    seeds,
    makeBinary: (bytes) => Binary(Buffer.from(bytes), 0),
    ShellError: Error,
  });
  const seconds = (Date.now() - started) / 1000;
  assert.strictEqual(r.bad.length, 0, JSON.stringify(r.bad, null, 1));
  assert.strictEqual(r.decoded + r.rejected, 100000);
  // Both outcomes must be well represented, or the fuzzer tests nothing.
  assert.ok(r.decoded > 5000, `decoded ${r.decoded}`);
  assert.ok(r.rejected > 50000, `rejected ${r.rejected}`);
  print(`# fuzz: ${r.decoded} decoded, ${r.rejected} rejected in ${seconds}s`);
});
