"""Report `cursors`: one row per cursor id, from the slow query lines that
carry one.

Memory: a log whose cursor ids are all distinct has as many rows as lines,
so per-cursor state is a fixed record in flat arrays (about 130 bytes, see
RECORD_BYTES) found through an open-addressing index of int32 slots, instead
of a dict of dicts (about 1.2 kB each)."""

import heapq
from array import array

import orjson

from . import legacy, logv2
from .common import (DEFAULT_TOP, UNKNOWN_TIME, Bad, Unparsable, earlier, human_bytes, seq_of, write_ranked,
                     write_table)
from .logv2 import ATOMIC, CURSOR_LINE
from .source import feed_matching, sparse
from .timecodec import Times

CURSOR_LINE_FINDITER = CURSOR_LINE.finditer

NEEDLE = b"cursorid"
NSTATS = 7  # commands, getMores, nreturned, docsExamined, keysExamined, bytesRead, durationMillis
NTIMES = 4  # first key, first seq, last key, last seq
NCODES = 7  # ns, origin, flags, first template, first hms, last template, last hms
F_CHANGE_STREAM, F_JSON, F_TEXT, F_OPENER = 1, 2, 4, 8
RECORD_BYTES = 8 + 8 * NSTATS + 8 * NTIMES + 4 * NCODES  # + 2 to 4 int32 index slots


class Table:
    """Per-cursor aggregates in parallel arrays, slot = order of first sight."""

    def __init__(self):
        self.ids = array("q")
        self.stats = array("q")
        self.times = array("q")
        self.codes = array("i")
        self.index = array("i", [-1]) * 1024
        self.mask = 1023
        self.names = []       # interned ns and command names
        self.name_ids = {}
        self.clock = Times()
        self.bad = Bad()
        self._bnames = {}     # caches of the fast path: name bytes -> name id,
        self._minutes = {}    # minute -> (zone, template, key, hms)

    def __len__(self):
        return len(self.ids)

    def _name(self, text):
        nid = self.name_ids.get(text)
        if nid is None:
            nid = self.name_ids[text] = len(self.names)
            self.names.append(text)
        return nid

    def _grow(self, at_least=0):
        size = len(self.index) * 2
        while size < at_least:
            size *= 2
        self.index = array("i", [-1]) * size
        self.mask = mask = size - 1
        index = self.index
        for slot, cid in enumerate(self.ids):
            h = hash(cid)
            h = (h ^ (h >> 23)) & mask  # _hash, inlined: this runs once per cursor per doubling
            while index[h] != -1:
                h = (h + 1) & mask
            index[h] = slot

    def slot(self, cursor_id):
        """Slot of cursor_id, or -(where to insert) - 1 when absent."""
        mask, index, ids = self.mask, self.index, self.ids
        h = _hash(cursor_id) & mask
        s = index[h]
        while s != -1:
            if ids[s] == cursor_id:
                return s
            h = (h + 1) & mask
            s = index[h]
        return -h - 1

    def add(self, ev, seq, fmt):
        (cursor_id, ns, name, origin, change_stream, nreturned, docs, keys, bytes_read,
         duration, stamp) = ev
        if cursor_id == 0:
            return  # no open cursor: nothing to follow
        tid, hms, key = self.clock.encode(stamp)
        s = self.slot(cursor_id)
        getmore = name == "getMore"
        if s < 0:
            if (len(self.ids) + 1) * 2 > len(self.index):
                self._grow()
                s = self.slot(cursor_id)
            self.index[-s - 1] = s = len(self.ids)
            self.ids.append(cursor_id)
            self.stats.extend((0, 0, 0, 0, 0, 0, 0))
            self.times.extend((key, seq, key, seq))
            self.codes.extend((self._name(ns), -1, 0, tid, hms, tid, hms))
        else:
            t = s * NTIMES
            times = self.times
            if earlier(key, seq, times[t], times[t + 1]):
                times[t] = key
                times[t + 1] = seq
                self.codes[s * NCODES + 3] = tid
                self.codes[s * NCODES + 4] = hms
            if earlier(times[t + 2], times[t + 3], key, seq):
                times[t + 2] = key
                times[t + 3] = seq
                self.codes[s * NCODES + 5] = tid
                self.codes[s * NCODES + 6] = hms
        b = s * NSTATS
        st = self.stats
        st[b] += 1
        if getmore:
            st[b + 1] += 1
        st[b + 2] += nreturned
        st[b + 3] += docs
        st[b + 4] += keys
        st[b + 5] += bytes_read
        st[b + 6] += duration
        c = s * NCODES
        codes = self.codes
        flags = codes[c + 2] | fmt
        if origin is not None and (codes[c + 1] == -1 or not getmore):
            codes[c + 1] = self._name(origin)
        if not getmore:
            flags |= F_OPENER
        if change_stream:
            flags |= F_CHANGE_STREAM
        codes[c + 2] = flags

    def feed(self, src, offset, line):
        """One line that holds the needle."""
        bad = self.bad
        bad.matched += 1
        stripped = line.lstrip()
        try:
            if stripped[:1] == b"{":
                ev = logv2.cursor_fast(stripped)
                if ev is False:
                    return
                if ev is None:
                    ev = logv2.cursor_slow(logv2.parse(stripped))
                fmt = F_JSON
            else:
                ev = legacy.cursor_event(legacy.parse_line(line.decode("utf-8", "replace")))
                fmt = F_TEXT
        except Unparsable as exc:
            bad.skip(src, offset, str(exc))
            return
        if ev is not None:
            self.add(ev, seq_of(src, offset), fmt)

    def feed_span(self, src, buf, start, end, base, needles):
        """Every line of buf[start:end] (whole lines; buf starts at stream
        offset base): the lines logv2.CURSOR_LINE matches are read from the
        match alone, every other line that holds a needle goes to feed."""
        if sparse(buf, start, end, needles):
            feed_matching(self.feed, src, buf, start, end, base, needles)
            return
        ids, stats, times, codes = self.ids, self.stats, self.times, self.codes
        index, mask = self.index, self.mask
        minutes = self._minutes
        bnames = self._bnames
        seq0 = (src << 48) + base
        change_streams = buf.find(b"$changeStream", start, end) != -1
        check_tail = not ATOMIC
        loads, JSONDecodeError = orjson.loads, orjson.JSONDecodeError
        matched = 0
        pos = start
        for m in CURSOR_LINE_FINDITER(buf, start, end):
            at = m.start()
            if at != pos:
                if at and buf[at - 1] != 10:
                    continue  # not a line start: left in the gap for feed
                feed_matching(self.feed, src, buf, pos, at, base, needles)
                pos = at  # a line skipped below stays in the next gap
            minute, sec, milli, zone, ns, name, cid, keys, docs, nret, read, dur = m.groups()
            if cid is None:
                if buf.find(b'"cursorid":', m.end(6), m.end()) == -1:
                    pos = m.end() + 1  # a whole slow query line without a cursor
                    matched += 1
                continue
            if check_tail and buf.find(b'"cursorid":', m.end(7), m.end()) != -1:
                continue
            # The tail (from "cursorid" to the end of attr) must be JSON, as
            # logv2.cursor_fast reads it; else the line is left to feed.
            tail_end = m.end() - (2 if buf[m.end() - 1] == 13 else 1)
            try:
                loads(b"{" + buf[m.start(7) - 11:tail_end])
            except JSONDecodeError:
                continue
            flags = F_JSON
            if name == b"getMore":
                getmore = True
                region = m.end(6)
                o = buf.find(b'"originatingCommand":{"', region, m.start(7))
                if o == -1:
                    origin = None
                else:
                    region = o + 23
                    origin = buf[region:buf.find(b'"', region)]
                    if not origin.isascii():
                        continue  # left in the gap: the full parse checks its UTF-8
            else:
                getmore = False
                origin = name
                region = m.end(6)
            if change_streams and buf.find(b'"$changeStream"', region, m.start(7)) != -1:
                if buf.find(b'"pipeline":[{"$changeStream":', region, m.start(7)) == -1:
                    continue  # left in the gap: the full parse finds the stage
                if origin == b"aggregate":
                    flags = F_JSON | F_CHANGE_STREAM
            pos = m.end() + 1
            matched += 1
            cid = int(cid)
            if not cid:
                continue
            # Time: the minute's template, key and h:m from a cache; the
            # seconds and milliseconds added (SSmmm is ms since the minute).
            cached = minutes.get(minute)
            if cached is None or cached[0] != zone:
                cached = self._minute(minute, zone)
            sm = int(sec + milli)
            key = cached[2] + sm
            h = hash(cid)
            h = (h ^ (h >> 23)) & mask
            s = index[h]
            while s != -1:
                if ids[s] == cid:
                    break
                h = (h + 1) & mask
                s = index[h]
            if s == -1:
                if (len(ids) + 1) * 2 > len(index):
                    self._grow()
                    index, mask = self.index, self.mask
                    h = -self.slot(cid) - 1
                s = index[h] = len(ids)
                nid = bnames.get(ns)
                if nid is None:
                    nid = self._bname(ns)
                ids.append(cid)
                seq = seq0 + at
                hms = cached[3] + sm
                times.extend((key, seq, key, seq))
                if getmore:
                    stats.extend((1, 1, int(nret), int(docs), int(keys), int(read or 0), int(dur)))
                    codes.extend((nid, -1 if origin is None else self._bname(origin), flags,
                                  cached[1], hms, cached[1], hms))
                else:
                    stats.extend((1, 0, int(nret), int(docs), int(keys), int(read or 0), int(dur)))
                    codes.extend((nid, self._bname(origin), flags | F_OPENER,
                                  cached[1], hms, cached[1], hms))
                continue
            t = s * NTIMES
            c = s * NCODES
            k = times[t + 2]
            if k < key if (k != key and k != UNKNOWN_TIME) else times[t + 3] < seq0 + at:
                times[t + 2] = key  # the usual case: a line after the last one seen
                times[t + 3] = seq0 + at
                codes[c + 5] = cached[1]
                codes[c + 6] = cached[3] + sm
            k = times[t]
            if key < k if (k != key and k != UNKNOWN_TIME) else seq0 + at < times[t + 1]:
                times[t] = key
                times[t + 1] = seq0 + at
                codes[c + 3] = cached[1]
                codes[c + 4] = cached[3] + sm
            b = s * NSTATS
            stats[b] += 1
            stats[b + 2] += int(nret)
            stats[b + 3] += int(docs)
            stats[b + 4] += int(keys)
            if read is not None:
                stats[b + 5] += int(read)
            stats[b + 6] += int(dur)
            if getmore:
                stats[b + 1] += 1
                if origin is not None and codes[c + 1] == -1:
                    codes[c + 1] = self._bname(origin)
                if flags != F_JSON or not codes[c + 2] & F_JSON:
                    codes[c + 2] |= flags
            else:
                codes[c + 1] = self._bname(origin)
                codes[c + 2] |= flags | F_OPENER
        self.bad.matched += matched
        if pos < end:
            feed_matching(self.feed, src, buf, pos, end, base, needles)

    def _bname(self, text):
        nid = self._bnames.get(text)
        if nid is None:
            nid = self._bnames[text] = self._name(text.decode())
        return nid

    def _minute(self, minute, zone):
        """(zone, template id, key and hms of the minute's start) for the
        fast path, from the slow encoder once per minute of log."""
        if len(self._minutes) > 100000:
            self._minutes.clear()
        tid, hms, key = self.clock.encode((minute + b":00.000" + zone).decode())
        cached = self._minutes[minute] = (zone, tid, key, hms)
        return cached

    def merge(self, other):
        """Folds another scan's table (a later part of the input) into this one."""
        self.bad.merge(other.bad)
        if not self.ids and not self.names:
            bad = self.bad
            self.__dict__.update(other.__dict__)
            self.bad = bad
            return
        tmpl = self.clock.remap(other.clock) + [-1]  # [-1]: no time
        names = [self._name(n) for n in other.names] + [-1]  # [-1]: no origin
        shared, fresh = [], []
        if self.ids:
            slot = self.slot
            for s, cid in enumerate(other.ids):
                (shared if slot(cid) >= 0 else fresh).append(s)
        else:
            fresh = list(range(len(other.ids)))
        # Cursors only the other part saw (all of them, when ids are
        # distinct) are appended in bulk; the few seen by both are folded.
        if len(fresh) == len(other.ids):
            base = len(self.ids)
            self.ids.extend(other.ids)
            self.stats.extend(other.stats)
            self.times.extend(other.times)
            codes = array("i", other.codes)
            for column, table in ((0, names), (1, names), (3, tmpl), (5, tmpl)):
                codes[column::NCODES] = array("i", [table[v] for v in codes[column::NCODES]])
            self.codes.extend(codes)
            if len(self.index) < 2 * len(self.ids):
                self._grow(2 * len(self.ids))  # re-inserts every id
            else:
                for s in range(base, len(self.ids)):
                    self._insert(s)
            return
        for s in fresh + shared:
            self._fold(other, s, tmpl, names)

    def _insert(self, s):
        mask, index = self.mask, self.index
        h = _hash(self.ids[s]) & mask
        while index[h] != -1:
            h = (h + 1) & mask
        index[h] = s

    def _fold(self, other, s, tmpl, names):
        st = other.stats[s * NSTATS:(s + 1) * NSTATS]
        tm = other.times[s * NTIMES:(s + 1) * NTIMES]
        cd = other.codes[s * NCODES:(s + 1) * NCODES]
        cid = other.ids[s]
        first = (tmpl[cd[3]], cd[4])
        last = (tmpl[cd[5]], cd[6])
        origin = names[cd[1]]
        d = self.slot(cid)
        if d < 0:
            if (len(self.ids) + 1) * 2 > len(self.index):
                self._grow()
                d = self.slot(cid)
            self.index[-d - 1] = d = len(self.ids)
            self.ids.append(cid)
            self.stats.extend(st)
            self.times.extend(tm)
            self.codes.extend((names[cd[0]], origin, cd[2]) + first + last)
            return
        for i in range(NSTATS):
            self.stats[d * NSTATS + i] += st[i]
        t, c = d * NTIMES, d * NCODES
        if earlier(tm[0], tm[1], self.times[t], self.times[t + 1]):
            self.times[t:t + 2] = array("q", tm[0:2])
            self.codes[c + 3:c + 5] = array("i", first)
        if earlier(self.times[t + 2], self.times[t + 3], tm[2], tm[3]):
            self.times[t + 2:t + 4] = array("q", tm[2:4])
            self.codes[c + 5:c + 7] = array("i", last)
        if origin != -1 and (self.codes[c + 1] == -1 or cd[2] & F_OPENER):
            self.codes[c + 1] = origin
        self.codes[c + 2] |= cd[2]

    def order(self):
        """Slots slowest first (then by id), sorted on one integer each so that
        a log of distinct cursors needs no per-row objects to be sorted."""
        offset = 1 << 63
        keys = [(-d << 65) | (i + offset) for d, i in zip(self.stats[6::NSTATS], self.ids)]
        return sorted(range(len(keys)), key=keys.__getitem__)

    def row(self, s):
        st = self.stats[s * NSTATS:(s + 1) * NSTATS]
        cd = self.codes[s * NCODES:(s + 1) * NCODES]
        formats = [f for bit, f in ((F_JSON, "json"), (F_TEXT, "text")) if cd[2] & bit]
        return {
            "cursorId": self.ids[s], "ns": self.names[cd[0]],
            "originatingCommand": self.names[cd[1]] if cd[1] >= 0 else None,
            "changeStream": bool(cd[2] & F_CHANGE_STREAM),
            "commands": st[0], "getMores": st[1], "nreturned": st[2],
            "docsExamined": st[3], "keysExamined": st[4], "bytesRead": st[5],
            "durationMillis": st[6],
            "firstTime": self.clock.decode(cd[3], cd[4]),
            "lastTime": self.clock.decode(cd[5], cd[6]),
            "format": "+".join(formats),
        }

    def rows(self):
        """Every row, slowest first (rows are made one at a time by output)."""
        return [self.row(s) for s in self.order()]


def _hash(value):
    # Cursor ids are random 63-bit numbers on modern servers, but not on all:
    # the high bits are folded in so that ids differing only there spread
    # too (hash() of an int is the int modulo 2**61 - 1, computed in C).
    # feed_span has this inlined.
    h = hash(value)
    return h ^ (h >> 23)


def new_state():
    return Table()


def needles(source):
    # JSON: the slow query id, near the start of the line, so that a line
    # cut before its cursorid is still found, and counted as unparsable.
    return (b"51803",) if source.json else (NEEDLE,)


def found(state):
    return len(state) > 0


WHAT = "cursor"


_JSON_ROW = ('{"record":"cursor","cursorId":"%d","ns":%s,"originatingCommand":%s,"changeStream":%s,'
             '"commands":%d,"getMores":%d,"nreturned":%d,"docsExamined":%d,"keysExamined":%d,'
             '"bytesRead":%d,"durationMillis":%d,"firstTime":%s,"lastTime":%s,"format":%s}\n')


def _json_times(clock):
    """A function (template id, hms) -> the time as a JSON value, with each
    template escaped once (a log has few) instead of once per row."""
    parts = []
    for template in clock.templates:
        text = orjson.dumps(template).decode()
        marks = text.count("\\u0000") + text.count("\\u0001")
        parts.append(text.split("\\u000", 1) if marks == 1 and "\\\\" not in text else None)

    def as_json(tid, hms):
        if tid < 0:
            return "null"
        part = parts[tid]
        if part is None or hms < 0:
            return orjson.dumps(clock.decode(tid, hms)).decode()
        pre, post = part
        if post[0] == "0":
            return "%s%02d:%02d:%02d.%03d%s" % (pre, hms // 10000000, hms // 100000 % 100,
                                              hms // 1000 % 100, hms % 1000, post[1:])
        return "%s%02d:%02d:%02d%s" % (pre, hms // 10000000, hms // 100000 % 100, hms // 1000 % 100,
                                       post[1:])
    return as_json


def _output_json(state, out):
    """The rows as JSON Lines, the bytes orjson.dumps(row) would give, made
    with one string format per row (a log of distinct cursors has as many
    rows as lines)."""
    names = [orjson.dumps(n).decode() for n in state.names]
    time_json = _json_times(state.clock)
    formats = {}
    for flags in range(16):
        kinds = [f for bit, f in ((F_JSON, "json"), (F_TEXT, "text")) if flags & bit]
        formats[flags] = orjson.dumps("+".join(kinds)).decode()
    ids, stats, codes = state.ids, state.stats, state.codes
    chunk = []
    for s in state.order():
        b, c = s * NSTATS, s * NCODES
        flags = codes[c + 2]
        first = time_json(codes[c + 3], codes[c + 4])
        # A cursor seen once (all of them in a log of distinct cursors) has
        # its first time for last time.
        last = first if codes[c + 3:c + 5] == codes[c + 5:c + 7] else time_json(codes[c + 5], codes[c + 6])
        chunk.append(_JSON_ROW % (
            ids[s], names[codes[c]], names[codes[c + 1]] if codes[c + 1] >= 0 else "null",
            "true" if flags & F_CHANGE_STREAM else "false", *stats[b:b + NSTATS], first, last,
            formats[flags & (F_JSON | F_TEXT)]))
        if len(chunk) >= 4096:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))


def _slowest(state, top):
    """Slots of the top slowest cursors; a bounded heap, not a sort of every
    cursor, so that the default table costs no memory per cursor."""
    if top is None or top >= len(state):
        return state.order()
    stats, ids, offset = state.stats, state.ids, 1 << 63
    return heapq.nsmallest(top, range(len(ids)),
                           key=lambda s: (-stats[s * NSTATS + 6] << 65) | (ids[s] + offset))


def namespaces(state):
    """Per namespace: [name, cursors, commands, getMores, nreturned,
    docsExamined, keysExamined, bytesRead, durationMillis], slowest first."""
    sums = {}
    stats, codes = state.stats, state.codes
    for s in range(len(state)):
        acc = sums.get(codes[s * NCODES])
        if acc is None:
            acc = sums[codes[s * NCODES]] = [0] * (NSTATS + 1)
        acc[0] += 1
        b = s * NSTATS
        for k in range(NSTATS):
            acc[k + 1] += stats[b + k]
    out = [[state.names[ns]] + acc for ns, acc in sums.items()]
    out.sort(key=lambda r: (-r[-1], r[0]))
    return out


def output(state, as_json, out, top=DEFAULT_TOP):
    if as_json:
        _output_json(state, out)
        return
    if not len(state):
        return
    summary = namespaces(state)
    out.write("Per namespace (%d)\n" % len(summary))
    write_table(out, ["NS", "CURSORS", "CMDS", "GETMORES", "NRETURNED", "DOCS EXAMINED", "KEYS EXAMINED",
                      "BYTES READ", "MILLIS"],
                lambda: (r[:7] + [human_bytes(r[7]), r[8]] for r in summary), set(range(1, 9)))
    out.write("\n")
    slots = _slowest(state, top)
    headers = ["CURSOR ID", "NS", "OPENED BY", "CMDS", "GETMORES", "NRETURNED", "DOCS EXAMINED",
               "KEYS EXAMINED", "BYTES READ", "MILLIS", "FIRST", "LAST", "FORMAT"]

    def body():
        for s in slots:
            r = state.row(s)
            opened = r["originatingCommand"]
            if r["changeStream"]:
                opened = "%s/$changeStream" % (opened or "aggregate")
            yield [r["cursorId"], r["ns"], opened, r["commands"], r["getMores"], r["nreturned"],
                   r["docsExamined"], r["keysExamined"], human_bytes(r["bytesRead"]),
                   r["durationMillis"], r["firstTime"], r["lastTime"], r["format"]]
    write_ranked(out, ("Cursors", "Slowest cursors"), len(state), len(slots), headers, body,
                 {0, 3, 4, 5, 6, 7, 8, 9})
