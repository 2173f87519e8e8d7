package main

import "testing"

// Lines of tests/fixtures/logs: queries-4.2.derived.text.log (4.2) and
// generations-2.4.derived.text.log (2.4); the expected shapes are the
// Python engine's (queries.event_from_text) on the same lines.
func TestTextShapesOfFixtureLines(t *testing.T) {
	cases := []struct{ name, msg, op, shape string }{
		{"a 4.2 find's filter", `command shop.orders appName: "orders-api" command: find { find: "orders", filter: { customerId: 42, status: "open" }, sort: { createdAt: -1 }, limit: 50, lsid: { id: UUID("4a230956-9cbe-48a9-9093-8c2fae2b659f") }, $db: "shop" } planSummary: IXSCAN { customerId: 1, createdAt: -1 } keysExamined:50 docsExamined:50 cursorExhausted:1 numYields:0 nreturned:50 reslen:9120 locks:{} protocol:op_msg 140ms`,
			"find", `{"customerId": 1, "status": 1}`},
		{"$gte collapses its operand", `command shop.orders appName: "reports" command: find { find: "orders", filter: { total: { $gte: 100 } }, $db: "shop" } planSummary: COLLSCAN cursorid:5077215651712563187 keysExamined:0 docsExamined:100000 numYields:781 nreturned:101 reslen:18000 locks:{} protocol:op_msg 2300ms`,
			"find", `{"total": 1}`},
		{"an aggregate's pipeline", `command shop.orders command: aggregate { aggregate: "orders", pipeline: [ { $match: { status: "open" } }, { $group: { _id: "$customerId", n: { $sum: 1 } } } ], cursor: {}, $db: "shop" } planSummary: IXSCAN { status: 1 } keysExamined:3000 docsExamined:3000 cursorExhausted:1 numYields:23 nreturned:40 reslen:1200 locks:{} protocol:op_msg 320ms`,
			"aggregate", `$match {"status": 1} | $group`},
		{"a getMore charged to its originatingCommand", `command shop.orders appName: "reports" command: getMore { getMore: 5077215651712563187, collection: "orders", $db: "shop" } originatingCommand: { find: "orders", filter: { total: { $gte: 100 } }, $db: "shop" } planSummary: COLLSCAN cursorid:5077215651712563187 keysExamined:0 docsExamined:20000 numYields:156 nreturned:4000 reslen:700000 locks:{} protocol:op_msg 400ms`,
			"find", `{"total": 1}`},
		{"a 2.4 query op", `query test.orders query: { status: "open", qty: { $gt: 5 } } cursorid:1234567890123456789 ntoreturn:0 ntoskip:0 nscanned:250 keyUpdates:0 numYields:1 locks(micros) r:1789 nreturned:101 reslen:4040 120ms`,
			"query", `{"qty": 1, "status": 1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := newQueryState(0)
			op, ns, body, ms, ok := slowOp(c.msg)
			if !ok {
				t.Fatalf("not a slow operation")
			}
			if bad := q.fromText(op, ns, body, ms); bad != nil {
				t.Fatalf("unparsable: %s", bad.reason)
			}
			if q.grouped != 1 {
				t.Fatalf("%d groups, want 1", q.grouped)
			}
			g := q.recs.at(0)
			if got := q.names[g.key.name]; got != c.op {
				t.Errorf("operation %q, want %q", got, c.op)
			}
			if g.key.noShape || g.key.shape != c.shape {
				t.Errorf("shape %q, want %q", g.key.shape, c.shape)
			}
		})
	}
}

// The shell notation as queries._ShellDoc reads it: strings as text (a
// list of them folds into one 1), every other scalar (ObjectId(...),
// regexes, numbers) as 1, and its messages for what it cannot read.
func TestShellReader(t *testing.T) {
	cases := []struct{ doc, shape, reason string }{
		{`{ _id: ObjectId('5f1a2b3c4d5e6f7a8b9c0d1e') }`, `{"_id": 1}`, ""},
		{`{ name: /^ab,c/i, tags: [ "a", "b" ] }`, `{"name": 1, "tags": [1]}`, ""},
		{`{ b: 1, a: 2, b: { c: 3 } }`, `{"a": 1, "b": {"c": 1}}`, ""},
		{`{ $query: { x: 1 }, $orderby: { y: 1 } }`, `{"x": 1}`, ""},
		{`{ a: 1 b: 2 }`, `{"a": 1}`, ""}, // a scalar runs to the next ',', '}' or ']'
		{`{ a: [ 1, ] }`, `{"a": [1, 1]}`, ""},
		{`{ a: "x" 1 }`, "", "query shape: ',' or '}' expected"},
		{`{ a: 1, }`, "", "query shape without ':' after a field name"},
		{`{ a: [ "x" 1 ] }`, "", "query shape: ',' or ']' expected"},
	}
	for _, c := range cases {
		q := newQueryState(0)
		doc, bad := q.textDocument(c.doc, 0)
		switch {
		case c.reason != "":
			if bad == nil || bad.reason != c.reason {
				t.Errorf("%s: %v, want %q", c.doc, bad, c.reason)
			}
		case bad != nil:
			t.Errorf("%s: unparsable: %s", c.doc, bad.reason)
		default:
			if got := q.shapeText(doc); got != c.shape {
				t.Errorf("%s: %q, want %q", c.doc, got, c.shape)
			}
		}
	}
}
