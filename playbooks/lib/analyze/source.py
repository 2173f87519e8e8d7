"""Reading log files: plain (whole or a byte range, for parallel scans),
gzip (every member in turn, sequential by nature) and stdin; finding the
lines that hold a report's needle without a per-line Python loop; telling a
log from a file that is not one."""

import os
import re
import sys
import zlib

from . import legacy

READ_SIZE = 2 << 20
GUNZIP_OUT_MAX = 32 << 20
SNIFF_BYTES = 64 << 10

# The start of a log line of any server generation. A JSON one (4.4+) is an
# object whose first member is "t": logv2 writes t, s, c, id first
# (src/mongo/logv2/json_formatter.cpp), and a results.json or other JSON
# lines do not. Its quotes may be typographic (a log pasted through a word
# processor), so that such a log is read and its lines counted unparsable.
# A text one (2.2 to 4.2) has legacy.TEXT_HEAD: time, [severity component],
# [context]; a line with a time alone (a playbook's run.log) is not one.
QUOTE = rb'(?:"|\xe2\x80[\x9c\x9d])'
LOG_LINE_START = re.compile(
    rb"^(?:\s*\{\s*" + QUOTE + rb"t" + QUOTE + rb"\s*:|" + legacy.TEXT_HEAD.encode() + rb")"
)
TIMED_LINE = re.compile(rb"^(?:" + legacy.TIME.encode() + rb")")
# What to pass instead of a file that is not a log.
PASS_A_LOG = "pass the log file of a mongod or mongos: the one its --logpath (systemLog.path) names"


class NotALog(Exception):
    """A file that is not a MongoDB log: str() says why, hint (if any) what
    to pass instead."""

    def __init__(self, reason, hint=None):
        super().__init__(reason)
        self.hint = hint


def looks_like(text, lines):
    """What the start of a file that holds no log line looks like."""
    if b"\0" in text[:4096]:
        return "binary data"
    first = next((line.strip() for line in lines if line.strip()), b"")
    if first == b"{" or first.startswith(b"["):
        return "a JSON document, such as a report's results.json"
    if first.startswith(b"{"):
        return 'JSON lines, but none is a MongoDB log line, which starts {"t":{"$date":...'
    if any(TIMED_LINE.match(line) for line in lines):
        return "text lines that start with a time, but not in a MongoDB log's layout, such as a playbook's run.log"
    return "text, but no line of it is a MongoDB log line"


class Source:
    """One input: a path or '-' (stdin)."""

    def __init__(self, path, index=0):
        self.path = path
        self.index = index
        self.name = "(stdin)" if path == "-" else path
        self.compressed = False
        self.warnings = []
        self.failed = False
        self.size = None
        self._stdin_head = None
        self.json = True

    def sniff(self):
        """Reads the start (decompressed) and raises NotALog when none of
        its lines is a log line. Sets .compressed and .size."""
        if self.path == "-":
            stream = sys.stdin.buffer
            head = stream.read(SNIFF_BYTES)
            self._stdin_head = head
        else:
            with open(self.path, "rb") as stream:
                head = stream.read(SNIFF_BYTES)
                self.size = os.fstat(stream.fileno()).st_size
        text = head
        if head[:2] == b"\x1f\x8b":
            self.compressed = True
            try:
                text = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFF_BYTES)
            except zlib.error:
                raise NotALog("gzip data is corrupt from the start")
        if not text.strip():
            return
        lines = text.split(b"\n")
        if len(lines) > 1 and len(text) >= SNIFF_BYTES:
            lines.pop()  # maybe cut by the sniff window
        lines = lines[:200]
        for line in lines:
            if LOG_LINE_START.match(line):
                self.json = line.lstrip()[:1] == b"{"
                return
        raise NotALog("not a MongoDB log (%s)" % looks_like(text, lines), PASS_A_LOG)

    def splittable(self):
        return self.path != "-" and not self.compressed and self.size is not None

    # -- raw blocks --

    def _stream_blocks(self, stream, first=b""):
        if first:
            yield first
        while True:
            block = stream.read(READ_SIZE)
            if not block:
                return
            yield block

    def blocks(self, start=0, end=None):
        """Decompressed blocks. A byte range applies to plain files only."""
        if self.path == "-":
            raw = self._stream_blocks(sys.stdin.buffer, self._stdin_head or b"")
            yield from (self._gunzip(raw) if self.compressed else raw)
            return
        with open(self.path, "rb") as stream:
            if self.compressed:
                yield from self._gunzip(self._stream_blocks(stream))
                return
            stream.seek(start)
            left = None if end is None else end - start
            while left is None or left > 0:
                block = stream.read(READ_SIZE if left is None else min(READ_SIZE, left))
                if not block:
                    return
                if left is not None:
                    left -= len(block)
                yield block

    def _gunzip(self, raw):
        """Every gzip member in turn (logrotate and cat make multi-member
        files), in bounded pieces so that a bomb cannot eat memory."""
        decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = b""
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


def line_start_after(path, offset):
    """The offset of the first line that starts at or after offset."""
    if offset == 0:
        return 0
    with open(path, "rb") as stream:
        stream.seek(offset - 1)
        pos = offset - 1
        while True:
            block = stream.read(1 << 16)
            if not block:
                return pos
            nl = block.find(b"\n")
            if nl != -1:
                return pos + nl + 1
            pos += len(block)


def ranges(source, parts, min_part=16 << 20):
    """Byte ranges of a plain file, aligned to line starts, for parallel
    scans; one range when the file is small."""
    size = source.size or 0
    parts = max(1, min(parts, size // min_part))
    cuts = [0] + [line_start_after(source.path, size * i // parts) for i in range(1, parts)] + [size]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def matching_lines(blocks, needle, base=0):
    """matching_lines_any for one needle."""
    return matching_lines_any(blocks, (needle,), base)


def line_spans(blocks, base=0):
    """Yields (buf, start, end, offset) where buf[start:end] holds whole
    lines only and offset is where buf starts in the stream: each block in
    place, and the line that straddles two blocks as a small buffer of its
    own. For reports that read many lines per call (a regex over a block)."""
    carry = b""
    for block in blocks:
        first_nl = block.find(b"\n")
        if first_nl == -1:
            carry += block
            base += len(block)
            continue
        head = carry + block[:first_nl + 1]
        yield head, 0, len(head), base - len(carry)
        end = block.rfind(b"\n") + 1
        if end > first_nl + 1:
            yield block, first_nl + 1, end, base
        carry = block[end:]
        base += len(block)
    if carry:
        yield carry, 0, len(carry), base - len(carry)


def sparse(buf, start, end, needles, sample=1 << 16):
    """Do fewer than one line in four of the start of buf[start:end] hold a
    needle? Then a regex over the block costs more than it saves: it tries
    every line, and the lines that matter are few."""
    stop = min(end, start + sample)
    hits = sum(buf.count(needle, start, stop) for needle in needles)
    return hits * 4 < buf.count(b"\n", start, stop)


def line_numbers(path, offsets):
    """Line numbers (1-based) of byte offsets of a plain file, in one pass
    that stops at the last offset."""
    wanted = sorted(set(offsets))
    found = {}
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


def matching_lines_any(blocks, needles, base=0):
    """Yields (offset, line) for each line holding one of needles, once and
    in order; offset is where the line starts in the (decompressed) stream,
    and one trailing \\r is dropped (as the Go engine does). Blocks are
    searched in place with bytes.find (line_spans copies only the line that
    straddles two blocks) and newlines are never counted."""
    for buf, start, end, offset in line_spans(blocks, base):
        if len(needles) == 1:
            found = line_bounds(buf, start, end, needles[0])
        else:
            found = sorted(dict(bound for needle in needles for bound in line_bounds(buf, start, end, needle)).items())
        for line_start, line_end in found:
            if line_end > line_start and buf[line_end - 1] == 13:  # b"\r"
                line_end -= 1
            yield offset + line_start, buf[line_start:line_end]


def line_bounds(buf, start, end, needle):
    """Yields (start, end) of each line of buf[start:end] (whole lines) that
    holds needle, in order, each once; end excludes the newline."""
    find = buf.find
    hit = find(needle, start, end)
    while hit != -1:
        line_start = buf.rfind(b"\n", start, hit) + 1 or start
        stop = find(b"\n", hit, end)
        if stop == -1:
            stop = end
        yield line_start, stop
        hit = find(needle, stop + 1, end)


def feed_matching(feed, src, buf, start, end, base, needles):
    """Calls feed(src, offset, line) for each line of buf[start:end] that holds
    one of needles (the reports' slow path, behind their block regexes); a
    range without any needle costs one bytes.find per needle."""
    for needle in needles:
        if buf.find(needle, start, end) != -1:
            break
    else:
        return
    for offset, line in matching_lines_any((buf[start:end],), needles, base + start):
        feed(src, offset, line)
