package main

// The inputs this engine reads as the Python engine's source module does:
// plain files, gzip files (every member in turn, offsets counted after
// decompression) and stdin ("-"), plain or gzip.
//
// Every byte read from stdin is kept in an unlinked temporary file first: a
// pipe can be read once, and a run this engine hands over, whatever the
// reason and however far it read, must still reach the Python engine whole
// (handOverStdin reads the rest of stdin into the copy and gives it the copy
// as its stdin). The head is read before the scan, for sniff; the scan
// reads the rest as it parses (stdin.go).

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
)

type input struct {
	name  string   // as the reports name it: the path, or "(stdin)"
	file  *os.File // open for the whole run; read with ReadAt only
	size  int64
	gzip  bool
	stdin bool
	// text: the first log line is a legacy text one (sniff): the format
	// picks the reports' needles, as the Python engine's Source.json does.
	text bool
}

// stdinCopy: the copy of stdin, for handOver (nil when stdin is not read).
var stdinCopy *os.File

// stdinEnded: stdin was read to its end (a terminal would wait for another).
var stdinEnded bool

// openInputs opens every path (parseArgs checked them) and reads the head
// of stdin.
func openInputs(paths []string) []*input {
	inputs := make([]*input, len(paths))
	for i, path := range paths {
		in := &input{name: path}
		if path == "-" {
			in.name, in.stdin = "(stdin)", true
			in.file = keepStdin()
		} else {
			f, err := os.Open(path)
			if err != nil {
				bail("%s: cannot open", path)
			}
			in.file = f
		}
		info, err := in.file.Stat()
		if err != nil {
			bail("%s: cannot stat", in.name)
		}
		in.size = info.Size()
		sniff(in)
		inputs[i] = in
	}
	return inputs
}

// keepStdin makes the copy of stdin and reads stdin's head into it.
func keepStdin() *os.File {
	f, err := os.CreateTemp("", "dba-lab-analyze-stdin.*")
	if err != nil {
		stdinFailed(err)
	}
	os.Remove(f.Name()) // gone with the process, whatever ends it
	stdinCopy = f
	if _, err := readUpTo(stdinTee{}, sniffBytes); err != nil {
		stdinFailed(err)
	}
	return f
}

// stdinTee reads stdin, each read kept in the copy before it is given; a
// failure of either ends the run (stdinFailed).
type stdinTee struct{}

func (stdinTee) Read(p []byte) (int, error) {
	if stdinEnded {
		return 0, io.EOF
	}
	n, err := os.Stdin.Read(p)
	if n > 0 {
		if _, werr := stdinCopy.Write(p[:n]); werr != nil {
			stdinFailed(werr)
		}
	}
	switch {
	case err == io.EOF:
		stdinEnded = true
	case err != nil:
		fmt.Fprintf(os.Stderr, "analyze: (stdin): read error: %v\n", err)
		os.Exit(1)
	}
	return n, err
}

// stdinSource: stdin from its first byte for the scan, the head from the
// copy (sniff read it: in.size is its size) and the rest as it comes.
func stdinSource(in *input) io.Reader {
	return io.MultiReader(io.NewSectionReader(in.file, 0, in.size), stdinTee{})
}

// stdinFailed ends the run when the copy fails (a full TMPDIR): part of
// stdin is read, so no engine could read it whole any more.
func stdinFailed(err error) {
	fmt.Fprintf(os.Stderr, "analyze: (stdin): cannot keep a copy in the temporary folder (%v);"+
		" set TMPDIR to a roomier one, or DBA_LAB_ANALYZE_ENGINE=python to read stdin in one pass\n", err)
	os.Exit(1)
}

// handOverStdin runs the Python engine with the copy of stdin, read to its
// end first, as its stdin and gives its exit status: this process must live
// on to hold the copy. Nothing else reads stdin by then (scans stop their
// readers before they fail).
func handOverStdin(python, script string, args, env []string) int {
	signal.Ignore(os.Interrupt) // Ctrl-C is the Python engine's to report
	drain(stdinTee{})
	cmd := exec.Command(python, append([]string{script}, args...)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if _, err := stdinCopy.Seek(0, io.SeekStart); err != nil {
		fmt.Fprintf(os.Stderr, "analyze: (stdin): cannot read its copy again: %v\n", err)
		return 1
	}
	cmd.Stdin = stdinCopy
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	case errors.As(err, &exit):
		return 128 + 2 // ended by a signal: as an interrupted run
	}
	fmt.Fprintf(os.Stderr, "analyze: cannot start the Python engine (%s): %v\n", python, err)
	return 1
}

// gunzipHead: source.Source.sniff's decompression of a gzip file's first
// bytes, up to sniffBytes of the first member; corrupt data is the Python
// engine's to name.
func gunzipHead(name string, head []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		bail("%s: gzip data corrupt from the start", name)
	}
	zr.Multistream(false)
	text, err := readUpTo(zr, sniffBytes)
	if err != nil && err != io.ErrUnexpectedEOF {
		bail("%s: gzip data corrupt from the start", name)
	}
	return text
}

// readUpTo reads r until n bytes, its end (nil error) or an error.
func readUpTo(r io.Reader, n int) ([]byte, error) { return readInto(r, make([]byte, n)) }

// readInto fills buf from r until it is full, r's end (nil error) or an
// error; it gives what was read.
func readInto(r io.Reader, buf []byte) ([]byte, error) {
	got, n := 0, len(buf)
	for got < n {
		k, err := r.Read(buf[got:])
		got += k
		if err == io.EOF {
			return buf[:got], nil
		}
		if err != nil {
			return buf[:got], err
		}
	}
	return buf, nil
}

// scanGzip feeds out the lines of a gzip input holding needle: one
// goroutine decodes blocks while this one matches and parses the blocks
// decoded before (decoding is the floor: the two overlap on two cores).
// Damaged or cut gzip data is handed over: the Python engine reads it up to
// the damage and says so in its own words. On stdin the decoder reads it as
// it comes; a failure here stops the decoder, which reads the rest of stdin
// into the copy, before it is raised.
func scanGzip(in *input, needle []byte, out feeder) {
	const inFlight = 4
	src := io.Reader(io.NewSectionReader(in.file, 0, in.size))
	if in.stdin {
		src = stdinSource(in)
	}
	blocks := make(chan []byte, inFlight)
	free := make(chan []byte, inFlight+2)
	for i := 0; i < cap(free); i++ {
		free <- make([]byte, blockSize)
	}
	stop := make(chan struct{})
	var decodeErr error
	decoded := goCatching(func() {
		defer close(blocks)
		defer func() {
			if in.stdin {
				drain(src)
			}
		}()
		zr, err := gzip.NewReader(src)
		if err != nil {
			decodeErr = err
			return
		}
		for {
			var block []byte
			select {
			case block = <-free:
			case <-stop:
				return
			}
			block, err = readInto(zr, block[:cap(block)])
			if len(block) > 0 {
				select {
				case blocks <- block:
				case <-stop:
					return
				}
			} else {
				free <- block
			}
			if err != nil || len(block) < blockSize {
				decodeErr = err
				return
			}
		}
	})
	failure := catching(func() { parseBlocks(blocks, free, needle, out) })
	if failure != nil {
		close(stop)
	}
	if r := decoded(); r != nil && failure == nil {
		failure = r
	}
	if failure != nil {
		panic(failure)
	}
	if decodeErr != nil {
		bail("%s: gzip data damaged or cut (%v)", in.name, decodeErr)
	}
}

// parseBlocks feeds out the lines of the decoded blocks holding needle,
// each block given back to free once read.
func parseBlocks(blocks <-chan []byte, free chan<- []byte, needle []byte, out feeder) {
	var carry []byte // the start of a line cut by a block's end
	var base int64   // the stream offset of carry, or of the next block
	for block := range blocks {
		rest := block
		if len(carry) > 0 {
			nl := bytes.IndexByte(rest, '\n')
			if nl < 0 {
				carry = append(carry, rest...)
				free <- block[:cap(block)]
				continue
			}
			carry = append(carry, rest[:nl+1]...)
			matchLines(carry, base, needle, out)
			base += int64(len(carry))
			carry, rest = carry[:0], rest[nl+1:]
		}
		whole := bytes.LastIndexByte(rest, '\n') + 1
		matchLines(rest[:whole], base, needle, out)
		base += int64(whole)
		carry = append(carry, rest[whole:]...)
		free <- block[:cap(block)]
	}
	if len(carry) > 0 {
		matchLines(carry, base, needle, out)
	}
}
