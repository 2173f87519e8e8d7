#!/usr/bin/env bash
# mongodump-raw-bson: "Why mongodump is fast" (windsoilder), measured method by method.
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

PB_NAME=mongodump-raw-bson
PB_TITLE="mongodump is fast because it moves raw BSON and never decodes it"
PB_DESCRIPTION="Seeds the article's data (N collections of {a: \"b\"}, seedCollection recipe tiny-docs;
optionally documents that are expensive to decode), then times every way of
reading it and writing it back, each as a client process (wall, user and system
CPU, peak memory, through os.wait4() in lib/scenarios/mongodump-raw-bson/timed.py;
the server's CPU around each run from serverStatus when it reports it) and
repeated (the table shows medians):
  read   mongodump to a directory; mongodump --archive to a pipe; the Node driver
         with raw: true (no decoding); the same driver decoding; mongosh
         find().toArray(); mongoexport (decodes to JSON)
  floor  cat of the dump files (what reading the bytes alone costs)
  write  mongorestore (defaults, and --numInsertionWorkersPerCollection /
         --numParallelCollections variations); the driver's insertMany of
         decoded documents read from the same dump files
Verdicts: mongodump >= 2x faster than the decoding driver; the raw driver within
1.5x of mongodump while decoding slows the same loop >= 1.25x; mongorestore
>= 5x slower than mongodump.
Needs: the Database Tools (setup builds them into .tools/bin), node with the
mongodb driver (setup), python3 (the timer), and a server: by default m
installs MongoDB 8.0 (needs downloads.mongodb.org); otherwise point
--binarypath at a folder holding mongod, or --uri at any running deployment
(only database dbalab_mongodump-raw-bson is touched). Dump files go to the
run's temporary folder (set TMPDIR to choose the disk)."
PB_DEFAULT_VERSIONS=8.0
PB_TOPOLOGY=single
PB_URI_NEEDS=any      # mongodump, mongorestore and the drivers work against any deployment
PB_NODES=1
PB_WHERE="a mongod it launches (the default), or a replica set (--replicaset)
  judged: decoding, raw, restore (each per --shape), shape (with --shape both)
  every claim compares clean runs: 2 or more of each method (--repeats, default 3)
a deployment given with --uri: any (standalone, replica set member, mongos)
  judged: decoding, raw, restore (each per --shape), shape (with --shape both)
FerretDB (setup/ferretdb.sh start, then --uri)
  judged, with no prediction (the predictions are MongoDB's): decoding, raw, restore, shape
    (with --shape both)
  mongodump waits on FerretDB's slow counts: the factors describe FerretDB, not MongoDB"
PB_EXAMPLES="  playbooks/mongodump-raw-bson.sh --scale small
  playbooks/mongodump-raw-bson.sh --scale full --shape both --repeats 5
  playbooks/mongodump-raw-bson.sh --binarypath ~/mongodb-8.0/bin --replicaset
  playbooks/mongodump-raw-bson.sh --uri 'mongodb://localhost:27017' --scale small
  playbooks/mongodump-raw-bson.sh --dry-run     (every command, nothing run)"
# Two of the timed clients (run.js) are Node programs on the mongodb driver.
PB_NEEDS_DRIVER=1

# docs: documents per tiny collection; nested-docs: nested documents (~350 KB each;
# mongosh's toArray() holds all of them as objects at once, hence the modest counts).
# tiny: 4 x 10,000 documents seeded in ~2 s; 14 timed methods x 3 repeats, each a client
# process of well under a second at this size plus two driver calls for the server CPU
# (~1 s a run, mongosh ~2 s): ~50 s; a single mongod in ~5 s: about 1 minute.
PB_DEFAULT_SCALE=small
pb::scale tiny "about 1 minute (rehearsal, CI on real servers); start-up costs weigh on every method" docs=10000 nested-docs=5 disk_mb=800
pb::scale small "about 2 minutes on a laptop" docs=100000 nested-docs=30 disk_mb=1500
pb::scale medium "about 10 minutes" docs=300000 nested-docs=100 disk_mb=4000
pb::scale full "the article's 4 x 1,000,000 documents; 20+ minutes" docs=1000000 nested-docs=300 disk_mb=10000

pb::option --shape DOC_SHAPE "enum:tiny|nested|both" tiny \
  "documents to read: tiny = the article's {a: \"b\"}; nested = 3600 sub-documents x 7 fields (~350 KB, costly to decode); both"
pb::option --repeats REPEATS int:1-50 3 "runs of each method (the table shows the median)"
pb::option --collections COLLECTIONS int:1-64 4 "tiny collections (the article: 4)"
pb::option --docs DOCS int:1-100000000 @scale "tiny documents per collection"
pb::option --nested-docs NESTED_DOCS int:1-1000000 @scale "nested documents"
pb::option --restore-workers RESTORE_WORKERS intlist:0-64 4 \
  "extra mongorestore runs with --numInsertionWorkersPerCollection=N (default 1), ascending; 0: none"
pb::option --restore-parallel RESTORE_PARALLEL intlist:0-64 1 \
  "extra mongorestore runs with --numParallelCollections=N (default 4), ascending; 0: none"
pb::option --replicaset PB_REPLICASET flag 0 "launch a replica set instead of a single mongod (see --nodes)"
pb::topology_options nodes

pb::narration prepare <<'TEXT'
seedCollection writes the documents. tiny: N collections of {a:"b"}, about 31
bytes each, where per-document costs dominate. nested: big documents of many
small fields, where decoding costs dominate.
TEXT
pb::narration run <<'TEXT'
Each method runs as its own client process, timed from outside: wall time, and
the CPU the client itself used (user + system). Watch mongodump's CPU stay tiny:
it copies each document's bytes. The decoding readers (driver, mongosh,
mongoexport) spend CPU turning bytes into objects. Then the write side:
mongorestore also sends raw bytes, yet is slow: the server does the work.
TEXT
pb::narration analyze <<'TEXT'
Medians per method, documents/s and MB/s from the seeded sizes, and the
verdicts, each computed from these numbers.
TEXT

SCENARIO_SHAPES=()
# '' until the first reading of this version's server CPU, then reported or none.
SCENARIO_SERVER_CPU=''

playbook_configure() {
  if ((PB_REPLICASET)); then
    PB_TOPOLOGY=replset
  elif pb::given --nodes; then
    pb::usage_error "--nodes applies to a replica set: add --replicaset"
  fi
  if [[ "$DOC_SHAPE" == both ]]; then SCENARIO_SHAPES=(tiny nested); else SCENARIO_SHAPES=("$DOC_SHAPE"); fi
  PB_EXTRA_TOOLS+=(mongodump mongorestore mongoexport python3)
}

# The connection string for the Database Tools and the driver: without a
# database path (the tools refuse a --db that differs from it); a path
# database that was the authentication database becomes authSource.
scenario::tool_uri() {
  local uri="$1" scheme rest query='' hosts dbpath=''
  scheme=${uri%%://*}
  rest=${uri#*://}
  if [[ "$rest" == *\?* ]]; then
    query=${rest#*\?}
    rest=${rest%%\?*}
  fi
  hosts=${rest%%/*}
  [[ "$rest" != */* ]] || dbpath=${rest#*/}
  if [[ -n "$dbpath" && "$hosts" == *@* && "$query" != *authSource=* ]]; then
    query="${query:+${query}&}authSource=${dbpath}"
  fi
  printf '%s://%s/%s' "$scheme" "$hosts" "${query:+?${query}}"
}

stage_launch() {
  # shellcheck disable=SC2034 # the tools and mongosh get SCENARIO_CONN_ENV's environment
  local none=()
  SCENARIO_URI=$(scenario::tool_uri "$PB_CONN_URI")
  # Each client's way to the connection string (a password never on a command
  # line): SCENARIO_CONN_ENV goes to every timed command's runner.
  pb::connection SCENARIO_CONN_ENV SCENARIO_NODE_CONN node "$SCENARIO_URI"
  pb::connection none SCENARIO_SHELL_CONN mongosh "$SCENARIO_URI"
  pb::connection none SCENARIO_TOOL_CONN tools "$SCENARIO_URI"
  SCENARIO_TIMED=("python3" "${PB_SCENARIO}/timed.py")
  SCENARIO_SAMPLES="${PB_WORK}/samples-${PB_VERSION:-uri}.jsonl"
  SCENARIO_SHAPES_FILE="${PB_WORK}/shapes-${PB_VERSION:-uri}.json"
  SCENARIO_DUMP="${PB_WORK}/dump-${PB_VERSION:-uri}"
  # Each version's server is asked again whether it reports its CPU.
  SCENARIO_SERVER_CPU=''
  : >"$SCENARIO_SAMPLES"
}

stage_prepare() {
  local shapes
  shapes=$(IFS=,; printf '%s' "${SCENARIO_SHAPES[*]}")
  pb::mongosh_stage --progress "seeding (${shapes})" "${PB_SCENARIO}/prepare.js" \
    "shapes=${shapes}" "collections=${COLLECTIONS}" "docs=${DOCS}" "nestedDocs=${NESTED_DOCS}" "out=${SCENARIO_SHAPES_FILE}"
  if pb::dry_run; then
    scenario::dry_shapes >"$SCENARIO_SHAPES_FILE"
  fi
  scenario::load_collections
}

# What prepare.js would report, for the --dry-run plan (names are fixed by
# the recipes: tiny_1..tiny_N, nested).
scenario::dry_shapes() {
  local i names=()
  for ((i = 1; i <= COLLECTIONS; i++)); do names+=("tiny_${i}"); done
  jq -nc --args '{tiny: {collections: $ARGS.positional, docs: 0, bytes: 0}, nested: {collections: ["nested"], docs: 0, bytes: 0}}' "${names[@]}"
}

# SCENARIO_COLLECTIONS[SHAPE]: its collections, comma-separated, read once
# from what prepare.js reported (or the plan's stand-in for it).
declare -A SCENARIO_COLLECTIONS=()

scenario::load_collections() {
  local shape names
  SCENARIO_COLLECTIONS=()
  while IFS=$'\t' read -r shape names; do
    SCENARIO_COLLECTIONS[$shape]=$names
  done < <(jq -r 'to_entries[] | "\(.key)\t\(.value.collections | join(","))"' "$SCENARIO_SHAPES_FILE")
}

scenario::collections() {
  printf '%s\n' "${SCENARIO_COLLECTIONS[$1]:-}"
}

# scenario::timed SHAPE SIDE METHOD REPEAT PART STDOUT COMMAND...: one timed client
# process, recorded as a sample. STDOUT: null, count, or a file whose last
# line is the client's own JSON summary. Returns the command's status.
scenario::timed() {
  local shape="$1" side="$2" method="$3" repeat="$4" part="$5" out="$6" timing='' rc=0 result='' sample
  local cpu0='' cpu1=''
  shift 6
  scenario::server_cpu cpu0
  pb::capture --dry-value '{}' --progress "${shape}: ${method}${part:+ ${part}}, run ${repeat} of ${REPEATS}" \
    "${SCENARIO_CONN_ENV[@]}" timing "${SCENARIO_TIMED[@]}" --stdout "$out" -- "$@" || rc=$?
  scenario::server_cpu cpu1
  pb::dry_run && return 0
  timing=${timing##*$'\n'}
  if [[ "$out" != null && "$out" != count && -s "$out" ]]; then
    result=$(tail -n 1 "$out")
  fi
  # One jq per run: the sample (line 1) and its summary (line 2). The
  # client's summary and the CPU readings are taken only if they parse. The
  # timer's check comes before any try: jq 1.6's try can catch an error
  # raised after it (docs/mongodb-facts.md#jq-startup).
  if ! sample=$(jq -r --arg shape "$shape" --arg side "$side" --arg method "$method" --argjson repeat "$repeat" \
    --arg part "$part" --arg result "$result" --arg c0 "$cpu0" --arg c1 "$cpu1" \
    'if type != "object" then error("not an object") else . end
     | def parsed($s): try ($s | fromjson) catch null;
     def object: if type == "object" then . else {} end;
     (parsed($c0) | object) as $c0 | (parsed($c1) | object) as $c1
     | def delta(k): if ($c0 | .[k]?) != null and ($c1 | .[k]?) != null then ($c1[k] - $c0[k]) else null end;
     ({shape: $shape, side: $side, method: $method, repeat: $repeat, part: $part} + .
        + {result: parsed($result), serverUser: delta("user"), serverSys: delta("sys")} | tojson),
       "\(.wall) s wall, CPU \(.user) s user + \(.sys) s system"' 2>/dev/null <<<"$timing"); then
    pb::die "timer gave no result for ${method} (python3 ${PB_SCENARIO}/timed.py): ${timing}"
  fi
  printf '%s\n' "${sample%%$'\n'*}" >>"$SCENARIO_SAMPLES"
  if ((rc == 0)); then
    pb::info "  ${shape} ${method}${part:+ ${part}} run ${repeat}: ${sample#*$'\n'}"
  else
    pb::warn "${shape} ${method}${part:+ ${part}} failed (exit ${rc}); its error is in the run log: $(tail -n 3 "$PB_LOG" | tr '\n' ' ')"
  fi
  return "$rc"
}

# scenario::server_cpu VAR: the server's CPU seconds so far as JSON {user, sys}
# (nulls when it does not report them), read around each timed run. A server
# that reports none at the first reading (FerretDB; a user without the
# clusterMonitor role) is not asked again for this version: each reading is
# a node process, 0.17 s of CPU beside a run that may take less.
scenario::server_cpu() {
  local _scenario_cpu=''
  if [[ "$SCENARIO_SERVER_CPU" == none ]]; then
    printf -v "$1" '%s' '{}'
    return 0
  fi
  pb::capture --dry-value '{}' "${SCENARIO_CONN_ENV[@]}" _scenario_cpu \
    node "${PB_SCENARIO}/run.js" server-cpu "${SCENARIO_NODE_CONN[@]}" || true
  # Parsed where it is used (scenario::timed): a reading that is not JSON
  # counts as none.
  _scenario_cpu=${_scenario_cpu##*$'\n'}
  printf -v "$1" '%s' "$_scenario_cpu"
  if ! pb::dry_run && [[ -z "$SCENARIO_SERVER_CPU" ]]; then
    local why
    # "reported", or "none" and why (not JSON, no input: none).
    why=$(jq -r 'if type == "object" and (.user != null or .sys != null) then "reported"
      elif type == "object" and .error then "none: \(.error)" else "none" end' 2>/dev/null <<<"$_scenario_cpu") || why=none
    if [[ "$why" == reported ]]; then
      SCENARIO_SERVER_CPU=reported
    else
      SCENARIO_SERVER_CPU=none
      why=${why#none}
      pb::info "  the server reports no CPU time (serverStatus extra_info${why}): server_cpu_s stays empty, and it is not asked again"
    fi
  fi
}

# scenario::method SHAPE SIDE METHOD COMMAND...: REPEATS timed runs; stops after
# a failure (recorded; the report says which method failed and why).
scenario::method() {
  local shape="$1" side="$2" method="$3" out="$4" r
  shift 4
  for ((r = 1; r <= REPEATS; r++)); do
    scenario::before "$shape" "$side" "$method"
    scenario::timed "$shape" "$side" "$method" "$r" '' "$out" "$@" || return 0
  done
}

# Untimed work before a timed run: a fresh dump directory, empty restore targets.
scenario::before() {
  local shape="$1" side="$2" method="${3:-}"
  if [[ "$method" == mongodump-dir ]]; then
    pb::run --quiet rm -rf "${SCENARIO_DUMP}/${shape}"
  fi
  case "$side" in
    write) pb::run --quiet "${SCENARIO_CONN_ENV[@]}" node "${PB_SCENARIO}/run.js" drop "${SCENARIO_NODE_CONN[@]}" --db "$PB_DB_NAME" \
      --collections "$(scenario::restored "$shape")" ;;
  esac
}

scenario::restored() {
  local c out=() names=()
  IFS=',' read -r -a names <<<"$(scenario::collections "$1")"
  for c in "${names[@]}"; do out+=("restored_${c}"); done
  (IFS=,; printf '%s' "${out[*]}")
}

# Everything of the playbook's database except this shape's collections:
# the other shape, the restore targets, the run's owner mark.
scenario::dump_excludes() {
  local shape="$1" other
  for other in tiny nested; do
    [[ "$other" == "$shape" ]] || printf -- '--excludeCollectionsWithPrefix=%s\n' "$other"
  done
  printf -- '--excludeCollectionsWithPrefix=restored_\n--excludeCollection=_dbalab_owner\n'
}

scenario::reads() {
  local shape="$1" cs excludes=() c r out names=()
  cs=$(scenario::collections "$shape")
  mapfile -t excludes < <(scenario::dump_excludes "$shape")
  # The dump directory stays after the last run: the floor and the writes read it.
  scenario::method "$shape" read mongodump-dir null \
    mongodump "${SCENARIO_TOOL_CONN[@]}" --db "$PB_DB_NAME" "${excludes[@]}" --out "${SCENARIO_DUMP}/${shape}" --quiet
  scenario::method "$shape" read mongodump-archive count \
    mongodump "${SCENARIO_TOOL_CONN[@]}" --db "$PB_DB_NAME" "${excludes[@]}" --archive --quiet
  out="${PB_WORK}/client-result.json"
  scenario::method "$shape" read driver-raw "$out" \
    node "${PB_SCENARIO}/run.js" read "${SCENARIO_NODE_CONN[@]}" --db "$PB_DB_NAME" --collections "$cs" --raw
  scenario::method "$shape" read driver-decoded "$out" \
    node "${PB_SCENARIO}/run.js" read "${SCENARIO_NODE_CONN[@]}" --db "$PB_DB_NAME" --collections "$cs"
  scenario::method "$shape" read mongosh-toArray "$out" \
    mongosh "${SCENARIO_SHELL_CONN[@]}" --quiet --norc \
    --eval "globalThis.dbaLabRead = $(jq -nc --arg db "$PB_DB_NAME" --arg cs "$cs" '{db: $db, collections: ($cs | split(","))}')" \
    "${PB_SCENARIO}/run-mongosh.js"
  # mongoexport reads one collection per process: the parts of a run add up.
  IFS=',' read -r -a names <<<"$cs"
  for ((r = 1; r <= REPEATS; r++)); do
    for c in "${names[@]}"; do
      scenario::timed "$shape" read mongoexport "$r" "$c" count \
        mongoexport "${SCENARIO_TOOL_CONN[@]}" --db "$PB_DB_NAME" --collection "$c" --quiet || break 2
    done
  done
  local files=()
  for c in "${names[@]}"; do files+=("${SCENARIO_DUMP}/${shape}/${PB_DB_NAME}/${c}.bson"); done
  scenario::method "$shape" floor floor-cat null cat "${files[@]}"
}

scenario::writes() {
  local shape="$1" cs n dir
  cs=$(scenario::collections "$shape")
  dir="${SCENARIO_DUMP}/${shape}"
  local restore=(mongorestore "${SCENARIO_TOOL_CONN[@]}" --nsInclude "${PB_DB_NAME}.*"
    --nsFrom "${PB_DB_NAME}.*" --nsTo "${PB_DB_NAME}.restored_*" --quiet)
  scenario::method "$shape" write mongorestore null "${restore[@]}" "$dir"
  local variant flag counts numbers=()
  for variant in workers:numInsertionWorkersPerCollection:"$RESTORE_WORKERS" \
    parallel:numParallelCollections:"$RESTORE_PARALLEL"; do
    IFS=':' read -r variant flag counts <<<"$variant"
    IFS=',' read -r -a numbers <<<"$counts"
    for n in "${numbers[@]}"; do
      ((n > 0)) || continue
      scenario::method "$shape" write "mongorestore-${variant}-${n}" null \
        "${restore[@]}" "--${flag}=${n}" "$dir"
    done
  done
  scenario::method "$shape" write driver-insertMany "${PB_WORK}/client-result.json" \
    node "${PB_SCENARIO}/run.js" write "${SCENARIO_NODE_CONN[@]}" --db "$PB_DB_NAME" \
    --from "${dir}/${PB_DB_NAME}" --collections "$cs" --prefix restored_
  # The restored copies are not needed after the last run.
  scenario::before "$shape" write
}

stage_run() {
  local shape
  for shape in "${SCENARIO_SHAPES[@]}"; do
    scenario::reads "$shape"
    scenario::writes "$shape"
  done
  pb::note "Each method ran ${REPEATS} time(s) as a client process timed by ${PB_SCENARIO#"${PB_ROOT}"/}/timed.py: wall time, and the user and system CPU and peak memory of that process and its children (os.wait4, i.e. getrusage), so the server's work is not in the CPU columns. Dump files and the floor read live in $(df -P "$PB_WORK" 2>/dev/null | awk 'NR == 2 {print $6}') ($(scenario::fs_type "$PB_WORK")). Between runs (untimed): the dump directory is deleted before each mongodump to a directory, and the restored_* collections are dropped before each write."
}

# The file system type under DIR (tmpfs makes the dump and the floor memory-bound).
scenario::fs_type() {
  if [[ "$(uname -s)" == Linux ]]; then
    stat -f -c %T "$1" 2>/dev/null || printf 'file system type unknown'
  else
    printf 'file system type not checked on %s' "$(uname -s)"
  fi
}

stage_analyze() {
  if pb::dry_run; then
    pb::info "analysis: medians of ${SCENARIO_SAMPLES} (${PB_SCENARIO#"${PB_ROOT}"/}/measure.js), verdicts by its checker.js"
    return 0
  fi
  pb::mongosh_stage --nodb "${PB_SCENARIO}/measure.js" "samples=${SCENARIO_SAMPLES}" "shapes=${SCENARIO_SHAPES_FILE}"
  pb::chart throughput --table timing --x method --y mb_per_s --group shape --logy --style points --answers decoding \
    --title "MB/s per method (median; higher is faster)" --xlabel "method" --ylabel "MB/s (log)"
  pb::chart client-cpu --table timing --x method --y user_s,sys_s --group shape --style points --answers raw \
    --title "Client CPU per method (median)" --xlabel "method" --ylabel "seconds"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then pb::main "$@"; fi
