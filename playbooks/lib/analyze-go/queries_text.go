package main

// Report `queries` on legacy text logs (2.2 to 4.2): queries.event_from_text
// and the text branch of State.feed. A slow operation line is read with
// legacy.go's primitives; the documents the shape is made of (a find's
// filter, a count's query, an aggregate's command, a getMore's
// originatingCommand) are read from the mongo shell's notation into the
// arena's values, strings as text and every other scalar as 1, as
// queries._ShellDoc does, so that the shapes are made by the JSON path's
// appendShape and commandShape.

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// shellDepth: the deepest document read here; Python's reader recurses
// (about 500 levels before its RecursionError, which is no report's).
const shellDepth = 200

// shellReader: queries._ShellDoc over a braced document (a view of the
// line); its values live in the arena until the next line.
type shellReader struct {
	s     string
	i     int
	depth int
	jr    jreader // for its arena's newValue only
}

// shellError: a document the Python reader raises Unparsable on, with its
// message (the reason the report gives).
type shellError struct{ reason string }

func (r *shellReader) ws() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t') {
		r.i++
	}
}

func (r *shellReader) at(i int) byte {
	if i < len(r.s) {
		return r.s[i]
	}
	return 0 // s[i:i+1] == "" in Python: never one of the bytes compared
}

func (r *shellReader) value() (*value, *shellError) {
	r.ws()
	if r.i >= len(r.s) {
		return nil, &shellError{"query shape cut short"}
	}
	switch r.s[r.i] {
	case '{':
		return r.obj()
	case '[':
		return r.arr()
	case '"':
		v := r.jr.newValue(kString)
		v.s = r.str()
		return v, nil
	}
	r.scalar()
	v := r.jr.newValue(kInt)
	v.i = 1
	return v, nil
}

// str: the text between double quotes, its escapes as written (the
// Python reader keeps them); a quote never closed takes the rest.
func (r *shellReader) str() string {
	s, i := r.s, r.i+1
	for i < len(s) && s[i] != '"' {
		if s[i] == '\\' {
			i += 2
		} else {
			i++
		}
	}
	text := s[r.i+1 : min(i, len(s))]
	r.i = i + 1
	return text
}

// scalar skips a value that is neither a document, an array nor a string:
// to the ',', '}' or ']' outside quotes and parentheses (a regex from its
// leading '/' to the next '/'). A ')' too many leaves depth below 0, where
// nothing ends the value: so does the Python reader.
func (r *shellReader) scalar() {
	s, i, depth := r.s, r.i, 0
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '/' && i == r.i:
			end := strings.IndexByte(s[i+1:], '/')
			if end < 0 {
				i = len(s)
			} else {
				i += 1 + end
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && (c == ',' || c == '}' || c == ']'):
			r.i = i
			return
		}
	}
	r.i = i
}

func (r *shellReader) key() (string, *shellError) {
	r.ws()
	var name string
	if r.at(r.i) == '"' {
		name = r.str()
		r.ws()
	} else {
		end := strings.IndexByte(r.s[r.i:], ':')
		if end < 0 {
			return "", &shellError{"query shape without ':' after a field name"}
		}
		name = strings.TrimFunc(r.s[r.i:r.i+end], isPyWhitespace) // str.strip()
		r.i += end
	}
	if r.at(r.i) != ':' {
		return "", &shellError{"query shape: ':' expected"}
	}
	r.i++
	return name, nil
}

func (r *shellReader) obj() (*value, *shellError) {
	if r.depth++; r.depth > shellDepth {
		bail("a query shape nested deeper than %d levels", shellDepth)
	}
	defer func() { r.depth-- }()
	r.i++
	out := r.jr.newValue(kObject)
	r.ws()
	if r.at(r.i) == '}' {
		r.i++
		return out, nil
	}
	for {
		name, bad := r.key()
		if bad != nil {
			return nil, bad
		}
		item, bad := r.value()
		if bad != nil {
			return nil, bad
		}
		if !out.hasFirst {
			out.s, out.hasFirst = name, true
		}
		out.set(name, item) // a repeated key keeps its place, takes the last value: a dict's
		r.ws()
		c := r.at(r.i)
		r.i++
		if c == '}' {
			return out, nil
		}
		if c != ',' {
			return nil, &shellError{"query shape: ',' or '}' expected"}
		}
	}
}

func (r *shellReader) arr() (*value, *shellError) {
	if r.depth++; r.depth > shellDepth {
		bail("a query shape nested deeper than %d levels", shellDepth)
	}
	defer func() { r.depth-- }()
	r.i++
	out := r.jr.newValue(kArray)
	r.ws()
	if r.at(r.i) == ']' {
		r.i++
		return out, nil
	}
	for {
		item, bad := r.value()
		if bad != nil {
			return nil, bad
		}
		out.vals = append(out.vals, item)
		r.ws()
		c := r.at(r.i)
		r.i++
		if c == ']' {
			return out, nil
		}
		if c != ',' {
			return nil, &shellError{"query shape: ',' or ']' expected"}
		}
	}
}

// braced: queries._braced, the {...} that starts at s[start] with braces
// counted as mloginfo counts them (those in strings too); false when it
// never closes.
func braced(s string, start int) (string, bool) {
	depth := 0
	for at := start; at < len(s); at++ {
		switch s[at] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return s[start : at+1], true
			}
		}
	}
	return "", false
}

// textDocument: queries.text_document, the document at the first '{' from
// body[at:] (nil when there is none or it never closes).
func (q *queryState) textDocument(body string, at int) (*value, *shellError) {
	start := strings.IndexByte(body[at:], '{')
	if start < 0 {
		return nil, nil
	}
	doc, ok := braced(body, at+start)
	if !ok {
		return nil, nil
	}
	r := shellReader{s: doc, jr: jreader{arena: &q.arena}}
	return r.value()
}

// textShape: queries.text_shape then shape_text: the shape of the document
// after the last trigger; noShape when there is none.
func (q *queryState) textShape(body, trigger string) (shape string, noShape bool, bad *shellError) {
	at := strings.LastIndex(body, trigger)
	if at < 0 {
		return "", true, nil
	}
	doc, bad := q.textDocument(body, at+len(trigger))
	if doc == nil {
		return "", true, bad
	}
	return q.shapeText(doc), false, nil
}

// offsetIn: where sub, a view of s, starts in s.
func offsetIn(s, sub string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(s))))
}

// feedText: State.feed on a line of a text log. Only the lines that make
// an event or are unparsable count as matched (the needle, "ms", is
// everywhere).
func (q *queryState) feedText(offset int64, line []byte) {
	if stripped, isJSON := jsonStart(line); isJSON {
		// As the Python engine reads them where its getMore lines are
		// sparse (scanQueries hands over the other case).
		q.jsonInText = q.jsonInText || bytes.Contains(stripped, slowQueryID) || bytes.Contains(stripped, slowQueryMsg)
		q.feedJSON(offset, line)
		return
	}
	if !bytes.HasSuffix(line, []byte("ms")) {
		return // no slow operation (SLOW_OP ends in "ms$"): neither counted nor unparsable
	}
	parsed, ok := parseTextLine(view(line))
	if !ok {
		return
	}
	op, ns, body, ms, ok := slowOp(parsed.msg)
	if !ok {
		return
	}
	if !utf8.ValidString(parsed.msg) {
		bail("a slow operation line that is not UTF-8") // Python reads it with replacement characters
	}
	q.arena.n = 0
	if bad := q.fromText(op, ns, body, ms); bad != nil {
		q.bad.matched++
		q.bad.skip(q.src, offset, bad.reason)
	}
}

// fromText: queries.event_from_text and State.add; an unparsable document
// gives its reason.
func (q *queryState) fromText(op, ns, body string, ms int64) *shellError {
	var name, low, shape string
	noShape := true
	var bad *shellError
	switch {
	case op == "command":
		var ok bool
		if name, ok = commandName(op, body); !ok {
			return nil
		}
		low = asciiLower(name)
		if low == "getmore" {
			return q.getMoreFromText(ns, body, ms)
		}
		switch low {
		case "find":
			shape, noShape, bad = q.textShape(body, "filter: ")
		case "count", "findandmodify":
			shape, noShape, bad = q.queryShape(body)
		case "aggregate":
			// After the " command: " of the name (COMMAND_NAME) or of
			// "{ name:" (COMMAND_22): either way its first '{' is the command's.
			var doc *value
			doc, bad = q.textDocument(body, offsetIn(body, name)-len(" command: "))
			if bad == nil {
				shape, noShape = q.commandShape(low, doc)
			}
		case "geonear":
		default:
			return nil
		}
	case op == "getmore":
		return q.getMoreFromText(ns, body, ms)
	case queryOps[op]:
		name = op
		shape, noShape, bad = q.queryShape(body)
	default:
		return nil
	}
	if bad != nil {
		return bad
	}
	q.bad.matched++
	at := q.addText(queryKey{name: q.nameID(name), shape: shape, noShape: noShape}, ns, body, ms, false)
	if cursor, _ := lastNumber(body, "cursorid"); cursor != 0 {
		q.remember(cursor, at)
	}
	return nil
}

// queryShape: the shape after the last "query: ", else after the last "q: ".
func (q *queryState) queryShape(body string) (string, bool, *shellError) {
	shape, noShape, bad := q.textShape(body, "query: ")
	if noShape && bad == nil {
		return q.textShape(body, "q: ")
	}
	return shape, noShape, bad
}

// getMoreFromText: queries.getmore_from_text: charged to the
// originatingCommand logged with it (3.4+, SERVER-23260), else (absent or
// cut short) to the command that opened its cursor id.
func (q *queryState) getMoreFromText(ns, body string, ms int64) *shellError {
	var origin *value
	if at := strings.Index(body, " originatingCommand: {"); at >= 0 {
		var bad *shellError
		if origin, bad = q.textDocument(body, at); bad != nil {
			return bad
		}
	}
	if origin == nil {
		q.bad.matched++
		q.tieGetMore(ns, body, ms)
		return nil
	}
	name, ok := firstKey(origin)
	low := asciiLower(name)
	if !ok || !queryCommands[low] {
		return nil // no event: not counted
	}
	q.bad.matched++
	key := queryKey{name: q.nameID(name)}
	key.shape, key.noShape = q.commandShape(low, origin)
	q.addText(key, ns, body, ms, true)
	return nil
}

// tieGetMore: State.add of a getMore tied by its cursor id: to the group
// of the command that opened it in this part, else waiting in pending;
// without an id, to "(unknown origin)".
func (q *queryState) tieGetMore(ns, body string, ms int64) {
	q.tied = true
	cursor, _ := lastNumber(body, "cursorid")
	keys, docs, nret, plan := q.textMetrics(body)
	if cursor != 0 {
		if n, ok := q.opened(cursor); ok {
			q.recs.at(n).count(ms, keys, docs, nret, plan, true, fText, false)
			return
		}
		if g := q.pending[cursor]; g != nil {
			g.count(ms, keys, docs, nret, plan, true, fText, false)
			return
		}
		if q.pending == nil {
			q.pending = map[int64]*queryGroup{}
		}
		g := newQueryGroup(queryKey{ns: q.nameID(ns), name: q.nameID("getMore"), shape: unknownOrigin}, ms)
		g.count(ms, keys, docs, nret, plan, true, fText, true)
		q.pending[cursor] = &g
		return
	}
	key := queryKey{ns: q.nameID(ns), name: q.nameID("getMore"), shape: unknownOrigin}
	q.add(key, ms, keys, docs, nret, plan, true, fText)
}

// textMetrics: queries.text_metrics but the duration (the plan a number in
// names, -1 for none).
func (q *queryState) textMetrics(body string) (keys, docs, nret int64, plan int32) {
	keys, docs, nret = examined(body)
	plan = -1
	if text, ok := planSummary(body); ok {
		plan = q.nameID(text)
	}
	return keys, docs, nret, plan
}

// addText: State.add of a text event; the group's number.
func (q *queryState) addText(key queryKey, ns, body string, ms int64, getMore bool) int32 {
	keys, docs, nret, plan := q.textMetrics(body)
	key.ns = q.nameID(ns)
	return q.add(key, ms, keys, docs, nret, plan, getMore, fText)
}
