"""Report `refresh`: routing table refreshes (mongos and shards), one row
each, then a summary per namespace.

Memory: a log of refreshes has as many events as lines (310,801 in 200 MiB),
so an event is a fixed record in flat arrays (RECORD_BYTES) rather than a
dict (about 1.3 kB): its time through the time codec, its namespace and its
kind of line (log id, status, kind, format) interned, each version as the
two numbers of major|minor and the interned rest (epoch and timestamp: a
collection has few)."""

import heapq
import json
import re
from array import array

from . import legacy, logv2
from .common import (DEFAULT_TOP, Bad, Unparsable, UNKNOWN_TIME, median, seq_of, write_ranked,
                     write_table)
from .timecodec import Times

WHAT = "routing refresh"
LINE_FILTERS = (
    b"Refreshed cached collection",
    b"Error refreshing cached collection",
    b"found to be unsharded after refresh",
    b"Refresh for collection ",
    b"ChunkManager: time to load chunks for ",
)


def needles(source):
    # Loose on purpose (no quotes, no spacing) so that damaged lines are
    # found too and counted as unparsable instead of vanishing silently.
    if source.json:
        return (b"efresh",)
    return (b"efresh", b"time to load chunks")


VERSION_HEAD = re.compile(r"(0|[1-9][0-9]{0,17})\|(0|[1-9][0-9]{0,17})")
# duration, seq; ns, tag, time template; time of day; from and to: major, minor, rest
RECORD_BYTES = 8 + 8 + 3 * 4 + 8 + 2 * (8 + 8 + 4)
NO_VERSION, WHOLE = -1, -1  # a rest of -1: None; a major of -1: the rest is the whole text


class Interned:
    """Values (strings, tuples) by small integer, each kept once."""

    __slots__ = ("values", "ids")

    def __init__(self):
        self.values = []
        self.ids = {}

    def id(self, value):
        i = self.ids.get(value)
        if i is None:
            i = self.ids[value] = len(self.values)
            self.values.append(value)
        return i

    def remap(self, other):
        return [self.id(v) for v in other.values]


class State:
    def __init__(self):
        self.millis = array("q")
        self.seqs = array("q")      # src << 48 | offset: input order, which is event order
        self.codes = array("i")     # per event: ns, tag, time template
        self.hms = array("i")
        self.majors = array("q")    # per event: from major, from minor, to major, to minor
        self.rests = array("i")     # per event: from rest, to rest
        self.names = Interned()     # namespaces
        self.tags = Interned()      # (logId, status, kind, format)
        self.texts = Interned()     # versions' rests
        self.clock = Times()
        self.bad = Bad()

    def __len__(self):
        return len(self.millis)

    def feed(self, src, offset, line):
        if not any(f in line for f in LINE_FILTERS):
            return
        self.bad.matched += 1
        stripped = line.lstrip()
        try:
            if stripped[:1] == b"{":
                event = logv2.refresh_event(logv2.parse(stripped))
            else:
                event = legacy.refresh_event(legacy.parse_line(line.decode("utf-8", "replace")))
        except Unparsable as exc:
            self.bad.skip(src, offset, str(exc))
            return
        if event is not None:
            self.add(event, seq_of(src, offset))

    def _version(self, text):
        if text is None:
            return 0, 0, NO_VERSION
        head = VERSION_HEAD.match(text)
        if head is None:
            return WHOLE, 0, self.texts.id(text)
        return int(head.group(1)), int(head.group(2)), self.texts.id(text[head.end():])

    def add(self, event, seq):
        tid, hms, _ = self.clock.encode(event["time"])
        self.millis.append(event["durationMillis"])
        self.seqs.append(seq)
        self.codes.extend((self.names.id(event["namespace"]),
                           self.tags.id((event["logId"], event["status"], kind_of(event), event["format"])),
                           tid))
        self.hms.append(hms)
        fmaj, fmin, frest = self._version(event["fromVersion"])
        tmaj, tmin, trest = self._version(event["toVersion"])
        self.majors.extend((fmaj, fmin, tmaj, tmin))
        self.rests.extend((frest, trest))

    def version(self, i, which):
        """fromVersion (which 0) or toVersion (1) of event i."""
        rest = self.rests[2 * i + which]
        if rest == NO_VERSION:
            return None
        major = self.majors[4 * i + 2 * which]
        if major == WHOLE:
            return self.texts.values[rest]
        return "%d|%d%s" % (major, self.majors[4 * i + 2 * which + 1], self.texts.values[rest])

    def event(self, i, names):
        """Event i as its --json record (without "record")."""
        log_id, status, kind, fmt = self.tags.values[self.codes[3 * i + 1]]
        seq = self.seqs[i]
        return {
            "time": self.clock.decode(self.codes[3 * i + 2], self.hms[i]),
            "namespace": self.names.values[self.codes[3 * i]],
            "fromVersion": self.version(i, 0), "toVersion": self.version(i, 1), "kind": kind,
            "durationMillis": self.millis[i], "status": status, "logId": log_id, "format": fmt,
            "file": names[seq >> 48], "offset": seq & ((1 << 48) - 1),
        }

    def merge(self, other):
        """Appends a later part of the input (events stay in input order)."""
        self.bad.merge(other.bad)
        if not len(self):
            bad = self.bad
            self.__dict__.update(other.__dict__)  # the first part: adopted, not copied
            self.bad = bad
            return
        tables = (self.names.remap(other.names), self.tags.remap(other.tags), self.clock.remap(other.clock))
        codes = array("i", other.codes)
        for column, table in enumerate(tables):
            codes[column::3] = array("i", [v if v < 0 else table[v] for v in codes[column::3]])
        texts = self.texts.remap(other.texts)
        rests = array("i", [v if v < 0 else texts[v] for v in other.rests])
        self.millis.extend(other.millis)
        self.seqs.extend(other.seqs)
        self.codes.extend(codes)
        self.hms.extend(other.hms)
        self.majors.extend(other.majors)
        self.rests.extend(rests)


def new_state():
    return State()


def found(state):
    return len(state) > 0


def is_unsharded_version(text):
    # ChunkVersion::UNSHARDED(): 0|0 with a zero epoch: a full refresh.
    return bool(text) and re.match(r"^0\|0\|\|0{24}(\|\||$)", text) is not None


def kind_of(event):
    if "kind" in event:
        return event["kind"]
    if event["status"] != "ok":
        return None
    start = event["fromVersion"]
    return "full" if not start or is_unsharded_version(start) or start == "(empty)" else "incremental"


def slowest(state, top=None):
    """Events, longest first, in input order among equals (index order is
    input order): every one for --json and --all, else a bounded heap of top."""
    millis = state.millis
    if top is None or top >= len(millis):
        keys = [(-d << 32) | i for i, d in enumerate(millis)]
        keys.sort()
        return [k & 0xffffffff for k in keys]
    return heapq.nsmallest(top, range(len(millis)), key=lambda i: (-millis[i] << 32) | i)


def summaries(state):
    """One per namespace, longest maximum first: from each namespace's
    durations (8 bytes an event) and its first and last event."""
    groups = {}
    codes, clock, hms, millis = state.codes, state.clock, state.hms, state.millis
    for i in range(len(millis)):
        ns = codes[3 * i]
        g = groups.get(ns)
        key = _order_key(clock, codes[3 * i + 2], hms[i])
        if g is None:
            groups[ns] = [array("q", (millis[i],)), 0, (key, i), (key, i), set()]
            g = groups[ns]
        else:
            g[0].append(millis[i])
            if (key, i) < g[2]:
                g[2] = (key, i)
            if (key, i) > g[3]:
                g[3] = (key, i)
        _, status, _, fmt = state.tags.values[codes[3 * i + 1]]
        if status == "failed":
            g[1] += 1
        g[4].add(fmt)
    out = []
    for ns, (durations, failed, first, last, fmts) in groups.items():
        first, last = first[1], last[1]
        out.append({
            "namespace": state.names.values[ns],
            "refreshes": len(durations),
            "failed": failed,
            "minMillis": min(durations),
            "medianMillis": median(durations),
            "maxMillis": max(durations),
            "firstVersion": state.version(first, 0) or state.version(first, 1),
            "lastVersion": state.version(last, 1),
            "firstTime": clock.decode(codes[3 * first + 2], hms[first]),
            "lastTime": clock.decode(codes[3 * last + 2], hms[last]),
            "format": "+".join(sorted(fmts)),
        })
    out.sort(key=lambda s: (-s["maxMillis"], s["namespace"]))
    return out


def rows(state, names):
    """Every event (slowest first) and the summaries, as --json has them."""
    return [state.event(i, names) for i in slowest(state)], summaries(state)


def _order_key(clock, tid, hms):
    # Known times first, by time; then the others (input order breaks ties).
    key = clock.decode_key(tid, hms)
    return (0, key) if key != UNKNOWN_TIME else (1, 0)


def output(state, as_json, out, top=DEFAULT_TOP, names=()):
    if as_json:
        chunk = []
        for i in slowest(state):
            record = {"record": "refresh"}
            record.update(state.event(i, names))
            chunk.append(json.dumps(record, separators=(",", ":")))
            if len(chunk) >= 4096:
                out.write("\n".join(chunk) + "\n")
                chunk = []
        if chunk:
            out.write("\n".join(chunk) + "\n")
        for summary in summaries(state):
            record = {"record": "namespace"}
            record.update(summary)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        return
    if not len(state):
        return
    per_ns = summaries(state)
    out.write("Per namespace (%d)\n" % len(per_ns))
    write_table(out, ["NAMESPACE", "REFRESHES", "FAILED", "MIN MS", "MEDIAN MS", "MAX MS", "FIRST VERSION",
                      "LAST VERSION", "FORMAT"],
                lambda: ([s["namespace"], s["refreshes"], s["failed"], s["minMillis"], s["medianMillis"],
                          s["maxMillis"], s["firstVersion"], s["lastVersion"], s["format"]] for s in per_ns),
                {1, 2, 3, 4, 5})
    out.write("\n")
    shown = slowest(state, top)

    def body():
        for i in shown:
            e = state.event(i, names)
            yield [e["time"], e["namespace"], e["fromVersion"], e["toVersion"], e["kind"],
                   e["durationMillis"], e["status"], e["format"]]
    write_ranked(out, ("Routing table refreshes", "Slowest routing table refreshes"), len(state), len(shown),
                 ["TIME", "NAMESPACE", "FROM VERSION", "TO VERSION", "KIND", "MILLIS", "STATUS", "FORMAT"],
                 body, {5})
