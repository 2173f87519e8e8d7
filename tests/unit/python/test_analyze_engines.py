"""The Go engine of playbooks/analyze against the Python one, the reference:
on every input the Go engine reads (it hands the others over), the same
bytes on stdout and stderr and the same exit status. And its JSON reader
against orjson, its floats against Python's.

The Go engine is built by setup/install.sh when Go is installed; without it
these tests skip (in CI, where setup builds it, they fail)."""

import base64
import gzip
import json
import os
import random
import struct
import subprocess
import sys

import orjson
import pytest

from conftest import FIXTURES, ROOT

ANALYZE = os.path.join(ROOT, "playbooks", "analyze")
GO_SOURCE = os.path.join(ROOT, "playbooks", "lib", "analyze-go")
GO_ENGINE = os.path.join(ROOT, ".tools", "bin", "analyze-go")
HANDED_OVER = 3
JSON_FIXTURES = sorted(n for n in os.listdir(FIXTURES) if n.endswith(".json.log"))
# The legacy text logs (2.2 to 4.2): the *.text.log ones and the real
# refresh-4.x logs (tests/fixtures/logs/README.md names their sources).
TEXT_FIXTURES = sorted(n for n in os.listdir(FIXTURES) if n.endswith(".log") and not n.endswith(".json.log"))


def missing(what):
    if os.environ.get("CI") == "true":
        pytest.fail("%s (CI=true: setup/install.sh builds it)" % what)
    pytest.skip(what)


@pytest.fixture(scope="module")
def go_engine():
    if not os.access(GO_ENGINE, os.X_OK):
        missing("the Go engine is not built: run ./setup/install.sh with Go installed")
    code, _, err = run("go", "cursors", os.path.join(FIXTURES, JSON_FIXTURES[0]))
    if b"built from other source" in err:
        missing("the Go engine is older than its source: run ./setup/install.sh")
    return GO_ENGINE


def run(engine, *args, stdin=b""):
    env = dict(os.environ, DBA_LAB_ANALYZE_ENGINE=engine)
    done = subprocess.run([ANALYZE] + list(args), env=env, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    return done.returncode, done.stdout, done.stderr


def same_or_handed_over(*args, stdin=b""):
    """True when the Go engine read the input (then it must give the Python
    engine's bytes), False when it handed the run over."""
    go = run("go", *args, stdin=stdin)
    if go[0] == HANDED_OVER and go[2].startswith(b"analyze-go: left to the Python engine"):
        return False
    py = run("python", *args, stdin=stdin)
    assert go == py, "Go and Python engines differ on %s" % (args,)
    return True


def assert_same(*args, stdin=b""):
    assert same_or_handed_over(*args, stdin=stdin), "the Go engine handed over %s" % (args,)


def gzipped(data):
    """data in two gzip members, as logrotate's delaycompress and cat make."""
    return gzip.compress(data[:len(data) // 3]) + gzip.compress(data[len(data) // 3:])


def read(path):
    with open(path, "rb") as stream:
        return stream.read()


REPORTS = ["cursors", "queries", "refresh"]


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"]])
@pytest.mark.parametrize("name", JSON_FIXTURES)
def test_the_json_fixtures_read_the_same(go_engine, name, report, form):
    assert_same(report, *form, os.path.join(FIXTURES, name))


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"]])
@pytest.mark.parametrize("name", JSON_FIXTURES)
def test_the_json_fixtures_gzipped_read_the_same(go_engine, tmp_path, name, report, form):
    # No .gz in the name: gzip is told by content.
    path = tmp_path / name
    path.write_bytes(gzipped(read(os.path.join(FIXTURES, name))))
    assert_same(report, *form, str(path))


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"]])
@pytest.mark.parametrize("name", JSON_FIXTURES)
def test_the_json_fixtures_on_stdin_read_the_same(go_engine, name, report, form, packed):
    data = read(os.path.join(FIXTURES, name))
    assert_same(report, *form, "-", stdin=gzipped(data) if packed else data)


def input_form(tmp_path, path, how):
    """(arguments, stdin) that hand the log at path to analyze as a file,
    a gzip file, stdin or gzip on stdin."""
    if how == "file":
        return [path], b""
    data = read(path)
    if how == "gzip":
        packed = tmp_path / (os.path.basename(path) + ".1")
        packed.write_bytes(gzipped(data))
        return [str(packed)], b""
    return ["-"], gzipped(data) if how == "stdin-gzip" else data


INPUT_FORMS = ["file", "gzip", "stdin", "stdin-gzip"]


@pytest.mark.parametrize("how", INPUT_FORMS)
@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"], ["--all"], ["--top", "3"]])
@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_the_text_fixtures_read_the_same(go_engine, tmp_path, name, report, form, how):
    args, stdin = input_form(tmp_path, os.path.join(FIXTURES, name), how)
    assert_same(report, *form, *args, stdin=stdin)


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("order", ["text-first", "json-first"])
def test_a_text_log_beside_a_json_one_reads_the_same(go_engine, report, order):
    text = os.path.join(FIXTURES, "cursors-4.2.derived.text.log" if report == "cursors" else "refresh-4.2-mongod.log")
    json_log = os.path.join(FIXTURES, "changestream-5.2.json.log" if report == "cursors" else "refresh-5.0.json.log")
    files = [text, json_log] if order == "text-first" else [json_log, text]
    for form in ([], ["--json"], ["--all"]):
        assert_same(report, *form, *files)


# The reports the Go engine reads a log that spans an upgrade with (text and
# JSON lines in one file); queries hands over one whose text lines hold
# getMores (where the Python engine counts them depends on its blocks).
GO_READS_UPGRADES = {"cursors", "refresh"}


@pytest.mark.parametrize("how", INPUT_FORMS)
@pytest.mark.parametrize("report", sorted(GO_READS_UPGRADES))
@pytest.mark.parametrize("first", ["text", "json"])
def test_a_log_that_spans_an_upgrade_reads_the_same(go_engine, tmp_path, report, first, how):
    # One file, 4.2 text lines then 4.4+ JSON ones (or the other way): the
    # first line gives the format (the needles), each line is read by its own.
    text = read(os.path.join(FIXTURES, "cursors-4.2.derived.text.log")) + read(
        os.path.join(FIXTURES, "refresh-4.2-mongod.log"))
    json_lines = b"\n".join(real_lines()) + b"\n"
    path = tmp_path / "upgraded.log"
    path.write_bytes(text + json_lines if first == "text" else json_lines + text)
    args, stdin = input_form(tmp_path, str(path), how)
    for form in ([], ["--json"]):
        assert_same(report, *form, *args, stdin=stdin)


def real_text_lines():
    """Every line of the text fixtures."""
    lines = []
    for name in TEXT_FIXTURES:
        lines += [line for line in read(os.path.join(FIXTURES, name)).split(b"\n") if line]
    return lines


TEXT_MUTATIONS = [b" ", b"  ", b"]", b"[", b":", b"|", b"ms", b" ms", b"\t", b"\xc2\xa0", b"\xc3\xa9", b"\xff",
                  b" took 5", b" based on: ", b" cursorid:5", b"||Timestamp(1, 2)", b" I  SHARDING ", b"Z"]


def test_damaged_text_lines_read_the_same(go_engine, tmp_path):
    rng = random.Random(40)
    lines = real_text_lines()
    handled = 0
    for n in range(30):
        body = [lines[0]]
        for _ in range(8):
            body.append(rng.choice(lines))
            line = rng.choice(lines)
            at = rng.randrange(1, len(line))
            what = rng.randrange(3)
            if what == 0:
                line = line[:at]  # cut short, as the last line of a log being written
            elif what == 1:
                line = line[:at] + rng.choice(TEXT_MUTATIONS) + line[at:]
            else:
                line = line[:at] + line[at + rng.randrange(1, 8):]
            body.append(line)
        path = tmp_path / ("damaged-%d.log" % n)
        path.write_bytes(b"\n".join(body) + b"\n")
        for report in REPORTS:
            handled += same_or_handed_over(report, str(path))
    # Hand-overs are for names that are not UTF-8 and numbers beyond 64 bits only.
    assert handled >= 50


def test_cut_text_lines_are_read_by_the_go_engine(go_engine, tmp_path):
    # A cut refresh line is unparsable (it lost its "took N ms"); a cut slow
    # operation is no cursor event: both are the Go engine's to report.
    rng = random.Random(4)
    body = []
    for line in real_text_lines():
        body.append(line)
        body.append(line[:rng.randrange(1, len(line))])
    path = tmp_path / "cut.log"
    path.write_bytes(b"\n".join(body) + b"\n")
    refresh = run("go", "refresh", str(path))
    assert refresh[0] == 0 and b"routing refresh line without 'took N ms'" in refresh[2]
    assert refresh == run("python", "refresh", str(path))
    assert_same("cursors", str(path))


def test_stdin_between_files_reads_the_same(go_engine):
    fixture = os.path.join(FIXTURES, "changestream-5.2.json.log")
    refresh = os.path.join(FIXTURES, "refresh-5.0.json.log")
    for report in REPORTS:
        assert_same(report, "--json", refresh, "-", fixture, stdin=read(fixture))


def test_stdin_handed_over_late_reaches_the_python_engine_whole(go_engine):
    # A namespace that is not UTF-8 on the last line (the Python engine reads
    # it with a replacement character): the Go engine has read and parsed
    # all of stdin before it hands over; the Python engine gets all of it
    # (every refresh of the 4.2 log, 40 times over, and that one).
    log = read(os.path.join(FIXTURES, "refresh-4.2-mongod.log"))
    data = log * 40 + (b"2022-10-06T11:00:36.781+0800 I SH_REFR [ConfigServerCatalogCacheLoader-1] Refresh for"
                       b" collection wukong.\xffactions to version 103200|623||626ba80f5fa7cb632d7bf264 took 5 ms\n")
    assert len(data) > 64 << 10
    assert not same_or_handed_over("refresh", "--json", "-", stdin=data)
    py = run("python", "refresh", "--json", "-", stdin=data)
    assert py[0] == 0 and py[1].count(b'"record":"refresh"') == 40 * log.count(b"Refresh for collection ") + 1
    assert run("auto", "refresh", "--json", "-", stdin=data) == py


def test_stdin_twice_is_the_python_engines_usage_error(go_engine):
    fixture = os.path.join(FIXTURES, "changestream-5.2.json.log")
    py = run("python", "cursors", "-", "-", stdin=read(fixture))
    assert py[0] == 2 and py[1] == b"" and b"stdin (-) can be read only once" in py[2]
    assert run("auto", "cursors", "-", "-", stdin=read(fixture)) == py


@pytest.mark.parametrize("damage", ["cut", "corrupt"])
def test_damaged_gzip_is_the_python_engines_to_report(go_engine, tmp_path, damage):
    """The Go engine hands over a gzip file it cannot read to the end: the
    Python engine reads up to the damage and says so in its own words."""
    data = gzipped(read(os.path.join(FIXTURES, "changestream-5.2.json.log")))
    if damage == "cut":
        data = data[:-20]
    else:
        data = data[:-8] + bytes(b ^ 0xff for b in data[-8:-4]) + data[-4:]  # the last member's CRC
    path = tmp_path / "mongod.log.1"
    path.write_bytes(data)
    assert not same_or_handed_over("cursors", str(path))
    py = run("python", "cursors", str(path))
    assert py[0] == 1 and b"gzip data" in py[2]
    assert run("auto", "cursors", str(path)) == py


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Synthetic logs (bench/analyze-log.py): the all and few ones big
    enough for the Go engine to read them in two parts and merge them."""
    folder = tmp_path_factory.mktemp("logs")
    paths = {}
    for kind, kib in (("all", 20 << 10), ("distinct", 4 << 10), ("few", 20 << 10), ("refreshes", 2 << 10)):
        for twin in (kind, kind + "-text"):  # KIND-text: the same events as 4.2 writes them
            paths[twin] = str(folder / (twin + ".log"))
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "analyze-log.py"), twin, paths[twin], str(kib)],
                           check=True, stdout=subprocess.DEVNULL)
    return paths


GENERATED_KINDS = ["all", "distinct", "few", "refreshes", "all-text", "distinct-text", "few-text", "refreshes-text"]


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"], ["--all"], ["--top", "3"]])
@pytest.mark.parametrize("kind", GENERATED_KINDS)
def test_generated_logs_read_the_same(go_engine, generated, kind, report, form):
    assert_same(report, *form, generated[kind])


@pytest.mark.parametrize("report", REPORTS)
@pytest.mark.parametrize("form", [[], ["--json"]])
@pytest.mark.parametrize("kind", GENERATED_KINDS)
@pytest.mark.parametrize("how", ["gzip", "stdin", "stdin-gzip"])
def test_generated_logs_in_every_input_form_read_the_same(go_engine, generated, tmp_path, how, kind, report, form):
    args, stdin = input_form(tmp_path, generated[kind], how)
    assert_same(report, *form, *args, stdin=stdin)


@pytest.mark.parametrize("form", [["--top", "0"], ["--top", "x"], ["--top"], ["--top=-1"], ["--json", "--top", "5"],
                                  ["--top", "5", "--all"], ["--all", "--top=5"]])
def test_usage_errors_of_top_and_all_read_the_same(go_engine, generated, form):
    # The Go engine hands them over: the Python engine's one line, exit 2.
    go, py = run("go", "cursors", *form, generated["distinct"]), run("python", "cursors", *form, generated["distinct"])
    assert go[0] == HANDED_OVER and py[0] == 2 and py[1] == b"" and py[2].startswith(b"analyze: ")
    assert run("auto", "cursors", *form, generated["distinct"]) == py


@pytest.mark.parametrize("report", REPORTS)
def test_several_files_read_the_same(go_engine, generated, report):
    assert_same(report, "--json", generated["few"], generated["refreshes"], generated["distinct"], generated["all"])


@pytest.mark.parametrize("report", REPORTS)
def test_several_files_of_both_formats_read_the_same(go_engine, generated, report):
    assert_same(report, "--json", generated["few-text"], generated["refreshes"], generated["distinct-text"],
                generated["all"])


def test_the_two_engines_split_a_big_file_alike(go_engine, generated):
    # One part or two: the same rows (cursors seen in both parts included).
    one = run("go", "cursors", "--json", generated["all"])
    with_jobs = dict(os.environ, DBA_LAB_ANALYZE_ENGINE="go", ANALYZE_JOBS="1")
    single = subprocess.run([ANALYZE, "cursors", "--json", generated["all"]], env=with_jobs,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert one[0] == 0 and single.returncode == 0
    assert one[1] == single.stdout


NOT_LOGS = {
    "results.json": b'{\n  "schema": 1,\n  "playbook": "routing-refresh"\n}\n',
    "rows.jsonl": b'{"id":1,"s":"I","c":"COMMAND","msg":"Slow query"}\n{"id":2}\n',
    "run.log": b"2026-11-20T12:00:00Z ==> launch (8.0.4) (elapsed 00:00)\n2026-11-20T12:00:01Z warning: disk\n",
}


@pytest.mark.parametrize("name", sorted(NOT_LOGS))
def test_a_file_that_is_not_a_log_is_refused_alike(go_engine, tmp_path, name):
    """The Go engine reads no such file: it hands it over, and the run is the
    Python engine's refusal, exit 1 before any output."""
    path = tmp_path / name
    path.write_bytes(NOT_LOGS[name])
    assert not same_or_handed_over("cursors", str(path))
    py = run("python", "cursors", str(path))
    assert py[0] == 1 and py[1] == b"" and b"not a MongoDB log" in py[2]
    assert run("auto", "cursors", str(path)) == py


def real_lines():
    """The real slow query and refresh lines of the fixtures (the change
    stream article's, minus its one line with typographic quotes; the
    routing refresh article's valid refresh line)."""
    with open(os.path.join(FIXTURES, "changestream-5.2.json.log"), "rb") as stream:
        lines = [line for line in stream.read().split(b"\n")[1:] if line]
    with open(os.path.join(FIXTURES, "refresh-5.0.json.log"), "rb") as stream:
        lines.append(stream.read().split(b"\n")[0])
    return lines


MUTATIONS = [b"\xe2\x80\x9c", b"}", b"]", b",", b":", b"x", b"\\", b"\x01", b"\xc3\xa9", b'"', b" ", b"{", b"[",
             b"0", b"-", b"e", b"tru", b"\\ud800", b"\xff"]


def mutate(rng, line):
    if len(line) < 2:
        return line + rng.choice(MUTATIONS)
    what = rng.randrange(4)
    at = rng.randrange(1, len(line))
    if what == 0:
        return line[:at]  # cut short, as the last line of a log being written
    if what == 1:
        return line[:at] + rng.choice(MUTATIONS) + line[at + 1:]
    if what == 2:
        return line[:at] + rng.choice(MUTATIONS) + line[at:]
    return line[:at] + line[at + rng.randrange(1, 8):]


def test_damaged_lines_read_the_same(go_engine, tmp_path):
    rng = random.Random(18)
    lines = real_lines()
    handled = 0
    for n in range(30):
        body = []
        for _ in range(5):
            body.append(rng.choice(lines))
            body.append(mutate(rng, rng.choice(lines)))
        path = tmp_path / ("damaged-%d.log" % n)
        path.write_bytes(b"\n".join(body) + b"\n")
        for report in REPORTS:
            handled += same_or_handed_over(report, str(path))
    # Cut lines and typographic quotes are common; they must not cost a hand-over.
    assert handled >= 45


def test_cut_lines_are_read_by_the_go_engine(go_engine, tmp_path):
    lines = real_lines()
    rng = random.Random(4)
    body = []
    for line in lines:
        body.append(line)
        body.append(line[:rng.randrange(1, len(line))])
    path = tmp_path / "cut.log"
    path.write_bytes(b"\n".join(body))  # the last line without its newline, too
    for report in REPORTS:
        assert_same(report, str(path))
        assert_same(report, "--json", str(path))


def orjson_error(line):
    try:
        orjson.loads(line)
        return None
    except orjson.JSONDecodeError as exc:
        return str(exc)


def test_the_go_json_reader_agrees_with_orjson(go_engine, tmp_path):
    if subprocess.run(["go", "version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        missing("go is not installed")
    rng = random.Random(2026)
    lines = real_lines()
    corpus = tmp_path / "orjson.jsonl"
    with open(corpus, "w") as out:
        for _ in range(20000):
            line = rng.choice(lines)
            for _ in range(rng.choice((1, 1, 2))):
                line = mutate(rng, line)
            out.write(json.dumps({"line": base64.b64encode(line).decode(), "error": orjson_error(line)}) + "\n")
    floats = tmp_path / "floats.jsonl"
    with open(floats, "w") as out:
        samples = [0.0, 0.05, 0.15, 0.25, 2.675, 12.5, 62.5, 1e15, 1e16, 123456789012345.6, 1e-5, 9.95, 99.95]
        samples += [rng.uniform(0, 1000) for _ in range(2000)] + [rng.lognormvariate(3, 4) for _ in range(2000)]
        samples += [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(62)))[0] for _ in range(2000)]
        for x in samples:
            out.write(json.dumps({"hex": x.hex(), "repr": repr(x), "round1": repr(round(x, 1)), "f1": "%.1f" % x}) + "\n")
    env = dict(os.environ, ANALYZE_GO_ORJSON_CORPUS=str(corpus), ANALYZE_GO_FLOAT_CORPUS=str(floats),
               GOFLAGS="-buildvcs=false", GOTOOLCHAIN="local",
               GOCACHE=os.path.join(ROOT, ".tools", "go-build-cache"))
    # Every Go test: these two read the corpora; the others need none.
    done = subprocess.run(["go", "test", "-trimpath", "-count=1", "-v", "."],
                          cwd=GO_SOURCE, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    output = done.stdout.decode()
    assert done.returncode == 0, output[-4000:]
    for name in ("TestReaderAgreesWithOrjson", "TestFloatsAsPython", "TestPerCursorStateIsASmallFixedRecord"):
        assert "--- PASS: " + name in output, output


FILTERS = [
    '{"a":{"$nin":[1,2]},"b":{"$gt":5}}', '{"query":{"x":1,"y":{"$in":[1,2]}}}', '{"$query":{"x":1},"$orderby":{"x":1}}',
    '{"x":1,"query":{"y":2}}', '{"a":{"$in":[1]},"query":{"y":2}}', '{"_id":{"$oid":"626a663821072b82d9059209"}}',
    '{"t":{"$date":"2024-05-01T00:00:00Z","x":1}}', '{"t":{"$date":"2024-05-01T00:00:00Z","x":1,"y":2}}',
    '{"tags":["a","b"]}', '{"m":["a",1,{"z":1}]}', '{"n":[[3,2],[1],1,[[1]]]}', '{"e":[]}', '{"o":{}}', '{}',
    '{"b":1,"a":2,"é":3,"A":4}', '{"a\\"b":1,"c\\u0001":2,"d\\\\e":3}', '{"a":1,"a":{"$gt":2}}',
    '{"$or":[{"b":1},{"a":{"$exists":true}}]}', '{"l":[[{"é":1}],[1]]}', '{"l":[[{"e":1}],[1]]}',
    '{"x":{"$elemMatch":{"$gte":1,"$lt":9}}}', '{"x":null,"y":true,"z":1.5e3}',
]


def test_query_shapes_read_the_same(go_engine, tmp_path):
    """normalize's rules, each in a filter of its own: operators that
    collapse, extended JSON, query wrappers, lists to fold or sort, keys to
    escape or sort, repeated keys."""
    with open(os.path.join(FIXTURES, "changestream-5.2.json.log"), "rb") as stream:
        template = stream.read().split(b"\n")[1]  # the aggregate line: a find of ours replaces its command
    head, tail = template.split(b'"command":', 1)
    tail = tail[tail.index(b',"planSummary"'):]
    lines = []
    for n, shape in enumerate(FILTERS):
        for command in ('{"find":"c%d","filter":%s,"$db":"test"}' % (n, shape),
                        '{"count":"c%d","query":%s,"$db":"test"}' % (n, shape)):
            lines.append(head + b'"command":' + command.encode() + tail)
    path = tmp_path / "shapes.log"
    path.write_bytes(b"\n".join(lines) + b"\n")
    same_or_handed_over("queries", str(path))  # the whole file: it may hand over (a non-ASCII list)
    handled = 0
    for line in lines:
        one = tmp_path / "one.log"
        one.write_bytes(line + b"\n")
        handled += same_or_handed_over("queries", "--json", str(one))
    assert handled >= len(lines) - 2


def test_refresh_strings_to_escape_and_order_read_the_same(go_engine, tmp_path):
    """The Go engine keeps a refresh's strings as --json writes them and
    sorts each part on its own: strings json.dumps escapes (a non-ASCII
    namespace or epoch), versions written as text, a line without a time,
    equal, negative and huge durations, in a file read in two parts."""
    with open(os.path.join(FIXTURES, "refresh-5.0.json.log"), "rb") as stream:
        template = orjson.loads(stream.read().split(b"\n")[0])
    variants = []
    for millis in (7, 7, -3, 0, 10 ** 9, 7, -(10 ** 9), 250):
        variants.append({"attr": {"durationMillis": millis}})
    variants += [
        {"attr": {"namespace": "caf\u00e9.m\u00fcnchen", "durationMillis": 7}},
        {"attr": {"namespace": "shop.\U0001f600", "durationMillis": 9}},
        {"attr": {"lookupSinceVersion": {"0": {"$timestamp": {"t": 3, "i": 1}}, "1": {"$oid": "\u00e9poch\""},
                                         "2": {"$timestamp": {"t": 1651140151, "i": 6}}}}},
        {"attr": {"lookupSinceVersion": "from version 12|3||626a663821072b82d9059209"}},
        {"attr": {"lookupSinceVersion": {"0": {"$timestamp": {"t": 0, "i": 0}},
                                         "1": {"$oid": "000000000000000000000000"}}}},
        {"t": None},
    ]
    lines = []
    for n, change in enumerate(variants * 1800):
        line = json.loads(orjson.dumps(template))
        line["t"] = {"$date": "2022-10-17T16:%02d:%02d.%03d+08:00" % (n // 60000 % 60, n // 1000 % 60, n % 1000)}
        for key, value in change.items():
            if key == "attr":
                line["attr"].update(value)
            elif value is None:
                del line[key]
        lines.append(orjson.dumps(line))
    path = tmp_path / "refreshes.log"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert path.stat().st_size > 16 << 20, "the Go engine reads a file this size in two parts"
    for form in ([], ["--json"]):
        assert_same("refresh", *form, str(path))


def test_a_refresh_with_no_time_nor_versions_reads_the_same(go_engine, tmp_path):
    """A failed refresh on a line without a time keeps no string at all: the
    last event read, its empty block ends its chunk. The Go engine once read
    past it while writing, and handed the run over as an internal error."""
    with open(os.path.join(FIXTURES, "refresh-5.0.json.log"), "rb") as stream:
        refreshed = orjson.loads(stream.read().split(b"\n")[0])
    failed = json.loads(orjson.dumps(refreshed))
    del failed["t"]
    failed.update(id=4619903, msg="Error refreshing cached collection")
    failed["attr"] = {"namespace": "test.test2", "durationMillis": 5, "error": "ShardNotFound"}
    path = tmp_path / "failed-last.log"
    path.write_bytes(orjson.dumps(refreshed) + b"\n" + orjson.dumps(failed) + b"\n")
    for form in ([], ["--json"]):
        assert_same("refresh", *form, str(path))


def test_refresh_lines_off_the_common_layout_read_the_same(go_engine, tmp_path):
    """The Go engine reads the usual refresh line from where its check of
    the line found the members, and any other with its strict reader: keys
    with escapes, repeated keys, spaces, and fields of other types."""
    with open(os.path.join(FIXTURES, "refresh-5.0.json.log"), "rb") as stream:
        line = stream.read().split(b"\n")[0]
    edits = [
        (b'"id":4619901', b'"\\u0069d":4619901'),
        (b'"namespace":', b'"n\\u0061mespace":'),
        (b'"id":4619901', b'"id" : 4619901 , "id":4619902'),
        (b'"attr":{', b'"attr":{"namespace":"first.one",'),
        (b'"durationMillis":2442', b'"durationMillis":2442,"durationMillis":"17"'),
        (b'"durationMillis":2442', b'"durationMillis":true'),
        (b'"namespace":"test.test2"', b'"namespace":7'),
        (b'"namespace":"test.test2"', b'"namespace":"test.\\u00e9t\\u00e9"'),
        (b'"id":4619901', b'"id":"4619901"'),
        (b'{"t":{"$date":"2022-10-17T16:15:56.209+08:00"}', b'{"t":"2022-10-17T16:15:56.209+08:00"'),
        (b'{"t":{"$date":"2022-10-17T16:15:56.209+08:00"}', b'{"t":{"$date":{"$numberLong":"1666000000000"}}'),
        (b'{"t":{"$date":"2022-10-17T16:15:56.209+08:00"}', b'{"t":{}'),
        (b'{"t":{"$date":"2022-10-17T16:15:56.209+08:00"}', b'{"t":null'),
        (b'"lookupSinceVersion":', b'"lookupSinceVersion":null,"lookupSinceVersion":'),
        (b'"attr":{', b'"attr":{},"attr":{'),
        (b'"attr":{', b'"attr":[],"x":{'),
    ]
    # Numbers it does not read exactly: the Python engine's to read.
    handed_over = [
        (b'"durationMillis":2442', b'"durationMillis":1.5'),
        (b'"durationMillis":2442', b'"durationMillis":{"$numberLong":"5"}'),
        (b'"id":4619901', b'"id":4619901.0'),
    ]
    lines = [line, line + b"   ", b" \t" + line]
    for old, new in edits + handed_over:
        assert old in line, old
        lines.append(line.replace(old, new, 1))
    read = []
    for n, one in enumerate(lines):
        path = tmp_path / ("layout-%d.log" % n)
        path.write_bytes(one + b"\n")
        read.append(same_or_handed_over("refresh", str(path)) and same_or_handed_over("refresh", "--json", str(path)))
    assert read == [True] * (len(lines) - len(handed_over)) + [False] * len(handed_over)


def test_getmores_without_originating_command_are_the_python_engines(go_engine, tmp_path):
    """Such a getMore is tied to its cursor's opening command by cursor id,
    which needs every cursor opened before it: the Python engine keeps them,
    the Go engine hands the run over (4.4+ servers log originatingCommand
    with every getMore of a cursor that has one)."""
    with open(os.path.join(FIXTURES, "queries-aggregates.derived.json.log"), "rb") as stream:
        lines = stream.read().split(b"\n")
    getmore = orjson.loads(lines[3])
    del getmore["attr"]["originatingCommand"]
    path = tmp_path / "tied.log"
    path.write_bytes(lines[1] + b"\n" + orjson.dumps(getmore) + b"\n")
    assert not same_or_handed_over("queries", "--json", str(path))
    code, out, _ = run("auto", "queries", "--json", str(path))
    assert code == 0
    assert [(r["shape"], r["commands"], r["getMores"]) for r in map(orjson.loads, out.splitlines())] == \
        [('$match {"k": 1} | $group | $sort', 1, 1)]


PIPELINES = [
    '[{"$match":{"k":1}},{"$group":{"_id":"$c"}},{"$sort":{"n":-1}}]', '[{"$match":{"a":{"$in":[1,2]},"b":"x"}}]',
    '[{"$changeStream":{}},{"$match":{"operationType":"insert"}},{"$project":{"a":1}}]',
    '[{"$changeStream":{}},{"$project":{"a":1}},{"$match":{"a":1}}]', '[{"$group":{"_id":1}},{"$match":{"n":1}}]',
    '[{"$match":"x"}]', '[{"$match":{"é":1}},{"$ùnwind":"$a"}]', '[]', '{}', '"p"', '[{}]', '[{"$match":{}},3]',
    '[{"$match":{"a":1},"$match":{"b":1}}]', '[{"$limit":1,"$match":{"b":1}}]', '[{"$match":{"$expr":{"$gt":["$a",1]}}}]',
]


def test_pipeline_shapes_read_the_same(go_engine, tmp_path):
    """pipeline_shape's rules, each pipeline in an aggregate and in the
    originatingCommand of a getMore of its own."""
    with open(os.path.join(FIXTURES, "queries-aggregates.derived.json.log"), "rb") as stream:
        lines = stream.read().split(b"\n")
    aggregate, getmore = orjson.loads(lines[1]), orjson.loads(lines[3])
    out = []
    for n, pipeline in enumerate(PIPELINES):
        for doc, where in ((aggregate, "command"), (getmore, "originatingCommand")):
            text = orjson.dumps(doc).decode()
            old = orjson.dumps(doc["attr"][where]["pipeline"]).decode()
            assert old in text
            out.append(text.replace(old, pipeline, 1).replace('"ns":"shop.orders"', '"ns":"shop.c%d"' % n, 1))
    path = tmp_path / "pipelines.log"
    path.write_text("\n".join(out) + "\n")
    for form in ([], ["--json"]):
        assert_same("queries", *form, str(path))
