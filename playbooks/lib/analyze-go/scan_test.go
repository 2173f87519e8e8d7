package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

type lineRecorder struct{ lines map[int64]string }

func (l *lineRecorder) feed(offset int64, line []byte) { l.lines[offset] = string(line) }

// Lines longer than a block, lines across block boundaries and the cut
// between two parts, a \r\n ending, the needle inside a line right after a
// matching one or after others, and a last line without \n reach the report
// whole, once, at their offsets: in a plain file and in a gzip one of two
// members (as logrotate's delaycompress and cat make), where the offsets
// are counted after decompression.
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
	var packed bytes.Buffer
	for _, member := range [][]byte{data[:len(data)/3], data[len(data)/3:]} {
		zw := gzip.NewWriter(&packed)
		if _, err := zw.Write(member); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path+".gz", packed.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := scanFileLines(t, testInput(t, path, false), len(data))
	compressed := scanFileLines(t, testInput(t, path+".gz", true), len(data))
	for name, got := range map[string]map[int64]string{"plain": plain, "gzip": compressed} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines fed, want %d", name, len(got), len(want))
		}
		for offset, line := range want {
			if got[offset] != line {
				t.Fatalf("%s: at %d: got %d bytes, want %d", name, offset, len(got[offset]), len(line))
			}
		}
	}
}

// testInput: path opened as openInputs opens it, without its sniff.
func testInput(t *testing.T, path string, compressed bool) *input {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return &input{name: path, file: f, size: info.Size(), gzip: compressed}
}

// scanFileLines: the lines scanFile feeds, by offset; each once.
func scanFileLines(t *testing.T, in *input, size int) map[int64]string {
	got := map[int64]string{}
	parts := scanFile(in, func() feeder { return &lineRecorder{map[int64]string{}} }, []byte("needle"))
	if !in.gzip && workers() > 1 && len(parts) < 2 {
		t.Errorf("%d bytes read in %d part", size, len(parts))
	}
	for _, part := range parts {
		for offset, line := range part.(*lineRecorder).lines {
			if _, twice := got[offset]; twice {
				t.Fatalf("the line at %d fed twice", offset)
			}
			got[offset] = line
		}
	}
	return got
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
