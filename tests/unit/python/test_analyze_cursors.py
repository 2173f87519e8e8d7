"""Report cursors: fixed-size records, exact ids, merge of parallel parts."""
import random

from analyze import cursors
from conftest import fixture_lines

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
