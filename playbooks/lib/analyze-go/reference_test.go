package main

// Checks against the Python engine's own libraries, on corpora that
// tests/unit/python/test_analyze_engines.py writes with them (orjson for
// JSON, Python for floats) and passes by environment variable; without
// them these tests skip.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

func readCorpus(t *testing.T, env string, each func(record map[string]any)) {
	path := os.Getenv(env)
	if path == "" {
		t.Skipf("%s not set (tests/unit/python/test_analyze_engines.py sets it)", env)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for scanner.Scan() {
		var record map[string]any
		if err := json.Unmarshal(scanner.Bytes(), &record); err != nil {
			t.Fatal(err)
		}
		each(record)
		n++
	}
	if n == 0 {
		t.Fatalf("%s: empty corpus", path)
	}
}

// pyReason: what the Python engine reports of an orjson message.
func pyReason(message string) string {
	if i := strings.IndexByte(message, ':'); i >= 0 {
		return message[:i]
	}
	return message
}

// Every line this reader judges, it judges as orjson does: valid or not,
// and for an invalid one the same reason; building all of a line or only
// what a report selects makes no difference, nor do the shapes of the
// values it left out in the lines before (one arena reads them all).
func TestReaderAgreesWithOrjson(t *testing.T) {
	var total, named, foreign int
	var shared arena
	readCorpus(t, "ANALYZE_GO_ORJSON_CORPUS", func(record map[string]any) {
		line, err := base64.StdEncoding.DecodeString(record["line"].(string))
		if err != nil {
			t.Fatal(err)
		}
		total++
		want, invalid := record["error"].(string)
		_, got := parseDoc(line)
		_, selectErr := parseSelected(line, querySelection, &shared)
		if (got == nil) != (selectErr == nil) || (got != nil && got.Error() != selectErr.Error()) {
			t.Errorf("%q: parseDoc %v, parseSelected %v", line, got, selectErr)
		}
		switch {
		case got == nil:
			if invalid {
				t.Errorf("%q: valid here, orjson says %q", line, want)
			}
		case got == errForeign:
			foreign++
			if !invalid {
				t.Errorf("%q: refused here, valid for orjson", line)
			}
		default:
			named++
			if !invalid {
				t.Errorf("%q: %q here, valid for orjson", line, got.Error())
			} else if reason := got.(*jsonError).reason(); reason != pyReason(want) {
				t.Errorf("%q: reason %q here, orjson %q", line, reason, pyReason(want))
			}
		}
	})
	t.Logf("%d lines: %d invalid ones named as orjson does, %d left to the Python engine", total, named, foreign)
}

// Floats print as Python's repr, and round to one place as round(x, 1).
func TestFloatsAsPython(t *testing.T) {
	readCorpus(t, "ANALYZE_GO_FLOAT_CORPUS", func(record map[string]any) {
		x, err := strconv.ParseFloat(record["hex"].(string), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := pyRepr(x); got != record["repr"] {
			t.Errorf("repr(%v): %q here, Python %q", record["hex"], got, record["repr"])
		}
		if got := pyRepr(round1(x)); got != record["round1"] {
			t.Errorf("round(%v, 1): %q here, Python %q", record["hex"], got, record["round1"])
		}
		if got := strconv.FormatFloat(x, 'f', 1, 64); got != record["f1"] {
			t.Errorf("'%%.1f' %% %v: %q here, Python %q", record["hex"], got, record["f1"])
		}
	})
}

// An integer is kInt when it fits an int64 (strconv.ParseInt's range, both
// ends), else kBigInt with its text: 18, 19 and 20 digits, either sign.
func TestIntegersAtTheEdgesOfInt64(t *testing.T) {
	for _, text := range []string{"0", "-0", "7", "123456789012345678", "-123456789012345678",
		"1234567890123456789", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "9999999999999999999", "-9999999999999999999", "18446744073709551615",
		"18446744073709551616", "10000000000000000000", "-10000000000000000000", "100000000000000000000"} {
		v, err := parseDoc([]byte("[" + text + "]"))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		got := v.vals[0]
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			if got.k != kInt || got.i != n {
				t.Errorf("%s: kind %d value %d, want the int %d", text, got.k, got.i, n)
			}
		} else if got.k != kBigInt || got.s != text {
			t.Errorf("%s: kind %d, want a big integer with its text", text, got.k)
		}
	}
}
