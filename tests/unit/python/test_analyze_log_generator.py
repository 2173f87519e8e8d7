"""bench/analyze-log.py's legacy text twins (KIND-text): every line one the
Python engine (the reference) parses, and the same events as the JSON log of
the same kind and size, so that the bench's legacy cells time the same work
as its JSON ones."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

ANALYZE = os.path.join(ROOT, "playbooks", "analyze")
GENERATOR = os.path.join(ROOT, "bench", "analyze-log.py")
KINDS = ["all", "few", "distinct", "shapes", "refreshes"]
REPORTS = ["cursors", "refresh", "queries"]
# Small: a few hundred lines of each kind.
KIB = 96


def generate(kind, path):
    done = subprocess.run([sys.executable, GENERATOR, kind, str(path), str(KIB)], check=True,
                          stdout=subprocess.PIPE, timeout=120)
    return int(done.stdout)


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """{kind: (JSON log, text log)}."""
    folder = tmp_path_factory.mktemp("twins")
    out = {}
    for kind in KINDS:
        out[kind] = (folder / (kind + ".log"), folder / (kind + "-text.log"))
        generate(kind, out[kind][0])
        generate(kind + "-text", out[kind][1])
    return out


def python_engine(report, path):
    env = dict(os.environ, DBA_LAB_ANALYZE_ENGINE="python")
    return subprocess.run([ANALYZE, report, "--json", str(path)], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)


def comparable(record):
    """A --json record without what only the log format changes: the format
    and log id, where the line sits, times (4.4+ writes +00:00, 4.2 +0000)
    and the Timestamp that 5.0+ chunk versions carry and 4.2's do not."""
    out = {}
    for key, value in record.items():
        if key in ("format", "logId", "file", "offset"):
            continue
        if isinstance(value, str):
            value = re.sub(r"\|\|Timestamp\(\d+, \d+\)$", "", value)
            value = re.sub(r"([+-]\d\d):(\d\d)$", r"\1\2", value)
        out[key] = value
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_a_text_twin_has_as_many_lines_as_its_json_log(tmp_path, kind):
    assert generate(kind + "-text", tmp_path / "text.log") == generate(kind, tmp_path / "json.log")


@pytest.mark.parametrize("kind", KINDS)
def test_a_text_twin_is_the_same_file_each_time(tmp_path, kind):
    generate(kind + "-text", tmp_path / "one.log")
    generate(kind + "-text", tmp_path / "two.log")
    assert (tmp_path / "one.log").read_bytes() == (tmp_path / "two.log").read_bytes()


@pytest.mark.parametrize("kind", KINDS)
def test_every_text_twin_line_is_a_legacy_text_line(twins, kind):
    # The head every 4.2 line starts with: time, severity and component
    # padded as r4.2 writes them, context.
    head = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000 I  [A-Z_]{1,8} +\[[^\]]+\] \S")
    lines = twins[kind][1].read_bytes().splitlines()
    assert lines and all(head.match(line) for line in lines)


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_python_engine_parses_every_line_a_report_reads(twins, kind, report):
    done = python_engine(report, twins[kind][1])
    assert b"unparsable" not in done.stderr


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_text_twin_gives_the_records_of_its_json_log(twins, kind, report):
    json_run, text_run = python_engine(report, twins[kind][0]), python_engine(report, twins[kind][1])
    assert text_run.returncode == json_run.returncode
    from_json = [comparable(json.loads(line)) for line in json_run.stdout.splitlines()]
    from_text = [comparable(json.loads(line)) for line in text_run.stdout.splitlines()]
    assert from_text == from_json


def test_the_text_twins_hold_records_of_every_report(twins):
    # Guards the comparison above against passing on empty reports.
    found = {report: sum(len(python_engine(report, twins[kind][1]).stdout.splitlines()) for kind in KINDS)
             for report in REPORTS}
    assert all(found.values()), found


def test_an_unknown_kind_is_a_one_line_usage_error(tmp_path):
    done = subprocess.run([sys.executable, GENERATOR, "legacy", str(tmp_path / "x.log"), "8"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode != 0 and done.stderr.startswith(b"usage: bench/analyze-log.py KIND[-text]")
    assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "x.log").exists()
