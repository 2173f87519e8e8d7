# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Preflight: tools and their versions, server binaries (m or --binarypath),
# free disk against the scenario's estimate, free ports, and the --uri target.
# Every failed check is listed with what to do; then the playbook exits 3.
# Missing tools make the playbook run setup/install.sh first (it asks before
# anything system-wide); with --dry-run that is only shown.

# shellcheck source=setup/node-version.sh
source "${PB_ROOT}/setup/node-version.sh"

PB_PREFLIGHT_FAILURES=()
PB_EXTRA_TOOLS=()
PB_SERVER_INFO=''

# pb::preflight_fail "what is wrong" "what to do"
pb::preflight_fail() {
  PB_PREFLIGHT_FAILURES+=("${1}: ${2}")
  pb::info "  ${PB_C_RED}FAIL${PB_C_OFF} ${1}"
}

pb::preflight_ok() {
  pb::info "  ${PB_C_GREEN}ok${PB_C_OFF}   ${1}"
}

# Exit 3 with every failure, or return. With --dry-run failures are warnings
# (the plan is still worth reading) and the exit status stays 0.
pb::preflight_verdict() {
  local f
  ((${#PB_PREFLIGHT_FAILURES[@]})) || return 0
  if ((PB_DRY_RUN)); then
    for f in "${PB_PREFLIGHT_FAILURES[@]}"; do pb::warn "a real run would stop here (preflight): ${f}"; done
    [[ -z "$PB_NO_DOWNLOAD_WAY" ]] || pb::warn "$PB_NO_DOWNLOAD_WAY"
    PB_PREFLIGHT_FAILURES=()
    return 0
  fi
  printf '\n%sPreflight failed%s; nothing was launched or changed:\n' "$PB_C_RED" "$PB_C_OFF" >&2
  for f in "${PB_PREFLIGHT_FAILURES[@]}"; do printf '  - %s\n' "$f" >&2; done
  [[ -z "$PB_NO_DOWNLOAD_WAY" ]] || printf '%s\n' "$PB_NO_DOWNLOAD_WAY" >&2
  PB_FAILURE="preflight failed: ${PB_PREFLIGHT_FAILURES[0]}"
  PB_EXIT_KIND=preflight
  exit 3
}

# The tools this run needs.
pb::_required_tools() {
  printf '%s\n' jq mongosh
  case "$PB_TOPOLOGY" in
    single|replset|sharded)
      printf '%s\n' mlaunch
      [[ -n "$PB_BINARYPATH" ]] || printf '%s\n' m
      ;;
  esac
  if ((${#PB_EXTRA_TOOLS[@]})); then printf '%s\n' "${PB_EXTRA_TOOLS[@]}"; fi
}

pb::_missing_tools() {
  local t
  while IFS= read -r t; do
    command -v "$t" >/dev/null 2>&1 || printf '%s\n' "$t"
  done < <(pb::_required_tools)
}

# Runs the project's setup when tools are missing, then checks again. Its
# --yes also answers setup's question before a system-wide install, unless
# DBA_LAB_NO_SYSTEM=1 (playbooks/check sets it when its own user did not say
# --yes): then setup installs nothing system-wide.
pb::_ensure_tools() {
  local missing setup=("${DBA_LAB_SETUP:-${PB_ROOT}/setup/install.sh}")
  missing=$(pb::_missing_tools | tr '\n' ' ')
  [[ -n "$missing" ]] || return 0
  pb::info "  missing tools: ${missing}- running the project's setup (it installs into the checkout and asks before anything system-wide)"
  if [[ "${DBA_LAB_NO_SYSTEM:-0}" == 1 ]]; then
    setup+=(--no-system)
  elif ((PB_YES)); then
    setup+=(--yes)
  fi
  if ! pb::run_foreground "${setup[@]}"; then
    pb::preflight_fail "setup failed" "run ${setup[*]} yourself and read its message, or ./setup/install.sh --check"
    return 0
  fi
  # shellcheck source=setup/env.sh
  source "${PB_ROOT}/setup/env.sh"
}

# mongosh runs on the node on PATH, and so do the playbooks' Node scripts with
# the mongodb driver 7, which needs the engines of package.json.
pb::_check_node() {
  local problem
  problem=$(node_version::problem "${PB_ROOT}/package.json")
  if [[ -n "$problem" ]]; then
    pb::preflight_fail "${problem%%: *}" "${problem#*: }"
  else
    pb::preflight_ok "node $(node --version) (needs $(node_version::minimum "${PB_ROOT}/package.json")+)"
  fi
}

# PB_NEEDS_DRIVER=1 (a workload written as a Node program): node must load
# the mongodb driver from the checkout's node_modules.
pb::_check_driver() {
  local version
  # One node: it loads the driver, then names its version.
  if version=$(cd "$PB_ROOT" && node -e "require('mongodb'); console.log(require('mongodb/package.json').version)" 2>/dev/null) \
    && [[ -n "$version" ]]; then
    pb::preflight_ok "Node driver: mongodb ${version}"
  else
    pb::preflight_fail "node cannot load the mongodb driver (node_modules/mongodb)" \
      "run ./setup/install.sh (it installs the driver into node_modules)"
  fi
}

pb::_check_tools() {
  local t v major
  pb::_ensure_tools
  pb::_check_node
  if [[ "${PB_NEEDS_DRIVER:-0}" == 1 ]]; then pb::_check_driver; fi
  while IFS= read -r t; do
    if ! command -v "$t" >/dev/null 2>&1; then
      if ((PB_DRY_RUN)); then
        pb::preflight_fail "${t} not found" "the setup shown above would install it"
      else
        pb::preflight_fail "${t} not found" "run ./setup/install.sh, then source setup/env.sh (./setup/install.sh --check lists every tool)"
      fi
      continue
    fi
    # Before m is asked anything, even its version: an unpatched m makes
    # stray folders at every start under a path with a space.
    if [[ "$t" == m ]] && ! pb::_check_m_patched; then continue; fi
    pb::_tool_version "$t" >/dev/null
    v=${PB_TOOL_VERSIONS[$t]:-}
    case "$t" in
      mongosh)
        major=${v%%.*}
        if [[ "$major" =~ ^[0-9]+$ ]] && ((major < 2)); then
          pb::preflight_fail "mongosh ${v} is too old" "mongosh 2.x is needed: run ./setup/install.sh (it installs mongosh 2 into node_modules)"
          continue
        fi
        ;;
      mlaunch)
        if [[ -n "$v" && "$v" != 1.7.* ]]; then
          pb::info "  note mlaunch ${v}: the framework was written against mtools 1.7.2 (setup/requirements.txt)"
        fi
        ;;
    esac
    pb::preflight_ok "${t} ${v:-(version unknown)}"
  done < <(pb::_required_tools)
}

# The checkout's m as setup patched it, or m is not run at all
# (PB_M_UNUSABLE=1): m 1.10.0 as npm ci leaves it expands its folders
# unquoted, so under a path with a space every call fails and makes stray
# folders outside the checkout, even the read-only ones of a dry run, and it
# tries Debian 11 builds on Debian 12 (docs/m.md). An m first on PATH from
# outside the checkout (a user's own) is refused too. DBA_LAB_M_SCRIPT names
# the checkout's m script (default node_modules/m/bin/m; the tests' copies).
PB_M_UNUSABLE=0
pb::_check_m_patched() {
  local script="${DBA_LAB_M_SCRIPT:-${PB_ROOT}/node_modules/m/bin/m}" found why
  found=$(command -v m)
  found=$(pb::_canonical "$found")
  if [[ "$found" != "$(pb::_canonical "$PB_ROOT")"/* ]]; then
    why="the m first on PATH, ${found}, is not the checkout's"
  elif [[ -f "$script" ]] && ! why=$("${PB_ROOT}/setup/patch-tool.sh" m "$script" --check 2>&1 >/dev/null); then
    why=${why#patch-m: }
  else
    return 0
  fi
  PB_M_UNUSABLE=1
  pb::preflight_fail "m cannot be used: ${why}" \
    "run ./setup/install.sh (it patches node_modules/m/bin/m), then source setup/env.sh so that the checkout's .tools/bin comes first on PATH"
  return 1
}

# The playbooks that run on any deployment given with --uri, with the options
# that make them do so (tests/bats/playbook-preflight.bats holds each to it).
PB_ANY_DEPLOYMENT_PLAYBOOKS=(mongodump-raw-bson "capped-pubsub --compare none")
PB_NO_DOWNLOAD_WAY=''

# pb::_no_download_way: PB_NO_DOWNLOAD_WAY = the way to a lab with no MongoDB
# download at all, once m could not give a version: offline, a version
# number is no way out; --uri on a server the user has, or the local
# FerretDB that setup/ferretdb.sh starts, is. One sentence after the
# failures, whatever the number of versions, and apart from them: each
# failure reads the same in every playbook (playbooks/check says a reason
# shared by several playbooks once). Text only: the run itself is the same
# on any deployment.
pb::_no_download_way() {
  local what
  if [[ "${PB_SUPPORTS_URI:-1}" == 1 && "${PB_URI_NEEDS:-any}" == any ]]; then
    what="this playbook runs"
  else
    what="$(pb::_and_list "${PB_ANY_DEPLOYMENT_PLAYBOOKS[@]}") run"
  fi
  PB_NO_DOWNLOAD_WAY="No MongoDB download at all? ${what} on any deployment given with --uri URI, and setup/ferretdb.sh start starts a local one (FerretDB, MongoDB-compatible; see its --help)."
}

# pb::_and_list A B C: "A, B and C".
pb::_and_list() {
  local out="$1"
  shift
  while (($# > 1)); do
    out+=", $1"
    shift
  done
  (($# == 0)) || out+=" and $1"
  printf '%s' "$out"
}

# pb::binaries_placeholder VERSION: what a plan shows for binaries it could not
# resolve (nothing installed, no release list): a dry run goes on with it, a
# real run stops at the preflight first, so it never reaches a command.
pb::binaries_placeholder() {
  printf '<binaries for MongoDB %s>' "$1"
}

# pb::is_binaries_placeholder PATH: PATH is such a stand-in, not a folder.
pb::is_binaries_placeholder() {
  [[ "$1" == "<binaries for MongoDB "*">" ]]
}

# Resolves each requested version to binaries: PB_BINPATHS[i] for PB_VERSIONS[i]
# (then X.Y.Z). m is skipped entirely with --binarypath.
pb::_check_binaries() {
  local i want got
  PB_RESOLVED=()
  PB_BINPATHS=()
  if [[ -n "$PB_BINARYPATH" ]]; then
    if [[ ! -x "${PB_BINARYPATH}/mongod" ]]; then
      pb::preflight_fail "no executable mongod in --binarypath ${PB_BINARYPATH}" \
        "give the bin folder of a MongoDB server download (it holds mongod and mongos)"
      PB_RESOLVED=(unknown)
      PB_BINPATHS=("$PB_BINARYPATH")
      return 0
    fi
    if [[ "$PB_TOPOLOGY" == sharded && ! -x "${PB_BINARYPATH}/mongos" ]]; then
      pb::preflight_fail "no executable mongos in --binarypath ${PB_BINARYPATH}" "a sharded cluster needs mongos beside mongod"
    fi
    if ! pb::mongod_version "$PB_BINARYPATH"; then
      pb::preflight_fail "$PB_M_ERROR" \
        "give the bin folder of a MongoDB server build for this OS (https://www.mongodb.com/try/download/community lists the builds per OS), or let m install a version whose build runs here (--mongodb-version)$(pb::_openssl11_fix)"
      PB_RESOLVED=(unknown)
      PB_BINPATHS=("$PB_BINARYPATH")
      return 0
    fi
    got=$PB_M_RESULT
    PB_VERSIONS=("$got")
    PB_RESOLVED=("$got")
    PB_BINPATHS=("$PB_BINARYPATH")
    pb::_check_mongos_runs "$PB_BINARYPATH" \
      "give the bin folder of a MongoDB server build for this OS (https://www.mongodb.com/try/download/community lists the builds per OS)" || return 0
    pb::preflight_ok "mongod ${got} in ${PB_BINARYPATH}"
    return 0
  fi
  for i in "${!PB_VERSIONS[@]}"; do
    want=${PB_VERSIONS[$i]}
    if ! pb::m_resolve "$want"; then
      pb::_no_download_way
      pb::preflight_fail "MongoDB ${want}: ${PB_M_ERROR}" \
        "${PB_M_FIX:-with the network, give an exact X.Y.Z for m to download; without it, use --binarypath DIR (a folder with mongod and mongos) or --uri URI (an existing deployment)}"
      if ((PB_DRY_RUN)); then
        PB_RESOLVED+=("$want")
        PB_BINPATHS+=("$(pb::binaries_placeholder "$want")")
      fi
      continue
    fi
    got=$PB_M_RESULT
    if ! pb::m_ensure "$got"; then
      pb::_no_download_way
      if [[ -n "$PB_M_FIX" ]]; then
        pb::preflight_fail "$PB_M_ERROR" "$PB_M_FIX"
      else
        pb::preflight_fail "MongoDB ${got}: ${PB_M_ERROR}" \
          "use --binarypath DIR with mongod/mongos ${got} from https://www.mongodb.com/try/download/community, or --uri URI to run against an existing deployment"
      fi
      continue
    fi
    PB_RESOLVED+=("$got")
    PB_BINPATHS+=("$PB_M_RESULT")
    pb::_check_m_binaries_run "$got" "$PB_M_RESULT" || continue
    pb::preflight_ok "MongoDB ${got}${want:+ (asked for ${want})}: ${PB_BINPATHS[-1]}"
  done
}

# Without --mongodb-version, the playbook's defaults that cannot run here
# (platform.sh) are left out before anything is resolved or downloaded,
# each with why and what it was there to show (PB_DEFAULT_VERSION_ROLE);
# when none can run, they all stay and fail preflight one by one.
pb::_runnable_defaults() {
  local v kept=() dropped=() line
  [[ -z "$PB_BINARYPATH" ]] && ! pb::given --mongodb-version || return 0
  for v in "${PB_VERSIONS[@]}"; do
    if pb::platform_runs "$v"; then
      kept+=("$v")
    else
      line="${v} left out of the default versions (${PB_VERSION_LIST}): ${PB_PLATFORM_WHY}"
      [[ -z "${PB_DEFAULT_VERSION_ROLE[$v]:-}" ]] || line+="; it was there for ${PB_DEFAULT_VERSION_ROLE[$v]}"
      dropped+=("${line}. To include it, ${PB_PLATFORM_FIX%% or pass *}")
    fi
  done
  ((${#dropped[@]} && ${#kept[@]})) || return 0
  PB_VERSIONS=("${kept[@]}")
  for line in "${dropped[@]}"; do
    pb::warn "$line"
    pb::note "MongoDB ${line}"
  done
  pb::info "  running $(IFS=,; printf '%s' "${kept[*]}") (the defaults that run on ${PB_PLATFORM_LABEL})"
}

# What to do when a version's binaries do not start here.
pb::_no_build_fix() {
  printf '%s' "use --binarypath DIR with a MongoDB ${1} build for this OS (https://www.mongodb.com/try/download/community lists the builds per OS), or choose a --mongodb-version whose build runs here$(pb::_openssl11_fix)"
}

# ", or run ./setup/libssl11.sh ..." when the loader's refusal (PB_M_ERROR)
# was OpenSSL 1.1: that build starts once .tools/lib holds it.
pb::_openssl11_fix() {
  [[ "$PB_M_ERROR" == *"libcrypto.so.1.1"* || "$PB_M_ERROR" == *"libssl.so.1.1"* ]] || return 0
  printf ', or run ./setup/libssl11.sh (it puts OpenSSL 1.1 into .tools/lib, for the servers only)'
}

# pb::_check_m_binaries_run X.Y.Z BINDIR: the binaries m installed start on
# this OS: `m bin` succeeding does not prove it (m.sh, pb::binary_runs).
# Nothing to run in --dry-run before the install.
pb::_check_m_binaries_run() {
  local version="$1" dir="$2"
  [[ -x "${dir}/mongod" ]] || return 0
  if ! pb::mongod_version "$dir"; then
    pb::preflight_fail "MongoDB ${version}: ${PB_M_ERROR}" "$(pb::_no_build_fix "$version")"
    return 1
  fi
  pb::_check_mongos_runs "$dir" "$(pb::_no_build_fix "$version")"
}

# pb::_check_mongos_runs BINDIR FIX: a sharded run's mongos starts here too
# (mlaunch runs `mongos --help` before it launches anything).
pb::_check_mongos_runs() {
  local dir="$1" fix="$2"
  [[ "$PB_TOPOLOGY" == sharded && -x "${dir}/mongos" ]] || return 0
  if ! pb::binary_runs "${dir}/mongos"; then
    pb::preflight_fail "$PB_M_ERROR" "$fix"
    return 1
  fi
}

# Free space (MB) on the file system that will hold PATH (its nearest existing parent).
pb::free_mb() {
  local path="$1"
  while [[ ! -e "$path" ]]; do path=$(dirname "$path"); done
  df -Pk "$path" | awk 'NR == 2 {printf "%d", $4 / 1024}'
}

pb::_check_disk() {
  local need="${PB_DISK_ESTIMATE_MB:-}" free
  if [[ -z "$need" ]]; then
    pb::scale_get need disk_mb ""
  fi
  [[ -n "$need" ]] || return 0
  free=$(pb::free_mb "$PB_DIR")
  if ((free < need)); then
    pb::preflight_fail "not enough disk for scale ${PB_SCALE_NAME}: about ${need} MB needed, ${free} MB free under ${PB_DIR}" \
      "free some space, put the data elsewhere with --dir DIR, or use a smaller --scale"
  else
    pb::preflight_ok "disk: about ${need} MB needed, ${free} MB free under $(dirname "$PB_DIR")"
  fi
}

pb::_check_ports() {
  local port busy=()
  while IFS= read -r port; do
    pb::port_free "$port" || busy+=("$port")
  done < <(pb::cluster_ports)
  if ((${#busy[@]})); then
    pb::preflight_fail "port(s) in use: ${busy[*]}" \
      "stop what listens there, or choose another first port with --port N (this topology needs $(pb::cluster_ports | wc -l | tr -d ' ') consecutive ports)"
  else
    pb::preflight_ok "ports $(pb::cluster_ports | head -n 1)-$(pb::cluster_ports | tail -n 1) free"
  fi
}

pb::_check_dirs() {
  if [[ -e "$PB_DIR" && ! -d "$PB_DIR" ]]; then
    pb::preflight_fail "--dir ${PB_DIR} is not a directory" "give a directory path (created if missing)"
  fi
  if [[ -e "$PB_REPORT_DIR" ]] && [[ ! -d "$PB_REPORT_DIR" || -n "$(ls -A "$PB_REPORT_DIR" 2>/dev/null)" ]]; then
    pb::preflight_fail "--report-dir ${PB_REPORT_DIR} exists and is not empty" "give a new or empty directory"
  fi
}

# --uri: reachable, its version and kind, and whether dbalab_<playbook> exists.
pb::_check_uri() {
  local js info
  js="load($(jq -nc --arg f "${PB_LIB}/js/hello.js" '$f')); "
  js+='const h = dbaLabHello(db), b = db.adminCommand({buildInfo: 1}); '
  js+='const n = db.adminCommand({listDatabases: 1, nameOnly: true, filter: {name: DB_NAME}}).databases.length; '
  js+='const o = n ? db.getSiblingDB(DB_NAME).getCollection("_dbalab_owner").findOne({_id: "owner"}) : null; '
  js+='print(JSON.stringify({version: b.version, ferretdb: b.ferretdbVersion || null, setName: h.setName || null, msg: h.msg || null, exists: n > 0, owner: o}))'
  js=${js//DB_NAME/$(jq -nc --arg n "$PB_DB_NAME" '$n')}
  info=''
  if ! pb::mongosh_eval info --uri "$(pb::_uri_with_timeout "$PB_URI")" --read-only "$js"; then
    pb::preflight_fail "cannot reach --uri $(pb::redact "$PB_URI")" \
      "check the address, that the server runs, credentials and TLS options in the URI (mongosh \"URI\" should connect)"
    return 0
  fi
  info=${info##*$'\n'}
  if ! jq -e . >/dev/null 2>&1 <<<"$info"; then
    pb::preflight_fail "unexpected answer from --uri $(pb::redact "$PB_URI"): ${info}" "check that it is a MongoDB deployment"
    return 0
  fi
  PB_SERVER_INFO=$info
  pb::preflight_ok "--uri reachable: $(jq -r 'if .ferretdb then "FerretDB \(.ferretdb) (answers buildInfo as MongoDB \(.version))" else "MongoDB \(.version)" end' <<<"$info")$(jq -r 'if .setName then ", replica set " + .setName elif .msg == "isdbgrid" then ", mongos" else ", standalone" end' <<<"$info")"
  pb::_check_uri_kind "$info"
  if [[ "$(jq -r .exists <<<"$info")" == true ]]; then
    pb::preflight_fail "database ${PB_DB_NAME} already exists on the target" \
      "it is left by an earlier run ($(jq -r 'if .owner then "run " + .owner.runId + " of " + (.owner.created | tostring) else "or by someone else" end' <<<"$info")); this run only drops what it created: drop it yourself with mongosh \"URI\" --eval 'db.getSiblingDB(\"${PB_DB_NAME}\").dropDatabase()' if it is not needed"
  fi
}

# pb::_uri_kind PROBE_JSON: replset, mongos or standalone, from the --uri
# probe's answer (a replica set member names its set; a mongos says isdbgrid).
pb::_uri_kind() {
  jq -r 'if .setName then "replset" elif .msg == "isdbgrid" then "mongos" else "standalone" end' <<<"$1"
}

# The --uri target a playbook needs: PB_URI_NEEDS (any | replset | mongos |
# replset-or-mongos), and why in PB_URI_NEEDS_WHY (a few words for the
# failure line); set them beside PB_TOPOLOGY, or in playbook_configure when
# options decide. Checked here, from the probe's answer, so that a wrong kind
# of deployment stops in preflight (exit 3) and not deep inside a stage.
pb::_check_uri_kind() {
  local need="${PB_URI_NEEDS:-any}" kind want fix
  kind=$(pb::_uri_kind "$1")
  case "$need" in
    any) return 0 ;;
    replset)
      [[ "$kind" != replset ]] || return 0
      want="a replica set member"
      fix="point --uri at a replica set (one member will do: mongod --replSet rs0, then rs.initiate()), or leave --uri out and the playbook launches one"
      ;;
    mongos)
      [[ "$kind" != mongos ]] || return 0
      want="a mongos"
      fix="point --uri at a mongos of a sharded cluster, or leave --uri out and the playbook launches one"
      ;;
    replset-or-mongos)
      [[ "$kind" == standalone ]] || return 0
      want="a replica set or a mongos"
      fix="point --uri at a replica set or a mongos, or leave --uri out and the playbook launches a replica set"
      ;;
    *) pb::die "${PB_NAME}: PB_URI_NEEDS must be any, replset, mongos or replset-or-mongos, not '${need}'" ;;
  esac
  kind=${kind/replset/replica set member}
  pb::preflight_fail "--uri $(pb::redact "$PB_URI") is a ${kind}; ${PB_NAME} needs ${want}${PB_URI_NEEDS_WHY:+: ${PB_URI_NEEDS_WHY}}" "$fix"
}

# Adds serverSelectionTimeoutMS=5000 so an unreachable --uri fails in seconds.
pb::_uri_with_timeout() {
  local uri="$1"
  if [[ "$uri" == *serverSelectionTimeoutMS=* ]]; then
    printf '%s' "$uri"
  elif [[ "$uri" == *\?* ]]; then
    printf '%s&serverSelectionTimeoutMS=5000' "$uri"
  elif [[ "$uri" =~ ^mongodb(\+srv)?://[^/]*$ ]]; then
    printf '%s/?serverSelectionTimeoutMS=5000' "$uri"
  else
    printf '%s?serverSelectionTimeoutMS=5000' "$uri"
  fi
}

# The framework's checks, then the playbook's own (playbook_preflight, which
# calls pb::preflight_fail / pb::preflight_ok), then the verdict.
pb::preflight() {
  local i
  PB_NO_DOWNLOAD_WAY=''
  PB_RESOLVED=()
  PB_BINPATHS=()
  pb::_check_tools
  case "$PB_TOPOLOGY" in
    uri) command -v mongosh >/dev/null 2>&1 && pb::_check_uri ;;
    single|replset|sharded)
      pb::_check_dirs
      pb::platform_detect
      pb::_runnable_defaults
      if [[ -n "$PB_BINARYPATH" ]] || { command -v m >/dev/null 2>&1 && ((!PB_M_UNUSABLE)); }; then
        pb::_check_binaries
      else
        PB_RESOLVED=("${PB_VERSIONS[@]}")
        PB_BINPATHS=()
        for i in "${PB_VERSIONS[@]}"; do PB_BINPATHS+=("$(pb::binaries_placeholder "$i")"); done
      fi
      pb::_check_ports
      ;;
    none) pb::_check_dirs ;;
  esac
  if declare -F playbook_preflight >/dev/null; then
    playbook_preflight
  fi
  # After the playbook's own checks: they may set PB_DISK_ESTIMATE_MB (from a
  # dry run of what they will write), as README.md says they can.
  case "$PB_TOPOLOGY" in
    single|replset|sharded) pb::_check_disk ;;
  esac
  pb::preflight_verdict
}
