// KeyString V1 bytes derived by hand from the server's encoder, one BSON type
// at a time, decoded through decodeResumeToken as the documentKey {_id: value}
// of a v1 event token. Source: mongodb/mongo
// src/mongo/db/storage/key_string/key_string.cpp at commit 02e608b5b456 (the
// stored copy has no line numbers, so each case names the encoder function);
// type bit values from key_string.h (class TypeBits, DecimalContinuationMarker).
//
// Token around each value: 82 <t=1> <i=1>, 2B02 (version 1), 2C0100 (tokenType
// 128), 29 (txnOpIndex 0), 6E (false), 5A 10 04 <16 bytes> (uuid), then
// 46 (kObject) <generic ctype of the value> 5F696400 ("_id") <value> 00 (end of
// object) 04 (end of key). Version, tokenType and txnOpIndex are Int32: six zero
// type bits come before the value's own.

function ksToken(genericType, valueHex) {
  return '820000000100000001' + '2B022C0100296E' + '5A1004' + '00112233445566778899AABBCCDDEEFF' +
    '46' + genericType + '5F696400' + valueHex + '00' + '04';
}

// TypeBits::getBuffer(): bits packed low bit first; one data byte below 0x80
// stands alone, otherwise a size byte 0x80|n precedes n data bytes.
function ksTypeBits(valueBits) {
  const bits = [0, 0, 0, 0, 0, 0, ...valueBits];
  const data = [];
  bits.forEach((b, i) => {
    if (i % 8 === 0) data.push(0);
    data[data.length - 1] |= b << (i % 8);
  });
  const bytes = data.length === 1 && data[0] < 0x80 ? data : [0x80 | data.length, ...data];
  return Binary(Buffer.from(bytes), 0);
}

function ksId(genericType, valueHex, valueBits) {
  const token = { _data: ksToken(genericType, valueHex) };
  if (valueBits) token._typeBits = ksTypeBits(valueBits);
  return decodeResumeToken(token).documentKey._id;
}

// Values built inside the module live in another realm than this file's
// literals, so compare plain data through JSON.
function ksPlain(v) {
  return JSON.parse(JSON.stringify(v));
}

function ksBsonType(v) {
  return v && v._bsontype;
}

test('the type bits helper writes the layout of TypeBits::getBuffer', () => {
  // Decimal 1.5 after the header: bits 1,1 (kDecimal) then 0,1,1,1,1,1 → C0 3E.
  assert.strictEqual(ksTypeBits([1, 1, 0, 1, 1, 1, 1, 1]).toString('hex'), '82c03e');
  assert.strictEqual(ksTypeBits([1]).toString('hex'), '40');
});

test('MinKey, MaxKey, null, undefined: one ctype byte each (_appendBsonValue)', () => {
  assert.strictEqual(ksBsonType(ksId('0A', '0A')), 'MinKey');
  assert.strictEqual(ksBsonType(ksId('F0', 'F0')), 'MaxKey');
  assert.strictEqual(ksId('14', '14'), null);
  assert.strictEqual(ksId('0F', '0F'), undefined);
});

test('booleans: kBoolFalse 0x6E, kBoolTrue 0x6F (_appendBool)', () => {
  assert.strictEqual(ksId('6E', '6E'), false);
  assert.strictEqual(ksId('6E', '6F'), true);
});

test('Int32: zero, small, negative, 2-byte and 4-byte (_appendInteger, _appendPreshiftedIntegerPortion)', () => {
  assert.strictEqual(ksId('1E', '29'), 0); // kNumericZero
  assert.strictEqual(ksId('1E', '2B02'), 1); // 1<<1 in one byte, kNumericPositive1ByteInt
  assert.strictEqual(ksId('1E', '2C0100'), 128); // 256 needs two bytes
  assert.strictEqual(ksId('1E', '27FD'), -1); // kNumericNegative1ByteInt, ~(1<<1)
  assert.strictEqual(ksId('1E', '2EFFFFFFFE'), 2147483647); // 0xFFFFFFFE in 4 bytes
  assert.strictEqual(ksId('1E', '23FEFFFFFFFF'), -2147483648); // 2^31<<1 = 0100000000: 5 bytes, inverted
});

test('Int64: 6-byte, 8-byte, and -2^63 stored as a large double (_appendInteger)', () => {
  const l = ksId('1E', '30020000000000', [0, 1]); // 2^40 << 1, kNumericPositive6ByteInt, kLong = 01
  assert.strictEqual(ksBsonType(l), 'Long');
  assert.strictEqual(l.toString(), '1099511627776');
  const max = ksId('1E', '32FFFFFFFFFFFFFFFE', [0, 1]);
  assert.strictEqual(max.toString(), '9223372036854775807');
  // -2^63: bits C3E0000000000000, <<1 with the sign cleared → 07C0..., inverted (negative).
  const min = ksId('1E', '1FF83FFFFFFFFFFFFF', [0, 1]);
  assert.strictEqual(ksBsonType(min), 'Long');
  assert.strictEqual(min.toString(), '-9223372036854775808');
});

test('doubles: fraction, large and small magnitudes, tiny, infinities (_appendDoubleWithoutTypeBits)', () => {
  // 1.5: integer part 1 → 1-byte int with the fraction bit (03), then 7 fraction
  // bytes of 1.5 * 256^7 + (1+1) << 56 = 0x0380000000000000.
  assert.strictEqual(ksId('1E', '2B0380000000000000', [1, 0]), 1.5);
  // -1.5: kNumericNegative1ByteInt and every byte inverted.
  assert.strictEqual(ksId('1E', '27FC7FFFFFFFFFFFFF', [1, 0]), -1.5);
  // 2^70 (_appendLargeDouble): bits 4450000000000000 << 1, top bit cleared.
  const big = ksId('1E', '3308A0000000000000', [1, 0]);
  assert.strictEqual(ksBsonType(big), 'Double');
  assert.strictEqual(big.valueOf(), 2 ** 70);
  // 0.5 (_appendSmallDouble, >= 2^-255): bits 3FE0000000000000 << 2 → FF80000000000000.
  assert.strictEqual(ksId('1E', '2AFF80000000000000', [1, 0]), 0.5);
  assert.strictEqual(ksId('1E', '28007FFFFFFFFFFFFF', [1, 0]), -0.5);
  // 2^-300 (< 2^-255): scaled by 2^256 to 2^-44 (3D30000000000000), <<1, + 1<<62.
  assert.strictEqual(ksId('1E', '2ABA60000000000000', [1, 0]), 2 ** -300);
  assert.strictEqual(ksId('1E', '33FFFFFFFFFFFFFFFF', [1, 0]), Infinity);
  assert.strictEqual(ksId('1E', '1F0000000000000000', [1, 0]), -Infinity);
  assert.ok(Number.isNaN(ksId('1E', '1E', [1, 0]))); // kNumericNaN
});

test('zeros: Double 0, -0.0 (kV1NegativeDoubleZero 11000) and Long 0 (TypeBits::appendZero)', () => {
  const d = ksId('1E', '29', [1, 0]);
  assert.strictEqual(ksBsonType(d), 'Double');
  assert.ok(Object.is(d.valueOf(), 0));
  const negative = ksId('1E', '29', [1, 1, 0, 0, 0]);
  assert.strictEqual(ksBsonType(negative), 'Double');
  assert.ok(Object.is(negative.valueOf(), -0));
  assert.strictEqual(ksBsonType(ksId('1E', '29', [0, 1])), 'Long');
});

test('Decimal128: exact double, 15-digit double, NaN, zeros (_appendNumberDecimal)', () => {
  // 1.5: exact as a double, kDCMEqualToDouble; exponent 6175 & 63 = 31 → 011111.
  assert.strictEqual(ksId('1E', '2B0380000000000000', [1, 1, 0, 1, 1, 1, 1, 1]).toString(), '1.5');
  // 0.1: the double below it (3FB9999999999999) << 2 | kDCMEqualToDoubleRoundedUpTo15Digits (2).
  assert.strictEqual(ksId('1E', '2AFEE6666666666666', [1, 1, 0, 1, 1, 1, 1, 1]).toString(), '0.1');
  assert.strictEqual(ksId('1E', '1E', [1, 1]).toString(), 'NaN');
  // 0 (biased exponent 6176 = 1·4096 + 2080): kDecimalZero1xxx 11011, then 2080 in 12 bits.
  assert.strictEqual(ksId('1E', '29', [1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]).toString(), '0');
  // -0.00: 6174 + 12288 = 18462 = 4·4096 + 2078 → 11110, then 2078.
  assert.strictEqual(ksId('1E', '29', [1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0]).toString(), '-0.00');
});

test('Decimal128 with a continuation: 12345678901234567890 (_appendNumberDecimal, readDecimalContinuation)', () => {
  // The double below it is 12345678901234567168 (43E56A95319D63E1); >= 2^63 so
  // _appendLargeDouble with the continuation bit: 07CAD52A633AC7C3. Stored value
  // normalized to 34 digits has exponent -14; 722 * 10^14 = 0x0100818478C88000.
  // Exponent bits: 6176 & 63 = 32 → 100000.
  const d = ksId('1E', '3307CAD52A633AC7C30100818478C88000', [1, 1, 1, 0, 0, 0, 0, 0]);
  assert.strictEqual(ksBsonType(d), 'Decimal128');
  assert.strictEqual(d.toString(), '12345678901234567890');
});

test('strings: NUL escaped as 00 FF; a type bit of 1 makes a Symbol (_appendStringLike, _appendSymbol)', () => {
  assert.strictEqual(ksId('3C', '3C6100FF6200'), 'a\u0000b');
  assert.strictEqual(ksId('3C', '3C00'), '');
  assert.strictEqual(ksId('3C', '3CC3A900'), '\u00e9'); // UTF-8 bytes pass through
  const sym = ksId('3C', '3C616200', [1]);
  assert.strictEqual(ksBsonType(sym), 'BSONSymbol');
  assert.strictEqual(sym.valueOf(), 'ab');
});

test('objects and arrays: generic ctype, name, value; 00 closes (_appendBson, _appendArray)', () => {
  assert.deepStrictEqual(ksPlain(ksId('46', '461E61002B0200')), { a: 1 });
  assert.deepStrictEqual(ksPlain(ksId('50', '502B023C780000')), [1, 'x']);
  assert.deepStrictEqual(ksPlain(ksId('46', '46505B00504614620014000000')), { '[': [{ b: null }] });
});

test('BinData: short and long lengths, every subtype (_appendBinData)', () => {
  const short = ksId('5A', '5A02000102');
  assert.strictEqual(short.sub_type, 0);
  assert.strictEqual(short.toString('hex'), '0102');
  for (const subtype of [0, 1, 2, 3, 4, 5, 6, 8, 0x80]) {
    const b = ksId('5A', `5A01${subtype.toString(16).padStart(2, '0')}AB`);
    assert.strictEqual(b.sub_type, subtype);
  }
  const longHex = 'CD'.repeat(300);
  const long = ksId('5A', `5AFF0000012C05${longHex}`); // 300 = 0x12C, after the FF marker
  assert.strictEqual(long.sub_type, 5);
  assert.strictEqual(long.length(), 300);
});

test('ObjectId, Date (negative too) and Timestamp (_appendOID, _appendDate, _appendTimestamp)', () => {
  assert.strictEqual(ksId('64', '64620B98E564DA118651C64200').toHexString(), '620b98e564da118651c64200');
  assert.strictEqual(ksId('78', '788000000000000000').getTime(), 0); // sign bit flipped
  assert.strictEqual(ksId('78', '787FFFFFFFFFFFFFFF').getTime(), -1);
  assert.strictEqual(ksId('78', '787FFFFE2E56B5E000').getTime(), -2000000000000);
  const ts = ksId('82', '82000000050000000A');
  assert.strictEqual(ksBsonType(ts), 'Timestamp');
  assert.strictEqual(ts.high, 5);
  assert.strictEqual(ts.low, 10);
});

test('RegExp, DBPointer, Code, CodeWScope (_appendRegex, _appendDBRef, _appendCode, _appendCodeWString)', () => {
  const re = ksId('8C', '8C612E6200696D00');
  assert.strictEqual(ksBsonType(re), 'BSONRegExp');
  assert.strictEqual(re.pattern, 'a.b');
  assert.strictEqual(re.options, 'im');
  const ptr = ksId('96', '9600000007746573742E6162620B98E564DA118651C64200');
  assert.strictEqual(ksBsonType(ptr), 'DBRef');
  assert.strictEqual(ptr.namespace, 'ab');
  assert.strictEqual(ptr.db, 'test');
  assert.strictEqual(ptr.oid.toHexString(), '620b98e564da118651c64200');
  const code = ksId('A0', 'A0783D3100');
  assert.strictEqual(ksBsonType(code), 'Code');
  assert.strictEqual(code.code, 'x=1');
  const cws = ksId('AA', 'AA66001E61002B0200');
  assert.strictEqual(cws.code, 'f');
  assert.deepStrictEqual(ksPlain(cws.scope), { a: 1 });
});

test('type bits decide the number type: Int32, Double, Long, Decimal128 from the same key bytes', () => {
  assert.strictEqual(ksId('1E', '2B04'), 2); // no _typeBits: Int32
  assert.strictEqual(ksId('1E', '2B04', [0, 0]), 2);
  const d = ksId('1E', '2B04', [1, 0]);
  assert.strictEqual(ksBsonType(d), 'Double');
  assert.strictEqual(d.valueOf(), 2);
  const l = ksId('1E', '2B04', [0, 1]);
  assert.strictEqual(ksBsonType(l), 'Long');
  assert.strictEqual(l.toString(), '2');
  // Decimal 2 with exponent 0 (biased 6176, low bits 100000), and 2.0 (6175 → 011111).
  assert.strictEqual(ksId('1E', '2B04', [1, 1, 1, 0, 0, 0, 0, 0]).toString(), '2');
  assert.strictEqual(ksId('1E', '2B04', [1, 1, 0, 1, 1, 1, 1, 1]).toString(), '2.0');
});

test('without _typeBits, numbers get the narrowest type that holds them', () => {
  assert.strictEqual(ksBsonType(ksId('1E', '30020000000000')), 'Long'); // 2^40
  assert.strictEqual(ksBsonType(ksId('1E', '3308A0000000000000')), 'Double'); // 2^70
  assert.strictEqual(ksId('1E', '2B0380000000000000'), 1.5);
  // A 15-digit marker only a decimal carries: Decimal128, value kept.
  assert.strictEqual(ksId('1E', '2AFEE6666666666666').toString(), '0.1');
});

test('type bits that contradict the key are an error, not a guess', () => {
  const tooBig = test.thrown(() => ksId('1E', '30020000000000', [0, 0]));
  assert.match(tooBig.message, /^decodeResumeToken: _typeBits say Int32 for 1099511627776.*at byte 41 of _data/);
  const fraction = test.thrown(() => ksId('1E', '2B0380000000000000', [0, 1]));
  assert.match(fraction.message, /^decodeResumeToken: .*integer.*byte 41/);
  const short = test.thrown(() => ksId('1E', '2B0380000000000000', [1, 1]));
  assert.match(short.message, /_typeBits ran out/);
});

test('nesting deeper than BSONDepth allows is an error (toBsonValue depth check)', () => {
  const deep = '5050'.repeat(150) + '00'.repeat(300);
  const err = test.thrown(() => ksId('50', deep));
  assert.match(err.message, /^decodeResumeToken: nesting deeper than 200 levels \(at byte \d+ of _data\)$/);
});

test('Decimal128 on every _appendNumberDecimal path (vectors from tests/fixtures/keystring-decimal-vectors.py)', () => {
  // value, KeyString bytes of the value, its type bits (kDecimal 11 + low 6
  // exponent bits), and the encoder path the derivation took.
  const vectors = [
    ['0.1', '2AFEE6666666666666', '11011111'], // 15 digits
    ['1.5', '2B0380000000000000', '11011111'], // exact double
    ['1.00', '2B02', '11011110'], // exact double, precision from the exponent bits
    ['123456789.123456789', '2E0EB79A2B1F9ADD0101C8CDBBEC47141E', '11010111'], // continuation, less
    ['0.1000000000000000000000000000000001', '2AFEE66666666666670B8E3A78112E8157', '11111110'], // continuation, larger
    ['3.141592653589793238462643383279503', '2B07243F6A8885A30101B314FA3FD986D5', '11111111'],
    ['9007199254740993.5', '31400000000000030306F05B59D3B20000', '11011111'], // integer >= 2^53 with a fraction
    ['12345678901234567890', '3307CAD52A633AC7C30100818478C88000', '11100000'], // large double + continuation
    ['1E+400', '33B31E314DC6448D9338C15B0A00000000', '11110000'], // huge: the decimal's own bits
    ['2.5E-100', '2AB682FEFA9DB1867B0659C09D0F76412B', '11111011'], // tiny double + continuation
    ['1.234567890123456789012345678901234E-300', '2A6354E9FC383D12110072CA77FD55E88E', '11010011'],
    ['1.5E-310', '2A5F3739A252B2812F01FEA186A05A4D71', '11101001'], // subnormal double range, scaled
    ['4.9E-330', '2A2D6AF196B1E982849619D7B100000000', '11010101'], // below every double: own bits
    ['1.234E-6000', '2A011E3CD7450BE3F39FA2D32880000000', '11101101'],
  ];
  for (const [text, hex, bits] of vectors) {
    const d = ksId('1E', hex, [...bits].map(Number));
    assert.strictEqual(ksBsonType(d), 'Decimal128', text);
    assert.strictEqual(d.toString(), Decimal128(text).toString(), text);
  }
  // Negative numbers are the same bytes inverted after the ctype (kNumericNegative*).
  const neg = ksId('1E', '28' + '0119999999999998F471C587EED17EA8', [1, 1, 1, 1, 1, 1, 1, 0]);
  assert.strictEqual(neg.toString(), '-0.1000000000000000000000000000000001');
});
