package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureLines: the JSON lines of the project's recorded log fixtures.
func fixtureLines(t *testing.T) [][]byte {
	var paths []string
	for _, pattern := range []string{"logs/*json.log", "change-stream-resume/*.json.log", "chunks/*.log"} {
		found, err := filepath.Glob(filepath.Join("../../../tests/fixtures", pattern))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	var lines [][]byte
	eachLine(t, paths, func(line []byte) {
		if line, isJSON := jsonStart(line); isJSON {
			lines = append(lines, append([]byte(nil), line...))
		}
	})
	return lines
}

// eachLine gives each a view of every line of the files at paths, in turn
// (valid until the next call).
func eachLine(t *testing.T, paths []string, each func(line []byte)) {
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		scanner.Buffer(make([]byte, 1<<20), 1<<24)
		for scanner.Scan() {
			each(scanner.Bytes())
		}
		f.Close()
		if err := scanner.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

// agree: skipFast accepts only what the strict reader accepts, ending where
// it ends.
func agree(t *testing.T, b []byte, depthLeft int) (accepted bool) {
	t.Helper()
	end, ok := skipFast(b, 0, depthLeft, nil)
	if !ok {
		return false
	}
	strict := jreader{b: b, depth: maxDepth - depthLeft, strict: true}
	if err := strict.skipStrict(); err != nil {
		t.Fatalf("%q: skipFast accepts it, the strict reader says %v", b, err)
	}
	if strict.i != end {
		t.Fatalf("%q: skipFast ends at %d, the strict reader at %d", b, end, strict.i)
	}
	return true
}

// The fixtures' lines that are valid JSON (some are damaged on purpose)
// have nothing skipFast leaves to the strict reader.
func TestSkipFastReadsRecordedLines(t *testing.T) {
	valid := 0
	for _, line := range fixtureLines(t) {
		strict := jreader{b: line, strict: true}
		if strict.skipStrict() != nil || strict.i != len(line) {
			continue
		}
		valid++
		if !agree(t, line, maxDepth) {
			t.Errorf("%q: refused, a plain log line", line)
		}
	}
	if valid < 30 {
		t.Fatalf("only %d valid lines in the fixtures", valid)
	}
}

// Every recorded line, damaged at every byte in the ways that change JSON's
// structure: whatever skipFast still accepts, the strict reader accepts too.
func TestSkipFastNeverAcceptsMoreThanTheStrictReader(t *testing.T) {
	swaps := []byte("\"{}[],:\\ 0-+.eEtfnu\x01\x7f")
	var tried, accepted int
	for n, line := range fixtureLines(t) {
		if n%3 != 0 { // a sample keeps the test under a second
			continue
		}
		for at := range line {
			damaged := make([]byte, 0, len(line)+1)
			for _, c := range swaps {
				damaged = append(append(append(damaged[:0], line[:at]...), c), line[at+1:]...)
				tried++
				if agree(t, damaged, maxDepth) {
					accepted++
				}
			}
			damaged = append(damaged[:0], line[:at]...)
			tried++
			if agree(t, append(damaged, line[at+1:]...), maxDepth) {
				accepted++
			}
			tried++
			if agree(t, line[:at], maxDepth) { // cut, as the last line of a log being written
				accepted++
			}
		}
	}
	if accepted == 0 || accepted == tried {
		t.Fatalf("%d of %d damaged lines accepted: the damage did not test both ways", accepted, tried)
	}
}

func TestSkipFastLeavesHardCasesToTheStrictReader(t *testing.T) {
	for _, text := range []string{
		`1e5`, `-0.5E-3`, `"\ud83d\ude00"`, `"\udc00"`, `[1,]`, `{"a":1,}`, `01`, `-`, `1.`,
		`"tab	in"`, `tru`, `{"a" 1}`, `[1 2]`, `{"a":1]`, `[1}`, `nul`, `+1`, `.5`,
	} {
		if _, ok := skipFast([]byte(text), 0, maxDepth, nil); ok {
			t.Errorf("%s: accepted by skipFast", text)
		}
	}
}

func TestSkipFastKeepsTheDepthLimit(t *testing.T) {
	nested := []byte("[[[[1]]]]")
	if !agree(t, nested, 4) {
		t.Errorf("%s: refused with 4 levels left", nested)
	}
	if _, ok := skipFast(nested, 0, 3, nil); ok {
		t.Errorf("%s: accepted with 3 levels left", nested)
	}
	deep := make([]byte, 0, 2*fastDepth+2)
	for i := 0; i <= fastDepth; i++ {
		deep = append(deep, '[')
	}
	for i := 0; i <= fastDepth; i++ {
		deep = append(deep, ']')
	}
	if _, ok := skipFast(deep, 0, maxDepth, nil); ok {
		t.Errorf("%d levels: accepted beyond the %d skipFast tracks", fastDepth+1, fastDepth)
	}
	r := jreader{b: deep}
	if err := r.skip(); err != nil || r.i != len(deep) {
		t.Errorf("%d levels: the strict reader's answer (%v at %d) is not skip's", fastDepth+1, err, r.i)
	}
}

func TestSkipFastRecordsTheMembersOfTwoDepths(t *testing.T) {
	line := []byte(`{"t":{"$date":"x"}, "id" : 7,"a":[{"deep":1}],"attr":{"n":"s","v":{"0":1}},"id":8}`)
	var m members
	if end, ok := skipFast(line, 0, maxDepth, &m); !ok || end != len(line) {
		t.Fatalf("refused or ended at %d", end)
	}
	var got []string
	for _, at := range m.list {
		depth := 1
		for p := at.parent; p >= 0; p = m.list[p].parent {
			depth++
		}
		got = append(got, fmt.Sprintf("%d %d %s=%s", depth, at.parent,
			line[at.key[0]:at.key[1]], line[at.value[0]:at.value[1]]))
	}
	want := []string{`1 -1 t={"$date":"x"}`, `2 0 $date="x"`, `1 -1 id=7`, `1 -1 a=[{"deep":1}]`,
		`1 -1 attr={"n":"s","v":{"0":1}}`, `2 4 n="s"`, `2 4 v={"0":1}`, `1 -1 id=8`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m.escaped {
		t.Error("no key has an escape")
	}
	if id := m.last(-1, "id", line); id != 7 {
		t.Errorf("the last id is member %d, want 7", id)
	}
	if _, ok := skipFast([]byte(`{"\u0069d":1}`), 0, maxDepth, &m); !ok || !m.escaped {
		t.Error("a key with an escape is not flagged")
	}
}
