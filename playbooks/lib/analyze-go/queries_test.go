package main

import (
	"bufio"
	"bytes"
	"math"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// aggregateLines: the first aggregate line of the fixture (shop.orders,
// $match | $group | $sort, 120 ms), once per duration.
func aggregateLines(t *testing.T, durations []int64) [][]byte {
	data, err := os.ReadFile("../../../tests/fixtures/logs/queries-aggregates.derived.json.log")
	if err != nil {
		t.Fatal(err)
	}
	var line []byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"aggregate"`)) {
			line = l
			break
		}
	}
	tail := []byte(`"durationMillis":120}}`)
	if !bytes.HasSuffix(line, tail) {
		t.Fatalf("the fixture's aggregate line ends otherwise: %q", line[len(line)-40:])
	}
	head := line[:len(line)-len(`120}}`)]
	lines := make([][]byte, len(durations))
	for i, ms := range durations {
		lines[i] = append(strconv.AppendInt(bytes.Clone(head), ms, 10), "}}"...)
	}
	return lines
}

func fedQueries(lines [][]byte) *queryState {
	q := newQueryState(0)
	for i, line := range lines {
		q.feed(int64(i), line)
	}
	return q
}

func queriesJSON(q *queryState) string {
	var b bytes.Buffer
	out := bufio.NewWriter(&b)
	q.outputJSON(out, q.rows())
	out.Flush()
	return b.String()
}

// Parts merged as scanQueries merges them give one pass's rows, wherever
// the cut falls: in a group of one bucket, of several, or between them.
func TestPartsMergedReadAsOnePass(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	durations := make([]int64, 300)
	for i := range durations {
		durations[i] = rng.Int63n(5000)
	}
	// One bucket (120-121) before the cut at 3, two after it (120 and 4000),
	// read in the order of a map: every round another.
	durations[0], durations[1], durations[2], durations[3], durations[4] = 120, 120, 121, 120, 4000
	lines := aggregateLines(t, durations[:5])
	whole := queriesJSON(fedQueries(lines))
	for round := 0; round < 20; round++ {
		total := newQueryState(0)
		total.merge(fedQueries(lines[:3]))
		total.merge(fedQueries(lines[3:]))
		if got := queriesJSON(total); got != whole {
			t.Fatalf("round %d:\n%s\none pass:\n%s", round, got, whole)
		}
	}
	lines = aggregateLines(t, durations)
	whole = queriesJSON(fedQueries(lines))
	for _, cut := range []int{1, 2, 3, 150, 299} {
		total := newQueryState(0)
		total.merge(fedQueries(lines[:cut]))
		total.merge(fedQueries(lines[cut:]))
		if got := queriesJSON(total); got != whole {
			t.Fatalf("cut at %d:\n%s\none pass:\n%s", cut, got, whole)
		}
	}
}

// However many durations, a group keeps one count per bucket they fall in,
// and no map at all while they fall in one.
func TestAGroupKeepsOneCountPerBucketNotPerDuration(t *testing.T) {
	durations := make([]int64, 100000)
	for i := range durations {
		durations[i] = int64(i)
	}
	q := fedQueries(aggregateLines(t, durations))
	if g := q.recs.at(0); len(g.buckets()) != int(quantileBucket(99999))+1 || len(g.buckets()) > 600 {
		t.Fatalf("%d buckets", len(g.buckets()))
	}
	q = fedQueries(aggregateLines(t, []int64{120, 121, 120}))
	if g := q.recs.at(0); g.more != nil || g.planN != 3 {
		t.Fatalf("a group of one bucket and one plan keeps maps: %+v", g)
	}
}

// A log of a query shape per line (an aggregate whose $match field is named
// anew each time) keeps per group its record, its shape's text and its
// index slots: within 200 bytes a group, as the report's bound says.
func TestAGroupCostsItsRecordAndShapeOnly(t *testing.T) {
	const groups = 20000
	lines := aggregateLines(t, make([]int64, groups))
	for i := range lines {
		lines[i] = bytes.Replace(lines[i], []byte(`{"$match":{"k":1}}`), []byte(`{"$match":{"k`+strconv.Itoa(i)+`":1}}`), 1)
		lines[i] = bytes.Replace(lines[i], []byte(`"durationMillis":0}`), []byte(`"durationMillis":`+strconv.Itoa(i%5000)+`}`), 1)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	q := fedQueries(lines)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if q.grouped != groups {
		t.Fatalf("%d groups, want %d", q.grouped, groups)
	}
	if per := (after.HeapAlloc - before.HeapAlloc) / groups; per > 200 {
		t.Fatalf("%d bytes a group", per)
	}
	runtime.KeepAlive(q)
	runtime.KeepAlive(lines) // not freed in between: counted in neither
}

// Every round1 result prints as pyRepr prints it, whether appendTenths
// writes its digits or hands it to pyRepr (negative, huge, not a tenth).
func TestTenthsPrintAsPyRepr(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	values := []float64{0, math.Copysign(0, -1), 0.1, 0.5, 1, 9.95, 99.9, 100, 123456.7, 1e14 - 0.1, 1e15, 1e16, 3e20, -0.5, 0.05}
	for i := 0; i < 100000; i++ {
		values = append(values, round1(float64(rng.Int63n(1<<40))/float64(1+rng.Int63n(1<<20))),
			round1(100*rng.Float64()))
	}
	for _, f := range values {
		if got, want := string(appendTenths(nil, f)), pyRepr(f); got != want {
			t.Fatalf("%v: %s, pyRepr %s", f, got, want)
		}
	}
}
