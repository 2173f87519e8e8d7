"""Report queries: shapes as mloginfo makes them, stats, and agreement with
the real mloginfo (mtools, installed by setup in .tools/venv) on legacy logs;
the percentiles of its sketch, its memory per group, and the Go engine's
rows against these."""
import io
import os
import pty
import random
import re
import subprocess
import tracemalloc

import pytest

from analyze import legacy, quantile, queries
from conftest import FIXTURES, ROOT, fixture_lines, spying
from test_analyze_engines import assert_same, go_engine  # noqa: F401 (go_engine: a fixture the tests name)

MLOGINFO = os.path.join(ROOT, ".tools", "venv", "bin", "mloginfo")
LEGACY = ["queries-4.2.derived.text.log", "generations-2.2.derived.text.log",
          "generations-2.4.derived.text.log", "generations-2.6.derived.text.log",
          "generations-3.0.derived.text.log", "cursors-4.2.derived.text.log"]


@pytest.mark.parametrize("doc,shape", [
    ({"a": 5, "b": "x"}, {"a": 1, "b": 1}),
    ({"a": {"$in": [1, 2]}}, {"a": 1}),
    ({"a": {"$gte": 1, "$lt": 9}}, {"a": 1}),
    ({"a": {"$nin": [1, 2]}}, {"a": {"$nin": 1}}),
    ({"_id": {"$oid": "5eafe8f2c2d4a1b2c3d4e5f6"}}, {"_id": 1}),
    ({"$or": [{"a": 1}, {"b": {"$exists": True}}]}, {"$or": [{"a": 1}, {"b": 1}]}),
    ({"tags": ["x", "y", "z"]}, {"tags": [1]}),
])
def test_values_become_1(doc, shape):
    assert queries.normalize(doc) == shape


def test_text_shapes_read_the_shell_notation():
    body = (' command: find { find: "c", filter: { _id: ObjectId(\'5eafe8f2c2d4a1b2c3d4e5f6\'), '
            'd: new Date(1588500000000), r: /a,b/i, n: { $in: [ 1, 2 ] }, s: "x, y" } }')
    assert queries.shape_text(queries.text_shape(body, "filter: ")) == \
        '{"_id": 1, "d": 1, "n": 1, "r": 1, "s": 1}'


def test_json_find_lines_are_grouped_with_their_stats():
    state = queries.State()
    for line in fixture_lines("changestream-5.2.json.log"):
        if b"51803" in line:
            state.feed(0, 0, line)
    # The article's lines are a change stream's aggregate and its nine
    # getMores, charged to it (mloginfo leaves getMores out): 1181 ms + the
    # getMores' 10849; 309 + 2728 documents examined for 10 returned.
    rows = queries.rows(state)
    assert [(r["namespace"], r["operation"], r["shape"], r["commands"], r["getMores"], r["totalMillis"])
            for r in rows] == \
        [("test.foo", "aggregate", '$changeStream | $match {"fullDocument.msg": 1} | $project', 1, 9, 12030)]
    assert rows[0]["sharePercent"] == 100.0 and rows[0]["docsExaminedPerReturned"] == 303.7


def test_json_filters_get_the_text_shapes():
    line = (b'{"t":{"$date":"2022-03-02T06:47:26.367Z"},"s":"I",  "c":"COMMAND",  "id":51803,   '
            b'"ctx":"conn1","msg":"Slow query","attr":{"type":"command","ns":"shop.orders","command":'
            b'{"find":"orders","filter":{"customerId":42,"status":"open"},"$db":"shop"},'
            b'"planSummary":"IXSCAN { customerId: 1 }","keysExamined":50,"docsExamined":50,'
            b'"nreturned":50,"durationMillis":140}}')
    ev = queries.event_from_doc(queries.orjson.loads(line))
    text = ("2020-05-04T10:00:01.100+0000 I  COMMAND  [conn12] " +
            fixture_lines("queries-4.2.derived.text.log")[1].decode().split("] ", 1)[1])
    assert ev[2] == queries.event_from_text(legacy.parse_line(text))[2] == '{"customerId": 1, "status": 1}'


def mloginfo_groups(path):
    # mloginfo reads stdin instead of its file argument when stdin is not a
    # terminal: give it one.
    master, slave = pty.openpty()
    try:
        out = subprocess.run([MLOGINFO, "--queries", path], stdin=slave, capture_output=True,
                             text=True, check=True, timeout=120).stdout
    finally:
        os.close(master)
        os.close(slave)
    table = out[out.index("QUERIES"):].splitlines()[3:]
    groups = set()
    for row in table:
        found = re.match(r"^(\S+)\s+(\S+)\s+(None|\{.*?\})\s+(\d+)\s+\d+\s+\d+\s", row)
        if found:
            ns, op, pattern, count = found.groups()
            groups.add((ns, op, None if pattern == "None" else pattern, int(count)))
    return groups


@pytest.mark.skipif(not os.access(MLOGINFO, os.X_OK), reason="mloginfo not installed (run setup)")
@pytest.mark.parametrize("name", LEGACY)
def test_groups_and_counts_agree_with_mloginfo(name):
    path = os.path.join(FIXTURES, name)
    state = queries.State()
    offset = 0
    for line in fixture_lines(name):
        if b"ms" in line:
            state.feed(0, offset, line)
        offset += len(line) + 1
    # mloginfo counts the commands (a legacy getmore op as a group of its
    # own) and no getMore command; ours charges getMores to their opening
    # command, in a column apart, and gives aggregates a shape (mloginfo: None).
    ours = {(r["namespace"], r["operation"].lower(), None if r["operation"] == "aggregate" else r["shape"],
             r["commands"]) for r in queries.rows(state) if r["commands"]}
    theirs = {group for group in mloginfo_groups(path) if group[1] != "getmore"}
    assert ours == theirs
    assert ours


# ---------------------------------------------------------------- fast path --
# feed_span passes over the whole slow query lines the report does not count
# (getMore and other commands) by their type and command name alone, parses
# the counted ones it matched itself, and feeds every other line: the groups
# must be those of feed alone.

def _slow(kind, cmd, tail=b'"keysExamined":3,"docsExamined":40,"nreturned":4,"durationMillis":9'):
    return (b'{"t":{"$date":"2024-05-01T00:00:01.002+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   '
            b'"ctx":"conn7","msg":"Slow query","attr":{"type":"' + kind + b'","ns":"shop.orders",'
            b'"command":' + cmd + b',"planSummary":"COLLSCAN",' + tail + b'}}')


FIND = b'{"find":"orders","filter":{"userId":5},"$db":"shop"}'
GETMORE = b'{"getMore":77,"collection":"orders"},"originatingCommand":' + FIND


Spy = spying(queries.State)


def _compare(lines):
    spy = Spy()
    buf = b"\n".join(lines) + b"\n"
    spy.feed_span(0, buf, 0, len(buf), 0, (b"51803",))
    reference = queries.State()
    for line in lines:
        if b"51803" in line:
            reference.feed(0, 0, line)
    assert queries.rows(spy) == queries.rows(reference)
    assert (spy.bad.matched, spy.bad.unparsable) == (reference.bad.matched, reference.bad.unparsable)
    return spy


def test_the_usual_lines_never_reach_feed_and_group_alike():
    lines = [_slow(b"command", FIND), _slow(b"command", GETMORE), _slow(b"command", b'{"hello":1}'),
             _slow(b"insert", b'{"insert":"orders"}'), _slow(b"update", b'{"q":{"a":1},"u":{"b":2}}'),
             _slow(b"command", GETMORE), _slow(b"command", GETMORE)]
    spy = _compare(lines)
    assert spy.fed == []
    assert [(r["operation"], r["commands"], r["getMores"]) for r in queries.rows(spy)] == \
        [("find", 1, 3), ("update", 1, 0)]


def test_lines_the_regex_does_not_read_still_reach_feed():
    cut = _slow(b"command", GETMORE)[:-40]
    escaped = _slow(b"command", GETMORE).replace(b'"ns":"shop.orders"', b'"ns":"shop.or\\"ders"')
    lines = [cut, escaped, _slow(b"command", FIND), b"x" + _slow(b"command", FIND)]
    spy = _compare(lines)
    assert spy.fed == [cut, escaped, lines[3]]
    assert spy.bad.unparsable == 1  # the cut line (the "x..." one is no log line)


def test_a_matched_line_that_is_not_json_is_fed_and_counted_unparsable():
    broken = _slow(b"command", b'{"find":"orders","filter":{"a":1,}}')
    spy = _compare([broken, _slow(b"command", FIND), _slow(b"command", GETMORE)])
    assert spy.fed == [broken] and spy.bad.unparsable == 1


def test_a_block_of_counted_finds_goes_line_by_line():
    # Nothing to pass over: the regex would only add its own cost.
    lines = [_slow(b"command", FIND)] * 8 + [_slow(b"command", GETMORE)]
    assert len(_compare(lines).fed) == 9  # every line, as without the regex


# ------------------------------------------------- aggregates and getMores --
# keyhole and Hatchet group aggregates by their $match and charge each
# getMore to the command that opened its cursor; mloginfo leaves both out.

def _rows_of(name):
    state = queries.State()
    offset = 0
    for line in fixture_lines(name):
        if line.strip():
            state.feed(0, offset, line)
        offset += len(line) + 1
    return [(r["namespace"], r["operation"], r["shape"], r["commands"], r["getMores"], r["totalMillis"])
            for r in queries.rows(state)]


def test_aggregates_are_grouped_by_pipeline_shape_and_getmores_by_their_opening_command():
    # Worked out by hand from the fixture's twelve lines (tests/fixtures/logs/README.md).
    assert _rows_of("queries-aggregates.derived.json.log") == [
        # the change stream: 5 ms + its two awaitData getMores, 1000 + 1001 ms
        ("shop.orders", "aggregate", '$changeStream | $match {"operationType": 1}', 1, 2, 2006),
        # k: 1, k: 7 and k: {$in: [1, 2]} are one shape: 120 + 80 + 60 ms, and
        # the getMore of the first (40 ms)
        ("shop.orders", "aggregate", '$match {"k": 1} | $group | $sort', 3, 1, 300),
        ("shop.orders", "aggregate", '$match {"k": 1, "status": 1} | $group', 1, 0, 200),
        ("shop.carts", "aggregate", '$match {"k": 1} | $group | $sort', 1, 0, 50),
        # a find opened before the log: its getMores carry it (15 + 25 ms)
        ("shop.orders", "find", '{"customerId": 1}', 0, 2, 40),
        # no leading $match: the stage names only
        ("shop.orders", "aggregate", "$group | $match", 1, 0, 30),
    ]


def test_a_group_of_commands_and_getmores_has_their_common_figures():
    state = queries.State()
    for line in fixture_lines("queries-aggregates.derived.json.log"):
        if line:
            state.feed(0, 0, line)
    row = [r for r in queries.rows(state) if r["shape"] == '$match {"k": 1} | $group | $sort'
           and r["namespace"] == "shop.orders"][0]
    # durations 40, 60, 80, 120 (below 100 the sketch is exact): the
    # nearest-rank median is the 2nd, the p95 the 4th
    assert (row["count"], row["minMillis"], row["medianMillis"], row["p95Millis"], row["maxMillis"],
            row["getMoreMillis"]) == (4, 40, 60, 120, 120, 40)
    # 1000 + 500 + 900 + 700 documents examined for 101 + 99 + 12 + 20 returned
    assert (row["docsExamined"], row["nreturned"], row["docsExaminedPerReturned"]) == (3100, 232, 13.4)


@pytest.mark.parametrize("pipeline,shape", [
    ([{"$match": {"k": 5, "s": "x"}}, {"$group": {"_id": "$c"}}, {"$sort": {"n": -1}}],
     '$match {"k": 1, "s": 1} | $group | $sort'),
    ([{"$project": {"a": 1}}, {"$match": {"a": 1}}], "$project | $match"),
    ([{"$changeStream": {}}, {"$match": {"operationType": {"$in": ["insert"]}}}, {"$project": {"a": 1}}],
     '$changeStream | $match {"operationType": 1} | $project'),
    ([{"$changeStream": {"fullDocument": "updateLookup"}}], "$changeStream"),
    ([{"$changeStream": {}}, {"$project": {"a": 1}}, {"$match": {"a": 1}}], "$changeStream | $project | $match"),
    ([{"$match": "not a filter"}, {"$limit": 1}], "$match | $limit"),
    ([], None), ("pipeline", None), ([{"$match": {}}, 3], None), ([{}], None),
])
def test_pipeline_shapes(pipeline, shape):
    assert queries.command_shape("aggregate", {"aggregate": "c", "pipeline": pipeline}) == shape


def test_text_aggregates_get_the_pipeline_shape_and_getmores_their_originating_command():
    rows = _rows_of("queries-4.2.derived.text.log")
    assert ("shop.orders", "aggregate", '$match {"status": 1} | $group', 1, 0, 320) in rows
    # the getMore of the find on total (460 ms) joins its two finds
    assert ("shop.orders", "find", '{"total": 1}', 2, 1, 4860) in rows
    assert not [r for r in rows if r[1] == "getMore"]


def test_text_getmores_without_originating_command_are_tied_by_cursor_id():
    # 3.0: a getmore logs its cursorid only. Cursor ...789 is opened in the
    # log; ...001 (test.orders) and ...112 (test.items) before it.
    assert _rows_of("queries-getmore-3.0.derived.text.log") == [
        ("test.orders", "query", '{"status": 1}', 1, 2, 140),
        ("test.orders", "getMore", "(unknown origin)", 0, 2, 50),
        ("test.items", "getMore", "(unknown origin)", 0, 1, 10),
    ]


def _without_origin(line):
    doc = queries.orjson.loads(line)
    del doc["attr"]["originatingCommand"]
    return queries.orjson.dumps(doc)


def _aggregate_and_getmore():
    lines = fixture_lines("queries-aggregates.derived.json.log")
    return lines[1], _without_origin(lines[3])  # the $match {k: 1} aggregate and its getMore


def test_json_getmores_without_originating_command_are_tied_by_cursor_id():
    opened, getmore = _aggregate_and_getmore()
    state = queries.State()
    for line in (opened, getmore):
        state.feed(0, 0, line)
    assert [(r["operation"], r["shape"], r["commands"], r["getMores"]) for r in queries.rows(state)] == \
        [("aggregate", '$match {"k": 1} | $group | $sort', 1, 1)]


def test_a_getmore_read_before_its_cursor_is_opened_has_an_unknown_origin():
    opened, getmore = _aggregate_and_getmore()
    state = queries.State()
    for line in (getmore, opened):
        state.feed(0, 0, line)
    assert [(r["namespace"], r["operation"], r["shape"], r["commands"], r["getMores"])
            for r in queries.rows(state)] == [
        ("shop.orders", "aggregate", '$match {"k": 1} | $group | $sort', 1, 0),
        ("shop.orders", "getMore", "(unknown origin)", 0, 1)]


@pytest.mark.parametrize("order", ["opened first", "getMore first"])
def test_parts_of_a_file_tie_getmores_as_one_pass_would(order):
    # A big file is read in parts, folded in file order: a getMore in a
    # later part finds the cursor an earlier part opened, never the reverse.
    opened, getmore = _aggregate_and_getmore()
    first, second = (opened, getmore) if order == "opened first" else (getmore, opened)
    whole, total = queries.State(), queries.State()
    for line in (first, second):
        whole.feed(0, 0, line)
        part = queries.State()
        part.feed(0, 0, line)
        total.merge(part)
    assert queries.rows(total) == queries.rows(whole)
    assert len(queries.rows(total)) == (1 if order == "opened first" else 2)


def test_a_text_getmore_whose_originating_command_is_cut_is_tied_by_cursor_id():
    lines = fixture_lines("queries-4.2.derived.text.log")
    opened, getmore = lines[3], lines[9]
    whole = b'originatingCommand: { find: "orders", filter: { total: { $gte: 100 } }, $db: "shop" }'
    assert whole in getmore
    cut = getmore.replace(whole, b'originatingCommand: { find: "orders", filter: { total: { $gte: 1')
    state = queries.State()
    for line in (opened, cut):
        state.feed(0, 0, line)
    assert [(r["operation"], r["shape"], r["commands"], r["getMores"]) for r in queries.rows(state)] == \
        [("find", '{"total": 1}', 1, 1)]


def test_a_cursor_kept_for_its_getmores_costs_a_few_bytes():
    # A cursor is remembered for getMores logged without originatingCommand;
    # a log of finds that each leave one open (the bench's `distinct`: 189,615
    # in 200 MiB) cost a dict entry and a key tuple each, about 180 bytes, 35
    # MiB beyond the bound of 64 MiB + 200 B a group.
    opened = fixture_lines("queries-aggregates.derived.json.log")[1]
    assert opened.count(b"6017421330948113001") == 1
    lines = [opened.replace(b"6017421330948113001", b"%d" % (6017421330948113001 + i)) for i in range(4096)]
    state = queries.State()
    state.feed(0, 0, lines[0])
    tracemalloc.start()
    try:
        for line in lines[1:]:
            state.feed(0, 0, line)
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert [r["commands"] for r in queries.rows(state)] == [4096]
    assert kept < 4095 * 24 + (8 << 10)  # an id and a group number, arrays grown by an eighth


def _opening(cursor):
    opened, getmore = _aggregate_and_getmore()
    return (opened.replace(b"6017421330948113001", b"%d" % cursor),
            getmore.replace(b"6017421330948113001", b"%d" % cursor))


def test_cursors_opened_after_a_tie_are_found_too():
    # The first getMore without originatingCommand makes the cursors
    # searchable; those opened after it must be found as well, in one pass
    # and across parts.
    (open_a, more_a), (open_b, more_b) = _opening(11), _opening(12)
    whole = queries.State()
    for line in (open_a, more_a, open_b, more_b):
        whole.feed(0, 0, line)
    parts = queries.State()
    for lines in ((open_a, more_a), (open_b,), (more_b,)):
        part = queries.State()
        for line in lines:
            part.feed(0, 0, line)
        parts.merge(part)
    for state in (whole, parts):
        assert [(r["commands"], r["getMores"]) for r in queries.rows(state)] == [(2, 2)]


# ------------------------------------------------- percentiles and memory --

def aggregate_lines(durations):
    """The fixture's first aggregate line (shop.orders, $match | $group |
    $sort), once per duration."""
    line = [x for x in fixture_lines("queries-aggregates.derived.json.log") if b'"aggregate"' in x][0]
    assert line.endswith(b'"durationMillis":120}}')
    return [line[:-len(b'120}}')] + b"%d}}" % ms for ms in durations]


def fed(lines):
    state = queries.State()
    for line in lines:
        state.feed(0, 0, line)
    return state


def test_median_and_p95_are_within_1_percent_of_the_exact_nearest_rank_ones():
    rng = random.Random(40)
    durations = [int(rng.lognormvariate(7, 2)) for _ in range(3000)]
    row = queries.rows(fed(aggregate_lines(durations)))[0]
    ordered = sorted(durations)
    for field, pct in (("medianMillis", 50), ("p95Millis", 95)):
        truth = ordered[quantile.rank(len(ordered), pct) - 1]
        assert abs(row[field] - truth) * 100 <= truth, (field, row[field], truth)
    assert (row["minMillis"], row["maxMillis"]) == (ordered[0], ordered[-1])


def test_a_group_keeps_one_count_per_bucket_not_per_duration():
    state = fed(aggregate_lines(range(100000)))
    (group,) = state.groups.values()
    assert len(group[queries.G_SKETCH]) == quantile.bucket(99999) + 1 < 600


def test_a_group_of_durations_in_one_bucket_keeps_no_dict():
    (group,) = fed(aggregate_lines([120, 121, 120])).groups.values()
    assert group[queries.G_SKETCH] == quantile.bucket(120)
    assert group[queries.G_PLAN] == "COLLSCAN" and group[queries.G_PLAN_N] == 3


def test_parts_merged_read_as_one_pass():
    rng = random.Random(5)
    lines = aggregate_lines([rng.randrange(5000) for _ in range(400)])
    whole = queries.rows(fed(lines))
    first, second = fed(lines[:150]), fed(lines[150:])
    first.merge(second)
    assert queries.rows(first) == whole


def test_percentile_columns_are_whole_milliseconds():
    # 110 counts in the bucket 110-111, which stands for 111; the p95 of
    # three is the last rank: the max itself. Once mloginfo's interpolation
    # gave 137 beside 110.
    row = queries.rows(fed(aggregate_lines([101, 110, 140])))[0]
    assert (row["medianMillis"], row["p95Millis"]) == (111, 140)
    assert all(isinstance(row[f], int) for f in ("medianMillis", "p95Millis"))


def test_the_table_states_the_percentiles_error():
    out = io.StringIO()
    queries.output(fed(aggregate_lines([40, 60])), False, out)
    assert out.getvalue().endswith("\nMEDIAN MS and P95 MS: nearest rank, from a sketch within 1% of the exact"
                                   " values (exact below 100 ms)\n")


def test_each_json_record_states_the_percentiles_error():
    out = io.StringIO()
    queries.output(fed(aggregate_lines([40, 60])), True, out)
    assert '"p95Millis":60,"percentileRelativeError":0.01,"maxMillis":60,' in out.getvalue()


def test_the_shape_cache_stays_bounded_on_a_log_of_a_shape_per_line():
    lines = [line.replace(b'{"$match":{"k":1}}', b'{"$match":{"k%d":1}}' % i)
             for i, line in enumerate(aggregate_lines([120] * (queries.SHAPES_KEPT + 500)))]
    state = fed(lines)
    assert len(state.groups) == queries.SHAPES_KEPT + 500
    assert len(queries._SHAPES) <= queries.SHAPES_KEPT


# The Go engine's sketch (analyze-go/quantile.go) against this one: the
# same buckets, the same rows, byte for byte (test_analyze_engines.py runs
# both engines on the generated logs too).
@pytest.mark.parametrize("form", [[], ["--json"], ["--all"]])
def test_both_engines_read_the_same_percentiles_from_their_sketches(go_engine, tmp_path, form):
    rng = random.Random(95)
    quantile.bucket(1 << 40)  # the bounds made that far, for the edges below
    durations = [int(rng.lognormvariate(rng.choice((1, 5, 9)), 2)) for _ in range(4000)]
    durations += [0, 99, 100, 101, 2 ** 39, -3, -250] + [quantile.BOUNDS[k] - 1 for k in range(95, 700, 7)]
    lines = aggregate_lines(durations)
    # Fifty groups: most span many buckets, a few have one duration each.
    lines = [line.replace(b'{"$match":{"k":1}}', b'{"$match":{"k%d":1}}' % (i % 50 if i < 4000 else i))
             for i, line in enumerate(lines)]
    path = tmp_path / "sketches.json.log"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert_same("queries", *form, str(path))


def test_a_filter_nested_past_the_readers_depth_is_unparsable_not_a_crash():
    # The shell-notation reader recurses per level; a line nested deeper than
    # Python's stack is a line it cannot read, as orjson says of such JSON.
    line = fixture_lines("queries-4.2.derived.text.log")[2]
    assert b"filter: { customerId: 7, " in line
    deep = b"{ a: " * 5000 + b"1" + b" }" * 5000
    state = queries.State()
    state.feed(0, 0, line.replace(b"{ customerId: 7, ", b"{ customerId: " + deep + b", ", 1))
    assert (state.bad.matched, state.bad.unparsable) == (1, 1)
    assert state.bad.examples[0][2] == "a document nested too deep to read"
    assert state.groups == {}
