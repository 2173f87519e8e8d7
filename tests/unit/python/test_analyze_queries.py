"""Report queries: shapes as mloginfo makes them, stats, and agreement with
the real mloginfo (mtools, installed by setup in .tools/venv) on legacy logs."""
import os
import pty
import re
import subprocess

import pytest

from analyze import legacy, queries
from analyze.common import percentile
from conftest import FIXTURES, ROOT, fixture_lines, spying

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


def test_percentile_interpolates_like_numpy():
    assert percentile([2100, 2300], 95) == 2290
    assert percentile([101, 110, 140], 95) == 137
    assert percentile([1, 2, 3, 4], 50) == 2.5


def test_json_find_lines_are_grouped_with_their_stats():
    state = queries.State()
    for line in fixture_lines("changestream-5.2.json.log"):
        if b"51803" in line:
            state.feed(0, 0, line)
    # The article's lines are an aggregate and its getMores: the aggregate is a
    # query operation, the getMore commands are not (as in mloginfo).
    rows = queries.rows(state)
    assert [(r["namespace"], r["operation"], r["shape"], r["count"]) for r in rows] == \
        [("test.foo", "aggregate", None, 1)]
    assert rows[0]["sharePercent"] == 100.0 and rows[0]["docsExaminedPerReturned"] == 309.0


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
    ours = {(r["namespace"], r["operation"].lower(), r["shape"], r["count"]) for r in queries.rows(state)}
    assert ours == mloginfo_groups(path)
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
    assert [(r["operation"], r["count"]) for r in queries.rows(spy)] == [("find", 1), ("update", 1)]


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
