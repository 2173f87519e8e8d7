#!/usr/bin/env bash
# bench/seed.sh: seedCollection against a plain insertMany loop, same documents, same server.
#
#   bench/seed.sh [--scale F] [--docs N] [--pairs P] [--help]
#
# What: the global seedCollection as a user calls it (bench/seed/ours.js:
# load('snippets/index.js'), then one timed call, its first-use require
# included) against the fair baseline (bench/seed/baseline.js: the same
# documents by insertMany, every string built once before the clock starts,
# nothing but the writes timed), in two modes:
#   sequence  the article's order of markers and 6 MiB runs, the runs scaled
#             by F (default 0.01: 40 documents, 185 MiB); seedCollection's
#             recipe change-stream-resume (ordered, one batch at a time)
#   single    N documents of 6 MiB (default 30: 180 MiB); seedCollection
#             {docs: N, size: 6291493} (unordered, 16 MiB batches, 3 in flight)
# How: a private FerretDB (tests/servers/ferretdb.sh, own state dir); P pairs
# (default 5) per mode, each side a fresh mongosh on an emptied database, the
# two sides of a pair back to back and their order swapped at every pair.
# Each side times itself with process.hrtime.bigint(); peak RSS of the
# mongosh process from /usr/bin/time %M (~125 MB of it is mongosh itself).
# Reading it: one row per run (MB/s, 1 MB = 1,048,576 B), then per mode the
# median MB/s of each side and the median of the per-pair ratios
# seedCollection/insertMany with its min-max. FerretDB's speed and this
# machine's load vary between runs; the ratio of a pair, whose two runs are
# back to back, varies less. Goal (issue 5): >= 1.5x, flat memory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
STATE_DIR=""

die() {
  printf 'bench/seed.sh: %s\n' "$*" >&2
  exit 2
}

usage() {
  sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

server() {
  DBA_LAB_FERRETDB_STATE="${STATE_DIR}/state" "${ROOT}/tests/servers/ferretdb.sh" "$@"
}

cleanup() {
  if [[ -n "$STATE_DIR" ]]; then
    server stop >/dev/null 2>&1 || true
    rm -rf "$STATE_DIR"
  fi
}

# One measured run; appends "mode method pair docs bytes seconds MB/s rssMB"
# to the results file and prints it.
run_one() {
  local uri="$1" script="$2" vars="$3" bytes="$4" pair="$5" rss json row
  /usr/bin/time -f '%M' -o "${STATE_DIR}/rss" \
    mongosh "${uri}test" --quiet --norc --eval "$vars" "$script" >"${STATE_DIR}/run.out"
  rss=$(cat "${STATE_DIR}/rss")
  json=$(grep '^{' "${STATE_DIR}/run.out" | tail -n 1)
  row=$(jq -r --argjson rss "$rss" --argjson bytes "$bytes" --argjson pair "$pair" \
    '[.mode, .method, $pair, .docs, $bytes, (.seconds * 100 | round / 100), ($bytes / 1048576 / .seconds * 10 | round / 10), ($rss / 1024 | round)] | @tsv' \
    <<<"$json")
  printf '%s\n' "$row" | tee -a "${STATE_DIR}/results"
}

# The exact bytes both methods write, from seedCollection's dry run.
dry_bytes() {
  mongosh --nodb --quiet --norc --eval \
    "load('${ROOT}/snippets/index.js'); print(seedCollection('foo', $1).bytes)"
}

# Per mode: median MB/s per method, median and min-max of the per-pair ratios.
summary() {
  awk -F '\t' '
    function sort(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
    function median(a, m) { sort(a, m); return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    { mbs[$1, $2, $3] = $7; if ($8 > rss[$1, $2]) rss[$1, $2] = $8; if ($3 > pairs) pairs = $3 }
    END {
      split("sequence single", modes, " ")
      for (k = 1; k <= 2; k++) {
        mode = modes[k]; n = 0
        for (p = 1; p <= pairs; p++) {
          if (!((mode, "insertMany", p) in mbs) || !((mode, "seedCollection", p) in mbs)) continue
          n++; a[n] = mbs[mode, "insertMany", p]; b[n] = mbs[mode, "seedCollection", p]; r[n] = b[n] / a[n]
        }
        if (!n) continue
        ma = median(a, n); mb = median(b, n); mr = median(r, n)
        printf "%-9s median MB/s: insertMany %.1f, seedCollection %.1f; ratio (median of %d pairs) %.2fx, min-max %.2f-%.2fx; peak RSS MB: %d vs %d\n",
          mode, ma, mb, n, mr, r[1], r[n], rss[mode, "insertMany"], rss[mode, "seedCollection"]
      }
    }' "${STATE_DIR}/results"
}

main() {
  local scale="0.01" docs=30 pairs=5 uri p mode vars bytes seq_bytes single_bytes seq_docs
  while (($#)); do
    case "$1" in
      --scale) scale="${2:?--scale needs a value}"; shift ;;
      --docs) docs="${2:?--docs needs a value}"; shift ;;
      --pairs) pairs="${2:?--pairs needs a value}"; shift ;;
      -h|--help) usage; exit 0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  [[ "$scale" =~ ^(0?\.[0-9]+|1(\.0*)?)$ ]] || die "--scale takes a fraction of the article's size, 0.01 to 1"
  [[ "$docs" =~ ^[1-9][0-9]*$ ]] || die "--docs takes a positive count"
  [[ "$pairs" =~ ^[1-9][0-9]*$ ]] || die "--pairs takes a positive count"
  [[ -x /usr/bin/time ]] || die "/usr/bin/time is needed for peak RSS (Debian package time)"
  # shellcheck source=setup/env.sh
  source "${ROOT}/setup/env.sh"
  export DBA_LAB_ROOT="$ROOT"

  STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-bench.XXXXXX")
  trap cleanup EXIT
  seq_docs=$(awk -v s="$scale" 'BEGIN { printf "%d", 3000 * s + 0.5 }')
  seq_bytes=$(dry_bytes "{recipe: 'change-stream-resume', docs: ${seq_docs}, dryRun: true}")
  single_bytes=$(dry_bytes "{docs: ${docs}, size: 6291493, dryRun: true}")
  uri=$(server start)
  printf 'FerretDB v1.24.2 at %s (private instance); %d cores\n' "$uri" "$(nproc)"
  printf '%s; %d cores; load average %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(nproc)" \
    "$(cut -d ' ' -f 1-3 /proc/loadavg)"
  printf 'mode\tmethod\tpair\tdocs\tbytes\tseconds\tMB/s\tpeakRSS_MB\n'
  for mode in sequence single; do
    if [[ "$mode" == sequence ]]; then
      vars="var benchMode = 'sequence', benchScale = ${scale}" bytes="$seq_bytes"
    else
      vars="var benchMode = 'single', benchDocs = ${docs}" bytes="$single_bytes"
    fi
    for ((p = 1; p <= pairs; p++)); do
      if ((p % 2)); then
        run_one "$uri" "${ROOT}/bench/seed/baseline.js" "$vars" "$bytes" "$p"
        run_one "$uri" "${ROOT}/bench/seed/ours.js" "$vars" "$bytes" "$p"
      else
        run_one "$uri" "${ROOT}/bench/seed/ours.js" "$vars" "$bytes" "$p"
        run_one "$uri" "${ROOT}/bench/seed/baseline.js" "$vars" "$bytes" "$p"
      fi
    done
  done
  summary
}

main "$@"
