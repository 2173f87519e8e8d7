package main

import (
	"runtime"
	"testing"
)

// A log whose cursor ids are all distinct has as many records as lines:
// each must stay a small fixed record (issue: under 200 bytes), index
// included, as in the Python engine.
func TestPerCursorStateIsASmallFixedRecord(t *testing.T) {
	const cursors = 200000
	report := &cursorReport{names: newInterner(), clock: newTimes()}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	table := report.newTable(0)
	for i := 0; i < cursors; i++ {
		ev := cursorEvent{id: int64(i)*7919 + 1, ns: "shop.orders", name: "find", origin: "find", hasOrigin: true,
			nreturned: 101, docs: 5000, keys: 5000, bytesRead: 1 << 20, millis: int64(i % 900),
			time: "2024-05-01T10:07:12.345+00:00", hasTime: true}
		table.add(&ev, int64(i)*1200)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / cursors
	t.Logf("%.0f bytes per cursor (record %d, index and chunk slack the rest)", per, 128)
	if per >= 200 {
		t.Errorf("%.0f bytes per cursor, want under 200", per)
	}
	runtime.KeepAlive(table)
}
