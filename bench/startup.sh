#!/usr/bin/env bash
# What the snippets add to mongosh's startup.
#
#   bench/startup.sh [RUNS]      (default 15)
#
# Figures, each the median of RUNS fresh mongosh processes:
#  - load(): milliseconds spent inside load('snippets/index.js'), timed in
#    the shell itself (what `snippet install` and autoload pay), beside
#    load() of an empty file: mongosh's own price for any load(), which no
#    snippet can avoid; the difference is what this package adds;
#  - wall: whole `mongosh --nodb --eval` runs with and without the load,
#    and their difference.
# Goal (issue 2): under 30 ms.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
# shellcheck source=setup/env.sh
source "${ROOT}/setup/env.sh"

median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

wall_ms() {
  local start end
  start=$(date +%s%N)
  mongosh --nodb --quiet --norc --eval "$1" >/dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

main() {
  local runs="${1:-15}" i index="${ROOT}/snippets/index.js" load_ms empty_ms with without empty
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "usage: bench/startup.sh [RUNS]" >&2; exit 2; }
  empty=$(mktemp)
  local timed="const t0 = process.hrtime.bigint(); load('${index}'); print(Number(process.hrtime.bigint() - t0) / 1e6)"
  local timed_empty="const t0 = process.hrtime.bigint(); load('${empty}'); print(Number(process.hrtime.bigint() - t0) / 1e6)"
  load_ms=$(for ((i = 0; i < runs; i++)); do mongosh --nodb --quiet --norc --eval "$timed"; done | median)
  empty_ms=$(for ((i = 0; i < runs; i++)); do mongosh --nodb --quiet --norc --eval "$timed_empty"; done | median)
  with=$(for ((i = 0; i < runs; i++)); do wall_ms "load('${index}')"; done | median)
  without=$(for ((i = 0; i < runs; i++)); do wall_ms "1"; done | median)
  printf 'runs: %d (median of each)\n' "$runs"
  printf 'load(snippets/index.js): %s ms; load(empty file): %s ms; the snippets add %s ms\n' \
    "$load_ms" "$empty_ms" "$(awk -v a="$load_ms" -v b="$empty_ms" 'BEGIN { printf "%.1f", a - b }')"
  rm -f "$empty"
  printf 'mongosh --nodb wall: %s ms without, %s ms with the snippets (+%s ms)\n' \
    "$without" "$with" "$((with - without))"
}

main "$@"
