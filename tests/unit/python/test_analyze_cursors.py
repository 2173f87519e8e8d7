"""Report cursors: fixed-size records, exact ids, merge of parallel parts."""
import random
import tracemalloc

from analyze import cursors
from conftest import Discard, fixture_lines, generated_lines, spying

SEED = fixture_lines("changestream-5.2.json.log")


def feed_all(table, lines, src=0):
    offset = 0
    for line in lines:
        if b"cursorid" in line:
            table.feed(src, offset, line)
        offset += len(line) + 1
    return table


def test_the_seed_change_stream_adds_up():
    rows = feed_all(cursors.Table(), SEED).rows()
    row = [r for r in rows if r["cursorId"] == 8620417026431980160][0]
    assert (row["commands"], row["getMores"], row["nreturned"], row["docsExamined"],
            row["bytesRead"], row["durationMillis"]) == (10, 9, 10, 3037, 19497309628, 12030)
    assert row["originatingCommand"] == "aggregate" and row["changeStream"]
    assert row["firstTime"] == "2022-03-02T06:47:26.367-05:00"
    assert row["lastTime"] == "2022-03-02T06:47:37.751-05:00"


def test_the_unparsable_seed_line_is_counted():
    table = feed_all(cursors.Table(), SEED)
    assert table.bad.unparsable == 1 and table.bad.matched == 11


def test_ids_one_double_apart_stay_apart():
    rows = feed_all(cursors.Table(), fixture_lines("cursors-distinct-ids.derived.json.log")).rows()
    assert sorted(r["cursorId"] for r in rows) == [8620417026431980159, 8620417026431980160,
                                                    8620417026431980161]


def test_two_parts_merged_equal_one_pass():
    lines = SEED[1:11]
    whole = feed_all(cursors.Table(), lines).rows()
    first = feed_all(cursors.Table(), lines[:4])
    second = feed_all(cursors.Table(), lines[4:], src=1)
    empty = cursors.Table()
    empty.merge(first)
    empty.merge(second)
    assert empty.rows() == whole


def test_many_sequential_and_random_ids_keep_their_own_records():
    table = cursors.Table()
    rng = random.Random(7)
    ids = list(range(1, 3000)) + [rng.getrandbits(63) for _ in range(3000)]
    for i, cid in enumerate(ids):
        table.add((cid, "a.b", "find", "find", False, 1, 2, 3, 4, 5, "2022-03-02T06:47:26.367Z"), i, 2)
    for i, cid in enumerate(ids[:100]):
        table.add((cid, "a.b", "getMore", None, False, 1, 0, 0, 0, 1, "2022-03-02T06:47:27.367Z"),
                  10000 + i, 2)
    rows = {r["cursorId"]: r for r in table.rows()}
    assert len(rows) == len(set(ids))
    assert rows[ids[0]]["commands"] == 2 and rows[ids[-1]]["commands"] == 1
    assert rows[ids[0]]["lastTime"] == "2022-03-02T06:47:27.367Z"


def test_per_cursor_state_is_a_small_fixed_record():
    table = cursors.Table()
    n = 50000
    for i in range(n):
        table.add((i * 7919 + 1, "a.b", "find", "find", False, 1, 2, 3, 4, 5, "2022-03-02T06:47:26.367Z"), i, 2)
    used = sum(a.itemsize * a.buffer_info()[1] for a in (table.ids, table.stats, table.times,
                                                         table.codes, table.index))
    assert used / n < 200


def test_parts_with_distinct_cursors_merge_in_bulk_to_one_pass():
    def part(ids, first_seq):
        table = cursors.Table()
        for i, cid in enumerate(ids):
            table.add((cid, "a.b", "find", "find", False, 1, 2, 3, 4, 5, "2022-03-02T06:47:26.%03dZ" % (i % 1000)),
                      first_seq + i, 2)
        return table
    rng = random.Random(3)
    ids = [rng.getrandbits(63) for _ in range(5000)]
    merged = cursors.Table()
    merged.merge(part(ids[:1000], 0))
    merged.merge(part(ids[1000:], 1000))
    assert merged.rows() == part(ids, 0).rows()
    assert all(merged.slot(cid) >= 0 for cid in ids)


# ---------------------------------------------------------------- fast path --
# feed_span reads the usual slow query lines with one regex per block
# (logv2.CURSOR_LINE); every other line goes to feed. The rows must be the
# same either way, and the lines the regex must not read must reach feed.

def _line(cmd, tail, app=b'"appName":"orders-api",', ns=b"shop.orders"):
    return (b'{"t":{"$date":"2024-05-01T00:00:01.002+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   '
            b'"ctx":"conn7","msg":"Slow query","attr":{"type":"command","ns":"' + ns + b'",' + app
            + b'"command":' + cmd + b',"planSummary":"COLLSCAN",' + tail + b'}}')


FIND = b'{"find":"orders","filter":{"userId":5},"batchSize":101,"$db":"shop"}'
TAIL = (b'"cursorid":%d,"keysExamined":3,"docsExamined":40,"numYields":0,"nreturned":101,'
        b'"queryHash":"C20DC40B","reslen":37873,"locks":{"Global":{"acquireCount":{"r":1}}},'
        b'"storage":{"data":{"bytesRead":2277022}},"remote":"10.0.7.2:48573","protocol":"op_msg",'
        b'"durationMillis":%d')


def _getmore(cid, ms):
    return _line(b'{"getMore":%d,"collection":"orders","$db":"shop"},"originatingCommand":%s'
                 % (cid, FIND), TAIL % (cid, ms))


USUAL = [_line(FIND, TAIL % (8620417026431980160, 43)), _getmore(8620417026431980160, 3),
         _line(FIND, b'"cursorExhausted":true,"keysExamined":3,"docsExamined":4,"nreturned":4,'
                     b'"durationMillis":2'),
         _getmore(8620417026431980160, 5), _line(FIND, TAIL % (5, 7))]


def feed_lines(table, lines, src=0):
    offset = 0
    for line in lines:
        if b"51803" in line:
            table.feed(src, offset, line)
        offset += len(line) + 1
    return table


Spy = spying(cursors.Table)


def feed_block(lines, src=0):
    table = Spy()
    buf = b"\n".join(lines) + b"\n"
    table.feed_span(src, buf, 0, len(buf), 0, (b"51803",))
    return table


def test_the_usual_lines_are_read_by_the_regex_alone():
    table = feed_block(USUAL)
    assert table.fed == []
    assert table.rows() == feed_lines(cursors.Table(), USUAL).rows()
    assert table.bad.matched == 5 and table.bad.unparsable == 0
    row = [r for r in table.rows() if r["cursorId"] == 8620417026431980160][0]
    assert (row["commands"], row["getMores"], row["nreturned"], row["docsExamined"], row["keysExamined"],
            row["bytesRead"], row["durationMillis"]) == (3, 2, 303, 120, 9, 3 * 2277022, 51)
    assert row["originatingCommand"] == "find" and row["firstTime"] == "2024-05-01T00:00:01.002+00:00"


def test_the_seed_reads_alike_through_the_block_path():
    table = feed_block(SEED)
    reference = feed_lines(cursors.Table(), SEED)
    assert table.rows() == reference.rows()
    assert (table.bad.matched, table.bad.unparsable) == (reference.bad.matched, reference.bad.unparsable)
    assert len(table.fed) == 1  # the line with typographic quotes


def _falls_back(odd):
    lines = USUAL + [odd]
    table = feed_block(lines)
    assert table.fed == [odd]
    assert table.rows() == feed_lines(cursors.Table(), lines).rows()
    reference = feed_lines(cursors.Table(), lines)
    assert (table.bad.matched, table.bad.unparsable) == (reference.bad.matched, reference.bad.unparsable)
    return table


def test_a_tail_in_another_order_goes_to_the_full_parse():
    odd = _line(FIND, b'"cursorid":77,"docsExamined":40,"keysExamined":3,"nreturned":1,"durationMillis":9')
    rows = {r["cursorId"]: r for r in _falls_back(odd).rows()}
    assert rows[77]["docsExamined"] == 40 and rows[77]["keysExamined"] == 3


def test_a_user_cursorid_in_the_filter_is_not_taken_for_the_metric():
    cmd = b'{"find":"orders","filter":{"cursorid":1,"keysExamined":2,"docsExamined":3,"nreturned":4,"x":1}}'
    odd = _line(cmd, b'"cursorid":78,"docsExamined":40,"keysExamined":3,"nreturned":1,"durationMillis":9')
    rows = {r["cursorId"]: r for r in _falls_back(odd).rows()}
    assert 1 not in rows and rows[78]["nreturned"] == 1


def test_an_escaped_quote_in_the_namespace_goes_to_the_full_parse():
    odd = _line(FIND, TAIL % (79, 1), ns=b'shop.or\\"ders')
    rows = {r["cursorId"]: r for r in _falls_back(odd).rows()}
    assert rows[79]["ns"] == 'shop.or"ders'


def test_an_escaped_quote_in_the_app_name_is_read_by_the_regex():
    odd = _line(FIND, TAIL % (80, 1), app=b'"appName":"say \\"hi\\"",')
    table = feed_block(USUAL + [odd])
    assert table.fed == [] and 80 in {r["cursorId"] for r in table.rows()}


def test_invalid_utf8_in_the_originating_command_goes_to_the_full_parse():
    # The regex reads the name by position; orjson, not a decode error,
    # says what is wrong with the line.
    odd = _getmore(82, 1).replace(b'"originatingCommand":{"find"', b'"originatingCommand":{"fi\xffnd"')
    table = _falls_back(odd)
    assert table.bad.unparsable == 1 and "UTF-8" in table.bad.examples[0][2]


def test_a_line_cut_before_its_duration_is_counted_unparsable():
    odd = _line(FIND, TAIL % (81, 1))[:-60]
    table = _falls_back(odd)
    assert table.bad.unparsable == 1 and 81 not in {r["cursorId"] for r in table.rows()}


def test_a_cursor_line_without_cursorid_layout_is_not_read_as_cursorless():
    # The regex matches it as a line without a cursor (its "cursorid" is not
    # followed by keysExamined); it has one, so the full parse reads it.
    odd = _line(FIND, b'"cursorid":82,"nreturned":1,"durationMillis":9')
    assert 82 in {r["cursorId"] for r in _falls_back(odd).rows()}


def test_a_change_stream_is_flagged_by_the_block_path_too():
    agg = b'{"aggregate":"orders","pipeline":[{"$changeStream":{}}],"cursor":{},"$db":"shop"}'
    opener = _line(agg, TAIL % (83, 1))
    more = _line(b'{"getMore":83,"collection":"orders"},"originatingCommand":' + agg, TAIL % (83, 2))
    table = feed_block([opener, more])
    assert table.fed == []
    row = table.rows()[0]
    assert row["changeStream"] and row["originatingCommand"] == "aggregate" and row["getMores"] == 1


def test_a_change_stream_stage_elsewhere_goes_to_the_full_parse():
    odd = _line(b'{"aggregate":"orders","pipeline":[{"$match":{"$changeStream":1}}],"cursor":{}}',
                TAIL % (84, 1))
    assert not {r["cursorId"]: r for r in _falls_back(odd).rows()}[84]["changeStream"]


def test_a_crlf_line_and_a_match_that_starts_mid_line_read_right():
    crlf = _line(FIND, TAIL % (85, 1)) + b"\r"
    inner = b'{"junk":' + _line(FIND, TAIL % (86, 1))
    table = feed_block(USUAL + [crlf, inner])
    assert table.fed == [inner]
    assert table.rows() == feed_lines(cursors.Table(), USUAL + [crlf, inner]).rows()


def test_fast_and_line_parts_merge_to_one_pass():
    lines = USUAL + SEED
    whole = feed_lines(cursors.Table(), lines).rows()
    first, second = feed_block(lines[:3]), feed_block(lines[3:], src=1)
    merged = cursors.Table()
    merged.merge(first)
    merged.merge(second)
    assert merged.rows() == whole


def test_json_lines_are_what_orjson_gives_for_each_row():
    import io

    import orjson
    table = cursors.Table()
    stamps = ["2022-03-02T06:47:26.367-05:00", "Mon Aug  5 20:21:16", "Thu Oct  6 11:28:42.556", None,
              'odd "stamp" \\ 06:47:26.367', "no clock at all"]
    for i, stamp in enumerate(stamps):
        table.add((-5 + i if i else 2 ** 63 - 1, 'a."b"', "find", None if i == 2 else "find", i == 1,
                   1, 2, 3, 4, i, stamp), i, 2 if i % 2 else 4)
    out = io.StringIO()
    cursors.output(table, True, out)
    expected = ""
    for row in table.rows():
        record = {"record": "cursor"}
        record.update(row)
        record["cursorId"] = str(record["cursorId"])
        expected += orjson.dumps(record).decode() + "\n"
    assert out.getvalue() == expected


def test_a_sparse_block_goes_line_by_line_and_reads_alike():
    noise = [b'{"t":{"$date":"2024-05-01T00:00:01.002+00:00"},"s":"I",  "c":"NETWORK",  "id":22943,   '
             b'"ctx":"listener","msg":"Connection accepted","attr":{"connectionId":%d}}' % i for i in range(40)]
    lines = noise + USUAL
    table = feed_block(lines)
    assert len(table.fed) == len(USUAL)
    assert table.rows() == feed_lines(cursors.Table(), lines).rows()


def test_without_atomic_groups_a_later_cursorid_sends_the_line_to_the_full_parse(monkeypatch):
    # Python before 3.11 has no (?>...): feed_span checks the tail instead.
    from analyze import logv2
    monkeypatch.setattr(cursors, "ATOMIC", False)
    monkeypatch.setattr(cursors, "CURSOR_LINE_FINDITER", logv2.cursor_line(False).finditer)
    test_the_usual_lines_are_read_by_the_regex_alone()
    test_a_user_cursorid_in_the_filter_is_not_taken_for_the_metric()
    test_a_tail_in_another_order_goes_to_the_full_parse()


def output_peak(table, **options):
    """Bytes Python allocated at most while the table was written."""
    tracemalloc.start()
    try:
        cursors.output(table, False, Discard(), **options)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_default_table_holds_no_row_per_cursor(tmp_path):
    # Every row kept to size the columns was 1.2 kB a cursor: 469 MiB for a
    # log of distinct cursors. The 20 slowest and the summary per namespace
    # cost the same whatever the number of cursors.
    table = feed_lines(cursors.Table(), generated_lines(tmp_path, "distinct", 2048))
    assert len(table) > 1800
    assert output_peak(table) < 64 << 10


def test_every_row_of_the_table_costs_less_than_a_record(tmp_path):
    # --all: the rows are made twice (widths, then lines), not kept; what
    # grows is the order of the rows, under a record's size a cursor.
    table = feed_lines(cursors.Table(), generated_lines(tmp_path, "distinct", 2048))
    assert output_peak(table, top=None) < (128 << 10) + len(table) * cursors.RECORD_BYTES
