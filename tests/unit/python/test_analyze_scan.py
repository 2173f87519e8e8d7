"""The scan driver: a file read by several processes over byte ranges gives
exactly what one sequential pass gives, for every report."""
import pytest

from analyze import REPORTS, scan
from analyze.source import Source
from conftest import fixture_lines


@pytest.fixture
def big_log(tmp_path):
    seed = [l for l in fixture_lines("changestream-5.2.json.log") if l][1:]
    refresh = fixture_lines("refresh-5.0.json.log")[0]
    out = []
    for i in range(3000):
        for line in seed:
            out.append(line.replace(b"8620417026431980160", b"%d" % (8620417026431980160 - i % 700)))
        if i % 50 == 0:
            out.append(refresh)
    out.append(seed[3][:500])  # a cut line, to be counted once
    path = tmp_path / "big.log"
    path.write_bytes(b"\n".join(out) + b"\n")
    return str(path)


@pytest.mark.parametrize("big", [scan.BIG, 1], ids=["big-arrays-as-bytes", "every-array-as-bytes"])
@pytest.mark.parametrize("name", ["cursors", "refresh", "queries"])
def test_parallel_ranges_equal_one_pass(big_log, monkeypatch, name, big):
    report = REPORTS[name]

    def result():
        src = Source(big_log)
        src.sniff()
        state = scan.run(name, report, [src])
        if name == "refresh":
            return report.rows(state, ["x"]), state.bad.matched, state.bad.unparsable
        rows = state.rows() if name == "cursors" else report.rows(state)
        return rows, state.bad.matched, state.bad.unparsable

    monkeypatch.setenv("ANALYZE_JOBS", "1")
    one = result()
    monkeypatch.setenv("ANALYZE_JOBS", "3")
    monkeypatch.setattr(scan, "PARALLEL_MIN", 0)
    monkeypatch.setattr(scan, "PART_MIN", 1 << 16)
    monkeypatch.setattr(scan, "BIG", big)  # a part's arrays go as bytes from this size
    assert result() == one
    assert one[0]


def test_a_worker_that_fails_makes_the_run_fail(big_log, monkeypatch):
    # The error of a part read by another process is raised here, as the
    # parent's own would be, and no worker is left behind.
    def broken(report, source, needles, start, end):
        if start == 0:
            raise OSError(5, "Input/output error", big_log)
        return report.new_state()

    monkeypatch.setenv("ANALYZE_JOBS", "3")
    monkeypatch.setattr(scan, "PARALLEL_MIN", 0)
    monkeypatch.setattr(scan, "PART_MIN", 1 << 16)
    monkeypatch.setattr(scan, "_scan_range", broken)
    src = Source(big_log)
    src.sniff()
    with pytest.raises(OSError, match="Input/output error"):
        scan.run("cursors", REPORTS["cursors"], [src])
    import multiprocessing
    assert multiprocessing.active_children() == []
