package main

// Report `queries`: slow operations grouped by namespace, operation and
// query shape, as the Python engine's queries module (itself mtools'
// mloginfo --queries grouping): the same operations, the same shape (values
// replaced by 1; $in, $gt, $gte, $lt, $lte and $exists collapse their
// operand; keys sorted), the same sketch of durations (quantile.go) and
// roundings; an aggregate's shape is its pipeline's (pipelineShape), and a
// getMore is charged to its originatingCommand's group. A getMore logged
// without one is tied by its cursor id: in text logs (before 3.4) as the
// Python engine does, with the cursors text commands opened (ids and group
// numbers); a JSON one hands the run over (JSON commands' cursors are not
// kept). Text logs are read in queries_text.go.
//
// Per group a fixed record of what the report prints (queryGroup, about
// 140 bytes), its shape's text and its index entry; a map only for a group
// whose durations fall in more than one bucket or that ran more than one
// plan. Rows are made from the records as they are written.

import (
	"bufio"
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"
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

// queryKey: a group's key. ns and name are numbers in the state's names
// (ns -1: None), shape a view of the line until the group is made; hash
// is of their texts (queryHash), the same in every part.
type queryKey struct {
	shape          string
	ns, name, hash int32
	noShape        bool
}

// querySeed: the seed of the groups' hashes, one for every part.
var querySeed = maphash.MakeSeed()

// queryHash: the hash of a key from the hashes of its names and its shape.
func queryHash(ns, name uint64, shape string, noShape bool) int32 {
	h := maphash.String(querySeed, shape) ^ bits.RotateLeft64(ns, 21) ^ bits.RotateLeft64(name, 42)
	if noShape {
		h = ^h
	}
	return int32(h ^ h>>32)
}

// queryGroup: queries' group, as the report prints it. The sketch is
// bucket while every duration falls in it, then buckets (bucket -> count);
// plan is a number in names (-1: none) run planN times, then plans.
type queryGroup struct {
	keys, docs, nreturned, total      int64
	commands, getMores, getMoreMillis int64
	min, max, planN                   int64
	key                               queryKey
	bucket, plan                      int32
	formats                           uint8      // fJSON, fText
	more                              *queryMore // nil while one bucket and one plan
}

// queryMore: the counts of a group of more than one bucket or plan (a
// map each, nil while there is one).
type queryMore struct{ buckets, plans map[int32]int64 }

func (g *queryGroup) buckets() map[int32]int64 {
	if g.more == nil {
		return nil
	}
	return g.more.buckets
}

func (g *queryGroup) plans() map[int32]int64 {
	if g.more == nil {
		return nil
	}
	return g.more.plans
}

func (g *queryGroup) moreOf() *queryMore {
	if g.more == nil {
		g.more = &queryMore{}
	}
	return g.more
}

// queryGroups: the groups in chunks of chunkLen; a group's number is its
// chunk's index times chunkLen plus its place in the chunk, so that merge
// takes another part's chunks as they are (not full, most of them), where
// a copy would hold a second record per group until the next collection.
// A group folded into another by merge stays, counted 0 times (folded).
type queryGroups struct{ chunks [][]queryGroup }

func (s *queryGroups) at(n int32) *queryGroup { return &s.chunks[n/chunkLen][n%chunkLen] }

func (s *queryGroups) add(g queryGroup) int32 {
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last]) == chunkLen {
		s.chunks = append(s.chunks, make([]queryGroup, 0, chunkLen))
		last++
	}
	s.chunks[last] = append(s.chunks[last], g)
	return int32(last*chunkLen + len(s.chunks[last]) - 1)
}

// each calls f with every group not folded into another, in no set order.
func (s *queryGroups) each(f func(n int32, g *queryGroup)) {
	for c, chunk := range s.chunks {
		for i := range chunk {
			if g := &chunk[i]; !g.folded() {
				f(int32(c*chunkLen+i), g)
			}
		}
	}
}

func (g *queryGroup) folded() bool { return g.commands+g.getMores == 0 }

type queryState struct {
	src int
	// text: a part of a text log (feedText); jsonInText: it held JSON slow
	// query lines; sawJSON: a JSON slow query was counted; tied: a getMore
	// was tied by its cursor id.
	text, jsonInText, sawJSON, tied bool
	// The cursors opened by this part's text commands, in file order (ids
	// and their groups' numbers, 12 bytes a cursor); searchable (id ->
	// group) is made at the first getMore tied by cursor id, which text
	// logs before 3.4 need; pending: per cursor not opened in this part,
	// its getMores (merge and settle find their group).
	openedIDs    []int64
	openedGroups []int32
	searchable   map[int64]int32
	pending      map[int64]*queryGroup
	// groups: the index of recs, open addressing: each slot a group's
	// number + 1 (0: empty) under its key's hash (so that neither a probe
	// nor a growth reads the records), a power of two of them, at most
	// three quarters used; nil until the first group (main tells an empty
	// report by its length). A map took 88 bytes a group, this 11 to 21.
	groups     []uint64
	grouped    int
	recs       queryGroups
	names      []string // namespaces, operation names and plan summaries
	nameIDs    map[string]int32
	nameHashes []uint64 // of names, for queryHash
	bad        tally
	arena      arena
	scratch    []byte
	stages     []byte // pipelineShape's text, apart from scratch (each $match's shape)
}

func newQueryState(src int) *queryState {
	return &queryState{src: src, nameIDs: map[string]int32{}}
}

// find: the number of the group of key (-1: none) and the slot where it is
// or would go.
func (q *queryState) find(key *queryKey) (n int32, slot int) {
	mask := len(q.groups) - 1
	hash := uint32(key.hash)
	for slot = int(hash) & mask; ; slot = (slot + 1) & mask {
		v := q.groups[slot]
		if v == 0 {
			return -1, slot
		}
		if uint32(v>>32) == hash {
			if n := int32(uint32(v)) - 1; q.recs.at(n).key == *key {
				return n, slot
			}
		}
	}
}

// lookup: find, before the first group too.
func (q *queryState) lookup(key *queryKey) (n int32, slot int) {
	if q.groups == nil {
		return -1, 0
	}
	return q.find(key)
}

// index makes group n, of a key find did not find, found; the slot find
// gave is lost when the table grows.
func (q *queryState) index(n int32, slot int) {
	if (q.grouped+1)*4 > len(q.groups)*3 {
		old := q.groups
		q.groups = make([]uint64, max(1024, 2*len(old)))
		mask := len(q.groups) - 1
		for _, v := range old {
			if v != 0 {
				at := int(v>>32) & mask
				for q.groups[at] != 0 {
					at = (at + 1) & mask
				}
				q.groups[at] = v
			}
		}
		_, slot = q.find(&q.recs.at(n).key)
	}
	q.groups[slot] = uint64(uint32(q.recs.at(n).key.hash))<<32 | uint64(n+1)
	q.grouped++
}

// nameID: the number of s (a view of a line: copied when new).
func (q *queryState) nameID(s string) int32 {
	if id, ok := q.nameIDs[s]; ok {
		return id
	}
	s = strings.Clone(s)
	id := int32(len(q.names))
	q.nameIDs[s] = id
	q.names = append(q.names, s)
	q.nameHashes = append(q.nameHashes, maphash.String(querySeed, s))
	return id
}

func (q *queryState) feed(offset int64, line []byte) {
	if q.text {
		q.feedText(offset, line)
		return
	}
	q.feedJSON(offset, line)
}

func (q *queryState) feedJSON(offset int64, line []byte) {
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
	key := queryKey{name: q.nameID(name), ns: -1}
	key.shape, key.noShape = q.commandShape(low, command)
	ns := attr.get("ns")
	switch {
	case ns == nil || ns.k == kNull:
	case ns.k == kString:
		key.ns = q.nameID(ns.s)
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
	planID := int32(-1)
	if plan != nil && plan.k == kString {
		planID = q.nameID(plan.s)
	}
	q.sawJSON = true
	q.add(key, ms, keys, docs, nret, planID, getMore, fJSON)
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
	return view(b), false
}

// view: b as a string without a copy, valid until b is written again (add
// copies a shape when it makes its group).
func view(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// add counts a slow query in its group (State.add); the group's number.
func (q *queryState) add(key queryKey, ms, keys, docs, nret int64, plan int32, getMore bool, format uint8) int32 {
	key = q.hashed(key)
	at, slot := q.lookup(&key)
	fresh := at < 0
	if fresh {
		key.shape = strings.Clone(key.shape)
		at = q.recs.add(newQueryGroup(key, ms))
		q.index(at, slot)
	}
	q.recs.at(at).count(ms, keys, docs, nret, plan, getMore, format, fresh)
	return at
}

// hashed: key with its hash.
func (q *queryState) hashed(key queryKey) queryKey {
	var nsHash uint64
	if key.ns >= 0 {
		nsHash = q.nameHashes[key.ns]
	}
	key.hash = queryHash(nsHash, q.nameHashes[key.name], key.shape, key.noShape)
	return key
}

// newQueryGroup: a group of key whose first duration is ms (count adds
// the rest of it).
func newQueryGroup(key queryKey, ms int64) queryGroup {
	return queryGroup{key: key, bucket: quantileBucket(ms), min: ms, max: ms, plan: -1}
}

// count counts a slow query in g (queries._count); fresh: g was made of
// its duration.
func (g *queryGroup) count(ms, keys, docs, nret int64, plan int32, getMore bool, format uint8, fresh bool) {
	if ms >= exactFloat || ms <= -exactFloat {
		bail("a duration beyond what a float holds exactly")
	}
	if !fresh {
		g.countDuration(quantileBucket(ms), 1)
		g.min, g.max = min(g.min, ms), max(g.max, ms)
	}
	g.formats |= format
	g.keys += keys
	g.docs += docs
	g.nreturned += nret
	g.total += ms
	if getMore {
		g.getMores++
		g.getMoreMillis += ms
	} else {
		g.commands++
	}
	if plan >= 0 {
		g.countPlan(plan, 1)
	}
}

// countDuration counts n durations of bucket k, before the group's counts
// are added to.
func (g *queryGroup) countDuration(k int32, n int64) {
	switch {
	case g.buckets() != nil:
		g.more.buckets[k] += n
	case k != g.bucket:
		g.moreOf().buckets = map[int32]int64{g.bucket: g.commands + g.getMores, k: n}
	}
}

func (g *queryGroup) countPlan(plan int32, n int64) {
	switch {
	case g.plans() != nil:
		g.more.plans[plan] += n
	case g.plan < 0:
		g.plan = plan
	case plan != g.plan:
		g.moreOf().plans = map[int32]int64{g.plan: g.planN, plan: n}
	}
	g.planN += n
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

// shapeText: the shape's text, a view of scratch.
func (q *queryState) shapeText(source *value) string {
	q.scratch = appendShape(q.scratch[:0], source)
	return view(q.scratch)
}

// merge folds in o, the part that follows, and leaves it empty: o's
// records are taken as they are (the first part's wholesale, into an empty
// state), those of a group this state has folded into it.
func (q *queryState) merge(o *queryState) {
	q.bad.merge(&o.bad)
	if q.grouped == 0 && len(q.pending) == 0 {
		// o's records, names and cursors taken as they are.
		src, bad, sawJSON, tied := q.src, q.bad, q.sawJSON || o.sawJSON, q.tied || o.tied
		*q, *o = *o, queryState{src: o.src}
		q.src, q.bad, q.sawJSON, q.tied = src, bad, sawJSON, tied
		return
	}
	q.sawJSON, q.tied = q.sawJSON || o.sawJSON, q.tied || o.tied
	ids := make([]int32, len(o.names))
	for i, name := range o.names {
		ids[i] = q.nameID(name)
	}
	id := func(n int32) int32 {
		if n < 0 {
			return n
		}
		return ids[n]
	}
	base := int32(len(q.recs.chunks) * chunkLen)
	q.recs.chunks = append(q.recs.chunks, o.recs.chunks...)
	o.groups = nil
	var moved []int32 // o's group numbers -> q's, for o's cursors
	if len(o.openedIDs) > 0 {
		moved = make([]int32, len(o.recs.chunks)*chunkLen)
	}
	o.recs.each(func(n int32, theirs *queryGroup) {
		theirs.key.ns, theirs.key.name = id(theirs.key.ns), id(theirs.key.name)
		at, slot := q.lookup(&theirs.key)
		if at < 0 {
			q.index(base+n, slot)
			theirs.renumberPlans(id)
			at = base + n
		} else {
			q.recs.at(at).fold(theirs, id)
			*theirs = queryGroup{} // folded
		}
		if moved != nil {
			moved[n] = at
		}
	})
	// o's waiting getMores go to the cursors opened before o, here.
	for cursor, theirs := range o.pending {
		theirs.key.ns, theirs.key.name = id(theirs.key.ns), id(theirs.key.name)
		if at, ok := q.opened(cursor); ok {
			q.recs.at(at).fold(theirs, id)
		} else if mine := q.pending[cursor]; mine != nil {
			mine.fold(theirs, id)
		} else {
			theirs.renumberPlans(id)
			if q.pending == nil {
				q.pending = map[int64]*queryGroup{}
			}
			q.pending[cursor] = theirs
		}
	}
	for i, cursor := range o.openedIDs {
		q.remember(cursor, moved[o.openedGroups[i]])
	}
	*o = queryState{src: o.src}
}

// takePlans: g's plans (plan run planN times, or plans), taken out of g
// for mergePlans to count them again under another part's numbers.
func (g *queryGroup) takePlans() (plan int32, plans map[int32]int64, planN int64) {
	plan, plans, planN = g.plan, g.plans(), g.planN
	g.plan, g.planN = -1, 0
	if g.more != nil {
		g.more.plans = nil
	}
	return plan, plans, planN
}

// renumberPlans makes g's plan numbers another part's, by id.
func (g *queryGroup) renumberPlans(id func(int32) int32) {
	plan, plans, planN := g.takePlans()
	g.mergePlans(plan, plans, planN, id)
}

// remember: the cursor opened by a command of group n; a later opening of
// the same id (reused after its cursor closed) wins.
func (q *queryState) remember(cursor int64, n int32) {
	q.openedIDs = append(q.openedIDs, cursor)
	q.openedGroups = append(q.openedGroups, n)
	if q.searchable != nil {
		q.searchable[cursor] = n
	}
}

// opened: the group of the command that opened cursor, if one did.
func (q *queryState) opened(cursor int64) (int32, bool) {
	if q.searchable == nil {
		q.searchable = make(map[int64]int32, len(q.openedIDs))
		for i, id := range q.openedIDs {
			q.searchable[id] = q.openedGroups[i]
		}
	}
	n, ok := q.searchable[cursor]
	return n, ok
}

// unknownOrigin: the shape of the getMores whose cursor no command opened
// in the files (queries.UNKNOWN_ORIGIN).
const unknownOrigin = "(unknown origin)"

// settle: queries._settled: the getMores still waiting (their cursor was
// opened before the files start) go to the "(unknown origin)" group of
// their namespace.
func (q *queryState) settle() {
	if q.tied && q.sawJSON {
		// JSON commands' cursors are not kept here (their getMores carry
		// originatingCommand, or are handed over).
		bail("a getMore tied by cursor id in a run with JSON slow queries")
	}
	for _, theirs := range q.pending {
		theirs.key = q.hashed(theirs.key)
		at, slot := q.lookup(&theirs.key)
		if at < 0 {
			q.index(q.recs.add(*theirs), slot)
			continue
		}
		q.recs.at(at).fold(theirs, func(n int32) int32 { return n })
	}
	q.pending = nil
}

// fold adds theirs, another part's group whose plan numbers id makes g's,
// to g (queries._fold_into); theirs' plans are taken out of it.
func (g *queryGroup) fold(theirs *queryGroup, id func(int32) int32) {
	if theirs.buckets() == nil {
		g.countDuration(theirs.bucket, theirs.commands+theirs.getMores)
	} else {
		if g.buckets() == nil {
			g.moreOf().buckets = map[int32]int64{g.bucket: g.commands + g.getMores}
		}
		for k, n := range theirs.more.buckets {
			g.more.buckets[k] += n
		}
	}
	g.min, g.max = min(g.min, theirs.min), max(g.max, theirs.max)
	g.keys += theirs.keys
	g.docs += theirs.docs
	g.nreturned += theirs.nreturned
	g.total += theirs.total
	g.commands += theirs.commands
	g.getMores += theirs.getMores
	g.getMoreMillis += theirs.getMoreMillis
	g.formats |= theirs.formats
	plan, plans, planN := theirs.takePlans()
	g.mergePlans(plan, plans, planN, id)
}

// mergePlans counts another part's plans (plan run planN times, or plans)
// in g, their numbers made this part's by id.
func (g *queryGroup) mergePlans(plan int32, plans map[int32]int64, planN int64, id func(int32) int32) {
	if plans == nil && plan >= 0 {
		g.countPlan(id(plan), planN)
	}
	for p, n := range plans {
		g.countPlan(id(p), n)
	}
}

// queryRow: what a row prints beyond its group's own figures.
type queryRow struct {
	*queryGroup
	median, p95                      int64
	share                            float64
	keysPerReturned, docsPerReturned optFloat
	plan                             int32 // -1: none
	planSummaries                    int
}

const exactFloat = int64(1) << 53

func checkExact(n int64) {
	if n >= exactFloat || n <= -exactFloat {
		bail("a total beyond what a float holds exactly")
	}
}

// optFloat: a float or None.
type optFloat struct {
	f  float64
	ok bool
}

func ratio(a, b int64) optFloat {
	if b == 0 {
		return optFloat{}
	}
	checkExact(a)
	checkExact(b)
	return optFloat{round1(float64(a) / float64(b)), true}
}

// queryOrder: the report's rows, as numbers of q.recs, by total time, then
// namespace, operation and shape (queries._ordered); grand: every group's
// total time.
type queryOrder struct {
	rows  []int32
	grand int64
}

func (q *queryState) nsText(k queryKey) string {
	if k.ns < 0 {
		return "None"
	}
	return q.names[k.ns]
}

// queryRanked: what orders a row, beside its group's number: the records
// lie all over the heap.
type queryRanked struct {
	total    int64
	shape    string
	ns, name int32
	n        int32
	noShape  bool
}

func (q *queryState) compareRanked(x, y *queryRanked) int {
	if x.total != y.total {
		if x.total > y.total {
			return -1
		}
		return 1
	}
	if x.ns != y.ns {
		if c := strings.Compare(q.nsText(queryKey{ns: x.ns}), q.nsText(queryKey{ns: y.ns})); c != 0 {
			return c
		}
	}
	if x.name != y.name {
		if c := strings.Compare(q.names[x.name], q.names[y.name]); c != 0 {
			return c
		}
	}
	if c := strings.Compare(x.shape, y.shape); c != 0 {
		return c
	}
	if x.ns != y.ns || x.noShape != y.noShape {
		bail("two groups that differ only by a missing namespace or shape")
	}
	return 0
}

// rows: the groups in the report's order.
func (q *queryState) rows() queryOrder {
	var grand int64
	order := make([]queryRanked, 0, q.grouped)
	q.recs.each(func(n int32, g *queryGroup) {
		grand += g.total
		order = append(order, queryRanked{g.total, g.key.shape, g.key.ns, g.key.name, n, g.key.noShape})
	})
	checkExact(grand)
	order = sortOnTwoCores(order, func(x, y queryRanked) int { return q.compareRanked(&x, &y) })
	rows := make([]int32, len(order))
	for i, r := range order {
		rows[i] = r.n
	}
	return queryOrder{rows, grand}
}

// row: queries._row of the group at.
func (q *queryState) row(at int32, grand int64) queryRow {
	g := q.recs.at(at)
	n := g.commands + g.getMores
	r := queryRow{queryGroup: g, keysPerReturned: ratio(g.keys, g.nreturned),
		docsPerReturned: ratio(g.docs, g.nreturned), plan: g.plan}
	if g.buckets() == nil {
		one := []int32{g.bucket}
		r.median = quantileOf(one, []int64{n}, n, 50, g.min, g.max)
		r.p95 = quantileOf(one, []int64{n}, n, 95, g.min, g.max)
	} else {
		buckets := make([]int32, 0, len(g.more.buckets))
		for k := range g.more.buckets {
			buckets = append(buckets, k)
		}
		slices.Sort(buckets)
		counts := make([]int64, len(buckets))
		for i, k := range buckets {
			counts[i] = g.more.buckets[k]
		}
		r.median = quantileOf(buckets, counts, n, 50, g.min, g.max)
		r.p95 = quantileOf(buckets, counts, n, 95, g.min, g.max)
	}
	if grand != 0 {
		r.share = round1(100.0 * float64(g.total) / float64(grand))
	}
	switch {
	case g.plans() != nil:
		r.planSummaries = len(g.more.plans)
		for p, count := range g.more.plans {
			// max(sorted(plans), key=count): the first in text order of the most run
			if best := g.more.plans[r.plan]; count > best || count == best && q.names[p] < q.names[r.plan] {
				r.plan = p
			}
		}
	case g.plan >= 0:
		r.planSummaries = 1
	}
	return r
}

func appendFloatOrNull(b []byte, f optFloat) []byte {
	if !f.ok {
		return append(b, "null"...)
	}
	return appendTenths(b, f.f)
}

// appendTenths appends pyRepr(f) of a round1 result without pyRepr's
// search for the shortest digits (a third of --json's time on a log of a
// group per line): below 10^15 the double nearest to k/10 prints as k/10,
// whole tenths and all (no other decimal of 15 digits or fewer is nearest
// to it); anything else goes to pyRepr.
func appendTenths(b []byte, f float64) []byte {
	k := int64(math.Round(f * 10))
	if math.Signbit(f) || k >= 1e15 || float64(k)/10 != f {
		return append(b, pyRepr(f)...)
	}
	b = strconv.AppendInt(b, k/10, 10)
	return append(b, '.', byte('0'+k%10))
}

// percentileError: pyRepr of the relative error each --json record states.
var percentileError = pyRepr(quantileErrorPercent / 100.0)

// outputJSON: the rows formatted by every core, a batch each at a time.
func (q *queryState) outputJSON(out *bufio.Writer, order queryOrder) {
	writeBatches(out, len(order.rows), func(b []byte, lo, hi int) []byte {
		for _, at := range order.rows[lo:hi] {
			b = q.appendJSON(b, q.row(at, order.grand))
		}
		return b
	})
}

func (q *queryState) appendJSON(b []byte, r queryRow) []byte {
	b = append(b, `{"record":"query","namespace":`...)
	if r.key.ns < 0 {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, q.names[r.key.ns])
	}
	b = append(b, `,"operation":`...)
	b = appendJSONString(b, q.names[r.key.name])
	b = append(b, `,"shape":`...)
	if r.key.noShape {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, r.key.shape)
	}
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, r.commands+r.getMores, 10)
	b = append(b, `,"commands":`...)
	b = strconv.AppendInt(b, r.commands, 10)
	b = append(b, `,"getMores":`...)
	b = strconv.AppendInt(b, r.getMores, 10)
	b = append(b, `,"minMillis":`...)
	b = strconv.AppendInt(b, r.min, 10)
	b = append(b, `,"medianMillis":`...)
	b = strconv.AppendInt(b, r.median, 10)
	b = append(b, `,"p95Millis":`...)
	b = strconv.AppendInt(b, r.p95, 10)
	b = append(b, `,"percentileRelativeError":`...)
	b = append(b, percentileError...)
	b = append(b, `,"maxMillis":`...)
	b = strconv.AppendInt(b, r.max, 10)
	b = append(b, `,"totalMillis":`...)
	b = strconv.AppendInt(b, r.total, 10)
	b = append(b, `,"getMoreMillis":`...)
	b = strconv.AppendInt(b, r.getMoreMillis, 10)
	b = append(b, `,"sharePercent":`...)
	b = appendTenths(b, r.share)
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
	if r.plan < 0 {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, q.names[r.plan])
	}
	b = append(b, `,"planSummaries":`...)
	b = strconv.AppendInt(b, int64(r.planSummaries), 10)
	b = append(b, `,"format":"`...)
	b = append(b, formats[r.formats]...)
	b = append(b, "\"}\n"...)
	return b
}

// queryNamespace: a row of queries.namespaces.
type queryNamespace struct {
	ns                                int32
	shapes, commands, getMores, total int64
}

// queryNamespaces: queries.namespaces, per namespace: shapes, commands,
// getMores, total ms, by total time.
func (q *queryState) queryNamespaces() []queryNamespace {
	at := map[int32]int{}
	var out []queryNamespace
	q.recs.each(func(_ int32, g *queryGroup) {
		k, ok := at[g.key.ns]
		if !ok {
			k = len(out)
			at[g.key.ns] = k
			out = append(out, queryNamespace{ns: g.key.ns})
		}
		out[k].shapes++
		out[k].commands += g.commands
		out[k].getMores += g.getMores
		out[k].total += g.total
	})
	nsText := func(ns int32) string { return q.nsText(queryKey{ns: ns}) }
	sort.Slice(out, func(i, j int) bool {
		if out[i].total != out[j].total {
			return out[i].total > out[j].total
		}
		return nsText(out[i].ns) < nsText(out[j].ns)
	})
	return out
}

// percentilesNote: queries.PERCENTILES_NOTE, the line under the table.
var percentilesNote = "MEDIAN MS and P95 MS: nearest rank, from a sketch within " + strconv.Itoa(quantileErrorPercent) +
	"% of the exact values (exact below 100 ms)\n"

func (q *queryState) outputTable(out *bufio.Writer, order queryOrder, top int) {
	if len(order.rows) == 0 {
		return
	}
	perNs := q.queryNamespaces()
	var grand int64
	for _, n := range perNs {
		grand += n.total
	}
	summary := planTable([]string{"NAMESPACE", "SHAPES", "COMMANDS", "GETMORES", "TOTAL MS", "SHARE"},
		map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true}, func(emit func([]cell)) {
			for _, n := range perNs {
				var ns cell
				if n.ns >= 0 {
					ns = str(q.names[n.ns])
				}
				share := 0.0
				if grand != 0 {
					share = round1(100.0 * float64(n.total) / float64(grand))
				}
				emit([]cell{ns, itoa(n.shapes), itoa(n.commands), itoa(n.getMores), itoa(n.total),
					str(strconv.FormatFloat(share, 'f', 1, 64) + "%")})
			}
		})
	shown := order.rows[:shownOf(top, len(order.rows))]
	headers := []string{"NAMESPACE", "OPERATION", "SHAPE", "COMMANDS", "GETMORES", "MIN MS", "MEDIAN MS", "P95 MS",
		"MAX MS", "TOTAL MS", "SHARE", "KEYS/RET", "DOCS/RET", "PLAN"}
	floatCell := func(f optFloat) cell {
		if !f.ok {
			return nil
		}
		return str(pyRepr(f.f))
	}
	numeric := map[int]bool{}
	for i := 3; i < 13; i++ {
		numeric[i] = true
	}
	// The cells are made afresh on each pass (widths, then lines): no table
	// is held, --all included.
	table := planTable(headers, numeric, func(emit func([]cell)) {
		for _, at := range shown {
			r := q.row(at, order.grand)
			var ns, shape, plan cell
			if r.key.ns >= 0 {
				ns = str(q.names[r.key.ns])
			}
			if !r.key.noShape {
				shape = str(r.key.shape)
			}
			if r.plan >= 0 {
				p := q.names[r.plan]
				if p != "" && r.planSummaries > 1 {
					p += " (+" + strconv.Itoa(r.planSummaries-1) + " more)"
				}
				plan = str(p)
			}
			emit([]cell{ns, str(q.names[r.key.name]), shape, itoa(r.commands), itoa(r.getMores), itoa(r.min),
				itoa(r.median), itoa(r.p95), itoa(r.max), itoa(r.total),
				str(strconv.FormatFloat(r.share, 'f', 1, 64) + "%"),
				floatCell(r.keysPerReturned), floatCell(r.docsPerReturned), plan})
		}
	})
	out.WriteString("Per namespace (" + strconv.Itoa(len(perNs)) + ")\n")
	summary.write(out)
	out.WriteString("\n")
	rankedTable{"Query shapes", "Query shapes with the most total time", len(order.rows), len(shown), table}.write(out)
	out.WriteString(percentilesNote)
}
