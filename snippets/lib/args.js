'use strict';
// The argument kit: how every public function names a value it was given and
// checks the arguments every one of them shares, so the same mistake reads
// the same everywhere. Values may come from the shell's realm (its Date,
// Array, Object are not this module's), so nothing here uses instanceof.

// Long input is quoted by a prefix: an error message stays one short line.
const PREVIEW_CHARS = 40;

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

function article(noun) {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

// A JSON-quoted string, cut to its first PREVIEW_CHARS characters.
function preview(s) {
  if (s.length <= PREVIEW_CHARS) return JSON.stringify(s);
  return `${JSON.stringify(s.slice(0, PREVIEW_CHARS))}... (${s.length} characters)`;
}

// What a value is, in words: 'undefined', 'NaN', 'a Date', 'a Long',
// 'the string "abc"', 'an object with fields a, b'.
function describe(x) {
  if (x === undefined) return 'undefined';
  if (x === null) return 'null';
  switch (typeof x) {
    case 'string': return x.length ? `the string ${preview(x)}` : 'an empty string';
    case 'number': return Number.isNaN(x) ? 'NaN' : `the number ${x}`;
    case 'boolean': return String(x);
    case 'bigint': return `the bigint ${x}n`;
    case 'symbol': return 'a symbol';
    case 'function': return 'a function';
    default: break;
  }
  if (typeof x._bsontype === 'string') return article(x._bsontype === 'ObjectID' ? 'ObjectId' : x._bsontype);
  if (Array.isArray(x)) return x.length ? `an array of ${x.length} element${x.length === 1 ? '' : 's'}` : 'an empty array';
  const t = tag(x);
  if (t === 'Date') return 'a Date';
  if (t === 'RegExp') return 'a RegExp';
  if (t === 'Uint8Array') return typeof Buffer !== 'undefined' && Buffer.isBuffer(x) ? 'a Buffer' : 'a Uint8Array';
  if (t !== 'Object') return article(t);
  if (typeof x.getFullName === 'function' && typeof x.getDB === 'function') return `the collection ${x.getFullName()}`;
  if (typeof x.getSiblingDB === 'function' && typeof x.getName === 'function') return `the database ${x.getName()}`;
  const keys = Object.keys(x);
  if (!keys.length) return 'an empty object';
  const shown = keys.slice(0, 4).map((k) => (k.length > PREVIEW_CHARS ? `${k.slice(0, PREVIEW_CHARS)}...` : k));
  return `an object with field${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > 4 ? `, ... (${keys.length} fields)` : ''}`;
}

// A name the user typed, for 'unknown recipe "x"': a string is quoted, any
// other value described.
function quote(x) {
  return typeof x === 'string' ? preview(x) : describe(x);
}

// A plain document (not an array, BSON value, Date or RegExp).
function isDocument(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && typeof x._bsontype !== 'string'
    && tag(x) === 'Object';
}

// A shell collection handle (db.foo) and a database handle (db).
function isCollection(x) {
  return x !== null && typeof x === 'object' && typeof x.getDB === 'function' && typeof x.getFullName === 'function';
}

function isDatabase(x) {
  return x !== null && typeof x === 'object' && !isCollection(x)
    && typeof x.getSiblingDB === 'function' && typeof x.getName === 'function';
}

// Checks an options argument: undefined or null is {}, anything else must be a
// document whose keys are all accepted. `fail` builds the function's error.
function options(fail, value, accepted, example) {
  if (value === undefined || value === null) return {};
  if (!isDocument(value)) throw fail(`options must be a document, e.g. ${example}; got ${describe(value)}`);
  const unknown = Object.keys(value).filter((k) => !accepted.includes(k));
  if (unknown.length) {
    throw fail(`unknown option${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `'${k.slice(0, PREVIEW_CHARS)}'`).join(', ')}; accepted: ${accepted.join(', ')}`);
  }
  return value;
}

module.exports = { describe, preview, quote, isDocument, isCollection, isDatabase, options };
