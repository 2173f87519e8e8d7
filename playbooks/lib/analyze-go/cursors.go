package main

// Report `cursors`: one row per cursor id from the slow query lines (id
// 51803) that carry one. The reading of a line is the Python engine's
// (cursors.feed: logv2.cursor_fast, else logv2.cursor_slow on the full
// parse); per cursor a fixed record of 128 bytes plus its index entry.

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

const (
	fChangeStream = 1
	fJSON         = 2
	fText         = 4
	fOpener       = 8
	// Every number added is below this, so no sum can overflow 64 bits
	// (Python's ints never do); a bigger one hands the run over.
	valueLimit = int64(1) << 40
)

type cursorRec struct {
	id                 int64
	stats              [7]int64 // commands, getMores, nreturned, docsExamined, keysExamined, bytesRead, durationMillis
	firstKey, firstSeq int64
	lastKey, lastSeq   int64
	ns, origin, flags  int32 // origin -1: none
	firstTid, firstHms int32 // tid -1: no time; hms -1: a time without h:m:s
	lastTid, lastHms   int32
}

type cursorEvent struct {
	id                                       int64
	ns, name, origin                         string
	hasOrigin, changeStream                  bool
	nreturned, docs, keys, bytesRead, millis int64
	time                                     string
	hasTime                                  bool
	text                                     bool // read from a legacy text line
}

type cursorTable struct {
	src   int
	recs  chunked[cursorRec]
	index map[int64]int32
	names nameCache
	clock *times
	bad   tally
	arena arena
	last  lastTemplate
}

// lastTemplate: the date and zone of the last JSON-layout time this worker
// encoded (a log's lines share a few), so that most lines take no lock and
// build no template.
type lastTemplate struct {
	date, zone string
	tid        int32
	base       int64
	set        bool
}

// encodeTime: times.encode with the worker's cache in front.
func (t *cursorTable) encodeTime(text string) (int32, int64, int64, bool) {
	c := &t.last
	if c.set {
		if hms, ok := isoHMS(text); ok && text[:11] == c.date && text[23:] == c.zone {
			return c.tid, hms, keyOf(c.base, hms), true
		}
	}
	tid, hms, key, ok := t.clock.encode(text)
	if ok && isoLayout(text) {
		*c = lastTemplate{date: strings.Clone(text[:11]), zone: strings.Clone(text[23:]), tid: tid,
			base: t.clock.baseOf(tid), set: true}
	}
	return tid, hms, key, ok
}

type cursorReport struct {
	names *interner
	clock *times
}

func (r *cursorReport) newTable(src int) *cursorTable {
	return &cursorTable{src: src, index: map[int64]int32{}, clock: r.clock,
		names: nameCache{shared: r.names, local: map[string]int32{}}}
}

var (
	dateHead     = []byte(`{"t":{"$date":"`)
	idKey        = []byte(`"id":`)
	cursorKey    = []byte(`"cursorid":`)
	durationKey  = []byte(`"durationMillis":`)
	attrKey      = []byte(`"attr":{`)
	nsKey        = []byte(`"ns":"`)
	commandKey   = []byte(`"command":{"`)
	originKey    = []byte(`"originatingCommand":{"`)
	csQuoted     = []byte(`"$changeStream"`)
	csFirstStage = []byte(`"pipeline":[{"$changeStream":`)
)

// What cursors reads of the tail of a slow query line.
var tailSelection = (&selection{keys: map[string]*selection{
	"cursorid": nil, "nreturned": nil, "docsExamined": nil, "keysExamined": nil, "durationMillis": nil,
	"storage": {keys: map[string]*selection{"data": {keys: map[string]*selection{"bytesRead": nil}}}},
}}).prepare()

// lastIndex: bytes.LastIndex of a quoted key by forward searches
// (vectorised, where LastIndex is not), for the key without its opening
// quote (a quote as first byte makes the search stop at every string).
func lastIndex(b, quoted []byte) int {
	sub := quoted[1:]
	last := -1
	for from := 1; from < len(b); {
		i := bytes.Index(b[from:], sub)
		if i < 0 {
			return last
		}
		if b[from+i-1] == '"' {
			last = from + i - 1
		}
		from += i + 1
	}
	return last
}

// containsQuoted: bytes.Contains for a quoted key, searched as lastIndex does.
func containsQuoted(b, quoted []byte) bool {
	sub := quoted[1:]
	for from := 1; from < len(b); {
		i := bytes.Index(b[from:], sub)
		if i < 0 {
			return false
		}
		if b[from+i-1] == '"' {
			return true
		}
		from += i + 1
	}
	return false
}

type fastResult int

const (
	fastEvent fastResult = iota
	fastNotCursor
	fastSlow
)

// find: Python's bytes.find(sub, start, end) for 0 <= start.
func find(b, sub []byte, start, end int) int {
	if end > len(b) {
		end = len(b)
	}
	if start > end {
		return -1
	}
	i := bytes.Index(b[start:end], sub)
	if i < 0 {
		return -1
	}
	return start + i
}

func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// utf8String: a view of part of a line (no copy: an event lives only while
// its line is fed; what is kept is copied by the interners).
func utf8String(b []byte) string {
	if !validUTF8(b) {
		bail("a line whose names are not UTF-8")
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// metric: a server-written number of the tail; Python adds it as it is, so
// only a plain integer of modest size is read here.
func metric(v *value, present bool) int64 {
	if !present {
		return 0
	}
	if v == nil || v.k != kInt || v.i >= valueLimit || v.i <= -valueLimit {
		bail("a metric that is not a plain integer")
	}
	return v.i
}

// cursorFast: logv2.cursor_fast.
func cursorFast(line []byte, a *arena) (cursorEvent, fastResult) {
	var ev cursorEvent
	n := len(line)
	if n < 2 || line[n-2] != '}' || line[n-1] != '}' || !bytes.HasPrefix(line, dateHead) {
		return ev, fastSlow
	}
	te := find(line, []byte{'"'}, 15, n)
	if te < 0 {
		return ev, fastSlow
	}
	at := find(line, idKey, te, te+64)
	if at < 0 {
		return ev, fastSlow
	}
	if !bytes.HasPrefix(line[at+5:], []byte("51803,")) {
		return ev, fastNotCursor
	}
	p := lastIndex(line, cursorKey)
	if p < 0 {
		d := lastIndex(line, durationKey)
		if d >= 0 && d+17 <= n-2 && allDigits(line[d+17:n-2]) {
			return ev, fastNotCursor
		}
		return ev, fastSlow
	}
	tail, err := parseTail(line[:n-1], p, tailSelection, a)
	if err != nil {
		return ev, fastSlow
	}
	attr := find(line, attrKey, at, n)
	if attr < 0 {
		return ev, fastSlow
	}
	ni := find(line, nsKey, attr, p)
	ci := find(line, commandKey, attr, p)
	if ni < 0 || ci < 0 {
		return ev, fastSlow
	}
	ns := line[ni+6 : ni+6+bytes.IndexByte(line[ni+6:], '"')]
	name := line[ci+12 : ci+12+bytes.IndexByte(line[ci+12:], '"')]
	if bytes.IndexByte(ns, '\\') >= 0 || bytes.IndexByte(name, '\\') >= 0 {
		return ev, fastSlow
	}
	var region []byte
	if string(name) == "getMore" {
		if o := find(line, originKey, ci, p); o >= 0 {
			ev.origin = utf8String(line[o+23 : o+23+bytes.IndexByte(line[o+23:], '"')])
			ev.hasOrigin = true
			region = line[o:p]
		}
	} else {
		ev.origin, ev.hasOrigin = utf8String(name), true
		region = line[ci:p]
	}
	if containsQuoted(region, csQuoted) {
		if !containsQuoted(region, csFirstStage) {
			return ev, fastSlow
		}
		ev.changeStream = ev.hasOrigin && ev.origin == "aggregate"
	}
	id := tail.get("cursorid")
	if id == nil || id.k != kInt {
		if id != nil && id.k == kBigInt {
			bail("a cursor id beyond 64 bits")
		}
		return ev, fastSlow
	}
	if !tail.has("durationMillis") {
		return ev, fastSlow
	}
	ev.id = id.i
	ev.ns, ev.name = utf8String(ns), utf8String(name)
	ev.nreturned = metric(tail.get("nreturned"), tail.has("nreturned"))
	ev.docs = metric(tail.get("docsExamined"), tail.has("docsExamined"))
	ev.keys = metric(tail.get("keysExamined"), tail.has("keysExamined"))
	if storage := tail.get("storage"); storage != nil && storage.k == kObject {
		if data := storage.get("data"); data != nil && data.k == kObject {
			ev.bytesRead = metric(data.get("bytesRead"), data.has("bytesRead"))
		}
	}
	ev.millis = metric(tail.get("durationMillis"), true)
	ev.time, ev.hasTime = utf8String(line[15:te]), true
	return ev, fastEvent
}

// asInt: common.as_int for the values this engine reads exactly; none is
// Python's None.
func asInt(v *value) (n int64, none bool) {
	if v == nil {
		return 0, true
	}
	switch v.k {
	case kInt:
		n = v.i
	case kBool:
		if v.b {
			n = 1
		}
	case kString:
		s := v.s
		if !isASCII(s) || bytes.IndexByte([]byte(s), '\n') >= 0 {
			bail("a number written as text this engine does not read")
		}
		digits := s
		if len(digits) > 0 && digits[0] == '-' {
			digits = digits[1:]
		}
		if !allDigits([]byte(digits)) {
			return 0, true
		}
		parsed, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			bail("a number beyond 64 bits")
		}
		n = parsed
	case kNull, kArray:
		return 0, true
	case kObject:
		if !v.has("$numberLong") && !v.has("$numberInt") && !v.has("$numberDouble") {
			return 0, true
		}
		bail("a number in extended JSON")
	default:
		bail("a number this engine does not read exactly")
	}
	if n >= valueLimit || n <= -valueLimit {
		bail("a number this engine does not add exactly")
	}
	return n, false
}

func firstKey(v *value) (string, bool) {
	if v == nil {
		return "", false
	}
	if v.k == kObject {
		return v.s, v.hasFirst
	}
	if v.k == kString {
		return v.s, true
	}
	return "", false
}

func isChangeStream(command *value) bool {
	if command == nil || command.k != kObject {
		return false
	}
	pipeline := command.get("pipeline")
	if pipeline == nil || pipeline.k != kArray || len(pipeline.vals) == 0 || pipeline.vals[0] == nil ||
		pipeline.vals[0].k != kObject {
		return false
	}
	return pipeline.vals[0].has("$changeStream")
}

func docTime(doc *value) (string, bool) {
	stamp := doc.get("t")
	if stamp != nil && stamp.k == kObject {
		stamp = stamp.get("$date")
	}
	if stamp != nil && stamp.k == kObject {
		stamp = stamp.get("$numberLong")
	}
	if stamp != nil && stamp.k == kString {
		return stamp.s, true
	}
	return "", false
}

// isSlowQueryID: doc.get("id") == 51803 in Python.
func isSlowQueryID(doc *value) bool {
	id := doc.get("id")
	if id == nil {
		return false
	}
	switch id.k {
	case kInt:
		return id.i == 51803
	case kFloat, kBigInt:
		bail("a log id that is not a plain integer")
	}
	return false
}

type unparsable struct{ reason string }

// cursorSlow: logv2.cursor_slow; ok false when the line has no cursor.
// slowQueryAttr: logv2.slow_query_attr, the attr of a parsed slow query
// line (nil for another line); a slow query line without attr or
// durationMillis (cut) is unparsable.
func slowQueryAttr(doc *value) (*value, *unparsable) {
	if !isSlowQueryID(doc) {
		return nil, nil
	}
	attr := doc.get("attr")
	if attr == nil || attr.k != kObject {
		return nil, &unparsable{"slow query line without attr"}
	}
	if !attr.has("durationMillis") {
		return nil, &unparsable{"slow query line without durationMillis (cut?)"}
	}
	return attr, nil
}

func cursorSlow(doc *value) (cursorEvent, bool, *unparsable) {
	var ev cursorEvent
	attr, bad := slowQueryAttr(doc)
	if attr == nil {
		return ev, false, bad
	}
	if !attr.has("cursorid") {
		return ev, false, nil
	}
	id, none := asInt(attr.get("cursorid"))
	if none {
		return ev, false, &unparsable{"cursorid is not an integer"}
	}
	ev.id = id
	ns := attr.get("ns")
	if ns == nil || ns.k != kString {
		bail("a slow query line whose ns is not a string")
	}
	ev.ns = ns.s
	command := attr.get("command")
	var hasName bool
	ev.name, hasName = firstKey(command)
	originDoc := command
	if hasName && ev.name == "getMore" {
		originDoc = attr.get("originatingCommand")
	}
	if originDoc != nil {
		ev.origin, ev.hasOrigin = firstKey(originDoc)
	}
	ev.changeStream = isChangeStream(originDoc)
	ev.nreturned, _ = asInt(attr.get("nreturned"))
	ev.docs, _ = asInt(attr.get("docsExamined"))
	ev.keys, _ = asInt(attr.get("keysExamined"))
	if storage := attr.get("storage"); storage != nil && storage.k == kObject {
		if data := storage.get("data"); data != nil && data.k == kObject {
			ev.bytesRead, _ = asInt(data.get("bytesRead"))
		}
	}
	ev.millis, _ = asInt(attr.get("durationMillis"))
	ev.time, ev.hasTime = docTime(doc)
	return ev, true, nil
}

func (t *cursorTable) feed(offset int64, line []byte) {
	t.bad.matched++
	stripped, isJSON := jsonStart(line)
	if !isJSON {
		parsed, ok := parseTextLine(view(line))
		if !ok {
			t.bad.skip(t.src, offset, notALogLine)
			return
		}
		if ev, ok := cursorFromText(&parsed); ok {
			ev.text = true
			t.add(&ev, int64(t.src)<<48|offset)
		}
		return
	}
	ev, res := cursorFast(stripped, &t.arena)
	if res == fastNotCursor {
		return
	}
	if res == fastSlow {
		doc := parseLine(stripped, nil, nil, &t.bad, t.src, offset)
		if doc == nil {
			return
		}
		var ok bool
		var bad *unparsable
		ev, ok, bad = cursorSlow(doc)
		if bad != nil {
			t.bad.skip(t.src, offset, bad.reason)
			return
		}
		if !ok {
			return
		}
	}
	t.add(&ev, int64(t.src)<<48|offset)
}

func (t *cursorTable) add(ev *cursorEvent, seq int64) {
	if ev.id == 0 {
		return // no open cursor: nothing to follow
	}
	tid, hms, key := int32(-1), int64(-1), unknownTime
	if ev.hasTime {
		var ok bool
		var id int32
		id, hms, key, ok = t.encodeTime(ev.time)
		if !ok {
			bail("a log time this engine does not read exactly")
		}
		tid = id
	}
	getmore := ev.name == "getMore"
	s, found := t.index[ev.id]
	if !found {
		s = t.recs.add(cursorRec{id: ev.id, firstKey: key, firstSeq: seq, lastKey: key, lastSeq: seq,
			ns: t.names.id(ev.ns), origin: -1, firstTid: tid, firstHms: int32(hms),
			lastTid: tid, lastHms: int32(hms)})
		t.index[ev.id] = s
	}
	r := t.recs.at(s)
	if found {
		if earlier(key, seq, r.firstKey, r.firstSeq) {
			r.firstKey, r.firstSeq, r.firstTid, r.firstHms = key, seq, tid, int32(hms)
		}
		if earlier(r.lastKey, r.lastSeq, key, seq) {
			r.lastKey, r.lastSeq, r.lastTid, r.lastHms = key, seq, tid, int32(hms)
		}
	}
	r.stats[0]++
	if getmore {
		r.stats[1]++
	}
	r.stats[2] += ev.nreturned
	r.stats[3] += ev.docs
	r.stats[4] += ev.keys
	r.stats[5] += ev.bytesRead
	r.stats[6] += ev.millis
	flags := r.flags | fJSON
	if ev.text {
		flags = r.flags | fText
	}
	if ev.hasOrigin && (r.origin == -1 || !getmore) {
		r.origin = t.names.id(ev.origin)
	}
	if !getmore {
		flags |= fOpener
	}
	if ev.changeStream {
		flags |= fChangeStream
	}
	r.flags = flags
}

// merge folds a later part's table into t (cursors.Table.merge); after the
// last part no cursor is looked up again, so its new ones skip the index
// (on a log of distinct cursors, most of them).
func (t *cursorTable) merge(o *cursorTable, last bool) {
	t.bad.merge(&o.bad)
	for i := 0; i < o.recs.len(); i++ {
		theirs := o.recs.at(int32(i))
		s, found := t.index[theirs.id]
		if !found {
			s = t.recs.add(*theirs)
			if !last {
				t.index[theirs.id] = s
			}
			continue
		}
		r := t.recs.at(s)
		for k := range r.stats {
			r.stats[k] += theirs.stats[k]
		}
		if earlier(theirs.firstKey, theirs.firstSeq, r.firstKey, r.firstSeq) {
			r.firstKey, r.firstSeq, r.firstTid, r.firstHms = theirs.firstKey, theirs.firstSeq, theirs.firstTid, theirs.firstHms
		}
		if earlier(r.lastKey, r.lastSeq, theirs.lastKey, theirs.lastSeq) {
			r.lastKey, r.lastSeq, r.lastTid, r.lastHms = theirs.lastKey, theirs.lastSeq, theirs.lastTid, theirs.lastHms
		}
		if theirs.origin != -1 && (r.origin == -1 || theirs.flags&fOpener != 0) {
			r.origin = theirs.origin
		}
		r.flags |= theirs.flags
	}
	o.recs, o.index = chunked[cursorRec]{}, nil
}

// orderKey: a row's place, slowest first, then by id.
type orderKey struct {
	millis, id int64
	slot       int32
}

func slowerFirst(a, b orderKey) int {
	if a.millis != b.millis {
		return cmp.Compare(b.millis, a.millis)
	}
	return cmp.Compare(a.id, b.id)
}

// sortOnTwoCores: keys sorted by cmp, a half on each of two cores and then
// merged, when there are many (a log of distinct cursors, or of distinct
// query shapes, has as many as lines).
func sortOnTwoCores[T any](keys []T, cmp func(a, b T) int) []T {
	if len(keys) < 1<<14 || workers() < 2 {
		slices.SortFunc(keys, cmp)
		return keys
	}
	first, second := keys[:len(keys)/2], keys[len(keys)/2:]
	sorted := goCatching(func() { slices.SortFunc(first, cmp) })
	slices.SortFunc(second, cmp)
	if r := sorted(); r != nil {
		panic(r)
	}
	merged := make([]T, 0, len(keys))
	for len(first) > 0 && len(second) > 0 {
		if cmp(second[0], first[0]) < 0 {
			merged, second = append(merged, second[0]), second[1:]
		} else {
			merged, first = append(merged, first[0]), first[1:]
		}
	}
	return append(append(merged, first...), second...)
}

// order: slots slowest first, then by id (a sort on small keys: a log of
// distinct cursors has as many as lines).
func (t *cursorTable) order() []int32 {
	keys := make([]orderKey, t.recs.len())
	for i := range keys {
		r := t.recs.at(int32(i))
		keys[i] = orderKey{r.stats[6], r.id, int32(i)}
	}
	keys = sortOnTwoCores(keys, slowerFirst)
	slots := make([]int32, len(keys))
	for i, k := range keys {
		slots[i] = k.slot
	}
	return slots
}

// formats: the FORMAT of a cursor by its flags, the formats of its lines.
var formats = [...]string{fJSON: "json", fText: "text", fJSON | fText: "json+text"}

func (t *cursorTable) timeText(tid, hms int32) (string, bool) {
	return t.clock.decode(tid, int64(hms))
}

var statFields = [7]string{`,"commands":`, `,"getMores":`, `,"nreturned":`, `,"docsExamined":`,
	`,"keysExamined":`, `,"bytesRead":`, `,"durationMillis":`}

// outputJSON: the rows as JSON Lines, formatted by every core a batch at a
// time and written in order.
func (t *cursorTable) outputJSON(out *bufio.Writer) {
	names := t.names.shared.names
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = jsonString(n)
	}
	slots := t.order()
	writeBatches(out, len(slots), func(b []byte, lo, hi int) []byte { return t.appendRows(b, slots[lo:hi], quoted) })
}

// touch loads both cache lines of each record of slots, with loads that do
// not wait on each other: slowest first is no order of memory, and the rows
// then format from cache (BenchmarkCursorsOutput on a log of distinct
// cursors, one core: 58 ms to 43-49 ms).
func (t *cursorTable) touch(slots []int32) uint32 {
	var touched int64
	for _, s := range slots {
		r := t.recs.at(s)
		touched |= r.id | int64(r.lastHms)
	}
	return uint32(touched)
}

func (t *cursorTable) appendRows(b []byte, slots []int32, quoted []string) []byte {
	var scratch []byte
	timeJSON := func(tid, hms int32) {
		if tid < 0 {
			b = append(b, "null"...)
			return
		}
		b, scratch = t.clock.appendTimeJSON(b, scratch, tid, int64(hms))
	}
	loaded.Store(t.touch(slots))
	for _, s := range slots {
		r := t.recs.at(s)
		b = append(b, `{"record":"cursor","cursorId":"`...)
		b = strconv.AppendInt(b, r.id, 10)
		b = append(b, `","ns":`...)
		b = append(b, quoted[r.ns]...)
		b = append(b, `,"originatingCommand":`...)
		if r.origin >= 0 {
			b = append(b, quoted[r.origin]...)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, `,"changeStream":`...)
		b = strconv.AppendBool(b, r.flags&fChangeStream != 0)
		for k, field := range statFields {
			b = append(b, field...)
			b = strconv.AppendInt(b, r.stats[k], 10)
		}
		b = append(b, `,"firstTime":`...)
		timeJSON(r.firstTid, r.firstHms)
		b = append(b, `,"lastTime":`...)
		timeJSON(r.lastTid, r.lastHms)
		b = append(append(append(b, `,"format":"`...), formats[r.flags&(fJSON|fText)]...), "\"}\n"...)
	}
	return b
}

// slowest: slots of the top slowest cursors (-1: every one), by a bounded
// heap for a few, so that the default table costs nothing per cursor.
func (t *cursorTable) slowest(top int) []int32 {
	if top < 0 || top >= t.recs.len() {
		return t.order()
	}
	keys := firstN(t.recs.len(), top, func(i int) orderKey {
		r := t.recs.at(int32(i))
		return orderKey{r.stats[6], r.id, int32(i)}
	}, slowerFirst)
	slots := make([]int32, len(keys))
	for i, k := range keys {
		slots[i] = k.slot
	}
	return slots
}

// nsSums: cursors.namespaces, per namespace: cursors, then the 7 stats.
type nsSums struct {
	ns   int32
	sums [1 + 7]int64
}

func (t *cursorTable) namespaces() []nsSums {
	at := map[int32]int{}
	var out []nsSums
	for i := 0; i < t.recs.len(); i++ {
		r := t.recs.at(int32(i))
		k, ok := at[r.ns]
		if !ok {
			k = len(out)
			at[r.ns] = k
			out = append(out, nsSums{ns: r.ns})
		}
		out[k].sums[0]++
		for j, v := range r.stats {
			out[k].sums[j+1] += v
		}
	}
	names := t.names.shared.names
	slices.SortFunc(out, func(a, b nsSums) int {
		if c := cmp.Compare(b.sums[7], a.sums[7]); c != 0 {
			return c
		}
		return cmp.Compare(names[a.ns], names[b.ns])
	})
	return out
}

func (t *cursorTable) outputTable(out *bufio.Writer, top int) {
	if t.recs.len() == 0 {
		return
	}
	names := t.names.shared.names
	perNs := t.namespaces()
	summary := planTable([]string{"NS", "CURSORS", "CMDS", "GETMORES", "NRETURNED", "DOCS EXAMINED", "KEYS EXAMINED",
		"BYTES READ", "MILLIS"}, map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true},
		func(emit func([]cell)) {
			for _, n := range perNs {
				s := n.sums
				emit([]cell{str(names[n.ns]), itoa(s[0]), itoa(s[1]), itoa(s[2]), itoa(s[3]), itoa(s[4]), itoa(s[5]),
					str(humanBytes(s[6])), itoa(s[7])})
			}
		})
	slots := t.slowest(top)
	timeCell := func(tid, hms int32) cell {
		if text, ok := t.timeText(tid, hms); ok {
			return str(text)
		}
		return nil
	}
	headers := []string{"CURSOR ID", "NS", "OPENED BY", "CMDS", "GETMORES", "NRETURNED", "DOCS EXAMINED",
		"KEYS EXAMINED", "BYTES READ", "MILLIS", "FIRST", "LAST", "FORMAT"}
	rows := planTable(headers, map[int]bool{0: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true},
		func(emit func([]cell)) {
			for _, s := range slots {
				r := t.recs.at(s)
				var opened cell
				if r.origin >= 0 {
					opened = str(names[r.origin])
				}
				if r.flags&fChangeStream != 0 {
					base := "aggregate"
					if opened != nil && *opened != "" {
						base = *opened
					}
					opened = str(base + "/$changeStream")
				}
				emit([]cell{itoa(r.id), str(names[r.ns]), opened, itoa(r.stats[0]), itoa(r.stats[1]),
					itoa(r.stats[2]), itoa(r.stats[3]), itoa(r.stats[4]), str(humanBytes(r.stats[5])), itoa(r.stats[6]),
					timeCell(r.firstTid, r.firstHms), timeCell(r.lastTid, r.lastHms), str(formats[r.flags&(fJSON|fText)])})
			}
		})
	fmt.Fprintf(out, "Per namespace (%d)\n", len(perNs))
	summary.write(out)
	out.WriteString("\n")
	rankedTable{"Cursors", "Slowest cursors", t.recs.len(), len(slots), rows}.write(out)
}
