"""Reader of legacy text logs, every layout from 2.2 to 4.2.

Line layouts (mongodb/mongo history, src/mongo/util/log.cpp and
src/mongo/logger/message_event_utf8_encoder.cpp):
  2.2   "Mon Aug  5 20:21:16 [conn1] msg"            ctime, no milliseconds
  2.4   "Mon Aug  5 20:21:16.123 [conn1] msg"        ctime with milliseconds
  2.6   "2014-03-05T14:24:06.123+0100 [conn1] msg"   ISO-8601, no severity/component
  3.0+  "2015-06-01T10:00:00.123+0000 I COMMAND  [conn1] msg"
(ctime stamps stay available through --timeStampFormat ctime up to 4.2.)

Slow operations (src/mongo/db/curop.cpp, OpDebug::report, string form):
  2.x  "query test.foo query: { a: 1 } ... cursorid:N ... nreturned:N ... 12ms"
       "getmore test.foo cursorid:N ... nreturned:N ... 0ms"
  3.2+ "command test.foo [appName: "..."] command: find { find: "foo", filter: {...} }
       planSummary: ... cursorid:N keysExamined:N docsExamined:N ... nreturned:N
       ... protocol:op_msg Nms"
  2.2/2.4 wrote "nscanned:N" and 2.6-3.0 "nscanned:N nscannedObjects:N" where later
  versions write keysExamined/docsExamined.

Routing refreshes (text, mongos and shards):
  2.2-3.4 "ChunkManager: time to load chunks for NS: Nms sequenceNumber: N
          version: V based on: V" (src/mongo/s/chunk_manager.cpp, chunk.cpp)
  3.6     "Refresh for collection NS took N ms and found version V",
          "... took N ms and didn't find any metadata changes",
          "... took N ms and failed ..." (src/mongo/s/catalog_cache.cpp)
  4.0/4.2 "Refresh for collection NS[ from version A] to version B took N ms",
          "... took N ms and found the collection is not sharded"
"""

import re

from .common import Unparsable

# A line's time: ISO-8601 (2.6 to 4.2) or ctime (2.2, 2.4; later releases with
# --timeStampFormat ctime). TEXT_HEAD: the time, [severity component] and
# [context] that start every line; source.py tells a log by them.
TIME = (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"
        r"|[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?")
TEXT_HEAD = r"(?P<ts>%s)(?: +(?P<sev>[FEWID]\d?) +(?P<comp>[A-Z_]+|-))? +\[(?P<ctx>[^\]]*)\] " % TIME
TEXT_LINE = re.compile(r"^%s(?P<msg>.*)$" % TEXT_HEAD)
SLOW_OP = re.compile(
    r"^(?P<op>command|query|getmore|update|remove|insert) (?P<ns>\S+) (?P<body>.*) (?P<ms>\d+)ms$"
)
COMMAND_NAME = re.compile(r" command: (?P<name>[\w$]+) \{")
COMMAND_22 = re.compile(r" command: \{ (?P<name>[\w$]+):")
ORIGIN_NAME = re.compile(r" originatingCommand: \{ (?P<name>[\w$]+):")
BYTES_READ = re.compile(r"bytesRead: (\d+)")
PLAN_SUMMARY = re.compile(r" planSummary: (.*?)(?= \w+:\S| \w+:\{|$)")

VERSION = r"(?P<%s>\d+\|\d+\|\|\w+(?:\|\|Timestamp\(\d+, \d+\))?)"
# "took N ms" in every release we have read; a duration with no unit after
# it is read as milliseconds too (Timer::millis() is what every one logs).
TOOK = r" took (?P<ms>\d+)(?: ?ms)?"
REFRESH = (
    (re.compile(r"^Refresh for collection (?P<ns>\S+)(?: from version %s)? to version %s%s$"
                % (VERSION % "from", VERSION % "to", TOOK)), "ok"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+)%s and found version %s$" % (TOOK, VERSION % "to")),
     "ok"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+)%s and didn't find any metadata changes$" % TOOK),
     "unchanged"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+)%s and found the collection is not sharded$" % TOOK),
     "unsharded"),
    (re.compile(r"^Refresh for collection (?P<ns>\S+)%s and failed" % TOOK), "failed"),
    (re.compile(r"^ChunkManager: time to load chunks for (?P<ns>\S+): (?P<ms>\d+) ?(?:ms)?"
                r" sequenceNumber: \d+ version: (?P<to>\S+)(?: based on: (?P<from>\S+))?"), "ok"),
)
REFRESH_MARKERS = ("Refresh for collection ", "ChunkManager: time to load chunks for ")


def number(text):
    """int(text) for a number a server writes: 64 bits, as every counter and
    id OpDebug logs (a longer run of digits is a damaged line, not a value
    to keep, and the report's arrays hold 64 bits)."""
    value = int(text)
    if not -(1 << 63) <= value < 1 << 63:
        raise Unparsable("a number beyond 64 bits, which no server writes")
    return value


def parse_line(line):
    """The regex match of a text log line (groups ts, sev, comp, ctx, msg)."""
    match = TEXT_LINE.match(line)
    if not match:
        raise Unparsable("neither a JSON log line nor a legacy text log line")
    return match


def last_number(body, key):
    # OpDebug writes " key:N" with no space after the colon; BSON text inside
    # the command writes "key: N", so a filter on a field named like a
    # metric never matches. The metrics come last: take the last match.
    at = body.rfind(" %s:" % key)
    while at != -1:
        found = re.match(r"-?\d+", body[at + len(key) + 2:])
        if found:
            return number(found.group())
        at = body.rfind(" %s:" % key, 0, at)
    return None


def slow_op(match):
    """(op, ns, body, ms) of a slow operation line, or None."""
    found = SLOW_OP.match(match.group("msg"))
    if not found:
        return None
    return found.group("op"), found.group("ns"), " " + found.group("body"), number(found.group("ms"))


def command_name(op, body):
    if op != "command":
        return "getMore" if op == "getmore" else op
    found = COMMAND_NAME.search(body) or COMMAND_22.search(body)
    return found.group("name") if found else None


def cursor_event(match):
    """A cursor event from a text line, None if the line carries no cursor."""
    parsed = slow_op(match)
    if parsed is None:
        return None
    op, ns, body, ms = parsed
    cursor_id = last_number(body, "cursorid")
    if not cursor_id:
        return None
    name = command_name(op, body) or op
    if name == "getMore":
        origin_match = ORIGIN_NAME.search(body)
        origin = origin_match.group("name") if origin_match else None
        origin_at = body.find(" originatingCommand: {")
        origin_text = body[origin_at:] if origin_at != -1 else ""
    else:
        origin = name
        origin_text = body
    storage_at = body.rfind(" storage:{")
    bytes_read = 0
    if storage_at != -1:
        found = BYTES_READ.search(body, storage_at)
        bytes_read = number(found.group(1)) if found else 0
    keys = last_number(body, "keysExamined")
    if keys is None:
        keys = last_number(body, "nscanned")
    docs = last_number(body, "docsExamined")
    if docs is None:
        docs = last_number(body, "nscannedObjects")
    return (cursor_id, ns, name, origin,
            origin == "aggregate" and "pipeline: [ { $changeStream:" in origin_text,
            last_number(body, "nreturned") or 0, docs or 0, keys or 0, bytes_read, ms,
            match.group("ts"))


def refresh_event(match):
    msg = match.group("msg")
    if not msg.startswith(REFRESH_MARKERS):
        return None
    for pattern, status in REFRESH:
        found = pattern.match(msg)
        if found:
            fields = found.groupdict()
            event = {
                "time": match.group("ts"),
                "namespace": fields["ns"],
                "fromVersion": fields.get("from"),
                "toVersion": fields.get("to"),
                "durationMillis": number(fields["ms"]),
                "status": "ok" if status == "unchanged" else status,
                "logId": None,
                "format": "text",
            }
            # 3.6's "found version" names only the version found: full or
            # incremental cannot be told; "didn't find any metadata changes"
            # started from a cached table. 2.x-3.4 say "based on: (empty)"
            # for a full load.
            if status == "unchanged":
                event["kind"] = "incremental"
            elif status == "ok" and "from" not in fields:
                event["kind"] = None
            return event
    if not re.search(r" took \d+", msg):
        raise Unparsable("routing refresh line without 'took N ms' (cut or re-wrapped?)")
    raise Unparsable("routing refresh message in an unknown shape")


def plan_summary(body):
    found = PLAN_SUMMARY.search(body)
    return found.group(1) if found else None
