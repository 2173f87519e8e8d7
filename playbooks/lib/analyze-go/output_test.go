package main

import (
	"bufio"
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"testing"
)

func numberRows(b []byte, lo, hi int) []byte {
	for i := lo; i < hi; i++ {
		b = append(strconv.AppendInt(b, int64(i), 10), '\n')
	}
	return b
}

func TestWriteBatchesWritesEveryRowInOrder(t *testing.T) {
	const n = 4096*7 + 17 // more batches than workers have buffers
	var sink bytes.Buffer
	out := bufio.NewWriter(&sink)
	writeBatches(out, n, numberRows)
	out.Flush()
	if want := numberRows(nil, 0, n); !bytes.Equal(sink.Bytes(), want) {
		t.Fatalf("got %d bytes, want %d, not the same", sink.Len(), len(want))
	}
}

func TestWriteBatchesPassesAFormattersPanicOn(t *testing.T) {
	var sink bytes.Buffer
	out := bufio.NewWriter(&sink)
	defer func() {
		if r := recover(); r != (bailout{"row 9000"}) {
			t.Fatalf("recovered %v, want the formatter's bailout", r)
		}
		out.Flush()
		if !bytes.HasPrefix(numberRows(nil, 0, 9000), sink.Bytes()) {
			t.Fatalf("what was written before the panic is not the rows before it in order")
		}
	}()
	writeBatches(out, 4096*6, func(b []byte, lo, hi int) []byte {
		if lo <= 9000 && 9000 < hi {
			bail("row 9000")
		}
		return numberRows(b, lo, hi)
	})
	t.Fatal("writeBatches returned")
}

// firstN keeps the n first items of the order, whatever the input order,
// ties included, as a full sort would.
func TestFirstNIsTheStartOfTheSortedItems(t *testing.T) {
	items := []int{5, 3, 9, 3, 1, 8, 7, 3, 2, 9, 0, 4}
	sorted := slices.Clone(items)
	slices.Sort(sorted)
	for n := 0; n <= len(items)+1; n++ {
		got := firstN(len(items), n, func(i int) int { return items[i] }, cmp.Compare[int])
		if want := sorted[:min(n, len(items))]; !slices.Equal(got, want) {
			t.Fatalf("n=%d: got %v, want %v", n, got, want)
		}
	}
}
