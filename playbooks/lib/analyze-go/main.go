// analyze-go: the compiled engine of playbooks/analyze for its common case:
// every report over JSON (4.4+) and legacy text (2.2 to 4.2) logs, in plain
// or gzip files or on stdin. Its output is byte for byte the Python
// engine's (playbooks/lib/analyze), which stays the reference and reads
// everything else: help and usage errors, and any line this engine is not
// sure to read the same way. For those it hands the whole run over (exec)
// before writing anything, so a run is always one engine's.
//
// playbooks/analyze starts it with DBA_LAB_ANALYZE_PYTHON and
// DBA_LAB_ANALYZE_SCRIPT (how to start the Python engine) and
// DBA_LAB_ANALYZE_SOURCE_DIR (this source in the checkout: an engine built
// from other source hands over). Run without the first two, it exits 3 with
// the reason instead of handing over.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// sourceHash is set at build time (setup/install.sh: -ldflags -X).
var sourceHash = "unset"

const handedOver = 3

func main() {
	os.Exit(run(os.Args[1:]))
}

func handOver(args []string, reason string) int {
	python, script := os.Getenv("DBA_LAB_ANALYZE_PYTHON"), os.Getenv("DBA_LAB_ANALYZE_SCRIPT")
	if python == "" || script == "" {
		fmt.Fprintf(os.Stderr, "analyze-go: left to the Python engine: %s\n", reason)
		return handedOver
	}
	env := []string{"DBA_LAB_ANALYZE_ENGINE=python"}
	for _, kv := range os.Environ() {
		if !bytes.HasPrefix([]byte(kv), []byte("DBA_LAB_ANALYZE_ENGINE=")) {
			env = append(env, kv)
		}
	}
	if stdinCopy != nil {
		return handOverStdin(python, script, args, env)
	}
	path, err := exec.LookPath(python)
	if err == nil {
		err = syscall.Exec(path, append([]string{python, script}, args...), env)
	}
	fmt.Fprintf(os.Stderr, "analyze: cannot start the Python engine (%s): %v\n", python, err)
	return 1
}

// stdoutWriter notes that something reached stdout: from then on a failure
// can no longer hand the run over.
type stdoutWriter struct{ used *bool }

func (w stdoutWriter) Write(b []byte) (int, error) {
	*w.used = true
	return os.Stdout.Write(b)
}

// checkoutHash: what setup/install.sh stamps into the engine (sourceHash):
// the SHA-256 of go.mod and the .go files but tests, read in byte order of
// their names; "" when dir cannot be read.
func checkoutHash(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if name == "go.mod" || (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	digest := sha256.New()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return ""
		}
		digest.Write(data)
	}
	return hex.EncodeToString(digest.Sum(nil))
}

func run(args []string) (code int) {
	if dir := os.Getenv("DBA_LAB_ANALYZE_SOURCE_DIR"); dir != "" && checkoutHash(dir) != sourceHash {
		fmt.Fprintln(os.Stderr, "analyze: the Go engine was built from other source; using the Python engine"+
			" (./setup/install.sh rebuilds it)")
		return handOver(args, "built from other source")
	}
	writing := false
	defer func() {
		r := recover()
		switch {
		case r == nil:
		case writing:
			// Part of the report is out: too late to hand over.
			fmt.Fprintf(os.Stderr, "analyze: internal error of the Go engine while writing (%v); DBA_LAB_ANALYZE_ENGINE=python runs the other one\n", r)
			code = 1
		default:
			reason := fmt.Sprint("an internal error: ", r)
			if b, ok := r.(bailout); ok {
				reason = b.reason
			}
			code = handOver(args, reason)
		}
	}()
	report, asJSON, top, paths := parseArgs(args)
	files := openInputs(paths)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	go func() {
		<-interrupts
		os.Stderr.WriteString("\nanalyze: interrupted\n")
		os.Exit(130)
	}()
	signal.Ignore(syscall.SIGPIPE)
	debug.SetGCPercent(gcPercent())

	var errText bytes.Buffer
	report1 := func(what string, found bool, bad *tally) {
		if !found {
			fmt.Fprintf(&errText, "analyze: no %s lines found in %d file(s)\n", what, len(files))
			for _, in := range files {
				fmt.Fprintf(&errText, "  %s\n", describeContents(in))
			}
		}
		if bad.unparsable > 0 {
			fmt.Fprintf(&errText, "analyze: skipped %d unparsable line(s) out of %d that matched the %s filter\n",
				bad.unparsable, bad.matched, report)
			for _, line := range describe(bad.examples, files) {
				fmt.Fprintf(&errText, "  %s\n", line)
			}
		}
	}
	// Nothing is written before all is decided: the last hand-over is in
	// write (tables check their cells first).
	var write func(*bufio.Writer)
	switch report {
	case "cursors":
		state := scanCursors(files)
		report1("cursor", state.recs.len() > 0, &state.bad)
		write = func(out *bufio.Writer) { state.outputTable(out, top) }
		if asJSON {
			write = state.outputJSON
		}
	case "refresh":
		state := scanRefresh(files)
		report1("routing refresh", state.found(), &state.bad)
		write = func(out *bufio.Writer) { state.output(out, asJSON, top, names(files)) }
	case "queries":
		state := scanQueries(files)
		rows := state.rows()
		report1("slow query", len(state.groups) > 0, &state.bad)
		write = func(out *bufio.Writer) { state.outputTable(out, rows, top) }
		if asJSON {
			write = func(out *bufio.Writer) { state.outputJSON(out, rows) }
		}
	}
	if !asJSON {
		// A table's rows are made twice as cells (widths, then lines), all
		// garbage at once: collected at gcPercent's pace, --all on a log of
		// distinct cursors took 2.3x the memory of --json.
		debug.SetGCPercent(tableGCPercent)
	}
	out := bufio.NewWriterSize(stdoutWriter{&writing}, 1<<18)
	write(out)
	if err := out.Flush(); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			return 0 // the reader (head, less) went away: not an error of ours
		}
		fmt.Fprintf(os.Stderr, "analyze: write error: %v\n", err)
		return 1
	}
	os.Stderr.Write(errText.Bytes())
	return 0
}

func scanCursors(files []*input) *cursorTable {
	r := &cursorReport{names: newInterner(), clock: newTimes()}
	var total *cursorTable
	for src, in := range files {
		// cursors.needles: the slow query id of a JSON log, near the start
		// of the line (a line cut before its cursorid is still counted).
		needle := []byte("51803")
		if in.text {
			needle = []byte("cursorid")
		}
		// Parts are merged as they come: stdin's many segments are not all
		// kept until the end.
		scanInput(in, func() feeder { return r.newTable(src) }, needle, func(p feeder, last bool) {
			if total == nil {
				total = p.(*cursorTable) // the first part is the table: its cursors are not copied
				return
			}
			total.merge(p.(*cursorTable), src == len(files)-1 && last)
		})
	}
	if total.bad.unparsable > 0 {
		// The count of lines matched is printed: the Python engine's
		// differs on a text log that holds JSON slow query lines (its
		// block reader counts those without a cursorid where cursorid
		// lines are dense, which depends on its blocks).
		for _, in := range files {
			if in.text && (in.stdin || holdsJSONLine(in, []byte("51803"))) {
				bail("%s: a text log with JSON slow query lines, and unparsable lines", in.name)
			}
		}
	}
	return total
}

// jsonSpotter: does any line it is fed start as JSON?
type jsonSpotter struct{ seen bool }

func (j *jsonSpotter) feed(_ int64, line []byte) {
	if _, isJSON := jsonStart(line); isJSON {
		j.seen = true
	}
}

// holdsJSONLine: does a line of in that holds needle start as JSON?
func holdsJSONLine(in *input, needle []byte) bool {
	for _, part := range scanFile(in, func() feeder { return &jsonSpotter{} }, needle) {
		if part.(*jsonSpotter).seen {
			return true
		}
	}
	return false
}

func scanRefresh(files []*input) *refreshAll {
	all := &refreshAll{names: newInterner()}
	for src, in := range files {
		// refresh.needles: a text log's are "efresh" and "time to load
		// chunks"; its every line goes to feed, which keeps those that hold
		// a line filter (each holds one of the needles).
		needle := []byte("efresh")
		if in.text {
			needle = nil
		}
		scanInput(in, func() feeder { return newRefreshState(src, all.names) }, needle,
			func(p feeder, _ bool) { all.add(p.(*refreshState)) })
	}
	return all
}

func scanQueries(files []*input) *queryState {
	total := newQueryState(0)
	for src, in := range files {
		// queries.needles: a text log's slow operation lines end in "ms".
		text, needle, jsonInText := in.text, []byte("51803"), false
		if text {
			needle = []byte("ms")
		}
		newPart := func() feeder {
			q := newQueryState(src)
			q.text = text
			return q
		}
		scanInput(in, newPart, needle,
			func(p feeder, _ bool) {
				jsonInText = jsonInText || p.(*queryState).jsonInText
				total.merge(p.(*queryState))
			})
		// The Python engine reads a text log's JSON slow query lines by
		// its text needle, unless JSON getMore commands fill a quarter of
		// a block's lines (queries.State.feed_span): then by a JSON regex,
		// which also finds those without "ms".
		if jsonInText && (in.stdin || holdsJSONLine(in, []byte(`"command":{"getMore":`))) {
			bail("%s: a text log with JSON slow query lines and getMore commands", in.name)
		}
	}
	total.settle()
	return total
}

// rowsWanted: cli.rows_wanted, a positive number of rows (else the Python
// engine says what is wrong).
func rowsWanted(text string) int {
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || text == "" || text[0] < '0' || text[0] > '9' {
		bail("usage: --top %q", text)
	}
	return n
}

// parseArgs: cli.parse_args for what this engine runs; anything else (help,
// usage errors) is the Python engine's to say. top: how many rows a
// table shows, -1 for every row.
func parseArgs(args []string) (string, bool, int, []string) {
	report := ""
	asJSON := false
	var files []string
	onlyFiles := false
	top, given := defaultTop, ""
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case onlyFiles:
			files = append(files, arg)
		case arg == "-h" || arg == "--help":
			bail("help")
		case arg == "--json":
			asJSON = true
		case arg == "--all" || arg == "--top" || strings.HasPrefix(arg, "--top="):
			option, value, _ := strings.Cut(arg, "=")
			if given != "" && given != option {
				bail("usage: --top and --all")
			}
			given = option
			switch {
			case arg == "--all":
				top = -1
			case arg == "--top" && i+1 < len(args):
				i++
				top = rowsWanted(args[i])
			default:
				top = rowsWanted(value)
			}
		case arg == "--":
			onlyFiles = true
		case len(arg) > 1 && arg[0] == '-':
			bail("usage")
		case report == "":
			report = arg
		default:
			files = append(files, arg)
		}
	}
	if report != "cursors" && report != "queries" && report != "refresh" {
		bail("report %q", report)
	}
	if len(files) == 0 {
		bail("usage: no file")
	}
	if asJSON && given == "--top" {
		bail("usage: --top with --json")
	}
	stdin := 0
	for _, path := range files {
		if path == "-" {
			if stdin++; stdin > 1 {
				bail("usage: stdin twice")
			}
			continue
		}
		// Opened by openInputs, which hands over what it cannot read.
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
			bail("%s: not a regular file", path)
		}
	}
	return report, asJSON, top, files
}

const sniffBytes = 64 << 10

// sniff: source.Source.sniff: the first line that starts as a JSON or a
// text log line tells the input's format (in.text); an input with neither
// is handed over, for the Python engine to say what it looks like.
func sniff(in *input) {
	path := in.name
	head, err := readInto(io.NewSectionReader(in.file, 0, in.size), make([]byte, sniffBytes))
	if err != nil {
		bail("%s: cannot read", path)
	}
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		in.gzip = true
		head = gunzipHead(path, head)
	}
	if len(lstrip(head)) == 0 {
		return
	}
	lines := bytes.Split(head, []byte("\n"))
	if len(lines) > 1 && len(head) >= sniffBytes {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 200 {
		lines = lines[:200]
	}
	for _, line := range lines {
		if isJSONLogStart(line) {
			return
		}
		if _, ok := parseTextLine(view(line)); ok {
			in.text = true
			return
		}
	}
	bail("%s: not a log", path)
}

// isJSONLogStart: source.LOG_LINE_START's JSON part, an object whose first
// member is "t" (logv2 writes it first), its quotes plain or typographic.
// lstrip's white space is the \s of that regex.
func isJSONLogStart(l []byte) bool {
	s := lstrip(l)
	if len(s) == 0 || s[0] != '{' {
		return false
	}
	s, ok := afterQuote(lstrip(s[1:]))
	if !ok || len(s) == 0 || s[0] != 't' {
		return false
	}
	if s, ok = afterQuote(s[1:]); !ok {
		return false
	}
	s = lstrip(s)
	return len(s) > 0 && s[0] == ':'
}

// afterQuote: s after the quote it starts with (", or UTF-8's “ or ”).
func afterQuote(s []byte) ([]byte, bool) {
	switch {
	case len(s) > 0 && s[0] == '"':
		return s[1:], true
	case len(s) >= 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0x9c || s[2] == 0x9d):
		return s[3:], true
	}
	return s, false
}

// describe: cli.describe: "file:line: reason" for a plain file, the byte
// offset for stdin and gzip (their lines are not counted again).
func describe(examples []example, files []*input) []string {
	out := make([]string, 0, len(examples))
	for _, e := range examples {
		in := files[e.src]
		switch {
		case in.gzip:
			out = append(out, fmt.Sprintf("%s (byte %d after decompression): %s", in.name, e.offset, e.reason))
		case in.stdin:
			out = append(out, fmt.Sprintf("%s (byte %d): %s", in.name, e.offset, e.reason))
		default:
			out = append(out, fmt.Sprintf("%s:%d: %s", in.name, lineNumber(in.file, e.offset), e.reason))
		}
	}
	return out
}

// names: the inputs as the reports name them.
func names(files []*input) []string {
	out := make([]string, len(files))
	for i, in := range files {
		out[i] = in.name
	}
	return out
}

func lineNumber(f *os.File, offset int64) int64 {
	buf := make([]byte, 1<<20)
	var pos, lines int64 = 0, 1
	for pos < offset {
		want := int64(len(buf))
		if offset-pos < want {
			want = offset - pos
		}
		n, err := f.ReadAt(buf[:want], pos)
		lines += int64(bytes.Count(buf[:n], []byte("\n")))
		pos += int64(n)
		if n == 0 || err != nil && pos < offset {
			break
		}
	}
	return lines
}

// plainCell: no character that Python's str.rstrip() would cut at a line's
// end but a space (then the table would be cut differently).
func plainCell(s string) bool {
	for _, r := range s {
		if r != ' ' && isPyWhitespace(r) {
			return false
		}
	}
	return true
}

func isPyWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f,
		0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// gcPercent: GOGC when set (for measurements), else 400: per-line values are
// reused, what is kept is mostly pointer-free, and collecting less often
// took 10-20% off the wall time of a 100 MiB log.
func gcPercent() int {
	if n, err := strconv.Atoi(os.Getenv("GOGC")); err == nil {
		return n
	}
	return 400
}

// tableGCPercent: the collector's pace while a table is written.
const tableGCPercent = 25

// loaded: where a batch's first pass (the reports' touch) stores what it
// loaded, so that the loads are not optimised away.
var loaded atomic.Uint32

// writeBatches writes rows 0..n: format appends rows lo..hi to a buffer.
// Every core formats a batch at a time while the batches done are written
// in order, so that the write system calls overlap the formatting.
func writeBatches(out *bufio.Writer, n int, format func(dst []byte, lo, hi int) []byte) {
	const batch = 1024 // rows whose data still fits a core's cache
	batches := (n + batch - 1) / batch
	ready := make([]chan []byte, batches)
	for k := range ready {
		ready[k] = make(chan []byte, 1)
	}
	// A worker takes a buffer before a batch, so the lowest batch not yet
	// written always has one: the writer never waits on a worker that waits.
	free := make(chan []byte, 2*workers())
	for i := 0; i < cap(free); i++ {
		free <- nil
	}
	var next atomic.Int64
	var failure atomic.Pointer[any] // the first worker's panic
	for w := 0; w < workers(); w++ {
		go func() {
			for {
				buf := <-free
				k := int(next.Add(1) - 1)
				if k >= batches {
					return
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							failure.CompareAndSwap(nil, &r)
							buf = nil
						}
						ready[k] <- buf
					}()
					buf = format(buf[:0], k*batch, min((k+1)*batch, n))
				}()
			}
		}()
	}
	for k := range ready {
		b := <-ready[k]
		if b == nil && failure.Load() != nil {
			break
		}
		out.Write(b)
		free <- b
	}
	if r := failure.Load(); r != nil {
		panic(*r)
	}
}
