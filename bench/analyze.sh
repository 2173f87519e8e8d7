#!/usr/bin/env bash
# Benchmark: playbooks/analyze refresh against a naive jq pass on a big JSON log.
#
#   bench/analyze.sh [--size-mb N] [LOGFILE]
#
# Without LOGFILE it generates a JSON (4.4+ format) log of N MiB (default 1024)
# in a temporary directory, where about one line in 20,000 is a routing refresh
# (id 4619901) and the rest are the usual noise of a busy mongod (slow queries,
# connections, WiredTiger, access control). It then times
#   playbooks/analyze refresh --json LOG
#   jq -c 'select(.id==4619901)' LOG
# checks that both found the same number of refreshes, prints the figures and
# the speed-up, and deletes the generated file. Goal: at least 10x.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

usage() {
  sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
  printf 'bench/analyze: %s\n' "$*" >&2
  exit 2
}

now() {
  date +%s.%N
}

elapsed() {
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

# Writes SIZE_MB MiB of log lines to FILE (deterministic: same seed, same file).
generate() {
  local file="$1" size_mb="$2"
  python3 - "$file" "$size_mb" <<'PY'
import json, random, sys

path, size_mb = sys.argv[1], int(sys.argv[2])
rng = random.Random(20221017)
target = size_mb << 20

def stamp(i):
    s = i // 50
    return "2024-05-%02dT%02d:%02d:%02d.%03d+00:00" % (
        1 + (s // 86400) % 28, (s // 3600) % 24, (s // 60) % 60, s % 60, i % 1000)

def line(t, s, c, log_id, ctx, msg, attr):
    # The spacing of real mongod lines: padded after "s", "c" and "id".
    return ('{"t":{"$date":"%s"},"s":"%s",  "c":"%s", "id":%d,   "ctx":"%s","msg":"%s","attr":%s}'
            % (t, s, c.ljust(8)[:8].rstrip(), log_id, ctx, msg, json.dumps(attr, separators=(",", ":"))))

def noise(i):
    kind = rng.random()
    conn = "conn%d" % rng.randint(1, 5000)
    if kind < 0.45:
        cid = rng.getrandbits(63)
        return line(stamp(i), "I", "COMMAND", 51803, conn, "Slow query", {
            "type": "command", "ns": "shop.orders", "appName": "orders-api",
            "command": {"find": "orders", "filter": {"customerId": rng.randint(1, 10**6), "status": "open"},
                        "sort": {"createdAt": -1}, "limit": 50, "lsid": {"id": {"$uuid": "4a230956-9cbe-48a9-9093-8c2fae2b659f"}},
                        "$clusterTime": {"clusterTime": {"$timestamp": {"t": 1714521600 + i // 50, "i": 1}}}, "$db": "shop"},
            "planSummary": "IXSCAN { customerId: 1, createdAt: -1 }", "cursorid": cid,
            "keysExamined": rng.randint(1, 500), "docsExamined": rng.randint(1, 500), "numYields": rng.randint(0, 5),
            "nreturned": 50, "queryHash": "7C2ADF3A", "planCacheKey": "A1B2C3D4", "reslen": rng.randint(2000, 90000),
            "locks": {"Global": {"acquireCount": {"r": 2}}}, "storage": {"data": {"bytesRead": rng.randint(0, 10**7)}},
            "remote": "10.0.%d.%d:%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1024, 65535)),
            "protocol": "op_msg", "durationMillis": rng.randint(100, 3000)})
    if kind < 0.65:
        return line(stamp(i), "I", "NETWORK", 22943, "listener", "Connection accepted", {
            "remote": "10.0.%d.%d:%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1024, 65535)),
            "uuid": "14c4f916-957f-4245-8106-b617b17fa603", "connectionId": rng.randint(1, 10**6),
            "connectionCount": rng.randint(1, 3000)})
    if kind < 0.80:
        return line(stamp(i), "I", "NETWORK", 51800, conn, "client metadata", {
            "remote": "10.0.1.2:51234", "client": conn, "doc": {"driver": {"name": "nodejs", "version": "6.3.0"},
            "os": {"type": "Linux", "name": "linux", "architecture": "x64", "version": "5.15.0"},
            "platform": "Node.js v20.11.0, LE", "application": {"name": "orders-api"}}})
    if kind < 0.92:
        return line(stamp(i), "I", "NETWORK", 22944, conn, "Connection ended", {
            "remote": "10.0.1.2:51234", "uuid": "14c4f916-957f-4245-8106-b617b17fa603",
            "connectionId": rng.randint(1, 10**6), "connectionCount": rng.randint(1, 3000)})
    if kind < 0.97:
        return line(stamp(i), "I", "STORAGE", 22430, "Checkpointer", "WiredTiger message", {
            "message": {"ts_sec": 1714521600 + i // 50, "ts_usec": rng.randint(0, 999999), "thread": "1:0x7f",
                        "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS",
                        "category_id": 6, "verbose_level": "DEBUG_1", "verbose_level_id": 1,
                        "msg": "saving checkpoint snapshot min: %d, snapshot max: %d" % (i, i + 3)}})
    return line(stamp(i), "I", "SH_REFR", 4619900, "CatalogCache-1", "Refreshing cached collection", {
        "namespace": "shop.orders", "lookupSinceVersion": {"0": {"$timestamp": {"t": 900, "i": 1}},
        "1": {"$oid": "626a663821072b82d9059209"}}, "timeInStore": {"chunkVersion": "None"}})

def refresh(i, n):
    return line(stamp(i), "I", "SH_REFR", 4619901, "CatalogCache-%d" % (n % 7), "Refreshed cached collection", {
        "namespace": "shop.orders",
        "lookupSinceVersion": {"0": {"$timestamp": {"t": 900 + n, "i": 1}}, "1": {"$oid": "626a663821072b82d9059209"},
                               "2": {"$timestamp": {"t": 1651140151, "i": 6}}},
        "newVersion": {"chunkVersion": {"0": {"$timestamp": {"t": 901 + n, "i": 1}}, "1": {"$oid": "626a663821072b82d9059209"},
                                        "2": {"$timestamp": {"t": 1651140151, "i": 6}}},
                       "forcedRefreshSequenceNum": 15, "epochDisambiguatingSequenceNum": n},
        "timeInStore": {"chunkVersion": "None", "forcedRefreshSequenceNum": 15, "epochDisambiguatingSequenceNum": n},
        "durationMillis": rng.randint(2, 3000)})

pool = [noise(i) for i in range(20000)]
written = lines = refreshes = 0
with open(path, "w") as out:
    while written < target:
        chunk = []
        for j in range(len(pool)):
            if (lines + j) % 20000 == 10000:
                refreshes += 1
                chunk.append(refresh(lines + j, refreshes))
            chunk.append(pool[j])
        text = "\n".join(chunk) + "\n"
        out.write(text)
        written += len(text)
        lines += len(chunk)
print("%d %d" % (lines, refreshes))
PY
}

main() {
  local size_mb=1024 log="" tmp="" t0 t1 t2 ours theirs n_ours n_theirs
  while (($#)); do
    case "$1" in
      -h|--help) usage; return 0 ;;
      --size-mb) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--size-mb needs a number of MiB"; size_mb="$2"; shift ;;
      -*) die "unknown option $1" ;;
      *) [[ -z "$log" ]] || die "only one LOGFILE"; log="$1" ;;
    esac
    shift
  done
  command -v jq >/dev/null || die "jq is needed for the comparison"

  tmp="$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-analyze-bench.XXXXXX")"
  # shellcheck disable=SC2064  # expand now: the path is fixed from here on
  trap "rm -rf -- '$tmp'" EXIT
  if [[ -z "$log" ]]; then
    log="$tmp/mongod.log"
    printf 'generating %d MiB JSON log in %s ...\n' "$size_mb" "$tmp" >&2
    local stats
    stats="$(generate "$log" "$size_mb")"
    printf 'generated: %s lines, %s refresh lines (id 4619901)\n' "${stats% *}" "${stats#* }" >&2
  fi
  [[ -r "$log" ]] || die "$log: not readable"

  # Warm the page cache so that both runs read from memory.
  cat -- "$log" >/dev/null

  t0="$(now)"
  n_ours="$("$ROOT/playbooks/analyze" refresh --json "$log" | grep -c '"record":"refresh"' || true)"
  t1="$(now)"
  n_theirs="$(jq -c 'select(.id==4619901)' "$log" | wc -l)"
  t2="$(now)"
  ours="$(elapsed "$t0" "$t1")"
  theirs="$(elapsed "$t1" "$t2")"

  printf 'log:     %s (%s bytes)\n' "$log" "$(wc -c <"$log")"
  printf 'analyze: %6ss  %s refresh events\n' "$ours" "$n_ours"
  printf 'jq:      %6ss  %s refresh lines\n' "$theirs" "$n_theirs"
  awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "speed-up: %.1fx (goal: at least 10x)\n", b / (a > 0 ? a : 0.01) }'
  if [[ "$n_ours" != "$n_theirs" ]]; then
    printf 'MISMATCH: analyze found %s, jq found %s\n' "$n_ours" "$n_theirs" >&2
    return 1
  fi
}

main "$@"
