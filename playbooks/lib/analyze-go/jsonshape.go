package main

// The lines one log statement writes differ in their scalars only: the keys,
// brackets, commas and spaces between them are the same bytes from line to
// line. A shape keeps a line skipFast accepted and where its scalars are. A
// line made of the same bytes but for valid scalars in their places is valid
// as well (a scalar put in place of another leaves JSON's structure as it
// was) and has the same members at the same places relative to the bytes
// around them. Checking a line against its shape compares it with the shape's
// line sixteen bytes at a step and reads only the scalars that differ,
// instead of reading every token.

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"
)

// shapePos: a position in a line, as an offset into one of its literals
// (literal k: what lies between scalar k-1 and scalar k).
type shapePos struct{ lit, off int32 }

type memberShape struct {
	parent int32
	at     [4]shapePos // key start and end, value start and end
}

type shape struct {
	line    []byte     // the line it was made from (the value only)
	scalars [][2]int32 // where each scalar starts and ends in line
	members []memberShape
	escaped bool
	found   []foundMember // members.last's answers: the same for every line of the shape
	asked   int           // the answer after the last one given
}

// foundMember: the last member of parent named key (-1: none).
type foundMember struct {
	parent, at int32
	key        string
}

// shapes: the few shapes a worker's lines have had lately, and whether
// making new ones still pays: in a log whose lines have no common shape,
// making them only costs.
type shapes struct {
	known  [4]*shape
	credit int // lines read through a shape, less shapeCost per shape made
	missed int // lines read without a shape since the last one was made
	made   int
	starts []int32 // match's, kept for the next line
}

const (
	shapeCost  = 8   // lines a shape must serve to pay for itself
	shapeProbe = 512 // lines without a shape after which one is made whatever the credit
	shapeCap   = 32  // the most credit: lines of a new kind make a few shapes at most
	shapeTry   = 16  // without credit, the shapes are tried once in that many values
	// shapeBytes: the longest value a shape is made of, so that what shapes
	// keep stays small (servers cut long log attributes: maxLogSizeKB, 10 by default).
	shapeBytes = 64 << 10
)

// skip is skipFast for the value at i (with at least fastDepth levels left),
// through the shape of a value before it when it has one; rec gets its
// members when placed is set (else only skipFast's scalars when it makes a
// shape).
func (s *shapes) skip(b []byte, i int, rec *members, placed bool) (int, bool) {
	// While they do not serve, the shapes are tried on one value in
	// shapeTry: a comparison that fails can read most of the value.
	for k, sh := range s.known {
		if sh == nil || (s.credit < 0 && s.missed%shapeTry != 0) {
			break
		}
		if end, ok := sh.match(b, i, rec, s, placed); ok {
			s.credit = min(s.credit+1, shapeCap)
			s.known[0], s.known[k] = sh, s.known[0] // the last shape that served is tried first
			return end, true
		}
	}
	s.missed++
	rec.shaping = s.credit >= 0 || s.missed >= shapeProbe
	rec.scalars = rec.scalars[:0]
	end, ok := skipFast(b, i, fastDepth, rec)
	if ok && rec.shaping && end-i <= shapeBytes {
		s.credit = max(s.credit-shapeCost, -shapeCost)
		s.missed = 0
		s.made++
		copy(s.known[1:], s.known[:len(s.known)-1])
		s.known[0] = newShape(b, i, end, rec)
	}
	rec.shaping = false
	return end, ok
}

// newShape: the shape of b[i:end], a value skipFast accepted recording its
// scalars and members in rec.
func newShape(b []byte, i, end int, rec *members) *shape {
	sh := &shape{line: append([]byte(nil), b[i:end]...), escaped: rec.escaped}
	for _, sc := range rec.scalars {
		sh.scalars = append(sh.scalars, [2]int32{sc[0] - int32(i), sc[1] - int32(i)})
	}
	// A position is in the literal that starts at or before it (where a
	// scalar starts: at the end of the literal before it).
	at := func(p int32) shapePos {
		p -= int32(i)
		k := len(sh.scalars)
		for k > 0 && sh.scalars[k-1][1] > p {
			k--
		}
		if k == 0 {
			return shapePos{0, p}
		}
		return shapePos{int32(k), p - sh.scalars[k-1][1]}
	}
	for _, m := range rec.list {
		sh.members = append(sh.members, memberShape{parent: m.parent,
			at: [4]shapePos{at(m.key[0]), at(m.key[1]), at(m.value[0]), at(m.value[1])}})
	}
	return sh
}

// match: whether b[i:] starts with the shape's value but for valid scalars in
// the places of its scalars, and where it ends; the members go to rec when
// placed is set.
func (sh *shape) match(b []byte, i int, rec *members, s *shapes, placed bool) (int, bool) {
	t, scalars := sh.line, sh.scalars
	// starts: where each literal starts in b, after its scalar, shifted as
	// the last scalar read again before it left the rest of the line.
	starts := slices.Grow(s.starts[:0], len(scalars)+1)[:len(scalars)+1]
	starts[0] = int32(i)
	p, shift, next := 0, i, 0 // p: where t and b[p+shift:] are compared; next: the first scalar not behind p
	for {
		p += samePrefix(t[p:], b[p+shift:])
		if p == len(t) {
			break
		}
		for next < len(scalars) && int(scalars[next][1]) < p {
			starts[next+1] = scalars[next][1] + int32(shift)
			next++
		}
		if next == len(scalars) || p < int(scalars[next][0]) {
			return 0, false // outside the scalars: another shape
		}
		sc := scalars[next]
		end := skipScalar(b, int(sc[0])+shift)
		if end < 0 {
			return 0, false
		}
		p, shift = int(sc[1]), end-int(sc[1])
		starts[next+1] = int32(end)
		next++
	}
	s.starts = starts
	if !placed {
		return len(t) + shift, true
	}
	for ; next < len(scalars); next++ {
		starts[next+1] = scalars[next][1] + int32(shift)
	}
	rec.list, rec.starts, rec.unplaced = rec.list[:0], starts, true
	rec.escaped, rec.shape, sh.asked = sh.escaped, sh, 0
	return len(t) + shift, true
}

// place makes the list of members of a value read through its shape.
func (m *members) place() {
	sh := m.shape
	// Field by field: a memberAt built whole and copied stalls on the copy.
	m.list = slices.Grow(m.list[:0], len(sh.members))[:len(sh.members)]
	for j := range sh.members {
		ms, at := &sh.members[j], &m.list[j]
		at.parent = ms.parent
		at.key[0], at.key[1] = m.starts[ms.at[0].lit]+ms.at[0].off, m.starts[ms.at[1].lit]+ms.at[1].off
		at.value[0], at.value[1] = m.starts[ms.at[2].lit]+ms.at[2].off, m.starts[ms.at[3].lit]+ms.at[3].off
	}
	m.unplaced = false
}

// last: members.last for a value of the shape, looked for once per key. A
// report asks for the same keys in the same order line after line, so the
// answer after the one just given is tried first.
func (sh *shape) last(parent int32, key string, m *members, b []byte) int32 {
	if k := sh.asked; k < len(sh.found) && sh.found[k].parent == parent && sh.found[k].key == key {
		sh.asked++
		return sh.found[k].at
	}
	for k, f := range sh.found {
		if f.parent == parent && f.key == key {
			sh.asked = k + 1
			return f.at
		}
	}
	if m.unplaced {
		m.place()
	}
	m.shape = nil
	at := m.last(parent, key, b)
	m.shape = sh
	if len(sh.found) < 16 {
		sh.found = append(sh.found, foundMember{parent, at, key})
		sh.asked = len(sh.found)
	}
	return at
}

// samePrefix: how many bytes a and b have the same at their start, read
// sixteen at a step as two words (by pointer: slicing a and b at every step
// cost as much as the comparison).
func samePrefix(a, b []byte) int {
	n := min(len(a), len(b))
	pa, pb := unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	word := func(p unsafe.Pointer, at int) uint64 {
		return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, at))[:])
	}
	i := 0
	for ; i+16 <= n; i += 16 {
		x, y := word(pa, i)^word(pb, i), word(pa, i+8)^word(pb, i+8)
		if x|y != 0 {
			if x != 0 {
				return i + bits.TrailingZeros64(x)/8
			}
			return i + 8 + bits.TrailingZeros64(y)/8
		}
	}
	if i+8 <= n {
		if x := word(pa, i) ^ word(pb, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
		i += 8
	}
	for ; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
