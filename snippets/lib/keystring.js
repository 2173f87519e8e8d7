'use strict';
// KeyString V1, ascending ordering: the byte format of a change stream resume
// token's `_data`. Decoding only; written from a reading of mongodb/mongo
// src/mongo/db/storage/key_string/key_string.cpp (read at commit 02e608b5b456;
// older servers keep the same format in src/mongo/db/storage/key_string.cpp) and
// key_string.h. Function names in the comments below are the server's, so a
// reviewer can check each rule against the function that writes the bytes.
//
// createKeyStringDecoder(types) -> { decode(bytes, typeBits), KeyStringError }
//   types: BSON classes (Binary, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128,
//          Double, Long, MaxKey, MinKey, ObjectId, Timestamp).
//   bytes: Uint8Array of the whole key (up to and including the 04 end byte).
//   typeBits: Uint8Array of `_typeBits` (the TypeBits buffer), or null when the
//          caller has none: numbers then get the narrowest type that holds them.
// Every failure is a KeyStringError carrying the byte offset where it happened.

// CType values: anonymous namespace CType in key_string.cpp.
const kMinKey = 10;
const kUndefined = 15;
const kNullish = 20;
const kNumericNaN = 30;
const kNumericNegativeLargeMagnitude = 31;
const kNumericNegative8ByteInt = 32;
const kNumericNegative1ByteInt = 39;
const kNumericNegativeSmallMagnitude = 40;
const kNumericZero = 41;
const kNumericPositiveSmallMagnitude = 42;
const kNumericPositive1ByteInt = 43;
const kNumericPositive8ByteInt = 50;
const kNumericPositiveLargeMagnitude = 51;
const kStringLike = 60;
const kObject = 70;
const kArray = 80;
const kBinData = 90;
const kOID = 100;
const kBoolFalse = 110;
const kBoolTrue = 111;
const kDate = 120;
const kTimestamp = 130;
const kRegEx = 140;
const kDBRef = 150;
const kCode = 160;
const kCodeWithScope = 170;
const kMaxKey = 240;
const kEnd = 4;
const kLess = 1;
const kGreater = 254;

// TypeBits values (key_string.h, class TypeBits).
const TB_INT = 0;
const TB_LONG = 1;
const TB_DOUBLE = 2;
const TB_DECIMAL = 3;
const TB_ABSENT = -1; // ours: no _typeBits given, infer the type from the value
const kV1NegativeDoubleZero = 0x18;
const kDecimalZero0xxx = 0x1a;

// DecimalContinuationMarker (key_string.h).
const kDCMEqualToDouble = 0;
const kDCMEqualToDoubleRoundedUpTo15Digits = 2;
const kDCMHasContinuationLargerThanDoubleRoundedUpTo15Digits = 3;

// BSONDepth::kDefaultMaxAllowableDepth, which toBsonValue() enforces.
const kMaxDepth = 200;

const TWO_POW_32 = 4294967296;
const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

// Decimal128 limits (IEEE 754-2008 decimal128, BID encoding).
const D_BIAS = 6176;
const D_MIN_EXP = -6176;
const D_MAX_EXP = 6111;
const D_MAX_COEF = 10n ** 34n - 1n;

class KeyStringError extends Error {
  constructor(message, offset) {
    super(message);
    this.name = 'Error';
    this.offset = offset;
  }
}

const HEX = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) { t[65 + i] = 10 + i; t[97 + i] = 10 + i; }
  return t;
})();

// Hex text -> bytes; a bad character is reported with its byte offset.
function hexToBytes(hex) {
  const n = hex.length;
  if (n === 0) throw new KeyStringError('empty token: _data has no bytes', 0);
  if (n & 1) {
    throw new KeyStringError(`odd-length hex (${n} characters): the last byte is cut in half`, n >> 1);
  }
  const out = new Uint8Array(n >> 1);
  for (let i = 0, j = 0; i < n; i += 2, j++) {
    const a = hex.charCodeAt(i);
    const b = hex.charCodeAt(i + 1);
    const hi = a < 128 ? HEX[a] : -1;
    const lo = b < 128 ? HEX[b] : -1;
    if (hi < 0 || lo < 0) {
      const bad = hi < 0 ? i : i + 1;
      throw new KeyStringError(
        `not hex: character ${JSON.stringify(hex[bad])} at position ${bad} (only 0-9, a-f, A-F)`, j);
    }
    out[j] = (hi << 4) | lo;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Exact decimal arithmetic for the Decimal128 encodings, on BigInt.
// A magnitude is {coef: BigInt >= 0, exp: Number}; value = coef * 10^exp.

const POW10 = [];
function pow10(k) {
  if (k < 64) {
    if (POW10[k] === undefined) POW10[k] = 10n ** BigInt(k);
    return POW10[k];
  }
  return 10n ** BigInt(k);
}

function digitCount(c) {
  return c === 0n ? 1 : c.toString().length;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE ? 1 : 0;
const LO = LITTLE ? 0 : 1;

function bitsToDouble(hi, lo) {
  u32[HI] = hi;
  u32[LO] = lo;
  return f64[0];
}

// The exact decimal value of a positive finite double.
function exactDouble(x) {
  f64[0] = x;
  const hi = u32[HI];
  const lo = u32[LO];
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2;
  if (bexp === 0) {
    e2 = -1074;
  } else {
    mant |= 1n << 52n;
    e2 = bexp - 1075;
  }
  if (e2 >= 0) return { coef: mant << BigInt(e2), exp: 0 };
  return { coef: mant * 5n ** BigInt(-e2), exp: e2 };
}

// Round to `digits` significant digits, toward zero or away from zero.
function roundDigits(d, digits, awayFromZero) {
  const n = digitCount(d.coef);
  if (n <= digits) return d;
  let k = n - digits;
  const p = pow10(k);
  let q = d.coef / p;
  if (awayFromZero && q * p !== d.coef) {
    q += 1n;
    if (q === pow10(digits)) { q = pow10(digits - 1); k += 1; }
  }
  return { coef: q, exp: d.exp + k };
}

// Decimal128(double, kRoundTo15Digits | kRoundTo34Digits, mode) in
// platform/decimal128.cpp: the double's exact value rounded to that many
// significant digits (the 15-digit form quantizes to a 15-digit coefficient).
function decimalFromDouble(bin, digits, awayFromZero) {
  return roundDigits(exactDouble(bin), digits, awayFromZero);
}

// Decimal128::normalize(): the same value with the longest coefficient (34
// digits) the exponent range allows.
function normalize34(d) {
  if (d.coef === 0n) return d;
  let shift = 34 - digitCount(d.coef);
  if (d.exp - shift < D_MIN_EXP) shift = d.exp - D_MIN_EXP;
  if (shift <= 0) return d;
  return { coef: d.coef * pow10(shift), exp: d.exp - shift };
}

let tinyDownshift = null; // kTinyDoubleExponentDownshiftFactorAsDecimal
function tinyDownshiftFactor() {
  if (!tinyDownshift) tinyDownshift = roundDigits(exactDouble(2 ** -256), 34, false);
  return tinyDownshift;
}

// ---------------------------------------------------------------------------

function createKeyStringDecoder(types) {
  const {
    Binary, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128, Double, Long, MaxKey, MinKey,
    ObjectId, Timestamp,
  } = types;
  const utf8 = new TextDecoder('utf-8');

  // Decoder state for the key being decoded (decoding is synchronous).
  let buf = null;
  let pos = 0;
  let end = 0;
  let tb = null; // type bits data bytes, null when all zeros
  let tbSize = 0;
  let tbBit = 0;
  let tbMode = 0; // 0 all zeros, 1 data present, 2 absent (infer)

  function fail(message, at) {
    throw new KeyStringError(message, at === undefined ? pos : at);
  }

  function need(n, what) {
    if (end - pos < n) {
      fail(`truncated key: ${what} needs ${n} bytes, ${end - pos} left`);
    }
  }

  function byte(what) {
    if (pos >= end) fail(`truncated key: expected ${what}, found the end of the data`);
    return buf[pos++];
  }

  function u32be() {
    const v = ((buf[pos] << 24) >>> 0) + (buf[pos + 1] << 16) + (buf[pos + 2] << 8) + buf[pos + 3];
    pos += 4;
    return v;
  }

  function u32beInv() {
    return (~u32be()) >>> 0;
  }

  function u64big(invert) {
    const hi = invert ? u32beInv() : u32be();
    const lo = invert ? u32beInv() : u32be();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  // TypeBits::readSizeFromBuffer / resetFromBuffer.
  function setTypeBits(bits) {
    tbBit = 0;
    tb = null;
    tbSize = 0;
    if (bits === null || bits === undefined) { tbMode = 2; return; }
    tbMode = 0;
    if (bits.length === 0) return;
    const first = bits[0];
    let start;
    let size;
    if (first === 0) {
      return;
    } else if (first < 0x80) {
      start = 0;
      size = 1;
    } else if (first > 0x80) {
      start = 1;
      size = first & 0x7f;
    } else {
      if (bits.length < 5) {
        throw new KeyStringError('_typeBits: long encoding (0x80) without its 4-byte size', 0);
      }
      size = bits[1] + (bits[2] << 8) + (bits[3] << 16) + bits[4] * 16777216;
      if (size <= 127) throw new KeyStringError('_typeBits: invalid overlong size encoding', 0);
      start = 5;
    }
    if (bits.length - start < size) {
      throw new KeyStringError(
        `_typeBits: says ${size} data bytes, has ${bits.length - start}`, 0);
    }
    tb = bits.subarray(start, start + size);
    tbSize = size;
    tbMode = 1;
  }

  // TypeBits::Reader::readBit: low bit first within each byte.
  function readBit() {
    if (tbMode !== 1) return 0;
    const i = tbBit++;
    const b = i >> 3;
    if (b >= tbSize) fail(`_typeBits ran out (${tbSize} bytes) before the key did`);
    return (tb[b] >> (i & 7)) & 1;
  }

  function readNumeric() {
    if (tbMode === 2) return TB_ABSENT;
    const high = readBit();
    return (high << 1) | readBit();
  }

  function readDecimalExponentBits() {
    let v = 0;
    for (let i = 0; i < 6; i++) v = (v << 1) | readBit();
    return v;
  }

  function readCStringEnd(what) {
    const z = buf.indexOf(0, pos);
    if (z < 0 || z >= end) fail(`truncated key: ${what} has no terminating 00 byte`);
    return z;
  }

  function text(start, stop) {
    if (stop - start < 24) {
      let s = '';
      for (let i = start; i < stop; i++) {
        const c = buf[i];
        if (c >= 0x80) return utf8.decode(buf.subarray(start, stop));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8.decode(buf.subarray(start, stop));
  }

  function readCString(what) {
    const z = readCStringEnd(what);
    const s = text(pos, z);
    pos = z + 1;
    return s;
  }

  // _appendStringLike writes a NUL inside a string as 00 FF; readCStringWithNuls.
  function readStringWithNuls(what) {
    let z = readCStringEnd(what);
    if (z + 1 >= end || buf[z + 1] !== 0xff) {
      const s = text(pos, z);
      pos = z + 1;
      return s;
    }
    const parts = [];
    for (;;) {
      parts.push(buf.subarray(pos, z));
      pos = z + 1;
      if (pos < end && buf[pos] === 0xff) {
        parts.push(new Uint8Array(1));
        pos++;
        z = readCStringEnd(what);
        continue;
      }
      break;
    }
    let len = 0;
    for (const p of parts) len += p.length;
    const all = new Uint8Array(len);
    let o = 0;
    for (const p of parts) { all.set(p, o); o += p.length; }
    return utf8.decode(all);
  }

  function makeDecimal(negative, coef, exp, at) {
    if (coef > D_MAX_COEF || exp < D_MIN_EXP || exp > D_MAX_EXP) {
      fail('decimal value out of Decimal128 range', at);
    }
    const hi = (negative ? 1n << 63n : 0n) | (BigInt(exp + D_BIAS) << 49n) | (coef >> 64n);
    const lo = coef & 0xffffffffffffffffn;
    const bytes = new Uint8Array(16);
    const dv = new DataView(bytes.buffer);
    dv.setBigUint64(0, lo, true);
    dv.setBigUint64(8, hi, true);
    return new Decimal128(bytes);
  }

  function decimalSpecial(negative, kind) {
    const bytes = new Uint8Array(16);
    bytes[15] = (negative ? 0x80 : 0) | (kind === 'nan' ? 0x7c : 0x78);
    return new Decimal128(bytes);
  }

  // adjustDecimalExponent(): the type bits keep the low 6 bits of the biased
  // exponent. An exact value has at most one 34-digit representation whose
  // exponent matches them (its possible exponents span at most 34), which is
  // the one the server's step-up/step-down search lands on.
  function finishDecimal(negative, d, at) {
    if (d.coef === 0n) fail('decimal continuation gives zero, which has its own encoding', at);
    let c = d.coef;
    let e = d.exp;
    while (c % 10n === 0n) { c /= 10n; e += 1; }
    if (tbMode === 2) {
      // No type bits: the precision is unknown; show the shortest form that
      // keeps the value, without turning integers into exponent notation.
      while (e > 0 && c * 10n <= D_MAX_COEF) { c *= 10n; e -= 1; }
      return makeDecimal(negative, c, e, at);
    }
    const stored = readDecimalExponentBits();
    const low = Math.max(e - (34 - digitCount(c)), D_MIN_EXP);
    const high = Math.min(e, D_MAX_EXP);
    const first = low + ((stored - ((low + D_BIAS) & 63)) & 63);
    if (first > high) {
      fail(`_typeBits give Decimal128 exponent bits ${stored}, which no exact form of this value has`, at);
    }
    return makeDecimal(negative, c * pow10(e - first), first, at);
  }

  // readDecimalContinuation(): 19 more digits below a 34-digit normalized value.
  function withContinuation(d, invert, at) {
    need(8, 'decimal continuation');
    const cont = u64big(invert);
    const n = normalize34(d);
    const sum = n.coef + cont;
    if (sum <= D_MAX_COEF) return { coef: sum, exp: n.exp };
    // A 35-digit sum is rounded back to 34 digits by the addition; the server
    // accepts it only when that loses nothing (no kInexact flag).
    if (sum % 10n !== 0n) fail('invalid decimal continuation (inexact sum)', at);
    return { coef: sum / 10n, exp: n.exp + 1 };
  }

  // BID bits (high64, low64) of a non-negative finite decimal -> magnitude.
  function fromBid(hi, lo, at) {
    if (((hi >> 61n) & 3n) === 3n) fail('non-canonical Decimal128 encoding', at);
    const exp = Number((hi >> 49n) & 0x3fffn) - D_BIAS;
    const coef = ((hi & ((1n << 49n) - 1n)) << 64n) | lo;
    if (coef > D_MAX_COEF || coef === 0n) fail('non-canonical Decimal128 coefficient', at);
    return { coef, exp };
  }

  function readNumber(ctype, at) {
    switch (ctype) {
      case kNumericZero: {
        if (tbMode === 2) return 0;
        let z = readNumeric();
        if (z === 3) {
          // TypeBits::Reader::readZero: 3 more bits for -0.0 and decimal zeros.
          z = (z << 1) | readBit();
          z = (z << 1) | readBit();
          z = (z << 1) | readBit();
        }
        if (z === TB_INT) return 0;
        if (z === TB_LONG) return Long.fromInt(0);
        if (z === TB_DOUBLE) return new Double(0);
        if (z === kV1NegativeDoubleZero) return new Double(-0);
        if (z < kDecimalZero0xxx) return fail('_typeBits hold an unused zero encoding', at);
        let which = z - kDecimalZero0xxx;
        for (let i = 0; i < 12; i++) which = (which << 1) | readBit();
        const negative = which > 12287;
        const biased = negative ? which - 12288 : which;
        return makeDecimal(negative, 0n, biased - D_BIAS, at);
      }
      case kNumericNaN: {
        const t = readNumeric();
        if (t === TB_DECIMAL) return decimalSpecial(false, 'nan');
        if (t === TB_DOUBLE || t === TB_ABSENT) return NaN;
        return fail('_typeBits say integer for NaN', at);
      }
      case kNumericPositiveLargeMagnitude:
      case kNumericNegativeLargeMagnitude:
        return readLargeMagnitude(ctype === kNumericNegativeLargeMagnitude, at);
      case kNumericPositiveSmallMagnitude:
      case kNumericNegativeSmallMagnitude:
        return readSmallMagnitude(ctype === kNumericNegativeSmallMagnitude, at);
      default:
        return readInteger(ctype, at);
    }
  }

  // _appendPreshiftedIntegerPortion / _appendDoubleWithoutTypeBits (V1) and the
  // kNumeric*ByteInt cases of toBsonValue.
  function readInteger(ctype, at) {
    const negative = ctype < kNumericZero;
    const nBytes = negative ? kNumericNegative1ByteInt - ctype + 1 : ctype - kNumericPositive1ByteInt + 1;
    const type = readNumeric();
    need(nBytes, `a ${nBytes}-byte integer`);
    const inv = negative ? 0xff : 0;
    if (nBytes <= 6) {
      let enc = 0;
      for (let i = 0; i < nBytes; i++) enc = enc * 256 + (buf[pos++] ^ inv);
      const fraction = enc % 2 === 1;
      const intPart = Math.floor(enc / 2);
      if (!fraction) {
        const value = negative && intPart ? -intPart : intPart;
        return integerResult(type, value, null, at);
      }
      return readFraction(type, negative, BigInt(intPart), nBytes, at);
    }
    let enc = 0n;
    for (let i = 0; i < nBytes; i++) enc = (enc << 8n) | BigInt(buf[pos++] ^ inv);
    const intPart = enc >> 1n;
    if ((enc & 1n) === 0n) {
      const big = negative ? -intPart : intPart;
      return integerResult(type, Number(big), big, at);
    }
    return readFraction(type, negative, intPart, nBytes, at);
  }

  function integerResult(type, value, big, at) {
    switch (type) {
      case TB_INT:
        if (value > INT32_MAX || value < INT32_MIN) {
          return fail(`_typeBits say Int32 for ${big === null ? value : big}, which does not fit`, at);
        }
        return value;
      case TB_LONG:
        return big === null ? Long.fromNumber(value) : Long.fromBigInt(big);
      case TB_DOUBLE:
        return new Double(value);
      case TB_DECIMAL: {
        const b = big === null ? BigInt(value) : big;
        return finishDecimal(b < 0n, { coef: b < 0n ? -b : b, exp: 0 }, at);
      }
      default: // absent
        if (value <= INT32_MAX && value >= INT32_MIN) return value;
        return big === null ? Long.fromNumber(value) : Long.fromBigInt(big);
    }
  }

  function readFraction(type, negative, intPart, nBytes, at) {
    const fracBytes = 8 - nBytes;
    need(fracBytes, 'the fraction bytes of a number');
    const inv = negative ? 0xff : 0;
    let enc = intPart;
    for (let i = 0; i < fracBytes; i++) enc = (enc << 8n) | BigInt(buf[pos++] ^ inv);
    const bin = Number(enc & ~3n) * 2 ** (-8 * fracBytes);
    const dcm = fracBytes ? Number(enc & 3n) : kDCMHasContinuationLargerThanDoubleRoundedUpTo15Digits;
    const isDecimal = type === TB_DECIMAL || (type === TB_ABSENT && dcm !== kDCMEqualToDouble);
    if (!isDecimal) {
      if (type !== TB_DOUBLE && type !== TB_ABSENT) {
        return fail('_typeBits say integer for a number with a fraction', at);
      }
      return negative ? -bin : bin;
    }
    let d;
    if (dcm === kDCMEqualToDoubleRoundedUpTo15Digits) d = decimalFromDouble(bin, 15, true);
    else if (dcm === kDCMEqualToDouble) d = decimalFromDouble(bin, 34, true);
    else {
      d = intPart > 9007199254740992n ? { coef: intPart, exp: 0 } : decimalFromDouble(bin, 34, true);
      d = withContinuation(d, negative, at);
    }
    return finishDecimal(negative, d, at);
  }

  // _appendLargeDouble / _appendHugeDecimalWithoutTypeBits.
  function readLargeMagnitude(negative, at) {
    const type = readNumeric();
    need(8, 'a large-magnitude number');
    const hi = negative ? u32beInv() : u32be();
    const lo = negative ? u32beInv() : u32be();
    if (hi < 0x80000000) {
      const cont = (lo & 1) === 1;
      const dhi = (hi >>> 1) | 0x40000000;
      const dlo = (((hi & 1) << 31) | (lo >>> 1)) >>> 0;
      let bin = bitsToDouble(dhi, dlo);
      if (negative) bin = -bin;
      if (type === TB_LONG) {
        if (bin !== -9223372036854775808) return fail('_typeBits say Int64 for a large number other than -2^63', at);
        return Long.MIN_VALUE;
      }
      if (type === TB_INT) return fail('_typeBits say Int32 for a large-magnitude number', at);
      if (type === TB_DOUBLE || (type === TB_ABSENT && !cont)) {
        if (cont) return fail('decimal continuation marker on a double', at);
        return new Double(bin);
      }
      let d = decimalFromDouble(Math.abs(bin), 34, true);
      if (cont) d = withContinuation(d, negative, at);
      return finishDecimal(negative, d, at);
    }
    if (hi === 0xffffffff && lo === 0xffffffff) {
      if (type === TB_DECIMAL) return decimalSpecial(negative, 'inf');
      if (type === TB_DOUBLE || type === TB_ABSENT) return negative ? -Infinity : Infinity;
      return fail('_typeBits say integer for an infinity', at);
    }
    if (type !== TB_DECIMAL && type !== TB_ABSENT) {
      return fail('huge decimal encoding but _typeBits do not say Decimal128', at);
    }
    need(8, 'the low half of a huge decimal');
    const high64 = (BigInt(hi & 0x7fffffff) << 32n) | BigInt(lo);
    const low64 = u64big(negative);
    return finishDecimal(negative, fromBid(high64, low64, at), at);
  }

  // _appendSmallDouble / _appendTinyDecimalWithoutTypeBits.
  function readSmallMagnitude(negative, at) {
    const type = readNumeric();
    need(8, 'a small-magnitude number');
    const hi = negative ? u32beInv() : u32be();
    const lo = negative ? u32beInv() : u32be();
    const prefix = hi >>> 30;
    if (type === TB_INT || type === TB_LONG) {
      return fail('_typeBits say integer for a number between -1 and 1', at);
    }
    if (prefix === 0) {
      // Decimals below the smallest double: the decimal's own bits.
      if (type === TB_DOUBLE) return fail('tiny decimal encoding but _typeBits say Double', at);
      need(8, 'the low half of a tiny decimal');
      const low64 = u64big(negative);
      return finishDecimal(negative, fromBid((BigInt(hi) << 32n) | BigInt(lo), low64, at), at);
    }
    if (prefix === 3) {
      const dcm = lo & 3;
      const bin = bitsToDouble(hi >>> 2, (((hi & 3) << 30) | (lo >>> 2)) >>> 0);
      if (type === TB_DOUBLE || (type === TB_ABSENT && dcm === kDCMEqualToDouble)) {
        if (dcm !== kDCMEqualToDouble) return fail('decimal continuation marker on a double', at);
        return negative ? -bin : bin;
      }
      let d;
      if (dcm === kDCMEqualToDoubleRoundedUpTo15Digits) d = decimalFromDouble(bin, 15, true);
      else if (dcm === kDCMEqualToDouble) d = decimalFromDouble(bin, 34, true);
      else d = withContinuation(decimalFromDouble(bin, 34, true), negative, at);
      return finishDecimal(negative, d, at);
    }
    // Prefix 01 or 10: magnitude in (2^-1074, 2^-255), exponent shifted by 256.
    const cont = (lo & 1) === 1;
    const h = hi - 0x40000000;
    const scaled = bitsToDouble(h >>> 1, (((h & 1) << 31) | (lo >>> 1)) >>> 0);
    if (type === TB_DOUBLE || (type === TB_ABSENT && !cont)) {
      if (cont) return fail('decimal continuation marker on a double', at);
      const bin = scaled * 2 ** -256;
      return negative ? -bin : bin;
    }
    if (!cont) return fail('tiny decimal without its continuation', at);
    let d;
    if (scaled < 2.2250738585072014e-308 * 2 ** 256) {
      const s = decimalFromDouble(scaled, 34, false);
      const k = tinyDownshiftFactor();
      d = roundDigits({ coef: s.coef * k.coef, exp: s.exp + k.exp }, 34, false);
    } else {
      d = decimalFromDouble(scaled * 2 ** -256, 34, true);
    }
    return finishDecimal(negative, withContinuation(d, negative, at), at);
  }

  function readObject(depth) {
    if (depth > kMaxDepth) fail(`nesting deeper than ${kMaxDepth} levels`);
    const obj = {};
    for (;;) {
      const t = byte('a field type byte or 00 closing the object');
      if (t === 0) return obj;
      const name = readCString('a field name');
      const ctype = byte(`the value of field ${JSON.stringify(name)}`);
      const value = readValue(ctype, depth);
      if (name === '__proto__') {
        Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
      } else {
        obj[name] = value;
      }
    }
  }

  // toBsonValue() in key_string.cpp, ascending (never inverted) keys only.
  function readValue(ctype, depth) {
    const at = pos - 1;
    if (depth > kMaxDepth) fail(`nesting deeper than ${kMaxDepth} levels`, at);
    switch (ctype) {
      case kMinKey: return new MinKey();
      case kMaxKey: return new MaxKey();
      case kNullish: return null;
      case kUndefined: return undefined;
      case kBoolTrue: return true;
      case kBoolFalse: return false;
      case kDate: {
        // _appendDate: big-endian int64 with the sign bit flipped.
        need(8, 'a Date');
        const hi = u32be() ^ 0x80000000; // now a signed int32
        const lo = u32be();
        return new Date(hi * TWO_POW_32 + lo);
      }
      case kTimestamp: {
        // _appendTimestamp: big-endian (t << 32 | i).
        need(8, 'a Timestamp');
        const t = u32be();
        const i = u32be();
        return new Timestamp({ t, i });
      }
      case kOID: {
        need(12, 'an ObjectId');
        const id = buf.slice(pos, pos + 12);
        pos += 12;
        return new ObjectId(id);
      }
      case kStringLike: {
        // _appendString / _appendSymbol: one type bit tells String (0) from Symbol (1).
        const symbol = readBit();
        const s = readStringWithNuls('a string');
        return symbol ? new BSONSymbol(s) : s;
      }
      case kCode:
        return new Code(readStringWithNuls('Code'));
      case kCodeWithScope: {
        // _appendCodeWString: code string, then the scope as an object body.
        const code = readStringWithNuls('CodeWScope code');
        const scope = readObject(depth + 2);
        return new Code(code, scope);
      }
      case kBinData: {
        // _appendBinData: length in 1 byte, or FF + 4 bytes big-endian; subtype; data.
        let size = byte('a BinData length');
        if (size === 0xff) {
          need(4, 'a BinData 4-byte length');
          size = u32be();
        }
        const subtype = byte('a BinData subtype');
        need(size, `BinData of ${size} bytes`);
        const data = buf.slice(pos, pos + size);
        pos += size;
        return new Binary(data, subtype);
      }
      case kRegEx: {
        // _appendRegex: pattern and flags, each NUL-terminated.
        const pattern = readCString('a regex pattern');
        const flags = readCString('regex flags');
        try {
          return new BSONRegExp(pattern, flags);
        } catch (err) {
          return fail(`invalid regex flags ${JSON.stringify(flags)}`, at);
        }
      }
      case kDBRef: {
        // _appendDBRef (a DBPointer): ns length (4 bytes big-endian), ns, ObjectId.
        need(4, 'a DBPointer namespace length');
        const size = u32be();
        need(size + 12, 'a DBPointer');
        const ns = text(pos, pos + size);
        pos += size;
        const oid = new ObjectId(buf.slice(pos, pos + 12));
        pos += 12;
        return new DBRef(ns, oid);
      }
      case kObject:
        return readObject(depth + 1);
      case kArray: {
        // _appendArray: values without names, 00 closes.
        const arr = [];
        for (;;) {
          const t = byte('an array element or 00 closing the array');
          if (t === 0) return arr;
          arr.push(readValue(t, depth + 1));
        }
      }
      default:
        if (ctype >= kNumericNaN && ctype <= kNumericPositiveLargeMagnitude) return readNumber(ctype, at);
        return fail(`unknown KeyString type byte 0x${ctype.toString(16).padStart(2, '0')}`, at);
    }
  }

  // The whole key: values until the 04 end byte, which must be the last byte.
  // Returns {values, starts} (starts[i] is the offset of value i's type byte).
  function decode(bytes, typeBits) {
    buf = bytes;
    pos = 0;
    end = bytes.length;
    setTypeBits(typeBits);
    const values = [];
    const starts = [];
    try {
      for (;;) {
        if (pos >= end) fail('truncated key: no end-of-key byte (04)');
        const ctype = buf[pos++];
        if (ctype === kEnd) break;
        if (ctype === kLess || ctype === kGreater) {
          fail('query discriminator byte, which a resume token never holds', pos - 1);
        }
        starts.push(pos - 1);
        values.push(readValue(ctype, 1));
      }
      if (pos !== end) fail(`${end - pos} trailing byte(s) after the end-of-key byte`);
    } catch (err) {
      if (err instanceof KeyStringError) throw err;
      // A BSON class rejected a value or the engine ran out of something: still
      // report it where it happened, as our own error.
      throw new KeyStringError(`cannot decode value (${err && err.message})`, pos);
    } finally {
      buf = null;
      tb = null;
    }
    return { values, starts };
  }

  return { decode };
}

module.exports = { createKeyStringDecoder, hexToBytes, KeyStringError };
