"""Report `queries`: slow operations grouped by namespace, operation and
query shape, the grouping of mtools' `mloginfo --queries` (which reads
legacy text logs only): the same operations (query, getmore, update and
remove ops; count, findAndModify, geoNear, find and aggregate commands), the
same shape (the filter with every value replaced by 1; $in, $gt, $gte, $lt,
$lte and $exists collapse their whole operand to 1; keys sorted), the same
percentile (linear interpolation). For JSON logs it gives what mloginfo
cannot read at all, plus keys and documents examined per returned document,
the plan summary and each group's share of the total time.

Memory: per group, the distinct durations with their counts (exact median
and p95 without one entry per line)."""

import json

import orjson

from . import legacy, logv2
from .common import DEFAULT_TOP, Bad, Unparsable, as_int, first_key, percentile, write_ranked, write_table
from .source import feed_matching, sparse

WHAT = "slow query"
OPS = {"query", "getmore", "update", "remove"}
COMMANDS = {"count", "findandmodify", "geonear", "find", "aggregate"}
COLLAPSING = {"$in", "$gt", "$gte", "$lt", "$lte", "$exists"}
EXTENDED_JSON = {"$oid", "$date", "$numberLong", "$numberInt", "$numberDouble", "$numberDecimal",
                 "$binary", "$timestamp", "$regularExpression", "$uuid", "$minKey", "$maxKey",
                 "$undefined", "$symbol", "$code", "$dbPointer", "$regex"}


OPS_B = {op.encode() for op in OPS}
COMMANDS_B = {name.encode() for name in COMMANDS}
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


def shape_text(shape):
    """mloginfo's text of a shape (sorted keys, ", " and ": "); a log has few
    shapes, so each text is made once and found by orjson's compact form."""
    if shape is None:
        return None
    key = orjson.dumps(shape, option=orjson.OPT_SORT_KEYS)
    text = _SHAPES.get(key)
    if text is None:
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


# ---------------------------------------------------------------- events --

def event_from_text(match):
    parsed = legacy.slow_op(match)
    if parsed is None:
        return None
    op, ns, body, ms = parsed
    if op == "command":
        name = legacy.command_name(op, body)
        if name is None or name.lower() not in COMMANDS:
            return None
        low = name.lower()
        trigger = "filter: " if low == "find" else ("query: " if low in ("count", "findandmodify") else None)
        shape = None
        if trigger:
            shape = text_shape(body, trigger)
            if shape is None and trigger == "query: ":
                shape = text_shape(body, "q: ")
    elif op in OPS:
        name = op
        shape = text_shape(body, "query: ")
        if shape is None:
            shape = text_shape(body, "q: ")
    else:
        return None
    keys = legacy.last_number(body, "keysExamined")
    if keys is None:
        keys = legacy.last_number(body, "nscanned")
    docs = legacy.last_number(body, "docsExamined")
    if docs is None:
        docs = legacy.last_number(body, "nscannedObjects")
    return (ns, name, shape_text(shape), ms, keys or 0, docs or 0,
            legacy.last_number(body, "nreturned") or 0, legacy.plan_summary(body), "text")


def event_from_doc(doc):
    attr = logv2.slow_query_attr(doc)
    return None if attr is None else event_from_attr(attr)


def event_from_attr(attr):
    kind = attr.get("type")
    command = attr.get("command")
    if kind == "command":
        name = first_key(command)
        if not isinstance(name, str) or name.lower() not in COMMANDS:
            return None
    elif kind in OPS:
        name = kind
    else:
        return None
    shape = None
    if isinstance(command, dict):
        low = name.lower()
        if low == "find":
            source = command.get("filter")
        elif low == "aggregate":
            source = None
        else:
            source = command.get("query", command.get("q", command.get("filter")))
        if isinstance(source, dict):
            shape = normalize(source)
    get = attr.get
    # Plain integers (what the server writes) without a call each.
    ms, keys, docs, nret = get("durationMillis"), get("keysExamined"), get("docsExamined"), get("nreturned")
    return (get("ns"), name, shape_text(shape), ms if ms.__class__ is int else as_int(ms) or 0,
            keys if keys.__class__ is int else as_int(keys) or 0,
            docs if docs.__class__ is int else as_int(docs) or 0,
            nret if nret.__class__ is int else as_int(nret) or 0, get("planSummary"), "json")


# ---------------------------------------------------------------- groups --

class State:
    def __init__(self):
        self.groups = {}
        self.bad = Bad()

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
        if ev is not None:
            self.add(ev)

    def feed_span(self, src, buf, start, end, base, needles):
        """Every line of buf[start:end] (whole lines; buf starts at stream
        offset base): whole slow query lines of an operation the report does
        not count (logv2.SLOW_QUERY_LINE tells them by type and command name)
        are only checked (orjson, no event) and counted as matched; every
        other line that holds a needle goes to feed, found without a
        per-line search where the regex matched it."""
        if sparse(buf, start, end, needles) or sparse(buf, start, end, (b'"command":{"getMore":',)):
            # Few slow queries, or few that the report passes over (a log
            # of finds): the regex would cost more than it saves.
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
        ns, name, shape, ms, keys, docs, nreturned, plan, fmt = ev
        key = (ns, name, shape)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = [0, 0, 0, 0, {}, {}, set()]
        group[0] += keys
        group[1] += docs
        group[2] += nreturned
        group[3] += ms
        durations = group[4]
        durations[ms] = durations.get(ms, 0) + 1
        if plan is not None:
            plans = group[5]
            plans[plan] = plans.get(plan, 0) + 1
        if fmt not in group[6]:
            group[6].add(fmt)

    def merge(self, other):
        self.bad.merge(other.bad)
        for key, theirs in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                self.groups[key] = theirs
                continue
            for i in range(4):
                mine[i] += theirs[i]
            for i in (4, 5):
                for k, n in theirs[i].items():
                    mine[i][k] = mine[i].get(k, 0) + n
            mine[6] |= theirs[6]


def new_state():
    return State()


def found(state):
    return bool(state.groups)


def _ratio(a, b):
    return round(a / b, 1) if b else None


def rows(state):
    grand = sum(g[3] for g in state.groups.values())
    out = []
    for (ns, name, shape), (keys, docs, nret, total, durations, plans, fmts) in state.groups.items():
        ordered = []
        for ms in sorted(durations):
            ordered.extend([ms] * durations[ms])
        plan = max(sorted(plans), key=lambda p: plans[p]) if plans else None
        out.append({
            "namespace": ns, "operation": name, "shape": shape, "count": len(ordered),
            "minMillis": ordered[0], "medianMillis": percentile(ordered, 50),
            "p95Millis": percentile(ordered, 95), "maxMillis": ordered[-1], "totalMillis": total,
            "sharePercent": round(100.0 * total / grand, 1) if grand else 0.0,
            "keysExamined": keys, "docsExamined": docs, "nreturned": nret,
            "keysExaminedPerReturned": _ratio(keys, nret), "docsExaminedPerReturned": _ratio(docs, nret),
            "planSummary": plan, "planSummaries": len(plans), "format": "+".join(sorted(fmts)),
        })
    out.sort(key=lambda r: (-r["totalMillis"], str(r["namespace"]), r["operation"], r["shape"] or ""))
    return out


def namespaces(result):
    """Per namespace: [namespace, shapes, count, total ms, share], by total time."""
    grand = sum(r["totalMillis"] for r in result)
    sums = {}
    for r in result:
        acc = sums.setdefault(r["namespace"], [r["namespace"], 0, 0, 0])
        acc[1] += 1
        acc[2] += r["count"]
        acc[3] += r["totalMillis"]
    out = [acc + ["%.1f%%" % (round(100.0 * acc[3] / grand, 1) if grand else 0.0)] for acc in sums.values()]
    out.sort(key=lambda r: (-r[3], str(r[0])))
    return out


def output(state, as_json, out, top=DEFAULT_TOP):
    result = rows(state)
    if as_json:
        for row in result:
            record = {"record": "query"}
            record.update(row)
            out.write(orjson.dumps(record).decode() + "\n")
        return
    if not result:
        return
    summary = namespaces(result)
    out.write("Per namespace (%d)\n" % len(summary))
    write_table(out, ["NAMESPACE", "SHAPES", "COUNT", "TOTAL MS", "SHARE"], lambda: summary, {1, 2, 3, 4})
    out.write("\n")
    shown = result if top is None else result[:top]
    headers = ["NAMESPACE", "OPERATION", "SHAPE", "COUNT", "MIN MS", "MEDIAN MS", "P95 MS", "MAX MS",
               "TOTAL MS", "SHARE", "KEYS/RET", "DOCS/RET", "PLAN"]
    body = []
    for r in shown:
        plan = r["planSummary"]
        if plan and r["planSummaries"] > 1:
            plan += " (+%d more)" % (r["planSummaries"] - 1)
        body.append([r["namespace"], r["operation"], r["shape"], r["count"], r["minMillis"],
                     r["medianMillis"], r["p95Millis"], r["maxMillis"], r["totalMillis"],
                     "%.1f%%" % r["sharePercent"], r["keysExaminedPerReturned"],
                     r["docsExaminedPerReturned"], plan])
    write_ranked(out, ("Query shapes", "Query shapes with the most total time"), len(result), len(shown),
                 headers, lambda: body, set(range(3, 12)))

