package main

import (
	"bufio"
	"bytes"
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
