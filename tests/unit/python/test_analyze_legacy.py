"""Text reader: every layout from 2.2 to 4.2."""
import pytest

from analyze import legacy
from analyze.common import Unparsable
from conftest import fixture_lines


def text(name, index):
    return fixture_lines(name)[index].decode()


@pytest.mark.parametrize("name,ts,comp", [
    ("generations-2.2.derived.text.log", "Mon Aug  5 20:21:20", None),
    ("generations-2.4.derived.text.log", "Tue Aug  5 20:21:20.456", None),
    ("generations-2.6.derived.text.log", "2014-08-05T20:21:20.456+0200", None),
    ("generations-3.0.derived.text.log", "2015-08-05T20:21:20.456+0000", "QUERY"),
])
def test_line_layouts_of_each_generation(name, ts, comp):
    match = legacy.parse_line(text(name, 1))
    assert match.group("ts") == ts
    assert match.group("comp") == comp
    assert match.group("ctx") == "conn1"


@pytest.mark.parametrize("name,keys,docs", [
    ("generations-2.2.derived.text.log", 250, 0),
    ("generations-2.6.derived.text.log", 250, 250),
    ("generations-3.0.derived.text.log", 250, 250),
])
def test_query_op_with_cursor_reads_nscanned_as_keys_examined(name, keys, docs):
    ev = legacy.cursor_event(legacy.parse_line(text(name, 1)))
    assert ev[0] == 1234567890123456789
    assert ev[1:4] == ("test.orders", "query", "query")
    assert (ev[5], ev[6], ev[7], ev[9]) == (101, docs, keys, 120)


def test_getmore_op_counts_as_a_getmore():
    ev = legacy.cursor_event(legacy.parse_line(text("generations-2.4.derived.text.log", 2)))
    assert ev[2] == "getMore" and ev[0] == 1234567890123456789 and ev[9] == 15


def test_4_2_command_names_and_change_stream():
    ev = legacy.cursor_event(legacy.parse_line(text("cursors-4.2.derived.text.log", 0)))
    assert ev[2:5] == ("aggregate", "aggregate", True)


@pytest.mark.parametrize("msg,status,ms,to", [
    ("Refresh for collection a.b took 35 ms and found version 4|7||5a97c2f5d6b5e2f4d1a0b1c2",
     "ok", 35, "4|7||5a97c2f5d6b5e2f4d1a0b1c2"),
    ("Refresh for collection a.b took 41 and found version 4|9||5a97c2f5d6b5e2f4d1a0b1c2",
     "ok", 41, "4|9||5a97c2f5d6b5e2f4d1a0b1c2"),
    ("Refresh for collection a.b took 4 ms and didn't find any metadata changes", "ok", 4, None),
    ("Refresh for collection a.b took 12 ms and failed :: caused by :: x", "failed", 12, None),
    ("Refresh for collection a.b took 9 ms and found the collection is not sharded", "unsharded", 9, None),
    ("Refresh for collection a.b from version 1|0||5a97c2f5d6b5e2f4d1a0b1c2 to version "
     "1|2||5a97c2f5d6b5e2f4d1a0b1c2 took 3 ms", "ok", 3, "1|2||5a97c2f5d6b5e2f4d1a0b1c2"),
    ("ChunkManager: time to load chunks for a.b: 35ms sequenceNumber: 3 version: 4|7||51ffa0a9c2f5d6b5e2f4d1a0"
     " based on: (empty)", "ok", 35, "4|7||51ffa0a9c2f5d6b5e2f4d1a0"),
])
def test_refresh_shapes(msg, status, ms, to):
    line = "2018-03-01T09:00:00.100+0000 I SHARDING [Loader] " + msg
    event = legacy.refresh_event(legacy.parse_line(line))
    assert (event["status"], event["durationMillis"], event["toVersion"]) == (status, ms, to)


def test_a_refresh_line_cut_before_its_duration_is_unparsable():
    line = text("refresh-4.0-mongod.log", 0)
    with pytest.raises(Unparsable, match="without 'took N ms'"):
        legacy.refresh_event(legacy.parse_line(line))


def test_a_line_of_no_known_layout_is_unparsable():
    with pytest.raises(Unparsable):
        legacy.parse_line("id,name,value")


@pytest.mark.parametrize("old,new", [
    ("cursorid:8620417026431980160", "cursorid:98620417026431980160"),
    (" 1181ms", " 99999999999999999999ms"),
])
def test_a_number_beyond_64_bits_is_unparsable_not_a_crash(old, new):
    # Python's int has no bound, the report's arrays have 64 bits, and no
    # server writes more: the line is damaged.
    line = text("cursors-4.2.derived.text.log", 0)
    assert old in line
    with pytest.raises(Unparsable, match="beyond 64 bits"):
        legacy.cursor_event(legacy.parse_line(line.replace(old, new)))


def test_a_refresh_duration_beyond_64_bits_is_unparsable():
    line = "2018-03-01T09:00:00.100+0000 I SHARDING [Loader] Refresh for collection a.b took 99999999999999999999 ms"
    with pytest.raises(Unparsable, match="beyond 64 bits"):
        legacy.refresh_event(legacy.parse_line(line + " and didn't find any metadata changes"))
