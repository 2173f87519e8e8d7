"""Reader of bytes: needles across blocks, ranges, gzip, not-a-log."""
import gzip

import pytest

from analyze import source
from analyze.source import NotALog, Source


def lines_of(data, needle, block=7):
    blocks = [data[i:i + block] for i in range(0, len(data), block)]
    return list(source.matching_lines(iter(blocks), needle))


def test_needle_lines_are_found_whatever_the_block_boundaries():
    data = b"a x\nbb\nccc x\r\nd\nx"
    for block in (1, 2, 3, 5, 7, 100):
        assert lines_of(data, b"x", block) == [(0, b"a x"), (7, b"ccc x"), (16, b"x")]


def test_several_needles_give_each_line_once_in_order():
    data = b"one A\ntwo B\nthree AB\nfour\n"
    got = list(source.matching_lines_any(iter([data[:9], data[9:]]), (b"A", b"B")))
    assert got == [(0, b"one A"), (6, b"two B"), (12, b"three AB")]


def test_one_trailing_carriage_return_is_dropped_wherever_the_line_falls():
    """As the Go engine's matchLines: a line that straddles two blocks, the
    last one and any other lose one \r, not all of them."""
    data = b"x\r\r\nab x\r\r\nx\r\r"
    for block in (1, 2, 3, 4, 100):
        assert lines_of(data, b"x", block) == [(0, b"x\r"), (4, b"ab x\r"), (11, b"x\r")]
        blocks = [data[i:i + block] for i in range(0, len(data), block)]
        assert list(source.matching_lines_any(iter(blocks), (b"x", b"ab"))) == [
            (0, b"x\r"), (4, b"ab x\r"), (11, b"x\r")]


def test_ranges_start_on_line_starts_and_cover_the_file(tmp_path):
    path = tmp_path / "log"
    data = b"".join(b"%d some line\n" % i for i in range(5000))
    path.write_bytes(data)
    src = Source(str(path))
    src.size = len(data)
    parts = source.ranges(src, 3, min_part=1000)
    assert parts[0][0] == 0 and parts[-1][1] == len(data)
    for (a, b), (c, _) in zip(parts, parts[1:]):
        assert b == c and data[c - 1:c] == b"\n"


def test_line_numbers_of_offsets(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"a\nbb\nccc\n")
    assert source.line_numbers(str(path), [0, 2, 5]) == {0: 1, 2: 2, 5: 3}


def test_a_csv_file_is_not_a_log(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("id,name\n1,foo\n2,bar\n")
    with pytest.raises(NotALog, match="no line of it is a MongoDB log line"):
        Source(str(path)).sniff()


def test_a_binary_file_is_not_a_log(tmp_path):
    path = tmp_path / "a.out"
    # Every byte value, in order, after an ELF header: NULs, and no line that
    # starts like a log line. Random bytes made a line start with "{" now and
    # then (about one run in 30), and the sniffer rightly took that for JSON.
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    with pytest.raises(NotALog, match="binary"):
        Source(str(path)).sniff()


@pytest.mark.parametrize("body, looks", [
    (b'{\n  "schema": 1,\n  "playbook": "routing-refresh"\n}\n', "a JSON document"),
    (b'[{"a": 1},\n {"a": 2}]\n', "a JSON document"),
    (b'{"id":1,"name":"foo"}\n{"id":2,"s":"I","c":"COMMAND"}\n', "JSON lines, but none is a MongoDB log line"),
    (b"2026-11-20T12:00:00Z ==> launch (8.0.4) (elapsed 00:00)\n2026-11-20T12:00:01Z warning: disk\n",
     "text lines that start with a time, but not in a MongoDB log's layout"),
])
def test_a_file_that_is_not_a_log_says_what_it_looks_like_and_what_to_pass(tmp_path, body, looks):
    path = tmp_path / "not.log"
    path.write_bytes(body)
    with pytest.raises(NotALog, match="^not a MongoDB log \\(%s" % looks) as raised:
        Source(str(path)).sniff()
    assert raised.value.hint == source.PASS_A_LOG


@pytest.mark.parametrize("line", [
    b'{"t":{"$date":"2022-10-17T16:15:56.209+08:00"},"s":"I"}',
    b' { "t" : null}',
    '{\u201ct\u201d:{\u201c$date\u201d:\u201d2022-03-02T06:38:47.825-05:00\u201d}}'.encode(),
])
def test_a_json_line_whose_first_member_is_t_is_a_log_line(tmp_path, line):
    path = tmp_path / "x.log"
    path.write_bytes(b'{"id":1}\n' + line + b"\n")
    src = Source(str(path))
    src.sniff()
    assert src.json


def test_an_empty_file_is_an_empty_log(tmp_path):
    path = tmp_path / "empty.log"
    path.write_bytes(b"")
    Source(str(path)).sniff()


@pytest.mark.parametrize("line", [
    b"Mon Aug  5 20:21:16 [conn1] query test.foo query: { a: 1 } 12ms",
    b"Mon Aug 15 20:21:16.123 [conn1] end connection",
    b"2014-03-05T14:24:06.123+0100 [conn1] end connection",
    b"2015-06-01T10:00:00.123+0000 I NETWORK  [conn1] end connection",
    b'{"t":{"$date":"2022-03-02T06:47:26.367-05:00"},"s":"I"}',
])
def test_every_generation_is_recognised_as_a_log(tmp_path, line):
    path = tmp_path / "x.log"
    path.write_bytes(line + b"\n")
    Source(str(path)).sniff()


def test_gzip_members_are_all_read_and_a_cut_one_is_reported(tmp_path):
    path = tmp_path / "x"
    path.write_bytes(gzip.compress(b"2015-06-01T10:00:00.123+0000 I A [c] one\n")
                     + gzip.compress(b"2015-06-01T10:00:01.123+0000 I A [c] two\n"))
    src = Source(str(path))
    src.sniff()
    assert src.compressed and not src.splittable()
    assert b"".join(src.blocks()).count(b"\n") == 2 and not src.failed
    whole = path.read_bytes()
    path.write_bytes(whole[:len(whole) - 10])
    src = Source(str(path))
    src.sniff()
    b"".join(src.blocks())
    assert src.failed and "ends early" in src.warnings[0]


def test_a_block_is_sparse_when_under_one_line_in_four_holds_a_needle():
    few = b"".join(b"noise %d\n" % i if i % 10 else b"hit 51803\n" for i in range(100))
    many = b"".join(b"noise %d\n" % i if i % 2 else b"hit 51803\n" for i in range(100))
    assert source.sparse(few, 0, len(few), (b"51803",))
    assert not source.sparse(many, 0, len(many), (b"51803",))
