package main

import (
	"bytes"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// refreshFixture: the lines of one refresh log fixture.
func refreshFixture(t *testing.T, name string) [][]byte {
	data, err := os.ReadFile("../../../tests/fixtures/logs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

// A 5.0-era id 4619901 logs oldVersion, the cache's time in store, and no
// lookupSinceVersion: a version there is where the refresh started
// (incremental); a time in store of "None" does not tell the kind.
func TestA50EraOldVersionIsWhereTheRefreshStarted(t *testing.T) {
	r := newRefreshState(0, newInterner())
	for i, line := range refreshFixture(t, "refresh-5.0-oldversion.derived.json.log") {
		r.feed(int64(i), line)
	}
	if r.events.len() != 2 {
		t.Fatalf("%d events, want 2", r.events.len())
	}
	none, known := r.events.at(0), r.events.at(1)
	if from := r.plain(none, fFrom); none.kind != 0 || from.ok {
		t.Errorf("time in store None: kind %q from %+v, want no kind and no version", kindNames[none.kind], from)
	}
	want := "49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)"
	if from := r.plain(known, fFrom); known.kind != 2 || from != (optString{want, true}) {
		t.Errorf("time in store %s: kind %q from %+v, want incremental", want, kindNames[known.kind], from)
	}
}

// The strict reader (readSlow) takes the same start version as readFast.
func TestReadSlowTakesTheOldVersionAsReadFastDoes(t *testing.T) {
	for _, line := range refreshFixture(t, "refresh-5.0-oldversion.derived.json.log") {
		r := newRefreshState(0, newInterner())
		fast, ok := r.readFast(line)
		if !ok {
			t.Fatal("readFast left a plain refresh line to readSlow")
		}
		fastFrom, _ := r.rawVersion(fast.old)
		fastText := strings.Clone(fastFrom.s) // rawVersion's text is reused
		var slow refreshLine
		if !r.readSlow(line, 0, &slow) {
			t.Fatal("readSlow read no refresh")
		}
		slowFrom, _ := r.rawVersion(slow.old)
		if fast.inStore != slow.inStore || !fast.inStore || fastFrom.ok != slowFrom.ok || fastText != slowFrom.s {
			t.Errorf("readFast %v %+v, readSlow %v %+v", fast.inStore, fastFrom, slow.inStore, slowFrom)
		}
	}
}

// The parts' orders merge longest first and, among equal durations, in
// input order (earlier part, then earlier index), for any number of parts:
// the order a stable sort of all the events gives, whole or cut at --top.
func TestPartsMergeSlowestFirstInInputOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(40))
	for _, nparts := range []int{1, 2, 3, 7, 24} {
		a := &refreshAll{}
		type ev struct{ ref, key int64 }
		var all []ev
		for pi := 0; pi < nparts; pi++ {
			n := rng.Intn(50) // some parts empty
			keys, order := make([]uint64, n), make([]int32, n)
			for i := range keys {
				keys[i] = uint64(rng.Intn(8)) // many ties
			}
			sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
			for i := range order {
				order[i] = int32(i)
				all = append(all, ev{int64(pi)<<32 | int64(i), int64(keys[i])})
			}
			a.parts = append(a.parts, &refreshState{keys: keys, order: order})
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].key < all[j].key })
		for _, top := range []int{-1, 5} {
			got := a.slowestFirst(top)
			want := make([]int64, 0, len(all))
			for _, e := range all[:shownOf(top, len(all))] {
				want = append(want, e.ref)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d parts, top %d: %v, want %v", nparts, top, got, want)
			}
		}
	}
}
