"""Offline analysis of MongoDB server logs: the engine behind playbooks/analyze.

Reads JSON logs (4.4+) and legacy text logs (<= 4.2), plain or gzip (told
apart by the gzip magic bytes, never by the file name), and prints one report:

  cursors  per-cursor aggregate of the slow query lines that carry a cursor id
  refresh  routing table refreshes, one row each, and a summary per namespace

Speed: a production log is mostly lines no report wants. Each block read is
searched in place with bytes.find for one short literal needle per report
(C speed, no per-line Python work, no newline counting); only the lines
around a hit are decoded, checked and parsed.

Exact ids: cursor ids are 64-bit. Python's json keeps integers exact; they
are printed as strings in --json output so that jq 1.6 and JavaScript, which
read JSON numbers as doubles, cannot merge two cursors (FACTS.md, jq trap).

Log shapes, as read in mongodb/mongo:
- JSON slow query: src/mongo/db/curop.cpp, CurOp::completeAndLogOperation
  logs id 51803 "Slow query" with the attributes of OpDebug::report: ns,
  command, originatingCommand (getMore), cursorid, keysExamined,
  docsExamined, nreturned, storage ({data: {bytesRead}}), durationMillis.
- Text slow query (r4.2 curop.cpp, OpDebug::report returning a string):
  "command <ns> [appName: "..."] command: <name> { ... } [originatingCommand:
  { ... }] [planSummary: ...] cursorid:N keysExamined:N docsExamined:N
  numYields:N nreturned:N reslen:N locks:{ ... } storage:{ data: { bytesRead:
  N, ... } } protocol:op_msg Nms".
- Routing refresh, JSON: src/mongo/s/catalog_cache.cpp logs id 4619901
  "Refreshed cached collection" (namespace, lookupSinceVersion, newVersion,
  timeInStore, durationMillis), 4619902 (found unsharded), 4619903 (error);
  the first 4.4 releases logged id 24104 "Refreshed cached collection"
  (namespace, newVersion, oldVersion " from version X" or "",
  durationMillis), 24103 (error) and 24105 (unsharded).
- Routing refresh, text (r4.0/r4.2 catalog_cache.cpp, onRefreshCompleted):
  "Refresh for collection NS[ from version A] to version B took N ms",
  "... took N ms and failed ...", "... took N ms and found the collection is
  not sharded"; 3.6 wrote "... took N ms and found version B".
"""

import json
import os
import re
import statistics
import sys
import time
import zlib

READ_SIZE = 8 << 20
GUNZIP_OUT_MAX = 32 << 20
MAX_EXAMPLES = 5

USAGE = """\
Usage: playbooks/analyze cursors|refresh [--json] LOGFILE...

Offline analysis of mongod/mongos logs, for any production log: JSON logs
(MongoDB 4.4+) and legacy text logs (4.2 and older), plain or gzip-compressed
(recognised by content, whatever the file name). Use - to read stdin.

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
            incremental, duration, log format, status. Then one row per
            namespace: count, failed, min/median/max duration, first and last
            version. Rows sorted by duration, slowest first. A refresh that
            found a new version is logged at the default verbosity; some that
            found nothing new only at verbosity 1, which ones depending on the
            release (db.setLogLevel(1, "sharding.shardingCatalogRefresh")
            logs them all).

Options
  --json    JSON Lines instead of tables: one object per row, with a "record"
            field ("cursor", "refresh", "namespace"). Cursor ids and
            versions are strings, so jq and JavaScript keep them exact.
            A refresh record also has "file" and "offset" (where its line
            starts, in bytes, after decompression).
  -h, --help  This help.

Lines that look like the report's lines but cannot be parsed (cut, re-wrapped,
pasted through a word processor) are counted and skipped; the count and the
first few places are printed on stderr.

Examples
  playbooks/analyze cursors /var/log/mongodb/mongod.log
  playbooks/analyze refresh --json mongos.log.1.gz mongos.log | jq -r 'select(.record=="namespace")'
  zcat mongod.log.*.gz | playbooks/analyze refresh -

Exit status: 0 report printed (possibly empty), 1 a file could not be read
completely, 2 usage error (unknown report or option, missing file).
"""

REPORTS = ("cursors", "refresh")

# What the pre-filter looks for in the raw bytes: one short needle per
# report, searched with bytes.find over whole blocks (each extra needle would
# cost a full pass), then a per-line test on the few lines found. Loose on
# purpose (no quotes, no spacing) so that damaged lines are found too and
# counted as unparsable instead of vanishing silently.
NEEDLES = {
    "cursors": (b"cursorid", (b"cursorid",)),
    "refresh": (b"efresh", (
        b"Refreshed cached collection",
        b"Error refreshing cached collection",
        b"found to be unsharded after refresh",
        b"Refresh for collection ",
    )),
}

SLOW_QUERY_ID = 51803
REFRESH_IDS = {
    4619901: "ok",
    4619902: "unsharded",
    4619903: "failed",
    24104: "ok",
    24103: "failed",
    24105: "unsharded",
}

# Legacy text line: "<time> <severity> <component> [<context>] <message>".
# Times are ISO-8601 (iso8601-local/-utc, the default since 2.6) or ctime
# ("Thu Oct  6 11:25:04.878", --timeStampFormat ctime).
TEXT_LINE = re.compile(
    r"^(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?)"
    r" +(?P<sev>[FEWID]\d?) +(?P<comp>[A-Z_]+|-) +\[(?P<ctx>[^\]]*)\] (?P<msg>.*)$"
)
TEXT_SLOW_OP = re.compile(
    r"^(?P<op>command|query|getmore|update|remove|insert) (?P<ns>\S+) (?P<body>.*) (?P<ms>\d+)ms$"
)
TEXT_COMMAND_NAME = re.compile(r" command: (?P<name>[\w$]+) \{")
TEXT_ORIGIN_NAME = re.compile(r" originatingCommand: \{ (?P<name>[\w$]+):")
TEXT_BYTES_READ = re.compile(r"bytesRead: (\d+)")
TEXT_REFRESH = (
    (re.compile(r"^Refresh for collection (?P<ns>\S+)(?: from version (?P<from>\S+))?"
                r" to version (?P<to>\S+) took (?P<ms>\d+) ms$"), "ok"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+) took (?P<ms>\d+) ms"
                r" and found version (?P<to>\S+)$"), "ok"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+) took (?P<ms>\d+) ms"
                r" and found the collection is not sharded$"), "unsharded"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+) took (?P<ms>\d+) ms and failed"), "failed"),
)
ISO_TIME = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|([+-])(\d\d):?(\d\d))?$"
)


class UsageError(Exception):
    pass


class Unparsable(Exception):
    pass


# ---------------------------------------------------------------- reading --

class Progress:
    """A one-line progress report on stderr, only when stderr is a terminal."""

    def __init__(self):
        self.enabled = sys.stderr.isatty()
        self.last = time.monotonic()  # nothing shown for runs under a second
        self.shown = False

    def update(self, name, done, total):
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 1.0:
            return
        self.last = now
        if total:
            text = "analyze: %s  %s / %s (%d%%)" % (
                name, human_bytes(done), human_bytes(total), 100 * done // max(total, 1))
        else:
            text = "analyze: %s  %s read" % (name, human_bytes(done))
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()
        self.shown = True

    def clear(self):
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


class Source:
    """One input: a path or '-' (stdin), read as a stream of decoded blocks."""

    def __init__(self, path):
        self.path = path
        self.name = "(stdin)" if path == "-" else path
        self.raw_read = 0
        self.total = None
        self.compressed = False
        self.warnings = []
        self.failed = False

    def _raw_blocks(self, stream):
        while True:
            block = stream.read(READ_SIZE)
            if not block:
                return
            self.raw_read += len(block)
            yield block

    def blocks(self):
        if self.path == "-":
            stream = sys.stdin.buffer
        else:
            stream = open(self.path, "rb")
            try:
                self.total = os.fstat(stream.fileno()).st_size
            except OSError:
                self.total = None
        try:
            raw = self._raw_blocks(stream)
            first = next(raw, b"")
            if first[:2] == b"\x1f\x8b":
                self.compressed = True
                yield from self._gunzip(first, raw)
            else:
                if first:
                    yield first
                yield from raw
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()

    def _gunzip(self, first, raw):
        """Decompresses every gzip member in turn (logrotate and cat make
        multi-member files), in bounded pieces so a bomb cannot eat memory."""
        decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = first
        in_member = True
        while True:
            if not pending:
                pending = next(raw, b"")
                if not pending:
                    break
            if not in_member:
                if not pending.strip(b"\x00"):
                    pending = b""  # zero padding after the last member
                    continue
                decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
                in_member = True
            try:
                out = decomp.decompress(pending, GUNZIP_OUT_MAX)
            except zlib.error as exc:
                self.failed = True
                self.warnings.append("gzip data is corrupt (%s); stopped reading there" % exc)
                return
            pending = decomp.unconsumed_tail
            if out:
                yield out
            if decomp.eof:
                pending = decomp.unused_data + pending
                in_member = False
        if in_member:
            tail = decomp.flush()
            if tail:
                yield tail
            self.failed = True
            self.warnings.append("gzip data ends early (file truncated or still being written);"
                                 " analysed what could be read")


def candidate_lines(source, needle, progress):
    """Yields (offset, line_bytes) for each line holding the needle; offset is
    where the line starts in the (decompressed) stream.

    Blocks are searched in place: only the line that straddles two blocks is
    copied, and newlines are not counted (a full extra pass); line numbers
    are worked out afterwards for the few lines that need one."""
    carry = b""
    base = 0  # stream offset of block[0]
    for block in source.blocks():
        first_nl = block.find(b"\n")
        if first_nl == -1:
            carry += block
            base += len(block)
            continue
        head = carry + block[:first_nl]
        if needle in head:
            yield base - len(carry), head.rstrip(b"\r")
        end = block.rfind(b"\n") + 1
        yield from _lines_with(block, first_nl + 1, end, needle, base)
        carry = block[end:]
        base += len(block)
        progress.update(source.name, source.raw_read, source.total)
    if needle in carry:
        yield base - len(carry), carry.rstrip(b"\r")


def _lines_with(buf, begin, end, needle, base):
    hit = buf.find(needle, begin, end)
    while hit != -1:
        start = buf.rfind(b"\n", begin, hit) + 1 or begin
        stop = buf.find(b"\n", hit, end)
        if stop == -1:
            stop = end
        yield base + start, buf[start:stop].rstrip(b"\r")
        hit = buf.find(needle, stop + 1, end)


def line_numbers(path, offsets):
    """Line numbers (1-based) of the given byte offsets of a plain file,
    counted in one pass that stops at the last offset; None where unknown."""
    wanted = sorted(set(offsets))
    found = {}
    if not wanted:
        return found
    lines = 1
    pos = 0
    i = 0
    with open(path, "rb") as stream:
        while i < len(wanted):
            block = stream.read(READ_SIZE)
            if not block:
                break
            while i < len(wanted) and wanted[i] < pos + len(block):
                found[wanted[i]] = lines + block.count(b"\n", 0, wanted[i] - pos)
                i += 1
            lines += block.count(b"\n")
            pos += len(block)
    return found


# ---------------------------------------------------------------- parsing --

def as_int(value):
    """An integer from a log value; never through a float for integers."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, dict):
        for key in ("$numberLong", "$numberInt"):
            if key in value:
                return int(value[key])
        if "$numberDouble" in value:
            return int(float(value["$numberDouble"]))
    if isinstance(value, str) and re.match(r"^-?\d+$", value):
        return int(value)
    return None


def first_key(doc):
    if isinstance(doc, dict) and doc:
        return next(iter(doc))
    if isinstance(doc, str):
        return doc
    return None


def is_change_stream(command):
    if not isinstance(command, dict):
        return False
    pipeline = command.get("pipeline")
    if isinstance(pipeline, list) and pipeline and isinstance(pipeline[0], dict):
        return "$changeStream" in pipeline[0]
    return False


def time_key(text):
    """Seconds since the epoch for an ISO-8601 log time, None if unknown
    (ctime stamps carry no year, so they keep file order)."""
    if not text:
        return None
    match = ISO_TIME.match(text)
    if not match:
        return None
    year, month, day, hour, minute, sec = (int(x) for x in match.group(1, 2, 3, 4, 5, 6))
    frac = match.group(7) or "0"
    days = _days_from_civil(year, month, day)
    value = ((days * 24 + hour) * 60 + minute) * 60 + sec + float("0." + frac)
    if match.group(9):
        offset = int(match.group(10)) * 3600 + int(match.group(11)) * 60
        value -= offset if match.group(9) == "+" else -offset
    return value


def _days_from_civil(year, month, day):
    # Howard Hinnant's days_from_civil: no datetime, no time zone database.
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_json(line):
    try:
        doc = json.loads(line)
    except ValueError as exc:
        raise Unparsable("not valid JSON (%s)" % exc)
    if not isinstance(doc, dict):
        raise Unparsable("JSON line is not an object")
    return doc


def json_time(doc):
    stamp = doc.get("t")
    if isinstance(stamp, dict):
        stamp = stamp.get("$date")
    if isinstance(stamp, dict):
        stamp = stamp.get("$numberLong")
    return stamp if isinstance(stamp, str) else None


def parse_text(line):
    match = TEXT_LINE.match(line)
    if not match:
        raise Unparsable("neither a JSON log line nor a legacy text log line")
    return match


def _last_number(body, key):
    # OpDebug writes " key:N" with no space after the colon; BSON text inside
    # the command writes "key: N", so a filter on a field named like a
    # metric never matches. The metrics come last: take the last match.
    found = None
    for found in re.finditer(r" %s:(-?\d+)" % key, body):
        pass
    return int(found.group(1)) if found else None


def cursor_event_from_json(doc):
    if doc.get("id") != SLOW_QUERY_ID:
        return None
    attr = doc.get("attr")
    if not isinstance(attr, dict) or "cursorid" not in attr:
        return None
    cursor_id = as_int(attr.get("cursorid"))
    if cursor_id is None:
        raise Unparsable("cursorid is not an integer")
    if cursor_id == 0:
        return None  # no open cursor: nothing to follow
    if "durationMillis" not in attr:
        raise Unparsable("slow query line without durationMillis")
    command = attr.get("command")
    name = first_key(command)
    origin_doc = attr.get("originatingCommand") if name == "getMore" else command
    storage = attr.get("storage")
    data = storage.get("data") if isinstance(storage, dict) else None
    return {
        "cursorId": cursor_id,
        "ns": attr.get("ns"),
        "command": name,
        "origin": first_key(origin_doc) if origin_doc is not None else None,
        "changeStream": is_change_stream(origin_doc),
        "nreturned": as_int(attr.get("nreturned")) or 0,
        "docsExamined": as_int(attr.get("docsExamined")) or 0,
        "keysExamined": as_int(attr.get("keysExamined")) or 0,
        "bytesRead": (as_int(data.get("bytesRead")) or 0) if isinstance(data, dict) else 0,
        "durationMillis": as_int(attr.get("durationMillis")) or 0,
        "time": json_time(doc),
        "format": "json",
    }


def cursor_event_from_text(match):
    op = TEXT_SLOW_OP.match(match.group("msg"))
    if not op:
        return None
    body = " " + op.group("body")
    cursor_id = _last_number(body, "cursorid")
    if not cursor_id:
        return None
    name_match = TEXT_COMMAND_NAME.search(body)
    name = name_match.group("name") if name_match else op.group("op")
    if op.group("op") == "getmore":
        name = "getMore"
    origin_at = body.find(" originatingCommand: {")
    if name == "getMore":
        origin_match = TEXT_ORIGIN_NAME.search(body)
        origin = origin_match.group("name") if origin_match else None
        origin_text = body[origin_at:] if origin_at != -1 else ""
    else:
        origin = name
        origin_text = body
    storage_at = body.rfind(" storage:{")
    bytes_read = 0
    if storage_at != -1:
        found = TEXT_BYTES_READ.search(body, storage_at)
        bytes_read = int(found.group(1)) if found else 0
    return {
        "cursorId": cursor_id,
        "ns": op.group("ns"),
        "command": name,
        "origin": origin,
        "changeStream": origin == "aggregate" and "pipeline: [ { $changeStream:" in origin_text,
        "nreturned": _last_number(body, "nreturned") or 0,
        "docsExamined": _last_number(body, "docsExamined") or 0,
        "keysExamined": _last_number(body, "keysExamined") or 0,
        "bytesRead": bytes_read,
        "durationMillis": int(op.group("ms")),
        "time": match.group("ts"),
        "format": "text",
    }


def format_version(value):
    """A chunk version as the server prints it: major|minor||epoch[||Timestamp(t, i)].

    JSON logs carry ChunkVersion::toBSON(), an array [Timestamp(major, minor),
    epoch(, timestamp)] written as {"0":..,"1":..,"2":..}; newVersion wraps it
    in a ComparableChunkVersion {chunkVersion: .., ...}. Newer servers may log
    the string form or {e, t, v}; anything else is kept as compact JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("from version "):
            text = text[len("from version "):]
        return text or None
    if isinstance(value, dict) and "chunkVersion" in value:
        return format_version(value["chunkVersion"])
    parts = None
    if isinstance(value, list):
        parts = list(value) + [None] * 3
    elif isinstance(value, dict):
        if "0" in value and "1" in value:
            parts = [value.get("0"), value.get("1"), value.get("2")]
        elif "v" in value and "e" in value:
            parts = [value.get("v"), value.get("e"), value.get("t")]
    if parts:
        placement, epoch, stamp = parts[0], parts[1], parts[2]
        ts = placement.get("$timestamp") if isinstance(placement, dict) else None
        oid = epoch.get("$oid") if isinstance(epoch, dict) else epoch
        if isinstance(ts, dict) and isinstance(oid, str):
            text = "%s|%s||%s" % (ts.get("t"), ts.get("i"), oid)
            extra = stamp.get("$timestamp") if isinstance(stamp, dict) else None
            if isinstance(extra, dict):
                text += "||Timestamp(%s, %s)" % (extra.get("t"), extra.get("i"))
            return text
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def is_unsharded_version(text):
    # ChunkVersion::UNSHARDED(): 0|0 with a zero epoch: a full refresh.
    return bool(text) and re.match(r"^0\|0\|\|0{24}(\|\||$)", text) is not None


def refresh_event_from_json(doc):
    log_id = doc.get("id")
    if log_id not in REFRESH_IDS:
        return None
    attr = doc.get("attr")
    if not isinstance(attr, dict):
        raise Unparsable("refresh line without attr")
    namespace = attr.get("namespace")
    duration = as_int(attr.get("durationMillis"))
    if not isinstance(namespace, str) or duration is None:
        raise Unparsable("refresh line without namespace or durationMillis")
    if log_id == 24104:
        from_version = format_version(attr.get("oldVersion"))
    else:
        from_version = format_version(attr.get("lookupSinceVersion"))
    kind = None
    if REFRESH_IDS[log_id] == "ok":
        kind = "full" if not from_version or is_unsharded_version(from_version) else "incremental"
    return {
        "time": json_time(doc),
        "namespace": namespace,
        "fromVersion": from_version,
        "toVersion": format_version(attr.get("newVersion")),
        "kind": kind,
        "durationMillis": duration,
        "status": REFRESH_IDS[log_id],
        "logId": log_id,
        "format": "json",
    }


def refresh_event_from_text(match):
    msg = match.group("msg")
    if not msg.startswith("Refresh for collection "):
        return None
    for pattern, status in TEXT_REFRESH:
        found = pattern.match(msg)
        if found:
            fields = found.groupdict()
            from_version = fields.get("from")
            kind = None
            if status == "ok":
                kind = "full" if not from_version or is_unsharded_version(from_version) else "incremental"
            return {
                "time": match.group("ts"),
                "namespace": fields["ns"],
                "fromVersion": from_version,
                "toVersion": fields.get("to"),
                "kind": kind,
                "durationMillis": int(fields["ms"]),
                "status": status,
                "logId": None,
                "format": "text",
            }
    if not re.search(r" took \d+ ms", msg):
        raise Unparsable("routing refresh line without 'took N ms' (cut or re-wrapped?)")
    raise Unparsable("routing refresh message in an unknown shape")


# ---------------------------------------------------------------- reports --

class Scan:
    """Counts what the pre-filter found and what could not be parsed."""

    def __init__(self):
        self.matched = 0
        self.unparsable = 0
        self.examples = []

    def skip(self, source, offset, reason):
        self.unparsable += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append((source, offset, reason))

    def describe_examples(self):
        """'file:line: reason' where the line number can be had cheaply (a
        plain file read again up to the last example), else the byte offset."""
        by_path = {}
        for source, offset, _ in self.examples:
            if source.path != "-" and not source.compressed:
                by_path.setdefault(source.path, []).append(offset)
        numbers = {}
        for path, offsets in by_path.items():
            try:
                numbers[path] = line_numbers(path, offsets)
            except OSError:
                numbers[path] = {}
        out = []
        for source, offset, reason in self.examples:
            line = numbers.get(source.path, {}).get(offset)
            if line is not None:
                out.append("%s:%d: %s" % (source.name, line, reason))
            else:
                out.append("%s (byte %d%s): %s" % (
                    source.name, offset, " after decompression" if source.compressed else "", reason))
        return out


def events(report, sources, scan, progress):
    from_json = cursor_event_from_json if report == "cursors" else refresh_event_from_json
    from_text = cursor_event_from_text if report == "cursors" else refresh_event_from_text
    needle, line_filters = NEEDLES[report]
    seq = 0
    for source in sources:
        for offset, raw in candidate_lines(source, needle, progress):
            if not any(f in raw for f in line_filters):
                continue
            scan.matched += 1
            line = raw.decode("utf-8", "replace")
            try:
                stripped = line.lstrip()
                if stripped.startswith("{"):
                    event = from_json(parse_json(stripped))
                else:
                    event = from_text(parse_text(line))
            except Unparsable as exc:
                scan.skip(source, offset, str(exc))
                continue
            if event is None:
                continue
            seq += 1
            event["seq"] = seq
            event["file"] = source.name
            event["offset"] = offset
            yield event


def _earlier(a_time, a_seq, b_time, b_seq):
    ka, kb = time_key(a_time), time_key(b_time)
    if ka is not None and kb is not None and ka != kb:
        return ka < kb
    return a_seq < b_seq


def cursor_rows(stream):
    cursors = {}
    for ev in stream:
        row = cursors.get(ev["cursorId"])
        if row is None:
            row = cursors[ev["cursorId"]] = {
                "cursorId": ev["cursorId"], "ns": ev["ns"], "originatingCommand": None,
                "changeStream": False, "commands": 0, "getMores": 0, "nreturned": 0,
                "docsExamined": 0, "keysExamined": 0, "bytesRead": 0, "durationMillis": 0,
                "firstTime": ev["time"], "lastTime": ev["time"], "formats": set(),
                "_first": ev["seq"], "_last": ev["seq"],
            }
        row["commands"] += 1
        if ev["command"] == "getMore":
            row["getMores"] += 1
        for key in ("nreturned", "docsExamined", "keysExamined", "bytesRead", "durationMillis"):
            row[key] += ev[key]
        if ev["origin"] and (row["originatingCommand"] is None or ev["command"] != "getMore"):
            row["originatingCommand"] = ev["origin"]
        row["changeStream"] = row["changeStream"] or ev["changeStream"]
        row["ns"] = row["ns"] or ev["ns"]
        row["formats"].add(ev["format"])
        if _earlier(ev["time"], ev["seq"], row["firstTime"], row["_first"]):
            row["firstTime"], row["_first"] = ev["time"], ev["seq"]
        if _earlier(row["lastTime"], row["_last"], ev["time"], ev["seq"]):
            row["lastTime"], row["_last"] = ev["time"], ev["seq"]
    rows = list(cursors.values())
    rows.sort(key=lambda r: (-r["durationMillis"], r["cursorId"]))
    for row in rows:
        row["format"] = "+".join(sorted(row.pop("formats")))
        row.pop("_first")
        row.pop("_last")
    return rows


def refresh_rows(stream):
    evs = list(stream)
    by_ns = {}
    for ev in evs:
        by_ns.setdefault(ev["namespace"], []).append(ev)
    summaries = []
    for namespace, group in by_ns.items():
        ordered = sorted(group, key=lambda e: (_order_key(e), e["seq"]))
        durations = [e["durationMillis"] for e in group]
        median = statistics.median(durations)
        summaries.append({
            "namespace": namespace,
            "refreshes": len(group),
            "failed": sum(1 for e in group if e["status"] == "failed"),
            "minMillis": min(durations),
            "medianMillis": int(median) if median == int(median) else median,
            "maxMillis": max(durations),
            "firstVersion": ordered[0]["fromVersion"] or ordered[0]["toVersion"],
            "lastVersion": ordered[-1]["toVersion"],
            "firstTime": ordered[0]["time"],
            "lastTime": ordered[-1]["time"],
            "format": "+".join(sorted({e["format"] for e in group})),
        })
    evs.sort(key=lambda e: (-e["durationMillis"], e["seq"]))
    summaries.sort(key=lambda s: (-s["maxMillis"], s["namespace"]))
    return evs, summaries


def _order_key(ev):
    key = time_key(ev["time"])
    return (0, key) if key is not None else (1, 0)


# ---------------------------------------------------------------- output --

def human_bytes(n):
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return ("%d %s" % (value, unit)) if unit == "B" else ("%.1f %s" % (value, unit))
        value /= 1024
    return str(n)


def table(headers, rows, numeric):
    cells = [[("-" if v is None else str(v)) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def fmt(row):
        out = []
        for i, cell in enumerate(row):
            out.append(cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(headers)]
    lines.extend(fmt(row) for row in cells)
    return "\n".join(lines)


def print_cursors(rows, as_json, out):
    if as_json:
        for row in rows:
            record = {"record": "cursor", "cursorId": str(row["cursorId"])}
            record.update((k, v) for k, v in row.items() if k != "cursorId")
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        return
    headers = ["CURSOR ID", "NS", "OPENED BY", "CMDS", "GETMORES", "NRETURNED", "DOCS EXAMINED",
               "KEYS EXAMINED", "BYTES READ", "MILLIS", "FIRST", "LAST", "FORMAT"]
    body = []
    for r in rows:
        opened = r["originatingCommand"]
        if r["changeStream"]:
            opened = "%s/$changeStream" % (opened or "aggregate")
        body.append([r["cursorId"], r["ns"], opened, r["commands"], r["getMores"], r["nreturned"],
                     r["docsExamined"], r["keysExamined"], human_bytes(r["bytesRead"]),
                     r["durationMillis"], r["firstTime"], r["lastTime"], r["format"]])
    out.write(table(headers, body, {0, 3, 4, 5, 6, 7, 8, 9}) + "\n")


def print_refresh(evs, summaries, as_json, out):
    if as_json:
        for ev in evs:
            record = {"record": "refresh"}
            record.update((k, v) for k, v in ev.items() if k != "seq")
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        for summary in summaries:
            record = {"record": "namespace"}
            record.update(summary)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        return
    headers = ["TIME", "NAMESPACE", "FROM VERSION", "TO VERSION", "KIND", "MILLIS", "STATUS",
               "FORMAT"]
    body = [[e["time"], e["namespace"], e["fromVersion"], e["toVersion"], e["kind"],
             e["durationMillis"], e["status"], e["format"]] for e in evs]
    out.write("Routing table refreshes (%d)\n" % len(evs))
    out.write(table(headers, body, {5}) + "\n\n")
    headers = ["NAMESPACE", "REFRESHES", "FAILED", "MIN MS", "MEDIAN MS", "MAX MS",
               "FIRST VERSION", "LAST VERSION", "FORMAT"]
    body = [[s["namespace"], s["refreshes"], s["failed"], s["minMillis"], s["medianMillis"],
             s["maxMillis"], s["firstVersion"], s["lastVersion"], s["format"]] for s in summaries]
    out.write("Per namespace (%d)\n" % len(summaries))
    out.write(table(headers, body, {1, 2, 3, 4, 5}) + "\n")


# ---------------------------------------------------------------- command --

def parse_args(argv):
    report = None
    as_json = False
    files = []
    only_files = False
    for arg in argv:
        if only_files:
            files.append(arg)
        elif arg in ("-h", "--help"):
            return None
        elif arg == "--json":
            as_json = True
        elif arg == "--":
            only_files = True
        elif arg.startswith("-") and arg != "-":
            raise UsageError("unknown option %s" % arg)
        elif report is None:
            if arg not in REPORTS:
                raise UsageError("unknown report '%s' (expected: %s)" % (arg, " or ".join(REPORTS)))
            report = arg
        else:
            files.append(arg)
    if report is None:
        raise UsageError("no report given (expected: %s)" % " or ".join(REPORTS))
    if not files:
        raise UsageError("no LOGFILE given (use - to read stdin)")
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
    return report, as_json, files


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
    report, as_json, paths = parsed
    sources = [Source(p) for p in paths]
    scan = Scan()
    progress = Progress()
    status = 0
    try:
        stream = events(report, sources, scan, progress)
        if report == "cursors":
            rows = cursor_rows(stream)
            progress.clear()
            if rows or as_json:
                print_cursors(rows, as_json, out)
            found = len(rows)
            what = "cursor"
        else:
            evs, summaries = refresh_rows(stream)
            progress.clear()
            if evs or as_json:
                print_refresh(evs, summaries, as_json, out)
            found = len(evs)
            what = "routing refresh"
    except BrokenPipeError:
        raise
    except OSError as exc:
        progress.clear()
        err.write("analyze: %s: %s\n" % (getattr(exc, "filename", None) or "read error",
                                          exc.strerror or exc))
        return 1
    for source in sources:
        for warning in source.warnings:
            err.write("analyze: %s: %s\n" % (source.name, warning))
        if source.failed:
            status = 1
    if not found:
        err.write("analyze: no %s lines found in %d file(s)\n" % (what, len(sources)))
    if scan.unparsable:
        err.write("analyze: skipped %d unparsable line(s) out of %d that matched the %s filter\n"
                  % (scan.unparsable, scan.matched, report))
        for example in scan.describe_examples():
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
