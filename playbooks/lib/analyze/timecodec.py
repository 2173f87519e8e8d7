"""Log times kept small: a time string is split into a template (its date and
zone, interned: a log has few) and its time of day as one integer, so a
report can keep first/last times per cursor in fixed-size arrays and still
print them exactly as the log wrote them."""

import re

from .common import UNKNOWN_TIME, time_key

HMS = re.compile(r"(\d\d):(\d\d):(\d\d)(\.\d{3})?")
DAY_MS = 86400000


class Times:
    __slots__ = ("templates", "ids", "bases")

    def __init__(self):
        self.templates = []   # id -> template text ("\0" marks h:m:s.ms, "\1" h:m:s)
        self.ids = {}         # template text -> id
        self.bases = []       # id -> epoch ms at 00:00 of that date, or UNKNOWN_TIME

    def _intern(self, template):
        tid = self.ids.get(template)
        if tid is None:
            tid = self.ids[template] = len(self.templates)
            self.templates.append(template)
            if "\0" in template or "\1" in template:
                probe = template.replace("\0", "00:00:00.000").replace("\1", "00:00:00")
                self.bases.append(time_key(probe))
            else:
                self.bases.append(UNKNOWN_TIME)
        return tid

    def encode(self, text):
        """(template id, time of day as HHMMSSmmm, sort key in epoch ms)."""
        if text is None:
            return -1, -1, UNKNOWN_TIME
        if (len(text) >= 23 and text[10] == "T" and text[13] == ":" and text[16] == ":"
                and text[19] == "." and text[20:23].isdigit()):
            # The JSON logs' layout, by position: no regex on the hot path.
            template = text[:11] + "\0" + text[23:]
            try:
                hms = int(text[11:13] + text[14:16] + text[17:19] + text[20:23])
            except ValueError:
                return self._encode_search(text)
            tid = self.ids.get(template)
            if tid is None:
                tid = self._intern(template)
        else:
            return self._encode_search(text)
        return tid, hms, self._key(tid, hms)

    def _encode_search(self, text):
        found = HMS.search(text)
        if not found:
            return self._intern(text), -1, UNKNOWN_TIME
        ms = found.group(4)
        template = text[:found.start()] + ("\0" if ms else "\1") + text[found.end():]
        hms = int(found.group(1) + found.group(2) + found.group(3) + (ms[1:] if ms else "000"))
        tid = self._intern(template)
        return tid, hms, self._key(tid, hms)

    def _key(self, tid, hms):
        base = self.bases[tid]
        if base == UNKNOWN_TIME:
            return UNKNOWN_TIME
        return base + ((hms // 10000000 * 60 + hms // 100000 % 100) * 60 + hms // 1000 % 100) * 1000 \
            + hms % 1000

    def decode_key(self, tid, hms):
        """The sort key of a time encode gave (tid, hms) for."""
        if tid < 0 or hms < 0:
            return UNKNOWN_TIME
        return self._key(tid, hms)

    def decode(self, tid, hms):
        if tid < 0:
            return None
        template = self.templates[tid]
        if hms < 0:
            return template
        clock = "%02d:%02d:%02d" % (hms // 10000000, hms // 100000 % 100, hms // 1000 % 100)
        if "\0" in template:
            return template.replace("\0", "%s.%03d" % (clock, hms % 1000))
        return template.replace("\1", clock)

    def remap(self, other):
        """Ids of other's templates in this table (for merging two scans)."""
        return [self._intern(t) for t in other.templates]
