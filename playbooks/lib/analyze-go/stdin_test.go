package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// partRecorder: the lines of one part, in the order fed.
type partRecorder struct {
	offsets []int64
	lines   []string
}

func (p *partRecorder) feed(offset int64, line []byte) {
	p.offsets = append(p.offsets, offset)
	p.lines = append(p.lines, string(line))
}

// withSegmentSize: segments of size bytes for the test (small, so that a
// test's few lines cross many segment ends).
func withSegmentSize(t *testing.T, size int64) {
	saved := segmentSize
	segmentSize = size
	t.Cleanup(func() { segmentSize = saved })
}

// stdinParts: the parts scanStdin hands over for data, in the order handed,
// and which ones came marked last; stdin gives a byte a read, so that lines
// and the cut points looked for cross the ends of reads.
func stdinParts(t *testing.T, data string, needle []byte) (parts []*partRecorder, lasts []bool) {
	t.Helper()
	scanStdin(iotest.OneByteReader(strings.NewReader(data)), keptAs(t, data), func() feeder { return &partRecorder{} }, needle,
		func(part feeder, last bool) {
			parts = append(parts, part.(*partRecorder))
			lasts = append(lasts, last)
		})
	return parts, lasts
}

// keptAs: a copy of stdin that holds data (as stdin's does once read).
func keptAs(t *testing.T, data string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// fedLines: every line the parts were fed, in order, as "offset:line".
func fedLines(parts []*partRecorder) []string {
	var out []string
	for _, p := range parts {
		for i, line := range p.lines {
			out = append(out, strconv.FormatInt(p.offsets[i], 10)+":"+line)
		}
	}
	return out
}

// linesOf: what scanning data line by line gives, as fedLines writes it.
func linesOf(data string, needle string) []string {
	var out []string
	offset := 0
	for _, line := range strings.SplitAfter(data, "\n") {
		if line == "" {
			break
		}
		text := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.Contains(text, needle) {
			out = append(out, strconv.Itoa(offset)+":"+text)
		}
		offset += len(line)
	}
	return out
}

func assertLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("fed lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStdinSegmentsEndAtLineEnds(t *testing.T) {
	withSegmentSize(t, 16)
	data := "needle 1: a line across the first segment's end\nneedle 2\nother\nneedle 3 ends it\n"
	parts, lasts := stdinParts(t, data, []byte("needle"))
	if len(parts) < 2 {
		t.Fatalf("%d bytes in segments of 16 read as %d part(s)", len(data), len(parts))
	}
	for i := range parts {
		if lasts[i] != (i == len(parts)-1) {
			t.Fatalf("part %d of %d marked last: %v", i, len(parts), lasts[i])
		}
	}
	assertLines(t, fedLines(parts), linesOf(data, "needle"))
}

func TestStdinLineLongerThanSegmentsIsFedWhole(t *testing.T) {
	withSegmentSize(t, 64)
	long := "needle " + strings.Repeat("x", 1000) // 15 segments long
	data := "needle before\n" + long + "\nneedle after\n"
	parts, _ := stdinParts(t, data, []byte("needle"))
	assertLines(t, fedLines(parts), linesOf(data, "needle"))
}

func TestStdinLastLineWithoutNewlineCounts(t *testing.T) {
	withSegmentSize(t, 16)
	data := "needle first line\nneedle last, no newline"
	parts, _ := stdinParts(t, data, []byte("needle"))
	assertLines(t, fedLines(parts), []string{"0:needle first line", "18:needle last, no newline"})
}

// The first cut is looked for from the first line's \r, the 16th byte.
func TestStdinCRLFLinesLoseTheirCR(t *testing.T) {
	withSegmentSize(t, 16)
	data := "needle number 1\r\nneedle two\r\nneedle three\r\n"
	parts, _ := stdinParts(t, data, nil)
	assertLines(t, fedLines(parts), []string{"0:needle number 1", "17:needle two", "29:needle three"})
}

func TestEmptyStdinIsOneEmptyPart(t *testing.T) {
	parts, lasts := stdinParts(t, "", nil)
	if len(parts) != 1 || !lasts[0] || len(parts[0].lines) != 0 {
		t.Fatalf("got %d part(s), last %v", len(parts), lasts)
	}
}

// A segment a multiple of the segment size long ends on a line end: no
// empty part follows it.
func TestStdinEndingOnASegmentEndAddsNoPart(t *testing.T) {
	withSegmentSize(t, 8)
	parts, lasts := stdinParts(t, "needle\nneedle\n", nil)
	for i, p := range parts {
		if len(p.lines) == 0 {
			t.Fatalf("part %d of %d is empty", i, len(parts))
		}
	}
	if !lasts[len(lasts)-1] {
		t.Fatal("the final part is not marked last")
	}
}

// countingReader: a reader that tells how far it was read.
type countingReader struct {
	r    io.Reader
	read int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

// failingFeeder bails on the line "bad", as a report does on a line it does
// not read as the Python engine would.
type failingFeeder struct{}

func (failingFeeder) feed(_ int64, line []byte) {
	if string(line) == "bad" {
		bail("a bad line")
	}
}

// A run handed over gives the Python engine all of stdin: after a worker's
// failure stdin is still read to its end, and the failure is raised once
// nothing reads it any more.
func TestStdinIsReadToItsEndWhenAWorkerFails(t *testing.T) {
	withSegmentSize(t, 16)
	data := "good\nbad\n" + strings.Repeat("good line after the failure\n", 1000)
	src := &countingReader{r: strings.NewReader(data)}
	failure := catching(func() {
		scanStdin(src, keptAs(t, data), func() feeder { return failingFeeder{} }, nil, func(feeder, bool) {})
	})
	if failure != (bailout{"a bad line"}) {
		t.Fatalf("got %v, want the worker's bailout", failure)
	}
	if src.read != len(data) {
		t.Fatalf("read %d of %d bytes", src.read, len(data))
	}
}

// As a report's merge failing does.
func TestStdinIsReadToItsEndWhenTheMergeFails(t *testing.T) {
	withSegmentSize(t, 16)
	data := strings.Repeat("a line of the log\n", 1000)
	src := &countingReader{r: strings.NewReader(data)}
	failure := catching(func() {
		scanStdin(src, keptAs(t, data), func() feeder { return &partRecorder{} }, nil, func(feeder, bool) { bail("in the merge") })
	})
	if failure != (bailout{"in the merge"}) {
		t.Fatalf("got %v, want the merge's bailout", failure)
	}
	if src.read != len(data) {
		t.Fatalf("read %d of %d bytes", src.read, len(data))
	}
}

// Many segments through a pool of workers reach take in stream order.
func TestStdinPartsArriveInStreamOrder(t *testing.T) {
	withSegmentSize(t, 64)
	var data bytes.Buffer
	for i := 0; i < 5000; i++ {
		data.WriteString("needle line ")
		data.WriteString(strconv.Itoa(i))
		data.WriteString("\n")
	}
	parts, _ := stdinParts(t, data.String(), []byte("needle"))
	assertLines(t, fedLines(parts), linesOf(data.String(), "needle"))
}

// Past eight segments, a range is an eighth of what was read before it:
// the parts a report merges grow in number as the log of stdin's size.
func TestStdinRangesGrowWithWhatWasRead(t *testing.T) {
	withSegmentSize(t, 64)
	data := strings.Repeat("a line of thirty-two bytes long\n", 2048)
	parts, _ := stdinParts(t, data, nil)
	for i := 0; i+1 < len(parts); i++ {
		start, next := parts[i].offsets[0], parts[i+1].offsets[0]
		if next-start < max(64, start/8) {
			t.Fatalf("the range at %d holds %d bytes, less than an eighth of those before", start, next-start)
		}
	}
	if len(parts) > 60 {
		t.Fatalf("%d bytes read as %d parts", len(data), len(parts))
	}
	assertLines(t, fedLines(parts), linesOf(data, ""))
}

// readAsStdin runs scan on path opened as stdin, and closes both it and
// stdin's copy.
func readAsStdin(tb testing.TB, path string, scan func([]*input)) {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin, stdinEnded = f, false
	defer func() {
		os.Stdin = saved
		f.Close()
		stdinCopy.Close()
		stdinCopy = nil
	}()
	scan(openInputs([]string{"-"}))
}

// reportBytes: what each report writes of inputs (JSON and table), its
// unparsable lines' count and offsets, or the reason it hands over.
func reportBytes(files []*input) map[string]string {
	out := map[string]string{}
	write := func(name string, f func(*bufio.Writer), bad *tally) {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		f(w)
		w.Flush()
		out[name] = b.String() + fmt.Sprintf("\nbad %d of %d at %v", bad.unparsable, bad.matched, bad.examples)
	}
	for _, report := range []string{"cursors", "queries", "refresh"} {
		if r := catching(func() {
			switch report {
			case "cursors":
				t := scanCursors(files)
				write(report+" json", t.outputJSON, &t.bad)
				write(report+" table", func(w *bufio.Writer) { t.outputTable(w, -1) }, &t.bad)
			case "queries":
				q := scanQueries(files)
				rows := q.rows()
				write(report+" json", func(w *bufio.Writer) { q.outputJSON(w, rows) }, &q.bad)
				write(report+" table", func(w *bufio.Writer) { q.outputTable(w, rows, -1) }, &q.bad)
			case "refresh":
				a := scanRefresh(files)
				write(report+" json", func(w *bufio.Writer) { a.output(w, true, -1, []string{"log"}) }, &a.bad)
				write(report+" table", func(w *bufio.Writer) { a.output(w, false, -1, []string{"log"}) }, &a.bad)
			}
		}); r != nil {
			out[report] = fmt.Sprint("handed over: ", r)
		}
	}
	return out
}

// Every report reads a log on stdin, cut into many small parts, as it reads
// the same log as a file: the project's recorded logs (tests/fixtures/logs),
// whose file reading test_analyze_engines.py checks against the Python
// engine.
func TestReportsReadStdinInManyPartsAsAFile(t *testing.T) {
	withSegmentSize(t, 512)
	logs, err := filepath.Glob(filepath.Join("..", "..", "..", "tests", "fixtures", "logs", "*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no recorded logs found (%v)", err)
	}
	for _, path := range logs {
		want := reportBytes(openInputs([]string{path}))
		var got map[string]string
		readAsStdin(t, path, func(in []*input) { got = reportBytes(in) })
		for name, text := range want {
			if got[name] != text {
				t.Errorf("%s, %s: on stdin\n%s\nas a file\n%s", filepath.Base(path), name, got[name], text)
			}
		}
	}
}
