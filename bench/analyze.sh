#!/usr/bin/env bash
# Benchmark: every playbooks/analyze report against jq and grep -F, on three
# kinds of JSON (4.4+) log, with time and peak memory.
#
#   bench/analyze.sh [--size-mb N] [--rounds R] [--logs few,all,distinct] [--reports LIST]
#
# Generates three logs of N MiB each (default 300) in a temporary directory,
# line by line with fresh random values (no repeated pool: gzip ratios and
# per-cursor memory stay those of a real log):
#   few       a busy mongod at default slowms: connections, client metadata,
#             WiredTiger checkpoints; 5% slow queries, 0.1% routing refreshes
#   all       slowms 0, as the playbooks run: every line a slow query
#             (find opening a cursor, its getMores, exhausted finds, updates)
#   distinct  every line a find that opened a cursor of its own
# Then, R rounds (default 3), each running in turn for every log and report
#   playbooks/analyze REPORT --json LOG
#   jq -c 'select(...) | [...]' LOG          (the same lines, a few fields)
#   LC_ALL=C grep -F NEEDLE LOG              (the report's needle: a floor)
# and prints per log and report the median wall seconds, MB/s and peak memory
# (RSS of the whole process tree, sampled from /proc every 10 ms, and at
# least the largest process's maxrss), the median CPU seconds (user + system,
# workers included), and the ratios: analyze against jq (goal: at least 10x)
# and against grep -F (goal: at least 25%), from wall time and from CPU time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly REPORTS_ALL="cursors,refresh,queries"
readonly LOGS_ALL="few,all,distinct"

usage() {
  sed -n '2,22s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
  printf 'bench/analyze: %s\n' "$*" >&2
  exit 2
}

# Writes SIZE_MB MiB of KIND log lines to FILE (deterministic: same seed, same file).
generate() {
  local kind="$1" file="$2" size_mb="$3"
  python3 - "$kind" "$file" "$size_mb" <<'PY'
import json, random, sys

kind, path, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(20221017 + len(kind))
target = size_mb << 20
dumps = json.JSONEncoder(separators=(",", ":")).encode
COLLS = ["orders", "customers", "carts", "events", "invoices", "items", "sessions", "audit"]
FIELDS = ["customerId", "status", "createdAt", "sku", "region", "total", "userId", "type", "tags"]


def stamp(ms):
    s, ms = divmod(ms, 1000)
    d, s = divmod(s, 86400)
    return "2024-05-%02dT%02d:%02d:%02d.%03d+00:00" % (1 + d % 28, s // 3600, s // 60 % 60, s % 60, ms)


def line(t, c, log_id, ctx, msg, attr):
    # The spacing of real mongod lines: padded after "s", "c" and "id".
    return '{"t":{"$date":"%s"},"s":"I",  "c":"%s",%s"id":%d,%s"ctx":"%s","msg":"%s","attr":%s}' % (
        stamp(t), c, " " * (9 - len(c)), log_id, " " * (8 - len(str(log_id))), ctx, msg, dumps(attr))


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


def a_filter():
    n = rng.choice((1, 1, 2, 2, 3))
    return {f: value(f) for f in rng.sample(FIELDS, n)}


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


def find(t, conn, cursor):
    coll = rng.choice(COLLS)
    lsid, cluster = common(t, conn)
    cmd = {"find": coll, "filter": a_filter(), "sort": {"createdAt": -1}, "limit": rng.choice((0, 50, 100)),
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
        elif kind == "all":
            text = slow(t, conn, live)
        else:
            r = rng.random()
            if r < 0.001:
                text = refresh(t, lines)
            elif r < 0.051:
                text = slow(t, conn, live)
            else:
                text = noise(t, conn)
        chunk.append(text)
        written += len(text) + 1
        lines += 1
        if len(chunk) >= 10000:
            out.write("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        out.write("\n".join(chunk) + "\n")
print(lines)
PY
}

# Runs a command with stdout to the file MEASURE_SINK; prints "seconds peak_MiB
# cpu_seconds" (wall time, peak RSS of the process tree, user + system time). Exit
# codes other than those in MEASURE_OK (default 0) are failures.
measure() {
  python3 - "$@" <<'PY'
import os, resource, subprocess, sys, time

def children(pid):
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out.extend(int(x) for x in f.read().split())
    except OSError:
        pass
    return out

def rss_tree(pid):
    total, todo, page = 0, [pid], os.sysconf("SC_PAGE_SIZE")
    while todo:
        p = todo.pop()
        try:
            with open("/proc/%d/statm" % p) as f:
                total += int(f.read().split()[1]) * page
        except OSError:
            pass
        todo.extend(children(p))
    return total

start = time.monotonic()
# Output goes to a real file: GNU grep stops at the first match when its
# output is /dev/null, even with -c.
sink = open(os.environ["MEASURE_SINK"], "wb")
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=sink)
peak = 0
while proc.poll() is None:
    peak = max(peak, rss_tree(proc.pid))
    time.sleep(0.01)
elapsed = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = max(peak, usage.ru_maxrss * 1024)
if proc.returncode not in [int(c) for c in os.environ.get("MEASURE_OK", "0").split()]:
    sys.exit("command failed (%d): %s" % (proc.returncode, " ".join(sys.argv[1:])))
# CPU: user + system time of the command and every process it waited for
# (analyze's workers included), which load on a shared machine changes far
# less than wall time.
print("%.3f %.1f %.3f" % (elapsed, peak / 1048576, usage.ru_utime + usage.ru_stime))
PY
}

jq_filter() {
  case "$1" in
    cursors) printf '%s' 'select(.id == 51803 and .attr.cursorid != null) | [.attr.cursorid, .attr.nreturned, .attr.docsExamined, .attr.durationMillis]' ;;
    refresh) printf '%s' 'select(.id == 4619901) | [.attr.namespace, .attr.durationMillis]' ;;
    queries) printf '%s' 'select(.id == 51803) | [.attr.ns, .attr.command.filter, .attr.durationMillis]' ;;
  esac
}

needle() {
  case "$1" in
    refresh) printf 'efresh' ;;
    *) printf '51803' ;;
  esac
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

main() {
  local size_mb=300 rounds=3 logs="$LOGS_ALL" reports="$REPORTS_ALL" tmp kind report round tool out
  while (($#)); do
    case "$1" in
      -h|--help) usage; return 0 ;;
      --size-mb) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--size-mb needs a number of MiB"; size_mb="$2"; shift ;;
      --rounds) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive number"; rounds="$2"; shift ;;
      --logs) [[ $# -ge 2 ]] || die "--logs needs a list"; logs="$2"; shift ;;
      --reports) [[ $# -ge 2 ]] || die "--reports needs a list"; reports="$2"; shift ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  command -v jq >/dev/null || die "jq is needed for the comparison"

  tmp="$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-analyze-bench.XXXXXX")"
  export MEASURE_SINK="${tmp}/out"
  # shellcheck disable=SC2064  # expand now: the path is fixed from here on
  trap "rm -rf -- '$tmp'" EXIT
  local -a kinds report_list
  IFS=, read -r -a kinds <<<"$logs"
  IFS=, read -r -a report_list <<<"$reports"
  for kind in "${kinds[@]}"; do
    printf 'generating %s: %d MiB ... ' "$kind" "$size_mb" >&2
    printf '%s lines\n' "$(generate "$kind" "${tmp}/${kind}.log" "$size_mb")" >&2
  done

  # Rounds alternate the tools (each round starts with another one) so that
  # neither always runs on a cold cache or a busier machine.
  local -a tools=(analyze jq grep)
  for ((round = 0; round < rounds; round++)); do
    for kind in "${kinds[@]}"; do
      cat -- "${tmp}/${kind}.log" >/dev/null
      for report in "${report_list[@]}"; do
        local i
        for i in 0 1 2; do
          tool="${tools[$(((i + round) % 3))]}"
          case "$tool" in
            analyze) out="$(measure "${ROOT}/playbooks/analyze" "$report" --json "${tmp}/${kind}.log")" ;;
            jq) out="$(measure jq -c "$(jq_filter "$report")" "${tmp}/${kind}.log")" ;;
            grep) out="$(MEASURE_OK="0 1" measure env LC_ALL=C grep -F "$(needle "$report")" "${tmp}/${kind}.log")" ;;
          esac
          printf '%s %s %s %s\n' "$kind" "$report" "$tool" "$out" >>"${tmp}/runs"
          printf 'round %d  %-8s %-8s %-8s %s\n' "$((round + 1))" "$kind" "$report" "$tool" "$out" >&2
        done
      done
    done
  done

  printf '\n%-9s %-8s %8s %7s %6s %6s %6s %7s %6s %6s %6s %6s %7s %7s\n' LOG REPORT "ANALYZE" "CPU" "MB/s" "PEAK" "JQ" "JQ CPU" "GREP" "G CPU" "x JQ" "x JQc" "% GREP" "% GREPc"
  local mb a_s a_c a_mem j_s j_c g_s g_c
  for kind in "${kinds[@]}"; do
    mb=$(( $(wc -c <"${tmp}/${kind}.log") / 1048576 ))
    for report in "${report_list[@]}"; do
      a_s=$(runs_median "${tmp}/runs" "$kind" "$report" analyze 4)
      a_c=$(runs_median "${tmp}/runs" "$kind" "$report" analyze 6)
      a_mem=$(awk -v k="$kind" -v r="$report" '$1 == k && $2 == r && $3 == "analyze" { print $5 }' "${tmp}/runs" | sort -g | tail -n 1)
      j_s=$(runs_median "${tmp}/runs" "$kind" "$report" jq 4)
      j_c=$(runs_median "${tmp}/runs" "$kind" "$report" jq 6)
      g_s=$(runs_median "${tmp}/runs" "$kind" "$report" grep 4)
      g_c=$(runs_median "${tmp}/runs" "$kind" "$report" grep 6)
      awk -v k="$kind" -v r="$report" -v mb="$mb" -v a="$a_s" -v ac="$a_c" -v m="$a_mem" -v j="$j_s" -v jc="$j_c" -v g="$g_s" -v gc="$g_c" 'BEGIN {
        printf "%-9s %-8s %8.2f %7.2f %6.0f %6.0f %6.2f %7.2f %6.2f %6.2f %5.1fx %5.1fx %6.0f%% %6.0f%%\n", k, r, a, ac, mb / a, m, j, jc, g, gc, j / a, jc / ac, 100 * g / a, 100 * gc / ac }'
    done
  done
  printf '\n%d MiB per log, %d round(s), medians; seconds are wall (ANALYZE, JQ, GREP) and user + system CPU (CPU, JQ CPU, G CPU); PEAK = MiB, largest analyze run.\n' "$size_mb" "$rounds"
  printf 'Goals: x JQ >= 10 and %% GREP >= 25 (wall, as the issue measures; x JQc and %% GREPc are the same from CPU time, steadier on a loaded machine).\n'
}

# The median of field FIELD over the runs of LOG, REPORT and TOOL in RUNS_FILE.
runs_median() {
  local runs_file="$1" kind="$2" report="$3" tool="$4" field="$5"
  awk -v k="$kind" -v r="$report" -v t="$tool" -v f="$field" '$1 == k && $2 == r && $3 == t { print $f }' "$runs_file" | median
}

main "$@"
