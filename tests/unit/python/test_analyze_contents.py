"""What a log holds, said when a report finds nothing in it: lines,
components, first and last time."""
import gzip

from analyze import contents
from analyze.source import Source
from conftest import FIXTURES


def _describe(path):
    source = Source(str(path))
    source.sniff()
    return contents.describe(source)


def test_a_json_log_counts_its_lines_components_and_times(tmp_path):
    path = tmp_path / "mongod.log"
    path.write_bytes(
        b'{"t":{"$date":"2024-05-01T10:00:00.000+00:00"},"s":"I",  "c":"NETWORK",  "id":22943,"ctx":"listener"}\n'
        b'{"t":{"$date":"2024-05-01T10:00:01.000+00:00"},"s":"I",  "c":"ACCESS",   "id":20250,"ctx":"conn1"}\n'
        b'\n'
        b'not a log line\n'
        b'{"t":{"$date":"2024-05-01T10:00:02.000+00:00"},"s":"I",  "c":"NETWORK",  "id":22944,"ctx":"conn1"}')
    assert _describe(path) == ("%s: 5 line(s); components NETWORK 2, ACCESS 1; "
                               "first 2024-05-01T10:00:00.000+00:00, last 2024-05-01T10:00:02.000+00:00" % path)


def test_a_component_is_read_from_the_head_of_a_line_only(tmp_path):
    path = tmp_path / "mongod.log"
    path.write_bytes(b'{"t":{"$date":"2024-05-01T10:00:00.000+00:00"},"attr":{"x":"' + b"y" * 300 + b'","c":"NOPE"}}\n')
    assert _describe(path).endswith(": 1 line(s); no MongoDB log component; "
                                    "first 2024-05-01T10:00:00.000+00:00, last 2024-05-01T10:00:00.000+00:00")


def test_a_text_log_gives_its_components_and_times():
    path = "%s/generations-3.0.derived.text.log" % FIXTURES
    assert _describe(path) == ("%s: 5 line(s); components QUERY 3, COMMAND 1, CONTROL 1; "
                               "first 2015-08-05T20:21:16.101+0000, last 2015-08-05T20:21:30.010+0000" % path)


def test_a_gzip_log_is_read_again_decompressed(tmp_path):
    path = tmp_path / "mongod.log"
    with open("%s/refresh-4.2-mongod.log" % FIXTURES, "rb") as stream:
        path.write_bytes(gzip.compress(stream.read()))
    assert _describe(path).startswith("%s: 10 line(s); components SH_REFR 10; first 2022-10-06T10:54:49.792+0800" % path)


def test_stdin_is_not_read_twice():
    source = Source("-")
    assert contents.describe(source) == "(stdin): read once (stdin), not summarised"
