"""The command line of playbooks/analyze: arguments, errors, exit codes."""

import os
import sys

from . import REPORTS, contents, scan
from .common import DEFAULT_TOP
from .source import NotALog, Source, line_numbers

USAGE = """\
Usage: playbooks/analyze cursors|refresh|queries [--json | --top N | --all] LOGFILE...

Offline analysis of mongod/mongos logs, for any production log: JSON logs
(MongoDB 4.4+) and legacy text logs of every generation (2.2 to 4.2: ctime
or ISO-8601 times, with or without severity and component), plain or
gzip-compressed (recognised by content, whatever the file name). Use - to
read stdin. Big plain files are read by one process per core.

Reports
  cursors   One row per cursor id, from the slow query lines that carry one
            (find/aggregate that opened a cursor, then each getMore): how many
            commands, nreturned, docsExamined, keysExamined, bytesRead,
            durationMillis (totals), first and last time, namespace, and the
            command that opened the cursor (aggregate/$changeStream for a
            change stream). Sorted by total duration, slowest first.
            Only operations slower than slowms are logged, so the totals
            cover the logged commands only (to log every one while you
            reproduce something: db.setProfilingLevel(0, {slowms: 0})).
  refresh   One row per routing table refresh of a collection (mongos and
            shards log these): time, namespace, from and to versions, full or
            incremental, duration, log format, status; before them one row per
            namespace: count, failed, min/median/max duration, first and last
            version. Sorted by duration, slowest first. A refresh that
            found a new version is logged at the default verbosity; some that
            found nothing new only at verbosity 1, which ones depending on the
            release (db.setLogLevel(1, "sharding.shardingCatalogRefresh")
            logs them all).
  queries   Slow operations grouped by namespace, operation and query shape
            (the filter with its values replaced by 1, as mloginfo --queries
            does, which reads legacy text logs only): commands and getMores,
            min, median, p95, max and total ms (median and p95: nearest rank,
            within 1%), share of the total time, keys and documents examined
            per returned document, the most used plan.
            Sorted by total time. An aggregate's shape is its pipeline: the
            leading $match's filter, then the stage names
            ($match {"k": 1} | $group | $sort; $changeStream | $match {...}).
            A getMore counts in the row of the command that opened its
            cursor (the originatingCommand logged with it, else the line that
            opened its cursor id earlier in the files); a cursor opened before
            the log starts gives a row "getMore (unknown origin)" per namespace.

Tables (the default) start with a summary per namespace, then show the 20
slowest rows (queries: the 20 groups with the most total time) and say how
many more there are.

Options
  --top N   The N slowest rows instead of 20.
  --all     Every row (a log of distinct cursors has as many as lines).
  --json    JSON Lines instead of tables: one object per row, with a "record"
            field ("cursor", "refresh", "namespace", "query"). Cursor ids and
            versions are strings, so jq and JavaScript keep them exact.
            A refresh record also has "file" and "offset" (where its line
            starts, in bytes, after decompression). Every row, no summary
            of cursors or queries per namespace (jq makes it).
  -h, --help  This help.

Lines that look like the report's lines but cannot be parsed (cut, re-wrapped,
pasted through a word processor) are counted and skipped; the count and the
first few places are printed on stderr.

Examples
  playbooks/analyze cursors /var/log/mongodb/mongod.log
  playbooks/analyze cursors --top 100 mongod.log | less -S
  playbooks/analyze queries mongod.log.2.gz mongod.log.1 mongod.log
  playbooks/analyze refresh --json mongos.log.1.gz mongos.log | jq -r 'select(.record=="namespace")'
  zcat mongod.log.*.gz | playbooks/analyze refresh -

When a log holds no line of the report's kind, stderr says so and what each
file holds instead: its lines, their components and first and last times
(exit 0; an empty file is such a log, as one just rotated is).

A file that is not a MongoDB log stops the run before any output (exit 1),
and stderr says what it looks like instead: binary data, a JSON document (a
report's results.json), JSON lines that are not a server's (each line of a
JSON log starts {"t":{"$date":...), text lines with a time but not a log's
layout (a playbook's run.log), other text.

Exit status: 0 report printed (possibly empty), 1 a file could not be read
completely or is not a MongoDB log, 2 usage error (unknown report or option,
missing file).
"""

NAMES = " or ".join(REPORTS)


class UsageError(Exception):
    pass


def rows_wanted(text):
    if not text.isdigit() or not text.isascii() or int(text) < 1:
        raise UsageError("--top needs a positive number of rows (found '%s')" % text)
    return int(text)


def parse_args(argv):
    """(report, as_json, files, top): top is how many rows a table shows,
    None for every row."""
    report = None
    as_json = False
    files = []
    only_files = False
    top = given = None
    args = iter(argv)
    for arg in args:
        if only_files:
            files.append(arg)
        elif arg in ("-h", "--help"):
            return None
        elif arg == "--json":
            as_json = True
        elif arg == "--all" or arg == "--top" or arg.startswith("--top="):
            if given is not None and given != arg.partition("=")[0]:
                raise UsageError("--top and --all: give one of them")
            given = arg.partition("=")[0]
            if arg == "--all":
                top = None
            elif arg == "--top":
                top = rows_wanted(next(args, ""))
            else:
                top = rows_wanted(arg[len("--top="):])
        elif arg == "--":
            only_files = True
        elif arg.startswith("-") and arg != "-":
            raise UsageError("unknown option %s" % arg)
        elif report is None:
            if arg not in REPORTS:
                raise UsageError("unknown report '%s' (expected: %s)" % (arg, NAMES))
            report = arg
        else:
            files.append(arg)
    if report is None:
        raise UsageError("no report given (expected: %s)" % NAMES)
    if not files:
        raise UsageError("no LOGFILE given (use - to read stdin)")
    if as_json and given == "--top":
        raise UsageError("--top shortens tables; --json writes every row (head -n N keeps N)")
    if files.count("-") > 1:
        raise UsageError("stdin (-) can be read only once")
    for path in files:
        if path == "-":
            continue
        if not os.path.exists(path):
            raise UsageError("%s: no such file" % path)
        if os.path.isdir(path):
            raise UsageError("%s: is a directory, not a log file" % path)
        if not os.access(path, os.R_OK):
            raise UsageError("%s: not readable" % path)
    if given is None:
        top = DEFAULT_TOP
    return report, as_json, files, top


def describe(examples, sources):
    """'file:line: reason' where the line number can be had cheaply (a
    plain file read again up to the last example), else the byte offset."""
    by_path = {}
    for src, offset, _ in examples:
        source = sources[src]
        if source.path != "-" and not source.compressed:
            by_path.setdefault(source.path, []).append(offset)
    numbers = {}
    for path, offsets in by_path.items():
        try:
            numbers[path] = line_numbers(path, offsets)
        except OSError:
            numbers[path] = {}
    out = []
    for src, offset, reason in examples:
        source = sources[src]
        line = numbers.get(source.path, {}).get(offset)
        if line is not None:
            out.append("%s:%d: %s" % (source.name, line, reason))
        else:
            out.append("%s (byte %d%s): %s" % (
                source.name, offset, " after decompression" if source.compressed else "", reason))
    return out


def run(argv, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        parsed = parse_args(argv)
    except UsageError as exc:
        err.write("analyze: %s\nTry 'playbooks/analyze --help'.\n" % exc)
        return 2
    if parsed is None:
        out.write(USAGE)
        return 0
    name, as_json, paths, top = parsed
    report = REPORTS[name]
    sources = [Source(p, i) for i, p in enumerate(paths)]
    try:
        for source in sources:
            source.sniff()
    except NotALog as exc:
        err.write("analyze: %s: %s\n" % (source.name, exc))
        if exc.hint:
            err.write("  %s\n" % exc.hint)
        return 1
    except OSError as exc:
        err.write("analyze: %s: %s\n" % (source.name, exc.strerror or exc))
        return 1
    try:
        state = scan.run(name, report, sources)
    except OSError as exc:
        err.write("analyze: %s: %s\n" % (getattr(exc, "filename", None) or "read error",
                                          exc.strerror or exc))
        return 1
    if name == "refresh":
        report.output(state, as_json, out, top, [s.name for s in sources])
    else:
        report.output(state, as_json, out, top)
    status = 0
    for source in sources:
        for warning in source.warnings:
            err.write("analyze: %s: %s\n" % (source.name, warning))
        if source.failed:
            status = 1
    if not report.found(state):
        err.write("analyze: no %s lines found in %d file(s)\n" % (report.WHAT, len(sources)))
        for source in sources:
            err.write("  %s\n" % contents.describe(source))
    bad = state.bad
    if bad.unparsable:
        err.write("analyze: skipped %d unparsable line(s) out of %d that matched the %s filter\n"
                  % (bad.unparsable, bad.matched, name))
        for example in describe(bad.examples, sources):
            err.write("  %s\n" % example)
    return status


def main(argv=None):
    try:
        code = run(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("\nanalyze: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader (head, less) went away: not an error of ours.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    return code
