#!/usr/bin/env bash
# bench/startup.sh: what the snippets add to a mongosh session.
#
#   bench/startup.sh [--pairs N] [--help]        (default 15 pairs)
#
# What: a session that loads snippets/index.js (what `snippet install` and
# autoload do) and then uses each public global once, against a session that
# load()s an empty file. The globals are lazy stand-ins: the first use of one
# (a call, .help(), printing it) require()s its module; that deferred cost is
# part of what a user pays, so it is measured here, per global.
#
# How: N pairs of fresh `mongosh --nodb --quiet --norc` processes, the two
# sides of a pair back to back and their order swapped at every pair, so a
# change in the machine's load hits both sides alike. Each process times
# itself with process.hrtime.bigint() (monotonic): load() of its file, then,
# on the "with" side, the first use of every global in
# snippets/lib/concerns.json order (reading its .help, which loads its module
# without needing a server). The whole process is timed from outside with
# the same monotonic clock (node's spawnSync).
#
# Reading it: every figure is the median over the runs with its interquartile
# range [Q1-Q3] and min-max. "adds" rows are per-pair differences (with minus
# without), which hold up on a loaded machine better than either side alone.
# load(empty file) is mongosh's own price for any load(): no snippet can
# avoid it. A global listed after another of the same concern shows ~0 ms:
# its module is already loaded; so can one whose dependencies an earlier
# concern loaded (stats-shape.js is shared by stats and chunks).
# Goal (issue 2): the snippets add under 30 ms.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT

usage() {
  sed -n '2,28s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
  printf 'bench/startup.sh: %s\n' "$*" >&2
  exit 2
}

# The pair loop and the statistics, in node for its monotonic clock.
# argv: ROOT PAIRS EMPTY_FILE
driver() {
  cat <<'EOF'
const { spawnSync } = require("child_process");
const path = require("path");
const [root, pairsArg, empty] = process.argv.slice(1);
const pairs = Number(pairsArg);
const index = path.join(root, "snippets", "index.js");
const concerns = require(path.join(root, "snippets", "lib", "concerns.json"));
const names = Object.values(concerns).flat();

// The same script on both sides but for the file and the globals to use.
const probe = (file, globals) => `
const hr = () => process.hrtime.bigint();
let t = hr();
load(${JSON.stringify(file)});
const out = { load: Number(hr() - t) / 1e6, first: {} };
for (const n of ${JSON.stringify(globals)}) {
  t = hr();
  void globalThis[n].help;
  out.first[n] = Number(hr() - t) / 1e6;
}
print(JSON.stringify(out));`;

function run(file, globals) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync("mongosh", ["--nodb", "--quiet", "--norc", "--eval", probe(file, globals)], { encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error || r.status !== 0) {
    process.stderr.write(`bench/startup.sh: mongosh failed: ${r.error ? r.error.message : r.stderr.trim()}\n`);
    process.exit(1);
  }
  const line = r.stdout.trim().split("\n").pop();
  return { wall, ...JSON.parse(line) };
}

const withRuns = [];
const withoutRuns = [];
for (let i = 0; i < pairs; i++) {
  if (i % 2 === 0) {
    withoutRuns.push(run(empty, []));
    withRuns.push(run(index, names));
  } else {
    withRuns.push(run(index, names));
    withoutRuns.push(run(empty, []));
  }
  process.stderr.write(`\rpair ${i + 1}/${pairs}`);
}
process.stderr.write("\n");

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const f = (x) => x.toFixed(1);
function row(label, xs) {
  const cells = [quantile(xs, 0.5), quantile(xs, 0.25), quantile(xs, 0.75), Math.min(...xs), Math.max(...xs)].map(f);
  console.log(`${label.padEnd(44)}${cells[0].padStart(8)} ms  [${cells[1]}-${cells[2]}]  min-max ${cells[3]}-${cells[4]}`);
}
const firstSum = withRuns.map((r) => Object.values(r.first).reduce((a, b) => a + b, 0));
const diff = (key) => withRuns.map((r, i) => r[key] - withoutRuns[i][key]);

console.log(`mongosh --nodb, ${pairs} alternated pairs; median [IQR] min-max`);
row("load(empty file)", withoutRuns.map((r) => r.load));
row("load(snippets/index.js)", withRuns.map((r) => r.load));
row("  adds (per pair)", diff("load"));
for (const n of names) row(`first use of ${n}`, withRuns.map((r) => r.first[n]));
row("first use of every global, sum", firstSum);
row("load + every first use, adds (per pair)", withRuns.map((r, i) => r.load - withoutRuns[i].load + firstSum[i]));
row("whole process without", withoutRuns.map((r) => r.wall));
row("whole process with, every global used", withRuns.map((r) => r.wall));
row("  adds (per pair)", diff("wall"));
EOF
}

main() {
  local pairs=15 empty
  while (($#)); do
    case "$1" in
      --pairs) pairs="${2:?--pairs needs a value}"; shift ;;
      -h|--help) usage; exit 0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  [[ "$pairs" =~ ^[1-9][0-9]*$ ]] || die "--pairs takes a positive count"
  # shellcheck source=setup/env.sh
  source "${ROOT}/setup/env.sh"
  empty=$(mktemp "${TMPDIR:-/tmp}/dba-lab-empty.XXXXXX")
  # shellcheck disable=SC2064  # expand now: $empty is local to main
  trap "rm -f '${empty}'" EXIT
  printf '%s; %d cores; load average %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(nproc)" \
    "$(cut -d ' ' -f 1-3 /proc/loadavg)"
  node -e "$(driver)" "$ROOT" "$pairs" "$empty"
}

main "$@"
