package main

// Report `refresh`: routing table refreshes from JSON log lines, one row
// each, then a summary per namespace, as the Python engine's refresh module
// and logv2.refresh_event / format_version read them. Its JSON is Python's
// json.dumps (non-ASCII escaped), not orjson's.

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
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

// span: a string kept in a state's text buffer; n < 0 is None. Events hold
// no pointer, so a log of a million refreshes costs the collector nothing.
type span struct {
	at int64
	n  int32
}

var statusNames = []string{"ok", "unsharded", "failed"}

type refreshEvent struct {
	time, from, to span
	timeKey        int64 // unknownTime when the time is not ISO-8601
	ns             int32
	status         int8
	logID, millis  int64
	src            int32
	offset, seq    int64
}

type refreshState struct {
	src    int
	events chunked[refreshEvent]
	text   [][]byte
	names  nameCache
	build  []byte // formatVersion's text, before keep copies it
	bad    tally
	arena  arena
}

func newRefreshState(src int, names *interner) *refreshState {
	return &refreshState{src: src, names: nameCache{shared: names, local: map[string]int32{}}}
}

const textChunk = 1 << 20

// keep copies a string into the text chunks (growing never copies them);
// its span's at is chunk << 32 | offset.
func (r *refreshState) keep(o optString) span {
	if !o.ok {
		return span{n: -1}
	}
	last := len(r.text) - 1
	if last < 0 || len(r.text[last])+len(o.s) > cap(r.text[last]) {
		r.text = append(r.text, make([]byte, 0, max(textChunk, len(o.s))))
		last++
	}
	at := int64(last)<<32 | int64(len(r.text[last]))
	r.text[last] = append(r.text[last], o.s...)
	return span{at, int32(len(o.s))}
}

func (r *refreshState) bytes(sp span) []byte {
	chunk, off := sp.at>>32, sp.at&0xffffffff
	return r.text[chunk][off : off+int64(sp.n)]
}

func (r *refreshState) get(sp span) optString {
	if sp.n < 0 {
		return optString{}
	}
	return optString{string(r.bytes(sp)), true}
}

func (r *refreshState) feed(offset int64, line []byte) {
	counted := false
	for _, f := range refreshFilters {
		if bytes.Contains(line, f) {
			counted = true
			break
		}
	}
	if !counted {
		return
	}
	r.bad.matched++
	doc := parseLine(jsonLine(line), refreshSelection, &r.arena, &r.bad, r.src, offset)
	if doc == nil {
		return
	}
	id := doc.get("id")
	if id == nil || id.k == kBool || id.k == kNull || id.k == kString {
		return
	}
	if id.k != kInt {
		bail("a log id that is not a plain integer")
	}
	status, known := refreshStatus[id.i]
	if !known {
		return
	}
	attr := doc.get("attr")
	if attr == nil || attr.k != kObject {
		r.bad.skip(r.src, offset, "refresh line without attr")
		return
	}
	ns := attr.get("namespace")
	millis, none := asInt(attr.get("durationMillis"))
	if ns == nil || ns.k != kString || none {
		r.bad.skip(r.src, offset, "refresh line without namespace or durationMillis")
		return
	}
	old := attr.get("lookupSinceVersion")
	if id.i == 24104 {
		old = attr.get("oldVersion")
	}
	ev := refreshEvent{ns: r.names.id(ns.s), millis: millis, logID: id.i, status: status, src: int32(r.src),
		offset: offset, seq: int64(r.src)<<48 | offset, timeKey: unknownTime}
	ev.from = r.keep(r.rawVersion(old))
	ev.to = r.keep(r.rawVersion(attr.get("newVersion")))
	if text, ok := docTime(doc); ok {
		if !isASCII(text) {
			bail("a refresh time that is not ASCII")
		}
		ev.time = r.keep(optString{text, true})
		ev.timeKey = timeKey(text)
	} else {
		ev.time = span{n: -1}
	}
	r.events.add(ev)
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
// parsed and read by formatVersion.
func (r *refreshState) rawVersion(raw *value) optString {
	if raw == nil {
		return optString{}
	}
	text := raw.s
	if rest, ok := strings.CutPrefix(text, `{"chunkVersion":`); ok {
		if n, ok := r.chunkVersionAt(rest); ok && !strings.Contains(rest[n:], `"chunkVersion"`) {
			b := r.build
			return optString{unsafe.String(unsafe.SliceData(b), len(b)), true}
		}
	} else if n, ok := r.chunkVersionAt(text); ok && n == len(text) {
		b := r.build
		return optString{unsafe.String(unsafe.SliceData(b), len(b)), true}
	}
	v, err := parseDoc([]byte(text))
	if err != nil {
		bail("a version the line reader checked but cannot read again")
	}
	return r.formatVersion(v)
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
// at the start of s into r.build as format_version writes it; n is its length.
func (r *refreshState) chunkVersionAt(s string) (int, bool) {
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
		return 0, false
	}
	t, ok := num()
	if !ok || !lit(`,"i":`) {
		return 0, false
	}
	i, ok := num()
	if !ok || !lit(`}},"1":{"$oid":"`) {
		return 0, false
	}
	end := strings.IndexAny(s[at:], `"\`)
	if end < 0 || s[at+end] != '"' {
		return 0, false
	}
	epoch := s[at : at+end]
	at += end
	if !lit(`"}`) {
		return 0, false
	}
	b := append(append(append(append(append(r.build[:0], t...), '|'), i...), "||"...), epoch...)
	if lit(`,"2":{"$timestamp":{"t":`) {
		t2, ok := num()
		if !ok || !lit(`,"i":`) {
			return 0, false
		}
		i2, ok := num()
		if !ok || !lit(`}}`) {
			return 0, false
		}
		b = append(append(append(append(append(b, "||Timestamp("...), t2...), ", "...), i2...), ')')
	}
	if !lit(`}`) {
		return 0, false
	}
	r.build = b
	return at, true
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
		return r.formatVersion(v.get("chunkVersion"))
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

// isUnshardedVersion: ChunkVersion::UNSHARDED(), 0|0 with a zero epoch.
func isUnshardedVersion(text string) bool {
	rest, ok := strings.CutPrefix(text, "0|0||"+strings.Repeat("0", 24))
	return ok && (rest == "" || rest == "\n" || strings.HasPrefix(rest, "||"))
}

func (r *refreshState) kind(e *refreshEvent) optString {
	if e.status != 0 {
		return optString{}
	}
	var start optString
	if e.from.n >= 0 {
		b := r.bytes(e.from)
		start = optString{unsafe.String(unsafe.SliceData(b), len(b)), true}
	}
	if !start.ok || isUnshardedVersion(start.s) || start.s == "(empty)" {
		return optString{"full", true}
	}
	return optString{"incremental", true}
}

type refreshSummary struct {
	namespace                   string
	refreshes, failed, min, max int64
	median                      pyNum
	firstVersion, lastVersion   optString
	firstTime, lastTime         optString
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
	return a.seq < b.seq
}

// rows: the events slowest first (references), and the per-namespace summaries.
// slowestFirst: every event's reference, slowest first, then in input order.
func (a *refreshAll) slowestFirst() []int64 {
	var keys []orderKey
	var refs []int64
	for pi, p := range a.parts {
		for i := 0; i < p.events.len(); i++ {
			e := p.events.at(int32(i))
			keys = append(keys, orderKey{millis: e.millis, id: e.seq, slot: int32(len(refs))})
			refs = append(refs, int64(pi)<<32|int64(i))
		}
	}
	sortSlowestFirst(keys)
	sorted := make([]int64, len(keys))
	for i, k := range keys {
		sorted[i] = refs[k.slot]
	}
	return sorted
}

// rows: the events slowest first (references, sorted on another core
// meanwhile), and the per-namespace summaries.
func (a *refreshAll) rows() ([]int64, []refreshSummary) {
	done := make(chan []int64, 1)
	go func() { done <- a.slowestFirst() }()
	type group struct {
		first, last int64
		fe, le      *refreshEvent
		members     []int64 // durations
		failed      int64
		seen        bool
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
		s.firstVersion = fp.get(first.from)
		if !s.firstVersion.ok {
			s.firstVersion = fp.get(first.to)
		}
		s.lastVersion, s.firstTime, s.lastTime = lp.get(last.to), fp.get(first.time), lp.get(last.time)
		summaries = append(summaries, s)
	}
	slices.SortFunc(summaries, func(x, y refreshSummary) int {
		if c := cmp.Compare(y.max, x.max); c != 0 {
			return c
		}
		return cmp.Compare(x.namespace, y.namespace)
	})
	return <-done, summaries
}

// appendPyJSONString: json.dumps of a str (ensure_ascii: every character
// outside ' '..'~' escaped, beyond the BMP as a surrogate pair).
func appendPyJSONString[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && !needsPyEscape8(s[i:i+8]) {
			i += 8
			continue
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscape(c); e != 0 {
			dst = append(dst, '\\', e)
			i++
		} else if c < 0x80 {
			dst = appendU4(dst, rune(c))
			i++
		} else {
			r, size := utf8.DecodeRune([]byte(string(s[i:min(i+4, len(s))])))
			if r >= 0x10000 {
				hi, lo := utf16.EncodeRune(r)
				dst = appendU4(appendU4(dst, hi), lo)
			} else {
				dst = appendU4(dst, r)
			}
			i += size
		}
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// needsPyEscape8: does one of these eight bytes need an escape (a control
// character, '"', '\\', DEL or non-ASCII)?
func needsPyEscape8[T string | []byte](s T) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := binary.LittleEndian.Uint64([]byte(s[:8]))
	q := w ^ (ones * '"')
	e := w ^ (ones * '\\')
	d := w ^ (ones * 0x7f)
	m := ((w - ones*0x20) & ^w) | ((q - ones) & ^q) | ((e - ones) & ^e) | ((d - ones) & ^d) | w
	return m&highs != 0
}

func appendU4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexdigits[r>>12&15], hexdigits[r>>8&15], hexdigits[r>>4&15], hexdigits[r&15])
}

func appendOpt(dst []byte, o optString) []byte {
	if !o.ok {
		return append(dst, "null"...)
	}
	return appendPyJSONString(dst, o.s)
}

func (r *refreshState) appendSpan(dst []byte, sp span) []byte {
	if sp.n < 0 {
		return append(dst, "null"...)
	}
	return appendPyJSONString(dst, r.bytes(sp))
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
	b = append(b, `{"record":"refresh","time":`...)
	b = r.appendSpan(b, e.time)
	b = append(b, `,"namespace":`...)
	b = append(b, quotedNames[e.ns]...)
	b = append(b, `,"fromVersion":`...)
	b = r.appendSpan(b, e.from)
	b = append(b, `,"toVersion":`...)
	b = r.appendSpan(b, e.to)
	b = append(b, `,"kind":`...)
	b = appendOpt(b, r.kind(e))
	b = append(b, `,"durationMillis":`...)
	b = strconv.AppendInt(b, e.millis, 10)
	b = append(b, `,"status":"`...)
	b = append(b, statusNames[e.status]...)
	b = append(b, `","logId":`...)
	b = strconv.AppendInt(b, e.logID, 10)
	b = append(b, `,"format":"json","file":`...)
	b = append(b, quotedFiles[e.src]...)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, e.offset, 10)
	return append(b, "}\n"...)
}

func (a *refreshAll) output(out *bufio.Writer, asJSON bool, files []string) {
	slowest, summaries := a.rows()
	names := a.names.names
	if asJSON {
		quotedNames := make([][]byte, len(names))
		for i, n := range names {
			quotedNames[i] = appendPyJSONString(nil, n)
		}
		quotedFiles := make([][]byte, len(files))
		for i, f := range files {
			quotedFiles[i] = appendPyJSONString(nil, f)
		}
		writeBatches(out, len(slowest), func(b []byte, lo, hi int) []byte {
			for _, ref := range slowest[lo:hi] {
				b = a.appendEvent(b, ref, quotedNames, quotedFiles)
			}
			return b
		})
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
			b = append(b, `,"format":"json"}`+"\n"...)
			out.Write(b)
		}
		return
	}
	if len(slowest) == 0 {
		return
	}
	body := make([][]cell, 0, len(slowest))
	for _, ref := range slowest {
		r, e := a.at(ref)
		body = append(body, []cell{optCell(r.get(e.time)), str(names[e.ns]), optCell(r.get(e.from)),
			optCell(r.get(e.to)), optCell(r.kind(e)), itoa(e.millis), str(statusNames[e.status]), str("json")})
	}
	nsBody := make([][]cell, 0, len(summaries))
	for _, s := range summaries {
		nsBody = append(nsBody, []cell{str(s.namespace), itoa(s.refreshes), itoa(s.failed), itoa(s.min),
			str(s.median.String()), itoa(s.max), optCell(s.firstVersion), optCell(s.lastVersion), str("json")})
	}
	first := renderTable([]string{"TIME", "NAMESPACE", "FROM VERSION", "TO VERSION", "KIND", "MILLIS", "STATUS", "FORMAT"},
		body, map[int]bool{5: true})
	second := renderTable([]string{"NAMESPACE", "REFRESHES", "FAILED", "MIN MS", "MEDIAN MS", "MAX MS", "FIRST VERSION",
		"LAST VERSION", "FORMAT"}, nsBody, map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true})
	out.WriteString("Routing table refreshes (" + strconv.Itoa(len(slowest)) + ")\n" + first + "\n\n")
	out.WriteString("Per namespace (" + strconv.Itoa(len(summaries)) + ")\n" + second + "\n")
}
