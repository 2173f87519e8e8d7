package main

// A strict JSON reader for one log line, written to agree with orjson (the
// Python engine's parser) on what is valid: RFC 8259 exactly, UTF-8 checked
// first, integers that fit 64 bits kept exact. It reads a line in one pass
// and builds values only where a report asks for them (parse); elsewhere it
// only checks (skip). Of orjson's error messages it gives only the two it can
// be sure of: "unexpected end of data" (a line cut short, as the last line of
// a log still being written) and "unexpected content after document". Any
// other fault is errForeign: the caller hands the whole run to the Python
// engine, which names it exactly.

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

type kind uint8

const (
	kNull kind = iota
	kBool
	kInt    // fits int64
	kBigInt // an integer literal outside int64: orjson reads some as int, some as float
	kFloat  // a literal with a fraction or an exponent
	kString
	kArray
	kObject
	kRaw // a member read through rawMember: s is its JSON text, checked, not built
)

// value: a JSON value (88 bytes, reused through an arena line after line).
type value struct {
	k        kind
	hasFirst bool // an object with a first key (in s: Python's next(iter(dict)))
	b        bool
	i        int64
	f        float64
	s        string   // a string's text; an object's first key
	keys     []string // an object's keys in order of first appearance; a repeated key keeps its place and takes the last value (as a Python dict fed by orjson)
	vals     []*value // an object's values (by key), an array's items
}

func (v *value) get(key string) *value {
	if v == nil || v.k != kObject {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

func (v *value) has(key string) bool {
	if v == nil || v.k != kObject {
		return false
	}
	for _, k := range v.keys {
		if k == key {
			return true
		}
	}
	return false
}

func (v *value) set(key string, item *value) {
	for i, k := range v.keys {
		if k == key {
			v.vals[i] = item
			return
		}
	}
	v.keys = append(v.keys, key)
	v.vals = append(v.vals, item)
}

// An unparsable line: orjson's message, of which the Python engine reports
// the part before the first ':' (reason).
type jsonError struct{ message string }

func (e *jsonError) Error() string { return e.message }

func (e *jsonError) reason() string {
	if i := strings.IndexByte(e.message, ':'); i >= 0 {
		return e.message[:i]
	}
	return e.message
}

func fault(message string) *jsonError { return &jsonError{message} }

var (
	errEnd       = fault("unexpected end of data")
	errContent   = fault("unexpected content after document")
	errUTF8      = fault("str is not valid UTF-8: surrogates not allowed")
	errDepth     = fault("depth limit exceeded")
	errBadEscape = fault("invalid escaped sequence in string")
	errNoDigit   = fault("no digit after sign")
	// errForeign: invalid in a way whose orjson message is not reproduced here.
	errForeign = errors.New("JSON fault this engine does not name")
)

const maxDepth = 1024 // orjson's

type jreader struct {
	b      []byte
	i      int
	depth  int
	arena  *arena
	strict bool // inside a value skipFast refused: no second try in its parts
}

// arena: values reused line after line by one worker. A value read through
// an arena lives until the next line is read, and its strings may point
// into the line itself: what a report keeps must be copied (strings.Clone).
type arena struct {
	vals []*value
	n    int
	// Per selection, the shapes of the objects and arrays it leaves out, by
	// key (lsid, $clusterTime, locks...: the same layout line after line),
	// and skipFast's record for them.
	skipped [][]skippedKey
	scratch members
}

type skippedKey struct {
	key    string
	shapes shapes
}

// skippedKeys: the most keys a selection keeps shapes for.
const skippedKeys = 8

func (r *jreader) newValue(k kind) *value {
	a := r.arena
	if a == nil {
		return &value{k: k}
	}
	if a.n == len(a.vals) {
		a.vals = append(a.vals, &value{})
	}
	v := a.vals[a.n]
	a.n++
	*v = value{k: k, keys: v.keys[:0], vals: v.vals[:0]}
	return v
}

// text: the string of a slice of the line; without a copy when read
// through an arena.
func (r *jreader) text(b []byte) string {
	if r.arena != nil && len(b) > 0 {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (r *jreader) ws() {
	for r.i < len(r.b) && isSpace(r.b[r.i]) {
		r.i++
	}
}

// parseDoc reads a whole line into a value.
func parseDoc(line []byte) (*value, error) { return parseSelected(line, nil, nil) }

// skip checks the value at r.i: skipFast first (a scalar straight to its
// loop, without skipFast's setup: most values skipped are), the strict
// reader where skipFast cannot tell.
func (r *jreader) skip() error {
	if r.strict {
		return r.skipStrict()
	}
	if r.i < len(r.b) && r.b[r.i] != '{' && r.b[r.i] != '[' {
		if end := skipScalar(r.b, r.i); end >= 0 {
			r.i = end
			return nil
		}
	} else if end, ok := skipFast(r.b, r.i, maxDepth-r.depth, nil); ok {
		r.i = end
		return nil
	}
	r.strict = true
	err := r.skipStrict()
	r.strict = false
	return err
}

// skipMember skips the value of a member sel leaves out: an object or an
// array through the shapes of that key's values in the lines before.
func (r *jreader) skipMember(sel *selection, key []byte) error {
	a := r.arena
	if a == nil || r.strict || r.i >= len(r.b) || (r.b[r.i] != '{' && r.b[r.i] != '[') ||
		maxDepth-r.depth < fastDepth {
		return r.skip()
	}
	if sel.id >= len(a.skipped) {
		a.skipped = append(a.skipped, make([][]skippedKey, sel.id+1-len(a.skipped))...)
	}
	keys := a.skipped[sel.id]
	k := 0
	for k < len(keys) && keys[k].key != string(key) {
		k++
	}
	if k == len(keys) {
		if k == skippedKeys {
			return r.skip()
		}
		a.skipped[sel.id] = append(keys, skippedKey{key: string(key)})
		keys = a.skipped[sel.id]
	}
	if end, ok := keys[k].shapes.skip(r.b, r.i, &a.scratch, false); ok {
		r.i = end
		return nil
	}
	return r.skip() // refused: the strict reader names the fault
}

func (r *jreader) skipStrict() error {
	if r.i >= len(r.b) {
		return errEnd
	}
	switch c := r.b[r.i]; {
	case c == '{':
		return r.object(nil, nil)
	case c == '[':
		return r.array(nil)
	case c == '"':
		_, err := r.str(false)
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := r.number(false)
		return err
	case c == '+' || c == '.':
		return errNoDigit // orjson reads them as a sign, end of data or not
	default:
		_, err := r.literal(false)
		return err
	}
}

func (r *jreader) parse() (*value, error) {
	if r.i >= len(r.b) {
		return nil, errEnd
	}
	switch c := r.b[r.i]; {
	case c == '{':
		v := r.newValue(kObject)
		return v, r.object(v, nil)
	case c == '[':
		v := r.newValue(kArray)
		return v, r.array(v)
	case c == '"':
		s, err := r.str(true)
		if err != nil {
			return nil, err
		}
		v := r.newValue(kString)
		v.s = r.text(s)
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number(true)
	case c == '+' || c == '.':
		return nil, errNoDigit
	default:
		return r.literal(true)
	}
}

// selection: which members of an object to build (a nil *selection
// builds the whole value); members not selected are only checked (the
// object's first key is kept whatever it is).
type selection struct {
	keys  map[string]*selection
	list  []member // keys, for a linear search (a handful: faster than hashing)
	id    int      // its place in an arena's per-selection lists
	sizes uint64   // a bit per length of its keys (63: 63 bytes or more)
}

var selections int // how many prepare has numbered

type member struct {
	name  string
	child *selection
}

func (s *selection) find(key []byte) (*selection, bool) {
	if s.list == nil && len(s.keys) > 0 {
		panic("selection used before prepare")
	}
	if s.sizes&(1<<min(len(key), 63)) == 0 { // most keys of a line are not selected
		return nil, false
	}
	for i := range s.list {
		if s.list[i].name == string(key) {
			return s.list[i].child, true
		}
	}
	return nil, false
}

// rawMember: a selection that keeps a member as its JSON text (kRaw), checked
// but not built, for a reader that builds it only when it must.
var rawMember = &selection{}

// prepare fills the lists of a selection tree (at package init).
func (s *selection) prepare() *selection {
	s.id = selections
	selections++
	for name, child := range s.keys {
		s.list = append(s.list, member{name, child})
		s.sizes |= 1 << min(len(name), 63)
		if child != nil {
			child.prepare()
		}
	}
	return s
}

// parseSelected reads a whole line, building only what sel names (nil:
// all), through arena a when it is not nil.
func parseSelected(line []byte, sel *selection, a *arena) (*value, error) {
	if !utf8.Valid(line) {
		return nil, errUTF8
	}
	if a != nil {
		a.n = 0
	}
	r := jreader{b: line, arena: a}
	r.ws()
	if r.i == len(r.b) {
		return nil, errForeign
	}
	v, err := r.parseSel(sel)
	if err != nil {
		return nil, err
	}
	r.ws()
	if r.i != len(r.b) {
		return nil, errContent
	}
	return v, nil
}

func (r *jreader) parseSel(sel *selection) (*value, error) {
	if sel != nil && r.i < len(r.b) && r.b[r.i] == '{' {
		v := r.newValue(kObject)
		return v, r.object(v, sel)
	}
	return r.parse()
}

// open steps into an object or array at r.i; empty tells that it closes at once.
func (r *jreader) open(closing byte) (empty bool, err error) {
	r.depth++
	if r.depth > maxDepth {
		return false, errDepth
	}
	r.i++
	r.ws()
	if r.i >= len(r.b) {
		return false, errEnd
	}
	if r.b[r.i] == closing {
		r.i++
		r.depth--
		return true, nil
	}
	return false, nil
}

func (r *jreader) object(into *value, sel *selection) error {
	if empty, err := r.open('}'); empty || err != nil {
		return err
	}
	for {
		if r.i >= len(r.b) {
			return errEnd
		}
		if r.b[r.i] != '"' {
			return fault("unexpected character, expected a string key")
		}
		key, err := r.str(into != nil)
		if err != nil {
			return err
		}
		r.ws()
		if r.i >= len(r.b) {
			return errEnd
		}
		if r.b[r.i] != ':' {
			return fault("unexpected character, expected ':' after key")
		}
		r.i++
		r.ws()
		var item *value
		keep := into != nil
		if into == nil {
			err = r.skip()
		} else if sel == nil {
			item, err = r.parse()
		} else if child, ok := sel.find(key); ok {
			if child == rawMember {
				start := r.i
				if err = r.skip(); err == nil {
					item = r.newValue(kRaw)
					item.s = r.text(r.b[start:r.i])
				}
			} else {
				item, err = r.parseSel(child)
			}
		} else {
			err = r.skipMember(sel, key)
			keep = false
		}
		if err != nil {
			return err
		}
		if into != nil && !into.hasFirst {
			into.s, into.hasFirst = r.text(key), true
		}
		if keep {
			into.set(r.text(key), item)
		}
		if done, err := r.next('}', "unexpected character, expected ',' or '}'"); done || err != nil {
			return err
		}
	}
}

// next reads what follows a member or an item: a ',' and more (not the
// closing byte: orjson refuses a trailing comma), or the closing byte.
func (r *jreader) next(closing byte, unexpected string) (done bool, err error) {
	r.ws()
	if r.i >= len(r.b) {
		return false, errEnd
	}
	switch r.b[r.i] {
	case ',':
		r.i++
		r.ws()
		if r.i >= len(r.b) {
			return false, errEnd
		}
		if r.b[r.i] == closing {
			return false, fault("trailing comma is not allowed")
		}
		return false, nil
	case closing:
		r.i++
		r.depth--
		return true, nil
	}
	return false, fault(unexpected)
}

func (r *jreader) array(into *value) error {
	if empty, err := r.open(']'); empty || err != nil {
		return err
	}
	for {
		if into != nil {
			item, err := r.parse()
			if err != nil {
				return err
			}
			into.vals = append(into.vals, item)
		} else if err := r.skip(); err != nil {
			return err
		}
		if done, err := r.next(']', "unexpected character, expected ',' or ']'"); done || err != nil {
			return err
		}
	}
}

func hexval(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// u4 reads the four hex digits of a \u escape at r.i.
func (r *jreader) u4() (rune, error) {
	if r.i+4 > len(r.b) {
		for j := r.i; j < len(r.b); j++ {
			if hexval(r.b[j]) < 0 {
				return 0, errBadEscape
			}
		}
		return 0, errEnd
	}
	var v rune
	for j := 0; j < 4; j++ {
		h := hexval(r.b[r.i+j])
		if h < 0 {
			return 0, errBadEscape
		}
		v = v<<4 | rune(h)
	}
	r.i += 4
	return v, nil
}

// findSpecial: the index of the first '"', '\\' or control character at or
// after i, eight bytes at a time (the lowest flagged byte of a word is
// always a true one).
func findSpecial(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q := w ^ (ones * '"')
		e := w ^ (ones * '\\')
		m := ((w - ones*0x20) & ^w) | ((q - ones) & ^q) | ((e - ones) & ^e)
		if m &= highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return len(b)
}

// str reads a string at r.i (the opening quote): a slice of the line when
// it has no escape, else the decoded text (built only when want is set).
// The input is valid UTF-8 already.
func (r *jreader) str(want bool) ([]byte, error) {
	r.i++
	start := r.i
	var buf []byte
	escaped := false
	for {
		r.i = findSpecial(r.b, r.i)
		if r.i >= len(r.b) {
			return nil, errEnd
		}
		c := r.b[r.i]
		switch {
		case c == '"':
			var s []byte
			if escaped {
				if want {
					s = append(buf, r.b[start:r.i]...)
				}
			} else {
				s = r.b[start:r.i]
			}
			r.i++
			return s, nil
		case c < 0x20:
			return nil, fault("unexpected control character in string")
		case c == '\\':
			if want {
				buf = append(buf, r.b[start:r.i]...)
			}
			escaped = true
			r.i++
			if r.i >= len(r.b) {
				return nil, errEnd
			}
			e := r.b[r.i]
			r.i++
			var out rune
			switch e {
			case '"', '\\', '/':
				out = rune(e)
			case 'b':
				out = '\b'
			case 'f':
				out = '\f'
			case 'n':
				out = '\n'
			case 'r':
				out = '\r'
			case 't':
				out = '\t'
			case 'u':
				u, err := r.u4()
				if err != nil {
					return nil, err
				}
				switch {
				case u >= 0xDC00 && u <= 0xDFFF:
					return nil, fault("invalid high surrogate in string")
				case u >= 0xD800 && u <= 0xDBFF:
					if r.i+2 > len(r.b) {
						if r.i == len(r.b) || r.b[r.i] == '\\' {
							return nil, errEnd
						}
						return nil, fault("no low surrogate in string")
					}
					if r.b[r.i] != '\\' || r.b[r.i+1] != 'u' {
						return nil, fault("no low surrogate in string")
					}
					r.i += 2
					low, err := r.u4()
					if err != nil && err != errEnd {
						return nil, errForeign // which of its messages orjson gives here is not known
					}
					if err != nil {
						return nil, err
					}
					if low < 0xDC00 || low > 0xDFFF {
						return nil, fault("invalid low surrogate in string")
					}
					u = 0x10000 + (u-0xD800)<<10 + (low - 0xDC00)
				}
				out = u
			default:
				return nil, errBadEscape
			}
			if want {
				buf = utf8.AppendRune(buf, out)
			}
			start = r.i
		default:
			r.i++
		}
	}
}

func (r *jreader) digits() int {
	n := 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
		n++
	}
	return n
}

func (r *jreader) number(want bool) (*value, error) {
	start := r.i
	if r.b[r.i] == '-' {
		r.i++
	}
	if r.i >= len(r.b) {
		return nil, errEnd
	}
	if r.b[r.i] == '0' {
		r.i++
		if r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			return nil, fault("number with leading zero is not allowed")
		}
	} else if r.digits() == 0 {
		return nil, errNoDigit
	}
	isFloat := false
	if r.i < len(r.b) && r.b[r.i] == '.' {
		isFloat = true
		r.i++
		if r.i >= len(r.b) {
			return nil, errEnd
		}
		if r.digits() == 0 {
			return nil, fault("no digit after decimal point")
		}
	}
	hasExp := false
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		isFloat, hasExp = true, true
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if r.i >= len(r.b) {
			return nil, errEnd
		}
		if r.digits() == 0 {
			return nil, fault("no digit after exponent sign")
		}
	}
	if isFloat {
		if !want && !hasExp && r.i-start < 300 {
			return nil, nil // too short to overflow to infinity: nothing to check
		}
		f, err := strconv.ParseFloat(string(r.b[start:r.i]), 64)
		if math.IsInf(f, 0) {
			return nil, fault("number is infinity when parsed as double")
		}
		if err != nil {
			return nil, errForeign
		}
		if !want {
			return nil, nil
		}
		v := r.newValue(kFloat)
		v.f = f
		return v, nil
	}
	if !want {
		return nil, nil
	}
	digits := r.b[start:r.i]
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	// Up to 19 digits fit a uint64 (a cursor id has 19 most often); the
	// int64 range then holds or not. More digits (no leading zero) do not.
	var u uint64
	for _, c := range digits {
		u = u*10 + uint64(c-'0')
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	if len(digits) > 19 || u > limit {
		v := r.newValue(kBigInt)
		v.s = string(r.b[start:r.i])
		return v, nil
	}
	v := r.newValue(kInt)
	v.i = int64(u)
	if neg {
		v.i = -v.i // -(2^63) wraps to itself, as it should
	}
	return v, nil
}

var literals = []struct {
	text string
	v    value
}{{"true", value{k: kBool, b: true}}, {"false", value{k: kBool}}, {"null", value{k: kNull}}}

func (r *jreader) literal(want bool) (*value, error) {
	for _, lit := range literals {
		if r.b[r.i] != lit.text[0] {
			continue
		}
		for j := 0; j < len(lit.text); j++ {
			if r.i+j >= len(r.b) {
				return nil, errEnd
			}
			if r.b[r.i+j] != lit.text[j] {
				return nil, fault("invalid literal, expected '" + lit.text + "'")
			}
		}
		r.i += len(lit.text)
		if !want {
			return nil, nil
		}
		v := r.newValue(lit.v.k)
		v.b = lit.v.b
		return v, nil
	}
	return nil, fault("unexpected character, expected a JSON value")
}

func validUTF8(b []byte) bool { return utf8.Valid(b) }

// parseTail reads b[from:] as the members of an object whose '{' is not
// there (cursors' tail: from the last "cursorid" to the end of attr).
func parseTail(b []byte, from int, sel *selection, a *arena) (*value, error) {
	if !utf8.Valid(b[from:]) {
		return nil, errUTF8
	}
	a.n = 0
	r := jreader{b: b, i: from - 1, arena: a} // object() steps over the '{' it expects at r.i
	v := r.newValue(kObject)
	if err := r.object(v, sel); err != nil {
		return nil, err
	}
	r.ws()
	if r.i != len(r.b) {
		return nil, errContent
	}
	return v, nil
}
