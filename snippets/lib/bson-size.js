'use strict';
// BSON sizes computed in JS, without serializing: explainOplogEntry sizes
// every element of a diff, and one shell bsonsize() per element made it cost
// many times the entry's own bsonsize. Same rules as the BSON spec and the
// shell's serializer (a JS number is an int32 when it is an integer in range,
// else a double; undefined is null). A value it does not know gives null, and
// the caller falls back to bsonsize().

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

// UTF-8 length counted in JS: names and short strings are most of what is
// sized, and for them a loop beats a call into Buffer.byteLength.
function utf8Bytes(s) {
  if (s.length > 64) return Buffer.byteLength(s, 'utf8');
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 2 UTF-16 units, 4 UTF-8 bytes
      i++;
    } else n += 2; // 3 bytes (a lone surrogate is written as U+FFFD, also 3)
  }
  return n;
}

function cstringBytes(s) {
  return utf8Bytes(s) + 1;
}

// Bytes of a value's payload (what follows the type byte and the name).
function valueBytes(v) {
  switch (typeof v) {
    case 'string': return 4 + utf8Bytes(v) + 1;
    case 'number': return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX && !Object.is(v, -0) ? 4 : 8;
    case 'boolean': return 1;
    case 'bigint': return 8;
    case 'undefined': return 0;
    case 'object': break;
    default: return null;
  }
  if (v === null) return 0;
  if (Array.isArray(v)) {
    let n = 5;
    for (let i = 0; i < v.length; i++) {
      const b = valueBytes(v[i]);
      if (b === null) return null;
      n += 1 + String(i).length + 1 + b;
    }
    return n;
  }
  const bt = v._bsontype;
  if (typeof bt === 'string') {
    switch (bt) {
      case 'Long': case 'Timestamp': case 'Double': return 8;
      case 'Int32': return 4;
      case 'Decimal128': return 16;
      case 'ObjectId': case 'ObjectID': return 12;
      case 'MinKey': case 'MaxKey': return 0;
      case 'Binary': {
        const len = typeof v.length === 'function' ? v.length() : v.position;
        if (typeof len !== 'number') return null;
        return 4 + 1 + (v.sub_type === 2 ? 4 : 0) + len;
      }
      case 'BSONRegExp': return cstringBytes(v.pattern) + cstringBytes(v.options);
      case 'BSONSymbol': return 4 + utf8Bytes(String(v.value)) + 1;
      default: return null; // Code, DBRef and anything newer: let bsonsize() answer
    }
  }
  const t = tag(v);
  if (t === 'Date') return 8;
  if (t === 'RegExp') {
    // The serializer keeps only the flags BSON knows, in its own order.
    const flags = (v.ignoreCase ? 'i' : '') + (v.multiline ? 'm' : '') + (v.dotAll ? 's' : '');
    return cstringBytes(v.source) + flags.length + 1;
  }
  if (t !== 'Object' || typeof v.toBSON === 'function') return null;
  return documentBytes(v);
}

function documentBytes(doc) {
  let n = 5;
  for (const key in doc) {
    if (!Object.prototype.hasOwnProperty.call(doc, key)) continue;
    const value = doc[key];
    if (typeof value === 'function') return null;
    const b = valueBytes(value);
    if (b === null) return null;
    n += 1 + cstringBytes(key) + b;
  }
  return n;
}

// Size of the element `name: value` inside its parent document, or null.
function elementBytes(name, value) {
  const b = valueBytes(value);
  return b === null ? null : 1 + cstringBytes(name) + b;
}

module.exports = { elementBytes, documentBytes, cstringBytes };
