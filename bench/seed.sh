#!/usr/bin/env bash
# Benchmark: seedCollection vs seed 000's writeJunk() loop, same bytes, same server.
#
#   bench/seed.sh [--docs N[,N...]] [--rounds R]
#
# Starts a private FerretDB (tests/servers/ferretdb.sh, its own state dir), then
# for each N (default 30,100: 189 MB and 629 MB of 6 MiB documents) and round
# runs, each in a fresh mongosh process on an emptied database:
#   writeJunk  the article's randomString() + writeJunk(N, 6 MiB), verbatim
#   seedCollection  seedCollection(c, {docs: N, size: 6291493}): the same documents
# and prints one row per run: seconds of writing (timed inside mongosh), MB/s
# (1 MB = 1,048,576 bytes), and the process's peak RSS (/usr/bin/time %M).
# Goal (issue 5): seedCollection >= 1.5x writeJunk's MB/s, memory flat in N.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
STATE_DIR=""

die() {
  printf 'bench/seed.sh: %s\n' "$*" >&2
  exit 2
}

usage() {
  sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
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

# One measured run: prints "method docs bytes seconds MB/s peakRSS-MB".
run_one() {
  local uri="$1" script="$2" docs="$3" out rss json
  out="${STATE_DIR}/run.out"
  /usr/bin/time -f '%M' -o "${STATE_DIR}/rss" \
    mongosh "${uri}test" --quiet --norc --eval "var benchDocs = ${docs}" "$script" >"$out"
  rss=$(cat "${STATE_DIR}/rss")
  json=$(grep '^{' "$out" | tail -n 1)
  jq -r --argjson rss "$rss" \
    '[.method, .docs, .bytes, .seconds, (.bytes / 1048576 / .seconds * 10 | round / 10), ($rss / 1024 | round)] | @tsv' \
    <<<"$json"
}

main() {
  local sizes="30,100" rounds=1 uri n r size
  while (($#)); do
    case "$1" in
      --docs) sizes="${2:?--docs needs a value}"; shift ;;
      --rounds) rounds="${2:?--rounds needs a value}"; shift ;;
      -h|--help) usage; exit 0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  [[ "$sizes" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--docs takes counts like 30,100"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a positive count"
  [[ -x /usr/bin/time ]] || die "/usr/bin/time is needed for peak RSS (Debian package time)"
  # shellcheck source=setup/env.sh
  source "${ROOT}/setup/env.sh"
  export DBA_LAB_ROOT="$ROOT"

  STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-bench.XXXXXX")
  trap cleanup EXIT
  uri=$(server start)
  printf 'FerretDB %s at %s (private instance)\n' "v1.24.2" "$uri"
  printf 'method\tdocs\tbytes\tseconds\tMB/s\tpeakRSS_MB\n'
  IFS=',' read -r -a size_list <<<"$sizes"
  for size in "${size_list[@]}"; do
    for ((r = 1; r <= rounds; r++)); do
      for n in writejunk ours; do
        run_one "$uri" "${ROOT}/bench/seed/${n}.js" "$size"
      done
    done
  done
}

main "$@"
