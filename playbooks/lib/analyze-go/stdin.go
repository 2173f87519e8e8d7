package main

// Stdin, parsed while it is read: stdin is read into its copy (see
// input.go) and cut, at line starts, into ranges of the copy, each parsed
// as a file's range is (scanRange, from the page cache the copy was just
// written to) by one of a pool of workers, a feeder per range, while the
// next ones are read. The parts reach the report in stream order, as a
// file's ranges do. Memory does not grow with the input: the reader's
// buffer and a worker's block are all that hold the lines, and a few parts
// at most wait to be merged.

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// segmentSize: what a range holds at least (but its last line's end), and
// an eighth of what was read before it once that is more: each range is a
// part that the report merges and some keep a little of (queries a chunk of
// records), so their number grows as the log of the input's size; smaller
// ones start the parse sooner and end it later.
var segmentSize int64 = 8 << 20

// nextSegment: the size of the range that starts at cut.
func nextSegment(cut int64) int64 { return max(segmentSize, cut/8) }

// segment: a range of stdin's copy, whole lines (the last may lack its \n
// at the end of stdin), and what parsing them made.
type segment struct {
	start, end int64
	part       feeder
	failure    any // the worker's panic
	done       chan struct{}
}

// scanStdin reads src, each byte of which is in kept at its offset by the
// time it is read, and hands take the parts of its ranges in stream order,
// on the caller's goroutine; last marks the final one. On a failure (a
// worker's or take's panic) the rest of src is still read, so that a run
// handed over gets all of stdin in the copy, and the failure is raised once
// nothing reads src any more.
func scanStdin(src io.Reader, kept *os.File, newFeeder func() feeder, needle []byte,
	take func(part feeder, last bool)) {
	n := workers()
	todo := make(chan *segment, n)
	inOrder := make(chan *segment, 2*n) // the parts that may wait for the merge
	stop := make(chan struct{})
	var stopOnce sync.Once
	stopAll := func() { stopOnce.Do(func() { close(stop) }) }

	go cutSegments(src, todo, inOrder, stop)
	for w := 0; w < n; w++ {
		go func() {
			for s := range todo {
				select {
				case <-stop:
				default:
					s.part = newFeeder()
					s.failure = catching(func() { scanPart(kept, s.start, s.end, needle, s.part) })
				}
				close(s.done)
			}
		}()
	}

	var failure any
	var held feeder // the part before the one awaited: last or not is known after
	for s := range inOrder {
		<-s.done
		if failure == nil && s.failure != nil {
			failure = s.failure
		}
		if failure == nil && held != nil {
			failure = catching(func() { take(held, false) })
		}
		if failure != nil {
			stopAll()
			continue
		}
		held = s.part
	}
	if failure == nil && held != nil {
		failure = catching(func() { take(held, true) })
	}
	if failure != nil {
		panic(failure)
	}
}

// cutSegments reads src to its end and sends its ranges, cut at the first
// line start nextSegment or more after the last cut, to the workers (todo)
// and to the merge (inOrder); the last range ends at src's end. At least
// one range is sent, empty when src is, so that a report has its one part.
// Once stop is closed it reads on without sending anything.
func cutSegments(src io.Reader, todo, inOrder chan *segment, stop chan struct{}) {
	defer close(inOrder)
	defer close(todo)
	buf := make([]byte, 1<<20) // as io.CopyBuffer's: a pipe read 32 KiB at a time was 20-30% slower
	var read, cut int64        // bytes read; the end of the last range sent
	sent, stopped := false, false
	send := func(end int64) {
		s := &segment{start: cut, end: end, done: make(chan struct{})}
		cut, sent = end, true
		select {
		case inOrder <- s:
			todo <- s // the workers take every range sent, stopped or not
		case <-stop:
			stopped = true
		}
	}
	for !stopped {
		n, err := src.Read(buf)
		chunk := buf[:n]
		for !stopped && cut+nextSegment(cut) <= read+int64(n) {
			// The next cut: after the first \n at or past its size's last byte.
			from := max(cut+nextSegment(cut)-1-read, 0)
			nl := bytes.IndexByte(chunk[from:], '\n')
			if nl < 0 {
				break // in a later read
			}
			send(read + from + int64(nl) + 1)
		}
		read += int64(n)
		if err == io.EOF {
			if !stopped && (read > cut || !sent) {
				send(read)
			}
			return
		}
		if err != nil {
			stdinFailed(err)
		}
	}
	drain(src)
}

// drain reads src to its end: what stdin holds still reaches the copy.
// Through a buffer of 1 MiB: io.Copy's own path reads a pipe 32 KiB at a
// time, 20-30% slower on a 100 MiB log.
func drain(src io.Reader) {
	if _, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, src, make([]byte, 1<<20)); err != nil {
		stdinFailed(err)
	}
}

// catching runs f and gives its panic (nil if none).
func catching(f func()) (failure any) {
	defer func() { failure = recover() }()
	f()
	return nil
}
