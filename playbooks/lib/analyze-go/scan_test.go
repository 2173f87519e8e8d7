package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

type lineRecorder struct{ lines map[int64]string }

func (l *lineRecorder) feed(offset int64, line []byte) { l.lines[offset] = string(line) }

// Lines longer than a block, lines across block boundaries and the cut
// between two parts, a \r\n ending, the needle inside a line right after a
// matching one or after others, and a last line without \n reach the report
// whole, once, at their offsets.
func TestScanFileFeedsEveryMatchingLineWhole(t *testing.T) {
	long := "needle " + string(bytes.Repeat([]byte("x"), 3*blockSize)) // a few blocks long
	lines := []string{"needle one", long, "no match here", "needle\tcrlf\r", long + " again",
		"a needle inside", "and one more needle", "other", "then a needle after other"}
	for size := 0; size < 2*partMin; size += 54 { // past many block boundaries, in two parts
		lines = append(lines, "needle "+string(bytes.Repeat([]byte{byte('a' + len(lines)%26)}, 40)), "other")
	}
	lines = append(lines, "needle last, no newline")
	path := filepath.Join(t.TempDir(), "log")
	data := []byte{}
	want := map[int64]string{}
	for i, line := range lines {
		if bytes.Contains([]byte(line), []byte("needle")) {
			want[int64(len(data))] = string(bytes.TrimSuffix([]byte(line), []byte("\r")))
		}
		data = append(data, line...)
		if i < len(lines)-1 {
			data = append(data, '\n')
		}
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	parts := scanFile(path, func() feeder { return &lineRecorder{map[int64]string{}} }, []byte("needle"))
	if workers() > 1 && len(parts) < 2 {
		t.Errorf("%d bytes read in %d part", len(data), len(parts))
	}
	for _, part := range parts {
		for offset, line := range part.(*lineRecorder).lines {
			if _, twice := got[offset]; twice {
				t.Fatalf("the line at %d fed twice", offset)
			}
			got[offset] = line
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines fed, want %d", len(got), len(want))
	}
	for offset, line := range want {
		if got[offset] != line {
			t.Fatalf("at %d: got %d bytes, want %d", offset, len(got[offset]), len(line))
		}
	}
}

func TestGoCatchingGivesTheGoroutinesPanicToTheCaller(t *testing.T) {
	ran := false
	if r := goCatching(func() { ran = true })(); r != nil || !ran {
		t.Fatalf("a goroutine that returns: ran %v, panic %v", ran, r)
	}
	if r := goCatching(func() { bail("in a worker") })(); r != (bailout{"in a worker"}) {
		t.Fatalf("got %v, want the worker's bailout", r)
	}
}
