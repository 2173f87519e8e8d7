package main

import (
	"bufio"
	"os"
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
	var lines []string
	for _, path := range paths {
		if strings.Contains(path, ".json.") {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		scanner.Buffer(make([]byte, 1<<20), 1<<20)
		for scanner.Scan() {
			lines = append(lines, strings.TrimSuffix(scanner.Text(), "\r"))
		}
		f.Close()
	}
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
