#!/usr/bin/env bash
# What oplogAudit costs, offline and live (issue 39's figures).
#
#   bench/oplog-audit.sh [--size MIB] [--pairs N] [--live-size MIB] [--no-live]
#                        [--no-offline] [--live-pairs N] [--also DIR]
#                        [--fallback]
#
# Offline: a generated local/oplog.rs.bson of --size MiB (default 256;
# bench/oplog-audit-gen.js repeats the real-shaped entries of
# tests/fixtures/oplog-audit/entries.js) audited by
#   A  mongosh --nodb: oplogAudit({file})
#   B  bsondump --quiet FILE | jq: the same grouping (applyOps unwrapped, per
#      ns and op), entries only: JSON does not carry an entry's BSON size, so B
#      does less than A and its time is a lower bound.
# in --pairs alternated pairs (default 2), each side's wall seconds and peak
# memory (/usr/bin/time; for a pipe, its largest process) printed per run, and
# mongosh's own peak with the snippets loaded and nothing audited beside them.
# --fallback adds to each pair F: the same audit reading entries with
# snippets/lib/bson-read.js, as the standalone mongosh binary does (its bson
# library out of reach), through oplog-audit.js's internal seam.
# 1 GiB takes over 3 minutes per bsondump | jq run on a 2-core machine: the
# default size keeps a run of the whole script near 5 minutes.
#
# Live: FerretDB (setup/ferretdb.sh, a server of this run's own, stopped at
# the end). FerretDB is not MongoDB: it has no oplog and no $bsonSize, so the
# audit reads a restored copy ({collection}) and every entry comes to the
# shell, as its BSON bytes; on MongoDB 4.4+ the server sizes and groups
# inserts, deletes and no-ops itself. It refuses '$' field names, so the copy
# holds only the entries without $v/$set updates (--storable). --live-pairs
# (default --pairs) alternated rounds of:
#   A  oplogAudit({collection, since, until})
#   B  a plain $group by ns and op over the same ts range, counting entries
#   C  the same range read into the shell as A reads it (find, raw BSON, the
#      same batches) and nothing done with it: the floor of A, where the
#      server's part of A's time shows
#   O  with --also DIR: A with the snippets in DIR (another commit's:
#      git archive REV snippets | tar -x -C DIR), for a before/after
# each with its own seconds inside the shell (the call alone, as the issue's
# ratio means it: mongosh's start is the same on every side), the shell's
# wall and CPU seconds, FerretDB's CPU seconds over the run (/proc) and the
# 1-minute load average before it.
# Requires: setup/install.sh done (mongosh, bsondump, mongorestore, jq, node).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

# One run: prints "SECONDS PEAK_KB" for the command given.
timed() {
  local out
  out="$(mktemp)"
  /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null
  cat "$out"
  rm -f "$out"
}

# CPU seconds (user + system) a process has used so far.
cpu_seconds() {
  awk '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / 100 }' "/proc/$1/stat"
}

# One live run against the server whose pid is $1, of a script whose last
# line out is the seconds its call took: prints "call SECONDS wall SECONDS
# shell-cpu SECONDS server-cpu SECONDS load LOAD".
timed_live() {
  local pid="$1" out before load call
  shift
  out="$(mktemp)"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  before="$(cpu_seconds "$pid")"
  call="$(/usr/bin/time -f '%e %U %S' -o "$out" "$@" | tail -n 1)"
  awk -v c="$call" -v b="$before" -v a="$(cpu_seconds "$pid")" -v l="$load" \
    '{ printf "call %s wall %s shell-cpu %.2f server-cpu %.2f load %s\n", c, $1, $2 + $3, a - b, l }' "$out"
  rm -f "$out"
}

# alternated ROUNDS RUN SIDE...: ROUNDS rounds of "RUN SIDE" for each SIDE,
# every other round in the reverse order, so that no side always runs first
# (on a warmer cache, or a quieter machine).
alternated() {
  local rounds="$1" run="$2" k i
  shift 2
  for ((k = 0; k < rounds; k++)); do
    for ((i = 0; i < $#; i++)); do
      if ((k % 2 == 0)); then
        "$run" "${@:i+1:1}"
      else
        "$run" "${@:$#-i:1}"
      fi
    done
  done
}

main() {
  local size=256 pairs=2 live_size=16 live=1 offline=1 fallback=0 live_pairs='' also=''
  while (($#)); do
    case "$1" in
      --size) size="$2"; shift 2 ;;
      --pairs) pairs="$2"; shift 2 ;;
      --live-size) live_size="$2"; shift 2 ;;
      --live-pairs) live_pairs="$2"; shift 2 ;;
      --no-live) live=0; shift ;;
      --no-offline) offline=0; shift ;;
      --also) also="$(cd "$2" && pwd)/snippets"; shift 2 ;;
      --fallback) fallback=1; shift ;;
      -h | --help) usage; return 0 ;;
      *) echo "bench/oplog-audit.sh: unknown argument $1 (see --help)" >&2; return 2 ;;
    esac
  done
  unset DBA_LAB_ROOT
  # shellcheck source=setup/env.sh
  source "$ROOT/setup/env.sh" >/dev/null
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/oplog-audit-bench.XXXXXX")"
  # shellcheck disable=SC2064 # the folder is known now
  trap "rm -rf '$work'" EXIT

  if ((offline)); then
    local dump="$work/oplog.rs.bson" jqf="$work/group.jq" js="$work/audit.js" base="$work/base.js"
    node "$ROOT/bench/oplog-audit-gen.js" --bytes $((size * 1024 * 1024)) --out "$dump"
    cat >"$jqf" <<'EOF'
reduce (inputs | if .op == "c" and (.o.applyOps | type) == "array" then .o.applyOps[] else . end) as $e
  ({}; .["\($e.ns) \($e.op)"] += 1)
EOF
    printf 'load(%s); oplogAudit({file: %s}).entries;\n' \
      "$(jq -Rn --arg f "$ROOT/snippets/index.js" '$f')" "$(jq -Rn --arg f "$dump" '$f')" >"$js"
    printf 'load(%s); oplogAudit.help;\n' "$(jq -Rn --arg f "$ROOT/snippets/index.js" '$f')" >"$base"
    local fb="$work/fallback.js"
    cat >"$fb" <<EOF
const lib = $(jq -Rn --arg f "$ROOT/snippets/lib" '$f');
const shell = require(lib + '/shell.js')({
  bson: { Binary, BSONRegExp, Code, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID },
  print, bsonsize, getDb: () => undefined, realm: { Object, Array, Error, Date },
});
require(lib + '/oplog-audit.js')(shell, { bsonLibrary: () => null }).oplogAudit({file: $(jq -Rn --arg f "$dump" '$f')}).entries;
EOF

    echo "offline, ${size} MiB dump: side seconds peak_KB"
    echo "mongosh-baseline $(timed mongosh --nodb --quiet --norc "$base")"
    # The pipe runs in a shell of its own so that one /usr/bin/time sees it.
    # shellcheck disable=SC2016 # $1 and $2 are that shell's
    local pipe=(bash -c 'bsondump --quiet "$1" | jq -n -f "$2"' _ "$dump" "$jqf")
    offline_side() {
      case "$1" in
        A) echo "A-oplogAudit $(timed mongosh --nodb --quiet --norc "$js")" ;;
        B) echo "B-bsondump-jq $(timed "${pipe[@]}")" ;;
        F) echo "F-oplogAudit-fallback $(timed mongosh --nodb --quiet --norc "$fb")" ;;
      esac
    }
    local offline_sides=(A B)
    ((fallback)) && offline_sides+=(F)
    alternated "$pairs" offline_side "${offline_sides[@]}"
  fi
  ((live)) || return 0

  local state="$work/ferretdb" uri live_dump="$work/live.bson" pid
  mkdir -p "$state"
  export DBA_LAB_FERRETDB_STATE="$state"
  # shellcheck disable=SC2064
  trap "DBA_LAB_FERRETDB_STATE='$state' '$ROOT/setup/ferretdb.sh' stop >/dev/null 2>&1 || true; rm -rf '$work'" EXIT
  uri="$("$ROOT/setup/ferretdb.sh" start)"
  pid="$(cat "$state/pid")"
  node "$ROOT/bench/oplog-audit-gen.js" --bytes $((live_size * 1024 * 1024)) --out "$live_dump" --storable
  mongorestore --quiet --uri "$uri" --db dba_lab_bench --collection oplog_copy --drop "$live_dump"
  local index
  index="$(jq -Rn --arg f "$ROOT/snippets/index.js" '$f')"
  # The same range on every side: the generator's entries start at 1700000000.
  cat >"$work/live-a.js" <<EOF
load(${index});
const started = Date.now();
oplogAudit({collection: 'dba_lab_bench.oplog_copy', since: Timestamp({t: 1700000000, i: 0}), until: Timestamp({t: 2000000000, i: 0})}).entries;
print((Date.now() - started) / 1000);
EOF
  cat >"$work/live-b.js" <<'EOF'
const started = Date.now();
db.getSiblingDB('dba_lab_bench').oplog_copy.aggregate([
  {$match: {ts: {$gte: Timestamp({t: 1700000000, i: 0}), $lte: Timestamp({t: 2000000000, i: 0})}}},
  {$group: {_id: {ns: '$ns', op: '$op'}, n: {$sum: 1}}},
]).toArray().length;
print((Date.now() - started) / 1000);
EOF
  cat >"$work/live-c.js" <<'EOF'
const started = Date.now();
db.getSiblingDB('dba_lab_bench').oplog_copy.find(
  {ts: {$gte: Timestamp({t: 1700000000, i: 0}), $lte: Timestamp({t: 2000000000, i: 0})}},
  {_id: 0}, {raw: true, batchSize: 1000, maxTimeMS: 60000},
).toArray().length;
print((Date.now() - started) / 1000);
EOF
  local sides=(A B C)
  if [[ -n "$also" ]]; then
    [[ -f "$also/index.js" ]] || { echo "bench/oplog-audit.sh: --also: no snippets/index.js in ${also%/snippets}" >&2; return 2; }
    sed "1s|.*|load($(jq -Rn --arg f "$also/index.js" '$f'));|" "$work/live-a.js" >"$work/live-o.js"
    sides=(A B C O)
  fi
  echo "live on FerretDB (not MongoDB), ${live_size} MiB restored copy"
  live_side() {
    case "$1" in
      A) echo "A-oplogAudit $(timed_live "$pid" mongosh "$uri" --quiet --norc "$work/live-a.js")" ;;
      B) echo "B-group $(timed_live "$pid" mongosh "$uri" --quiet --norc "$work/live-b.js")" ;;
      C) echo "C-read-only $(timed_live "$pid" mongosh "$uri" --quiet --norc "$work/live-c.js")" ;;
      O) echo "O-oplogAudit-also $(timed_live "$pid" mongosh "$uri" --quiet --norc "$work/live-o.js")" ;;
    esac
  }
  alternated "${live_pairs:-$pairs}" live_side "${sides[@]}"
}

main "$@"
