package main

// Report `refresh`: routing table refreshes from JSON log lines, one row
// each, then a summary per namespace, as the Python engine's refresh module
// and logv2.refresh_event / format_version read them. Its JSON is Python's
// json.dumps (non-ASCII escaped), not orjson's.

import (
	"bufio"
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

var refreshFilters = [][]byte{
	[]byte("Refreshed cached collection"),
	[]byte("Error refreshing cached collection"),
	[]byte("found to be unsharded after refresh"),
	[]byte("Refresh for collection "),
	[]byte("ChunkManager: time to load chunks for "),
}

var refreshStatus = map[int64]int8{4619901: 0, 4619902: 1, 4619903: 2, 24104: 0, 24103: 2, 24105: 1}

var refreshSelection = (&selection{keys: map[string]*selection{
	"id": nil, "t": nil,
	"attr": {keys: map[string]*selection{
		"namespace": nil, "durationMillis": nil,
		"oldVersion": rawMember, "lookupSinceVersion": rawMember, "newVersion": rawMember,
	}},
}}).prepare()

// optString: a string or Python's None.
type optString struct {
	s  string
	ok bool
}

var statusNames = []string{"ok", "unsharded", "failed"}

// kindNames: the kind of a refresh (kind 0 is None: a failed or unsharded one).
var kindNames = []string{"", "full", "incremental"}

// An event's strings: its time, fromVersion and toVersion.
const (
	fTime = iota
	fFrom
	fTo
	nFields
)

// refreshEvent: one refresh, without pointers (a log of a million
// refreshes costs the collector nothing). Its strings are kept as one block
// in the part's text chunks: each as json.dumps writes it (what --json
// prints), then the plain text of those that json.dumps escapes (of the
// others the plain text is the quoted one without its quotes).
type refreshEvent struct {
	text          int64          // its block: chunk << 32 | offset
	quotedLen     [nFields]int32 // -1: None
	plainLen      [nFields]int32 // -1: inside the quoted text
	timeKey       int64          // unknownTime when the time is not ISO-8601
	logID, millis int64
	offset        int64
	ns, src       int32
	status, kind  int8
	fromText      bool // from a legacy text line: no log id
}

func (e *refreshEvent) seq() int64 { return int64(e.src)<<48 | e.offset }

type refreshState struct {
	src              int
	events           chunked[refreshEvent]
	order            []int32  // events slowest first (finish)
	keys             []uint64 // their sort keys, ascending
	text             [][]byte
	names            nameCache
	build            []byte  // formatVersion's text, before it is kept
	spare            []byte  // the fromVersion's, while the toVersion is built
	block            []byte  // the block being written
	lastFilter       int     // holdsFilter's
	members          members // readFast's
	shapes           shapes  // of the lines before, for readFast
	times            timeKeys
	fastOld, fastNew value
	bad              tally
	arena            arena
}

func newRefreshState(src int, names *interner) *refreshState {
	return &refreshState{src: src, names: nameCache{shared: names, local: map[string]int32{}}}
}

const textChunk = 1 << 20

// keep copies b into the text chunks (growing never copies them) and tells
// where: chunk << 32 | offset.
func (r *refreshState) keep(b []byte) int64 {
	last := len(r.text) - 1
	if last < 0 || len(r.text[last])+len(b) > cap(r.text[last]) {
		r.text = append(r.text, make([]byte, 0, max(textChunk, len(b))))
		last++
	}
	at := int64(last)<<32 | int64(len(r.text[last]))
	r.text[last] = append(r.text[last], b...)
	return at
}

// quoted: an event's string as json.dumps writes it, nil for None.
func (r *refreshState) quoted(e *refreshEvent, f int) []byte {
	if e.quotedLen[f] < 0 {
		return nil
	}
	at := e.text & 0xffffffff
	for g := 0; g < f; g++ {
		at += int64(max(e.quotedLen[g], 0))
	}
	return r.text[e.text>>32][at : at+int64(e.quotedLen[f])]
}

// plain: an event's string (a copy).
func (r *refreshState) plain(e *refreshEvent, f int) optString {
	if e.quotedLen[f] < 0 {
		return optString{}
	}
	if e.plainLen[f] < 0 {
		q := r.quoted(e, f)
		return optString{string(q[1 : len(q)-1]), true}
	}
	at := e.text & 0xffffffff
	for g := 0; g < nFields; g++ {
		at += int64(max(e.quotedLen[g], 0))
	}
	for g := 0; g < f; g++ {
		at += int64(max(e.plainLen[g], 0))
	}
	return optString{string(r.text[e.text>>32][at : at+int64(e.plainLen[f])]), true}
}

// holdsFilter: does line hold one of refreshFilters? The one the last line
// held is tried first: a log's refresh lines are of one kind or two, and a
// filter missed costs a search of the whole line.
func (r *refreshState) holdsFilter(line []byte) bool {
	if bytes.Contains(line, refreshFilters[r.lastFilter]) {
		return true
	}
	for i, f := range refreshFilters {
		if i != r.lastFilter && bytes.Contains(line, f) {
			r.lastFilter = i
			return true
		}
	}
	return false
}

func (r *refreshState) feed(offset int64, line []byte) {
	if !r.holdsFilter(line) {
		return
	}
	r.bad.matched++
	stripped, isJSON := jsonStart(line)
	if !isJSON {
		r.feedText(offset, line)
		return
	}
	got, ok := r.readFast(stripped)
	if !ok && !r.readSlow(stripped, offset, &got) {
		return
	}
	ev := refreshEvent{ns: r.names.id(got.ns), millis: got.millis, logID: got.id, status: got.status,
		src: int32(r.src), offset: offset, timeKey: r.timeKey(got.when)}
	from, fromAsIs := r.rawVersion(got.old)
	ev.kind = refreshKind(got.status, from)
	if got.inStore && !from.ok && got.status == 0 {
		ev.kind = 0 // a time in store without a version does not tell
	}
	r.build, r.spare = r.spare, r.build // from stays as it is while to is built
	to, toAsIs := r.rawVersion(got.new)
	r.record(ev, [nFields]optString{fTime: got.when, fFrom: from, fTo: to}, fromAsIs, toAsIs)
}

func (r *refreshState) timeKey(when optString) int64 {
	if !when.ok {
		return unknownTime
	}
	if !isASCII(when.s) {
		bail("a refresh time that is not ASCII")
	}
	return r.times.key(when.s)
}

// feedText reads a legacy text line (legacy.refresh_event).
func (r *refreshState) feedText(offset int64, line []byte) {
	parsed, ok := parseTextLine(view(line))
	if !ok {
		r.bad.skip(r.src, offset, notALogLine)
		return
	}
	got, ok, reason := refreshFromText(parsed.msg)
	if reason != "" {
		r.bad.skip(r.src, offset, reason)
	}
	if !ok {
		return
	}
	when := optString{parsed.ts, true}
	ev := refreshEvent{ns: r.names.id(validText(got.ns)), millis: smallValue(got.millis), src: int32(r.src),
		offset: offset, timeKey: r.timeKey(when), fromText: true}
	validText(got.from.s)
	validText(got.to.s)
	switch got.status {
	case textUnchanged:
		ev.kind = 2 // from a cached table
	case textOK:
		ev.kind = refreshKind(0, got.from)
		if !got.hasFrom {
			ev.kind = 0
		}
	default:
		ev.status = got.status
	}
	r.record(ev, [nFields]optString{fTime: when, fFrom: got.from, fTo: got.to}, pyAsIs(got.from.s), pyAsIs(got.to.s))
}

// record keeps an event and its strings.
func (r *refreshState) record(ev refreshEvent, fields [nFields]optString, fromAsIs, toAsIs bool) {
	// A time read as ISO-8601 has digits and "-:.+TZ" only (and maybe a
	// trailing newline, which is escaped).
	timeAsIs := ev.timeKey != unknownTime && !strings.HasSuffix(fields[fTime].s, "\n")
	asIs := [nFields]bool{fTime: timeAsIs, fFrom: fromAsIs, fTo: toAsIs}
	// The strings are escaped here, on the worker's core and while the line
	// is in cache; --json then only copies them.
	b := r.block[:0]
	for f, o := range fields {
		ev.quotedLen[f], ev.plainLen[f] = -1, -1
		if o.ok {
			at := len(b)
			if asIs[f] {
				b = append(append(append(b, '"'), o.s...), '"')
			} else {
				b = appendPyJSONString(b, o.s)
			}
			ev.quotedLen[f] = int32(len(b) - at)
		}
	}
	for f, o := range fields {
		if o.ok && int(ev.quotedLen[f]) != len(o.s)+2 {
			b = append(b, o.s...)
			ev.plainLen[f] = int32(len(o.s))
		}
	}
	r.block = b
	ev.text = r.keep(b)
	r.events.add(ev)
}

// refreshLine: what a refresh line gives its event.
type refreshLine struct {
	id, millis int64
	status     int8
	ns         string
	old, new   *value // the versions' JSON text (kRaw), nil when absent
	when       optString
	// inStore: old is a 5.0-era id 4619901's oldVersion, the cache's time in
	// store (logv2.refresh_event): without a version there the kind is unknown.
	inStore bool
}

// readSlow reads a line with the strict reader (logv2.refresh_event); false
// when it is no refresh event (an unparsable one is tallied).
func (r *refreshState) readSlow(line []byte, offset int64, got *refreshLine) bool {
	doc := parseLine(line, refreshSelection, &r.arena, &r.bad, r.src, offset)
	if doc == nil {
		return false
	}
	id := doc.get("id")
	if id == nil || id.k == kBool || id.k == kNull || id.k == kString {
		return false
	}
	if id.k != kInt {
		bail("a log id that is not a plain integer")
	}
	status, known := refreshStatus[id.i]
	if !known {
		return false
	}
	attr := doc.get("attr")
	if attr == nil || attr.k != kObject {
		r.bad.skip(r.src, offset, "refresh line without attr")
		return false
	}
	ns := attr.get("namespace")
	millis, none := asInt(attr.get("durationMillis"))
	if ns == nil || ns.k != kString || none {
		r.bad.skip(r.src, offset, "refresh line without namespace or durationMillis")
		return false
	}
	*got = refreshLine{id: id.i, millis: millis, status: status, ns: ns.s, old: attr.get("lookupSinceVersion"),
		new: attr.get("newVersion")}
	if id.i == 24104 {
		got.old = attr.get("oldVersion")
	} else if got.old == nil {
		got.old = attr.get("oldVersion")
		got.inStore = got.old != nil
	}
	if text, ok := docTime(doc); ok {
		got.when = optString{text, true}
	}
	return true
}

// readFast reads the common refresh line from what skipFast records while
// it checks the line, without the strict reader's second pass; false leaves
// the line to readSlow: anything but a valid line whose keys have no escape,
// with a plain integer id of a refresh, an attr object with a namespace
// string and a plain integer durationMillis, and a time as a string or
// {"$date": string}, strings without escapes.
func (r *refreshState) readFast(line []byte) (refreshLine, bool) {
	m := &r.members
	end, ok := r.shapes.skip(line, 0, m, true)
	if !ok || m.escaped || !utf8.Valid(line) {
		return refreshLine{}, false
	}
	for _, c := range line[end:] {
		if !isSpace(c) {
			return refreshLine{}, false
		}
	}
	text := func(i int32) []byte {
		start, end := m.value(i)
		return line[start:end]
	}
	plainString := func(v []byte) (string, bool) {
		if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
			return "", false
		}
		v = v[1 : len(v)-1]
		return unsafe.String(unsafe.SliceData(v), len(v)), true
	}
	id, attr := m.last(-1, "id", line), m.last(-1, "attr", line)
	if id < 0 || attr < 0 || text(attr)[0] != '{' {
		return refreshLine{}, false
	}
	var got refreshLine
	if got.id, ok = plainInt(text(id)); !ok {
		return refreshLine{}, false
	}
	if got.status, ok = refreshStatus[got.id]; !ok {
		return refreshLine{}, false
	}
	ns, millis := m.last(attr, "namespace", line), m.last(attr, "durationMillis", line)
	if ns < 0 || millis < 0 {
		return refreshLine{}, false
	}
	if got.ns, ok = plainString(text(ns)); !ok {
		return refreshLine{}, false
	}
	if got.millis, ok = plainInt(text(millis)); !ok || got.millis >= valueLimit || got.millis <= -valueLimit {
		return refreshLine{}, false
	}
	raw := func(v *value, key string) *value {
		at := m.last(attr, key, line)
		if at < 0 {
			return nil
		}
		t := text(at)
		*v = value{k: kRaw, s: unsafe.String(unsafe.SliceData(t), len(t))}
		return v
	}
	oldKey := "lookupSinceVersion"
	if got.id == 24104 {
		oldKey = "oldVersion"
	}
	got.old, got.new = raw(&r.fastOld, oldKey), raw(&r.fastNew, "newVersion")
	if got.old == nil && got.id != 24104 {
		got.old = raw(&r.fastOld, "oldVersion")
		got.inStore = got.old != nil
	}
	if t := m.last(-1, "t", line); t >= 0 {
		if text(t)[0] == '{' {
			if t = m.last(t, "$date", line); t < 0 {
				return refreshLine{}, false
			}
		}
		if got.when.s, got.when.ok = plainString(text(t)); !got.when.ok {
			return refreshLine{}, false
		}
	}
	return got, true
}

// plainInt: a JSON integer of at most 18 digits.
func plainInt(v []byte) (int64, bool) {
	digits := v
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if v[0] == '-' {
		n = -n
	}
	return n, true
}

// finish orders the part's events, on the worker's core.
func (r *refreshState) finish() { r.order, r.keys = r.slowestFirst() }

// slowestFirst: the events' indexes, longest durationMillis first, in input
// order among equals, and their keys (ascending): a stable radix sort on the
// bytes where the durations differ (a log of refreshes has as many events
// as lines).
func (r *refreshState) slowestFirst() ([]int32, []uint64) {
	n := r.events.len()
	keys, order := make([]uint64, n), make([]int32, n)
	var differ uint64
	for i := 0; i < n; i++ {
		// ascending keys for descending durations, the sign kept
		keys[i] = ^(uint64(r.events.at(int32(i)).millis) ^ 1<<63)
		order[i] = int32(i)
		differ |= keys[i] ^ keys[0]
	}
	spareKeys, spareOrder := make([]uint64, n), make([]int32, n)
	for shift := 0; shift < 64; shift += 8 {
		if differ>>shift&0xff == 0 {
			continue
		}
		var starts [257]int
		for _, k := range keys {
			starts[k>>shift&0xff+1]++
		}
		for d := 1; d < len(starts); d++ {
			starts[d] += starts[d-1]
		}
		for i, k := range keys {
			d := k >> shift & 0xff
			spareKeys[starts[d]], spareOrder[starts[d]] = k, order[i]
			starts[d]++
		}
		keys, spareKeys, order, spareOrder = spareKeys, keys, spareOrder, order
	}
	return order, keys
}

// pyStrip: str.strip() for ASCII text (its whitespace: \t\n\v\f\r, \x1c-\x1f, space).
func pyStrip(s string) string {
	if !isASCII(s) {
		bail("a version written as non-ASCII text")
	}
	return strings.TrimFunc(s, func(r rune) bool { return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f) })
}

// appendInt: "%s" of a value that should be an integer.
func appendInt(dst []byte, v *value) []byte {
	if v == nil || v.k != kInt {
		bail("a version part that is not a plain integer")
	}
	return strconv.AppendInt(dst, v.i, 10)
}

// rawVersion: formatVersion of a member kept as JSON text: the layout the
// servers write (ChunkVersion::toBSON as {"0":..,"1":..,"2":..}, alone or as
// ComparableChunkVersion's chunkVersion) read by position, anything else
// parsed and read by formatVersion. asIs: json.dumps would write the text
// as it is between quotes.
func (r *refreshState) rawVersion(raw *value) (version optString, asIs bool) {
	if raw == nil {
		return optString{}, false
	}
	text := raw.s
	if rest, ok := strings.CutPrefix(text, `{"chunkVersion":`); ok {
		if n, asIs, ok := r.chunkVersionAt(rest); ok && !strings.Contains(rest[n:], `"chunkVersion"`) {
			b := r.build
			return optString{unsafe.String(unsafe.SliceData(b), len(b)), true}, asIs
		}
	} else if n, asIs, ok := r.chunkVersionAt(text); ok && n == len(text) {
		b := r.build
		return optString{unsafe.String(unsafe.SliceData(b), len(b)), true}, asIs
	}
	v, err := parseDoc([]byte(text))
	if err != nil {
		bail("a version the line reader checked but cannot read again")
	}
	return r.formatVersion(v), false
}

// positiveInt: the digits of a JSON integer at s (no sign: "-0" is 0 for
// Python, so signed ones take the slow path), at most 18 of them.
func positiveInt(s string) (string, bool) {
	n := 0
	for n < len(s) && n < 19 && isDigit(s[n]) {
		n++
	}
	return s[:n], n > 0 && n <= 18
}

// chunkVersionAt reads {"0":{"$timestamp":{"t":T,"i":I}},"1":{"$oid":"E"}[,"2":{"$timestamp":{"t":T,"i":I}}]}
// at the start of s into r.build as format_version writes it; n is its
// length, asIs whether json.dumps writes the text as it is (its epoch is the
// only part that may need an escape).
func (r *refreshState) chunkVersionAt(s string) (n int, asIs, ok bool) {
	at := 0
	lit := func(want string) bool {
		if strings.HasPrefix(s[at:], want) {
			at += len(want)
			return true
		}
		return false
	}
	num := func() (string, bool) {
		digits, ok := positiveInt(s[at:])
		at += len(digits)
		return digits, ok
	}
	if !lit(`{"0":{"$timestamp":{"t":`) {
		return 0, false, false
	}
	t, ok := num()
	if !ok || !lit(`,"i":`) {
		return 0, false, false
	}
	i, ok := num()
	if !ok || !lit(`}},"1":{"$oid":"`) {
		return 0, false, false
	}
	end := strings.IndexByte(s[at:], '"')
	if end < 0 || strings.IndexByte(s[at:at+end], '\\') >= 0 {
		return 0, false, false
	}
	epoch := s[at : at+end]
	at += end
	if !lit(`"}`) {
		return 0, false, false
	}
	b := append(append(append(append(append(r.build[:0], t...), '|'), i...), "||"...), epoch...)
	if lit(`,"2":{"$timestamp":{"t":`) {
		t2, ok := num()
		if !ok || !lit(`,"i":`) {
			return 0, false, false
		}
		i2, ok := num()
		if !ok || !lit(`}}`) {
			return 0, false, false
		}
		b = append(append(append(append(append(b, "||Timestamp("...), t2...), ", "...), i2...), ')')
	}
	if !lit(`}`) {
		return 0, false, false
	}
	r.build = b
	return at, pyAsIs(epoch), true
}

// formatVersion: logv2.format_version (the text may be a view of the line
// or of r.build, valid until the next call).
func (r *refreshState) formatVersion(v *value) optString {
	if v == nil || v.k == kNull {
		return optString{}
	}
	if v.k == kString {
		text := strings.TrimPrefix(pyStrip(v.s), "from version ")
		return optString{text, text != ""}
	}
	if v.k == kObject && v.has("chunkVersion") {
		// ComparableChunkVersion::toBSONForLogging: "None" when it holds no version.
		if inner := v.get("chunkVersion"); inner.k != kString || inner.s != "None" {
			return r.formatVersion(inner)
		}
		return optString{}
	}
	var parts []*value
	switch {
	case v.k == kArray:
		parts = append(append(parts, v.vals...), nil, nil, nil)
	case v.k == kObject && v.has("0") && v.has("1"):
		parts = []*value{v.get("0"), v.get("1"), v.get("2")}
	case v.k == kObject && v.has("v") && v.has("e"):
		parts = []*value{v.get("v"), v.get("e"), v.get("t")}
	}
	if parts != nil {
		placement, epoch, stamp := parts[0], parts[1], parts[2]
		var ts *value
		if placement != nil && placement.k == kObject {
			ts = placement.get("$timestamp")
		}
		oid := epoch
		if epoch != nil && epoch.k == kObject {
			oid = epoch.get("$oid")
		}
		if ts != nil && ts.k == kObject && oid != nil && oid.k == kString {
			b := appendInt(r.build[:0], ts.get("t"))
			b = appendInt(append(b, '|'), ts.get("i"))
			b = append(append(b, "||"...), oid.s...)
			if stamp != nil && stamp.k == kObject {
				if extra := stamp.get("$timestamp"); extra != nil && extra.k == kObject {
					b = appendInt(append(b, "||Timestamp("...), extra.get("t"))
					b = append(appendInt(append(b, ", "...), extra.get("i")), ')')
				}
			}
			r.build = b
			return optString{unsafe.String(unsafe.SliceData(b), len(b)), true}
		}
	}
	bail("a version in a form written as sorted JSON")
	return optString{}
}

// refreshAll: the parts of every file, in input order, kept as they are
// (a log of refreshes has as many events as lines: no merge copies them).
type refreshAll struct {
	parts []*refreshState
	bad   tally
	names *interner
}

func (a *refreshAll) add(p *refreshState) {
	a.bad.merge(&p.bad)
	a.parts = append(a.parts, p)
}

func (a *refreshAll) found() bool {
	for _, p := range a.parts {
		if p.events.len() > 0 {
			return true
		}
	}
	return false
}

// at: the event of a reference (part << 32 | index) and its part.
func (a *refreshAll) at(ref int64) (*refreshState, *refreshEvent) {
	p := a.parts[ref>>32]
	return p, p.events.at(int32(ref))
}

const unshardedPrefix = "0|0||000000000000000000000000"

// isUnshardedVersion: ChunkVersion::UNSHARDED(), 0|0 with a zero epoch.
func isUnshardedVersion(text string) bool {
	rest, ok := strings.CutPrefix(text, unshardedPrefix)
	return ok && (rest == "" || rest == "\n" || strings.HasPrefix(rest, "||"))
}

// refreshKind: a successful refresh is full when it started from nothing.
func refreshKind(status int8, from optString) int8 {
	switch {
	case status != 0:
		return 0
	case !from.ok || isUnshardedVersion(from.s) || from.s == "(empty)":
		return 1
	}
	return 2
}

type refreshSummary struct {
	namespace                   string
	refreshes, failed, min, max int64
	median                      pyNum
	firstVersion, lastVersion   optString
	firstTime, lastTime         optString
	format                      string // of its events: json, text or json+text
}

func eventFormat(e *refreshEvent) string {
	if e.fromText {
		return "text"
	}
	return "json"
}

// pyMedian: common.median (the mean of the middle two for an even count).
func pyMedian(values []int64) pyNum {
	ordered := slices.Clone(values)
	slices.Sort(ordered)
	n := len(ordered)
	if n%2 == 1 {
		return pyNum{i: ordered[n/2]}
	}
	a, b := ordered[n/2-1], ordered[n/2]
	checkExact(a)
	checkExact(b)
	v := (float64(a) + float64(b)) / 2
	if v == float64(int64(v)) {
		return pyNum{i: int64(v)}
	}
	return pyNum{isFloat: true, f: v}
}

// earlierRefresh: the summary's order within a namespace, by time where
// the line has an ISO-8601 one (those first), then by place in the input.
func earlierRefresh(a, b *refreshEvent) bool {
	aUnknown, bUnknown := a.timeKey == unknownTime, b.timeKey == unknownTime
	if aUnknown != bUnknown {
		return !aUnknown
	}
	if a.timeKey != b.timeKey {
		return a.timeKey < b.timeKey
	}
	return a.seq() < b.seq()
}

// slowestFirst: the top events (-1: every one) as references (part << 32 |
// index), longest first, in input order among equals: the parts' orders
// merged by their keys, through a heap of the parts' heads (stdin makes a
// part per range, 20 and more for a big log; a scan of every head per
// event cost 0.62 s against 0.38 s for the table on 310k refreshes).
func (a *refreshAll) slowestFirst(top int) []int64 {
	total := 0
	for _, p := range a.parts {
		total += len(p.order)
	}
	total = shownOf(top, total)
	refs := make([]int64, 0, total)
	heads := make([]int, len(a.parts))
	// before: part i's head comes first (the smaller key; the earlier part
	// among equal keys, as input order wants).
	before := func(i, j int) bool {
		ki, kj := a.parts[i].keys[heads[i]], a.parts[j].keys[heads[j]]
		return ki < kj || ki == kj && i < j
	}
	heap := make([]int, 0, len(a.parts))
	down := func(at int) {
		for {
			least, l := at, 2*at+1
			if l < len(heap) && before(heap[l], heap[least]) {
				least = l
			}
			if r := l + 1; r < len(heap) && before(heap[r], heap[least]) {
				least = r
			}
			if least == at {
				return
			}
			heap[at], heap[least] = heap[least], heap[at]
			at = least
		}
	}
	for pi, p := range a.parts {
		if len(p.keys) > 0 {
			heap = append(heap, pi)
		}
	}
	for at := len(heap)/2 - 1; at >= 0; at-- {
		down(at)
	}
	for len(refs) < total {
		best := heap[0]
		refs = append(refs, int64(best)<<32|int64(a.parts[best].order[heads[best]]))
		heads[best]++
		if heads[best] == len(a.parts[best].keys) {
			heap[0] = heap[len(heap)-1]
			heap = heap[:len(heap)-1]
		}
		down(0)
	}
	return refs
}

// summaries: one per namespace.
func (a *refreshAll) summaries() []refreshSummary {
	type group struct {
		first, last int64
		fe, le      *refreshEvent
		members     []int64 // durations
		failed      int64
		seen        bool
		formats     int32 // fJSON, fText: its events'
	}
	var order []int32
	groups := make([]group, len(a.names.names))
	for pi, p := range a.parts {
		for i := 0; i < p.events.len(); i++ {
			ref := int64(pi)<<32 | int64(i)
			e := p.events.at(int32(i))
			g := &groups[e.ns]
			if !g.seen {
				*g = group{first: ref, last: ref, fe: e, le: e, seen: true}
				order = append(order, e.ns)
			}
			g.members = append(g.members, e.millis)
			if e.status == 2 {
				g.failed++
			}
			if e.fromText {
				g.formats |= fText
			} else {
				g.formats |= fJSON
			}
			if earlierRefresh(e, g.fe) {
				g.first, g.fe = ref, e
			}
			if earlierRefresh(g.le, e) {
				g.last, g.le = ref, e
			}
		}
	}
	names := a.names.names
	summaries := make([]refreshSummary, 0, len(order))
	for _, ns := range order {
		g := &groups[ns]
		fp, first := a.at(g.first)
		lp, last := a.at(g.last)
		s := refreshSummary{namespace: names[ns], refreshes: int64(len(g.members)), failed: g.failed,
			min: slices.Min(g.members), max: slices.Max(g.members), median: pyMedian(g.members)}
		s.firstVersion = fp.plain(first, fFrom)
		if !s.firstVersion.ok {
			s.firstVersion = fp.plain(first, fTo)
		}
		s.lastVersion, s.firstTime, s.lastTime = lp.plain(last, fTo), fp.plain(first, fTime), lp.plain(last, fTime)
		s.format = formats[g.formats]
		summaries = append(summaries, s)
	}
	slices.SortFunc(summaries, func(x, y refreshSummary) int {
		if c := cmp.Compare(y.max, x.max); c != 0 {
			return c
		}
		return cmp.Compare(x.namespace, y.namespace)
	})
	return summaries
}

func appendOpt(dst []byte, o optString) []byte {
	if !o.ok {
		return append(dst, "null"...)
	}
	return appendPyJSONString(dst, o.s)
}

func optCell(o optString) cell {
	if !o.ok {
		return nil
	}
	return str(o.s)
}

// appendEvent: one refresh record as json.dumps writes it.
func (a *refreshAll) appendEvent(b []byte, ref int64, quotedNames, quotedFiles [][]byte) []byte {
	r, e := a.at(ref)
	optional := func(b, q []byte) []byte {
		if q == nil {
			return append(b, "null"...)
		}
		return append(b, q...)
	}
	b = append(b, `{"record":"refresh","time":`...)
	b = optional(b, r.quoted(e, fTime))
	b = append(b, `,"namespace":`...)
	b = append(b, quotedNames[e.ns]...)
	b = append(b, `,"fromVersion":`...)
	b = optional(b, r.quoted(e, fFrom))
	b = append(b, `,"toVersion":`...)
	b = optional(b, r.quoted(e, fTo))
	b = append(b, `,"kind":`...)
	if e.kind == 0 {
		b = append(b, "null"...)
	} else {
		b = append(append(append(b, '"'), kindNames[e.kind]...), '"')
	}
	b = append(b, `,"durationMillis":`...)
	b = strconv.AppendInt(b, e.millis, 10)
	b = append(b, `,"status":"`...)
	b = append(b, statusNames[e.status]...)
	b = append(b, `","logId":`...)
	if e.fromText {
		b = append(b, `null,"format":"text","file":`...)
	} else {
		b = strconv.AppendInt(b, e.logID, 10)
		b = append(b, `,"format":"json","file":`...)
	}
	b = append(b, quotedFiles[e.src]...)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, e.offset, 10)
	return append(b, "}\n"...)
}

// touch loads the events of refs and every cache line of their quoted
// strings, with loads that do not wait on each other: the events come in no
// order of memory, and the rows of a batch then format from cache
// (BenchmarkRefreshOutput on a log of refreshes, one core: 53 ms to 45-48
// ms). The block of an event whose strings are all None is empty, and may
// end its chunk.
func (a *refreshAll) touch(refs []int64) uint32 {
	var touched uint32
	for _, ref := range refs {
		p, e := a.at(ref)
		n := int(max(e.quotedLen[0], 0) + max(e.quotedLen[1], 0) + max(e.quotedLen[2], 0))
		if n == 0 {
			continue
		}
		block := p.text[e.text>>32][e.text&0xffffffff:][:n]
		for k := 0; k < n; k += 64 {
			touched |= uint32(block[k])
		}
		touched |= uint32(block[n-1])
	}
	return touched
}

func (a *refreshAll) output(out *bufio.Writer, asJSON bool, top int, files []string) {
	if asJSON {
		top = -1
	}
	slowest := a.slowestFirst(top)
	names := a.names.names
	if asJSON {
		// The summaries come last: they are made while the events are written.
		var summaries []refreshSummary
		made := goCatching(func() { summaries = a.summaries() })
		quotedNames := make([][]byte, len(names))
		for i, n := range names {
			quotedNames[i] = appendPyJSONString(nil, n)
		}
		quotedFiles := make([][]byte, len(files))
		for i, f := range files {
			quotedFiles[i] = appendPyJSONString(nil, f)
		}
		writeBatches(out, len(slowest), func(b []byte, lo, hi int) []byte {
			loaded.Store(a.touch(slowest[lo:hi]))
			for _, ref := range slowest[lo:hi] {
				b = a.appendEvent(b, ref, quotedNames, quotedFiles)
			}
			return b
		})
		if r := made(); r != nil {
			panic(r)
		}
		var b []byte
		for _, s := range summaries {
			b = append(b[:0], `{"record":"namespace","namespace":`...)
			b = appendPyJSONString(b, s.namespace)
			for _, f := range []struct {
				key string
				n   int64
			}{{"refreshes", s.refreshes}, {"failed", s.failed}, {"minMillis", s.min}} {
				b = append(b, `,"`+f.key+`":`...)
				b = strconv.AppendInt(b, f.n, 10)
			}
			b = append(b, `,"medianMillis":`...)
			b = append(b, s.median.String()...)
			b = append(b, `,"maxMillis":`...)
			b = strconv.AppendInt(b, s.max, 10)
			b = append(b, `,"firstVersion":`...)
			b = appendOpt(b, s.firstVersion)
			b = append(b, `,"lastVersion":`...)
			b = appendOpt(b, s.lastVersion)
			b = append(b, `,"firstTime":`...)
			b = appendOpt(b, s.firstTime)
			b = append(b, `,"lastTime":`...)
			b = appendOpt(b, s.lastTime)
			b = append(append(append(b, `,"format":"`...), s.format...), "\"}\n"...)
			out.Write(b)
		}
		return
	}
	if len(slowest) == 0 {
		return
	}
	summaries := a.summaries()
	summary := planTable([]string{"NAMESPACE", "REFRESHES", "FAILED", "MIN MS", "MEDIAN MS", "MAX MS", "FIRST VERSION",
		"LAST VERSION", "FORMAT"}, map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true}, func(emit func([]cell)) {
		for _, s := range summaries {
			emit([]cell{str(s.namespace), itoa(s.refreshes), itoa(s.failed), itoa(s.min), str(s.median.String()),
				itoa(s.max), optCell(s.firstVersion), optCell(s.lastVersion), str(s.format)})
		}
	})
	rows := planTable([]string{"TIME", "NAMESPACE", "FROM VERSION", "TO VERSION", "KIND", "MILLIS", "STATUS", "FORMAT"},
		map[int]bool{5: true}, func(emit func([]cell)) {
			for _, ref := range slowest {
				r, e := a.at(ref)
				kind := cell(nil)
				if e.kind != 0 {
					kind = str(kindNames[e.kind])
				}
				emit([]cell{optCell(r.plain(e, fTime)), str(names[e.ns]), optCell(r.plain(e, fFrom)),
					optCell(r.plain(e, fTo)), kind, itoa(e.millis), str(statusNames[e.status]), str(eventFormat(e))})
			}
		})
	out.WriteString("Per namespace (" + strconv.Itoa(len(summaries)) + ")\n")
	summary.write(out)
	out.WriteString("\n")
	rankedTable{"Routing table refreshes", "Slowest routing table refreshes", a.events(), len(slowest), rows}.write(out)
}

func (a *refreshAll) events() int {
	n := 0
	for _, p := range a.parts {
		n += p.events.len()
	}
	return n
}
