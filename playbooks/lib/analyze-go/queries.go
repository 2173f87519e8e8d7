package main

// Report `queries`: slow operations grouped by namespace, operation and
// query shape, as the Python engine's queries module (itself mtools'
// mloginfo --queries grouping): the same operations, the same shape (values
// replaced by 1; $in, $gt, $gte, $lt, $lte and $exists collapse their
// operand; keys sorted), the same percentiles and roundings; an aggregate's
// shape is its pipeline's (pipelineShape), and a getMore is charged to its
// originatingCommand's group. A getMore logged without one is tied by its
// cursor id in the Python engine, which keeps the cursors opened: this one
// hands such a run over rather than keep them too.

import (
	"bufio"
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
)

var (
	queryOps      = map[string]bool{"query": true, "update": true, "remove": true}
	queryCommands = map[string]bool{"count": true, "findandmodify": true, "geonear": true, "find": true, "aggregate": true}
	collapsing    = map[string]bool{"$in": true, "$gt": true, "$gte": true, "$lt": true, "$lte": true, "$exists": true}
	extendedJSON  = map[string]bool{"$oid": true, "$date": true, "$numberLong": true, "$numberInt": true,
		"$numberDouble": true, "$numberDecimal": true, "$binary": true, "$timestamp": true,
		"$regularExpression": true, "$uuid": true, "$minKey": true, "$maxKey": true, "$undefined": true,
		"$symbol": true, "$code": true, "$dbPointer": true, "$regex": true}
	slowQueryID  = []byte(`"id":51803`)
	slowQueryMsg = []byte("Slow query")
)

// What a slow query line is read for: the id, and in attr the fields the
// report uses (the rest of the line is checked, not built).
var querySelection = (&selection{keys: map[string]*selection{
	"id": nil,
	"attr": {keys: map[string]*selection{
		"type": nil, "ns": nil, "durationMillis": nil, "keysExamined": nil, "docsExamined": nil,
		"nreturned": nil, "planSummary": nil,
		"command":            {keys: map[string]*selection{"filter": nil, "query": nil, "q": nil, "pipeline": nil}},
		"originatingCommand": {keys: map[string]*selection{"filter": nil, "query": nil, "q": nil, "pipeline": nil}},
	}},
}}).prepare()

type queryKey struct {
	ns      string
	nsNone  bool
	name    string
	shape   string
	noShape bool
}

type queryGroup struct {
	keys, docs, nreturned, total      int64
	commands, getMores, getMoreMillis int64
	durations                         map[int64]int64
	plans                             map[string]*int64
}

type queryState struct {
	src     int
	groups  map[queryKey]*queryGroup
	shapes  map[string]string // compact key of a normalized filter -> its text
	bad     tally
	arena   arena
	scratch []byte
	stages  []byte // pipelineShape's text, apart from scratch (each $match's shape)
}

func newQueryState(src int) *queryState {
	return &queryState{src: src, groups: map[queryKey]*queryGroup{}, shapes: map[string]string{}}
}

func (q *queryState) feed(offset int64, line []byte) {
	stripped := jsonLine(line)
	if !bytes.Contains(stripped, slowQueryID) && !bytes.Contains(stripped, slowQueryMsg) {
		return
	}
	q.bad.matched++
	doc := parseLine(stripped, querySelection, &q.arena, &q.bad, q.src, offset)
	if doc == nil {
		return
	}
	attr, bad := slowQueryAttr(doc)
	if bad != nil {
		q.bad.skip(q.src, offset, bad.reason)
	}
	if attr != nil {
		q.fromAttr(attr)
	}
}

// fromAttr: queries.event_from_attr and State.add.
func (q *queryState) fromAttr(attr *value) {
	command := attr.get("command")
	name, low, ok := queryName(attr.get("type"), command)
	if !ok {
		return
	}
	getMore := low == "getmore"
	if getMore {
		// queries.getmore_from_attr: the group of the command that opened
		// the cursor, as the server logged it with the getMore.
		origin := attr.get("originatingCommand")
		if origin == nil || origin.k == kNull {
			bail("a getMore without originatingCommand (tied by cursor id)")
		}
		command = origin
		name, ok = firstKey(origin)
		low = asciiLower(name)
		if !ok || !queryCommands[low] {
			return
		}
	}
	key := queryKey{name: name}
	key.shape, key.noShape = q.commandShape(low, command)
	ns := attr.get("ns")
	switch {
	case ns == nil || ns.k == kNull:
		key.nsNone = true
	case ns.k == kString:
		key.ns = ns.s
	default:
		bail("a slow query ns that is not a string")
	}
	ms, _ := asInt(attr.get("durationMillis"))
	keys, _ := asInt(attr.get("keysExamined"))
	docs, _ := asInt(attr.get("docsExamined"))
	nret, _ := asInt(attr.get("nreturned"))
	plan := attr.get("planSummary")
	if plan != nil && plan.k != kString && plan.k != kNull {
		bail("a plan summary that is not a string")
	}
	var planText *string
	if plan != nil && plan.k == kString {
		planText = &plan.s
	}
	q.add(key, ms, keys, docs, nret, planText, getMore)
}

// queryName: the operation of a slow query (its type, or a command's first
// key) as the report names it and in lower case ("getmore" for a getMore
// command or op); ok false for one the report leaves out.
func queryName(kindV, command *value) (name, low string, ok bool) {
	switch {
	case kindV == nil || kindV.k == kNull || kindV.k == kInt || kindV.k == kBool || kindV.k == kFloat ||
		kindV.k == kBigInt:
		return "", "", false // hashable, never one of the operations
	case kindV.k != kString:
		bail("a slow query type that is not a string")
	case kindV.s == "command":
		n, ok := firstKey(command)
		low = asciiLower(n)
		if !ok || !(queryCommands[low] || low == "getmore") {
			return "", "", false
		}
		return n, low, true
	case queryOps[kindV.s] || kindV.s == "getmore":
		return kindV.s, kindV.s, true
	}
	return "", "", false
}

// commandShape: the query shape of a command (of its filter, query or q,
// as the operation reads it); noShape when it has none.
func (q *queryState) commandShape(low string, command *value) (shape string, noShape bool) {
	if command == nil || command.k != kObject {
		return "", true
	}
	var source *value
	switch low {
	case "find":
		source = command.get("filter")
	case "aggregate":
		return q.pipelineShape(command.get("pipeline"))
	default:
		switch {
		case command.has("query"):
			source = command.get("query")
		case command.has("q"):
			source = command.get("q")
		default:
			source = command.get("filter")
		}
	}
	if source == nil || source.k != kObject {
		return "", true
	}
	return q.shapeText(source), false
}

// pipelineShape: queries.pipeline_shape (the stage names joined by " | ",
// a leading $match, or the one right after a leading $changeStream, with
// its filter's shape); noShape when the pipeline is not a list of stages.
func (q *queryState) pipelineShape(pipeline *value) (shape string, noShape bool) {
	if pipeline == nil || pipeline.k != kArray || len(pipeline.vals) == 0 {
		return "", true
	}
	b := q.stages[:0]
	lead := true
	for i, stage := range pipeline.vals {
		if stage.k != kObject || !stage.hasFirst {
			return "", true
		}
		if i > 0 {
			b = append(b, " | "...)
		}
		name := stage.s
		if body := stage.get(name); lead && name == "$match" && body.k == kObject {
			b = appendShape(append(b, "$match "...), body)
		} else {
			b = append(b, name...)
		}
		lead = i == 0 && name == "$changeStream"
	}
	q.stages = b
	if cached, ok := q.shapes[string(b)]; ok {
		return cached, false
	}
	text := string(b)
	q.shapes[text] = text
	return text, false
}

// add counts a slow query in its group (State.add). The key's strings may
// be views of the line: they are copied when the group is made.
func (q *queryState) add(key queryKey, ms, keys, docs, nret int64, plan *string, getMore bool) {
	g := q.groups[key]
	if g == nil {
		g = &queryGroup{durations: map[int64]int64{}, plans: map[string]*int64{}}
		key.ns, key.name = strings.Clone(key.ns), strings.Clone(key.name)
		q.groups[key] = g
	}
	g.keys += keys
	g.docs += docs
	g.nreturned += nret
	g.total += ms
	g.durations[ms]++
	if getMore {
		g.getMores++
		g.getMoreMillis += ms
	} else {
		g.commands++
	}
	if plan != nil {
		// Counted through a pointer: assigning to a map with an existing
		// key would store the plan, a view of the line, as the key.
		n := g.plans[*plan]
		if n == nil {
			n = new(int64)
			g.plans[strings.Clone(*plan)] = n
		}
		*n++
	}
}

// asciiLower: str.lower() where it can matter (the names compared are
// ASCII; a non-ASCII name never lowers to one of them).
func asciiLower(s string) string {
	if !isASCII(s) {
		return "\x00" + s
	}
	return strings.ToLower(s)
}

// appendShape appends the shape of v as mloginfo prints it:
// json.dumps(queries.normalize(v), sort_keys=True) with ", " and ": ",
// written straight from the value (normalize's values are 1, lists and
// objects, so the text alone tells an object: it starts with '{').
func appendShape(dst []byte, v *value) []byte {
	switch v.k {
	case kObject:
		// normalize returns at the first key, in order, that asks for it.
		for i, key := range v.keys {
			if collapsing[key] || (extendedJSON[key] && len(v.keys) <= 2) {
				return append(dst, '1')
			}
			if item := v.vals[i]; (key == "query" || key == "$query") && item.k == kObject {
				return appendShape(dst, item)
			}
		}
		var order [16]int
		idx := order[:0]
		for i := range v.keys {
			idx = append(idx, i)
		}
		for a := 1; a < len(idx); a++ { // insertion sort: a filter has few keys
			for b := a; b > 0 && v.keys[idx[b]] < v.keys[idx[b-1]]; b-- {
				idx[b], idx[b-1] = idx[b-1], idx[b]
			}
		}
		dst = append(dst, '{')
		for n, i := range idx {
			if n > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(appendJSONString(dst, v.keys[i]), ": "...)
			if item := v.vals[i]; v.keys[i] != "$nin" && (item.k == kObject || item.k == kArray) {
				dst = appendShape(dst, item)
			} else {
				dst = append(dst, '1')
			}
		}
		return append(dst, '}')
	case kArray:
		allStrings := len(v.vals) > 0
		for _, item := range v.vals {
			allStrings = allStrings && item.k == kString
		}
		if allStrings {
			return append(dst, "[1]"...) // mloginfo folds a list of strings into one 1
		}
		items := make([][]byte, len(v.vals))
		hasObject := false
		for i, item := range v.vals {
			items[i] = appendShape(nil, item)
			hasObject = hasObject || items[i][0] == '{'
		}
		if !hasObject {
			// Sorted by json.dumps of each, whose keys (of objects deeper
			// down) are escaped to ASCII where these texts keep UTF-8.
			for _, item := range items {
				if !isASCII(string(item)) {
					bail("a list of shapes with non-ASCII keys")
				}
			}
			slices.SortStableFunc(items, func(a, b []byte) int { return bytes.Compare(a, b) })
		}
		dst = append(dst, '[')
		for n, item := range items {
			if n > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, item...)
		}
		return append(dst, ']')
	}
	return append(dst, '1')
}

// shapeText: the shape's text, one string per distinct shape (a log has few).
func (q *queryState) shapeText(source *value) string {
	q.scratch = appendShape(q.scratch[:0], source)
	if cached, ok := q.shapes[string(q.scratch)]; ok {
		return cached
	}
	text := string(q.scratch)
	q.shapes[text] = text
	return text
}

func (q *queryState) merge(o *queryState) {
	q.bad.merge(&o.bad)
	for key, theirs := range o.groups {
		mine := q.groups[key]
		if mine == nil {
			q.groups[key] = theirs
			continue
		}
		mine.keys += theirs.keys
		mine.docs += theirs.docs
		mine.nreturned += theirs.nreturned
		mine.total += theirs.total
		mine.commands += theirs.commands
		mine.getMores += theirs.getMores
		mine.getMoreMillis += theirs.getMoreMillis
		for ms, n := range theirs.durations {
			mine.durations[ms] += n
		}
		for plan, n := range theirs.plans {
			if have := mine.plans[plan]; have != nil {
				*have += *n
			} else {
				mine.plans[plan] = n
			}
		}
	}
}

type queryRow struct {
	key                              queryKey
	count, min, max, total           int64
	commands, getMores, getMoreMs    int64
	median, p95                      pyNum
	share                            float64
	keys, docs, nreturned            int64
	keysPerReturned, docsPerReturned *float64
	plan                             *string
	planSummaries                    int
}

const exactFloat = int64(1) << 53

func checkExact(n int64) {
	if n >= exactFloat || n <= -exactFloat {
		bail("a total beyond what a float holds exactly")
	}
}

// percentile: common.percentile over the durations' histogram.
func percentile(values []int64, counts []int64, n int64, pct int64) pyNum {
	at := func(k int64) int64 {
		for i, c := range counts {
			if k < c {
				return values[i]
			}
			k -= c
		}
		return values[len(values)-1]
	}
	rank := float64((n-1)*pct) / 100.0
	low := int64(rank)
	high := low + 1
	if high > n-1 {
		high = n - 1
	}
	lo, hi := at(low), at(high)
	checkExact(lo)
	checkExact(hi)
	v := float64(lo) + float64(hi-lo)*(rank-float64(low))
	if v == float64(int64(v)) {
		return pyNum{i: int64(v)}
	}
	return pyNum{isFloat: true, f: round1(v)}
}

func ratio(a, b int64) *float64 {
	if b == 0 {
		return nil
	}
	checkExact(a)
	checkExact(b)
	r := round1(float64(a) / float64(b))
	return &r
}

func (q *queryState) rows() []queryRow {
	var grand int64
	for _, g := range q.groups {
		grand += g.total
	}
	checkExact(grand)
	out := make([]queryRow, 0, len(q.groups))
	for key, g := range q.groups {
		values := make([]int64, 0, len(g.durations))
		for ms := range g.durations {
			values = append(values, ms)
		}
		sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
		counts := make([]int64, len(values))
		var n int64
		for i, ms := range values {
			counts[i] = g.durations[ms]
			n += counts[i]
		}
		row := queryRow{key: key, count: n, min: values[0], max: values[len(values)-1], total: g.total,
			commands: g.commands, getMores: g.getMores, getMoreMs: g.getMoreMillis,
			median: percentile(values, counts, n, 50), p95: percentile(values, counts, n, 95),
			keys: g.keys, docs: g.docs, nreturned: g.nreturned,
			keysPerReturned: ratio(g.keys, g.nreturned), docsPerReturned: ratio(g.docs, g.nreturned),
			planSummaries: len(g.plans)}
		if grand != 0 {
			row.share = round1(100.0 * float64(g.total) / float64(grand))
		}
		if len(g.plans) > 0 {
			plans := make([]string, 0, len(g.plans))
			for p := range g.plans {
				plans = append(plans, p)
			}
			sort.Strings(plans)
			best := plans[0]
			for _, p := range plans[1:] {
				if *g.plans[p] > *g.plans[best] {
					best = p
				}
			}
			row.plan = &best
		}
		out = append(out, row)
	}
	nsText := func(k queryKey) string {
		if k.nsNone {
			return "None"
		}
		return k.ns
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.total != b.total {
			return a.total > b.total
		}
		if x, y := nsText(a.key), nsText(b.key); x != y {
			return x < y
		}
		if a.key.name != b.key.name {
			return a.key.name < b.key.name
		}
		if a.key.shape != b.key.shape {
			return a.key.shape < b.key.shape
		}
		if a.key.nsNone != b.key.nsNone || a.key.noShape != b.key.noShape {
			bail("two groups that differ only by a missing namespace or shape")
		}
		return false
	})
	return out
}

func appendFloatOrNull(b []byte, f *float64) []byte {
	if f == nil {
		return append(b, "null"...)
	}
	return append(b, pyRepr(*f)...)
}

func (q *queryState) outputJSON(out *bufio.Writer, rows []queryRow) {
	var b []byte
	for _, r := range rows {
		b = append(b[:0], `{"record":"query","namespace":`...)
		if r.key.nsNone {
			b = append(b, "null"...)
		} else {
			b = appendJSONString(b, r.key.ns)
		}
		b = append(b, `,"operation":`...)
		b = appendJSONString(b, r.key.name)
		b = append(b, `,"shape":`...)
		if r.key.noShape {
			b = append(b, "null"...)
		} else {
			b = appendJSONString(b, r.key.shape)
		}
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, r.count, 10)
		b = append(b, `,"commands":`...)
		b = strconv.AppendInt(b, r.commands, 10)
		b = append(b, `,"getMores":`...)
		b = strconv.AppendInt(b, r.getMores, 10)
		b = append(b, `,"minMillis":`...)
		b = strconv.AppendInt(b, r.min, 10)
		b = append(b, `,"medianMillis":`...)
		b = append(b, r.median.String()...)
		b = append(b, `,"p95Millis":`...)
		b = append(b, r.p95.String()...)
		b = append(b, `,"maxMillis":`...)
		b = strconv.AppendInt(b, r.max, 10)
		b = append(b, `,"totalMillis":`...)
		b = strconv.AppendInt(b, r.total, 10)
		b = append(b, `,"getMoreMillis":`...)
		b = strconv.AppendInt(b, r.getMoreMs, 10)
		b = append(b, `,"sharePercent":`...)
		b = append(b, pyRepr(r.share)...)
		b = append(b, `,"keysExamined":`...)
		b = strconv.AppendInt(b, r.keys, 10)
		b = append(b, `,"docsExamined":`...)
		b = strconv.AppendInt(b, r.docs, 10)
		b = append(b, `,"nreturned":`...)
		b = strconv.AppendInt(b, r.nreturned, 10)
		b = append(b, `,"keysExaminedPerReturned":`...)
		b = appendFloatOrNull(b, r.keysPerReturned)
		b = append(b, `,"docsExaminedPerReturned":`...)
		b = appendFloatOrNull(b, r.docsPerReturned)
		b = append(b, `,"planSummary":`...)
		if r.plan == nil {
			b = append(b, "null"...)
		} else {
			b = appendJSONString(b, *r.plan)
		}
		b = append(b, `,"planSummaries":`...)
		b = strconv.AppendInt(b, int64(r.planSummaries), 10)
		b = append(b, `,"format":"json"}`+"\n"...)
		out.Write(b)
	}
}

// queryNamespaces: queries.namespaces, per namespace: shapes, commands,
// getMores, total ms, by total time.
func queryNamespaces(rows []queryRow) (out []queryRow) {
	at := map[string]int{}
	nsText := func(k queryKey) string {
		if k.nsNone {
			return "None"
		}
		return k.ns
	}
	for _, r := range rows {
		k, ok := at[nsText(r.key)]
		if !ok {
			k = len(out)
			at[nsText(r.key)] = k
			out = append(out, queryRow{key: queryKey{ns: r.key.ns, nsNone: r.key.nsNone}})
		}
		out[k].planSummaries++ // shapes
		out[k].commands += r.commands
		out[k].getMores += r.getMores
		out[k].total += r.total
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].total != out[j].total {
			return out[i].total > out[j].total
		}
		return nsText(out[i].key) < nsText(out[j].key)
	})
	return out
}

func (q *queryState) outputTable(out *bufio.Writer, rows []queryRow, top int) {
	if len(rows) == 0 {
		return
	}
	perNs := queryNamespaces(rows)
	var grand int64
	for _, n := range perNs {
		grand += n.total
	}
	summary := planTable([]string{"NAMESPACE", "SHAPES", "COMMANDS", "GETMORES", "TOTAL MS", "SHARE"},
		map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true}, func(emit func([]cell)) {
			for _, n := range perNs {
				var ns cell
				if !n.key.nsNone {
					ns = str(n.key.ns)
				}
				share := 0.0
				if grand != 0 {
					share = round1(100.0 * float64(n.total) / float64(grand))
				}
				emit([]cell{ns, itoa(int64(n.planSummaries)), itoa(n.commands), itoa(n.getMores), itoa(n.total),
					str(strconv.FormatFloat(share, 'f', 1, 64) + "%")})
			}
		})
	shown := rows[:shownOf(top, len(rows))]
	headers := []string{"NAMESPACE", "OPERATION", "SHAPE", "COMMANDS", "GETMORES", "MIN MS", "MEDIAN MS", "P95 MS",
		"MAX MS", "TOTAL MS", "SHARE", "KEYS/RET", "DOCS/RET", "PLAN"}
	body := make([][]cell, 0, len(shown))
	floatCell := func(f *float64) cell {
		if f == nil {
			return nil
		}
		return str(pyRepr(*f))
	}
	for _, r := range shown {
		var ns, shape, plan cell
		if !r.key.nsNone {
			ns = str(r.key.ns)
		}
		if !r.key.noShape {
			shape = str(r.key.shape)
		}
		if r.plan != nil {
			p := *r.plan
			if p != "" && r.planSummaries > 1 {
				p += " (+" + strconv.Itoa(r.planSummaries-1) + " more)"
			}
			plan = str(p)
		}
		body = append(body, []cell{ns, str(r.key.name), shape, itoa(r.commands), itoa(r.getMores), itoa(r.min),
			str(r.median.String()),
			str(r.p95.String()), itoa(r.max), itoa(r.total), str(strconv.FormatFloat(r.share, 'f', 1, 64) + "%"),
			floatCell(r.keysPerReturned), floatCell(r.docsPerReturned), plan})
	}
	numeric := map[int]bool{}
	for i := 3; i < 13; i++ {
		numeric[i] = true
	}
	table := planTable(headers, numeric, func(emit func([]cell)) {
		for _, row := range body {
			emit(row)
		}
	})
	out.WriteString("Per namespace (" + strconv.Itoa(len(perNs)) + ")\n")
	summary.write(out)
	out.WriteString("\n")
	rankedTable{"Query shapes", "Query shapes with the most total time", len(rows), len(shown), table}.write(out)
}
