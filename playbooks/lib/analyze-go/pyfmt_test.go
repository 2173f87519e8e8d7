package main

import "testing"

// pyAsIs says a string needs no escape exactly when appendPyJSONString
// writes it between quotes unchanged: every byte alone, at every place of
// a word and of the tail after the last one.
func TestPyAsIsAgreesWithTheEscaper(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, length := range []int{1, 7, 8, 9, 16, 24, 27} {
			for at := 0; at < length; at++ {
				b := []byte("626a663821072b82d9059209|Timestamp(1, 2)")[:length]
				b[at] = byte(c)
				s := string(b)
				escaped := string(appendPyJSONString(nil, s)) != `"`+s+`"`
				if pyAsIs(s) == escaped {
					t.Fatalf("%q: pyAsIs %v, but json.dumps escapes it: %v", s, pyAsIs(s), escaped)
				}
			}
		}
	}
	if !pyAsIs("") {
		t.Fatal("the empty string needs no escape")
	}
}
