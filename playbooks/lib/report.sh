# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Measurements, tables, charts, verdicts and log excerpts, and the report
# directory built from them: results.json (jq), one CSV per table, logs/, and
# from results.json report.md, report.html and SVG charts (js/report).
#
# Everything is first appended as one JSON object per line to $PB_RECORDS,
# from bash (these functions) and from mongosh stages (stage.measure() etc. in
# js/stage.js), and turned into the report at the end, also after a failure.
# Numbers are written as JSON numbers only when jq 1.6 keeps them exact
# (at most 15 digits); longer integers such as cursor ids stay strings.

PB_REPORT_WRITTEN=0
PB_REPORT_READY=''

pb::_record() {
  printf '%s\n' "$1" >>"$PB_RECORDS"
}

# jq filter: strings that are safe numbers become numbers, true/false booleans.
PB_JQ_TYPED='def typed: if type != "string" then . elif . == "true" then true elif . == "false" then false elif test("^-?(0|[1-9][0-9]{0,14})(\\.[0-9]+)?([eE][-+]?[0-9]{1,3})?$") then tonumber else . end;'

# jq filter: the records (an array) -> results.json's tables {NAME: {title, columns, rows}}.
# shellcheck disable=SC2016 # jq variables, not the shell's
PB_JQ_TABLES='def tables: reduce (.[] | select(.type == "table" or .type == "row")) as $x ({};
  if $x.type == "table" then .[$x.name] = (.[$x.name] // {rows: []}) + {title: $x.title, columns: $x.columns}
       + (if $x.source then {source: $x.source} else {} end)
  else .[$x.table] = (.[$x.table] // {title: $x.table, columns: (($x.row // {}) | keys_unsorted), rows: []})
       | .[$x.table].rows += [{version: (if .[$x.table].source then "" else $x.version end),
           values: (if $x.values then $x.values
                    else [.[$x.table].columns[] as $c | $x.row[$c]] end)}] end);'

# pb::measure KEY VALUE [UNIT]: one measurement (of the current version).
pb::measure() {
  local key="$1" value="$2" unit="${3:-}"
  pb::_record "$(jq -nc --arg k "$key" --arg v "$value" --arg u "$unit" --arg ver "${PB_VERSION:-}" \
    --arg s "${PB_CURRENT_STAGE:-}" "${PB_JQ_TYPED}"'{type: "measure", version: $ver, stage: $s, key: $k, value: ($v | typed), unit: $u}')"
}

# pb::table NAME "Title" COLUMN...: declares a table (a CSV and a report section).
pb::table() {
  local name="$1" title="$2"
  shift 2
  [[ "$name" =~ ^[a-z0-9][a-z0-9_-]*$ ]] || pb::die "pb::table: name '${name}' must be lower-case letters, digits, - or _"
  (($#)) || pb::die "pb::table ${name}: no columns"
  pb::_record "$(jq -nc --arg n "$name" --arg t "$title" '{type: "table", name: $n, title: $t, columns: $ARGS.positional}' --args "$@")"
}

# pb::row NAME VALUE...: one row, values in column order.
pb::row() {
  local name="$1"
  shift
  pb::_record "$(jq -nc --arg n "$name" --arg ver "${PB_VERSION:-}" \
    "${PB_JQ_TYPED}"'{type: "row", table: $n, version: $ver, values: ($ARGS.positional | map(typed))}' --args "$@")"
}

# pb::note "markdown text": a paragraph under "What was done".
pb::note() {
  pb::_record "$(jq -nc --arg t "$1" --arg ver "${PB_VERSION:-}" --arg s "${PB_CURRENT_STAGE:-}" \
    '{type: "note", version: $ver, stage: $s, text: $t}')"
}

# The run's parameters for the checker: the scale's name and values, then
# every scenario option by its long name (--load-seconds -> load-seconds).
pb::_check_params() {
  local i k pairs=("scale" "$PB_SCALE_NAME")
  for k in "${!PB_SCALE[@]}"; do pairs+=("$k" "${PB_SCALE[$k]}"); done
  for i in "${!PB_OPT_FLAGS[@]}"; do
    [[ "${PB_OPT_COMMON[$i]}" == 0 ]] || continue
    pairs+=("${PB_OPT_FLAGS[$i]#--}" "${!PB_OPT_VARS[$i]}")
  done
  jq -nc "${PB_JQ_TYPED}"'[$ARGS.positional | range(0; length; 2) as $n | {(.[$n]): (.[$n + 1] | typed)}] | add' \
    --args "${pairs[@]}"
}

# The records as the checker's input: results.json's measurements, tables,
# versions, the params above, and the server when preflight probed one (a
# server that is not MongoDB gets no MongoDB prediction).
pb::_check_input() {
  jq -s --argjson params "$(pb::_check_params)" --argjson server "$(pb::_server_json)" "${PB_JQ_TABLES}"'
    {measurements: map(select(.type == "measure") | {version, key, value, unit}),
     tables: tables,
     params: $params,
     server: $server,
     versions: map(select(.type == "version") | {requested, resolved, server})}' "$PB_RECORDS"
}

# The server preflight's --uri probe found, as {product, version, reportsAs}:
# FerretDB answers buildInfo with a MongoDB version and keeps its own in
# ferretdbVersion, so the report and the checker can name it for what it is.
# null when nothing was probed (a launched cluster is the MongoDB it installed).
pb::_server_json() {
  local json=''
  if [[ -n "${PB_SERVER_INFO:-}" ]]; then
    json=$(jq -c 'if .ferretdb then {product: "FerretDB", version: .ferretdb, reportsAs: .version}
      else {product: "MongoDB", version: .version, reportsAs: .version} end' <<<"$PB_SERVER_INFO" 2>/dev/null) || json=''
  fi
  printf '%s\n' "${json:-null}"
}

# pb::check: the scenario's checker (${PB_SCENARIO}/checker.js, through
# js/check.js) decides the verdicts from the run's records; one verdict record
# each. pb::main calls it after stage_report. With --dry-run it lists the
# claims to be checked. A checker that fails, or a malformed verdict, fails
# the report stage with one line naming the checker.
pb::check() {
  local checker="${PB_SCENARIO}/checker.js" rel input out line error
  rel=${checker#"${PB_ROOT}/"}
  [[ -f "$checker" ]] || pb::die "playbook bug: no checker ${rel}"
  if ((PB_DRY_RUN)); then
    if ! pb::capture --read-only out node "${PB_LIB}/js/check.js" --claims "$checker"; then
      error=$(jq -r 'select(.type == "error") | .message' <<<"$out" 2>/dev/null | head -n 1)
      pb::die "checker ${rel}: ${error:-failed (see run.log)}"
    fi
    while IFS= read -r line; do
      pb::info "to be checked: ${line}"
    done < <(jq -r '"\(.claim) (expected \(.expected)\(if .needs then "; needs \(.needs)" else "" end))"' <<<"$out")
    return 0
  fi
  input="${PB_WORK}/check-input.json"
  pb::_check_input >"$input"
  if ! pb::capture --read-only out node "${PB_LIB}/js/check.js" "$checker" "$input"; then
    error=$(jq -r 'select(.type == "error") | .message' <<<"$out" 2>/dev/null | head -n 1)
    pb::die "checker ${rel}: ${error:-failed (see run.log)}"
  fi
  [[ -n "$out" ]] || return 0
  while IFS= read -r line; do
    pb::_record "$line"
  done <<<"$out"
  while IFS= read -r line; do
    pb::info "$line"
  done < <(pb::_verdict_lines <<<"$out")
}

# jq filter: server_label(VERSION): VERSION, or "FerretDB vX" where the --uri server
# ($server, preflight's probe) is FerretDB and VERSION is the MongoDB version
# it answers buildInfo with (a version it only imitates never stands alone).
# shellcheck disable=SC2016 # jq variables, not the shell's
PB_JQ_LABEL='def server_label($v): if ($server | type) == "object" and $server.ferretdb and $v == $server.version
  then "FerretDB \($server.ferretdb)" else $v end;'

# pb::server_label VERSION: server_label(VERSION) above; without a --uri server
# probe there is nothing to rename, and no jq to start.
pb::server_label() {
  if [[ -z "${PB_SERVER_INFO:-}" ]]; then
    printf '%s\n' "$1"
    return 0
  fi
  jq -rn --arg v "$1" --argjson server "$PB_SERVER_INFO" "${PB_JQ_LABEL}"'server_label($v)'
}

# Verdict records (one per line) on stdin -> one terminal line each: the
# claim's word and the prediction (coloured by the prediction: whether the
# claim held is no good or bad news), the version as the report names it,
# and what it was judged on. One jq for all of them.
pb::_verdict_lines() {
  jq -r --argjson server "${PB_SERVER_INFO:-null}" --arg green "$PB_C_GREEN" --arg red "$PB_C_RED" \
    --arg yellow "$PB_C_YELLOW" --arg off "$PB_C_OFF" "${PB_JQ_LABEL}"'
    (if .prediction == null then "" else .prediction end) as $p
    | (if .version == "" or .version == null then "" else " [\(server_label(.version))]" end) as $v
    | (if $p == "AS PREDICTED" then $green elif $p == "NOT AS PREDICTED" then $red else $yellow end)
      + .verdict + (if $p != "" then ", \($p)" else "" end) + $off + ": "
      + (if .verdict == "NOT APPLICABLE"
         then "\(.claim)\($v): \(.reason)\(if .observed != "" then " (observed \(.observed))" else "" end)"
         else "\(.claim)\($v) (expected \(.expected), observed \(.observed)\(if .reason != "" then "; \(.reason)" else "" end)\(if .evidence.summary then "; evidence: \(.evidence.summary)" else "" end))"
         end)'
}

# pb::verdict_summary: the closing summary's verdict counts, both parts, and
# the legend's one line when there is a verdict to read.
pb::verdict_summary() {
  local counts=''
  if [[ -f "$PB_RECORDS" ]]; then
    counts=$(jq -rs 'map(select(.type == "verdict")) as $v
      | def count(f): [$v[] | f | select(. != null and . != "")] | group_by(.) | map("\(length) \(.[0])") | join(", ");
      [count(.verdict), count(.prediction)] | map(select(. != "")) | join("; ")' "$PB_RECORDS" 2>/dev/null || true)
  fi
  pb::info "verdicts: ${counts:-none}"
  if [[ -n "$counts" ]]; then
    pb::info "  $(node "${PB_LIB}/js/report/legend.js" --short 2>/dev/null || true)"
  fi
}

# pb::chart NAME --table T --x COLUMN --y COLUMN[,COLUMN...] [--group COLUMN]
#           [--title T] [--xlabel T] [--ylabel T] [--logx] [--logy]
#           [--style lines|points|linespoints] [--answers ID[,ID...]]
#           [--trend-of ID]
# charts/NAME.svg and its Vega-Lite spec charts/NAME.vl.json, drawn in Node at
# report time; one series per --y column, times one per distinct --group value
# (e.g. version, run); a table with rows of several versions is drawn one panel
# per version, side by side. An --x column of names (methods) is a named axis
# in the table's order. --answers: the ids of the verdicts (checker.js) this
# chart answers: the report shows it right under the verdicts. --trend-of: the
# claim whose trend the chart's lines show; a series with fewer points than
# that claim's needs.minPoints (declared in checker.js) is drawn as points
# alone, with the reason in the chart's caption.
pb::chart() {
  local name="$1" table='' x='' y='' group='' title='' xlabel='' ylabel='' logx=false logy=false style=linespoints answers=''
  local trend_of='' trend=null
  shift
  while (($#)); do
    case "$1" in
      --logx) logx=true; shift; continue ;;
      --logy) logy=true; shift; continue ;;
    esac
    (($# >= 2)) || pb::die "pb::chart ${name}: $1 needs a value"
    case "$1" in
      --table) table="$2" ;;
      --x) x="$2" ;;
      --y) y="$2" ;;
      --group) group="$2" ;;
      --title) title="$2" ;;
      --xlabel) xlabel="$2" ;;
      --ylabel) ylabel="$2" ;;
      --style) style="$2" ;;
      --answers) answers="$2" ;;
      --trend-of) trend_of="$2" ;;
      *) pb::die "pb::chart ${name}: unknown argument '$1'" ;;
    esac
    shift 2
  done
  [[ "$name" =~ ^[a-z0-9][a-z0-9_-]*$ ]] || pb::die "pb::chart: name '${name}' must be lower-case letters, digits, - or _"
  [[ -n "$table" && -n "$x" && -n "$y" ]] || pb::die "pb::chart ${name}: --table, --x and --y are required"
  if [[ -n "$trend_of" ]]; then
    trend=$(pb::_claim_trend "${PB_SCENARIO}/checker.js" "$trend_of") \
      || pb::die "pb::chart ${name}: --trend-of ${trend_of}: ${PB_SCENARIO}/checker.js declares no claim '${trend_of}' with needs.minPoints"
  fi
  pb::_record "$(jq -nc --arg n "$name" --arg t "$table" --arg x "$x" --arg y "$y" --arg g "$group" \
    --arg title "${title:-$name}" --arg xl "${xlabel:-$x}" --arg yl "${ylabel:-$y}" \
    --argjson lx "$logx" --argjson ly "$logy" --arg s "$style" --arg a "$answers" --argjson trend "$trend" \
    '{type: "chart", name: $n, table: $t, x: $x, y: ($y | split(",")), group: $g, title: $title,
      xlabel: $xl, ylabel: $yl, logx: $lx, logy: $ly, style: $s,
      answers: ($a | split(",") | map(select(. != "")))}
      + (if $trend == null then {} else {trend: $trend} end)')"
}

# pb::_claim_trend CHECKER ID: {claim, minPoints, pointsOf} of claim ID as the
# checker declares its needs (the one place the number lives), as JSON; fails
# when the checker has no such claim or the claim no needs.minPoints.
pb::_claim_trend() {
  node -e '
    const [file, id] = process.argv.slice(1);
    const claim = (require(require("path").resolve(file)).claims || []).find((c) => c.id === id);
    const needs = claim && claim.needs;
    if (!needs || !Number.isInteger(needs.minPoints)) process.exit(1);
    process.stdout.write(JSON.stringify({ claim: id, minPoints: needs.minPoints, pointsOf: needs.pointsOf || "points" }));
  ' "$1" "$2"
}

# pb::excerpt NAME FILE [--grep ERE] [--max N] [--note TEXT]: copies the lines of
# a log (plain or .gz) that the analysis used into logs/NAME in the report.
pb::excerpt() {
  local name="$1" file="$2" grep='' max=200 note='' dest lines
  shift 2
  while (($#)); do
    (($# >= 2)) || pb::die "pb::excerpt ${name}: $1 needs a value"
    case "$1" in
      --grep) grep="$2" ;;
      --max) max="$2" ;;
      --note) note="$2" ;;
      *) pb::die "pb::excerpt ${name}: unknown argument '$1'" ;;
    esac
    shift 2
  done
  [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || pb::die "pb::excerpt: name '${name}' must be a plain file name"
  if ((PB_DRY_RUN)); then
    pb::info "excerpt ${name}: lines of ${file}${grep:+ matching ${grep}} (at most ${max})"
    return 0
  fi
  mkdir -p "${PB_WORK}/logs"
  dest="${PB_WORK}/logs/${name}"
  {
    if [[ "$file" == *.gz ]]; then gzip -dc -- "$file"; else cat -- "$file"; fi
  } 2>/dev/null | { if [[ -n "$grep" ]]; then grep -E -- "$grep" || true; else cat; fi; } \
    | head -n "$max" >"$dest" || true
  lines=$(wc -l <"$dest" | tr -d ' ')
  pb::_record "$(jq -nc --arg n "$name" --arg f "$file" --arg g "$grep" --arg note "$note" --argjson l "$lines" \
    --arg ver "${PB_VERSION:-}" '{type: "excerpt", name: $n, source: $f, grep: $g, lines: $l, note: $note, version: $ver, file: ("logs/" + $n)}')"
}

# --- environment ---------------------------------------------------------

pb::_os_name() {
  if [[ -r /etc/os-release ]]; then
    (. /etc/os-release && printf '%s' "${PRETTY_NAME:-${NAME:-Linux}}")
  elif command -v sw_vers >/dev/null 2>&1; then
    printf 'macOS %s' "$(sw_vers -productVersion)"
  else
    uname -s
  fi
}

pb::_cpu_model() {
  if [[ -r /proc/cpuinfo ]]; then
    awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo
  else
    sysctl -n machdep.cpu.brand_string 2>/dev/null || uname -m
  fi
}

pb::_cpu_count() {
  nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || printf '0'
}

pb::_memory_bytes() {
  if [[ -r /proc/meminfo ]]; then
    awk '/^MemTotal:/ {printf "%.0f", $2 * 1024; exit}' /proc/meminfo
  else
    sysctl -n hw.memsize 2>/dev/null || printf '0'
  fi
}

# Versions are asked once per run (mongosh and mlaunch take a second each).
declare -gA PB_TOOL_VERSIONS=()
pb::_tool_version() {
  if [[ -v "PB_TOOL_VERSIONS[$1]" ]]; then
    printf '%s\n' "${PB_TOOL_VERSIONS[$1]}"
    return 0
  fi
  PB_TOOL_VERSIONS[$1]=$(pb::_ask_tool_version "$1" 2>/dev/null || true)
  printf '%s\n' "${PB_TOOL_VERSIONS[$1]}"
}

pb::_ask_tool_version() {
  case "$1" in
    mongosh) tool_versions::mongosh "$(command -v mongosh)" ;;
    m) m --version 2>/dev/null | head -n 1 ;;
    mlaunch) tool_versions::mlaunch "$(command -v mlaunch)" ;;
    jq) jq --version 2>/dev/null ;;
    mongodump|mongorestore|mongoexport) "$1" --version 2>/dev/null | awk 'NR == 1 {print $NF}' ;;
    node) node --version 2>/dev/null | sed 's/^v//' ;;
    python3) python3 --version 2>&1 | awk '{print $2}' ;;
  esac
}

# Records the host, tools, topology and scale once (results.json "environment").
pb::_record_environment() {
  local tools=() t v scale_json server_json=null
  # The tools this run used (pb::_required_tools), bash and node (the report).
  for t in bash $(pb::_required_tools) node; do
    if [[ "$t" == bash ]]; then
      v=$BASH_VERSION
    elif command -v "$t" >/dev/null 2>&1; then
      pb::_tool_version "$t" >/dev/null
      v=${PB_TOOL_VERSIONS[$t]:-}
    else
      v=''
    fi
    tools+=("${t}=${v:-absent}")
  done
  scale_json='{}'
  if ((${#PB_SCALE[@]})); then
    scale_json=$(for t in "${!PB_SCALE[@]}"; do printf '%s\t%s\n' "$t" "${PB_SCALE[$t]}"; done \
      | jq -Rn "${PB_JQ_TYPED}"'[inputs | split("\t") | {(.[0]): (.[1] | typed)}] | add // {}')
  fi
  server_json=$(pb::_server_json)
  pb::_record "$(jq -nc \
    --argjson server "${server_json:-null}" \
    --arg host "$(hostname 2>/dev/null || uname -n)" --arg os "$(pb::_os_name)" \
    --arg kernel "$(uname -sr)" --arg arch "$(uname -m)" --arg cpu "$(pb::_cpu_model)" \
    --argjson cpus "$(pb::_cpu_count)" --argjson mem "$(pb::_memory_bytes)" \
    --arg topo "$PB_TOPOLOGY" --arg summary "$(pb::topology_summary)" \
    --argjson nodes "$PB_NODES" --argjson arbiter "$PB_ARBITER" --argjson shards "$PB_SHARDS" \
    --argjson configs "$PB_CONFIG_SERVERS" --argjson mongos "$PB_MONGOS" \
    --arg uri "$(pb::redact "${PB_URI:-}")" --arg port "$PB_PORT" --arg dir "$PB_DIR" \
    --arg scale "$PB_SCALE_NAME" --argjson scaleParams "$scale_json" \
    --arg mongodArgs "$(pb::quote "${PB_MONGOD_ARGS[@]}")" \
    '{type: "environment",
      host: {name: $host, os: $os, kernel: $kernel, arch: $arch, cpu: $cpu, cpus: $cpus, memoryBytes: $mem},
      topology: ({type: $topo, summary: $summary} +
        (if $topo == "uri" then {uri: $uri}
         elif $topo == "none" then {}
         else {nodes: $nodes, arbiter: ($arbiter == 1), shards: $shards, configServers: $configs,
               mongos: $mongos, firstPort: ($port | tonumber), dir: $dir, extraServerOptions: $mongodArgs} end)),
      scale: {name: $scale, params: $scaleParams},
      server: $server,
      tools: ($ARGS.positional | map(split("=") | {(.[0]): (.[1:] | join("="))}) | add)}' \
    --args "${tools[@]}")"
}

# pb::record_version REQUESTED RESOLVED BINPATH [SERVER_VERSION]
pb::record_version() {
  pb::_record "$(jq -nc --arg r "$1" --arg v "$2" --arg b "$3" --arg s "${4:-}" \
    '{type: "version", requested: $r, resolved: $v, binpath: $b, server: $s}')"
}

# --- writing -------------------------------------------------------------

# The records as one JSON document: results.json.
pb::_results_json() {
  local status="$1" stages i last seconds
  # A stage still running (the run failed or was interrupted in it) counts
  # its time so far, as the terminal's summary does.
  last=$((${#PB_STAGE_NAMES[@]} - 1))
  stages=$(for i in "${!PB_STAGE_NAMES[@]}"; do
    seconds=${PB_STAGE_SECONDS[$i]}
    if ((i == last)) && [[ -n "${PB_STAGE_START:-}" ]]; then seconds=$((SECONDS - PB_STAGE_START)); fi
    printf '%s\t%s\t%s\n' "${PB_STAGE_NAMES[$i]}" "${PB_STAGE_LABELS[$i]}" "$seconds"
  done | jq -Rn '[inputs | split("\t") | {name: .[0], label: .[1], seconds: (.[2] | tonumber)}]')
  jq -s --arg status "$status" --arg name "$PB_NAME" --arg title "$PB_TITLE" --arg description "${PB_DESCRIPTION:-}" \
    --argjson params "$(pb::_check_params)" \
    --arg started "$PB_STARTED" --arg finished "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    --argjson seconds "$((SECONDS - PB_T0))" --arg failure "${PB_FAILURE:-}" \
    --arg command "$(pb::redact "$(pb::quote "$0" "${PB_ARGV[@]}")")" \
    --arg runId "$PB_RUN_ID" --argjson stages "$stages" "${PB_JQ_TABLES}"'
    def of(t): map(select(.type == t)) | map(del(.type));
    . as $r
    | ($r | of("table")) as $tables
    | {
        schema: 1, playbook: $name, title: $title, description: $description, runId: $runId, status: $status,
        failure: (if $failure == "" then null else $failure end),
        command: $command, started: $started, finished: $finished, durationSeconds: $seconds,
        params: $params,
        environment: ((($r | of("environment") | .[0]) // {}) + {versions: ($r | of("version"))}),
        stages: $stages,
        measurements: ($r | of("measure")),
        tables: ($r | tables),
        verdicts: ($r | of("verdict")),
        notes: ($r | of("note")),
        charts: ($r | of("chart")),
        logExcerpts: ($r | of("excerpt")),
        knobs: ($r | of("knob") | map(.target |= (. // "" | gsub("(?<a>mongodb(\\+srv)?://[^:/@ ]+:)[^@ ]*@"; "\(.a)***@"))))
      }' "$PB_RECORDS"
}

pb::_write_csvs() {
  local dir="$1" results="$2" name
  while IFS= read -r name; do
    jq -r --arg n "$name" '
      .tables[$n] as $t
      | ([$t.rows[].version] | map(select(. != "")) | length > 0) as $v
      | (if $v then ["version"] else [] end) + $t.columns,
        ($t.rows[] | (if $v then [.version] else [] end) + .values)
      | map(if type == "object" or type == "array" then tojson else . end) | @csv' "$results" >"${dir}/${name}.csv"
  done < <(jq -r '.tables | keys[]' "$results")
}

# pb::report_write STATUS: results.json, CSVs and logs/ into $PB_REPORT_DIR,
# then report.md, report.html and the charts (js/report, also what
# playbooks/report runs), and reports/index.html when the folder is under the
# checkout's reports/. STATUS: done, failed or interrupted.
pb::report_write() {
  local status="$1" dir="$PB_REPORT_DIR" results index=()
  if ((PB_DRY_RUN)); then
    PB_REPORT_WRITTEN=1
    pb::info "report: would be written to ${dir}"
    return 0
  fi
  results="${dir}/results.json"
  pb::_results_json "$status" >"${results}.tmp"
  mv "${results}.tmp" "$results"
  pb::_write_csvs "$dir" "$results"
  if [[ -d "${PB_WORK}/logs" ]]; then
    mkdir -p "${dir}/logs"
    cp -R "${PB_WORK}/logs/." "${dir}/logs/"
  fi
  if [[ "$dir" == "${PB_ROOT}/reports/"* ]]; then
    index=(--index "${PB_ROOT}/reports")
  fi
  # A renderer failure leaves results.json and the CSVs: playbooks/report redoes the rest.
  if ! pb::run --quiet node "${PB_LIB}/js/report/cli.js" "${index[@]}" "$dir"; then
    PB_REPORT_WRITTEN=1
    pb::warn "report: report.md and report.html not written (see run.log); results.json is; retry with playbooks/report ${dir}"
    return 0
  fi
  # Only now: a Ctrl-C before this point leaves it to the exit handler, which
  # writes the report again as interrupted (results.json already said done).
  PB_REPORT_WRITTEN=1
  pb::info "report: ${dir}/report.html"
}

# True when the report folder is free to fill: absent, or empty.
pb::report_dir_unused() {
  [[ ! -e "$PB_REPORT_DIR" ]] || [[ -d "$PB_REPORT_DIR" && -z "$(ls -A "$PB_REPORT_DIR" 2>/dev/null)" ]]
}
