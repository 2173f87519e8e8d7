package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// legacy.py's patterns as Go regexps: RE2 picks the submatches a
// backtracking engine would (leftmost-first), and on ASCII lines \d, \w and
// \s are the same in both. Only the tests use them.
const legacyTime = `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?` +
	`|[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?`

var (
	reTextLine = regexp.MustCompile(`^(?P<ts>` + legacyTime + `)(?: +(?P<sev>[FEWID]\d?) +(?P<comp>[A-Z_]+|-))?` +
		` +\[(?P<ctx>[^\]]*)\] (?P<msg>.*)$`)
	reSlowOp      = regexp.MustCompile(`^(command|query|getmore|update|remove|insert) (\S+) (.*) (\d+)ms$`)
	reCommandName = regexp.MustCompile(` command: ([\w$]+) \{`)
	reCommand22   = regexp.MustCompile(` command: \{ ([\w$]+):`)
)

// textFixtureLines: every line of the project's text log fixtures
// (tests/fixtures/logs/README.md names their sources).
func textFixtureLines(t *testing.T) []string {
	paths, err := filepath.Glob("../../../tests/fixtures/logs/*.log")
	if err != nil {
		t.Fatal(err)
	}
	text := paths[:0]
	for _, path := range paths {
		if !strings.Contains(path, ".json.") {
			text = append(text, path)
		}
	}
	var lines []string
	eachLine(t, text, func(line []byte) { lines = append(lines, strings.TrimSuffix(string(line), "\r")) })
	if len(lines) < 50 {
		t.Fatalf("only %d fixture lines", len(lines))
	}
	return lines
}

func TestParseTextLine(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
		want textLine
	}{
		{"Mon Aug  5 20:21:20 [conn1] query test.orders query: { a: 1 } 120ms", true,
			textLine{"Mon Aug  5 20:21:20", "", "", "conn1", "query test.orders query: { a: 1 } 120ms"}},
		{"Tue Aug  5 20:21:21.003 [conn1] getmore test.orders 15ms", true,
			textLine{"Tue Aug  5 20:21:21.003", "", "", "conn1", "getmore test.orders 15ms"}},
		{"Thu Oct 6 11:24:45.905 I SH_REFR [ConfigServerCatalogCacheLoader-191078] Refresh for", true,
			textLine{"Thu Oct 6 11:24:45.905", "I", "SH_REFR", "ConfigServerCatalogCacheLoader-191078", "Refresh for"}},
		{"2014-08-05T20:21:20.456+0200 [conn1] query", true,
			textLine{"2014-08-05T20:21:20.456+0200", "", "", "conn1", "query"}},
		{"2020-05-04T10:00:01.100+0000 I  COMMAND  [conn12] command shop.orders", true,
			textLine{"2020-05-04T10:00:01.100+0000", "I", "COMMAND", "conn12", "command shop.orders"}},
		{"2020-05-04T10:00:01Z D2 - [x] m", true, textLine{"2020-05-04T10:00:01Z", "D2", "-", "x", "m"}},
		{"2020-05-04T10:00:01+01:00 [] ", true, textLine{"2020-05-04T10:00:01+01:00", "", "", "", ""}},
		// The zone is optional: a cut one is not taken, and then no space follows.
		{"2020-05-04T10:00:01+01 [c] m", false, textLine{}},
		// A fraction without digits is not one.
		{"2020-05-04T10:00:01. [c] m", false, textLine{}},
		// Backtracking: "I" followed by "[": the severity group cannot match,
		// and the line without it has no "[" after the time.
		{"2020-05-04T10:00:01.000 I [c] m", false, textLine{}},
		// Without the severity group, a context that starts with a letter.
		{"2020-05-04T10:00:01.000 [I COMMAND] m", true, textLine{"2020-05-04T10:00:01.000", "", "", "I COMMAND", "m"}},
		// ctx stops at the first ], which must be followed by a space.
		{"2020-05-04T10:00:01.000 [a]b] m", false, textLine{}},
		{"2020-05-04T10:00:01.000 [a] b] m", true, textLine{"2020-05-04T10:00:01.000", "", "", "a", "b] m"}},
		// A lower-case component is not one.
		{"2020-05-04T10:00:01.000 I command [c] m", false, textLine{}},
		{"Mon Aug 123 20:21:20 [c] m", false, textLine{}},
		{"264 tool 774 ms", false, textLine{}},
		{"", false, textLine{}},
	} {
		got, ok := parseTextLine(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("parseTextLine(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestParseTextLineAsTheRegexOnEveryFixtureLine(t *testing.T) {
	for _, line := range textFixtureLines(t) {
		for _, l := range []string{line, strings.Replace(line, " [", "  [", 1), strings.Replace(line, "] ", "]", 1)} {
			m := reTextLine.FindStringSubmatch(l)
			got, ok := parseTextLine(l)
			if ok != (m != nil) || ok && got != (textLine{m[1], m[2], m[3], m[4], m[5]}) {
				t.Errorf("parseTextLine(%q) = %+v, %v; the regex: %q", l, got, ok, m)
			}
		}
	}
}

func TestParseTextLineHandsOverAUnicodeDigit(t *testing.T) {
	defer func() {
		if _, ok := recover().(bailout); !ok {
			t.Error("no bailout")
		}
	}()
	parseTextLine("2020-05-04T10:00:0\u0661 [c] m") // Python's \d matches ARABIC-INDIC DIGIT ONE
}

func TestSlowOp(t *testing.T) {
	for _, c := range []struct {
		msg          string
		ok           bool
		op, ns, body string
		ms           int64
	}{
		{"getmore test.orders cursorid:1234567890123456789 ntoreturn:0 nreturned:99 reslen:3960 15ms", true,
			"getmore", "test.orders", " cursorid:1234567890123456789 ntoreturn:0 nreturned:99 reslen:3960", 15},
		{"command shop.orders appName: \"a b\" command: find { find: \"orders\" } protocol:op_msg 2300ms", true,
			"command", "shop.orders", " appName: \"a b\" command: find { find: \"orders\" } protocol:op_msg", 2300},
		// body may be empty: two spaces between ns and ms.
		{"query a.b  7ms", true, "query", "a.b", " ", 7},
		// One space: it is ns's, and the duration has none before it.
		{"query a.b 7ms", false, "", "", "", 0},
		// ms is the run of digits before "ms", and a space must precede it.
		{"query a.b x 12x7ms", false, "", "", "", 0},
		{"query a.b x 127ms", true, "query", "a.b", " x", 127},
		{"query a.b x 12 7ms", true, "query", "a.b", " x 12", 7},
		// ns ends at any white space (Python's \s), and a space must follow it.
		{"query a.b\tx 7ms", false, "", "", "", 0},
		{"query a\u00a0b x 7ms", false, "", "", "", 0},
		{"query caf\u00e9.b x 7ms", true, "query", "caf\u00e9.b", " x", 7},
		{"queryx a.b x 7ms", false, "", "", "", 0},
		{"delete a.b x 7ms", false, "", "", "", 0},
		{"insert a.b x 7 ms", false, "", "", "", 0},
	} {
		op, ns, body, ms, ok := slowOp(c.msg)
		if ok != c.ok || op != c.op || ns != c.ns || body != c.body || ms != c.ms {
			t.Errorf("slowOp(%q) = %q %q %q %d %v; want %q %q %q %d %v", c.msg, op, ns, body, ms, ok,
				c.op, c.ns, c.body, c.ms, c.ok)
		}
	}
}

func TestSlowOpAsTheRegexOnEveryFixtureLine(t *testing.T) {
	for _, line := range textFixtureLines(t) {
		parsed, ok := parseTextLine(line)
		if !ok {
			continue
		}
		m := reSlowOp.FindStringSubmatch(parsed.msg)
		op, ns, body, ms, ok := slowOp(parsed.msg)
		if ok != (m != nil) || ok && (op != m[1] || ns != m[2] || body != " "+m[3] || ms != atoi(m[4])) {
			t.Errorf("slowOp(%q) = %q %q %q %d %v; the regex: %q", parsed.msg, op, ns, body, ms, ok, m)
		}
	}
}

func TestSlowOpHandsOverAHugeDuration(t *testing.T) {
	defer func() {
		if _, ok := recover().(bailout); !ok {
			t.Error("no bailout")
		}
	}()
	slowOp("query a.b x 99999999999999999999ms")
}

func TestLastNumber(t *testing.T) {
	const body = " command: find { filter: { nreturned: 5 } } cursorid:1234567890123456789 keysExamined:0" +
		" nreturned:101 nreturned: x"
	for _, c := range []struct {
		body, key string
		want      int64
		ok        bool
	}{
		// The last " key:" followed by a number, with no space after the colon.
		{body, "nreturned", 101, true},
		{body, "cursorid", 1234567890123456789, true},
		{body, "keysExamined", 0, true},
		{body, "docsExamined", 0, false},
		// BSON text writes "key: N": not a metric.
		{" filter: { nreturned: 5 }", "nreturned", 0, false},
		{" a:-12 b", "a", -12, true},
		{" a:- a:3", "a", 3, true},
		{" a:-9223372036854775808", "a", -1 << 63, true},
		// No space before the key: not it.
		{" xa:5 a:x", "a", 0, false},
		{"a:5", "a", 0, false},
		{" aa:1 a:", "a", 0, false},
		{" a:007", "a", 7, true},
	} {
		got, ok := lastNumber(c.body, c.key)
		if got != c.want || ok != c.ok {
			t.Errorf("lastNumber(%q, %q) = %d, %v; want %d, %v", c.body, c.key, got, ok, c.want, c.ok)
		}
	}
}

func TestLastNumberHandsOverANumberBeyond64Bits(t *testing.T) {
	defer func() {
		if _, ok := recover().(bailout); !ok {
			t.Error("no bailout")
		}
	}()
	lastNumber(" cursorid:9223372036854775808", "cursorid")
}

func TestCommandName(t *testing.T) {
	for _, c := range []struct {
		op, body, want string
		ok             bool
	}{
		{"getmore", " cursorid:1", "getMore", true},
		{"query", " query: { a: 1 }", "query", true},
		{"command", ` appName: "MongoDB Shell" command: getMore { getMore: 1 } originatingCommand: { aggregate: "foo" }`,
			"getMore", true},
		{"command", " command: $eval { x: 1 }", "$eval", true},
		// 2.2's "command: { name: ... }".
		{"command", " command: { count: \"orders\", query: {} } ntoreturn:1", "count", true},
		// The first occurrence that fits, COMMAND_NAME before COMMAND_22.
		{"command", " command: { count: 1 } x command: find {", "find", true},
		{"command", " command: x y command: find {", "find", true},
		{"command", " command: find{", "", false},
		{"command", " appName: \"x\"", "", false},
	} {
		got, ok := commandName(c.op, c.body)
		if got != c.want || ok != c.ok {
			t.Errorf("commandName(%q, %q) = %q, %v; want %q, %v", c.op, c.body, got, ok, c.want, c.ok)
		}
	}
}

func TestCommandNameAsTheRegexOnEveryFixtureLine(t *testing.T) {
	for _, line := range textFixtureLines(t) {
		parsed, _ := parseTextLine(line)
		op, _, body, _, ok := slowOp(parsed.msg)
		if !ok || op != "command" {
			continue
		}
		m := reCommandName.FindStringSubmatch(body)
		if m == nil {
			m = reCommand22.FindStringSubmatch(body)
		}
		got, ok := commandName(op, body)
		if ok != (m != nil) || ok && got != m[1] {
			t.Errorf("commandName(%q) = %q, %v; the regex: %q", body, got, ok, m)
		}
	}
}

func TestPlanSummary(t *testing.T) {
	for _, c := range []struct {
		body, want string
		ok         bool
	}{
		// Up to the next " word:X" with no space after the colon.
		{" query: { a: 1 } planSummary: IXSCAN { status: 1, qty: 1 } cursorid:1 ntoreturn:0 120ms",
			"IXSCAN { status: 1, qty: 1 }", true},
		{" planSummary: COLLSCAN keysExamined:0", "COLLSCAN", true},
		// " word:{" ends it too.
		{" planSummary: IXSCAN { a: 1 } locks:{ Global: 1 }", "IXSCAN { a: 1 }", true},
		{" planSummary: IXSCAN { a: 1 }, IXSCAN { b: 1 }", "IXSCAN { a: 1 }, IXSCAN { b: 1 }", true},
		{" planSummary: EOF", "EOF", true},
		{" planSummary: ", "", true},
		{" planSummary:  a:1", "", true},
		// A colon at the end has nothing after it.
		{" planSummary: X a:", "X a:", true},
		{" planSummary: X a:\u00a0b c:d", "X a:\u00a0b", true},
		{" planSummary: X \u00e9t\u00e9:1", "X", true},
		{" query: { a: 1 }", "", false},
	} {
		got, ok := planSummary(c.body)
		if got != c.want || ok != c.ok {
			t.Errorf("planSummary(%q) = %q, %v; want %q, %v", c.body, got, ok, c.want, c.ok)
		}
	}
}

func TestRefreshFromText(t *testing.T) {
	const (
		v1 = "103200|584||626ba80f5fa7cb632d7bf264"
		v2 = "103200|593||626ba80f5fa7cb632d7bf264"
	)
	some := func(s string) optString { return optString{s, true} }
	for _, c := range []struct {
		msg    string
		want   textRefresh
		ok     bool
		reason string
	}{
		// 4.2 (refresh-4.2-mongod.log).
		{"Refresh for collection wukong.actions from version " + v1 + " to version " + v2 + " took 1001 ms",
			textRefresh{"wukong.actions", some(v1), some(v2), 1001, textOK, true}, true, ""},
		{"Refresh for collection a.b to version " + v2 + " took 7ms", textRefresh{"a.b", optString{}, some(v2), 7, textOK, true}, true, ""},
		{"Refresh for collection a.b to version 1|2||ab||Timestamp(3, 4) took 7",
			textRefresh{"a.b", optString{}, some("1|2||ab||Timestamp(3, 4)"), 7, textOK, true}, true, ""},
		// 4.0 mongod (refresh-4.0-mongod.log): no duration.
		{"Refresh for collection o.d from version " + v1 + " to version " + v2, textRefresh{}, false,
			"routing refresh line without 'took N ms' (cut or re-wrapped?)"},
		// 3.6 (refresh-3.6-mongos.derived.text.log): the kind cannot be told.
		{"Refresh for collection test.orders took 35 ms and found version 4|7||5a97c2f5d6b5e2f4d1a0b1c2",
			textRefresh{"test.orders", optString{}, some("4|7||5a97c2f5d6b5e2f4d1a0b1c2"), 35, textOK, false}, true, ""},
		{"Refresh for collection test.orders took 41 and found version 4|7||5a", textRefresh{"test.orders",
			optString{}, some("4|7||5a"), 41, textOK, false}, true, ""},
		{"Refresh for collection test.orders took 4 ms and didn't find any metadata changes",
			textRefresh{"test.orders", optString{}, optString{}, 4, textUnchanged, false}, true, ""},
		{"Refresh for collection test.orders took 12 ms and failed :: caused by :: NetworkInterfaceExceededTimeLimit",
			textRefresh{"test.orders", optString{}, optString{}, 12, textFailed, false}, true, ""},
		{"Refresh for collection a.b took 3 ms and found the collection is not sharded",
			textRefresh{"a.b", optString{}, optString{}, 3, textUnsharded, false}, true, ""},
		// "found version V" ends the line.
		{"Refresh for collection a.b took 3 ms and found version 4|7||5a x", textRefresh{}, false,
			"routing refresh message in an unknown shape"},
		// 2.2 to 3.4 (generations-2.2.derived.text.log): the namespace ends at the colon.
		{"ChunkManager: time to load chunks for test.orders: 35ms sequenceNumber: 3 version: 4|7||51ff based on: 4|5||51ff",
			textRefresh{"test.orders", some("4|5||51ff"), some("4|7||51ff"), 35, textOK, true}, true, ""},
		{"ChunkManager: time to load chunks for a:b:: 35 ms sequenceNumber: 3 version: 4|7||51ff based on: (empty)",
			textRefresh{"a:b:", some("(empty)"), some("4|7||51ff"), 35, textOK, true}, true, ""},
		{"ChunkManager: time to load chunks for a.b: 35  sequenceNumber: 3 version: 4|7||51ff",
			textRefresh{"a.b", optString{}, some("4|7||51ff"), 35, textOK, true}, true, ""},
		{"ChunkManager: time to load chunks for a.b 35ms sequenceNumber: 3 version: 4|7||51ff", textRefresh{}, false,
			"routing refresh line without 'took N ms' (cut or re-wrapped?)"},
		{"Refreshing chunks for a.b took 5 ms", textRefresh{}, false, ""},
	} {
		got, ok, reason := refreshFromText(c.msg)
		if ok != c.ok || reason != c.reason || ok && got != c.want {
			t.Errorf("refreshFromText(%q) = %+v, %v, %q; want %+v, %v, %q", c.msg, got, ok, reason, c.want, c.ok, c.reason)
		}
	}
}

func TestCursorFromText(t *testing.T) {
	for _, c := range []struct {
		line string
		want cursorEvent
		ok   bool
	}{
		// 2.2 (generations-2.2.derived.text.log): nscanned for keysExamined.
		{"Mon Aug  5 20:21:20 [conn1] query test.orders query: { status: \"open\" } cursorid:1234567890123456789" +
			" ntoreturn:0 ntoskip:0 nscanned:250 keyUpdates:0 locks(micros) r:1789 nreturned:101 reslen:4040 120ms",
			cursorEvent{id: 1234567890123456789, ns: "test.orders", name: "query", origin: "query", hasOrigin: true,
				nreturned: 101, keys: 250, millis: 120, time: "Mon Aug  5 20:21:20", hasTime: true}, true},
		// 3.0 getmore (queries-getmore-3.0.derived.text.log): no originating command.
		{"2015-08-05T20:21:17.200+0000 I QUERY    [conn4] getmore test.orders cursorid:2233445566778899001" +
			" ntoreturn:0 keyUpdates:0 writeConflicts:0 numYields:2 nreturned:101 reslen:4040 locks:{ Global: { acquireCount: { r: 6 } } } 30ms",
			cursorEvent{id: 2233445566778899001, ns: "test.orders", name: "getMore", nreturned: 101, millis: 30,
				time: "2015-08-05T20:21:17.200+0000", hasTime: true}, true},
		// 4.2 getMore of a change stream (cursors-4.2.derived.text.log), storage's bytesRead.
		{"2022-03-02T06:47:26.375-0500 I  COMMAND  [conn66] command test.foo appName: \"MongoDB Shell\" command: getMore" +
			" { getMore: 8620417026431980160, collection: \"foo\" } originatingCommand: { aggregate: \"foo\", pipeline:" +
			" [ { $changeStream: { fullDocument: \"default\" } } ] } planSummary: COLLSCAN cursorid:8620417026431980160" +
			" keysExamined:0 docsExamined:7 numYields:0 nreturned:1 reslen:2 locks:{} storage:{ data: { bytesRead: 350 } }" +
			" protocol:op_msg 2501ms",
			cursorEvent{id: 8620417026431980160, ns: "test.foo", name: "getMore", origin: "aggregate", hasOrigin: true,
				changeStream: true, nreturned: 1, docs: 7, bytesRead: 350, millis: 2501,
				time: "2022-03-02T06:47:26.375-0500", hasTime: true}, true},
		// A find that exhausted its cursor at once: no cursorid, no cursor.
		{"2020-05-04T10:00:02.200+0000 I  COMMAND  [conn12] command shop.orders command: find { find: \"orders\" }" +
			" planSummary: IXSCAN { a: 1 } keysExamined:12 docsExamined:12 cursorExhausted:1 nreturned:12 110ms",
			cursorEvent{}, false},
		{"2020-05-04T10:00:02.200+0000 I  COMMAND  [conn12] command a.b command: find { find: \"b\" } cursorid:0 1ms",
			cursorEvent{}, false},
		// A command whose name is not found is named by its op.
		{"2020-05-04T10:00:02.200+0000 I  COMMAND  [conn12] command a.b command: { } cursorid:5 1ms",
			cursorEvent{id: 5, ns: "a.b", name: "command", origin: "command", hasOrigin: true, millis: 1,
				time: "2020-05-04T10:00:02.200+0000", hasTime: true}, true},
	} {
		l, ok := parseTextLine(c.line)
		if !ok {
			t.Fatalf("not a text line: %q", c.line)
		}
		got, ok := cursorFromText(&l)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("cursorFromText(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// The hot path of a text log, as the JSON one: a line of a cursor already
// seen, or a refresh, is read without a heap allocation per line (the
// refresh's record and text chunks grow by whole chunks).
func TestATextLineIsReadWithoutAnAllocationPerLine(t *testing.T) {
	getMore := []byte("2022-03-02T06:47:26.375-0500 I  COMMAND  [conn66] command test.foo appName: \"MongoDB Shell\"" +
		" command: getMore { getMore: 8620417026431980160, collection: \"foo\" } originatingCommand: { aggregate:" +
		" \"foo\", pipeline: [ { $changeStream: {} } ] } planSummary: COLLSCAN cursorid:8620417026431980160" +
		" keysExamined:0 docsExamined:7 nreturned:1 reslen:2 locks:{} storage:{ data: { bytesRead: 350 } } protocol:op_msg 2501ms")
	cursors := (&cursorReport{names: newInterner(), clock: newTimes()}).newTable(0)
	cursors.feed(0, getMore)
	if n := testing.AllocsPerRun(1000, func() { cursors.feed(0, getMore) }); n != 0 {
		t.Errorf("cursors: %v allocations per line", n)
	}
	refresh := []byte("2022-10-06T10:54:49.792+0800 I SH_REFR [ConfigServerCatalogCacheLoader-141236] Refresh for" +
		" collection wukong.actions from version 103200|584||626ba80f5fa7cb632d7bf264 to version" +
		" 103200|593||626ba80f5fa7cb632d7bf264 took 1001 ms")
	refreshes := newRefreshState(0, newInterner())
	refreshes.feed(0, refresh)
	if n := testing.AllocsPerRun(1000, func() { refreshes.feed(0, refresh) }); n != 0 {
		t.Errorf("refresh: %v allocations per line", n)
	}
}
