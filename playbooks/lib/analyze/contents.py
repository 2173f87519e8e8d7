"""What a log holds, in a few figures, for a run that found nothing to
report: a MongoDB log with no line of the report's kind is no error (exit
0), and the DBA sees what was read instead (lines, components, first and
last time), one line per file.

JSON logs (4.4+): a line's time is the text of its leading
`{"t":{"$date":"...`, its component the `"c":"..."` in its first 256 bytes
(logv2 writes t, s, c, id first: src/mongo/logv2/json_formatter.cpp).
Text logs: the time and component of legacy.TEXT_LINE (2.x lines have no
component)."""

from . import legacy
from .source import line_spans

COMPONENT = b'"c":"'
DATE = b'{"t":{"$date":"'
HEAD = 256


class Contents:
    __slots__ = ("lines", "components", "first", "last")

    def __init__(self):
        self.lines = 0
        self.components = {}
        self.first = None
        self.last = None

    def time(self, stamp):
        if self.first is None:
            self.first = stamp
        self.last = stamp

    def component(self, name):
        self.components[name] = self.components.get(name, 0) + 1


def json_line(found, line):
    if line.startswith(DATE):
        end = line.find(b'"', len(DATE))
        if end != -1:
            found.time(line[len(DATE):end].decode("utf-8", "replace"))
    at = line.find(COMPONENT, 0, HEAD)
    if at != -1:
        end = line.find(b'"', at + len(COMPONENT))
        if end != -1:
            found.component(line[at + len(COMPONENT):end].decode("utf-8", "replace"))


def text_line(found, line):
    match = legacy.TEXT_LINE.match(line.decode("utf-8", "replace"))
    if match is None:
        return
    found.time(match.group("ts"))
    if match.group("comp"):
        found.component(match.group("comp"))


def read(source):
    """The Contents of a source read again from its start (a file, plain or
    gzip; stdin cannot be read twice: None)."""
    if source.path == "-":
        return None
    found = Contents()
    reader = json_line if source.json else text_line
    for buf, start, end, _ in line_spans(source.blocks()):
        chunk = buf[start:end]
        lines = chunk.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        found.lines += len(lines)
        for line in lines:
            reader(found, line)
    return found


def describe(source):
    """One line on what source holds."""
    found = read(source)
    if found is None:
        return "%s: read once (stdin), not summarised" % source.name
    text = "%s: %d line(s)" % (source.name, found.lines)
    if found.components:
        ranked = sorted(found.components.items(), key=lambda item: (-item[1], item[0]))
        text += "; components " + ", ".join("%s %d" % item for item in ranked)
    else:
        text += "; no MongoDB log component"
    if found.first is None:
        return text + "; no time stamp"
    return text + "; first %s, last %s" % (found.first, found.last)
