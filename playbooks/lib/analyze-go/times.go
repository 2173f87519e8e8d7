package main

// Log times kept small, as the Python engine's timecodec does: a time string
// is a template (its date and zone, interned: a log has few) and its time of
// day as one integer HHMMSSmmm, so that per-cursor first and last times are
// fixed-size fields printed back exactly as the log wrote them. One table is
// shared by every worker (a lock on the rare new template).

import (
	"fmt"
	"strings"
	"sync"
)

const unknownTime = int64(-1) << 62

type times struct {
	mu        sync.Mutex
	templates []string // "\x00" marks h:m:s.ms, "\x01" h:m:s
	ids       map[string]int32
	bases     []int64 // epoch ms at 00:00 of the template's date, or unknownTime
	marks     []int   // where the template's mark is, -1 if it has none
	asIs      []bool  // JSON writes the template's times as they are, between quotes
}

func newTimes() *times { return &times{ids: map[string]int32{}} }

func (t *times) intern(template string) (int32, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[template]; ok {
		return id, t.bases[id]
	}
	template = strings.Clone(template) // it may be a view of a line
	id := int32(len(t.templates))
	t.ids[template] = id
	t.templates = append(t.templates, template)
	mark := strings.IndexAny(template, "\x00\x01")
	base := unknownTime
	if mark >= 0 {
		probe := strings.ReplaceAll(strings.ReplaceAll(template, "\x00", "00:00:00.000"), "\x01", "00:00:00")
		base = timeKey(probe)
	}
	t.bases = append(t.bases, base)
	t.marks = append(t.marks, mark)
	asIs := true // the mark stands for digits and ':', which need no escape
	for i := 0; i < len(template); i++ {
		asIs = asIs && (jsonAsIs(template[i]) || i == mark)
	}
	t.asIs = append(t.asIs, asIs)
	return id, base
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitsAt(s string, from, n int) bool {
	for i := from; i < from+n; i++ {
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func atoi(s string) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// startsISOSeconds: s starts with YYYY-MM-DDTHH:MM:SS.
func startsISOSeconds(s string) bool {
	return len(s) >= 19 && digitsAt(s, 0, 4) && s[4] == '-' && digitsAt(s, 5, 2) && s[7] == '-' &&
		digitsAt(s, 8, 2) && s[10] == 'T' && digitsAt(s, 11, 2) && s[13] == ':' && digitsAt(s, 14, 2) &&
		s[16] == ':' && digitsAt(s, 17, 2)
}

// timeKey: milliseconds since the epoch of an ISO-8601 log time, or
// unknownTime (common.time_key; callers pass ASCII only).
func timeKey(s string) int64 {
	if !startsISOSeconds(s) {
		return unknownTime
	}
	return timeKeyAfter(s, secondsKey(s))
}

// secondsKey: the milliseconds since the epoch of the YYYY-MM-DDTHH:MM:SS
// s starts with, as a UTC time.
func secondsKey(s string) int64 {
	days := daysFromCivil(atoi(s[0:4]), atoi(s[5:7]), atoi(s[8:10]))
	return (((days*24+atoi(s[11:13]))*60+atoi(s[14:16]))*60 + atoi(s[17:19])) * 1000
}

// timeKeyAfter: timeKey of s, whose first 19 bytes are the time base stands
// for.
func timeKeyAfter(s string, base int64) int64 {
	i := 19
	frac := "0"
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j > i+1 {
			frac = s[i+1 : j]
			i = j
		}
	}
	var offset int64
	sign := byte(0)
	if i < len(s) {
		switch {
		case s[i] == 'Z':
			i++
		case s[i] == '+' || s[i] == '-':
			sign = s[i]
			if !digitsAt(s, i+1, 2) {
				return unknownTime
			}
			hh := atoi(s[i+1 : i+3])
			j := i + 3
			if j < len(s) && s[j] == ':' {
				j++
			}
			if !digitsAt(s, j, 2) {
				return unknownTime
			}
			offset = (hh*60 + atoi(s[j:j+2])) * 60000
			i = j + 2
		}
	}
	if i != len(s) && !(i == len(s)-1 && s[i] == '\n') {
		return unknownTime
	}
	if len(frac) > 3 {
		frac = frac[:3]
	}
	for len(frac) < 3 {
		frac += "0"
	}
	v := base + atoi(frac)
	if sign == '+' {
		v -= offset
	} else if sign == '-' {
		v += offset
	}
	return v
}

// timeKeys: timeKey for the times of a log, in order: the lines of one
// second share its date and time, read once.
type timeKeys struct {
	second string // the last YYYY-MM-DDTHH:MM:SS read
	base   int64  // its secondsKey
}

func (c *timeKeys) key(s string) int64 {
	if len(s) >= 19 && len(c.second) == 19 && s[:19] == c.second {
		return timeKeyAfter(s, c.base)
	}
	if !startsISOSeconds(s) {
		return unknownTime
	}
	c.second, c.base = strings.Clone(s[:19]), secondsKey(s)
	return timeKeyAfter(s, c.base)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// daysFromCivil: Howard Hinnant's algorithm (no time zone database).
func daysFromCivil(year, month, day int64) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	if year < 0 {
		era = floorDiv(year-399, 400) // Python's expression, floor division included
	}
	yoe := year - era*400
	m := month - 3
	if month <= 2 {
		m = month + 9
	}
	doy := (153*m+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// encode: (template id, HHMMSSmmm, sort key). ok is false for a time this
// engine does not read exactly as the Python one would (non-ASCII text).
func (t *times) encode(text string) (int32, int64, int64, bool) {
	if !isASCII(text) || strings.ContainsAny(text, "\x00\x01") {
		return 0, 0, 0, false
	}
	if isoLayout(text) {
		hms, ok := isoHMS(text)
		if !ok {
			return 0, 0, 0, false // Python's int() reads some of these (signs, spaces)
		}
		tid, base := t.intern(text[:11] + "\x00" + text[23:])
		return tid, hms, keyOf(base, hms), true
	}
	// The first hh:mm:ss(.mmm) anywhere in the text.
	for i := 0; i+8 <= len(text); i++ {
		if digitsAt(text, i, 2) && text[i+2] == ':' && digitsAt(text, i+3, 2) && text[i+5] == ':' && digitsAt(text, i+6, 2) {
			end := i + 8
			ms := "000"
			marker := "\x01"
			if end+4 <= len(text) && text[end] == '.' && digitsAt(text, end+1, 3) {
				ms = text[end+1 : end+4]
				end += 4
				marker = "\x00"
			}
			hms := atoi(text[i:i+2])*10000000 + atoi(text[i+3:i+5])*100000 + atoi(text[i+6:i+8])*1000 + atoi(ms)
			tid, base := t.intern(text[:i] + marker + text[end:])
			return tid, hms, keyOf(base, hms), true
		}
	}
	tid, _ := t.intern(text)
	return tid, -1, unknownTime, true
}

// isoLayout: the JSON logs' layout (YYYY-MM-DDTHH:MM:SS.mmm then a zone),
// read by position.
func isoLayout(text string) bool {
	return len(text) >= 23 && text[10] == 'T' && text[13] == ':' && text[16] == ':' && text[19] == '.' &&
		digitsAt(text, 20, 3)
}

// isoHMS: HHMMSSmmm of a time in isoLayout; false when the text is not in
// it or its hours, minutes or seconds are not all digits.
func isoHMS(text string) (int64, bool) {
	if !isoLayout(text) || !digitsAt(text, 11, 2) || !digitsAt(text, 14, 2) || !digitsAt(text, 17, 2) {
		return 0, false
	}
	return atoi(text[11:13])*10000000 + atoi(text[14:16])*100000 + atoi(text[17:19])*1000 + atoi(text[20:23]), true
}

// baseOf: the epoch ms at 00:00 of a template's date.
func (t *times) baseOf(tid int32) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bases[tid]
}

func keyOf(base, hms int64) int64 {
	if base == unknownTime {
		return unknownTime
	}
	return base + ((hms/10000000*60+hms/100000%100)*60+hms/1000%100)*1000 + hms%1000
}

func append2(dst []byte, n int64) []byte {
	return append(dst, byte('0'+n/10), byte('0'+n%10))
}

// appendTime appends the time as the log wrote it (decode, without a string
// per call); tid must be a template's.
func (t *times) appendTime(dst []byte, tid int32, hms int64) []byte {
	template, at := t.templates[tid], t.marks[tid]
	if hms < 0 || at < 0 {
		return append(dst, template...)
	}
	dst = append(dst, template[:at]...)
	dst = append2(dst, hms/10000000)
	dst = append(dst, ':')
	dst = append2(dst, hms/100000%100)
	dst = append(dst, ':')
	dst = append2(dst, hms/1000%100)
	if template[at] == 0 {
		ms := hms % 1000
		dst = append(dst, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	}
	return append(dst, template[at+1:]...)
}

// appendTimeJSON appends the time as a JSON string (appendJSONString of
// appendTime's text, without the copy when the template needs no escape).
func (t *times) appendTimeJSON(dst, scratch []byte, tid int32, hms int64) (out, scratchOut []byte) {
	if t.asIs[tid] {
		return append(t.appendTime(append(dst, '"'), tid, hms), '"'), scratch
	}
	scratch = t.appendTime(scratch[:0], tid, hms)
	return appendJSONString(dst, scratch), scratch
}

// decode: the time as the log wrote it; ok false for no time.
func (t *times) decode(tid int32, hms int64) (string, bool) {
	if tid < 0 {
		return "", false
	}
	template := t.templates[tid]
	if hms < 0 {
		return template, true
	}
	clock := fmt.Sprintf("%02d:%02d:%02d", hms/10000000, hms/100000%100, hms/1000%100)
	if strings.Contains(template, "\x00") {
		return strings.ReplaceAll(template, "\x00", fmt.Sprintf("%s.%03d", clock, hms%1000)), true
	}
	return strings.ReplaceAll(template, "\x01", clock), true
}

// earlier: is (a) before (b)? By time where both are known, else by file order.
func earlier(aKey, aSeq, bKey, bSeq int64) bool {
	if aKey != unknownTime && bKey != unknownTime && aKey != bKey {
		return aKey < bKey
	}
	return aSeq < bSeq
}
