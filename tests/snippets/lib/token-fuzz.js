'use strict';
// Deterministic fuzzing for decodeResumeToken, kept out of the test file so
// mongosh's async rewriter does not slow the hot loop. Plain CommonJS.
//
// fuzzTokens(decode, {count, seed, seeds, makeBinary, ShellError}) -> {decoded, rejected, bad: [..]}
// ShellError: the Error constructor of the shell the decoder runs in.
// Every input must either decode to an object whose timestamp is a BSON
// Timestamp, or throw an Error (exactly Error) whose message starts
// "decodeResumeToken:" and names a byte offset. Anything else lands in `bad`.

// mulberry32: small, fast, and the same sequence everywhere.
function prng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = '0123456789ABCDEF';
// Bytes that mean something in KeyString: every ctype, 00, FF, 04.
const INTERESTING = [0x00, 0x01, 0x04, 0x0a, 0x0f, 0x14, 0x1e, 0x1f, 0x20, 0x27, 0x28, 0x29, 0x2a, 0x2b,
  0x2c, 0x32, 0x33, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x6f, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xf0,
  0xfe, 0xff];

function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += HEX[b >> 4] + HEX[b & 15];
  return s;
}

function fromHex(hex) {
  const out = [];
  for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16));
  return out;
}

function fuzzTokens(decode, { count, seed, seeds, makeBinary, ShellError }) {
  const rnd = prng(seed);
  const int = (n) => Math.floor(rnd() * n);
  const pick = (xs) => xs[int(xs.length)];
  const base = seeds.map(fromHex);
  const randomByte = () => (rnd() < 0.5 ? pick(INTERESTING) : int(256));

  function mutate(bytes) {
    const b = bytes.slice();
    const edits = 1 + int(4);
    for (let e = 0; e < edits; e++) {
      const at = int(b.length + 1);
      switch (int(6)) {
        case 0: b[Math.min(at, b.length - 1)] = randomByte(); break;
        case 1: b.splice(at, 0, randomByte()); break;
        case 2: b.splice(at, 1 + int(3)); break;
        case 3: b.length = Math.min(b.length, at); break; // truncate
        case 4: { // duplicate a slice
          const from = int(b.length);
          b.splice(at, 0, ...b.slice(from, from + 1 + int(12)));
          break;
        }
        default: b[Math.min(at, b.length - 1)] ^= 1 << int(8);
      }
    }
    return b;
  }

  function input(k) {
    const kind = k % 10;
    if (kind < 5) return toHex(mutate(pick(base)));
    if (kind === 5) { // a valid header, then random bytes
      const head = pick(base).slice(0, 9 + int(10));
      const n = int(40);
      for (let i = 0; i < n; i++) head.push(randomByte());
      return toHex(head);
    }
    if (kind === 6) { // random text, often not hex or odd
      const n = int(30);
      let s = '';
      for (let i = 0; i < n; i++) s += rnd() < 0.9 ? HEX[int(16)] : pick(['G', 'z', ' ', '-', '\u00e9', '0x']);
      return s;
    }
    if (kind === 7) { // with random _typeBits
      const bits = [];
      const n = int(6);
      for (let i = 0; i < n; i++) bits.push(i === 0 ? pick([0x00, 0x40, 0x7f, 0x80, 0x81, 0x82, 0xff]) : int(256));
      return { _data: toHex(rnd() < 0.5 ? pick(base) : mutate(pick(base))), _typeBits: makeBinary(bits) };
    }
    if (kind === 8) { // legacy BinData _data
      return { _data: makeBinary(mutate(pick(base))) };
    }
    return pick([undefined, null, 0, true, [], {}, { _data: null }, { _id: {} }, { _data: {} }, 'x', '']);
  }

  const result = { decoded: 0, rejected: 0, bad: [] };
  for (let k = 0; k < count; k++) {
    const x = input(k);
    let out;
    try {
      out = decode(x);
    } catch (err) {
      // Bad bytes say where; a wrong type is not 'at byte 0'.
      const ok = err instanceof ShellError && err.constructor === ShellError && typeof err.message === 'string' &&
        err.code === 'DBALAB_BAD_ARGUMENT' &&
        (/^decodeResumeToken: .*\bbyte \d+/.test(err.message) || /^decodeResumeToken: .*; got (?!.*byte \d)/.test(err.message));
      if (ok) result.rejected++;
      else if (result.bad.length < 5) result.bad.push({ input: x, error: String(err && err.stack) });
      continue;
    }
    if (out && out.timestamp && out.timestamp._bsontype === 'Timestamp') result.decoded++;
    else if (result.bad.length < 5) result.bad.push({ input: x, output: String(out) });
  }
  return result;
}

module.exports = { fuzzTokens, prng };
