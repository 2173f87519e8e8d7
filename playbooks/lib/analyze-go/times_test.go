package main

import "testing"

// timeKeys reads the date and time of a second once for the lines of that
// second: the keys are timeKey's, whatever follows the seconds.
func TestTimeKeysAgreeWithTimeKey(t *testing.T) {
	times := []string{
		"2024-05-01T00:00:00.165+00:00",
		"2024-05-01T00:00:00.999Z",
		"2024-05-01T00:00:00",
		"2024-05-01T00:00:00.1-05:30",
		"2024-05-01T00:00:00.1234+0530",
		"2024-05-01T00:00:00.5+05:3x",
		"2024-05-01T00:00:00x",
		"2024-05-01T00:00:00.123\n",
		"2024-05-01T00:00:01.000+00:00",
		"not a time",
		"2024-05-01 00:00:01.000",
		"2024-05-01T00:00:01.000+00:00",
		"2024-02-29T23:59:59.999-12:00",
		"2024-05-01T00:00:00.165+00:00",
	}
	var keys timeKeys
	for _, s := range times {
		if got, want := keys.key(s), timeKey(s); got != want {
			t.Errorf("%q: %d after the times before it, %d alone", s, got, want)
		}
	}
}

// A time as JSON is the escaped text of the time, whether its template
// needs escapes or not.
func TestAppendTimeJSONIsTheEscapedTime(t *testing.T) {
	clock := newTimes()
	for _, text := range []string{
		"2024-05-01T00:00:00.165+00:00",
		"2024-05-01T23:59:59.999Z",
		`Wed May  1 12:34:56.789 "quoted"`,
		"Wed May  1 12:34:56\tafter a tab",
		`12:34:56 back\slash`,
		"no time of day at all",
	} {
		tid, hms, _, ok := clock.encode(text)
		if !ok {
			t.Fatalf("%q: not encoded", text)
		}
		want := string(appendJSONString(nil, clock.appendTime(nil, tid, hms)))
		if got, _ := clock.appendTimeJSON(nil, nil, tid, hms); string(got) != want {
			t.Errorf("%q: %s, want %s", text, got, want)
		}
		if decoded, _ := clock.decode(tid, hms); decoded != text {
			t.Errorf("%q: decoded as %q", text, decoded)
		}
	}
}
