package main

// Text exactly as the Python engine writes it: JSON strings as orjson and
// json.dumps(ensure_ascii=False) escape them (the same rules) and as
// json.dumps does by default (non-ASCII escaped too), floats as Python's
// repr and round(x, 1), and the aligned tables of common.write_table.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

const hexdigits = "0123456789abcdef"

// jsonAsIs: a byte appendJSONString writes as it is.
func jsonAsIs(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' }

// pyJSONAsIs: a byte appendPyJSONString writes as it is (json.dumps escapes
// DEL and non-ASCII too).
func pyJSONAsIs(c byte) bool { return jsonAsIs(c) && c < 0x7f }

// appendJSONString: a JSON string with only '"', '\\' and C0 controls
// escaped (\b \t \n \f \r short, the rest \u00xx); non-ASCII and DEL as is.
func appendJSONString[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if jsonAsIs(c) {
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscape(c); e != 0 {
			dst = append(dst, '\\', e)
		} else {
			dst = appendU4(dst, rune(c))
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// shortEscape: the letter of a two-character JSON escape (\" \\ \b \t \n
// \f \r), 0 for a character without one.
func shortEscape(c byte) byte {
	switch c {
	case '"', '\\':
		return c
	case '\b':
		return 'b'
	case '\t':
		return 't'
	case '\n':
		return 'n'
	case '\f':
		return 'f'
	case '\r':
		return 'r'
	}
	return 0
}

func jsonString(s string) string { return string(appendJSONString(nil, s)) }

// pyAsIs: json.dumps writes s as it is between quotes.
func pyAsIs(s string) bool {
	for ; len(s) >= 8; s = s[8:] {
		if needsPyEscape8(s[:8]) {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if !pyJSONAsIs(s[i]) {
			return false
		}
	}
	return true
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
		if pyJSONAsIs(c) {
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

// pyRepr: Python's repr of a finite float (shortest round trip; exponent
// form when the decimal point is 16 places or more to the right or 4 or
// more to the left of the digits).
func pyRepr(f float64) string {
	if f == 0 {
		if 1/f < 0 {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	at := strings.IndexByte(e, 'e')
	digits := strings.Replace(e[:at], ".", "", 1)
	exp, _ := strconv.Atoi(e[at+1:])
	decpt := exp + 1
	var out string
	if decpt <= -4 || decpt > 16 {
		mant := digits[:1]
		if len(digits) > 1 {
			mant += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		x := strconv.Itoa(exp)
		if len(x) < 2 {
			x = "0" + x
		}
		out = mant + "e" + sign + x
	} else if decpt <= 0 {
		out = "0." + strings.Repeat("0", -decpt) + digits
	} else if decpt >= len(digits) {
		out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	} else {
		out = digits[:decpt] + "." + digits[decpt:]
	}
	if neg {
		return "-" + out
	}
	return out
}

// round1: Python's round(f, 1) (correctly rounded, ties to even on the
// exact binary value).
func round1(f float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 1, 64), 64)
	return r
}

// A number as Python prints it: int when integral (the engine's
// int(value) if value == int(value)), else its float.
type pyNum struct {
	isFloat bool
	i       int64
	f       float64
}

func (n pyNum) String() string {
	if n.isFloat {
		return pyRepr(n.f)
	}
	return strconv.FormatInt(n.i, 10)
}

// cell: a table cell; nil prints "-" (Python's None).
type cell = *string

func str(s string) cell { return &s }

func itoa(n int64) cell { return str(strconv.FormatInt(n, 10)) }

func humanBytes(n int64) string {
	v := float64(n)
	for _, unit := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if v < 1024 || unit == "TiB" {
			if unit == "B" {
				return strconv.FormatInt(int64(v), 10) + " B"
			}
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		}
		v /= 1024
	}
	return ""
}

// defaultTop: the rows a table shows unless --top N or --all says otherwise.
const defaultTop = 20

// tablePlan: common.write_table (widths in characters, numeric columns
// right-aligned, trailing spaces cut). rows makes the rows afresh on each
// call: once for the widths (plan), once to write them, so that no table is
// held (--all on a log of distinct cursors has as many rows as lines).
type tablePlan struct {
	headers []string
	numeric map[int]bool
	rows    func(emit func([]cell))
	widths  []int
}

func cellText(c cell) string {
	if c == nil {
		return "-"
	}
	return *c
}

// planTable measures the rows, and hands the run over (before anything is
// written: plan every table first) where a cell would be cut otherwise.
func planTable(headers []string, numeric map[int]bool, rows func(emit func([]cell))) *tablePlan {
	p := &tablePlan{headers: headers, numeric: numeric, rows: rows, widths: make([]int, len(headers))}
	for i, h := range headers {
		p.widths[i] = utf8.RuneCountInString(h)
	}
	rows(func(cells []cell) {
		for i, c := range cells {
			if c != nil && !plainCell(*c) {
				bail("a table cell with a whitespace character other than space")
			}
			if n := utf8.RuneCountInString(cellText(c)); n > p.widths[i] {
				p.widths[i] = n
			}
		}
	})
	return p
}

func (p *tablePlan) appendLine(b []byte, cells []string) []byte {
	start := len(b)
	for i, c := range cells {
		if i > 0 {
			b = append(b, "  "...)
		}
		pad := p.widths[i] - utf8.RuneCountInString(c)
		if p.numeric[i] {
			b = append(append(b, spaces(pad)...), c...)
		} else {
			b = append(append(b, c...), spaces(pad)...)
		}
	}
	end := len(b)
	for end > start && b[end-1] == ' ' {
		end--
	}
	return append(b[:end], '\n')
}

func spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }

func (p *tablePlan) write(out *bufio.Writer) {
	var b []byte
	out.Write(p.appendLine(b, p.headers))
	texts := make([]string, len(p.headers))
	p.rows(func(cells []cell) {
		for i, c := range cells {
			texts[i] = cellText(c)
		}
		b = p.appendLine(b[:0], texts)
		out.Write(b)
	})
}

// rankedTable: common.write_ranked, the rows a person reads first: the
// title of every row or of the first ones, the table, and how to see the rest.
type rankedTable struct {
	all, first   string
	total, shown int
	*tablePlan
}

func (r rankedTable) write(out *bufio.Writer) {
	if r.shown < r.total {
		fmt.Fprintf(out, "%s (%d of %d)\n", r.first, r.shown, r.total)
	} else {
		fmt.Fprintf(out, "%s (%d)\n", r.all, r.total)
	}
	r.tablePlan.write(out)
	if r.shown < r.total {
		fmt.Fprintf(out, "%d more rows not shown: --all or --top N\n", r.total-r.shown)
	}
}

// shownOf: how many of total rows a table shows for top (-1: every one).
func shownOf(top, total int) int {
	if top < 0 || top > total {
		return total
	}
	return top
}

// firstN: the n first of count items in the order cmp, by a bounded heap
// (the worst kept at the root) rather than a sort of every item.
func firstN[T any](count, n int, item func(i int) T, cmp func(a, b T) int) []T {
	h := make([]T, 0, n)
	down := func(i int) {
		for {
			worst, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && cmp(h[l], h[worst]) > 0 {
				worst = l
			}
			if r < len(h) && cmp(h[r], h[worst]) > 0 {
				worst = r
			}
			if worst == i {
				return
			}
			h[i], h[worst] = h[worst], h[i]
			i = worst
		}
	}
	for i := 0; i < count && n > 0; i++ {
		x := item(i)
		if len(h) < n {
			h = append(h, x)
			for j := len(h) - 1; j > 0 && cmp(h[j], h[(j-1)/2]) > 0; j = (j - 1) / 2 {
				h[j], h[(j-1)/2] = h[(j-1)/2], h[j]
			}
		} else if cmp(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}
