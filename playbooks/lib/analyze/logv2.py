"""Reader of JSON logs (logv2, MongoDB 4.4+).

Slow query (src/mongo/db/curop.cpp, CurOp::completeAndLogOperation: id
51803 "Slow query" with the attributes of OpDebug::report, in this order:
type, ns, appName, command, originatingCommand (getMore), planSummary, ...,
cursorid, keysExamined, docsExamined, ..., nreturned, ..., storage, remote,
protocol, durationMillis; durationMillis is always last).

Everything after "cursorid" is written by the server, never user data, and
a JSON string cannot hold an unescaped quote: so the last `"cursorid":` of a
line is the metric, and the metrics can be read with bytes.find from there
without parsing the command. That is the fast path. It is taken only when the
line ends exactly with `"durationMillis":N}}`, i.e. the line is whole; any
other line is parsed in full with orjson, and a line orjson refuses (cut,
re-wrapped, typographic quotes) is unparsable, never dropped in silence.

Routing refresh (src/mongo/s/catalog_cache.cpp): id 4619901 "Refreshed
cached collection" (namespace, lookupSinceVersion, newVersion, timeInStore,
durationMillis), 4619902 (unsharded), 4619903 (error); the first 4.4
releases: 24104 (namespace, newVersion, oldVersion " from version X" or "",
durationMillis), 24103 (error), 24105 (unsharded).
"""

import re
import sys

import orjson

from .common import Unparsable, as_int, first_key

SLOW_QUERY_ID = 51803
REFRESH_IDS = {4619901: "ok", 4619902: "unsharded", 4619903: "failed",
               24104: "ok", 24103: "failed", 24105: "unsharded"}

_DATE = b'{"t":{"$date":"'

# The block fast path of `cursors`: one regex over a whole block finds the
# whole slow query lines of the usual layout and captures what the report
# needs, with no per-line JSON parse. Groups: minute ("2024-05-01T10:07"),
# seconds and milliseconds, zone, ns, command name, cursorid, keysExamined,
# docsExamined, nreturned (these four None on a line without a cursor),
# bytesRead (None without storage data), durationMillis. It is written for
# speed with Python's re: no `^` (the
# caller checks that a match starts a line; a leading literal lets re skip
# ahead fast), and no group or lazy repeat around the long `.*` (either makes
# re test every character). `.*"cursorid":` takes the last one of the line,
# the server's (everything after it is written by the server), and is atomic
# where re supports it (3.11+) so that a line whose tail is laid out
# otherwise fails instead of matching a "cursorid" of the user's command;
# before 3.11 the caller checks that no "cursorid" follows. A line matched
# without a cursorid is one only if it has no "cursorid" at all (else its
# tail has another layout: the caller leaves it to the full parse). A line
# that does not match (another layout, escapes, a cut line, reordered
# attributes) is read by cursor_fast/cursor_slow: the regex only decides how
# fast a line is read, never whether it is.
ATOMIC = sys.version_info >= (3, 11)
_HEAD = (
    rb'\{"t":\{"\$date":"(\d{4}-\d\d-\d\dT\d\d:\d\d):(\d\d)\.(\d{3})(Z|[+-]\d\d:?\d\d)"\},'
    rb'"s":"[A-Z0-9]+", *"c":"[A-Z_]+", *"id":51803, *"ctx":"[^"\\\n]*","msg":"Slow query",'
    rb'"attr":\{"type":"([a-z]+)","ns":"([^"\\\n]*)",(?:"appName":"(?:[^"\\\n]|\\.)*",)?'
    rb'"command":\{"(\w+)":')
# The block fast path of `queries`: a whole slow query line of the usual
# layout, for its type, ns and command name (groups 5, 6, 7), so that the
# lines the report does not count (getMore and other commands: half of a
# log at slowms 0) are passed over without a parse.
SLOW_QUERY_LINE = re.compile(_HEAD + rb'.*"durationMillis":\d+\}\}\r?$', re.M)
def cursor_line(atomic):
    """CURSOR_LINE, with or without the atomic group (for tests of both)."""
    return re.compile(
        _HEAD.replace(b'"type":"([a-z]+)"', b'"type":"[a-z]+"')
        + (rb'(?:(?>.*"cursorid":)' if atomic else rb'(?:.*"cursorid":')
        + rb'(\d+),"keysExamined":(\d+),"docsExamined":(\d+),[^{}\n]*"nreturned":(\d+),)?'
        rb'(?:.*"storage":\{"data":\{"bytesRead":(\d+))?.*"durationMillis":(\d+)\}\}\r?$', re.M)


CURSOR_LINE = cursor_line(ATOMIC)


def parse(line):
    try:
        doc = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise Unparsable("not valid JSON (%s)" % str(exc).split(":", 1)[0])
    if not isinstance(doc, dict):
        raise Unparsable("JSON line is not an object")
    return doc


def doc_time(doc):
    stamp = doc.get("t")
    if isinstance(stamp, dict):
        stamp = stamp.get("$date")
    if isinstance(stamp, dict):
        stamp = stamp.get("$numberLong")
    return stamp if isinstance(stamp, str) else None


def is_change_stream(command):
    if not isinstance(command, dict):
        return False
    pipeline = command.get("pipeline")
    if isinstance(pipeline, list) and pipeline and isinstance(pipeline[0], dict):
        return "$changeStream" in pipeline[0]
    return False


def cursor_fast(line):
    """The cursor event of a whole slow query line, reading the command by
    position and parsing only the server-written tail (from "cursorid" to
    the end of attr); None when the line is not that simple (then ask
    cursor_slow), False when it is whole and not a cursor line."""
    try:
        return _cursor_by_position(line)
    except UnicodeDecodeError:
        # Bytes read by position are not checked by orjson: the full parse
        # names the fault (a line with invalid UTF-8 is not valid JSON).
        return None


def _cursor_by_position(line):
    if line[-2:] != b"}}" or not line.startswith(_DATE):
        return None
    te = line.find(b'"', 15)
    at = line.find(b'"id":', te, te + 64)
    if at == -1:
        return None
    if not line.startswith(b"51803,", at + 5):
        return False  # a whole other kind of line: not a slow query
    p = line.rfind(b'"cursorid":')
    if p == -1:
        # Whole (it ends with the last attribute, durationMillis) and
        # without a cursor; anything else goes to the full parse.
        d = line.rfind(b'"durationMillis":')
        return False if d != -1 and line[d + 17:-2].isdigit() else None
    try:
        tail = orjson.loads(b"{" + line[p:-1])
    except orjson.JSONDecodeError:
        return None
    attr = line.find(b'"attr":{', at)
    n = line.find(b'"ns":"', attr, p)
    c = line.find(b'"command":{"', attr, p)
    if n == -1 or c == -1 or attr == -1:
        return None
    ns = line[n + 6:line.find(b'"', n + 6)]
    name = line[c + 12:line.find(b'"', c + 12)]
    if b"\\" in ns or b"\\" in name:
        return None
    if name == b"getMore":
        o = line.find(b'"originatingCommand":{"', c, p)
        if o == -1:
            origin, region = None, b""
        else:
            origin = line[o + 23:line.find(b'"', o + 23)].decode()
            region = line[o:p]
    else:
        origin, region = name.decode(), line[c:p]
    change_stream = False
    if b'"$changeStream"' in region:
        if b'"pipeline":[{"$changeStream":' not in region:
            return None  # ask the full parse where the stage is
        change_stream = origin == "aggregate"
    get = tail.get
    storage = get("storage")
    data = storage.get("data") if storage.__class__ is dict else None
    cursor_id = get("cursorid")
    if cursor_id.__class__ is not int:
        return None
    try:
        return (cursor_id, ns.decode(), name.decode(), origin, change_stream,
                get("nreturned", 0), get("docsExamined", 0), get("keysExamined", 0),
                data.get("bytesRead", 0) if data.__class__ is dict else 0,
                tail["durationMillis"], line[15:te].decode())
    except KeyError:
        return None


def slow_query_attr(doc):
    """The attr of a parsed slow query line (None for another line); a slow
    query line without attr or durationMillis (cut) is Unparsable."""
    if doc.get("id") != SLOW_QUERY_ID:
        return None
    attr = doc.get("attr")
    if not isinstance(attr, dict):
        raise Unparsable("slow query line without attr")
    if "durationMillis" not in attr:
        raise Unparsable("slow query line without durationMillis (cut?)")
    return attr


def cursor_slow(doc):
    """The cursor event of a parsed slow query line, None if it has none."""
    attr = slow_query_attr(doc)
    if attr is None or "cursorid" not in attr:
        return None
    cursor_id = as_int(attr.get("cursorid"))
    if cursor_id is None:
        raise Unparsable("cursorid is not an integer")
    command = attr.get("command")
    name = first_key(command)
    origin_doc = attr.get("originatingCommand") if name == "getMore" else command
    storage = attr.get("storage")
    data = storage.get("data") if isinstance(storage, dict) else None
    return (cursor_id, attr.get("ns"), name,
            first_key(origin_doc) if origin_doc is not None else None,
            is_change_stream(origin_doc),
            as_int(attr.get("nreturned")) or 0, as_int(attr.get("docsExamined")) or 0,
            as_int(attr.get("keysExamined")) or 0,
            (as_int(data.get("bytesRead")) or 0) if isinstance(data, dict) else 0,
            as_int(attr.get("durationMillis")) or 0, doc_time(doc))


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
        # ComparableChunkVersion::toBSONForLogging: "None" when it holds no version.
        inner = value["chunkVersion"]
        return None if inner == "None" else format_version(inner)
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
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def refresh_event(doc):
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
    # 4.4's id 24104 and a 5.0-era id 4619901 log oldVersion; later ones
    # lookupSinceVersion. The 5.0-era oldVersion is the cache's time in store
    # (a ComparableChunkVersion): a version there means the refresh started
    # from a cached table; "None" does not tell (first load, or a forced
    # refresh of a cached table), so that refresh's kind stays unknown.
    in_store = log_id != 24104 and "lookupSinceVersion" not in attr and "oldVersion" in attr
    old = attr.get("oldVersion") if log_id == 24104 or in_store else attr.get("lookupSinceVersion")
    event = {
        "time": doc_time(doc),
        "namespace": namespace,
        "fromVersion": format_version(old),
        "toVersion": format_version(attr.get("newVersion")),
        "durationMillis": duration,
        "status": REFRESH_IDS[log_id],
        "logId": log_id,
        "format": "json",
    }
    if in_store and event["fromVersion"] is None and event["status"] == "ok":
        event["kind"] = None
    return event
