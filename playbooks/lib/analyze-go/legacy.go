package main

// Legacy text logs (2.2 to 4.2): legacy.py's regexes written out by hand,
// each with the regex's semantics (backtracking included) and no regexp on
// the hot path. The Python engine matches a line decoded as UTF-8 with
// errors replaced: its \d, \w and \s are Unicode's. A byte that is not
// UTF-8 becomes U+FFFD there and RuneError here, which no class matches in
// either; a Unicode digit where \d is tried hands the run over (Python
// would read it as a digit, and int() of it as its value); \w and \s take
// Go's tables for Python's (the same categories). The fields are views of
// the line, never copies.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// textLine: the groups of legacy.TEXT_LINE; sev and comp are "" when the
// line has none (2.2 to 2.6).
type textLine struct {
	ts, sev, comp, ctx, msg string
}

// digitAt: does \d match at s[i] (an ASCII digit)? A Unicode digit there
// hands the run over. Small enough to inline: the hot path of every line.
func digitAt(s string, i int) bool {
	if uint(i) >= uint(len(s)) {
		return false
	}
	c := s[i]
	if c >= utf8.RuneSelf {
		unicodeDigit(s, i)
	}
	return c-'0' < 10
}

func unicodeDigit(s string, i int) {
	if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsDigit(r) {
		bail("a Unicode digit in a text log line")
	}
}

// digitRun: the end of the run of \d that starts at i.
func digitRun(s string, i int) int {
	for digitAt(s, i) {
		i++
	}
	return i
}

// wordEnd: the end of the run of [\w$] that starts at i (Python's \w: letters,
// numbers and _ in Unicode's sense).
func wordEnd(s string, i int, dollar bool) int {
	want := uint8(1)
	if dollar {
		want = 3
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiWord[c]&want != 0 {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return i
		}
		i += n
	}
	return i
}

// asciiWord: 1 for the ASCII bytes of \w, 2 for $ (a command name's).
var asciiWord = func() (t [utf8.RuneSelf]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			t[c] = 1
		}
	}
	t['$'] = 2
	return t
}()

func upperAt(s string, i int) bool        { return i < len(s) && s[i] >= 'A' && s[i] <= 'Z' }
func lowerAt(s string, i int) bool        { return i < len(s) && s[i] >= 'a' && s[i] <= 'z' }
func byteAt(s string, i int, c byte) bool { return i < len(s) && s[i] == c }

func spacesFrom(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// textTime: the length of legacy.TIME matched at the start of s, 0 if none.
// Either layout is deterministic: a shorter fraction, zone or day leaves a
// digit or sign where the head needs a space.
func textTime(s string) int {
	if digitAt(s, 0) {
		for _, i := range [...]int{1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18} {
			if !digitAt(s, i) {
				return 0
			}
		}
		if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
			return 0
		}
		i := fraction(s, 19)
		switch {
		case byteAt(s, i, 'Z'):
			i++
		case byteAt(s, i, '+') || byteAt(s, i, '-'):
			if digitAt(s, i+1) && digitAt(s, i+2) {
				j := i + 3
				if byteAt(s, j, ':') && digitAt(s, j+1) && digitAt(s, j+2) {
					i = j + 3
				} else if digitAt(s, j) && digitAt(s, j+1) {
					i = j + 2
				}
			}
		}
		return i
	}
	if !upperAt(s, 0) || !lowerAt(s, 1) || !lowerAt(s, 2) || !byteAt(s, 3, ' ') || !upperAt(s, 4) ||
		!lowerAt(s, 5) || !lowerAt(s, 6) || !byteAt(s, 7, ' ') {
		return 0
	}
	i := spacesFrom(s, 8)
	if !digitAt(s, i) {
		return 0
	}
	i++
	if digitAt(s, i) {
		i++
	}
	if !byteAt(s, i, ' ') || !digitAt(s, i+1) || !digitAt(s, i+2) || !byteAt(s, i+3, ':') || !digitAt(s, i+4) ||
		!digitAt(s, i+5) || !byteAt(s, i+6, ':') || !digitAt(s, i+7) || !digitAt(s, i+8) {
		return 0
	}
	return fraction(s, i+9)
}

// fraction: after (?:\.\d+)? at i.
func fraction(s string, i int) int {
	if byteAt(s, i, '.') && digitAt(s, i+1) {
		return digitRun(s, i+1)
	}
	return i
}

// context: ` +\[(?P<ctx>[^\]]*)\] ` at i: the context and where the message
// starts. [^\]]* stops at the first ], which must be followed by a space.
func context(s string, i int) (string, int, bool) {
	j := spacesFrom(s, i)
	if j == i || !byteAt(s, j, '[') {
		return "", 0, false
	}
	end := strings.IndexByte(s[j+1:], ']')
	if end < 0 || !byteAt(s, j+1+end+1, ' ') {
		return "", 0, false
	}
	return s[j+1 : j+1+end], j + end + 3, true
}

// parseTextLine: legacy.TEXT_LINE.match(line). The optional
// `(?: +sev +comp)?` is tried first, then the line without it, as the regex
// backtracks.
func parseTextLine(line string) (textLine, bool) {
	n := textTime(line)
	if n == 0 {
		return textLine{}, false
	}
	if i := spacesFrom(line, n); i > n && i < len(line) && strings.IndexByte("FEWID", line[i]) >= 0 {
		sev := i
		i++
		if digitAt(line, i) {
			i++
		}
		sevEnd := i
		if j := spacesFrom(line, i); j > i {
			k := j
			if byteAt(line, k, '-') {
				k++
			} else {
				for upperAt(line, k) || byteAt(line, k, '_') {
					k++
				}
			}
			if k > j {
				if ctx, msg, ok := context(line, k); ok {
					return textLine{line[:n], line[sev:sevEnd], line[j:k], ctx, line[msg:]}, true
				}
			}
		}
	}
	if ctx, msg, ok := context(line, n); ok {
		return textLine{ts: line[:n], ctx: ctx, msg: line[msg:]}, true
	}
	return textLine{}, false
}

// slowOps: SLOW_OP's operations, each with the space after it.
var slowOps = [...]string{"command ", "query ", "getmore ", "update ", "remove ", "insert "}

// slowOp: legacy.slow_op: SLOW_OP.match(msg), body with its leading space.
// ns is \S+ (a run of non-white space, then a space); body and ms are what
// the greedy `(?P<body>.*) (?P<ms>\d+)ms$` leaves: ms is the run of digits
// before the final "ms", and a space must precede it.
func slowOp(msg string) (op, ns, body string, ms int64, ok bool) {
	at := -1
	for _, o := range slowOps {
		if strings.HasPrefix(msg, o) {
			op, at = o[:len(o)-1], len(o)
			break
		}
	}
	if at < 0 {
		return "", "", "", 0, false
	}
	i := nonSpaceEnd(msg, at)
	if i == at || !byteAt(msg, i, ' ') || !strings.HasSuffix(msg, "ms") {
		return "", "", "", 0, false
	}
	end := len(msg) - 2
	start := end
	for start > i+1 && msg[start-1] >= '0' && msg[start-1] <= '9' {
		start--
	}
	if start > 0 && msg[start-1] >= utf8.RuneSelf {
		if r, _ := utf8.DecodeLastRuneInString(msg[:start]); unicode.IsDigit(r) {
			bail("a Unicode digit in a text log line")
		}
	}
	// The space before ms cannot be the one after ns: body sits between.
	if start == end || start-1 <= i || msg[start-1] != ' ' {
		return "", "", "", 0, false
	}
	ms, fits := parseDigits(msg[start:end])
	if !fits {
		bail("a duration beyond 64 bits in a text log line")
	}
	return op, msg[at:i], msg[i : start-1], ms, true
}

// parseDigits: the value of ASCII digits, false beyond int64.
func parseDigits(s string) (int64, bool) {
	var n uint64
	for i := 0; i < len(s); i++ {
		if n > (1<<63-1)/10 {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
		if n > 1<<63-1 {
			return 0, false
		}
	}
	return int64(n), true
}

// lastNumber: legacy.last_number: the -?\d+ after the last " key:" that has
// one. A number beyond int64 hands the run over (the Python engine counts
// the line unparsable: OpDebug writes none that big). The last " key:" is found by forward
// searches (vectorised, where strings.LastIndex is not: it was half the
// time of a text cursor line); the ones before it are tried only when it
// has no number, from the right, as Python tries them.
func lastNumber(body, key string) (int64, bool) {
	last := -1
	for from := 0; ; {
		i := strings.Index(body[from:], key)
		if i < 0 {
			break
		}
		at := from + i
		if at > 0 && body[at-1] == ' ' && byteAt(body, at+len(key), ':') {
			last = at
		}
		from = at + 1
	}
	if last < 0 {
		return 0, false
	}
	if n, ok := numberAfter(body, last+len(key)+1); ok {
		return n, true
	}
	end := last + len(key) - 1
	for {
		at := strings.LastIndex(body[:end], key)
		if at < 0 {
			return 0, false
		}
		end = at + len(key) - 1
		if at == 0 || body[at-1] != ' ' || !byteAt(body, at+len(key), ':') {
			continue
		}
		if n, ok := numberAfter(body, at+len(key)+1); ok {
			return n, true
		}
	}
}

// numberAfter: the -?\d+ at body[i:], if any.
func numberAfter(body string, i int) (int64, bool) {
	neg := byteAt(body, i, '-')
	if neg {
		i++
	}
	j := digitRun(body, i)
	if j == i {
		return 0, false
	}
	n, fits := parseDigits(body[i:j])
	if !fits {
		if neg && body[i:j] == "9223372036854775808" {
			return -1 << 63, true
		}
		bail("a number beyond 64 bits in a text log line")
	}
	if neg {
		n = -n
	}
	return n, true
}

// commandName: legacy.command_name: the name after " command: " (3.2+,
// COMMAND_NAME) or in " command: { name:" (2.2, COMMAND_22), the first
// occurrence that fits; false where Python returns None.
func commandName(op, body string) (string, bool) {
	if op != "command" {
		if op == "getmore" {
			return "getMore", true
		}
		return op, true
	}
	if name, ok := nameAfter(body, " command: ", " {"); ok {
		return name, true
	}
	return nameAfter(body, " command: { ", ":")
}

// nameAfter: the search of mark(?P<name>[\w$]+)end in body: the first mark
// that a name and end follow.
func nameAfter(body, mark, end string) (string, bool) {
	for from := 0; ; {
		at := strings.Index(body[from:], mark)
		if at < 0 {
			return "", false
		}
		i := from + at + len(mark)
		if j := wordEnd(body, i, true); j > i && strings.HasPrefix(body[j:], end) {
			return body[i:j], true
		}
		from += at + 1
	}
}

// planSummary: legacy.plan_summary: after the first " planSummary: ", up
// to the first " word:X" (X not white space; ` \w+:\{` is one of those) or
// the end.
func planSummary(body string) (string, bool) {
	const mark = " planSummary: "
	at := strings.Index(body, mark)
	if at < 0 {
		return "", false
	}
	start := at + len(mark)
	for p := start; ; p++ {
		sp := strings.IndexByte(body[p:], ' ')
		if sp < 0 {
			return body[start:], true
		}
		p += sp
		q := wordEnd(body, p+1, false)
		if q > p+1 && byteAt(body, q, ':') && q+1 < len(body) {
			if r, _ := utf8.DecodeRuneInString(body[q+1:]); !isPyWhitespace(r) {
				return body[start:p], true
			}
		}
	}
}

// notALogLine: legacy.parse_line's reason for a line that is neither.
const notALogLine = "neither a JSON log line nor a legacy text log line"

// nonSpaceEnd: the end of the run of \S (Python's: not Unicode white space)
// that starts at i.
func nonSpaceEnd(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isPyWhitespace(r) {
			break
		}
		i += n
	}
	return i
}

// smallValue: a number the Go engine adds (as cursorEvent's are), else the
// run is handed over (Python's sums have no bound).
func smallValue(n int64) int64 {
	if n >= valueLimit || n <= -valueLimit {
		bail("a metric beyond what this engine adds exactly")
	}
	return n
}

func validText(s string) string {
	if !utf8.ValidString(s) {
		bail("a line whose names are not UTF-8") // Python reads them with replacement characters
	}
	return s
}

// cursorFromText: legacy.cursor_event of a text line; false when the line
// carries no cursor (no slow operation, no cursorid, or cursorid 0).
func cursorFromText(l *textLine) (cursorEvent, bool) {
	op, ns, body, ms, ok := slowOp(l.msg)
	if !ok {
		return cursorEvent{}, false
	}
	id, ok := lastNumber(body, "cursorid")
	if !ok || id == 0 {
		return cursorEvent{}, false
	}
	ev := cursorEvent{id: id, ns: validText(ns), millis: smallValue(ms), time: l.ts, hasTime: true}
	if ev.name, ok = commandName(op, body); !ok {
		ev.name = op
	}
	originText := body
	if ev.name == "getMore" {
		ev.origin, ev.hasOrigin = nameAfter(body, " originatingCommand: { ", ":") // ORIGIN_NAME
		originText = ""
		if at := strings.Index(body, " originatingCommand: {"); at >= 0 {
			originText = body[at:]
		}
	} else {
		ev.origin, ev.hasOrigin = ev.name, true
	}
	validText(ev.name)
	validText(ev.origin)
	ev.changeStream = ev.hasOrigin && ev.origin == "aggregate" && strings.Contains(originText, "pipeline: [ { $changeStream:")
	if at := strings.LastIndex(body, " storage:{"); at >= 0 {
		for from := at; ; { // BYTES_READ.search(body, storage_at)
			found := strings.Index(body[from:], "bytesRead: ")
			if found < 0 {
				break
			}
			i := from + found + len("bytesRead: ")
			if j := digitRun(body, i); j > i {
				ev.bytesRead = smallValue(number(body[i:j]))
				break
			}
			from = i
		}
	}
	ev.keys, ev.docs, ev.nreturned = examined(body)
	return ev, true
}

// examined: the keys and documents a slow operation examined and what it
// returned, as legacy.cursor_event and queries.text_metrics read them
// (2.2 to 3.0 wrote nscanned and nscannedObjects where later releases
// write keysExamined and docsExamined); 0 for one not logged.
func examined(body string) (keys, docs, nret int64) {
	keys, ok := lastNumber(body, "keysExamined")
	if !ok {
		keys, _ = lastNumber(body, "nscanned")
	}
	docs, ok = lastNumber(body, "docsExamined")
	if !ok {
		docs, _ = lastNumber(body, "nscannedObjects")
	}
	nret, _ = lastNumber(body, "nreturned")
	return smallValue(keys), smallValue(docs), smallValue(nret)
}

// number: parseDigits, the run handed over beyond int64.
func number(digits string) int64 {
	n, fits := parseDigits(digits)
	if !fits {
		bail("a number beyond 64 bits in a text log line")
	}
	return n
}

// Statuses of a text refresh: refreshStatus's, and 3.6's "didn't find any
// metadata changes", an ok one that started from a cached table.
const (
	textOK int8 = iota
	textUnsharded
	textFailed
	textUnchanged
)

// textRefresh: what legacy.refresh_event reads of a line.
type textRefresh struct {
	ns       string
	from, to optString
	millis   int64
	status   int8
	// hasFrom: the line's shape has a from version, given or not (3.6's
	// "found version" has none: its kind cannot be told).
	hasFrom bool
}

// refreshFromText: legacy.refresh_event of a text line's message: ok false
// for a line that is no refresh, reason set for an unparsable one.
func refreshFromText(msg string) (ev textRefresh, ok bool, reason string) {
	if rest, found := strings.CutPrefix(msg, "Refresh for collection "); found {
		if ev, ok = refreshFor(rest); ok {
			return ev, true, ""
		}
	} else if rest, found := strings.CutPrefix(msg, "ChunkManager: time to load chunks for "); found {
		if ev, ok = chunkManagerLoad(rest); ok {
			return ev, true, ""
		}
	} else {
		return ev, false, ""
	}
	for from := 0; ; {
		at := strings.Index(msg[from:], " took ")
		if at < 0 {
			return ev, false, "routing refresh line without 'took N ms' (cut or re-wrapped?)"
		}
		if digitAt(msg, from+at+len(" took ")) {
			return ev, false, "routing refresh message in an unknown shape"
		}
		from += at + 1
	}
}

// versionEnd: the end of legacy.VERSION at the start of s, 0 if none:
// \d+\|\d+\|\|\w+(?:\|\|Timestamp\(\d+, \d+\))?
func versionEnd(s string) int {
	i := digitRun(s, 0)
	if i == 0 || !byteAt(s, i, '|') {
		return 0
	}
	j := digitRun(s, i+1)
	if j == i+1 || !strings.HasPrefix(s[j:], "||") {
		return 0
	}
	k := wordEnd(s, j+2, false)
	if k == j+2 {
		return 0
	}
	if strings.HasPrefix(s[k:], "||Timestamp(") {
		a := k + len("||Timestamp(")
		if b := digitRun(s, a); b > a && strings.HasPrefix(s[b:], ", ") {
			if c := digitRun(s, b+2); c > b+2 && byteAt(s, c, ')') {
				return c + 1
			}
		}
	}
	return k
}

// took: legacy.TOOK at the start of s, " took (\d+)(?: ?ms)?": the
// duration and what follows it.
func took(s string) (int64, string, bool) {
	rest, ok := strings.CutPrefix(s, " took ")
	if !ok {
		return 0, "", false
	}
	n := digitRun(rest, 0)
	if n == 0 {
		return 0, "", false
	}
	ms := number(rest[:n])
	rest = rest[n:]
	// The unit and the " and ..." that follows cannot both fit: either
	// reading leaves only one candidate.
	if after, ok := strings.CutPrefix(rest, "ms"); ok {
		rest = after
	} else if after, ok := strings.CutPrefix(rest, " ms"); ok {
		rest = after
	}
	return ms, rest, true
}

// refreshFor: REFRESH's "Refresh for collection" shapes (3.6 to 4.2), in
// legacy.py's order, on what follows that prefix.
func refreshFor(s string) (textRefresh, bool) {
	var ev textRefresh
	end := nonSpaceEnd(s, 0)
	if end == 0 || !byteAt(s, end, ' ') {
		return ev, false
	}
	ev.ns, s = s[:end], s[end:]
	// 4.0/4.2: "[ from version A] to version B took N ms".
	rest := s
	if after, ok := strings.CutPrefix(rest, " from version "); ok {
		if n := versionEnd(after); n > 0 {
			ev.from, rest = optString{after[:n], true}, after[n:]
		}
	}
	if after, ok := strings.CutPrefix(rest, " to version "); ok {
		if n := versionEnd(after); n > 0 {
			if ms, tail, ok := took(after[n:]); ok && tail == "" {
				ev.to, ev.millis, ev.hasFrom = optString{after[:n], true}, ms, true
				return ev, true
			}
		}
	}
	ev.from = optString{}
	ms, tail, ok := took(s)
	if !ok {
		return ev, false
	}
	ev.millis = ms
	switch {
	case strings.HasPrefix(tail, " and found version "):
		v := tail[len(" and found version "):]
		if n := versionEnd(v); n > 0 && n == len(v) {
			ev.to = optString{v, true}
			return ev, true
		}
	case tail == " and didn't find any metadata changes":
		ev.status = textUnchanged
		return ev, true
	case tail == " and found the collection is not sharded":
		ev.status = textUnsharded
		return ev, true
	}
	if strings.HasPrefix(tail, " and failed") {
		ev.status = textFailed
		return ev, true
	}
	return ev, false
}

// chunkManagerLoad: REFRESH's 2.2-3.4 shape, "NS: N ms sequenceNumber: N
// version: V based on: V" with no anchor at the end. NS is \S+ followed by
// ": ": the run of non-space, without its last byte, a colon.
func chunkManagerLoad(s string) (textRefresh, bool) {
	var ev textRefresh
	end := nonSpaceEnd(s, 0)
	if end < 2 || s[end-1] != ':' || !byteAt(s, end, ' ') {
		return ev, false
	}
	ev.ns = s[:end-1]
	i := end + 1
	j := digitRun(s, i)
	if j == i {
		return ev, false
	}
	ms := number(s[i:j])
	// " ?(?:ms)?" then " sequenceNumber: ": four ways to fit.
	rest := s[j:]
	for _, unit := range [...]string{" ms", " ", "ms", ""} {
		if after, ok := strings.CutPrefix(rest, unit+" sequenceNumber: "); ok {
			rest = after
			break
		}
		if unit == "" {
			return ev, false
		}
	}
	k := digitRun(rest, 0)
	if k == 0 || !strings.HasPrefix(rest[k:], " version: ") {
		return ev, false
	}
	rest = rest[k+len(" version: "):]
	to := nonSpaceEnd(rest, 0)
	if to == 0 {
		return ev, false
	}
	ev.to, ev.millis, ev.hasFrom = optString{rest[:to], true}, ms, true
	if after, ok := strings.CutPrefix(rest[to:], " based on: "); ok {
		if from := nonSpaceEnd(after, 0); from > 0 {
			ev.from = optString{after[:from], true}
		}
	}
	return ev, true
}

// textContents: contents.text_line, the time and component of every text
// line (2.x lines have no component).
type textContents struct{ contents }

func (c *textContents) feed(_ int64, line []byte) {
	c.lines++
	l, ok := parseTextLine(view(line))
	if !ok {
		return
	}
	if !c.timed {
		c.first, c.timed = append([]byte(nil), l.ts...), true
	}
	c.last = append(c.last[:0], l.ts...)
	if l.comp != "" {
		c.count([]byte(l.comp), 1)
	}
}
