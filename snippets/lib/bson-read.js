'use strict';
// A reader of one BSON document (https://bsonspec.org/spec.html), for the
// shells that keep their bson package's deserialize() out of a snippet's
// reach: the standalone mongosh binary bundles it. Its values are those the
// bson package's deserialize() gives with its default options, built with the
// shell's own classes, so a caller sees the same document from either reader:
// int32, double and symbol as JS values, an int64 as a number within
// +-2^53 else a Long, a regex as a RegExp (flags m, i; s as g, as js-bson
// does), undefined as undefined, a DBPointer as a DBRef, a document shaped
// as a DBRef as one, a 16-byte subtype 4 Binary as a UUID.
//
// bsonReader(bson, fail) -> read(buffer): `bson` the shell's constructors
// (shell.bson), fail(message) the caller's error. A malformed document is
// fail('at byte N: what'), N counted from the document's first byte.

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const REPLACEMENT = '\ufffd';
const TWO_32 = 4294967296;
const DBREF_KEYS = new Set(['$ref', '$id', '$db']);
// Sizes of the values whose size is their type's.
const FIXED = { 0x01: 8, 0x06: 0, 0x07: 12, 0x08: 1, 0x09: 8, 0x0a: 0, 0x10: 4, 0x11: 8, 0x12: 8, 0x13: 16, 0x7f: 0, 0xff: 0 };

module.exports = function bsonReader(bson, fail) {
  const { Binary, Code, DBRef, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID } = bson;
  let buf;

  const bad = (at, what) => fail(`at byte ${at}: ${what}`);

  function need(at, n, end, what) {
    if (at + n > end) throw bad(at, `${what} needs ${n} bytes, ${Math.max(end - at, 0)} left`);
  }

  // Buffer.toString writes U+FFFD for bytes that are not UTF-8; only then is
  // the strict decoder asked, so well-formed text is decoded once.
  function utf8(from, to, at) {
    const s = buf.toString('utf8', from, to);
    if (s.includes(REPLACEMENT)) {
      try {
        fatalUtf8.decode(buf.subarray(from, to));
      } catch {
        throw bad(at, 'a string is not valid UTF-8');
      }
    }
    return s;
  }

  // An element name or a regex part: bytes up to a NUL inside the element's
  // document. Names are not checked as UTF-8, as js-bson does not.
  function cstringEnd(at, end) {
    const nul = buf.indexOf(0, at);
    if (nul < 0 || nul >= end) throw bad(at, 'a name has no NUL before the end of its document');
    return nul;
  }

  // int32 length (the NUL counted), the bytes, a NUL.
  function string(at, end) {
    need(at, 4, end, 'a string length');
    const len = buf.readInt32LE(at);
    if (len < 1 || at + 4 + len > end) throw bad(at, `a string claims ${len} bytes, ${end - at - 4} left in its document`);
    if (buf[at + 3 + len] !== 0) throw bad(at + 3 + len, 'a string does not end with a NUL byte');
    return { value: utf8(at + 4, at + 3 + len, at), next: at + 4 + len };
  }

  function int64(at) {
    const lo = buf.readUInt32LE(at);
    const hi = buf.readInt32LE(at + 4);
    // Within +-2^53 the number is exact: js-bson's promoteLongs range.
    if ((hi >= -0x200000 && hi < 0x200000) || (hi === 0x200000 && lo === 0)) return hi * TWO_32 + lo;
    return new Long(lo | 0, hi);
  }

  function regex(source, flags) {
    let js = '';
    for (const f of flags) {
      if (f === 'm' || f === 'i') js += f;
      else if (f === 's') js += 'g';
    }
    try {
      return new RegExp(source, js);
    } catch (err) {
      return { error: err.message };
    }
  }

  function binary(at, end) {
    need(at, 5, end, 'a binary');
    let len = buf.readInt32LE(at);
    const subtype = buf[at + 4];
    let from = at + 5;
    if (len < 0 || from + len > end) throw bad(at, `a binary claims ${len} bytes, ${end - from} left in its document`);
    const next = from + len;
    if (subtype === 2) {
      // The old binary subtype repeats the length inside its bytes.
      if (len < 4 || buf.readInt32LE(from) !== len - 4) throw bad(at, 'a subtype 2 binary\'s inner length is not its length less 4');
      from += 4;
      len -= 4;
    }
    const bytes = Buffer.from(buf.subarray(from, from + len));
    const value = new Binary(bytes, subtype);
    if (subtype === 4 && len === 16) return { value: typeof value.toUUID === 'function' ? value.toUUID() : new UUID(bytes), next };
    return { value, next };
  }

  // Reads the value of type `type` at `at`; {value, next}. typeAt: where its
  // type byte is, for an unknown type's error.
  function value(type, at, end, typeAt) {
    switch (type) {
      case 0x01: need(at, 8, end, 'a double'); return { value: buf.readDoubleLE(at), next: at + 8 };
      case 0x02: return string(at, end);
      case 0x03: case 0x04: {
        need(at, 4, end, 'a document length');
        const len = buf.readInt32LE(at);
        if (len < 5 || at + len > end) throw bad(at, `an embedded ${type === 0x04 ? 'array' : 'document'} claims ${len} bytes, ${end - at} left in its parent`);
        return { value: document(at, at + len, type === 0x04), next: at + len };
      }
      case 0x05: return binary(at, end);
      case 0x06: return { value: undefined, next: at };
      case 0x07: need(at, 12, end, 'an ObjectId'); return { value: new ObjectId(Buffer.from(buf.subarray(at, at + 12))), next: at + 12 };
      case 0x08:
        need(at, 1, end, 'a boolean');
        if (buf[at] > 1) throw bad(at, `a boolean is ${buf[at]}, not 0 or 1`);
        return { value: buf[at] === 1, next: at + 1 };
      case 0x09:
        need(at, 8, end, 'a date');
        return { value: new Date(buf.readInt32LE(at + 4) * TWO_32 + buf.readUInt32LE(at)), next: at + 8 };
      case 0x0a: return { value: null, next: at };
      case 0x0b: {
        const sEnd = cstringEnd(at, end);
        const fEnd = cstringEnd(sEnd + 1, end);
        const re = regex(buf.toString('utf8', at, sEnd), buf.toString('utf8', sEnd + 1, fEnd));
        if (re.error !== undefined) throw bad(at, `a regular expression JavaScript cannot compile: ${re.error}`);
        return { value: re, next: fEnd + 1 };
      }
      case 0x0c: {
        const ns = string(at, end);
        need(ns.next, 12, end, 'a DBPointer\'s ObjectId');
        return { value: new DBRef(ns.value, new ObjectId(Buffer.from(buf.subarray(ns.next, ns.next + 12)))), next: ns.next + 12 };
      }
      case 0x0d: { const s = string(at, end); return { value: new Code(s.value), next: s.next }; }
      case 0x0e: return string(at, end);
      case 0x0f: {
        // int32 total length, the code string, the scope document.
        need(at, 4, end, 'a code with scope length');
        const len = buf.readInt32LE(at);
        if (len < 14 || at + len > end) throw bad(at, `a code with scope claims ${len} bytes, ${end - at} left in its document`);
        const code = string(at + 4, at + len);
        need(code.next, 4, at + len, 'a scope length');
        const scopeLen = buf.readInt32LE(code.next);
        if (scopeLen < 5 || code.next + scopeLen !== at + len) throw bad(code.next, `a scope claims ${scopeLen} bytes, its code with scope leaves ${at + len - code.next}`);
        return { value: new Code(code.value, document(code.next, at + len, false)), next: at + len };
      }
      case 0x10: need(at, 4, end, 'an int32'); return { value: buf.readInt32LE(at), next: at + 4 };
      case 0x11: need(at, 8, end, 'a timestamp'); return { value: new Timestamp({ t: buf.readUInt32LE(at + 4), i: buf.readUInt32LE(at) }), next: at + 8 };
      case 0x12: need(at, 8, end, 'an int64'); return { value: int64(at), next: at + 8 };
      case 0x13: need(at, 16, end, 'a decimal128'); return { value: new Decimal128(Buffer.from(buf.subarray(at, at + 16))), next: at + 16 };
      case 0x7f: return { value: new MaxKey(), next: at };
      case 0xff: return { value: new MinKey(), next: at };
      default: throw bad(typeAt, `unknown BSON type 0x${type.toString(16).padStart(2, '0')}`);
    }
  }

  // The document whose int32 length is at `start` and whose NUL is at end - 1.
  function document(start, end, isArray) {
    if (buf[end - 1] !== 0) throw bad(end - 1, `the ${isArray ? 'array' : 'document'} at byte ${start} does not end with a NUL byte`);
    const out = isArray ? [] : {};
    let at = start + 4;
    let dollar = false;
    let onlyRefKeys = true;
    while (at < end) {
      const type = buf[at];
      if (type === 0) break;
      const nameEnd = cstringEnd(at + 1, end - 1);
      const v = value(type, nameEnd + 1, end - 1, at);
      if (isArray) out.push(v.value);
      else {
        const name = buf.toString('utf8', at + 1, nameEnd);
        if (name[0] === '$') {
          dollar = true;
          if (!DBREF_KEYS.has(name)) onlyRefKeys = false;
        }
        // A "__proto__" field is data, not the object's prototype.
        if (name === '__proto__') Object.defineProperty(out, name, { value: v.value, writable: true, enumerable: true, configurable: true });
        else out[name] = v.value;
      }
      at = v.next;
    }
    if (at !== end - 1) {
      throw bad(at, `a NUL ends the ${isArray ? 'array' : 'document'} at byte ${start} ${end - 1 - at} bytes before its length says`);
    }
    // js-bson's rule: $ref a string, $id not null, $db absent or a string,
    // and no other $ name.
    if (dollar && onlyRefKeys && typeof out.$ref === 'string' && out.$id != null && (!('$db' in out) || typeof out.$db === 'string')) {
      const { $ref, $id, $db, ...fields } = out;
      return new DBRef($ref, $id, $db, fields);
    }
    return out;
  }

  // Where the value of type `type` at `at` ends, read from its length or its
  // fixed size alone: the top-level reader passes over what it does not keep.
  function skip(type, at, end, typeAt) {
    const fixed = FIXED[type];
    if (fixed !== undefined) {
      need(at, fixed, end, 'a value');
      return at + fixed;
    }
    // Strings, code, symbols (int32 + bytes); documents, arrays, code with
    // scope (their int32 counts itself); binaries (int32 + subtype + bytes).
    if (type === 0x02 || type === 0x03 || type === 0x04 || type === 0x05 || type === 0x0d || type === 0x0e || type === 0x0f) {
      need(at, 4, end, 'a length');
      const len = buf.readInt32LE(at);
      const next = type === 0x05 ? at + 5 + len : type === 0x03 || type === 0x04 || type === 0x0f ? at + len : at + 4 + len;
      if (len < 0 || next > end || next <= at) throw bad(at, `a value claims ${len} bytes, ${end - at} left in its document`);
      return next;
    }
    return value(type, at, end, typeAt).next;
  }

  function checked(buffer, read) {
    buf = buffer;
    try {
      if (buf.length < 5) throw bad(0, `a document is 5 bytes at least, this one is ${buf.length}`);
      const len = buf.readInt32LE(0);
      if (len < 5 || len > buf.length) throw bad(0, `the document claims ${len} bytes, ${buf.length} are there`);
      if (len !== buf.length) throw bad(len, `${buf.length - len} bytes follow the document's end`);
      return read(len);
    } finally {
      buf = null;
    }
  }

  // The named top-level fields only, each read as read() reads it; the
  // others are passed over by their sizes, their contents unread.
  function readTop(len, keep) {
    const out = {};
    if (buf[len - 1] !== 0) throw bad(len - 1, 'the document at byte 0 does not end with a NUL byte');
    let at = 4;
    while (at < len && buf[at] !== 0) {
      const type = buf[at];
      const nameEnd = cstringEnd(at + 1, len - 1);
      const name = buf.toString('utf8', at + 1, nameEnd);
      if (keep.has(name)) {
        const v = value(type, nameEnd + 1, len - 1, at);
        out[name] = v.value;
        at = v.next;
      } else at = skip(type, nameEnd + 1, len - 1, at);
    }
    if (at !== len - 1) throw bad(at, `a NUL ends the document at byte 0 ${len - 1 - at} bytes before its length says`);
    return out;
  }

  const read = (buffer) => checked(buffer, (len) => document(0, len, false));
  // read.top(buffer, names): a Set of the top-level names to read.
  read.top = (buffer, names) => checked(buffer, (len) => readTop(len, names));
  return read;
};
