package main

// Stdin, parsed while it is read: the pipe is read in segments cut at line
// starts, each kept in the copy (see input.go) and then parsed by one of a
// pool of workers, a feeder per segment, while the next ones are read. The
// parts reach the report in stream order, as a file's ranges do, and a few
// segments at most are in flight: memory does not grow with the input.

import (
	"bytes"
	"io"
	"sync"
)

// segmentSize: what a segment holds at least (but its last line's end).
// Each segment is a part that the report merges; 8 MiB keeps the parts of a
// large log few and the first segment parsed early.
var segmentSize = 8 << 20

// segment: whole lines of stdin from base (the last may lack its \n at the
// end of stdin), and what parsing them made.
type segment struct {
	lines   []byte
	base    int64
	part    feeder
	failure any // the worker's panic
	done    chan struct{}
}

// scanStdin reads src (stdin as it comes) and hands take the parts in stream
// order, on the caller's goroutine; last marks the final one. On a failure
// (a worker's or take's panic) the rest of stdin is still read, into the
// copy, so that a run handed over gets all of it, and the failure is raised
// once nothing reads stdin any more.
func scanStdin(src io.Reader, newFeeder func() feeder, needle []byte, take func(part feeder, last bool)) {
	n := workers()
	free := make(chan []byte, n+2) // the buffers: one per worker, and the one being read
	for i := 0; i < cap(free); i++ {
		free <- nil // made when first needed: a short input needs one
	}
	todo := make(chan *segment, cap(free))
	inOrder := make(chan *segment, cap(free))
	stop := make(chan struct{})
	var stopOnce sync.Once
	stopAll := func() { stopOnce.Do(func() { close(stop) }) }

	go readSegments(src, free, todo, inOrder, stop)
	for w := 0; w < n; w++ {
		go func() {
			for s := range todo {
				select {
				case <-stop:
				default:
					s.part = newFeeder()
					s.failure = catching(func() {
						matchLines(s.lines, s.base, needle, s.part)
						if last, ok := s.part.(finisher); ok {
							last.finish()
						}
					})
				}
				free <- s.lines[:0]
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

// readSegments reads src into buffers from free, cut after the last \n of
// each (a line longer than a segment grows its buffer), and sends each to
// the workers (todo) and to the merge (inOrder). A last segment is sent at
// the end of src: empty when src is, so that a report has its one part.
// Once stop is closed it reads src to its end without sending anything.
func readSegments(src io.Reader, free chan []byte, todo, inOrder chan *segment, stop chan struct{}) {
	defer close(inOrder)
	defer close(todo)
	var carry []byte // the start of the line cut by the last segment's end
	var base int64
	sent := false
	for {
		var buf []byte
		select {
		case buf = <-free:
		case <-stop:
			drain(src)
			return
		}
		if cap(buf) < len(carry)+segmentSize {
			buf = make([]byte, 0, len(carry)+segmentSize+(1<<16)) // room for a usual carry next time
		}
		buf = append(buf[:0], carry...) // carry's buffer is only read by its worker: up to carry
		end, whole := false, 0
		for whole == 0 && !end {
			if cap(buf)-len(buf) < segmentSize { // a long line: room for more of it
				buf = append(make([]byte, 0, max(2*cap(buf), len(buf)+segmentSize)), buf...)
			}
			more, err := readInto(src, buf[len(buf):len(buf)+segmentSize])
			if err != nil {
				stdinFailed(err)
			}
			end = len(more) < segmentSize
			buf = buf[:len(buf)+len(more)]
			whole = len(buf)
			if !end {
				whole = bytes.LastIndexByte(buf, '\n') + 1
			}
		}
		if end && whole == 0 && sent {
			return // nothing after the last segment
		}
		s := &segment{lines: buf[:whole], base: base, done: make(chan struct{})}
		base += int64(whole)
		carry = buf[whole:]
		sent = true
		select {
		case inOrder <- s:
		case <-stop:
			free <- buf[:0]
			drain(src)
			return
		}
		todo <- s // the workers take every segment sent, stopped or not
		if end {
			return
		}
	}
}

// drain reads src to its end: what stdin holds still reaches the copy.
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
