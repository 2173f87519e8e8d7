"""Report refresh: kinds, medians, per-namespace summary."""
from analyze import refresh
from conftest import fixture_lines


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
