'use strict';
// decodeResumeToken / compareResumeTokens: change stream resume tokens from
// any server 3.6 to 8.x, with no dependency beyond the shell's BSON classes.
//
// Token layout (mongodb/mongo src/mongo/db/pipeline/resume_token.cpp,
// ResumeToken::ResumeToken(const ResumeTokenData&) and ResumeToken::getData()):
// `_data` is a KeyString (keystring.js) of nameless values:
//   3.6 (BinData _data): clusterTime, documentKey?, [null,] uuid?
//   v0 (hex, 4.0.0-4.0.6): clusterTime, 0, applyOpsIndex, uuid?, documentKey?
//   v1 (hex, 4.0.7-6.0):   clusterTime, 1, tokenType, txnOpIndex, fromInvalidate, uuid?, documentKey?
//   v2 (hex, 6.1+ default): clusterTime, 2, tokenType, txnOpIndex, fromInvalidate,
//                          uuid | null, eventIdentifier?, fragmentNum?
// tokenType 128 is an event, 0 a high-water mark (postBatchResumeToken).

const { createKeyStringDecoder, hexToBytes, KeyStringError } = require('./keystring.js');

const DECODE = 'decodeResumeToken';
const COMPARE = 'compareResumeTokens';
const EVENT_TOKEN = 128;
const HIGH_WATER_MARK = 0;

const DECODE_HELP = `
decodeResumeToken(token)

Decodes a change stream resume token into the values the server packed in it.
token: the hex string of _data, a token document {_data, _typeBits?}, a change
event (its _id is used), or a 3.6 token whose _data is BinData. _typeBits (the
BinData the server puts beside _data when it is needed) restores the exact BSON
type of each number; without it integers come back as Int32 (Long when too big)
and other numbers as Double, Decimal128 where the encoding is decimal-only.

Returns, for a v1 token (4.0.7 to 6.0):
  {timestamp, version, tokenType, txnOpIndex, fromInvalidate, uuid, documentKey}
v0 (4.0.0-4.0.6) has no tokenType or fromInvalidate (its applyOpsIndex is txnOpIndex);
v2 (6.1+): {timestamp, version, tokenType, txnOpIndex, fromInvalidate, uuid,
eventIdentifier, fragmentNum?} (uuid null when the event has no collection);
3.6 BinData tokens: {timestamp, uuid, documentKey}. Fields the token does not
hold (a high-water mark's uuid and documentKey) are left out.
tokenType 128 = event, 0 = high-water mark (postBatchResumeToken).

Examples:
  decodeResumeToken('82620B98E5000000022B022C0100296E5A1004437FB549CFDD45269DD59B9BF0EB354746645F69640064620B98E564DA118651C642000004')
  decodeResumeToken(changeEvent)                 // same as decodeResumeToken(changeEvent._id)
  decodeResumeToken(cursor.getResumeToken()).timestamp
Errors name the byte offset where decoding failed, e.g.
  decodeResumeToken: truncated key: a Timestamp needs 8 bytes, 3 left (at byte 1 of _data)
`;

const COMPARE_HELP = `
compareResumeTokens(a, b)

Orders two resume tokens as the change stream delivers them: -1 when a comes
first, 1 when b does, 0 for the same position. Accepts every form
decodeResumeToken accepts (hex string, {_data, _typeBits?}, change event, 3.6 BinData).
Tokens are ordered by cluster time, then as the server orders its own keys
(a high-water mark before the events of the same time, then txnOpIndex, ...).

Examples:
  compareResumeTokens(event1._id, event2._id)     // -1: event1 came first
  compareResumeTokens(savedToken, cursor.getResumeToken())
  tokens.sort(compareResumeTokens)
`;


// BinData in any form a user may hold: bson Binary, Buffer/Uint8Array, or
// extended JSON ({$binary: {base64, subType}} or legacy {$binary, $type}).
function binaryBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x && x._bsontype === 'Binary') {
    const n = typeof x.length === 'function' ? x.length() : x.position;
    return x.buffer.subarray(0, n);
  }
  if (x && typeof x === 'object' && x.$binary !== undefined) {
    const b64 = typeof x.$binary === 'string' ? x.$binary : x.$binary && x.$binary.base64;
    if (typeof b64 === 'string') return new Uint8Array(Buffer.from(b64, 'base64'));
  }
  return null;
}

module.exports = function resumeToken(shell) {
  const { describe } = shell;
  let decoder = null;

  // The shell's BSON constructors are wrappers with argument checks; the
  // classes behind them are faster and carry the static helpers (Long.fromBigInt).
  function getDecoder() {
    if (decoder) return decoder;
    const b = shell.bson;
    const cls = (make) => make().constructor;
    const ObjectId = cls(() => new b.ObjectId('000000000000000000000000'));
    decoder = createKeyStringDecoder({
      Binary: cls(() => new b.Binary(new Uint8Array(0), 0)),
      BSONRegExp: cls(() => new b.BSONRegExp('', '')),
      BSONSymbol: cls(() => new b.BSONSymbol('')),
      Code: cls(() => new b.Code('')),
      DBRef: cls(() => new b.DBRef('a.b', new ObjectId('000000000000000000000000'))),
      Decimal128: cls(() => new b.Decimal128('0')),
      Double: cls(() => new b.Double(0)),
      Long: cls(() => new b.Long(0)),
      MaxKey: cls(() => new b.MaxKey()),
      MinKey: cls(() => new b.MinKey()),
      ObjectId,
      Timestamp: cls(() => new b.Timestamp({ t: 0, i: 0 })),
    });
    return decoder;
  }

  // -> {bytes, typeBits, legacy}; throws the caller's Error for a wrong shape.
  function tokenBytes(token, fn, label) {
    let t = token;
    if (t && typeof t === 'object' && !(t instanceof Uint8Array) && t._bsontype === undefined &&
        t._data === undefined && t._id && typeof t._id === 'object' && t._id._data !== undefined) {
      t = t._id; // a change event
    }
    let data = t;
    let typeBits = null;
    let holder = false;
    if (t && typeof t === 'object' && t._data !== undefined && t._bsontype === undefined &&
        !(t instanceof Uint8Array)) {
      holder = true;
      data = t._data;
      if (t._typeBits !== undefined && t._typeBits !== null) {
        typeBits = binaryBytes(t._typeBits);
        if (!typeBits) {
          throw shell.error(fn, `${label}_typeBits must be BinData; got ${describe(t._typeBits)}`);
        }
      }
    }
    if (typeof data === 'string') {
      try {
        return { bytes: hexToBytes(data), typeBits, legacy: false };
      } catch (err) {
        throw shell.error(fn, `${label}${err.message} (at byte ${err.offset} of _data)`);
      }
    }
    const bin = binaryBytes(data);
    if (bin) {
      if (bin.length === 0) throw shell.error(fn, `${label}empty token: _data has no bytes (at byte 0 of _data)`);
      return { bytes: bin, typeBits, legacy: true };
    }
    throw shell.error(fn,
      `${label}wrong argument type: expected a hex string, {_data: <hex>, _typeBits?}, a change ` +
      `event, or a 3.6 token {_data: BinData}; got ${holder ? `_data as ${describe(data)}` : describe(token)}`);
  }

  function isInt32(v) {
    return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
  }

  function isUUID(v) {
    return v && v._bsontype === 'Binary' && v.sub_type === 4 && v.length() === 16;
  }

  // -> {result, bytes, legacy, version, fields}
  function parse(token, fn, label) {
    const { bytes, typeBits, legacy } = tokenBytes(token, fn, label);
    let decoded;
    try {
      decoded = getDecoder().decode(bytes, typeBits);
    } catch (err) {
      if (err instanceof KeyStringError) {
        throw shell.error(fn, `${label}${err.message} (at byte ${err.offset} of _data)`);
      }
      throw shell.error(fn, `${label}cannot decode: ${err && err.message} (at byte 0 of _data)`);
    }
    const { values, starts } = decoded;
    let i = 0;
    const bad = (what) => {
      const at = i < starts.length ? starts[i] : bytes.length - 1;
      return shell.error(fn, `${label}${what} (at byte ${at} of _data)`);
    };
    const timestamp = values[0];
    if (!timestamp || timestamp._bsontype !== 'Timestamp') {
      throw bad(values.length ? 'not a resume token: the first value is not a Timestamp' : 'invalid empty resume token');
    }
    i = 1;
    if (legacy) {
      // encodeInBinDataFormat (4.0) / ResumeToken(const ResumeTokenData&) (3.6):
      // documentKey, then the uuid; a null stands in for a missing documentKey.
      const result = { timestamp };
      if (values.length > 3) { i = 3; throw bad('invalid oversized resume token'); }
      let documentKey = values[1];
      const uuid = values[2];
      if (values.length === 3) {
        if (!isUUID(uuid)) { i = 2; throw bad('3.6 token: the value after documentKey is not a UUID'); }
        if (documentKey === null) documentKey = undefined;
        result.uuid = uuid;
      }
      if (documentKey !== undefined) result.documentKey = documentKey;
      return { result, bytes, legacy, version: -1 };
    }
    const version = values[1];
    if (values.length < 2) throw bad('resume token does not contain a version');
    if (!isInt32(version)) throw bad('invalid resume token: the version is not an Int32');
    if (version < 0 || version > 2) throw bad(`unknown resume token version ${version} (the server knows 0, 1 and 2)`);
    i = 2;
    let tokenType;
    if (version >= 1) {
      if (i >= values.length) throw bad('resume token does not contain tokenType');
      tokenType = values[i];
      if (!isInt32(tokenType) || (tokenType !== EVENT_TOKEN && tokenType !== HIGH_WATER_MARK)) {
        throw bad('tokenType must be Int32 128 (event) or 0 (high-water mark)');
      }
      i++;
    }
    if (i >= values.length) throw bad('resume token does not contain txnOpIndex');
    const txnOpIndex = values[i];
    if (!isInt32(txnOpIndex) || txnOpIndex < 0) throw bad('txnOpIndex must be a non-negative Int32');
    i++;
    let fromInvalidate;
    if (version >= 1) {
      if (i >= values.length) throw bad('resume token does not contain fromInvalidate');
      fromInvalidate = values[i];
      if (typeof fromInvalidate !== 'boolean') throw bad('fromInvalidate must be a boolean');
      i++;
    }
    let uuid;
    let identifier;
    let fragmentNum;
    if (i < values.length) {
      uuid = values[i];
      if (uuid === null) {
        if (version < 2) throw bad('a null uuid appears only in v2 tokens');
      } else if (!isUUID(uuid)) {
        throw bad('uuid must be BinData subtype 4 of 16 bytes');
      }
      i++;
      if (tokenType === HIGH_WATER_MARK && i < values.length) throw bad('invalid high water mark token: it holds an event identifier');
      if (i < values.length) {
        identifier = values[i];
        if (version >= 2 && (identifier === null || typeof identifier !== 'object' ||
            identifier._bsontype !== undefined || Array.isArray(identifier) || identifier instanceof Date)) {
          throw bad('eventIdentifier must be an object');
        }
        i++;
      }
      if (version >= 2 && i < values.length) {
        fragmentNum = values[i];
        if (!isInt32(fragmentNum) || fragmentNum < 0) throw bad('fragmentNum must be a non-negative Int32');
        i++;
      }
      if (i < values.length) throw bad('invalid oversized resume token');
    } else if (version >= 2) {
      throw bad('v2 resume token without its uuid (or null)');
    }
    if (version >= 2 && tokenType === EVENT_TOKEN && identifier === undefined) {
      i = values.length;
      throw bad('v2 event token without an eventIdentifier');
    }

    let result;
    if (version === 0) {
      result = { timestamp, version, txnOpIndex };
      if (uuid !== undefined) result.uuid = uuid;
      if (identifier !== undefined) result.documentKey = identifier;
    } else if (version === 1) {
      result = { timestamp, version, tokenType, txnOpIndex, fromInvalidate };
      if (uuid !== undefined) result.uuid = uuid;
      if (identifier !== undefined) result.documentKey = identifier;
    } else {
      result = { timestamp, version, tokenType, txnOpIndex, fromInvalidate, uuid };
      if (identifier !== undefined) result.eventIdentifier = identifier;
      if (fragmentNum !== undefined) result.fragmentNum = fragmentNum;
    }
    return { result, bytes, legacy, version };
  }

  function decodeResumeToken(token) {
    if (arguments.length !== 1) {
      throw shell.error(DECODE, `takes one token, got ${arguments.length} arguments (see decodeResumeToken.help())`);
    }
    return parse(token, DECODE, '').result;
  }

  function sign(n) {
    return n < 0 ? -1 : n > 0 ? 1 : 0;
  }

  function compareBytes(a, b) {
    const n = Math.min(a.length, b.length);
    for (let k = 0; k < n; k++) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
    return sign(a.length - b.length);
  }

  function compareResumeTokens(a, b) {
    if (arguments.length !== 2) {
      throw shell.error(COMPARE, `takes two tokens, got ${arguments.length} arguments (see compareResumeTokens.help())`);
    }
    const x = parse(a, COMPARE, 'first token: ');
    const y = parse(b, COMPARE, 'second token: ');
    const tx = x.result.timestamp;
    const ty = y.result.timestamp;
    const byTime = sign((tx.high >>> 0) - (ty.high >>> 0)) || sign((tx.low >>> 0) - (ty.low >>> 0));
    if (byTime) return byTime;
    // Same version and format: the KeyString bytes sort exactly as the server
    // sorts these tokens (that is what KeyString is for).
    if (x.legacy === y.legacy && x.version === y.version) return compareBytes(x.bytes, y.bytes);
    // Different formats at one cluster time: compare the fields they share
    // (a missing tokenType is an event, a missing txnOpIndex 0), then the version.
    const rx = x.result;
    const ry = y.result;
    const tt = (r) => (r.tokenType === undefined ? EVENT_TOKEN : r.tokenType);
    return sign(tt(rx) - tt(ry)) ||
      sign((rx.txnOpIndex || 0) - (ry.txnOpIndex || 0)) ||
      sign(Number(Boolean(rx.fromInvalidate)) - Number(Boolean(ry.fromInvalidate))) ||
      sign(x.version - y.version);
  }

  return {
    decodeResumeToken: shell.withHelp(decodeResumeToken, DECODE_HELP),
    compareResumeTokens: shell.withHelp(compareResumeTokens, COMPARE_HELP),
  };
};
