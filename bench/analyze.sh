#!/usr/bin/env bash
# Benchmark: every playbooks/analyze report, in each output form, against jq
# and grep -F, on generated mongod logs read in each input form, with time
# and peak memory.
#
#   bench/analyze.sh [--size-mb N] [--rounds R] [--logs few,all,distinct,refreshes]
#                    [--reports LIST] [--inputs file,gzip,stdin,legacy] [--outputs json,table]
#                    [--engine auto|go|python] [--no-memory]
#
# Generates the logs of --logs, N MiB of JSON (4.4+) each (default 300), in a
# temporary directory with bench/analyze-log.py (see there: few = 5% slow
# queries, all = every line a slow query, distinct = every line a cursor of
# its own, refreshes = every line a routing refresh; shapes = every line a
# query shape of its own). Then, R rounds (default 3), each running in turn,
# for every log, input form and report,
#   playbooks/analyze REPORT [--json] LOG    (each output form of --outputs)
#   jq -c 'select(...) | [...]' LOG          (the same lines, a few fields)
#   LC_ALL=C grep -F NEEDLE LOG              (the report's needle: a floor)
# in each input form of --inputs (default all four): file (as above); gzip
# (the log gzip -6'd, as logrotate does: analyze reads LOG.gz, jq and grep
# read zcat LOG.gz |, and zcat LOG.gz >/dev/null alone is the floor, ZCAT
# column); stdin (every tool reads cat LOG |); legacy (the log's MongoDB 4.2
# text twin, analyze-log.py KIND-text: the same events in the text layout,
# a smaller file; analyze reads it as a file, jq -R selects the same lines
# with a regex and captures the same fields from the text, grep -F looks
# for analyze's text needles: cursorid, efresh and time to load chunks, ms).
# It prints per log, input, report and output form the median wall seconds,
# MB/s and peak memory (see below), the median CPU seconds (user + system,
# workers included), the ratios from wall and from CPU time against jq and
# grep -F (and for gzip zcat), and GOAL: met or what missed it. Goals (wall
# ratios, as the issue measures): file, stdin, legacy: x JQ >= 10 and
# % GREP >= 25; gzip: / ZCAT <= 1.5 and % GREP (of zcat | grep -F) >= 25.
# Peak memory: the largest process's maxrss, from GNU time when it is
# installed (else the Python resource module, whose figure cannot go below
# the sampler's own RSS: a forked child keeps its parent's high-water mark
# through exec), and at least the RSS of the whole process tree sampled
# from /proc every 50 ms.
# --engine sets DBA_LAB_ANALYZE_ENGINE for the analyze runs (default auto:
# the Go engine where it applies, as users run it; python measures the
# reference engine alone). --rounds 0 skips the comparison.
# Then, unless --no-memory, the memory bound: once per log (and its text twin
# with legacy), report, engine (go, python) and format (table, --json), the
# peak memory (as above) beside the bound 64 MiB + 200 bytes per distinct key
# (cursor, refresh, query group, namespace: each --json record is one), with
# ok or OVER.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly REPORTS_ALL="cursors,refresh,queries"
readonly LOGS_ALL="few,all,distinct,refreshes"
readonly INPUTS_ALL="file,gzip,stdin,legacy"
readonly OUTPUTS_ALL="json,table"

usage() {
  sed -n '2,47s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
  printf 'bench/analyze: %s\n' "$*" >&2
  exit 2
}

# need_list OPTION VALUE CHOICE...: dies unless VALUE is a comma-separated
# list of CHOICEs (VALUE empty: OPTION was the last argument).
need_list() {
  local option="$1" value="$2" one
  shift 2
  one="$(IFS='|'; printf '%s' "$*")"
  [[ "$value" =~ ^(${one})(,(${one}))*$ ]] || die "${option} needs a list of $(IFS=,; printf '%s' "$*" | sed 's/,/, /g')"
}

# Writes SIZE_MB MiB of KIND log lines to FILE (deterministic: same seed, same file).
generate() {
  local kind="$1" file="$2" size_mb="$3"
  python3 "${ROOT}/bench/analyze-log.py" "$kind" "$file" "$((size_mb * 1024))"
}

# Runs a command with stdout to the file MEASURE_SINK; prints "seconds peak_MiB
# cpu_seconds" (wall time, peak memory, user + system time). Exit codes other
# than those in MEASURE_OK (default 0) are failures. MEASURE_TIME: GNU time,
# when installed, to take the command's maxrss and CPU time.
measure() {
  python3 - "$@" <<'PY'
import os, resource, subprocess, sys, threading, time

def children(pid):
    out = []
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for task in tasks:
        # One task (thread) ending while listed must not hide the others'.
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out.extend(int(x) for x in f.read().split())
        except OSError:
            pass
    return out

def rss_tree(pid, with_root):
    total, todo, page = 0, [pid] if with_root else children(pid), os.sysconf("SC_PAGE_SIZE")
    while todo:
        p = todo.pop()
        try:
            with open("/proc/%d/statm" % p) as f:
                total += int(f.read().split()[1]) * page
        except OSError:
            pass
        todo.extend(children(p))
    return total

command = sys.argv[1:]
gnu_time = os.environ.get("MEASURE_TIME", "")
maxrss_file = os.environ["MEASURE_SINK"] + ".maxrss"
if gnu_time:
    # getrusage's maxrss of a child is at least the RSS of this Python
    # process (13-14 MiB), which the child held between fork and exec: the
    # kernel keeps that high-water mark through exec. GNU time forks the
    # command from its own 1-2 MiB and reports the command's maxrss alone.
    command = [gnu_time, "-f", "%M %U %S", "-o", maxrss_file] + command
start = time.monotonic()
# Output goes to a real file: GNU grep stops at the first match when its
# output is /dev/null, even with -c.
sink = open(os.environ["MEASURE_SINK"], "wb")
proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=sink)
peak = [0]
done = threading.Event()


def sample():
    # Not more often: the sampler shares the cores with a tool that uses
    # both (analyze), while jq and grep leave it one of its own.
    while not done.wait(0.05):
        peak[0] = max(peak[0], rss_tree(proc.pid, not gnu_time))


sampler = threading.Thread(target=sample)
sampler.start()
proc.wait()  # the wall time is taken at the exit, not at the next sample
elapsed = time.monotonic() - start
done.set()
sampler.join()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
maxrss = usage.ru_maxrss * 1024
if gnu_time:
    # The last line: GNU time puts "Command exited with non-zero status N" first.
    with open(maxrss_file) as f:
        kib, user, system = f.read().split("\n")[-2].split()
    # Its CPU too: a child of this Python process is charged 0.04-0.07 s
    # (here) before its exec, more than some whole runs of analyze take.
    maxrss, cpu = int(kib) * 1024, float(user) + float(system)
peak = max(peak[0], maxrss)
if proc.returncode not in [int(c) for c in os.environ.get("MEASURE_OK", "0").split()]:
    sys.exit("command failed (%d): %s" % (proc.returncode, " ".join(sys.argv[1:])))
# CPU: user + system time of the command and every process it waited for
# (analyze's workers included), which load on a shared machine changes far
# less than wall time.
print("%.3f %.1f %.3f" % (elapsed, peak / 1048576, cpu))
PY
}

# GNU time, if installed (BSD time and the shell keyword have no -f %M).
gnu_time() {
  local path
  path="$(type -P time || true)"
  [[ -n "$path" ]] && "$path" -f '%M' -o /dev/null true >/dev/null 2>&1 && printf '%s' "$path"
  return 0
}

# jq's selection of REPORT's lines, a few fields of each, on a JSON log
# (FORMAT json) or on a 4.2 text log (FORMAT text, jq -R): the same lines,
# the text ones picked by a substring and their fields taken by a regex
# (capture), as jq reads a text log; queries takes the whole command text,
# where a regex cannot cut the filter out of nested braces.
jq_filter() {
  case "$1:$2" in
    cursors:json) printf '%s' 'select(.id == 51803 and .attr.cursorid != null) | [.attr.cursorid, .attr.nreturned, .attr.docsExamined, .attr.durationMillis]' ;;
    refresh:json) printf '%s' 'select(.id == 4619901) | [.attr.namespace, .attr.durationMillis]' ;;
    queries:json) printf '%s' 'select(.id == 51803) | [.attr.ns, .attr.command.filter, .attr.durationMillis]' ;;
    cursors:text) printf '%s' 'select(contains(" cursorid:")) | capture(" cursorid:(?<id>[0-9]+) .* docsExamined:(?<docs>[0-9]+) .* nreturned:(?<n>[0-9]+) .* (?<ms>[0-9]+)ms$") | [.id, .n, .docs, .ms]' ;;
    refresh:text) printf '%s' 'select(contains("Refresh for collection ")) | capture("Refresh for collection (?<ns>[^ ]+) .* took (?<ms>[0-9]+) ms") | [.ns, .ms]' ;;
    queries:text) printf '%s' 'select(endswith("ms")) | capture("\\] [a-z]+ (?<ns>[^ ]+) .* command: (?<cmd>.*) planSummary: .* (?<ms>[0-9]+)ms$") | [.ns, .cmd, .ms]' ;;
  esac
}

# grep -F's arguments: the needles analyze itself scans for (needles() in
# playbooks/lib/analyze/{cursors,refresh,queries}.py), for FORMAT json or text.
grep_needles() {
  case "$1:$2" in
    refresh:json) printf '%s\n' -e efresh ;;
    refresh:text) printf '%s\n' -e efresh -e 'time to load chunks' ;;
    cursors:text) printf '%s\n' -e cursorid ;;
    queries:text) printf '%s\n' -e ms ;;
    *) printf '%s\n' -e 51803 ;;
  esac
}

# Times TOOL (analyze, jq, grep, zcat) on REPORT over LOG read in FORM
# (file, legacy: LOG as a file; gzip: LOG.gz; stdin: through a pipe) with
# OUTPUT (json, table: analyze's output form); prints measure's line.
# shellcheck disable=SC2016  # the sh -c scripts' $1... are their own
run_tool() {
  local tool="$1" form="$2" report="$3" log="$4" engine="$5" output="$6" format=json filter
  local -a needles json=()
  [[ "$form" == legacy ]] && format=text
  [[ "$output" == json ]] && json=(--json)
  filter="$(jq_filter "$report" "$format")"
  mapfile -t needles < <(grep_needles "$report" "$format")
  case "${tool}:${form}" in
    analyze:file|analyze:legacy)
      DBA_LAB_ANALYZE_ENGINE="$engine" measure "${ROOT}/playbooks/analyze" "$report" "${json[@]}" "$log" ;;
    analyze:gzip)
      DBA_LAB_ANALYZE_ENGINE="$engine" measure "${ROOT}/playbooks/analyze" "$report" "${json[@]}" "${log}.gz" ;;
    analyze:stdin)
      DBA_LAB_ANALYZE_ENGINE="$engine" measure sh -c 'log="$1"; shift; cat -- "$log" | "$@" -' sh "$log" \
        "${ROOT}/playbooks/analyze" "$report" "${json[@]}" ;;
    jq:file) measure jq -c "$filter" "$log" ;;
    jq:legacy) measure jq -R -c "$filter" "$log" ;;
    jq:gzip) measure sh -c 'zcat -- "$1" | jq -c "$2"' sh "${log}.gz" "$filter" ;;
    jq:stdin) measure sh -c 'cat -- "$1" | jq -c "$2"' sh "$log" "$filter" ;;
    # grep exits 1 when nothing matched: in a pipe, the pipe's status.
    grep:file|grep:legacy) MEASURE_OK="0 1" measure env LC_ALL=C grep -F "${needles[@]}" "$log" ;;
    grep:gzip)
      MEASURE_OK="0 1" measure sh -c 'log="$1"; shift; zcat -- "$log" | LC_ALL=C grep -F "$@"' sh "${log}.gz" "${needles[@]}" ;;
    grep:stdin)
      MEASURE_OK="0 1" measure sh -c 'log="$1"; shift; cat -- "$log" | LC_ALL=C grep -F "$@"' sh "$log" "${needles[@]}" ;;
    zcat:gzip) measure sh -c 'zcat -- "$1" >/dev/null' sh "${log}.gz" ;;
    *) die "no ${tool} run for ${form}" ;;
  esac
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

main() {
  local size_mb=300 rounds=3 logs="$LOGS_ALL" reports="$REPORTS_ALL" inputs="$INPUTS_ALL" outputs="$OUTPUTS_ALL"
  local engine=auto memory=1 tmp kind report round tool out form output log
  while (($#)); do
    case "$1" in
      -h|--help) usage; return 0 ;;
      --size-mb) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--size-mb needs a number of MiB"; size_mb="$2"; shift ;;
      --rounds) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--rounds needs a number (0: memory only)"; rounds="$2"; shift ;;
      --logs) need_list --logs "${2-}" few all distinct shapes refreshes; logs="$2"; shift ;;
      --reports) need_list --reports "${2-}" cursors refresh queries; reports="$2"; shift ;;
      --inputs) need_list --inputs "${2-}" file gzip stdin legacy; inputs="$2"; shift ;;
      --outputs) need_list --outputs "${2-}" json table; outputs="$2"; shift ;;
      --engine) [[ $# -ge 2 && "$2" =~ ^(auto|go|python)$ ]] || die "--engine needs auto, go or python"; engine="$2"; shift ;;
      --no-memory) memory=0 ;;
      *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
  done
  command -v jq >/dev/null || die "jq is needed for the comparison"
  MEASURE_TIME="$(gnu_time)"
  export MEASURE_TIME
  [[ -n "$MEASURE_TIME" ]] || printf 'bench/analyze: no GNU time: peak memory cannot read below this Python sampler'"'"'s own RSS (about 14 MiB), and CPU counts about 0.05 s per run of fork\n' >&2

  tmp="$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-analyze-bench.XXXXXX")"
  export MEASURE_SINK="${tmp}/out"
  # shellcheck disable=SC2064  # expand now: the path is fixed from here on
  trap "rm -rf -- '$tmp'" EXIT
  local -a kinds report_list forms output_list
  IFS=, read -r -a kinds <<<"$logs"
  IFS=, read -r -a report_list <<<"$reports"
  IFS=, read -r -a forms <<<"$inputs"
  IFS=, read -r -a output_list <<<"$outputs"
  for kind in "${kinds[@]}"; do
    printf 'generating %s: %d MiB ... ' "$kind" "$size_mb" >&2
    printf '%s lines\n' "$(generate "$kind" "${tmp}/${kind}.log" "$size_mb")" >&2
    if [[ ",${inputs}," == *,gzip,* ]]; then
      gzip -6 -c -- "${tmp}/${kind}.log" >"${tmp}/${kind}.log.gz"
    fi
    if [[ ",${inputs}," == *,legacy,* ]]; then
      printf 'generating %s-text: the same events as 4.2 text ... ' "$kind" >&2
      printf '%s lines\n' "$(generate "${kind}-text" "${tmp}/${kind}-text.log" "$size_mb")" >&2
    fi
  done

  # The bound holds for text logs too: their twins join the memory check.
  local -a memory_logs=("${kinds[@]}")
  [[ ",${inputs}," == *,legacy,* ]] && memory_logs+=("${kinds[@]/%/-text}")
  if [[ "$engine" == go && ",${inputs}," == *,legacy,* ]]; then
    for report in "${report_list[@]}"; do
      go_reads "${tmp}/${kinds[0]}-text.log" "$report" \
        || die "--engine go: the Go engine hands $report of text logs over to the Python engine; use --engine auto to time legacy"
    done
  fi
  ((memory)) && memory_bounds "$tmp" "${memory_logs[@]}" -- "${report_list[@]}"
  ((rounds)) || return 0

  # Rounds alternate the tools (each round starts with another one) so that
  # neither always runs on a cold cache or a busier machine. jq, grep and
  # zcat do not depend on analyze's output form: one run of each per round.
  for ((round = 0; round < rounds; round++)); do
    for kind in "${kinds[@]}"; do
      for form in "${forms[@]}"; do
        log="${tmp}/${kind}.log"
        [[ "$form" == legacy ]] && log="${tmp}/${kind}-text.log"
        cat -- "$log"* >/dev/null
        local -a tools=()
        for output in "${output_list[@]}"; do tools+=("analyze:${output}"); done
        tools+=(jq grep)
        [[ "$form" == gzip ]] && tools+=(zcat)
        for report in "${report_list[@]}"; do
          local i
          for ((i = 0; i < ${#tools[@]}; i++)); do
            tool="${tools[$(((i + round) % ${#tools[@]}))]}"
            output=-
            [[ "$tool" == analyze:* ]] && output="${tool#analyze:}"
            out="$(run_tool "${tool%%:*}" "$form" "$report" "$log" "$engine" "$output")"
            printf '%s %s %s %s %s %s\n' "$kind" "$form" "$report" "${tool%%:*}" "$output" "$out" >>"${tmp}/runs"
            printf 'round %d  %-9s %-6s %-8s %-7s %-5s %s\n' "$((round + 1))" "$kind" "$form" "$report" "${tool%%:*}" \
              "$output" "$out" >&2
          done
        done
      done
    done
  done

  printf '\n%-9s %-6s %-8s %-5s %8s %7s %6s %6s %7s %7s %6s %6s %6s %6s %7s %7s %6s %6s  %s\n' LOG INPUT REPORT OUT \
    ANALYZE CPU "MB/s" PEAK JQ "JQ CPU" GREP "G CPU" "x JQ" "x JQc" "% GREP" "% GREPc" ZCAT "/ZCAT" GOAL
  local mb a_s a_c a_mem j_s j_c g_s g_c z_s
  for kind in "${kinds[@]}"; do
    for form in "${forms[@]}"; do
      log="${tmp}/${kind}.log"
      [[ "$form" == legacy ]] && log="${tmp}/${kind}-text.log"
      mb=$(awk -v b="$(wc -c <"$log")" 'BEGIN { print b / 1048576 }')
      for report in "${report_list[@]}"; do
        j_s=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" jq - 6)
        j_c=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" jq - 8)
        g_s=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" grep - 6)
        g_c=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" grep - 8)
        z_s=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" zcat - 6)
        for output in "${output_list[@]}"; do
          a_s=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" analyze "$output" 6)
          a_c=$(runs_median "${tmp}/runs" "$kind" "$form" "$report" analyze "$output" 8)
          a_mem=$(awk -v k="$kind" -v f="$form" -v r="$report" -v o="$output" \
            '$1 == k && $2 == f && $3 == r && $4 == "analyze" && $5 == o { print $7 }' "${tmp}/runs" | sort -g | tail -n 1)
          cell_row "$kind" "$form" "$report" "$output" "$mb" "$a_s" "$a_c" "$a_mem" "$j_s" "$j_c" "$g_s" "$g_c" "$z_s"
        done
      done
    done
  done
  local peak_how="the largest process's maxrss (GNU time) or the process tree's RSS, whichever is more"
  [[ -n "$MEASURE_TIME" ]] || peak_how="no GNU time: never below the sampler's own RSS, about 14 MiB"
  printf '\nanalyze engine: %s. %d MiB per JSON log (uncompressed; the legacy text twin of the same events is smaller: MB/s from its own size), %d round(s), medians; seconds are wall (ANALYZE, JQ, GREP, ZCAT) and user + system CPU (CPU, JQ CPU, G CPU); PEAK = MiB, largest analyze run: %s.\n' \
    "$engine" "$size_mb" "$rounds" "$peak_how"
  printf 'Inputs: file = LOG; gzip = LOG.gz (analyze) and zcat LOG.gz | (jq, grep), ZCAT = zcat LOG.gz >/dev/null; stdin = cat LOG | (every tool); legacy = the 4.2 text twin as a file (jq -R with a regex, grep -F with the text needles).\n'
  printf 'Goals (GOAL judges the wall ratios, as the issue measures; x JQc and %% GREPc are the same from CPU time, steadier on a loaded machine): file, stdin, legacy: x JQ >= 10 and %% GREP >= 25; gzip: /ZCAT <= 1.5 and %% GREP >= 25.\n'
}

# One row of the speed table, with its goal: met, or what missed it.
cell_row() {
  awk -v k="$1" -v f="$2" -v r="$3" -v o="$4" -v mb="$5" -v a="$6" -v ac="$7" -v m="$8" -v j="$9" -v jc="${10}" \
    -v g="${11}" -v gc="${12}" -v z="${13}" 'function div(x, y) { return x / (y > 0.001 ? y : 0.001) }
    BEGIN {
      xj = div(j, a); pg = 100 * div(g, a)
      printf "%-9s %-6s %-8s %-5s %8.2f %7.2f %6.0f %6.1f %7.2f %7.2f %6.2f %6.2f %5.1fx %5.1fx %6.0f%%", k, f, r, o,
        a, ac, div(mb, a), m, j, jc, g, gc, xj, div(jc, ac), pg
      # GNU time gives CPU in hundredths: grep on a small log takes none.
      if (gc > 0) printf " %6.0f%%", 100 * div(gc, ac); else printf " %7s", "-"
      miss = ""
      if (f == "gzip") {
        if (z == "") miss = "no zcat run"
        else if (div(a, z) > 1.5) miss = "/zcat"
        printf " %6.2f %5.2fx", z, div(a, z)
      } else {
        if (xj < 10) miss = "x jq"
        printf " %6s %6s", "-", "-"
      }
      if (pg < 25) miss = miss (miss == "" ? "" : ", ") "% grep"
      printf "  %s\n", miss == "" ? "met" : "missed: " miss
    }'
}

# Whether the Go engine runs REPORT on LOG itself rather than handing it
# over to the Python engine (exit 3), as it does with what it does not
# parse: asked of LOG's first 64 KiB, which is what it tells logs by.
go_reads() {
  local log="$1" report="$2" probe="${MEASURE_SINK}.probe" status=0
  [[ -x "${ROOT}/.tools/bin/analyze-go" ]] || return 1
  head -c 65536 -- "$log" >"$probe"
  DBA_LAB_ANALYZE_ENGINE=go "${ROOT}/playbooks/analyze" "$report" --json "$probe" >/dev/null 2>&1 || status=$?
  rm -f -- "$probe"
  [[ "$status" -ne 3 ]]
}

# Peak memory of every report in both formats with both engines on the logs
# in DIR, against the bound 64 MiB + 200 B per distinct key: the lines of the
# --json run (one record per cursor, refresh, query group or namespace).
memory_bounds() {
  local dir="$1" kind report engine form keys out peak bound mark over=0
  shift
  local -a kinds=() report_list=()
  while [[ "$1" != -- ]]; do kinds+=("$1"); shift; done
  shift
  report_list=("$@")
  local -a rows=() engines=(python)
  # Without the Go engine (no Go at setup) only the Python one runs.
  [[ -x "${ROOT}/.tools/bin/analyze-go" ]] && engines=(go python)
  for kind in "${kinds[@]}"; do
    for report in "${report_list[@]}"; do
      for engine in "${engines[@]}"; do
        if [[ "$engine" == go ]] && ! go_reads "${dir}/${kind}.log" "$report"; then
          rows+=("$(printf '%-14s %-8s %-6s %-6s %8s %6s %8s %9s  %s' "$kind" "$report" go - - - - - \
            "handed over: the Go engine leaves this report on this log to Python")")
          continue
        fi
        for form in --json table; do
          local -a args=("$report")
          [[ "$form" == --json ]] && args+=(--json)
          out="$(DBA_LAB_ANALYZE_ENGINE="$engine" measure "${ROOT}/playbooks/analyze" "${args[@]}" "${dir}/${kind}.log")"
          # The --json run comes first: its records are the keys of both.
          [[ "$form" == --json ]] && keys=$(wc -l <"$MEASURE_SINK")
          peak=$(awk '{ print $2 }' <<<"$out")
          bound=$(awk -v k="$keys" 'BEGIN { printf "%.1f", 64 + 200 * k / 1048576 }')
          mark=ok
          awk -v p="$peak" -v b="$bound" 'BEGIN { exit !(p > b) }' && { mark=OVER; over=$((over + 1)); }
          rows+=("$(printf '%-14s %-8s %-6s %-6s %8.1f %6.1f %8d %9s  %s' "$kind" "$report" "$engine" "$form" \
            "$(awk '{ print $1 }' <<<"$out")" "$peak" "$keys" "$bound" "$mark")")
          printf 'memory  %s\n' "${rows[-1]}" >&2
        done
      done
    done
  done
  printf '\n%-14s %-8s %-6s %-6s %8s %6s %8s %9s  %s\n' LOG REPORT ENGINE FORMAT SECONDS PEAK KEYS BOUND MARK
  printf '%s\n' "${rows[@]}"
  printf '\nPEAK and BOUND in MiB; BOUND = 64 MiB + 200 B x KEYS (KEYS: --json records, one per cursor, refresh, query group or namespace). %d over the bound.\n\n' "$over"
}

# The median of field FIELD over the runs of LOG, INPUT, REPORT, TOOL and
# OUTPUT (- for the tools other than analyze) in RUNS_FILE (nothing when
# there are none).
runs_median() {
  local runs_file="$1" kind="$2" form="$3" report="$4" tool="$5" output="$6" field="$7"
  awk -v k="$kind" -v i="$form" -v r="$report" -v t="$tool" -v o="$output" -v f="$field" \
    '$1 == k && $2 == i && $3 == r && $4 == t && $5 == o { print $f }' "$runs_file" | median
}

main "$@"
