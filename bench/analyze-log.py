#!/usr/bin/env python3
"""bench/analyze-log.py KIND FILE SIZE_KIB: writes a synthetic JSON (4.4+)
mongod log for playbooks/analyze's benchmark and its engine comparison tests,
line by line with fresh random values (no repeated pool: gzip ratios and
per-cursor memory stay those of a real log); the same arguments give the
same file. KIND:
  few       a busy mongod at default slowms: connections, client metadata,
            WiredTiger checkpoints; 5% slow queries, 0.1% routing refreshes
  all       slowms 0, as the playbooks run: every line a slow query
            (find opening a cursor, its getMores, exhausted finds, updates)
  distinct  every line a find that opened a cursor of its own
  shapes    every line a find of a query shape of its own (a filter on a
            field whose name is made per document, as `attrs.<key>`):
            as many `queries` groups as lines
  refreshes every line a routing table refresh (a mongos whose every
            refresh is logged: the line `refresh` reads)
  KIND-text (all-text, few-text, distinct-text, shapes-text,
            refreshes-text) the legacy text twin of KIND: the same events
            (same seed, same values, as many lines as the JSON log of
            SIZE_KIB holds, so the file is smaller) written as MongoDB 4.2
            logs them: "TIME I  COMPONENT [ctx] message"; slow operations
            in the string form of r4.2 src/mongo/db/curop.cpp
            OpDebug::report (`command NS appName: "…" command: find { … }
            originatingCommand: { … } planSummary: … cursorid:N
            keysExamined:N docsExamined:N cursorExhausted:1 numYields:N
            nreturned:N queryHash:H planCacheKey:H reslen:N locks:{ … }
            storage:{ … } protocol:op_msg Nms`, BSON in BSONObj::toString
            form: UUID("…"), Timestamp(t, i), BinData(0, HEX), new
            Date(ms)); routing refreshes as r4.2
            src/mongo/s/catalog_cache.cpp logs them (`Refresh for
            collection NS from version A|B||EPOCH to version C|D||EPOCH
            took N ms`): the layouts of the fixtures
            tests/fixtures/logs/queries-4.2.derived.text.log and
            refresh-4.2-mongod.log. What 4.2's text line does not carry is
            left out: remote, readConcern, a getMore's queryHash and
            planCacheKey, an update's nreturned and reslen.
Prints the number of lines written. The lines follow the layout of real
mongod lines (the attribute order of OpDebug::report); they are not a
server's output and are never used as evidence about a server.
"""
import base64, calendar, json, random, sys

KINDS = ("few", "all", "distinct", "shapes", "refreshes")
if len(sys.argv) != 4 or sys.argv[1] not in KINDS + tuple(k + "-text" for k in KINDS) or not sys.argv[3].isdigit():
    sys.exit("usage: bench/analyze-log.py KIND[-text] FILE SIZE_KIB (KIND: %s)" % ", ".join(KINDS))
kind, path, size_kib = sys.argv[1], sys.argv[2], int(sys.argv[3])
text_twin = kind.endswith("-text")
kind = kind[:-len("-text")] if text_twin else kind
# Seeded by the JSON kind: a text twin draws the very same values.
rng = random.Random(20221017 + len(kind))
target = size_kib << 10
dumps = json.JSONEncoder(separators=(",", ":")).encode
COLLS = ["orders", "customers", "carts", "events", "invoices", "items", "sessions", "audit"]
FIELDS = ["customerId", "status", "createdAt", "sku", "region", "total", "userId", "type", "tags"]


def stamp(ms):
    s, ms = divmod(ms, 1000)
    d, s = divmod(s, 86400)
    return "2024-05-%02dT%02d:%02d:%02d.%03d+00:00" % (1 + d % 28, s // 3600, s // 60 % 60, s % 60, ms)


def line(t, c, log_id, ctx, msg, attr):
    """An event: written as JSON by json_line, as 4.2 text by text_line."""
    return t, c, log_id, ctx, msg, attr


def json_line(t, c, log_id, ctx, msg, attr):
    # The spacing of real mongod lines: padded after "s", "c" and "id".
    return '{"t":{"$date":"%s"},"s":"I",  "c":"%s",%s"id":%d,%s"ctx":"%s","msg":"%s","attr":%s}' % (
        stamp(t), c, " " * (9 - len(c)), log_id, " " * (8 - len(str(log_id))), ctx, msg, dumps(attr))


def bson_text(value):
    """value (extended JSON as this script writes it) as r4.2 BSONObj::toString
    writes it, the way 4.2 text lines carry commands."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[ %s ]" % ", ".join(bson_text(v) for v in value) if value else "[]"
    if len(value) == 1:
        (key, inner), = value.items()
        if key == "$date":
            return "new Date(%d)" % date_millis(inner)
        if key == "$uuid":
            return 'UUID("%s")' % inner
        if key == "$timestamp":
            return "Timestamp(%d, %d)" % (inner["t"], inner["i"])
        if key == "$oid":
            return "ObjectId('%s')" % inner
        if key == "$binary":
            return "BinData(%s, %s)" % (int(inner["subType"], 16), base64.b64decode(inner["base64"]).hex().upper())
    if not value:
        return "{}"
    return "{ %s }" % ", ".join("%s: %s" % (k, bson_text(v)) for k, v in value.items())


def date_millis(text):
    day, clock = text[:10], text[11:23]
    whole = calendar.timegm(tuple(int(x) for x in day.split("-")) + tuple(int(x) for x in clock[:8].split(":")))
    return whole * 1000 + int(clock[9:12])


def version_text(version):
    # ChunkVersion::toString: major|minor||epoch.
    return "%d|%d||%s" % (version["0"]["$timestamp"]["t"], version["0"]["$timestamp"]["i"], version["1"]["$oid"])


def slow_text(attr):
    """OpDebug::report's string form (r4.2 src/mongo/db/curop.cpp), in its order."""
    command = attr["type"] == "command"
    out = ["command" if command else attr["type"], " ", attr["ns"], ' appName: "%s"' % attr["appName"], " command: "]
    if command:
        out.append(next(iter(attr["command"])) + " ")
    out.append(bson_text(attr["command"]))
    if "originatingCommand" in attr:
        out.append(" originatingCommand: " + bson_text(attr["originatingCommand"]))
    out.append(" planSummary: " + attr["planSummary"])
    if "cursorid" in attr:
        out.append(" cursorid:%d" % attr["cursorid"])
    out.append(" keysExamined:%d docsExamined:%d" % (attr["keysExamined"], attr["docsExamined"]))
    if attr.get("cursorExhausted"):
        out.append(" cursorExhausted:1")
    out.append(" numYields:%d" % attr["numYields"])
    if command:
        out.append(" nreturned:%d" % attr["nreturned"])
    # As real 4.2 lines show it: after nreturned, and not on a getMore.
    if "originatingCommand" not in attr:
        out.append(" queryHash:%s planCacheKey:%s" % (attr["queryHash"], attr["planCacheKey"]))
    if command:
        out.append(" reslen:%d" % attr["reslen"])
    out.append(" locks:" + bson_text(attr["locks"]) + " storage:" + bson_text(attr["storage"]))
    if command:
        out.append(" protocol:" + attr["protocol"])
    out.append(" %dms" % attr["durationMillis"])
    return "".join(out)


def text_line(t, c, log_id, ctx, msg, attr):
    """The event as MongoDB 4.2 writes it to a text log."""
    if log_id == 51803:
        body = slow_text(attr)
    elif log_id == 4619901:
        # 4.2 logs it from a loader thread, as the real lines of
        # refresh-4.2-mongod.log show.
        c, ctx = "SH_REFR", "ConfigServerCatalogCacheLoader-%s" % ctx.rsplit("-", 1)[1]
        body = "Refresh for collection %s from version %s to version %s took %d ms" % (
            attr["namespace"], version_text(attr["lookupSinceVersion"]),
            version_text(attr["newVersion"]["chunkVersion"]), attr["durationMillis"])
    elif log_id == 22943:
        body = "connection accepted from %s #%d (%d connections now open)" % (
            attr["remote"], attr["connectionId"], attr["connectionCount"])
    elif log_id == 22944:
        body = "end connection %s (%d connections now open)" % (attr["remote"], attr["connectionCount"])
    elif log_id == 51800:
        body = "received client metadata from %s %s: %s" % (attr["remote"], attr["client"], bson_text(attr["doc"]))
    else:
        wt = attr["message"]
        ctx = "WTCheckpointThread"
        body = "WiredTiger message [%d:%d][%s], %s: %s" % (
            wt["ts_sec"], wt["ts_usec"], wt["thread"], wt["session_name"], wt["msg"])
    # r4.2 text: "{time} {severity:<2} {component:<8} [{context}] {message}",
    # times in ISO-8601 with a +HHMM offset.
    return "%s+0000 I  %-8s [%s] %s" % (stamp(t)[:-6], c, ctx, body)


def value(field):
    r = rng.random()
    if field in ("status", "region", "type"):
        return rng.choice(["open", "closed", "pending", "shipped", "eu-west", "us-east", "a", "b"])
    if field == "createdAt":
        return {"$date": stamp(rng.randrange(10 ** 9))}
    if field == "tags":
        return {"$in": [rng.choice("abcdefgh") for _ in range(rng.randint(1, 4))]}
    if r < 0.2:
        return {"$gte": rng.randrange(10 ** 6)}
    return rng.randrange(10 ** 7)


def a_filter(own=None):
    n = rng.choice((1, 1, 2, 2, 3))
    spec = {f: value(f) for f in rng.sample(FIELDS, n)}
    if own is not None:
        spec["attrs.%x" % own] = rng.randrange(10 ** 6)
    return spec


def common(t, conn):
    lsid = {"id": {"$uuid": "%08x-%04x-4%03x-8%03x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12), rng.getrandbits(12), rng.getrandbits(48))}}
    cluster = {"clusterTime": {"$timestamp": {"t": 1714521600 + t // 1000, "i": rng.randint(1, 9)}},
               "signature": {"hash": {"$binary": {"base64": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "subType": "0"}},
                             "keyId": 0}}
    return lsid, cluster


def metrics(attr, docs, keys, nret, ms):
    attr.update({"keysExamined": keys, "docsExamined": docs, "numYields": docs // 128, "nreturned": nret,
                 "queryHash": "%08X" % rng.getrandbits(32), "planCacheKey": "%08X" % rng.getrandbits(32),
                 "reslen": 200 + nret * rng.randint(80, 400),
                 "locks": {"FeatureCompatibilityVersion": {"acquireCount": {"r": 1 + docs // 128}},
                           "Global": {"acquireCount": {"r": 1 + docs // 128}}, "Mutex": {"acquireCount": {"r": 1}}},
                 "readConcern": {"level": "local", "provenance": "implicitDefault"},
                 "storage": {"data": {"bytesRead": docs * rng.randint(0, 900), "timeReadingMicros": rng.randint(0, 9000)}},
                 "remote": "10.0.%d.%d:%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1024, 65535)),
                 "protocol": "op_msg", "durationMillis": ms})
    return attr


def duration():
    return int(rng.lognormvariate(4, 1.2))


def find(t, conn, cursor, own=None):
    coll = rng.choice(COLLS)
    lsid, cluster = common(t, conn)
    cmd = {"find": coll, "filter": a_filter(own), "sort": {"createdAt": -1}, "limit": rng.choice((0, 50, 100)),
           "batchSize": 101, "lsid": lsid, "$clusterTime": cluster, "$db": "shop"}
    attr = {"type": "command", "ns": "shop." + coll, "appName": "orders-api", "command": cmd,
            "planSummary": rng.choice(["IXSCAN { customerId: 1, createdAt: -1 }", "COLLSCAN", "IXSCAN { status: 1 }"])}
    docs = rng.randint(1, 20000)
    if cursor:
        attr["cursorid"] = cursor
    else:
        attr["cursorExhausted"] = True
    return cmd, line(t, "COMMAND", 51803, conn, "Slow query",
                     metrics(attr, docs, rng.randint(0, docs), 101 if cursor else rng.randint(0, 100), duration()))


def getmore(t, conn, cursor, origin):
    coll = origin["find"]
    lsid, cluster = common(t, conn)
    attr = {"type": "command", "ns": "shop." + coll, "appName": "orders-api",
            "command": {"getMore": cursor, "collection": coll, "batchSize": 101, "lsid": lsid,
                        "$clusterTime": cluster, "$db": "shop"},
            "originatingCommand": origin, "planSummary": "COLLSCAN", "cursorid": cursor}
    docs = rng.randint(1, 5000)
    return line(t, "COMMAND", 51803, conn, "Slow query", metrics(attr, docs, 0, rng.randint(1, 101), duration()))


def update(t, conn):
    coll = rng.choice(COLLS)
    attr = {"type": "update", "ns": "shop." + coll, "appName": "orders-api",
            "command": {"q": a_filter(), "u": {"$set": {"status": "shipped", "n": rng.randrange(10 ** 6)}},
                        "multi": False, "upsert": False}, "planSummary": "IXSCAN { customerId: 1 }"}
    return line(t, "WRITE", 51803, conn, "Slow query", metrics(attr, 1, 1, 0, duration()))


def noise(t, conn):
    r = rng.random()
    remote = "10.0.%d.%d:%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1024, 65535))
    if r < 0.35:
        return line(t, "NETWORK", 22943, "listener", "Connection accepted", {
            "remote": remote, "uuid": {"uuid": {"$uuid": "14c4f916-957f-4245-8106-%012x" % rng.getrandbits(48)}},
            "connectionId": rng.randint(1, 10 ** 6), "connectionCount": rng.randint(1, 3000)})
    if r < 0.6:
        return line(t, "NETWORK", 51800, conn, "client metadata", {
            "remote": remote, "client": conn, "negotiatedCompressors": [],
            "doc": {"driver": {"name": "nodejs", "version": "6.%d.0" % rng.randint(0, 9)},
                    "os": {"type": "Linux", "name": "linux", "architecture": "x64", "version": "5.15.0-%d" % rng.randint(1, 99)},
                    "platform": "Node.js v20.11.0, LE", "application": {"name": "orders-api"}}})
    if r < 0.9:
        return line(t, "NETWORK", 22944, conn, "Connection ended", {
            "remote": remote, "uuid": {"uuid": {"$uuid": "14c4f916-957f-4245-8106-%012x" % rng.getrandbits(48)}},
            "connectionId": rng.randint(1, 10 ** 6), "connectionCount": rng.randint(1, 3000)})
    return line(t, "STORAGE", 22430, "Checkpointer", "WiredTiger message", {"message": {
        "ts_sec": 1714521600 + t // 1000, "ts_usec": rng.randint(0, 999999), "thread": "1:0x7f%x" % rng.getrandbits(32),
        "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS", "category_id": 6,
        "verbose_level": "DEBUG_1", "verbose_level_id": 1,
        "msg": "saving checkpoint snapshot min: %d, snapshot max: %d" % (t, t + 3)}})


def refresh(t, n):
    def version(major):
        return {"0": {"$timestamp": {"t": major, "i": rng.randint(0, 9)}}, "1": {"$oid": "626a663821072b82d9059209"},
                "2": {"$timestamp": {"t": 1651140151, "i": 6}}}
    return line(t, "SH_REFR", 4619901, "CatalogCache-%d" % (n % 7), "Refreshed cached collection", {
        "namespace": "shop." + rng.choice(COLLS), "lookupSinceVersion": version(900 + n),
        "newVersion": {"chunkVersion": version(901 + n), "forcedRefreshSequenceNum": 15,
                       "epochDisambiguatingSequenceNum": n},
        "timeInStore": {"chunkVersion": "None", "forcedRefreshSequenceNum": 15, "epochDisambiguatingSequenceNum": n},
        "durationMillis": int(rng.lognormvariate(5, 1.5))})


def slow(t, conn, live):
    r = rng.random()
    if r < 0.5 and live:
        key = rng.choice(list(live))
        origin, left = live[key]
        if left <= 1:
            del live[key]
        else:
            live[key] = (origin, left - 1)
        return getmore(t, conn, key, origin)
    if r < 0.75:
        cursor = rng.getrandbits(63) or 1
        cmd, text = find(t, conn, cursor)
        if len(live) < 2000:
            live[cursor] = (cmd, rng.randint(1, 30))
        return text
    if r < 0.9:
        return find(t, conn, 0)[1]
    return update(t, conn)


written = lines = matches = 0
t = 0
live = {}
with open(path, "w") as out:
    chunk = []
    while written < target:
        t += rng.randint(0, 3)
        conn = "conn%d" % rng.randint(1, 5000)
        if kind == "distinct":
            text = find(t, conn, rng.getrandbits(63) or 1)[1]
        elif kind == "shapes":
            text = find(t, conn, rng.choice((0, rng.getrandbits(63) or 1)), own=lines)[1]
        elif kind == "all":
            text = slow(t, conn, live)
        elif kind == "refreshes":
            text = refresh(t, lines)
        else:
            r = rng.random()
            if r < 0.001:
                text = refresh(t, lines)
            elif r < 0.051:
                text = slow(t, conn, live)
            else:
                text = noise(t, conn)
        as_json = json_line(*text)
        chunk.append(text_line(*text) if text_twin else as_json)
        # The twin stops where the JSON log would: the same events.
        written += len(as_json) + 1
        lines += 1
        if len(chunk) >= 10000:
            out.write("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        out.write("\n".join(chunk) + "\n")
print(lines)
