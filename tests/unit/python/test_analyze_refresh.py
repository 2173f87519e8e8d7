"""Report refresh: kinds, medians, per-namespace summary, memory."""
import io
import tracemalloc

from analyze import refresh
from conftest import Discard, fixture_lines, generated_lines


def state_of(*names):
    state = refresh.State()
    for src, name in enumerate(names):
        offset = 0
        for line in fixture_lines(name):
            if b"efresh" in line or b"time to load chunks" in line:
                state.feed(src, offset, line)
            offset += len(line) + 1
    return state


def test_4_2_mongos_summary():
    evs, summaries = refresh.rows(state_of("refresh-4.2-mongos.log"), ["m"])
    assert len(evs) == 9
    s = summaries[0]
    assert (s["refreshes"], s["minMillis"], s["medianMillis"], s["maxMillis"]) == (9, 73, 740, 779)


def test_even_count_median_is_the_mean_of_the_middle_two():
    _, summaries = refresh.rows(state_of("refresh-4.2-mongod.log"), ["m"])
    assert summaries[0]["medianMillis"] == 1053.5


def test_3_6_kinds_are_unknown_where_the_line_does_not_tell():
    evs, _ = refresh.rows(state_of("refresh-3.6-mongos.derived.text.log"), ["m"])
    assert [(e["durationMillis"], e["kind"], e["status"]) for e in evs] == [
        (41, None, "ok"), (35, None, "ok"), (12, None, "failed"), (4, "incremental", "ok")]


def test_chunk_manager_load_lines_of_2_x():
    evs, _ = refresh.rows(state_of("generations-2.2.derived.text.log"), ["m"])
    assert [(e["fromVersion"], e["toVersion"], e["kind"], e["durationMillis"]) for e in evs] == [
        ("4|5||51ffa0a9c2f5d6b5e2f4d1a0", "4|7||51ffa0a9c2f5d6b5e2f4d1a0", "incremental", 35)]


def test_unparsable_refresh_lines_are_counted():
    state = state_of("refresh-5.0.json.log")
    assert (state.bad.matched, state.bad.unparsable) == (3, 2)


def test_5_0_era_old_version_is_where_the_refresh_started():
    # id 4619901 with oldVersion (the cache's time in store) and no
    # lookupSinceVersion: a version there is the start of an incremental
    # refresh; "None" does not tell the kind.
    evs, summaries = refresh.rows(state_of("refresh-5.0-oldversion.derived.json.log"), ["m"])
    assert [(e["fromVersion"], e["kind"], e["durationMillis"]) for e in evs] == [
        ("49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)", "incremental", 2442),
        (None, None, 2398)]
    assert summaries[0]["firstVersion"] == "49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)"


def feed_lines(state, lines):
    offset = 0
    for line in lines:
        state.feed(0, offset, line)
        offset += len(line) + 1
    return state


def test_a_refresh_event_is_kept_in_a_fixed_record(tmp_path):
    # A log of refreshes has an event per line (310,801 in 200 MiB): a dict
    # each was about 1.3 kB, so --json on such a log took 495 MiB.
    lines = generated_lines(tmp_path, "refreshes", 1024)
    tracemalloc.start()
    try:
        state = feed_lines(refresh.State(), lines)
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    events = len(refresh.rows(state, ["m"])[0])
    assert events > 1500
    assert kept < events * 100 + (32 << 10)  # a record of 80 bytes, arrays grown by an eighth


def test_the_default_table_holds_no_row_per_refresh(tmp_path):
    state = feed_lines(refresh.State(), generated_lines(tmp_path, "refreshes", 1024))
    tracemalloc.start()
    try:
        refresh.output(state, False, Discard(), 20, ["m"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The summary keeps each namespace's durations (8 bytes a refresh), no row.
    assert peak < len(state.millis) * 16 + (64 << 10)


def test_json_rows_come_back_as_they_were_read():
    # Versions are kept as numbers and an interned rest: the text survives.
    out = io.StringIO()
    refresh.output(state_of("refresh-5.0-oldversion.derived.json.log"), True, out, None, ["m"])
    assert '"fromVersion":"49188|1||626a663821072b82d9059209||Timestamp(1651140151, 6)"' in out.getvalue()
