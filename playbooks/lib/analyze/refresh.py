"""Report `refresh`: routing table refreshes (mongos and shards), one row
each, then a summary per namespace. Refresh lines are few: events are kept
as they are."""

import json
import re

from . import legacy, logv2
from .common import Bad, Unparsable, UNKNOWN_TIME, median, seq_of, table, time_key

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


class State:
    def __init__(self):
        self.events = []
        self.bad = Bad()

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
        if event is None:
            return
        event["seq"] = seq_of(src, offset)
        event["src"] = src
        event["offset"] = offset
        self.events.append(event)

    def merge(self, other):
        self.bad.merge(other.bad)
        self.events.extend(other.events)


def new_state():
    return State()


def found(state):
    return bool(state.events)


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


def rows(state, names):
    evs = []
    for ev in state.events:
        row = {
            "time": ev["time"], "namespace": ev["namespace"], "fromVersion": ev["fromVersion"],
            "toVersion": ev["toVersion"], "kind": kind_of(ev), "durationMillis": ev["durationMillis"],
            "status": ev["status"], "logId": ev["logId"], "format": ev["format"],
            "file": names[ev["src"]], "offset": ev["offset"], "_seq": ev["seq"],
        }
        evs.append(row)
    by_ns = {}
    for ev in evs:
        by_ns.setdefault(ev["namespace"], []).append(ev)
    summaries = []
    for namespace, group in by_ns.items():
        ordered = sorted(group, key=lambda e: (_order_key(e), e["_seq"]))
        durations = [e["durationMillis"] for e in group]
        summaries.append({
            "namespace": namespace,
            "refreshes": len(group),
            "failed": sum(1 for e in group if e["status"] == "failed"),
            "minMillis": min(durations),
            "medianMillis": median(durations),
            "maxMillis": max(durations),
            "firstVersion": ordered[0]["fromVersion"] or ordered[0]["toVersion"],
            "lastVersion": ordered[-1]["toVersion"],
            "firstTime": ordered[0]["time"],
            "lastTime": ordered[-1]["time"],
            "format": "+".join(sorted({e["format"] for e in group})),
        })
    evs.sort(key=lambda e: (-e["durationMillis"], e["_seq"]))
    for ev in evs:
        ev.pop("_seq")
    summaries.sort(key=lambda s: (-s["maxMillis"], s["namespace"]))
    return evs, summaries


def _order_key(ev):
    key = time_key(ev["time"])
    return (0, key) if key != UNKNOWN_TIME else (1, 0)


def output(state, as_json, out, names):
    evs, summaries = rows(state, names)
    if as_json:
        for ev in evs:
            record = {"record": "refresh"}
            record.update(ev)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        for summary in summaries:
            record = {"record": "namespace"}
            record.update(summary)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
        return
    if not evs:
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
