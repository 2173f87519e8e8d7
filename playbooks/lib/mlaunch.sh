# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Throw-away clusters with mtools' mlaunch (1.7.2; flags read in
# mtools/mlaunch/mlaunch.py): single node, replica set (nodes, arbiter) or
# sharded cluster (replica-set shards, a config server replica set, mongos).
#
# Safety rules: ports are checked free before launch; a data directory is
# used only when this run created it (a marker file holds the run id) and is
# deleted only when the marker still names this run and no process runs from
# it; stop and kill act only on processes whose --dbpath or --logpath lies in
# that directory (compared with symlinks resolved).
#
# mlaunch passes options it does not know (PB_MONGOD_ARGS) to every mongod and
# mongos whose --help lists them, --setParameter always (so a mongod-only
# parameter stops mongos from starting: set those at run time with
# pb::set_parameter instead); config servers never get --oplogSize; mongod
# gets --wiredTigerCacheSizeGB 1 unless given.

PB_TOPOLOGY=${PB_TOPOLOGY:-replset}
PB_NODES=${PB_NODES:-1}
PB_ARBITER=${PB_ARBITER:-0}
PB_SHARDS=${PB_SHARDS:-2}
PB_CONFIG_SERVERS=${PB_CONFIG_SERVERS:-1}
PB_MONGOS=${PB_MONGOS:-1}
PB_REPLSET_NAME=${PB_REPLSET_NAME:-replset}
if ! declare -p PB_MONGOD_ARGS >/dev/null 2>&1; then PB_MONGOD_ARGS=(); fi
PB_OWNED_DIRS=()
PB_CLUSTER_DIR=''
PB_CONN_URI=''
PB_PROCESSES_FILE=''
# Where the process table is read from (no /proc: ps, as on macOS).
PB_PROC=${PB_PROC:-/proc}

# pb::topology_options [nodes] [arbiter] [shards] [config-servers] [mongos]:
# declares the standard topology options a playbook wants to offer.
pb::topology_options() {
  local what
  for what in "$@"; do
    case "$what" in
      nodes) pb::option --nodes PB_NODES int:1-50 "$PB_NODES" "data-bearing members per replica set" ;;
      arbiter) pb::option --arbiter PB_ARBITER flag "$PB_ARBITER" "add an arbiter to each replica set" ;;
      shards) pb::option --shards PB_SHARDS int:1-20 "$PB_SHARDS" "shards (each a replica set of --nodes members)" ;;
      config-servers) pb::option --config-servers PB_CONFIG_SERVERS int:1-7 "$PB_CONFIG_SERVERS" "members of the config server replica set" ;;
      mongos) pb::option --mongos PB_MONGOS int:1-10 "$PB_MONGOS" "mongos routers" ;;
      *) pb::die "pb::topology_options: unknown option set '${what}'" ;;
    esac
  done
}

# One line for the report and the plan.
pb::topology_summary() {
  case "$PB_TOPOLOGY" in
    none) printf 'no server' ;;
    uri) printf 'existing deployment (--uri)' ;;
    single) printf 'single mongod' ;;
    replset) printf 'replica set %s: %d data node(s)%s' "$PB_REPLSET_NAME" "$PB_NODES" "$( ((PB_ARBITER)) && printf ' + arbiter')" ;;
    sharded) printf 'sharded: %d shard(s) of %d node(s)%s, %d config server(s), %d mongos' \
      "$PB_SHARDS" "$PB_NODES" "$( ((PB_ARBITER)) && printf ' + arbiter')" "$PB_CONFIG_SERVERS" "$PB_MONGOS" ;;
  esac
}

# The ports the topology uses, in mlaunch's order, one per line.
pb::cluster_ports() {
  local count=0 i per_rs=$((PB_NODES + PB_ARBITER))
  case "$PB_TOPOLOGY" in
    single) count=1 ;;
    replset) count=$per_rs ;;
    sharded) count=$((PB_MONGOS + PB_SHARDS * per_rs + PB_CONFIG_SERVERS)) ;;
    *) return 0 ;;
  esac
  for ((i = 0; i < count; i++)); do
    printf '%d\n' $((PB_PORT + i))
  done
}

# The connection string for a launched cluster.
pb::cluster_uri() {
  local hosts=() i
  case "$PB_TOPOLOGY" in
    single) printf 'mongodb://localhost:%d/' "$PB_PORT" ;;
    replset)
      for ((i = 0; i < PB_NODES; i++)); do hosts+=("localhost:$((PB_PORT + i))"); done
      printf 'mongodb://%s/?replicaSet=%s' "$(IFS=,; printf '%s' "${hosts[*]}")" "$PB_REPLSET_NAME"
      ;;
    sharded)
      for ((i = 0; i < PB_MONGOS; i++)); do hosts+=("localhost:$((PB_PORT + i))"); done
      printf 'mongodb://%s/' "$(IFS=,; printf '%s' "${hosts[*]}")"
      ;;
  esac
}

# mlaunch 1.7.2 quotes mongod's path but not mongos's (_construct_mongos) and
# runs the line through a shell; setup patches it (setup/mtools-1.7.2.patch,
# docs/mongodb-facts.md#mlaunch-space).
# True when the mlaunch on PATH has that patch, as setup left it.
pb::_mlaunch_quotes_mongos() {
  local mlaunch python file
  mlaunch=$(command -v mlaunch) || return 1
  python=$(tool_versions::script_python "$mlaunch") || return 1
  file=$("$python" -c 'import mtools.mlaunch.mlaunch as m; print(m.__file__)' 2>/dev/null) || return 1
  patch -R --dry-run -s -f -F 0 "$file" <"${PB_ROOT}/setup/mtools-1.7.2.patch" >/dev/null 2>&1
}

# pb::mlaunch_init_args DIR BINPATH: PB_MLAUNCH_ARGS = the full mlaunch command.
pb::mlaunch_init_args() {
  local dir="$1" bin="$2"
  # OpenSSL 1.1 from .tools/lib for builds that link it (platform.sh).
  pb::server_env PB_SERVER_ENV "$bin"
  PB_MLAUNCH_ARGS=("${PB_SERVER_ENV[@]}" mlaunch init)
  case "$PB_TOPOLOGY" in
    single) PB_MLAUNCH_ARGS+=(--single) ;;
    replset)
      PB_MLAUNCH_ARGS+=(--replicaset --nodes "$PB_NODES")
      ((PB_ARBITER)) && PB_MLAUNCH_ARGS+=(--arbiter)
      PB_MLAUNCH_ARGS+=(--name "$PB_REPLSET_NAME")
      ;;
    sharded)
      if [[ "$bin" =~ [[:space:]] ]] && ! pb::is_binaries_placeholder "$bin" && ! pb::_mlaunch_quotes_mongos; then
        pb::die "this mlaunch cannot start mongos from a folder whose path holds white space (${bin}): run ./setup/install.sh (it patches mlaunch to quote it)"
      fi
      # Shards must be replica sets since 3.6 (mlaunch refuses --single shards).
      PB_MLAUNCH_ARGS+=(--sharded "$PB_SHARDS" --replicaset --nodes "$PB_NODES")
      ((PB_ARBITER)) && PB_MLAUNCH_ARGS+=(--arbiter)
      PB_MLAUNCH_ARGS+=(--config "$PB_CONFIG_SERVERS" --mongos "$PB_MONGOS")
      ;;
    *) pb::die "pb::mlaunch_init_args: topology '${PB_TOPOLOGY}' launches nothing" ;;
  esac
  PB_MLAUNCH_ARGS+=(--port "$PB_PORT" --dir "$dir" --binarypath "$bin")
  PB_MLAUNCH_ARGS+=("${PB_MONGOD_ARGS[@]}")
}

# pb::port_free PORT: nothing listens on it (ss when present, else a connect).
pb::port_free() {
  local port="$1" listening
  # The listing is read whole, from a variable: a reader that stops at its
  # first match (grep -q) would leave the writer a SIGPIPE, which pipefail
  # turns into "no match", i.e. a busy port called free. A failing ss proves
  # nothing: the connect probe answers then.
  if command -v ss >/dev/null 2>&1 && listening=$(ss -Htln 2>/dev/null); then
    ! awk -v port="$port" '$4 ~ ("[:.]" port "$") { busy = 1 } END { exit !busy }' <<<"$listening"
  else
    ! (exec 9<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null
  fi
}

# pb::claim_dir DIR: creates DIR (which must not exist) and marks it as this run's.
pb::claim_dir() {
  local dir="$1"
  if [[ -e "$dir" || -L "$dir" ]]; then
    pb::die "${dir} already exists: this run never reuses a directory it did not create; choose another --dir"
  fi
  if ((PB_DRY_RUN)); then
    pb::show_cmd mkdir -p "$dir"
  else
    mkdir -p "$dir"
    printf '%s\n' "$PB_RUN_ID" >"${dir}/.dba-lab-run"
  fi
  PB_OWNED_DIRS+=("$dir")
}

# pb::owns_dir DIR: the marker in DIR names this run.
pb::owns_dir() {
  [[ -f "${1}/.dba-lab-run" && "$(<"${1}/.dba-lab-run")" == "$PB_RUN_ID" ]]
}

# pb::release_dir DIR: deletes DIR only when this run created it and no
# process runs from it or from a folder inside it (fails then: whoever
# stopped the cluster already said why, and this never overrides it), which
# needs a process table that could be read.
pb::release_dir() {
  local dir="$1" left=()
  if ((PB_DRY_RUN)); then
    pb::show_cmd rm -rf "$dir"
    return 0
  fi
  if [[ -d "$dir" ]] && ! pb::dir_pids_into left "$dir"; then
    pb::warn "not deleting ${dir}: ${PB_PS_UNREADABLE}, so nothing proves that no server runs from it; delete it yourself once none does"
    return 1
  fi
  if ((${#left[@]})); then
    pb::warn "not deleting ${dir}: pid(s) ${left[*]} still run from it"
    return 1
  fi
  [[ -d "$dir" ]] || return 0
  if ! pb::owns_dir "$dir"; then
    pb::warn "not deleting ${dir}: this run did not create it"
    return 0
  fi
  pb::run --quiet rm -rf "$dir"
}

# pb::cluster_processes DIR: one line per process, tab-separated:
#   kind port pid status logpath set
# kind: single, replset member, shard member, arbiter, config server, mongos
# (what the process is, from the layout; never mlaunch's primary/secondary
# tags, which depend on what pymongo had discovered when it listed: ask the
# member with pb::primary_port). set: its replica set (shard) name.
# Kind, log path and set come from the command lines mlaunch stored in
# DIR/.mlaunch_startup; pid and status from `mlaunch list --json`. Before the
# launch (and in --dry-run) the layout mlaunch will create is listed, with pid
# "-" and status "planned".
pb::cluster_processes() {
  local dir="$1" out='' tries=0 seen=0
  if [[ ! -f "${dir}/.mlaunch_startup" ]]; then
    pb::_planned_processes "$dir"
    return 0
  fi
  # mlaunch 1.7.2 reads the command line of every process named mongod or
  # mongos on the machine (_get_processes) and dies when one has just exited
  # (psutil.ZombieProcess or NoSuchProcess, uncaught): any mongod ending
  # anywhere at that moment. That failure passes; it is retried.
  while true; do
    [[ -f "$PB_LOG" ]] && seen=$(wc -l <"$PB_LOG")
    pb::capture --read-only out mlaunch list --json --dir "$dir" && break
    tries=$((tries + 1))
    ((tries < 5)) && grep -Eq '^psutil\.(ZombieProcess|NoSuchProcess)' < <(tail -n +"$((seen + 1))" "$PB_LOG" 2>/dev/null) || return 1
    sleep 1
  done
  pb::_processes_from_startup "${dir}/.mlaunch_startup" "$(pb::_mlaunch_json <<<"$out")"
}

# pb::cluster_layout DIR: the lines of pb::cluster_processes without asking
# `mlaunch list` (pid "-", status "unknown"): kind, port, log path and set come
# from the command lines mlaunch stored. For what needs no pid: a list imports
# pymongo and asks every process, half a second of CPU or more each time.
pb::cluster_layout() {
  local dir="$1"
  if [[ -f "${dir}/.mlaunch_startup" ]]; then
    pb::_processes_from_startup "${dir}/.mlaunch_startup" '[]'
  else
    pb::_planned_processes "$dir"
  fi
}

# The JSON document of an mlaunch answer: every subcommand first prints
# "Detected mongod version: X.Y.Z" when a mongod is on PATH or under
# --binarypath (MLaunchTool.__init__ -> getMongoDVersion), and warnings may
# precede it too. The document is the last line that parses.
pb::_mlaunch_json() {
  local line json=''
  while IFS= read -r line; do
    case "$line" in
      '['* | '{'*) if jq -e . >/dev/null 2>&1 <<<"$line"; then json=$line; fi ;;
    esac
  done
  [[ -n "$json" ]] || return 1
  printf '%s\n' "$json"
}

# pb::_processes_from_startup FILE LIST_JSON: the layout from the command
# lines mlaunch 1.7.2 stored (_construct_mongod/_construct_mongos quote
# --dbpath and --logpath on POSIX; a shard's arbiter gets no --shardsvr), pid
# and status by port from `mlaunch list --json` (mongos, null, config
# servers, null, then per shard its name, its members, null).
pb::_processes_from_startup() {
  local file="$1" list="$2"
  jq -r --argjson list "$list" '
    def opt($name): (capture("--" + $name + " (?<v>\"[^\"]*\"|[^ ]+)") | .v | ltrimstr("\"") | rtrimstr("\"")) // "";
    ($list | map(select(type == "object")) | map({key: (.port | tostring), value: .}) | from_entries) as $by
    | .startup_info | to_entries | sort_by(.key | tonumber)[]
    | .key as $port | .value as $cmd
    | ($cmd | opt("logpath")) as $log
    | ($cmd | opt("replSet")) as $set
    | (if ($cmd | test("mongos\"? --logpath ")) then "mongos"
       elif ($cmd | test(" --configsvr( |$)")) then "config server"
       elif ($log | test("/arb/mongod\\.log$")) then "arbiter"
       elif $set == "" then "single"
       elif ($cmd | test(" --shardsvr( |$)")) then "shard member"
       else "replset member" end) as $kind
    | [$kind, $port, (($by[$port].pid // "-") | tostring), ($by[$port].status // "unknown"), $log, $set]
    | @tsv' "$file"
}

# The processes and log paths mlaunch 1.7.2 creates for the topology
# (mlaunch.py _construct_single/_construct_replset/_construct_sharded).
pb::_planned_processes() {
  local dir="$1" port=$PB_PORT i s name
  pb::_planned_set() {
    local set="$1" base="$2" kind="$3"
    for ((i = 0; i < PB_NODES; i++)); do
      printf '%s\t%d\t-\tplanned\t%s/rs%d/mongod.log\t%s\n' "$kind" $((port++)) "$base" $((i + 1)) "$set"
    done
    if ((PB_ARBITER)); then
      printf 'arbiter\t%d\t-\tplanned\t%s/arb/mongod.log\t%s\n' $((port++)) "$base" "$set"
    fi
  }
  case "$PB_TOPOLOGY" in
    single) printf 'single\t%d\t-\tplanned\t%s/mongod.log\t\n' "$port" "$dir" ;;
    replset) pb::_planned_set "$PB_REPLSET_NAME" "${dir}/${PB_REPLSET_NAME}" "replset member" ;;
    sharded)
      for ((s = 0; s < PB_MONGOS; s++)); do
        if ((PB_MONGOS > 1)); then name="${dir}/mongos/mongos_$((port)).log"; else name="${dir}/mongos.log"; fi
        printf 'mongos\t%d\t-\tplanned\t%s\t\n' $((port++)) "$name"
      done
      for ((s = 1; s <= PB_SHARDS; s++)); do
        name=$(printf 'shard%02d' "$s")
        pb::_planned_set "$name" "${dir}/${name}" "shard member"
      done
      for ((i = 0; i < PB_CONFIG_SERVERS; i++)); do
        printf 'config server\t%d\t-\tplanned\t%s/configRepl/rs%d/mongod.log\tconfigRepl\n' $((port++)) "$dir" $((i + 1))
      done
      ;;
  esac
}

# pb::node_log PORT: from the current cluster's layout.
pb::node_log() {
  pb::cluster_layout "$PB_CLUSTER_DIR" | awk -F'\t' -v p="$1" '$2 == p {print $5}'
}
# pb::node_logs [KIND]: log paths of every process, or of those of one kind
# (single, replset member, shard member, arbiter, config server, mongos).
# The primary's log: pb::primary_port, then pb::node_log.
pb::node_logs() {
  pb::cluster_layout "$PB_CLUSTER_DIR" | awk -F'\t' -v k="${1:-}" 'k == "" || $1 == k {print $5}'
}

# pb::node_uri PORT: a direct connection to one member (setParameter, serverStatus).
pb::node_uri() {
  printf 'mongodb://localhost:%d/?directConnection=true' "$1"
}

# pb::mlaunch SUBCOMMAND [ARG...]: mlaunch start/stop/restart/kill/list on the
# current cluster only (--dir is always this run's directory).
pb::mlaunch() {
  local sub="$1"
  shift
  [[ -n "$PB_CLUSTER_DIR" ]] || pb::die "pb::mlaunch ${sub}: no cluster launched"
  case "$sub" in
    start|stop|restart|kill|list) ;;
    *) pb::die "pb::mlaunch: '${sub}' is not one of start, stop, restart, kill, list" ;;
  esac
  pb::run --progress "mlaunch ${sub}" "${PB_SERVER_ENV[@]}" mlaunch "$sub" "$@" --dir "$PB_CLUSTER_DIR"
}

# pb::cluster_restart: stops every process of this run's cluster and starts
# them again (e.g. the capped-pubsub restart claim). mlaunch 1.7.2's stop
# sends SIGTERM and returns 0.1 s later, and its start starts only the ports
# that fail a ping; a mongod that is still shutting down first keeps its port
# (5.0+: quiesce mode, 15 s by default on replica set members and mongos,
# shutdownTimeoutMillisForSignaledShutdown) and then holds mongod.lock while
# its storage engine closes, so an early start fails with "port in use" (exit
# 48) or DBPathInUse (exit 100). Hence the wait in between: until no process
# runs from the cluster's folder and every port is free, at most
# PB_STOP_WAIT seconds (default 120), with progress; past that, an error that
# names what is left. The stop is this run's own SIGTERM to the processes
# shown to run from the cluster's folder (pb::_own_cluster_pids), as mlaunch
# stop sends, but never to what else serves a port of the layout (mlaunch
# stop matches by port), and without mlaunch stop reading every process's
# command line, which fails on a busy machine when one of them is a zombie
# (psutil's ZombieProcess, seen).
pb::cluster_restart() {
  local own=()
  if ((PB_DRY_RUN)); then
    pb::show_cmd kill -TERM "<pids of the cluster's processes>"
  elif ! pb::_own_cluster_pids own "$PB_CLUSTER_DIR"; then
    pb::die "not restarting the cluster in ${PB_CLUSTER_DIR}: its processes cannot all be shown to be this run's (above)"
  elif ((${#own[@]})); then
    pb::run kill -TERM "${own[@]}"
  fi
  ((PB_DRY_RUN)) || pb::_wait_cluster_stopped "${PB_STOP_WAIT:-120}"
  pb::mlaunch start
}

# pb::_wait_cluster_stopped SECONDS: until the current cluster's processes
# have exited and its ports are free; dies after SECONDS.
pb::_wait_cluster_stopped() {
  local limit="$1" start=$SECONDS last=$SECONDS pids=() busy=() port
  while :; do
    pb::dir_pids_into pids "$PB_CLUSTER_DIR" \
      || pb::die "cannot tell whether the cluster stopped: ${PB_PS_UNREADABLE}: not starting it again"
    busy=()
    while read -r port; do
      pb::port_free "$port" || busy+=("$port")
    done < <(pb::cluster_ports)
    ((${#pids[@]} || ${#busy[@]})) || break
    if ((SECONDS - start >= limit)); then
      pb::die "the cluster did not stop within ${limit} s of SIGTERM$( ((${#pids[@]})) && printf '; still running: pid(s) %s' "${pids[*]}")$( ((${#busy[@]})) && printf '; port(s) %s still in use' "${busy[*]}"): not starting it again (PB_STOP_WAIT sets the wait)"
    fi
    if ((SECONDS - last >= PB_PROGRESS_EVERY)); then
      pb::info "  waiting for ${#pids[@]} process(es) to exit and ${#busy[@]} port(s) to be freed ($(pb::elapsed "$start"))"
      last=$SECONDS
    fi
    sleep 0.5
  done
  pb::info "  every process of the cluster has exited ($(pb::elapsed "$start"))"
}

# pb::launch VERSION BINPATH: starts the cluster for one version in
# PB_DIR/VERSION, registers its teardown, sets PB_CLUSTER_DIR and PB_CONN_URI.
pb::launch() {
  local version="$1" bin="$2" dir
  dir="${PB_DIR}/${version}"
  pb::claim_dir "$dir"
  PB_CLUSTER_DIR=$dir
  PB_CONN_URI=$(pb::cluster_uri)
  pb::on_exit "stop the ${version} cluster and delete ${dir}" pb::cluster_teardown "$dir"
  PB_CLUSTER_CLEANUP_ID=$PB_LAST_CLEANUP_ID
  pb::mlaunch_init_args "$dir" "$bin"
  pb::info "launching $(pb::topology_summary), MongoDB ${version}, ports $(pb::cluster_ports | head -n 1)-$(pb::cluster_ports | tail -n 1)"
  pb::_mlaunch_init "$dir"
  if ((!PB_DRY_RUN)); then
    PB_PROCESSES_FILE="${PB_WORK}/processes-${version}.tsv"
    pb::cluster_processes "$dir" >"$PB_PROCESSES_FILE" || true
    while IFS=$'\t' read -r role port pid status log _; do
      pb::info "  ${role} port ${port} pid ${pid} ${status} log ${log}"
    done <"$PB_PROCESSES_FILE"
  fi
  pb::info "connection: ${PB_CONN_URI}"
}

# The seconds mlaunch init may take: PB_LAUNCH_TIMEOUT, else 120 plus 15 per
# process (each start waits for its port, each replica set for its
# initiation; mlaunch's own waits are 30 s each).
pb::launch_timeout() {
  local n
  n=$(pb::cluster_ports | wc -l)
  printf '%d' "${PB_LAUNCH_TIMEOUT:-$((120 + 15 * n))}"
}

# pb::_mlaunch_init DIR: runs PB_MLAUNCH_ARGS within pb::launch_timeout.
# mlaunch 1.7.2 retries addShard without end and prints nothing about it
# without --verbose: past the limit mlaunch is stopped and the run ends with
# one line saying what it was doing (its last line of output), so the
# teardown registered by pb::launch stops what it started.
pb::_mlaunch_init() {
  local dir="$1" limit from rc=0 last mongos_log
  limit=$(pb::launch_timeout)
  from=$(($(wc -l <"$PB_LOG" 2>/dev/null || printf 0) + 1))
  # Its lines reach the log as it prints them, not at exit (a pipe is buffered).
  PYTHONUNBUFFERED=1 pb::run --progress "mlaunch init ($(pb::topology_summary))" --timeout "$limit" \
    "${PB_MLAUNCH_ARGS[@]}" || rc=$?
  ((rc == 124)) || return "$rc"
  last=$(tail -n "+${from}" "$PB_LOG" | grep -Ev '^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z |[[:space:]]*$)' | tail -n 1)
  if [[ "$last" == 'adding shards'* ]]; then
    mongos_log=$(pb::_planned_processes "$dir" | awk -F'\t' '$1 == "mongos" {print $5; exit}')
    last+=" (mlaunch retries addShard without end; the mongos log: ${mongos_log})"
  fi
  pb::die "mlaunch init did not finish within ${limit} s${PB_LAUNCH_TIMEOUT:+ (PB_LAUNCH_TIMEOUT)}, stopped while at: ${last:-its start (no output)}"
}

# pb::dir_pids DIR: pids of the mongod/mongos processes whose --dbpath or
# --logpath is DIR or lies inside it, one per line. Both sides are compared
# with symlinks resolved: mlaunch passes os.path.abspath of its --dir, which
# resolves none, and DIR may be named through another link.
# Fails (status 1, nothing printed) when the process table cannot be read
# (pb::_process_table): "none found" is then unproven, and a caller that
# would delete DIR or signal a process must stop (pb::dir_pids_into).
pb::dir_pids() {
  local dir pid args path inside table
  dir=$(pb::_canonical "$1")
  table=$(pb::_process_table) || return $?
  while read -r pid args; do
    [[ "$pid" != "$$" && "$args" == *mongo[ds]* ]] || continue
    # Every path is read, no break at the first inside: the writer's next
    # printf would meet a closed pipe, and where SIGPIPE is ignored (a
    # playbook started from Python inherits that) bash prints "write error:
    # Broken pipe" on the user's terminal.
    inside=0
    while IFS= read -r path; do
      if [[ "$path" == "$dir" || "$path" == "${dir%/}/"* ]]; then inside=1; fi
    done < <(pb::_process_paths "$pid" "$args")
    if ((inside)); then printf '%s\n' "$pid"; fi
  done <<<"$table"
}

# pb::_process_table: "PID ARGS" for every process, from ps, else (a slim
# Linux image without procps, BusyBox's ps that refuses the flags) from
# PB_PROC/*/cmdline. A listing counts only when it holds this very shell: an
# empty or partial one (another PID namespace, hidepid) proves nothing.
# ps -ww: without it ps cuts each line at an exported COLUMNS (procps, seen)
# or the terminal's width.
pb::_process_table() {
  local table d argv=() listed=0
  # A failpoint like any command's: a Ctrl-C may come while ps runs.
  pb::_failpoint ps -A -ww -o pid= -o args=
  if table=$(ps -A -ww -o pid= -o args= 2>/dev/null); then listed=1; fi
  pb::_failpoint_pending
  if ((listed)) && pb::_lists_self "$table"; then
    printf '%s\n' "$table"
    return 0
  fi
  table=''
  for d in "${PB_PROC}"/[0-9]*; do
    # A process may exit between the glob and the read; kernel threads have no argv.
    mapfile -t -d '' argv 2>/dev/null <"${d}/cmdline" || continue
    ((${#argv[@]})) || continue
    table+="${d##*/} ${argv[*]}"$'\n'
  done
  pb::_lists_self "$table" || return 1
  printf '%s' "$table"
}

# True when the "PID ARGS" lines on $1 hold this shell's pid.
pb::_lists_self() {
  local pid args
  while read -r pid args; do
    if [[ "$pid" == "$$" ]]; then return 0; fi
  done <<<"$1"
  return 1
}

# pb::dir_pids_into ARRAY DIR: ARRAY (a caller's array) := pb::dir_pids DIR.
# Returns 1 with ARRAY empty when the process table could not be read.
pb::dir_pids_into() {
  local -n _pids_out="$1"
  local _found _rc=0
  _pids_out=()
  _found=$(pb::dir_pids "$2") || _rc=$?
  # A listing cut short by a signal (Ctrl-C reaches the shell running it too)
  # says nothing about the processes: it is read once more.
  if ((_rc > 128)); then
    _rc=0
    _found=$(pb::dir_pids "$2") || _rc=$?
  fi
  ((_rc == 0)) || return 1
  [[ -z "$_found" ]] || mapfile -t _pids_out <<<"$_found"
}

# What a caller says when pb::dir_pids_into failed.
PB_PS_UNREADABLE="could not read the process table (neither ps -A -ww -o pid= -o args= nor /proc listed this shell)"


# pb::_process_paths PID ARGS: the process's --dbpath and --logpath, symlinks
# resolved, one per line. Read exactly from PB_PROC/PID/cmdline (one NUL
# after each argument) where there is one; else (macOS) from ARGS, ps's
# space-joined line, where a value runs to the next " --". A relative value
# is resolved from the process's working folder (PB_PROC/PID/cwd), or skipped
# (mlaunch always passes absolute paths).
pb::_process_paths() {
  local pid="$1" args="$2" argv=() values=() i opt re value
  if [[ -r "${PB_PROC}/${pid}/cmdline" ]] && mapfile -t -d '' argv 2>/dev/null <"${PB_PROC}/${pid}/cmdline"; then
    for ((i = 0; i < ${#argv[@]}; i++)); do
      case "${argv[i]}" in
        --dbpath | --logpath) if ((i + 1 < ${#argv[@]})); then values+=("${argv[i + 1]}"); fi ;;
        --dbpath=* | --logpath=*) values+=("${argv[i]#*=}") ;;
      esac
    done
  else
    for opt in dbpath logpath; do
      re=" --${opt}[ =](.*)\$"
      if [[ " ${args}" =~ $re ]]; then values+=("${BASH_REMATCH[1]%% --*}"); fi
    done
  fi
  for value in "${values[@]}"; do
    if [[ "$value" != /* ]]; then
      [[ -d "${PB_PROC}/${pid}/cwd" ]] || continue
      value="${PB_PROC}/${pid}/cwd/${value}"
    fi
    printf '%s\n' "$(pb::_canonical "$value")"
  done
}

# pb::_own_cluster_pids ARRAY DIR (its locals are prefixed: ARRAY is assigned
# by name): ARRAY := the pids `mlaunch list` names as
# running in DIR's cluster. True only when each of them runs from DIR (its
# --dbpath or --logpath), i.e. when `mlaunch stop`, which signals by port
# (mlaunch.py kill and _get_processes match --port only), would signal this
# run's processes alone. Otherwise a warning says what is unproven: the
# process table could not be read, mlaunch could not list, or a port is
# served by a process of another folder.
pb::_own_cluster_pids() {
  local -n _own_out="$1"
  local _ocp_dir="$2" _ocp_list _ocp_mine=() kind port pid status rest foreign=0
  _own_out=()
  if ! pb::dir_pids_into _ocp_mine "$_ocp_dir"; then
    pb::warn "no process of ${_ocp_dir} can be shown to be this run's: ${PB_PS_UNREADABLE}"
    return 1
  fi
  _ocp_list=$(pb::tempfile processes)
  if ! pb::cluster_processes "$_ocp_dir" >"$_ocp_list" 2>/dev/null; then
    rm -f "$_ocp_list"
    pb::warn "cannot list the processes of ${_ocp_dir} with mlaunch"
    return 1
  fi
  while IFS=$'\t' read -r kind port pid status rest; do
    [[ "$status" == running && "$pid" =~ ^[0-9]+$ ]] || continue
    if [[ " ${_ocp_mine[*]} " == *" ${pid} "* ]]; then
      _own_out+=("$pid")
    else
      foreign=1
      pb::warn "port ${port} (${kind}) is served by pid ${pid}, which this run did not start: leaving it alone"
    fi
  done <"$_ocp_list"
  rm -f "$_ocp_list"
  ((!foreign))
}

# True when PID is a mongod/mongos whose --dbpath or --logpath lies in DIR.
# No `| grep -q`: it exits at the first match, and under pipefail the
# SIGPIPE of the pids listed after it would make the answer "no".
pb::_pid_in_dir() {
  local pid
  while IFS= read -r pid; do
    if [[ "$pid" == "$1" ]]; then return 0; fi
  done < <(pb::dir_pids "$2")
  return 1
}

# pb::cluster_teardown DIR: stops the cluster in DIR and deletes DIR if this
# run created it and no process of it is left. Stops with SIGTERM through
# `mlaunch stop` when every process `mlaunch list` names runs from DIR
# (pb::_own_cluster_pids), then SIGTERM to every process whose --dbpath or
# --logpath lies in DIR, SIGKILL for what is left after 60 s (at once when
# PB_FORCE=1). Without a readable process table nothing is signalled and DIR
# stays, saying so.
# With --keep it only says where the cluster runs.
pb::cluster_teardown() {
  local dir="$1" pids=()
  if ((PB_KEEP)) && [[ "$dir" == "$PB_CLUSTER_DIR" ]]; then
    pb::info "--keep: the cluster keeps running (${PB_CONN_URI}); stop it with: mlaunch stop --dir ${dir}"
    return 0
  fi
  if ((PB_DRY_RUN)); then
    pb::show_cmd mlaunch stop --dir "$dir"
    pb::release_dir "$dir"
    return 0
  fi
  if [[ -f "${dir}/.mlaunch_startup" ]]; then
    if pb::_own_cluster_pids pids "$dir"; then
      if ((${#pids[@]} && !PB_FORCE)); then
        pb::run --progress "stopping the cluster" mlaunch stop --dir "$dir" || true
      fi
    else
      pb::warn "not using mlaunch stop: stopping only the processes whose --dbpath or --logpath lies in ${dir}"
    fi
  fi
  # What mlaunch did not stop, or was not asked to: by --dbpath/--logpath.
  # mlaunch stop does not wait; this does (a mongod may take a while).
  if ! pb::_stop_dir_processes "$dir"; then
    pb::warn "nothing of ${dir} was signalled: ${PB_PS_UNREADABLE}; stop it with: mlaunch stop --dir ${dir}"
  fi
  pb::release_dir "$dir"
}

# SIGTERM to the processes that run from DIR, SIGKILL after 60 s (or at once
# with PB_FORCE=1). Signals nothing, and fails, when the process table cannot
# be read; a look that fails later stops the waiting (the folder then stays).
pb::_stop_dir_processes() {
  local dir="$1" pids=() start=$SECONDS told=0
  pb::dir_pids_into pids "$dir" || return 1
  ((${#pids[@]})) || return 0
  pb::_failpoint kill -TERM "${pids[@]}"
  kill -TERM "${pids[@]}" 2>/dev/null || true
  pb::_failpoint_pending
  # By the clock: one look at the process table can take a good part of a
  # second on a loaded machine.
  while ((SECONDS - start < 60 && !PB_FORCE)); do
    pb::dir_pids_into pids "$dir" || return 1
    ((${#pids[@]})) || return 0
    if ((!told && SECONDS - start >= 2)); then
      pb::info "waiting for pid(s) ${pids[*]} to shut down (SIGKILL after 60 s; Ctrl-C again forces it)"
      told=1
    fi
    sleep 0.5
  done
  pb::dir_pids_into pids "$dir" || return 1
  ((${#pids[@]})) || return 0
  pb::warn "pid(s) ${pids[*]} still running$( ((PB_FORCE)) || printf ' 60 s after SIGTERM'): killing them"
  pb::_failpoint kill -KILL "${pids[@]}"
  kill -KILL "${pids[@]}" 2>/dev/null || true
  pb::_failpoint_pending
  # SIGKILL is not instant either (a process in uninterruptible I/O).
  start=$SECONDS
  while ((SECONDS - start < 5)); do
    pb::dir_pids_into pids "$dir" || return 1
    ((${#pids[@]})) || return 0
    sleep 0.2
  done
}

# pb::mongos_hosts: the mongos routers as host:port,host:port (mlaunch gives
# them the first ports).
pb::mongos_hosts() {
  local hosts=() i
  for ((i = 0; i < PB_MONGOS; i++)); do hosts+=("localhost:$((PB_PORT + i))"); done
  (IFS=,; printf '%s' "${hosts[*]}")
}

# pb::config_uri: the config server replica set (mlaunch names it configRepl
# and gives it the ports after the mongos and every shard's members).
pb::config_uri() {
  local first=$((PB_PORT + PB_MONGOS + PB_SHARDS * (PB_NODES + PB_ARBITER))) hosts=() i
  for ((i = 0; i < PB_CONFIG_SERVERS; i++)); do hosts+=("localhost:$((first + i))"); done
  printf 'mongodb://%s/?replicaSet=configRepl' "$(IFS=,; printf '%s' "${hosts[*]}")"
}
