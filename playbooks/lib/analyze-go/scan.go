package main

// Reading plain log files: each file is cut into byte ranges at line
// starts, one goroutine per range; a range is read in blocks and only the
// lines holding the report's needle reach the report (as the Python engine's
// source.matching_lines: offsets are where lines start, a trailing \r is
// dropped, a last line without \n counts).

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

const (
	// blockSize: a block stays in a core's cache between its copy and its
	// reading (4 MiB went out to memory and back: 4-6% more CPU).
	blockSize  = 256 << 10
	partMin    = 8 << 20
	maxExample = 5
)

// bailout: this engine does not read the input exactly as the Python
// engine would; the run is handed over before anything is written.
type bailout struct{ reason string }

func bail(format string, args ...any) { panic(bailout{fmt.Sprintf(format, args...)}) }

type example struct {
	src    int
	offset int64
	reason string
}

// tally: the lines the filter matched and those that could not be parsed.
type tally struct {
	matched, unparsable int64
	examples            []example
}

func (t *tally) skip(src int, offset int64, reason string) {
	t.unparsable++
	if len(t.examples) < maxExample {
		t.examples = append(t.examples, example{src, offset, reason})
	}
}

func (t *tally) merge(o *tally) {
	t.matched += o.matched
	t.unparsable += o.unparsable
	t.examples = append(t.examples, o.examples...)
	sort.SliceStable(t.examples, func(i, j int) bool {
		a, b := t.examples[i], t.examples[j]
		if a.src != b.src {
			return a.src < b.src
		}
		if a.offset != b.offset {
			return a.offset < b.offset
		}
		return a.reason < b.reason
	})
	if len(t.examples) > maxExample {
		t.examples = t.examples[:maxExample]
	}
}

// feeder: one report's state for one range of one file.
type feeder interface {
	feed(offset int64, line []byte)
}

// finisher: a feeder with work to do once its range is read (on the
// range's goroutine, so that parts finish on every core).
type finisher interface {
	finish()
}

// finishPart does part's work once its range is read, if it has any.
func finishPart(part feeder) {
	if last, ok := part.(finisher); ok {
		last.finish()
	}
}

// scanPart feeds part the lines of f[start:end] that hold needle, and
// finishes it.
func scanPart(f *os.File, start, end int64, needle []byte, part feeder) {
	scanRange(f, start, end, needle, part)
	finishPart(part)
}

// lineStartAfter: the offset of the first line that starts at or after off.
func lineStartAfter(f *os.File, off, size int64) int64 {
	if off == 0 {
		return 0
	}
	buf := make([]byte, 1<<16)
	pos := off - 1
	for pos < size {
		n, err := f.ReadAt(buf, pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1
		}
		pos += int64(n)
		if err != nil {
			break
		}
	}
	return size
}

// workers: ANALYZE_JOBS (as for the Python engine), else one per core.
func workers() int {
	if jobs, err := strconv.Atoi(os.Getenv("ANALYZE_JOBS")); err == nil && jobs > 0 {
		return jobs
	}
	n := runtime.GOMAXPROCS(0)
	if n < 1 {
		n = 1
	}
	return n
}

// scanFile: the parts scanInput makes, in stream order.
func scanFile(in *input, newFeeder func() feeder, needle []byte) []feeder {
	var parts []feeder
	scanInput(in, newFeeder, needle, func(part feeder, _ bool) { parts = append(parts, part) })
	return parts
}

// scanInput runs one feeder per range of a plain file, per segment of stdin
// (stdin.go) or for a whole gzip input (decoding is sequential), and hands
// them to take in stream order, on the caller's goroutine (last: the
// input's last part).
func scanInput(in *input, newFeeder func() feeder, needle []byte, take func(part feeder, last bool)) {
	switch {
	case in.gzip:
		one := newFeeder()
		scanGzip(in, needle, one)
		finishPart(one)
		take(one, true)
		return
	case in.stdin:
		scanStdin(stdinSource(in), in.file, newFeeder, needle, take)
		return
	}
	f, size := in.file, in.size
	parts := workers()
	if max := int(size / partMin); max < parts {
		parts = max
	}
	if parts < 1 {
		parts = 1
	}
	cuts := []int64{0}
	for i := 1; i < parts; i++ {
		cut := lineStartAfter(f, size*int64(i)/int64(parts), size)
		if cut > cuts[len(cuts)-1] {
			cuts = append(cuts, cut)
		}
	}
	cuts = append(cuts, size)
	feeders := make([]feeder, len(cuts)-1)
	waits := make([]func() any, len(feeders))
	for i := range feeders {
		i := i // go.mod's go 1.21: one i for the whole loop otherwise
		feeders[i] = newFeeder()
		waits[i] = goCatching(func() { scanPart(f, cuts[i], cuts[i+1], needle, feeders[i]) })
	}
	var failure any
	for _, wait := range waits { // every range is done before a panic leaves
		if r := wait(); r != nil && failure == nil {
			failure = r
		}
	}
	if failure != nil {
		panic(failure)
	}
	for i, part := range feeders {
		take(part, i == len(feeders)-1)
	}
}

// goCatching runs f on a goroutine of its own; the function it returns waits
// for f and gives f's panic (nil if none), for the caller to raise where
// run's recover sees it (a panic left on the goroutine would end the process
// with Go's stack trace).
func goCatching(f func()) (wait func() any) {
	done := make(chan any, 1)
	go func() { done <- catching(f) }()
	return func() any { return <-done }
}

// rangeBuffers: scanRange's buffers, reused (stdin has a range every
// segmentSize: 320 KiB of garbage each, 10 MiB more peak memory at 300 MiB).
var rangeBuffers = sync.Pool{New: func() any { return new([blockSize + (1 << 16)]byte) }}

func scanRange(f *os.File, start, end int64, needle []byte, out feeder) {
	block := rangeBuffers.Get().(*[blockSize + (1 << 16)]byte)
	defer rangeBuffers.Put(block)
	buf := block[:0]
	pos := start  // file offset of buf[0]
	read := start // file offset of the next read
	for read < end || len(buf) > 0 {
		if read < end {
			want := int64(blockSize)
			if end-read < want {
				want = end - read
			}
			if cap(buf)-len(buf) < int(want) {
				grown := make([]byte, len(buf), len(buf)+int(want))
				copy(grown, buf)
				buf = grown
			}
			n, err := f.ReadAt(buf[len(buf):len(buf)+int(want)], read)
			if n == 0 && err != nil && err != io.EOF {
				bail("read error")
			}
			if n == 0 {
				end = read // the file shrank: what was read is all
			}
			buf = buf[:len(buf)+n]
			read += int64(n)
		}
		whole := len(buf)
		if read < end {
			whole = bytes.LastIndexByte(buf, '\n') + 1
			if whole == 0 {
				continue // one long line so far: read on
			}
		}
		matchLines(buf[:whole], pos, needle, out)
		rest := copy(buf, buf[whole:])
		buf = buf[:rest]
		pos += int64(whole)
		if read >= end && len(buf) == 0 {
			return
		}
	}
}

// withoutCR: a line without the \r of a CRLF ending (small enough to inline).
func withoutCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// matchLines feeds every line of buf (whole lines; the last may lack \n)
// that holds needle; every line when needle is nil.
func matchLines(buf []byte, base int64, needle []byte, out feeder) {
	at := 0
	if needle == nil {
		for at < len(buf) {
			stop := bytes.IndexByte(buf[at:], '\n')
			if stop < 0 {
				stop = len(buf)
			} else {
				stop += at
			}
			out.feed(base+int64(at), withoutCR(buf[at:stop]))
			at = stop + 1
		}
		return
	}
	for at < len(buf) {
		hit := bytes.Index(buf[at:], needle)
		if hit < 0 {
			return
		}
		hit += at
		// Most often the hit is in the line at at (a log where every line
		// matches): a forward search, vectorised where LastIndexByte is not,
		// tells that without a byte-by-byte walk back.
		start := at
		if bytes.IndexByte(buf[at:hit], '\n') >= 0 {
			start = bytes.LastIndexByte(buf[:hit], '\n') + 1
		}
		stop := bytes.IndexByte(buf[hit:], '\n')
		if stop < 0 {
			stop = len(buf)
		} else {
			stop += hit
		}
		out.feed(base+int64(start), withoutCR(buf[start:stop]))
		at = stop + 1
	}
}

// lstrip: bytes.lstrip() of Python (ASCII whitespace).
func lstrip(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\v' || b[i] == '\f') {
		i++
	}
	return b[i:]
}

// interner: names shared by every worker (ids are global, so parts merge
// without remapping); each worker keeps a cache in front of the lock.
type interner struct {
	mu    sync.Mutex
	names []string
	ids   map[string]int32
}

func newInterner() *interner { return &interner{ids: map[string]int32{}} }

func (n *interner) id(s string) int32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if id, ok := n.ids[s]; ok {
		return id
	}
	id := int32(len(n.names))
	n.ids[s] = id
	n.names = append(n.names, s)
	return id
}

type nameCache struct {
	shared *interner
	local  map[string]int32
}

// id: the id of s, which may be a view of a line (copied when new).
func (c *nameCache) id(s string) int32 {
	if id, ok := c.local[s]; ok {
		return id
	}
	s = strings.Clone(s)
	id := c.shared.id(s)
	c.local[s] = id
	return id
}

// chunked: a growing list in chunks of chunkLen, so that growing never
// copies it (a log of distinct cursors or of refreshes has as many records
// as lines).
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 4096

func (c *chunked[T]) len() int { return c.n }

func (c *chunked[T]) at(i int32) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

func (c *chunked[T]) add(v T) int32 {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := len(c.chunks) - 1
	c.chunks[last] = append(c.chunks[last], v)
	c.n++
	return int32(c.n - 1)
}

// jsonStart: the line without leading white space, and whether it starts
// as JSON (an object) rather than as a text log line.
func jsonStart(line []byte) ([]byte, bool) {
	stripped := lstrip(line)
	return stripped, len(stripped) > 0 && stripped[0] == '{'
}

// jsonLine: the line without leading white space; a text line in a JSON
// log is the Python engine's to read.
func jsonLine(line []byte) []byte {
	stripped, ok := jsonStart(line)
	if !ok {
		bail("a text line in a JSON log")
	}
	return stripped
}

// parseLine reads a JSON line for a report (sel nil: all of it): nil when
// it is unparsable, which is tallied with the Python engine's reason.
func parseLine(line []byte, sel *selection, a *arena, bad *tally, src int, offset int64) *value {
	var doc *value
	var err error
	if sel == nil {
		doc, err = parseDoc(line)
	} else {
		doc, err = parseSelected(line, sel, a)
	}
	if err != nil {
		je, ok := err.(*jsonError)
		if !ok {
			bail("a line that is not valid JSON in a way this engine does not name")
		}
		bad.skip(src, offset, "not valid JSON ("+je.reason()+")")
		return nil
	}
	if doc.k != kObject {
		bad.skip(src, offset, "JSON line is not an object")
		return nil
	}
	return doc
}
