"""What every reader and report shares: the unparsable-line tally, integer
and time helpers, and the table printer."""

import re

MAX_EXAMPLES = 5


class Unparsable(Exception):
    """A line that looks like one the report wants but cannot be read."""


class Bad:
    """Counts the lines a report's filter matched and those it could not
    parse, keeping the first few places (source index, byte offset, reason)."""

    __slots__ = ("matched", "unparsable", "examples")

    def __init__(self):
        self.matched = 0
        self.unparsable = 0
        self.examples = []

    def skip(self, src, offset, reason):
        self.unparsable += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append((src, offset, reason))

    def merge(self, other):
        self.matched += other.matched
        self.unparsable += other.unparsable
        self.examples = sorted(self.examples + other.examples)[:MAX_EXAMPLES]


def seq_of(src, offset):
    """One integer that orders lines across files: file index, then offset."""
    return (src << 48) | offset


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


# ---------------------------------------------------------------- times --

ISO_TIME = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|([+-])(\d\d):?(\d\d))?$"
)
UNKNOWN_TIME = -1 << 62


def days_from_civil(year, month, day):
    # Howard Hinnant's days_from_civil: no datetime, no time zone database.
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def time_key(text):
    """Milliseconds since the epoch for an ISO-8601 log time; UNKNOWN_TIME
    when there is none (ctime stamps carry no year: they keep file order)."""
    if not text:
        return UNKNOWN_TIME
    match = ISO_TIME.match(text)
    if not match:
        return UNKNOWN_TIME
    year, month, day, hour, minute, sec = (int(x) for x in match.group(1, 2, 3, 4, 5, 6))
    frac = (match.group(7) or "0")[:3].ljust(3, "0")
    days = days_from_civil(year, month, day)
    value = (((days * 24 + hour) * 60 + minute) * 60 + sec) * 1000 + int(frac)
    if match.group(9):
        offset = (int(match.group(10)) * 60 + int(match.group(11))) * 60000
        value -= offset if match.group(9) == "+" else -offset
    return value


def earlier(a_key, a_seq, b_key, b_seq):
    """Is (a) before (b)? By time where both are known, else by file order."""
    if a_key != UNKNOWN_TIME and b_key != UNKNOWN_TIME and a_key != b_key:
        return a_key < b_key
    return a_seq < b_seq


# ---------------------------------------------------------------- stats --

def median(values):
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    value = ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return int(value) if value == int(value) else value


# ---------------------------------------------------------------- output --

def human_bytes(n):
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return ("%d %s" % (value, unit)) if unit == "B" else ("%.1f %s" % (value, unit))
        value /= 1024
    return str(n)


DEFAULT_TOP = 20  # rows a table shows unless --top N or --all says otherwise
MORE = "%d more rows not shown: --all or --top N\n"


def _text(value):
    return "-" if value is None else str(value)


def write_table(out, headers, rows, numeric):
    """An aligned table: widths in characters, numeric columns right-aligned,
    trailing spaces cut. rows is a function that gives the rows afresh on
    each call: they are made twice (widths, then lines) rather than kept,
    so that --all on a log of distinct cursors holds no table in memory."""
    widths = [len(h) for h in headers]
    for row in rows():
        for i, value in enumerate(row):
            n = len(_text(value))
            if n > widths[i]:
                widths[i] = n
    right = [i in numeric for i in range(len(headers))]

    def fmt(cells):
        return "  ".join(c.rjust(widths[i]) if right[i] else c.ljust(widths[i])
                         for i, c in enumerate(cells)).rstrip()

    out.write(fmt(headers) + "\n")
    chunk = []
    for row in rows():
        chunk.append(fmt([_text(v) for v in row]))
        if len(chunk) >= 256:  # lines joined for fewer writes, a few kB at a time
            out.write("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        out.write("\n".join(chunk) + "\n")


def write_ranked(out, titles, total, shown, headers, rows, numeric):
    """The rows a person reads first: titles is (the title of every row,
    the title of the first rows); the line after says how to see the rest."""
    if shown < total:
        out.write("%s (%d of %d)\n" % (titles[1], shown, total))
    else:
        out.write("%s (%d)\n" % (titles[0], total))
    write_table(out, headers, rows, numeric)
    if shown < total:
        out.write(MORE % (total - shown))
