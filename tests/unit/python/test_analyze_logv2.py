"""JSON (logv2) reader: the positional fast path agrees with the full parse."""
import pytest

from analyze import logv2
from analyze.common import Unparsable
from conftest import fixture_lines

SEED = fixture_lines("changestream-5.2.json.log")


@pytest.mark.parametrize("index", range(1, 11))
def test_fast_path_equals_full_parse_on_the_seed_lines(index):
    line = SEED[index]
    fast = logv2.cursor_fast(line)
    assert fast is not None and fast is not False
    assert fast == logv2.cursor_slow(logv2.parse(line))


def test_cursor_ids_keep_all_64_bits():
    assert logv2.cursor_fast(SEED[1])[0] == 8620417026431980160


def test_a_line_cut_before_cursorid_is_unparsable_not_dropped():
    cut = SEED[2][:SEED[2].index(b'"cursorid"') - 5]
    assert logv2.cursor_fast(cut) is None
    with pytest.raises(Unparsable, match="not valid JSON"):
        logv2.parse(cut)


def test_a_line_cut_after_cursorid_is_unparsable_too():
    cut = SEED[2][:-40]
    assert logv2.cursor_fast(cut) is None
    with pytest.raises(Unparsable):
        logv2.parse(cut)


def test_typographic_quotes_make_a_line_unparsable():
    assert logv2.cursor_fast(SEED[0]) is None
    with pytest.raises(Unparsable):
        logv2.parse(SEED[0])


def test_a_filter_on_a_field_named_cursorid_does_not_fool_the_fast_path():
    line = SEED[1].replace(b'"$match":{"fullDocument.msg"', b'"$match":{"cursorid":5,"fullDocument.msg"')
    assert logv2.cursor_fast(line)[0] == 8620417026431980160


def test_other_whole_lines_are_not_cursor_lines():
    line = (b'{"t":{"$date":"2022-03-02T06:47:26.367-05:00"},"s":"I",  "c":"NETWORK",  "id":22943,'
            b'   "ctx":"listener","msg":"Connection accepted","attr":{"remote":"1.2.3.4:5"}}')
    assert logv2.cursor_fast(line) is False


def test_versions_print_as_the_server_does():
    value = {"chunkVersion": {"0": {"$timestamp": {"t": 49189, "i": 1}},
                              "1": {"$oid": "626a663821072b82d9059209"},
                              "2": {"$timestamp": {"t": 1651140151, "i": 6}}}}
    assert logv2.format_version(value) == "49189|1||626a663821072b82d9059209||Timestamp(1651140151, 6)"
    assert logv2.format_version(" from version 2|0||5f27e3b5d3d0b6e5c1f0a1b2") == "2|0||5f27e3b5d3d0b6e5c1f0a1b2"
    assert logv2.format_version("") is None


def test_refresh_event_of_the_seed_5_0_line():
    line = fixture_lines("refresh-5.0.json.log")[0]
    event = logv2.refresh_event(logv2.parse(line))
    assert (event["namespace"], event["durationMillis"], event["status"], event["logId"]) == \
        ("test.test2", 2442, "ok", 4619901)
