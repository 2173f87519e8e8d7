package main

import (
	"fmt"
	"strings"
	"testing"
)

// shapeOf: the shape shapes.skip makes of the value at i of a line it has
// no shape for.
func shapeOf(t *testing.T, line []byte, i int) *shape {
	t.Helper()
	var s shapes
	if _, ok := s.skip(line, i, &members{}, true); !ok || s.known[0] == nil {
		t.Fatalf("%q: no shape made", line)
	}
	return s.known[0]
}

// sameAsSkipFast: a value at i a shape accepts is one skipFast accepts,
// ending at the same place, with the same members.
func sameAsSkipFast(t *testing.T, sh *shape, b []byte, i int) (accepted bool) {
	t.Helper()
	var viaShape, direct members
	end, ok := sh.match(b, i, &viaShape, &shapes{}, true)
	if unplacedEnd, unplacedOK := sh.match(b, i, &members{}, &shapes{}, false); unplacedOK != ok || unplacedEnd != end {
		t.Fatalf("%q: without the members' places the shape says %v at %d, with them %v at %d", b, unplacedOK, unplacedEnd, ok, end)
	}
	if !ok {
		return false
	}
	fastEnd, fastOK := skipFast(b, i, maxDepth, &direct)
	if !fastOK || fastEnd != end {
		t.Fatalf("%q: the shape accepts it up to %d, skipFast says %v at %d", b, end, fastOK, fastEnd)
	}
	if !viaShape.unplaced || len(sh.members) != len(direct.list) {
		t.Fatalf("%q: read through the shape, %d members still to place (want %d)", b, len(sh.members), len(direct.list))
	}
	for k, at := range direct.list { // as a reader asks for them, before the list is made
		if start, end := viaShape.value(int32(k)); start != at.value[0] || end != at.value[1] {
			t.Fatalf("%q: member %d's value is at %d..%d through the shape, at %d..%d", b, k, start, end, at.value[0], at.value[1])
		}
	}
	viaShape.place()
	if got, want := fmt.Sprint(viaShape.list, viaShape.escaped), fmt.Sprint(direct.list, direct.escaped); got != want {
		t.Fatalf("%q: members through the shape\n%s\nskipFast's\n%s", b, got, want)
	}
	for _, at := range direct.list { // the shape's answers, kept from the lines before
		key := string(b[at.key[0]:at.key[1]])
		if got, want := viaShape.last(at.parent, key, b), direct.last(at.parent, key, b); got != want {
			t.Fatalf("%q: the last %q of %d is member %d through the shape, %d by skipFast's", b, key, at.parent, got, want)
		}
	}
	if got, want := viaShape.last(-1, "absent", b), direct.last(-1, "absent", b); got != want {
		t.Fatalf("%q: an absent key is member %d through the shape", b, got)
	}
	return true
}

// Every valid recorded line's shape, against the line damaged at every byte
// and against every other recorded line: what it accepts, skipFast accepts
// the same way. Half the lines are read as a value after others (at an
// offset), as a member's value is.
func TestShapeNeverAcceptsMoreThanSkipFast(t *testing.T) {
	lines := fixtureLines(t)
	swaps := []byte("\"{}[],:\\ 0-+.eEtfnu\x01\x7f")
	var tried, accepted int
	try := func(sh *shape, prefix, b []byte) {
		tried++
		if sameAsSkipFast(t, sh, append(append([]byte(nil), prefix...), b...), len(prefix)) {
			accepted++
		}
	}
	for n, line := range lines {
		if _, ok := skipFast(line, 0, maxDepth, nil); !ok || n%5 != 0 { // a sample keeps the test near a second
			continue
		}
		var prefix []byte
		if n%10 == 5 {
			prefix = []byte(`[{"a":1}, `)
		}
		own := append(append([]byte(nil), prefix...), line...)
		sh := shapeOf(t, own, len(prefix))
		if !sameAsSkipFast(t, sh, own, len(prefix)) {
			t.Fatalf("%q: refused by its own shape", own)
		}
		for _, other := range lines {
			try(sh, prefix, other)
		}
		damaged := make([]byte, 0, len(line)+1)
		for at := range line {
			for _, c := range swaps {
				damaged = append(append(append(damaged[:0], line[:at]...), c), line[at+1:]...)
				try(sh, prefix, damaged)
			}
			try(sh, prefix, line[:at])
		}
	}
	t.Logf("%d of %d accepted", accepted, tried)
	if accepted == 0 || accepted == tried {
		t.Fatalf("%d of %d lines accepted: the test did not go both ways", accepted, tried)
	}
}

func TestShapeReadsLinesThatDifferInTheirScalarsOnly(t *testing.T) {
	first := []byte(`{"t":{"$date":"2024-05-01T00:00:00.002+00:00"},"id":4619901,"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}}`)
	sh := shapeOf(t, first, 0)
	for _, line := range []string{
		`{"t":{"$date":"2024-05-01T00:00:09.5+00:00"},"id":24104,"attr":{"namespace":"shop.carts\u00e9","n":[-0.5,null],"durationMillis":"x"}}`,
		`{"t":{"$date":""},"id":false,"attr":{"namespace":"","n":["",0],"durationMillis":123456789}}`,
	} {
		if !sameAsSkipFast(t, sh, []byte(line), 0) {
			t.Errorf("%s: not read through the shape of\n%s", line, first)
		}
	}
	for _, line := range []string{
		`{"t":{"$date":"2024-05-01T00:00:09.5+00:00"},"id":{"n":1},"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}}`,
		`{"t":{"$date":"x"},"id":1,"attr":{"namespace":"a.b","n":[1,true,2],"durationMillis":76}}`,
		`{"t":{"$date":"x"},"id":1,"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76} }`,
		`{"t":{"$date":"x"},"id":1, "attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}}`,
		`{"t":{"$date":"x"},"id":1e3,"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}}`,
		`{"t":{"$date":"x"},"id":01,"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}}`,
		`{"t":{"$date":"x"},"id":1,"attr":{"namespace":"a.b","n":[1,true],"durationMillis":76}`,
	} {
		if _, ok := sh.match([]byte(line), 0, &members{}, &shapes{}, true); ok {
			t.Errorf("%s: read through the shape of\n%s", line, first)
		}
	}
}

func TestShapesAreMadeWhileTheyServe(t *testing.T) {
	var s shapes
	var m members
	for i := 0; i < 100; i++ {
		line := fmt.Sprintf(`{"id":%d,"attr":{"durationMillis":%d}}`, i, i*i)
		if _, ok := s.skip([]byte(line), 0, &m, true); !ok {
			t.Fatalf("%s: refused", line)
		}
	}
	if s.made != 1 {
		t.Errorf("%d shapes made for 100 lines of one shape", s.made)
	}
	for i := 0; i < 2*shapeProbe; i++ {
		line := fmt.Sprintf(`{"key%d":1}`, i) // a shape of its own
		if _, ok := s.skip([]byte(line), 0, &m, true); !ok {
			t.Fatalf("%s: refused", line)
		}
	}
	if made := s.made - 1; made > shapeCap/shapeCost+1+2 {
		t.Errorf("%d shapes made for %d lines without a common one", made, 2*shapeProbe)
	}
}

func TestNoShapeOfAVeryLongValue(t *testing.T) {
	long := []byte(`{"k":"` + strings.Repeat("x", shapeBytes) + `"}`)
	var s shapes
	if _, ok := s.skip(long, 0, &members{}, true); !ok {
		t.Fatal("refused")
	}
	if s.known[0] != nil {
		t.Errorf("a shape was made of %d bytes", len(long))
	}
}

// samePrefix finds the first difference at every place of a word, of the
// second word of a step and of the tail, and stops at the shorter input.
func TestSamePrefixFindsTheFirstDifference(t *testing.T) {
	base := []byte(`{"t":{"$date":"2024-05-01T00:00:00.165+00:00"},"s":"I"}`)
	for n := 0; n <= len(base); n++ {
		a := base[:n]
		if got := samePrefix(a, base); got != n {
			t.Fatalf("%q is a prefix of the line: samePrefix %d, want %d", a, got, n)
		}
		for d := 0; d < n; d++ {
			b := append([]byte(nil), a...)
			b[d] ^= 0x20
			if got := samePrefix(a, b); got != d {
				t.Fatalf("length %d, changed at %d: samePrefix %d", n, d, got)
			}
		}
	}
}
