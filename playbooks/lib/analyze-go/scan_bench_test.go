package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

// go test -bench . -run ^$ with ANALYZE_GO_BENCH_LOG=FILE (a JSON log; bench/analyze.sh makes them).

func benchLog(b *testing.B) string {
	path := os.Getenv("ANALYZE_GO_BENCH_LOG")
	if path == "" {
		b.Skip("ANALYZE_GO_BENCH_LOG not set")
	}
	return path
}

func BenchmarkScan(b *testing.B) {
	path := benchLog(b)
	b.Run("cursors", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			scanCursors(openInputs([]string{path}))
		}
	})
	b.Run("queries", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			scanQueries(openInputs([]string{path}))
		}
	})
}

// BenchmarkStdin: the reports on the log given as stdin, its copy kept as
// a run's is (os.Stdin is the log: a pipe's reads are what a file's are
// here, without the writer's share of the work).
func BenchmarkStdin(b *testing.B) {
	path := benchLog(b)
	scans := map[string]func([]*input){
		"cursors": func(in []*input) { scanCursors(in) },
		"queries": func(in []*input) { scanQueries(in) },
		"refresh": func(in []*input) { scanRefresh(in) },
	}
	for _, name := range []string{"cursors", "queries", "refresh"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				readAsStdin(b, path, scans[name])
			}
		})
	}
}

func BenchmarkCursorsOutput(b *testing.B) {
	path := benchLog(b)
	state := scanCursors(openInputs([]string{path}))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var sink bytes.Buffer
		out := bufio.NewWriter(&sink)
		state.outputJSON(out)
		out.Flush()
	}
}

func BenchmarkRefresh(b *testing.B) {
	path := benchLog(b)
	for i := 0; i < b.N; i++ {
		state := scanRefresh(openInputs([]string{path}))
		out := bufio.NewWriter(io.Discard)
		state.output(out, true, -1, []string{path})
		out.Flush()
	}
}

func BenchmarkRefreshOutput(b *testing.B) {
	path := benchLog(b)
	state := scanRefresh(openInputs([]string{path}))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := bufio.NewWriterSize(io.Discard, 1<<18)
		state.output(out, true, -1, []string{path})
		out.Flush()
	}
}

// The first 3,000 lines of the log (they stay in cache, as a block just
// read does), each read as refresh reads it, and checked by skipFast alone.
func BenchmarkRefreshLines(b *testing.B) {
	f, err := os.Open(benchLog(b))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	for sc := bufio.NewScanner(f); sc.Scan() && len(lines) < 3000; {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	r := newRefreshState(0, newInterner())
	b.Run("readFast", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, l := range lines {
				r.readFast(l)
			}
		}
	})
	b.Run("feed", func(b *testing.B) {
		names := newInterner()
		for i := 0; i < b.N; i++ {
			r := newRefreshState(0, names)
			for k, l := range lines {
				r.feed(int64(k), l)
			}
		}
	})
	b.Run("skipFast", func(b *testing.B) {
		var m members
		for i := 0; i < b.N; i++ {
			for _, l := range lines {
				skipFast(l, 0, maxDepth, &m)
			}
		}
	})
}
