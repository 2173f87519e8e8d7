#!/usr/bin/env bash
# Benchmark: seedCollection vs seed 000's writeJunk loop, same bytes, same server.
#
#   bench/seed.sh [--scale F] [--docs N] [--rounds R]
#
# Starts a private FerretDB (tests/servers/ferretdb.sh with its own state dir)
# and runs, interleaved, R rounds (default 3) of two comparisons, each run in
# a fresh mongosh process on an emptied database:
#   sequence  the article's seedCollection() (ten markers, writeJunk runs of
#             100/100/100/500/200/2000 x 6 MiB) with the runs scaled by F
#             (default 0.01: 40 documents, 189 MB) vs our recipe
#             change-stream-resume with the same documents
#   single    one writeJunk(N, 6 MiB) (default N 100: 629 MB) vs
#             seedCollection(c, {docs: N, size: 6291493}), the same documents
# Each row: seconds writing (timed inside mongosh), MB/s (1 MB = 1,048,576 B),
# peak RSS of the mongosh process (/usr/bin/time %M). Then the median MB/s per
# method and the ratio. FerretDB's own speed varies up to 2x between runs (its
# SQLite files), hence rounds and medians. Goal (issue 5): >= 1.5x, flat memory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
STATE_DIR=""

die() {
  printf 'bench/seed.sh: %s\n' "$*" >&2
  exit 2
}

usage() {
  sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
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

# One measured run; appends "mode method docs bytes seconds MB/s rssMB" to
# the results file and prints it.
run_one() {
  local uri="$1" script="$2" vars="$3" bytes="$4" rss json row
  /usr/bin/time -f '%M' -o "${STATE_DIR}/rss" \
    mongosh "${uri}test" --quiet --norc --eval "$vars" "$script" >"${STATE_DIR}/run.out"
  rss=$(cat "${STATE_DIR}/rss")
  json=$(grep '^{' "${STATE_DIR}/run.out" | tail -n 1)
  row=$(jq -r --argjson rss "$rss" --argjson bytes "$bytes" \
    '[.mode, .method, .docs, $bytes, .seconds, ($bytes / 1048576 / .seconds * 10 | round / 10), ($rss / 1024 | round)] | @tsv' \
    <<<"$json")
  printf '%s\n' "$row" | tee -a "${STATE_DIR}/results"
}

# The exact bytes both methods write, from seedCollection's dry run.
dry_bytes() {
  mongosh --nodb --quiet --norc --eval \
    "load('${ROOT}/snippets/index.js'); print(seedCollection('foo', $1).bytes)"
}

summary() {
  awk -F '\t' '
    { key = $1 "\t" $2; n[key]++; v[key, n[key]] = $6; if ($7 > rss[key]) rss[key] = $7 }
    END {
      for (key in n) {
        m = n[key]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[key, j] < v[key, i]) { t = v[key, i]; v[key, i] = v[key, j]; v[key, j] = t }
        med[key] = (m % 2) ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2
      }
      split("sequence single", modes, " ")
      for (k = 1; k <= 2; k++) {
        mode = modes[k]; a = mode "\twriteJunk"; b = mode "\tseedCollection"
        if (!(a in med) || !(b in med)) continue
        printf "%-9s median MB/s: writeJunk %.1f, seedCollection %.1f, ratio %.2fx; peak RSS MB: %d vs %d\n",
          mode, med[a], med[b], med[b] / med[a], rss[a], rss[b]
      }
    }' "${STATE_DIR}/results"
}

main() {
  local scale="0.01" docs=100 rounds=3 uri r seq_bytes single_bytes seq_docs
  while (($#)); do
    case "$1" in
      --scale) scale="${2:?--scale needs a value}"; shift ;;
      --docs) docs="${2:?--docs needs a value}"; shift ;;
      --rounds) rounds="${2:?--rounds needs a value}"; shift ;;
      -h|--help) usage; exit 0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  [[ "$scale" =~ ^(0?\.[0-9]+|1(\.0*)?)$ ]] || die "--scale takes a fraction of the article's size, 0.01 to 1"
  [[ "$docs" =~ ^[1-9][0-9]*$ ]] || die "--docs takes a positive count"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a positive count"
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
  printf 'mode\tmethod\tdocs\tbytes\tseconds\tMB/s\tpeakRSS_MB\n'
  for ((r = 1; r <= rounds; r++)); do
    run_one "$uri" "${ROOT}/bench/seed/writejunk.js" "var benchMode = 'sequence', benchScale = ${scale}" "$seq_bytes"
    run_one "$uri" "${ROOT}/bench/seed/ours.js" "var benchMode = 'sequence', benchScale = ${scale}" "$seq_bytes"
    run_one "$uri" "${ROOT}/bench/seed/writejunk.js" "var benchMode = 'single', benchDocs = ${docs}" "$single_bytes"
    run_one "$uri" "${ROOT}/bench/seed/ours.js" "var benchMode = 'single', benchDocs = ${docs}" "$single_bytes"
  done
  summary
}

main "$@"
