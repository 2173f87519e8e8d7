package main

// A fast check of the JSON values a report skips (most of a log line): a
// loop over the bytes without recursion, values or error messages. It only
// says "valid, ends here" for input the strict reader (jreader.skip) accepts
// and that is simple; anything else (a fault, an exponent, a surrogate
// escape, deep nesting) it leaves to the strict reader, which decides and
// names the fault. It may be wrong only by refusing.

import "bytes"

// fastDepth: the levels it keeps track of (one bit each).
const fastDepth = 63

// memberAt: where a member of an object is in a line: its key's text
// (without quotes) and its value's, as offsets.
type memberAt struct {
	parent     int32 // the member whose value is this member's object; -1 at the top
	key, value [2]int32
}

// members: what skipFast records of the members at depths 1 and 2 when given
// one, so that a report reads a line it has just checked without reading it
// again (refresh). escaped: a key there has an escape, so these keys are not
// the keys' text.
type members struct {
	list    []memberAt
	open    [3]int32 // per depth, the member whose value is being read
	escaped bool
	shaping bool       // record the scalars' places too (a new shape's)
	scalars [][2]int32 // where each scalar value starts and ends
	shape   *shape     // the shape the list was made from, nil if none
	// unplaced: the list is still to be made from the shape and starts (where
	// each of its literals starts in the line): a reader asks for a few
	// members of the dozens a line has, so only those are placed.
	unplaced bool
	starts   []int32
}

func (m *members) reset() {
	m.list, m.open, m.escaped, m.shape, m.unplaced = m.list[:0], [3]int32{-1, -1, -1}, false, nil, false
}

// value: where member k's value starts and ends in the line.
func (m *members) value(k int32) (int32, int32) {
	if m.unplaced {
		at := &m.shape.members[k].at
		return m.starts[at[2].lit] + at[2].off, m.starts[at[3].lit] + at[3].off
	}
	return m.list[k].value[0], m.list[k].value[1]
}

// last: the index of the last member of parent (-1: the outermost object)
// named key, -1 if none (a repeated key keeps the last value, as in a
// Python dict fed by orjson).
func (m *members) last(parent int32, key string, b []byte) int32 {
	if m.shape != nil {
		return m.shape.last(parent, key, m, b)
	}
	for i := len(m.list) - 1; i >= 0; i-- {
		if at := &m.list[i]; at.parent == parent && string(b[at.key[0]:at.key[1]]) == key {
			return int32(i)
		}
	}
	return -1
}

// skipFast: the end of the value at i, and whether it is known valid;
// depthLeft is how many more levels the strict reader would allow; rec, if
// not nil, gets the members at depths 1 and 2.
func skipFast(b []byte, i, depthLeft int, rec *members) (int, bool) {
	depthLeft = min(depthLeft, fastDepth)
	var objects uint64   // a bit per open level, set for an object
	depth, start := 0, 0 // start: the scalar's, while it is read
	if rec != nil {
		rec.reset()
	}
value: // at a value, as the strict reader is when skip is called
	if i >= len(b) {
		return i, false
	}
	if c := b[i]; c == '{' || c == '[' {
		if depth == depthLeft {
			return i, false
		}
		depth++
		objects <<= 1
		i++
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		closing := byte(']')
		if c == '{' {
			objects |= 1
			closing = '}'
		}
		if i < len(b) && b[i] == closing {
			i++
			depth--
			objects >>= 1
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	}
	start = i
	if i = skipScalar(b, i); i < 0 {
		return 0, false
	}
	if rec != nil && rec.shaping {
		rec.scalars = append(rec.scalars, [2]int32{int32(start), int32(i)})
	}
after:
	if rec != nil && depth <= 2 && depth > 0 && rec.open[depth] >= 0 {
		rec.list[rec.open[depth]].value[1] = int32(i)
		rec.open[depth] = -1
	}
	if depth == 0 {
		return i, true
	}
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case ',':
		i++
		if objects&1 == 1 {
			goto key
		}
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		goto value // a ']' there is no value: refused
	case '}', ']':
		if (b[i] == '}') != (objects&1 == 1) {
			return i, false
		}
		i++
		depth--
		objects >>= 1
		goto after
	}
	return i, false
key:
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != '"' {
		return i, false // a '}' after ',' included: no trailing comma
	}
	if keyAt := i + 1; rec != nil && depth <= 2 {
		if i = skipString(b, keyAt); i < 0 {
			return 0, false
		}
		if bytes.IndexByte(b[keyAt:i-1], '\\') >= 0 {
			rec.escaped = true
		}
		rec.open[depth] = int32(len(rec.list))
		rec.list = append(rec.list, memberAt{parent: rec.open[depth-1],
			key: [2]int32{int32(keyAt), int32(i - 1)}})
	} else if i = skipString(b, keyAt); i < 0 {
		return 0, false
	}
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	i++
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if rec != nil && depth <= 2 {
		rec.list[rec.open[depth]].value[0] = int32(i)
	}
	goto value
}

// skipScalar: the end of the string, number, true, false or null at i, or
// -1 to leave it to the strict reader.
func skipScalar(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i+1)
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(b, i)
	case c == 't' && hasLiteral(b, i, "true"):
		return i + 4
	case c == 'f' && hasLiteral(b, i, "false"):
		return i + 5
	case c == 'n' && hasLiteral(b, i, "null"):
		return i + 4
	}
	return -1
}

func hasLiteral(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// skipString: the end of the string whose text starts at i (after its
// quote), or -1 to leave it to the strict reader. Escapes are checked here
// but for \u escapes of surrogates; the line's UTF-8 is checked already.
func skipString(b []byte, i int) int {
	for {
		i = findSpecial(b, i)
		if i >= len(b) || b[i] < 0x20 {
			return -1
		}
		if b[i] == '"' {
			return i + 1
		}
		if i+1 >= len(b) {
			return -1
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(b) {
				return -1
			}
			for _, h := range b[i+2 : i+6] {
				if hexval(h) < 0 {
					return -1
				}
			}
			if h := hexval(b[i+2]); h == 0xd && hexval(b[i+3]) >= 8 {
				return -1 // a surrogate: the strict reader pairs them
			}
			i += 6
		default:
			return -1
		}
	}
}

// skipNumber: the end of the number at i, or -1 to leave it to the strict
// reader (a fault, an exponent, or a fraction long enough to overflow).
func skipNumber(b []byte, i int) int {
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		digits := i
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
		if i == digits {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E' || (b[i] >= '0' && b[i] <= '9')) {
		return -1 // an exponent, or a digit after a leading zero
	}
	if i-start >= 300 {
		return -1
	}
	return i
}
