package main

// The lines one log statement writes differ in their scalars only: the keys,
// brackets, commas and spaces between them are the same bytes from line to
// line. A shape keeps those bytes (the literals between the scalars) of a
// line skipFast accepted. A line made of the same literals with a valid
// scalar between each two is valid as well (a scalar put in place of
// another leaves JSON's structure as it was) and has the same members at the
// same places relative to the literals around them. Checking a line against
// its shape compares a few runs of bytes and checks the scalars, instead of
// reading every token.

// shapePos: a position in a line, as an offset into one of its literals.
type shapePos struct{ lit, off int32 }

type memberShape struct {
	parent int32
	at     [4]shapePos // key start and end, value start and end
}

type shape struct {
	text    []byte  // the literals, one after another
	ends    []int32 // where each literal ends in text
	members []memberShape
	escaped bool
}

// shapes: the few shapes a worker's lines have had lately, and whether
// making new ones still pays: in a log whose lines have no common shape,
// making them only costs.
type shapes struct {
	known  [4]*shape
	credit int // lines read through a shape, less shapeCost per shape made
	missed int // lines read without a shape since the last one was made
	made   int
	starts []int32
}

const (
	shapeCost  = 8   // lines a shape must serve to pay for itself
	shapeProbe = 512 // lines without a shape after which one is made whatever the credit
	shapeCap   = 32  // the most credit: lines of a new kind make a few shapes at most
)

// skipKnown is skipFast for a whole line, recording its members in rec,
// through the shape of a line before it when it has one.
func skipKnown(b []byte, rec *members) (int, bool) {
	s := &rec.shapes
	for k, sh := range s.known {
		if sh == nil {
			break
		}
		if end, ok := sh.match(b, rec, s); ok {
			s.credit = min(s.credit+1, shapeCap)
			s.known[0], s.known[k] = sh, s.known[0] // the last shape that served is tried first
			return end, true
		}
	}
	s.missed++
	rec.shaping = s.credit >= 0 || s.missed >= shapeProbe
	rec.scalars = rec.scalars[:0]
	end, ok := skipFast(b, 0, maxDepth, rec)
	if ok && rec.shaping {
		s.credit = max(s.credit-shapeCost, -shapeCost)
		s.missed = 0
		s.made++
		copy(s.known[1:], s.known[:len(s.known)-1])
		s.known[0] = newShape(b, end, rec)
	}
	rec.shaping = false
	return end, ok
}

// newShape: the shape of b[:end], a line skipFast accepted recording its
// scalars and members in rec.
func newShape(b []byte, end int, rec *members) *shape {
	sh := &shape{escaped: rec.escaped}
	litStart := 0
	for _, sc := range rec.scalars {
		sh.text = append(sh.text, b[litStart:sc[0]]...)
		sh.ends = append(sh.ends, int32(len(sh.text)))
		litStart = int(sc[1])
	}
	sh.text = append(sh.text, b[litStart:end]...)
	sh.ends = append(sh.ends, int32(len(sh.text)))
	// A position in the line is in the literal that starts at or before it
	// (where a scalar starts, at the end of the literal before).
	starts := make([]int32, len(sh.ends))
	for k := range starts {
		if k > 0 {
			starts[k] = rec.scalars[k-1][1]
		}
	}
	at := func(p int32) shapePos {
		k := len(starts) - 1
		for starts[k] > p {
			k--
		}
		return shapePos{int32(k), p - starts[k]}
	}
	for _, m := range rec.list {
		sh.members = append(sh.members, memberShape{parent: m.parent,
			at: [4]shapePos{at(m.key[0]), at(m.key[1]), at(m.value[0]), at(m.value[1])}})
	}
	return sh
}

// match: whether b is made of the shape's literals with a scalar between
// each two, and where its value ends; the members go to rec.
func (sh *shape) match(b []byte, rec *members, s *shapes) (int, bool) {
	starts := s.starts[:0]
	i, from := 0, int32(0)
	for k, to := range sh.ends {
		lit := sh.text[from:to]
		if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != string(lit) {
			return 0, false
		}
		starts = append(starts, int32(i))
		i += len(lit)
		from = to
		if k == len(sh.ends)-1 {
			break
		}
		if i = skipScalar(b, i); i < 0 {
			return 0, false
		}
	}
	s.starts = starts
	rec.list = rec.list[:0]
	for _, m := range sh.members {
		pos := func(p shapePos) int32 { return starts[p.lit] + p.off }
		rec.list = append(rec.list, memberAt{parent: m.parent,
			key: [2]int32{pos(m.at[0]), pos(m.at[1])}, value: [2]int32{pos(m.at[2]), pos(m.at[3])}})
	}
	rec.escaped = sh.escaped
	return i, true
}
