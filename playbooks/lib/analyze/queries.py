"""Report `queries`: slow operations grouped by namespace, operation and
query shape, the grouping of mtools' `mloginfo --queries` (which reads
legacy text logs only): the same operations (query, update and remove ops;
count, findAndModify, geoNear, find and aggregate commands), the same shape
(the filter with every value replaced by 1; $in, $gt, $gte, $lt, $lte and
$exists collapse their whole operand to 1; keys sorted). Its median and
p95 are the nearest-rank ones read from a quantile sketch (quantile.py),
within 1% of the exact values (mloginfo interpolates between the exact
ones, which needs them all kept). For JSON logs it gives what mloginfo
cannot read at all, plus keys and documents examined per returned
document, the plan summary and each group's share of the total time.

Where mloginfo stops, keyhole and Hatchet go on, and so does this report:
an aggregate's shape is its pipeline (the leading $match's filter shape,
then the stage names: `$match {"k": 1} | $group | $sort`; after a leading
$changeStream, the $match that follows is the change stream's filter), and
a getMore (command or legacy op) is charged to the group of the command that
opened its cursor: the originatingCommand the server logs with it (3.4+,
src/mongo/db/curop.cpp, OpDebug::report), else the slow query line that
opened that cursor id earlier in the files (read in the order given), else
a group "(unknown origin)" of its namespace. A group counts its commands and
its getMores apart; its times and figures are those of both.

Memory: per group, what the report prints (sums, counts, min and max, the
plans run) and a quantile sketch (one count per bucket of about 2% of the
durations; the bucket alone while they share one); rows are made one at a
time as they are written. Per cursor left open, its id and the number of
its group (12 bytes in two arrays), made searchable (a dict, about 100
bytes a cursor) only once a getMore comes without originatingCommand,
which 4.4+ JSON and 3.4+ text logs never need."""

import json
from array import array

import orjson

from . import legacy, logv2
from . import quantile
from .common import DEFAULT_TOP, Bad, Unparsable, as_int, first_key, write_ranked, write_table
from .source import feed_matching, sparse

WHAT = "slow query"
OPS = {"query", "update", "remove"}
GETMORE_OPS = {"getmore"}  # the legacy op (OP_GET_MORE); the command is getMore
UNKNOWN_ORIGIN = "(unknown origin)"
FORMATS = {"json": 1, "text": 2}  # a group's formats, as bits
PERCENTILES_NOTE = ("MEDIAN MS and P95 MS: nearest rank, from a sketch within %d%% of the exact values"
                    " (exact below 100 ms)\n" % quantile.ERROR_PERCENT)
COMMAND, GETMORE, GETMORE_TIE = 0, 1, 2  # what an event is: see State.add
COMMANDS = {"count", "findandmodify", "geonear", "find", "aggregate"}
COLLAPSING = {"$in", "$gt", "$gte", "$lt", "$lte", "$exists"}
EXTENDED_JSON = {"$oid", "$date", "$numberLong", "$numberInt", "$numberDouble", "$numberDecimal",
                 "$binary", "$timestamp", "$regularExpression", "$uuid", "$minKey", "$maxKey",
                 "$undefined", "$symbol", "$code", "$dbPointer", "$regex"}


OPS_B = {op.encode() for op in OPS | GETMORE_OPS}
COMMANDS_B = {name.encode() for name in COMMANDS} | {b"getmore"}
SLOW_QUERY_FINDITER = logv2.SLOW_QUERY_LINE.finditer


def needles(source):
    # JSON: the slow query id, loose so that damaged lines are found and
    # counted; text: a slow operation line ends with its duration in ms.
    return (b"51803",) if source.json else (b"ms",)


# ---------------------------------------------------------------- shapes --

def normalize(value):
    """A filter with its values replaced by 1, as mloginfo does."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in COLLAPSING:
                return 1
            if key in EXTENDED_JSON and len(value) <= 2:
                return 1
            if key == "$nin":
                item = 1
            if key in ("query", "$query") and isinstance(item, dict):
                return normalize(item)
            out[key] = normalize(item) if isinstance(item, (dict, list)) else 1
        return out
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return [1]  # mloginfo folds a list of strings into one 1
        items = [normalize(v) for v in value]
        if not any(isinstance(v, dict) for v in items):
            items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return items
    return 1


_SHAPES = {}
SHAPES_KEPT = 1024  # texts cached (4 MiB): a log of a shape per line would fill the cache with each


def shape_text(shape):
    """mloginfo's text of a shape (sorted keys, ", " and ": "); a log has few
    shapes, so each text is made once and found by orjson's compact form.
    The cache starts afresh when full: each of its keys takes the 4 KiB
    orjson gives its output, and a log of distinct shapes made it hold
    every one."""
    if shape is None:
        return None
    key = orjson.dumps(shape, option=orjson.OPT_SORT_KEYS)
    text = _SHAPES.get(key)
    if text is None:
        if len(_SHAPES) >= SHAPES_KEPT:
            _SHAPES.clear()
        text = _SHAPES[key] = json.dumps(shape, sort_keys=True, separators=(", ", ": "), ensure_ascii=False)
    return text


class _ShellDoc:
    """A reader of the mongo shell notation of legacy text logs ({ a: 1,
    b: ObjectId('...'), c: /x/i, d: [ 1, 2 ] }) into Python values: strings
    as text, every other scalar as 1 (the shape needs no more)."""

    def __init__(self, text):
        self.s = text
        self.i = 0

    def ws(self):
        s, i = self.s, self.i
        while i < len(s) and s[i] in " \t":
            i += 1
        self.i = i

    def value(self):
        self.ws()
        s = self.s
        if self.i >= len(s):
            raise Unparsable("query shape cut short")
        ch = s[self.i]
        if ch == "{":
            return self.obj()
        if ch == "[":
            return self.arr()
        if ch == '"':
            return self.string()
        return self.scalar()

    def string(self):
        s, i = self.s, self.i + 1
        while i < len(s) and s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        text = s[self.i + 1:i]
        self.i = i + 1
        return text

    def scalar(self):
        s, i, depth = self.s, self.i, 0
        quote = None
        while i < len(s):
            ch = s[i]
            if quote:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == "/" and i == self.i:
                end = s.find("/", i + 1)
                i = end if end != -1 else len(s)
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth == 0 and ch in ",}]":
                break
            i += 1
        self.i = i
        return 1

    def key(self):
        self.ws()
        s = self.s
        if s[self.i:self.i + 1] == '"':
            name = self.string()
            self.ws()
        else:
            end = s.find(":", self.i)
            if end == -1:
                raise Unparsable("query shape without ':' after a field name")
            name = s[self.i:end].strip()
            self.i = end
        if s[self.i:self.i + 1] != ":":
            raise Unparsable("query shape: ':' expected")
        self.i += 1
        return name

    def obj(self):
        self.i += 1
        out = {}
        self.ws()
        if self.s[self.i:self.i + 1] == "}":
            self.i += 1
            return out
        while True:
            name = self.key()
            out[name] = self.value()
            self.ws()
            ch = self.s[self.i:self.i + 1]
            self.i += 1
            if ch == "}":
                return out
            if ch != ",":
                raise Unparsable("query shape: ',' or '}' expected")

    def arr(self):
        self.i += 1
        out = []
        self.ws()
        if self.s[self.i:self.i + 1] == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.ws()
            ch = self.s[self.i:self.i + 1]
            self.i += 1
            if ch == "]":
                return out
            if ch != ",":
                raise Unparsable("query shape: ',' or ']' expected")


def _braced(text, start):
    """The {...} that starts at text[start] (braces counted as mloginfo does)."""
    depth = 0
    for at in range(start, len(text)):
        ch = text[at]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:at + 1]
    return None


def text_shape(body, trigger):
    at = body.rfind(trigger)
    if at == -1:
        return None
    start = body.find("{", at + len(trigger))
    if start == -1:
        return None
    doc = _braced(body, start)
    if doc is None:
        return None
    # Strings are kept as text by the reader, so that a list of strings
    # folds into one 1 as in mloginfo; normalize turns the rest into 1.
    return normalize(_ShellDoc(doc).value())


def pipeline_shape(pipeline):
    """An aggregate's shape: its stage names joined by " | ", a leading
    $match (or the $match right after a leading $changeStream: the change
    stream's filter) with its filter's shape; None when the pipeline is not
    a list of stages."""
    if not isinstance(pipeline, list) or not pipeline:
        return None
    parts = []
    lead = True
    for stage in pipeline:
        if not isinstance(stage, dict) or not stage:
            return None
        name = next(iter(stage))
        body = stage[name]
        if lead and name == "$match" and isinstance(body, dict):
            parts.append("$match " + shape_text(normalize(body)))
        else:
            parts.append(name)
        lead = len(parts) == 1 and name == "$changeStream"
    return " | ".join(parts)


def command_shape(low, command):
    """The shape of a command (find's filter, an aggregate's pipeline, the
    query, q or filter of the others), None when it has none."""
    if not isinstance(command, dict):
        return None
    if low == "find":
        source = command.get("filter")
    elif low == "aggregate":
        return pipeline_shape(command.get("pipeline"))
    else:
        source = command.get("query", command.get("q", command.get("filter")))
    return shape_text(normalize(source)) if isinstance(source, dict) else None


def text_document(body, at):
    """The shell-notation document that starts at the first '{' from body[at:],
    as Python values (_ShellDoc); None when it is cut short."""
    start = body.find("{", at)
    if start == -1:
        return None
    doc = _braced(body, start)
    return None if doc is None else _ShellDoc(doc).value()


# ---------------------------------------------------------------- events --

def event_from_text(match):
    parsed = legacy.slow_op(match)
    if parsed is None:
        return None
    op, ns, body, ms = parsed
    if op == "command":
        name = legacy.command_name(op, body)
        if name is None:
            return None
        low = name.lower()
        if low == "getmore":
            return getmore_from_text(ns, body, ms)
        if low not in COMMANDS:
            return None
        trigger = "filter: " if low == "find" else ("query: " if low in ("count", "findandmodify") else None)
        shape = None
        if trigger:
            shape = text_shape(body, trigger)
            if shape is None and trigger == "query: ":
                shape = text_shape(body, "q: ")
            shape = shape_text(shape)
        elif low == "aggregate":
            found = legacy.COMMAND_NAME.search(body) or legacy.COMMAND_22.search(body)
            shape = command_shape(low, text_document(body, found.start()))
    elif op in GETMORE_OPS:
        return getmore_from_text(ns, body, ms)
    elif op in OPS:
        name = op
        shape = text_shape(body, "query: ")
        if shape is None:
            shape = text_shape(body, "q: ")
        shape = shape_text(shape)
    else:
        return None
    return (ns, name, shape) + text_metrics(body, ms) + (COMMAND, legacy.last_number(body, "cursorid") or 0)


def text_metrics(body, ms):
    keys = legacy.last_number(body, "keysExamined")
    if keys is None:
        keys = legacy.last_number(body, "nscanned")
    docs = legacy.last_number(body, "docsExamined")
    if docs is None:
        docs = legacy.last_number(body, "nscannedObjects")
    return (ms, keys or 0, docs or 0, legacy.last_number(body, "nreturned") or 0,
            legacy.plan_summary(body), "text")


def getmore_from_text(ns, body, ms):
    """A getMore command (3.2+) or op: charged to its originatingCommand
    (logged from 3.4, SERVER-23260), else tied by its cursorid (what older
    text logs give)."""
    metrics = text_metrics(body, ms)
    at = body.find(" originatingCommand: {")
    origin = text_document(body, at) if at != -1 else None
    if origin is not None:  # else absent (2.x, 3.0) or cut short: tied by cursorid
        name = first_key(origin)
        if not isinstance(name, str) or name.lower() not in COMMANDS:
            return None
        return (ns, name, command_shape(name.lower(), origin)) + metrics + (GETMORE, 0)
    return (ns, None, None) + metrics + (GETMORE_TIE, legacy.last_number(body, "cursorid"))


def event_from_doc(doc):
    attr = logv2.slow_query_attr(doc)
    return None if attr is None else event_from_attr(attr)


def _int(value):
    # Plain integers (what the server writes) without a call each.
    return value if value.__class__ is int else as_int(value) or 0


def _cursor_id(value):
    """A cursor id as the server logs it (an integer), None for anything
    else: the id only ties getMores to their command, it is never shown."""
    if value.__class__ is int:
        return value
    try:
        return as_int(value)
    except (TypeError, ValueError):
        return None


def event_from_attr(attr):
    """(ns, operation, shape, ms, keys, docs, nreturned, plan, format, what,
    cursor) of a slow query line, None for one the report leaves out; what
    and cursor as State.add reads them."""
    kind = attr.get("type")
    command = attr.get("command")
    get = attr.get
    if kind == "command":
        name = first_key(command)
        if not isinstance(name, str):
            return None
        low = name.lower()
        if low == "getmore":
            return getmore_from_attr(attr, command)
        if low not in COMMANDS:
            return None
    elif kind in OPS:
        name = low = kind
    elif kind in GETMORE_OPS:
        return getmore_from_attr(attr, command)
    else:
        return None
    return (get("ns"), name, command_shape(low, command), _int(get("durationMillis")),
            _int(get("keysExamined")), _int(get("docsExamined")), _int(get("nreturned")),
            get("planSummary"), "json", COMMAND, _cursor_id(get("cursorid")))


def getmore_from_attr(attr, command):
    get = attr.get
    origin = get("originatingCommand")
    what, cursor = GETMORE, 0
    if origin is None:
        name = shape = None
        what = GETMORE_TIE
        cursor = _cursor_id(command.get("getMore")) if isinstance(command, dict) else None
        if cursor is None:
            cursor = _cursor_id(get("cursorid"))
    else:
        name = first_key(origin)
        if not isinstance(name, str) or name.lower() not in COMMANDS:
            return None
        shape = command_shape(name.lower(), origin)
    return (get("ns"), name, shape, _int(get("durationMillis")), _int(get("keysExamined")),
            _int(get("docsExamined")), _int(get("nreturned")), get("planSummary"), "json", what, cursor)


# ---------------------------------------------------------------- groups --

class State:
    def __init__(self):
        self.groups = {}
        # The cursors opened, in file order: their ids and the numbers of
        # their groups' keys (keys[n]; numbered in key_numbers). A log of
        # finds that each leave a cursor open has a cursor per line: a dict
        # entry and a key each took about 280 bytes, the arrays take 12.
        self.opened_ids = array("q")
        self.opened_keys = array("i")
        self.keys = []
        self.key_numbers = {}
        self.odd_ids = {}  # cursor id outside 64 bits (not a server's) -> key
        self.searchable = None  # cursor id -> where in opened_*: see opened
        self.pending = {}  # cursor id -> (namespace, group) of getMores not tied yet
        self.bad = Bad()
        # Namespaces and plan summaries, one string each: every line parsed
        # makes its own, which a group of one line would keep.
        self.names = {}

    def feed(self, src, offset, line):
        stripped = line.lstrip()
        is_json = stripped[:1] == b"{"
        if is_json and b'"id":51803' not in stripped and b"Slow query" not in stripped:
            return
        self.bad.matched += 1
        try:
            if is_json:
                ev = event_from_doc(logv2.parse(stripped))
            else:
                text = line.decode("utf-8", "replace")
                match = legacy.TEXT_LINE.match(text)
                if match is None:
                    self.bad.matched -= 1  # "ms" is everywhere: only log lines count
                    return
                ev = event_from_text(match)
                if ev is None:
                    self.bad.matched -= 1
                    return
        except Unparsable as exc:
            self.bad.skip(src, offset, str(exc))
            return
        except RecursionError:
            # The shell-notation reader and the shapes recurse per level of
            # nesting; orjson refuses a JSON line nested as deep itself.
            self.bad.skip(src, offset, "a document nested too deep to read")
            return
        if ev is not None:
            self.add(ev)

    def feed_span(self, src, buf, start, end, base, needles):
        """Every line of buf[start:end] (whole lines; buf starts at stream
        offset base): whole slow query lines of an operation the report does
        not count (logv2.SLOW_QUERY_LINE tells them by type and command name:
        hello, insert, getMore of a listIndexes...) are only checked (orjson,
        no event) and counted as matched; every other line that holds a
        needle goes to feed, found without a per-line search where the regex
        matched it."""
        if sparse(buf, start, end, needles) or sparse(buf, start, end, (b'"command":{"getMore":',)):
            # Few slow queries, or a log of finds without their getMores
            # (at slowms 0, commands the report passes over come with
            # getMores): the regex would cost more than it saves.
            feed_matching(self.feed, src, buf, start, end, base, needles)
            return
        pos = start
        matched = 0
        feed, add = self.feed, self.add
        loads, JSONDecodeError = orjson.loads, orjson.JSONDecodeError
        for m in SLOW_QUERY_FINDITER(buf, start, end):
            at = m.start()
            if at and buf[at - 1] != 10:
                continue  # not a line start: left in the gap for feed
            if at != pos:
                feed_matching(self.feed, src, buf, pos, at, base, needles)
            pos = m.end() + 1
            kind, name = m.group(5, 7)
            line = buf[at:m.end()].rstrip(b"\r")
            if not ((name.lower() in COMMANDS_B) if kind == b"command" else (kind in OPS_B)):
                # Not counted, but checked as feed checks it: a damaged line
                # is unparsable whether its block is dense or sparse.
                try:
                    loads(line)
                except JSONDecodeError:
                    feed(src, base + at, line)
                    continue
                matched += 1
                continue
            # Counted: parsed here (the regex has checked what feed would);
            # anything unexpected goes to feed, which says why.
            try:
                attr = loads(line).get("attr")
            except (JSONDecodeError, AttributeError):
                attr = None
            if attr.__class__ is not dict or "durationMillis" not in attr:
                feed(src, base + at, line)
                continue
            matched += 1
            ev = event_from_attr(attr)
            if ev is not None:
                add(ev)
        if pos < end:
            feed_matching(self.feed, src, buf, pos, end, base, needles)
        self.bad.matched += matched

    def add(self, ev):
        """Counts an event in its group. A command that opened a cursor
        (cursor: its id) is remembered for the getMores of that cursor that
        come without an originatingCommand (GETMORE_TIE, cursor: the id
        they continue); one whose cursor was not opened earlier in this
        part waits in pending (merge and rows settle it)."""
        ns, name, shape, ms, keys, docs, nreturned, plan, fmt, what, cursor = ev
        names = self.names
        ns = names.setdefault(ns, ns)
        if plan is not None:
            plan = names.setdefault(plan, plan)
        if what == GETMORE_TIE:
            key = self.opened(cursor) if cursor else None
            if key is None:
                if not cursor:
                    key = (ns, "getMore", UNKNOWN_ORIGIN)
                else:
                    waiting = self.pending.get(cursor)
                    if waiting is None:
                        waiting = self.pending[cursor] = (ns, _new_group())
                    _count(waiting[1], ms, keys, docs, nreturned, plan, fmt, True)
                    return
        else:
            key = (ns, name, shape)
            if cursor:
                self.remember(cursor, self.key_number(key))
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = _new_group()
        _count(group, ms, keys, docs, nreturned, plan, fmt, what != COMMAND)

    def merge(self, other):
        """Folds in the state of the part that follows this one: its waiting
        getMores go to the cursors opened before it, here."""
        self.bad.merge(other.bad)
        for key, theirs in other.groups.items():
            _fold(self.groups, key, theirs)
        for cursor, (ns, theirs) in other.pending.items():
            key = self.opened(cursor)
            if key is not None:
                _fold(self.groups, key, theirs)
            elif cursor in self.pending:
                _fold_into(self.pending[cursor][1], theirs)
            else:
                self.pending[cursor] = (ns, theirs)
        numbers = [self.key_number(key) for key in other.keys]
        if self.searchable is None:
            self.opened_ids.extend(other.opened_ids)
            self.opened_keys.extend(numbers[number] for number in other.opened_keys)
        else:
            for cursor, number in zip(other.opened_ids, other.opened_keys):
                self.remember(cursor, numbers[number])
        self.odd_ids.update(other.odd_ids)

    def key_number(self, key):
        number = self.key_numbers.get(key)
        if number is None:
            number = self.key_numbers[key] = len(self.keys)
            self.keys.append(key)
        return number

    def remember(self, cursor, number):
        """A cursor opened by the command of keys[number]; a later opening
        of the same id (reused after its cursor closed) wins."""
        try:
            self.opened_ids.append(cursor)
        except OverflowError:
            self.odd_ids[cursor] = self.keys[number]
            return
        self.opened_keys.append(number)
        if self.searchable is not None:
            self.searchable[cursor] = len(self.opened_ids) - 1

    def opened(self, cursor):
        """The key of the command that opened cursor, None if none did. The
        first call makes the cursors searchable: from then on they cost
        what a dict costs (old text logs, whose getMores need it)."""
        if cursor in self.odd_ids:
            return self.odd_ids[cursor]
        if self.searchable is None:
            self.searchable = {cursor: at for at, cursor in enumerate(self.opened_ids)}
        at = self.searchable.get(cursor)
        return None if at is None else self.keys[self.opened_keys[at]]


# A group: keys, docs, nreturned, total ms, sketch, plan, formats, commands,
# getMores, getMore ms, min ms, max ms, plan count. The sketch is the bucket
# of every duration while they share one (quantile.bucket), then a dict
# bucket -> count; the plan is None, the only plan summary seen (used by
# plan count lines), then a dict plan -> count; formats are FORMATS bits.
(G_KEYS, G_DOCS, G_NRET, G_TOTAL, G_SKETCH, G_PLAN, G_FMT, G_COMMANDS, G_GETMORES, G_GETMORE_MS, G_MIN, G_MAX,
 G_PLAN_N) = range(13)


def _new_group():
    return [0, 0, 0, 0, None, None, 0, 0, 0, 0, None, None, 0]


def _count(group, ms, keys, docs, nreturned, plan, fmt, getmore):
    group[G_KEYS] += keys
    group[G_DOCS] += docs
    group[G_NRET] += nreturned
    group[G_TOTAL] += ms
    k = quantile.bucket(ms)
    sketch = group[G_SKETCH]
    if sketch is None:
        group[G_SKETCH] = k
        group[G_MIN] = group[G_MAX] = ms
    else:
        if sketch.__class__ is dict:
            sketch[k] = sketch.get(k, 0) + 1
        elif sketch != k:
            group[G_SKETCH] = {sketch: group[G_COMMANDS] + group[G_GETMORES], k: 1}
        if ms < group[G_MIN]:
            group[G_MIN] = ms
        elif ms > group[G_MAX]:
            group[G_MAX] = ms
    if plan is not None:
        _count_plan(group, plan, 1)
    group[G_FMT] |= FORMATS[fmt]
    if getmore:
        group[G_GETMORES] += 1
        group[G_GETMORE_MS] += ms
    else:
        group[G_COMMANDS] += 1


def _count_plan(group, plan, n):
    plans = group[G_PLAN]
    if plans is None:
        group[G_PLAN] = plan
    elif plans.__class__ is dict:
        plans[plan] = plans.get(plan, 0) + n
    elif plans != plan:
        group[G_PLAN] = {plans: group[G_PLAN_N], plan: n}
    group[G_PLAN_N] += n


def _sketch_counts(group):
    sketch = group[G_SKETCH]
    return sketch if sketch.__class__ is dict else {sketch: group[G_COMMANDS] + group[G_GETMORES]}


def _fold_into(mine, theirs):
    for i in (G_KEYS, G_DOCS, G_NRET, G_TOTAL, G_COMMANDS, G_GETMORES, G_GETMORE_MS):
        mine[i] += theirs[i]
    if mine[G_SKETCH] is None:
        mine[G_SKETCH] = theirs[G_SKETCH] if theirs[G_SKETCH].__class__ is not dict else dict(theirs[G_SKETCH])
        mine[G_MIN], mine[G_MAX] = theirs[G_MIN], theirs[G_MAX]
    else:
        n = mine[G_COMMANDS] + mine[G_GETMORES] - theirs[G_COMMANDS] - theirs[G_GETMORES]
        counts = mine[G_SKETCH] if mine[G_SKETCH].__class__ is dict else {mine[G_SKETCH]: n}
        for k, c in _sketch_counts(theirs).items():
            counts[k] = counts.get(k, 0) + c
        mine[G_SKETCH] = counts if len(counts) > 1 else next(iter(counts))
        mine[G_MIN], mine[G_MAX] = min(mine[G_MIN], theirs[G_MIN]), max(mine[G_MAX], theirs[G_MAX])
    plans = theirs[G_PLAN]
    if plans.__class__ is dict:
        for plan, n in plans.items():
            _count_plan(mine, plan, n)
    elif plans is not None:
        _count_plan(mine, plans, theirs[G_PLAN_N])
    mine[G_FMT] |= theirs[G_FMT]


def _fold(groups, key, theirs):
    mine = groups.get(key)
    if mine is None:
        groups[key] = theirs
    else:
        _fold_into(mine, theirs)


def new_state():
    return State()


def found(state):
    return bool(state.groups or state.pending)


def _ratio(a, b):
    return round(a / b, 1) if b else None


def _settled(state):
    # getMores still waiting: their cursor was opened before the files
    # start (or by a line that was not logged). Folded into new lists: rows
    # leaves the state as it found it.
    if not state.pending:
        return state.groups
    groups = dict(state.groups)
    for ns, waiting in state.pending.values():
        key = (ns, "getMore", UNKNOWN_ORIGIN)
        unknown = _new_group()
        if key in groups:
            _fold_into(unknown, groups[key])
        _fold_into(unknown, waiting)
        groups[key] = unknown
    return groups


def _row(key, group, grand):
    ns, name, shape = key
    count = group[G_COMMANDS] + group[G_GETMORES]
    counts = _sketch_counts(group)
    low, high = group[G_MIN], group[G_MAX]
    plans = group[G_PLAN]
    if plans.__class__ is dict:
        plan = max(sorted(plans), key=lambda p: plans[p])
    else:
        plan = plans
    keys, docs, nret, total = group[G_KEYS], group[G_DOCS], group[G_NRET], group[G_TOTAL]
    return {
        "namespace": ns, "operation": name, "shape": shape, "count": count,
        "commands": group[G_COMMANDS], "getMores": group[G_GETMORES],
        "minMillis": low, "medianMillis": quantile.quantile(counts, count, 50, low, high),
        "p95Millis": quantile.quantile(counts, count, 95, low, high),
        "percentileRelativeError": quantile.RELATIVE_ERROR, "maxMillis": high, "totalMillis": total,
        "getMoreMillis": group[G_GETMORE_MS],
        "sharePercent": round(100.0 * total / grand, 1) if grand else 0.0,
        "keysExamined": keys, "docsExamined": docs, "nreturned": nret,
        "keysExaminedPerReturned": _ratio(keys, nret), "docsExaminedPerReturned": _ratio(docs, nret),
        "planSummary": plan, "planSummaries": 0 if plans is None else len(plans) if plans.__class__ is dict else 1,
        "format": "+".join(f for f in sorted(FORMATS) if group[G_FMT] & FORMATS[f]),
    }


def _ordered(groups):
    """The keys of groups by total time, then namespace, operation, shape."""
    return sorted(groups, key=lambda k: (-groups[k][G_TOTAL], str(k[0]), k[1], k[2] or ""))


def iter_rows(state):
    """The rows (dicts), made one at a time in the report's order: a row
    lives only while it is written."""
    groups = _settled(state)
    grand = sum(g[G_TOTAL] for g in groups.values())
    for key in _ordered(groups):
        yield _row(key, groups[key], grand)


def rows(state):
    return list(iter_rows(state))


def namespaces(groups):
    """Per namespace: [namespace, shapes, commands, getMores, total ms,
    share], by total time."""
    grand = sum(g[G_TOTAL] for g in groups.values())
    sums = {}
    for (ns, _, _), g in groups.items():
        acc = sums.get(ns)
        if acc is None:
            acc = sums[ns] = [ns, 0, 0, 0, 0]
        acc[1] += 1
        acc[2] += g[G_COMMANDS]
        acc[3] += g[G_GETMORES]
        acc[4] += g[G_TOTAL]
    out = [acc + ["%.1f%%" % (round(100.0 * acc[4] / grand, 1) if grand else 0.0)] for acc in sums.values()]
    out.sort(key=lambda r: (-r[4], str(r[0])))
    return out


def output(state, as_json, out, top=DEFAULT_TOP):
    if as_json:
        dumps = orjson.dumps
        for row in iter_rows(state):
            record = {"record": "query"}
            record.update(row)
            out.write(dumps(record).decode() + "\n")
        return
    groups = _settled(state)
    if not groups:
        return
    summary = namespaces(groups)
    out.write("Per namespace (%d)\n" % len(summary))
    write_table(out, ["NAMESPACE", "SHAPES", "COMMANDS", "GETMORES", "TOTAL MS", "SHARE"], lambda: summary,
                {1, 2, 3, 4, 5})
    out.write("\n")
    grand = sum(g[G_TOTAL] for g in groups.values())
    order = _ordered(groups)
    shown = order if top is None else order[:top]
    del order  # the keys shown are all a table keeps
    headers = ["NAMESPACE", "OPERATION", "SHAPE", "COMMANDS", "GETMORES", "MIN MS", "MEDIAN MS", "P95 MS",
               "MAX MS", "TOTAL MS", "SHARE", "KEYS/RET", "DOCS/RET", "PLAN"]

    def body():
        # Made afresh on each call (write_table reads the rows twice).
        for key in shown:
            r = _row(key, groups[key], grand)
            plan = r["planSummary"]
            if plan and r["planSummaries"] > 1:
                plan += " (+%d more)" % (r["planSummaries"] - 1)
            yield [r["namespace"], r["operation"], r["shape"], r["commands"], r["getMores"], r["minMillis"],
                   r["medianMillis"], r["p95Millis"], r["maxMillis"], r["totalMillis"],
                   "%.1f%%" % r["sharePercent"], r["keysExaminedPerReturned"],
                   r["docsExaminedPerReturned"], plan]
    write_ranked(out, ("Query shapes", "Query shapes with the most total time"), len(groups), len(shown),
                 headers, body, set(range(3, 13)))
    out.write(PERCENTILES_NOTE)
