# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# The playbook framework. A playbook sources this file, declares itself and
# calls pb::main "$@". See playbooks/lib/README.md for the whole API.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"
#   PB_NAME=my-scenario PB_TITLE="..." PB_TOPOLOGY=replset PB_DEFAULT_VERSIONS=8.0
#   pb::scale small "minutes on a laptop" docs=1000 disk_mb=500
#   pb::option --docs DOCS int @scale "documents to seed"
#   stage_run() { pb::mongosh_stage "${PB_SCENARIO}/run.js" "docs=${DOCS}"; }
#   if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then pb::main "$@"; fi

# shellcheck source=setup/require-bash.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../setup/require-bash.sh"
dba_lab_require_bash "a playbook" 3

PB_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PB_ROOT="$(cd "${PB_LIB}/../.." && pwd)"
export DBA_LAB_ROOT="${DBA_LAB_ROOT:-$PB_ROOT}"

# shellcheck source=setup/tool-versions.sh
source "${PB_ROOT}/setup/tool-versions.sh"
# shellcheck source=playbooks/lib/log.sh
source "${PB_LIB}/log.sh"
# shellcheck source=playbooks/lib/options.sh
source "${PB_LIB}/options.sh"
# shellcheck source=playbooks/lib/run.sh
source "${PB_LIB}/run.sh"
# shellcheck source=playbooks/lib/cleanup.sh
source "${PB_LIB}/cleanup.sh"
# shellcheck source=playbooks/lib/m.sh
source "${PB_LIB}/m.sh"
# shellcheck source=playbooks/lib/platform.sh
source "${PB_LIB}/platform.sh"
# shellcheck source=playbooks/lib/mlaunch.sh
source "${PB_LIB}/mlaunch.sh"
# shellcheck source=playbooks/lib/preflight.sh
source "${PB_LIB}/preflight.sh"
# shellcheck source=playbooks/lib/credentials.sh
source "${PB_LIB}/credentials.sh"
# shellcheck source=playbooks/lib/mongosh.sh
source "${PB_LIB}/mongosh.sh"
# shellcheck source=playbooks/lib/report.sh
source "${PB_LIB}/report.sh"

# Project tools first on PATH (mongosh, mlaunch, m, ...), m inside the checkout.
if [[ -f "${PB_ROOT}/setup/env.sh" ]]; then
  # shellcheck source=setup/env.sh
  source "${PB_ROOT}/setup/env.sh"
fi

PB_NAME=${PB_NAME:-}
PB_TITLE=${PB_TITLE:-}
PB_SCENARIO=''
PB_VERSION=''
PB_CURRENT_STAGE=''
PB_MAIN_DONE=0
PB_STAGE_NAMES=()
PB_STAGE_LABELS=()
PB_STAGE_SECONDS=()
PB_STAGE_START=''
declare -gA PB_NARRATION=()
# What each default version is there to show, for the line that says it was
# left out on a platform where it cannot run: PB_DEFAULT_VERSION_ROLE[4.4]="...".
declare -gA PB_DEFAULT_VERSION_ROLE=()

# pb::narration STAGE [TOPOLOGY] <<'EOF' ... EOF: what --step tells the
# trainee before STAGE (preflight, launch, prepare, run, analyze, report,
# teardown). With TOPOLOGY (uri, single, replset, sharded, none: PB_TOPOLOGY
# once the options are read) the text replaces STAGE's own in that mode, for
# what the code does differently there (nothing restarted with --uri, ...).
# Write it as paragraphs separated by a blank line: line breaks inside a
# paragraph do not matter, pb::pause reflows it to the width, between words.
# Write code without spaces ({capped:true,size:100000}): cut across two
# lines, it reads as two fragments on a projector. {{NAME}} is shown as the
# value of the variable NAME when the stage starts (an option's, or one
# playbook_configure sets): a figure said to a class is the run's, not that
# of another scale.
pb::narration() {
  local stage="$1" mode="${2:-}"
  PB_NARRATION[${stage}${mode:+@${mode}}]=$(cat)
}

# pb::narration_text STAGE: the narration of STAGE in this run's mode.
pb::narration_text() {
  local stage="$1" rest out='' name
  rest=${PB_NARRATION[${stage}@${PB_TOPOLOGY}]:-${PB_NARRATION[$stage]:-}}
  # Left to right, once: a value holding "{{...}}" is shown as it is.
  while [[ "$rest" =~ \{\{([A-Za-z_][A-Za-z0-9_]*)\}\} ]]; do
    name=${BASH_REMATCH[1]}
    out+=${rest%%"${BASH_REMATCH[0]}"*}
    rest=${rest#*"${BASH_REMATCH[0]}"}
    if [[ -v "$name" ]]; then out+=${!name}; else out+="{{${name}}}"; fi
  done
  printf '%s' "${out}${rest}"
}

# pb::narration_width: the width narration is reflowed to, the "  | "
# margin not counted: a classroom watches --step on a terminal, piped or not
# (`--step | tee class.log`), so the terminal's (pb::term_cols); 76 where
# there is no terminal at all.
pb::narration_width() {
  printf '%d' $(($(pb::term_cols) - 4))
}

# pb::reflow WIDTH: stdin's paragraphs (separated by blank lines) as lines of
# at most WIDTH characters, broken only between words: a word longer than
# WIDTH gets a line of its own, whole (a path or a URI must stay copyable).
pb::reflow() {
  awk -v w="$1" '
    /^[[:space:]]*$/ { if (line != "") { print line; line = ""; gap = 1 } next }
    {
      if (gap) { print ""; gap = 0 }
      for (i = 1; i <= NF; i++) {
        if (line == "") line = $i
        else if (length(line) + 1 + length($i) <= w) line = line " " $i
        else { print line; line = $i }
      }
    }
    END { if (line != "") print line }'
}

# pb::pause "text": in --step mode, show the text and wait for Enter. The key
# is read from the controlling terminal (/dev/tty), so `--step | tee class.log`
# and a redirected stdin still wait for the trainer; only a run with no
# terminal at all (CI, cron, setsid) says so and goes on.
pb::pause() {
  local tty
  ((PB_STEP)) || return 0
  pb::reflow "$(pb::narration_width)" <<<"$1" | sed -e 's/^/  | /' -e 's/ $//' >&"$PB_FD"
  if { exec {tty}<>/dev/tty; } 2>/dev/null; then
    # The prompt goes to the terminal only: a piped log keeps the narration
    # without a prompt nobody answers there.
    printf '  Press Enter to continue (Ctrl-C stops and cleans up) ' >&"$tty"
    read -r -u "$tty" _ || true
    # An Enter typed ahead was echoed before the prompt: the prompt's line is
    # cleared so that what follows starts a line of its own.
    printf '\r\e[K' >&"$tty"
    exec {tty}>&-
  else
    printf '  (--step: no terminal to wait on, continuing)\n' >&"$PB_FD"
  fi
}

# Stage bookkeeping: header, narration, timing for the summary and the report.
pb::stage() {
  local name="$1" label="${2:-}" text
  pb::stage_end
  PB_CURRENT_STAGE=$name
  PB_STAGE_START=$SECONDS
  PB_STAGE_NAMES+=("$name")
  PB_STAGE_LABELS+=("$label")
  PB_STAGE_SECONDS+=(0)
  pb::stage_header "$name" "$label"
  text=$(pb::narration_text "$name")
  if [[ -n "$text" ]]; then
    pb::pause "$text"
  fi
}

pb::stage_end() {
  [[ -n "$PB_STAGE_START" ]] || return 0
  PB_STAGE_SECONDS[-1]=$((SECONDS - PB_STAGE_START))
  PB_STAGE_START=''
}

# True in --uri mode.
pb::uri_mode() {
  [[ -n "$PB_URI" ]]
}

pb::dry_run() {
  ((PB_DRY_RUN))
}

pb::summary() {
  local code="$1" i line
  pb::stage_header summary
  line=''
  for i in "${!PB_STAGE_NAMES[@]}"; do
    line+="${PB_STAGE_NAMES[$i]}${PB_STAGE_LABELS[$i]:+ ${PB_STAGE_LABELS[$i]}} ${PB_STAGE_SECONDS[$i]}s, "
  done
  pb::info "stages: ${line%, }"
  pb::verdict_summary
  if ((PB_DRY_RUN)); then
    pb::info "dry run: nothing was changed"
  elif [[ -f "${PB_REPORT_DIR}/report.html" ]]; then
    # The page people open first; report.md sits beside it for diffs and tools.
    pb::info "report: ${PB_REPORT_DIR}/report.html (and report.md)"
  elif [[ -f "${PB_REPORT_DIR}/report.md" ]]; then
    pb::info "report: ${PB_REPORT_DIR}/report.md"
  fi
  case "$code" in
    0) pb::info "${PB_C_GREEN}done${PB_C_OFF} in $(pb::elapsed)" ;;
    3) pb::info "${PB_C_RED}preflight failed${PB_C_OFF}: ${PB_FAILURE#preflight failed: } (exit 3)" ;;
    129|130|143) pb::info "${PB_C_YELLOW}interrupted${PB_C_OFF} after $(pb::elapsed) (exit ${code})" ;;
    *) pb::info "${PB_C_RED}FAILED${PB_C_OFF}: ${PB_FAILURE:-see above} (exit ${code})" ;;
  esac
}

pb::_defaults() {
  local stamp
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  PB_STARTED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  PB_RUN_ID="${stamp}-$$"
  PB_DB_NAME="dbalab_${PB_NAME}"
  if [[ -z "$PB_DIR" ]]; then
    PB_DIR="${PB_ROOT}/data/${PB_NAME}-${stamp}"
    # The default lies in the checkout, whose path may hold what sh -c expands.
    pb::uri_mode || pb::_check_shell_safe_path "the data folder (default: in the checkout; give --dir elsewhere)" "$PB_DIR"
  fi
  [[ -n "$PB_REPORT_DIR" ]] || PB_REPORT_DIR="${PB_ROOT}/reports/${PB_NAME}/${stamp}"
  PB_DIR=$(pb::_absolute "$PB_DIR")
  PB_REPORT_DIR=$(pb::_absolute "$PB_REPORT_DIR")
  [[ -z "$PB_BINARYPATH" ]] || PB_BINARYPATH=$(pb::_absolute "$PB_BINARYPATH")
  PB_LAUNCH_TOPOLOGY=$PB_TOPOLOGY
  if pb::uri_mode; then
    PB_TOPOLOGY=uri
    PB_CONN_URI=$PB_URI
  fi
}

# pb::_absolute PATH: PATH as mlaunch stores its --dir (os.path.abspath,
# mlaunch.py MLaunchTool.run): relative to the real working folder (os.getcwd),
# ".", ".." and repeated or trailing "/" collapsed lexically, no symlink
# resolved; a leading "//" is kept, as posixpath.normpath keeps it. The run's
# folder is then the same string in our messages, in mlaunch's files and in
# the command lines of the servers it starts.
pb::_absolute() {
  local path="$1" lead=/ rest part parts=()
  [[ "$path" == /* ]] || path="$(pwd -P)/${path}"
  if [[ "$path" == //* && "$path" != ///* ]]; then lead=//; fi
  rest=$path
  while [[ -n "$rest" ]]; do
    part=${rest%%/*}
    if [[ "$rest" == */* ]]; then rest=${rest#*/}; else rest=''; fi
    case "$part" in
      '' | .) ;;
      ..) if ((${#parts[@]})); then unset 'parts[-1]'; fi ;;
      *) parts+=("$part") ;;
    esac
  done
  printf '%s%s' "$lead" "$(IFS=/; printf '%s' "${parts[*]}")"
}

# pb::_canonical PATH: PATH absolute with every symlink resolved (its longest
# existing part through `cd -P`, the rest as written), for comparing two
# names of one folder; realpath is missing on older macOS.
pb::_canonical() {
  local path head tail=''
  path=$(pb::_absolute "$1")
  head=$path
  while [[ "$head" != / && "$head" != // && ! -d "$head" ]]; do
    tail="/${head##*/}${tail}"
    head=${head%/*}
    [[ -n "$head" ]] || head=/
  done
  if ! head=$(CDPATH='' cd -P -- "$head" 2>/dev/null && pwd -P); then
    printf '%s' "$path"
    return 0
  fi
  head=${head%/}
  if [[ -n "${head}${tail}" ]]; then printf '%s%s' "$head" "$tail"; else printf /; fi
}

# --uri: mark the playbook's database as this run's, and drop it at cleanup
# only while the mark still names this run.
pb::_claim_uri_database() {
  local js env=() conn=()
  js="db.getSiblingDB($(jq -nc --arg n "$PB_DB_NAME" '$n')).getCollection('_dbalab_owner').insertOne({_id: 'owner', runId: $(jq -nc --arg r "$PB_RUN_ID" '$r'), playbook: $(jq -nc --arg p "$PB_NAME" '$p'), created: new Date()})"
  pb::on_exit "drop database ${PB_DB_NAME} (created by this run)" pb::_drop_uri_database
  pb::connection env conn mongosh "$PB_URI"
  pb::run --quiet "${env[@]}" mongosh "${conn[@]}" --quiet --norc --eval "$js"
  pb::info "using database ${PB_DB_NAME} on $(pb::redact "$PB_URI")"
}

pb::_drop_uri_database() {
  local js env=() conn=()
  if ((PB_KEEP)); then
    pb::info "--keep: database ${PB_DB_NAME} stays on the target"
    return 0
  fi
  js="const d = db.getSiblingDB($(jq -nc --arg n "$PB_DB_NAME" '$n')); "
  js+="const o = d.getCollection('_dbalab_owner').findOne({_id: 'owner'}); "
  js+="if (o && o.runId === $(jq -nc --arg r "$PB_RUN_ID" '$r')) { d.dropDatabase(); print('dropped ' + d.getName()); } "
  js+="else { print('not dropping ' + d.getName() + ': it was not created by this run'); }"
  pb::connection env conn mongosh "$PB_URI"
  pb::run "${env[@]}" mongosh "${conn[@]}" --quiet --norc --eval "$js"
}

# Creates the report directory and moves the run log into it.
pb::_report_init() {
  if ((PB_DRY_RUN)); then
    return 0
  fi
  mkdir -p "$PB_REPORT_DIR"
  cat "$PB_LOG" >>"${PB_REPORT_DIR}/run.log" 2>/dev/null || true
  PB_LOG="${PB_REPORT_DIR}/run.log"
  PB_REPORT_READY=1
  pb::_record_environment
}

# The cluster data folder: created by this run (deleted at the end unless
# --keep), or an existing folder given with --dir (only its per-version
# subfolders are created and deleted).
pb::_claim_data_dir() {
  if [[ ! -e "$PB_DIR" ]]; then
    pb::claim_dir "$PB_DIR"
    pb::on_exit "delete ${PB_DIR}" pb::_release_data_dir
  fi
}

pb::_release_data_dir() {
  if ((PB_KEEP)); then
    return 0
  fi
  pb::release_dir "$PB_DIR"
}

pb::_call_stage() {
  local fn="$1"
  if declare -F "$fn" >/dev/null; then
    "$fn"
  else
    pb::info "(nothing to do)"
  fi
}

# Launch, prepare, run and analyze for one version (or the --uri target).
pb::_run_version() {
  local i="$1" label
  PB_VERSION=${PB_RESOLVED[$i]}
  # Stage headers name the server the --uri preflight found.
  label=$(pb::server_label "$PB_VERSION")
  # Per-version settings (e.g. PB_MONGOD_ARGS that only some versions need).
  if declare -F playbook_version >/dev/null; then playbook_version; fi
  pb::stage launch "$label"
  case "$PB_TOPOLOGY" in
    uri) pb::_claim_uri_database ;;
    none) ;;
    *) pb::launch "$PB_VERSION" "${PB_BINPATHS[$i]}" ;;
  esac
  if declare -F stage_launch >/dev/null; then stage_launch; fi
  pb::stage prepare "$label"
  pb::_call_stage stage_prepare
  pb::stage run "$label"
  pb::_call_stage stage_run
  pb::stage analyze "$label"
  pb::_call_stage stage_analyze
  # Clusters of earlier versions go before the next one takes the ports.
  if [[ "$PB_TOPOLOGY" != uri && "$PB_TOPOLOGY" != none ]] && ((i < ${#PB_RESOLVED[@]} - 1)); then
    # What was registered after the launch (knob restores) needs this
    # cluster: it runs now, before the cluster stops, not at exit.
    pb::_run_cleanups "$PB_CLUSTER_CLEANUP_ID"
    pb::info "stopping the ${PB_VERSION} cluster before the next version"
    # Marked done only once it has stopped: a Ctrl-C during it, or a refusal
    # (processes still running), leaves it to the exit cleanup, which runs
    # before the data folder is released.
    PB_KEEP=0 pb::cluster_teardown "$PB_CLUSTER_DIR" \
      || pb::die "the ${PB_VERSION} cluster did not stop: the next version cannot take its ports"
    PB_CLEANUP_DONE[PB_CLUSTER_CLEANUP_ID]=1
  fi
}

# pb::scenario_init: PB_SCENARIO, the folder of the playbook's scenario files
# (prepare.js, run.js, measure.js, checker.js), unless the playbook set it
# (a test fixture outside playbooks/). pb::main calls it; tests that
# source a playbook call it themselves.
pb::scenario_init() {
  [[ -n "$PB_NAME" ]] || pb::die "playbook bug: set PB_NAME before pb::scenario_init"
  PB_SCENARIO=${PB_SCENARIO:-"${PB_LIB}/scenarios/${PB_NAME}"}
}

# pb::main "$@": parse, configure, preflight, then each stage in order.
pb::main() {
  local i
  [[ -n "$PB_NAME" && -n "$PB_TITLE" ]] || { printf 'playbook bug: set PB_NAME and PB_TITLE before pb::main\n' >&2; exit 1; }
  declare -F stage_run >/dev/null || { printf 'playbook bug: define stage_run before pb::main\n' >&2; exit 1; }
  ((${#PB_SCALES[@]})) || pb::scale small "the only size"
  pb::log_init
  pb::_declare_common_options
  pb::parse_args "$@"
  if ((PB_HELP)); then
    pb::help
    exit 0
  fi
  pb::_check_common_options
  pb::scenario_init
  pb::_load_scale
  if declare -F playbook_configure >/dev/null; then playbook_configure; fi
  PB_WORK=$(mktemp -d "${TMPDIR:-/tmp}/dba-lab-${PB_NAME}.XXXXXX")
  PB_RECORDS="${PB_WORK}/records.jsonl"
  : >"$PB_RECORDS"
  PB_LOG="${PB_WORK}/run.log"
  PB_T0=$SECONDS
  pb::_defaults
  pb::install_traps

  pb::info "${PB_C_BOLD}${PB_TITLE}${PB_C_OFF}"
  pb::info "playbook ${PB_NAME}, scale ${PB_SCALE_NAME}, $(pb::topology_summary)"
  if ((PB_DRY_RUN)); then
    # A line of its own, first on it: no break between words can split it.
    pb::info "DRY RUN: commands are shown, not run$(pb::for_people && printf '%s' \
      "; long ones shortened to a line (…), piped they are whole: --dry-run | cat")"
  fi

  pb::stage preflight
  pb::preflight
  if pb::uri_mode; then
    PB_RESOLVED=("$(jq -r '.version // "unknown"' <<<"${PB_SERVER_INFO:-null}")")
    PB_BINPATHS=('')
  elif [[ "$PB_TOPOLOGY" == none ]]; then
    PB_RESOLVED=('')
    PB_BINPATHS=('')
  fi
  pb::_report_init
  for i in "${!PB_RESOLVED[@]}"; do
    if [[ "$PB_TOPOLOGY" != uri && "$PB_TOPOLOGY" != none ]]; then
      pb::record_version "${PB_VERSIONS[$i]}" "${PB_RESOLVED[$i]}" "${PB_BINPATHS[$i]}"
    elif pb::uri_mode; then
      pb::record_version "" "${PB_RESOLVED[$i]}" "" "${PB_RESOLVED[$i]}"
    fi
  done
  if [[ "$PB_TOPOLOGY" != uri && "$PB_TOPOLOGY" != none ]]; then
    pb::_claim_data_dir
  fi

  for i in "${!PB_RESOLVED[@]}"; do
    pb::_run_version "$i"
  done

  pb::stage report
  pb::_call_stage stage_report
  pb::check
  pb::report_write "done"
  PB_MAIN_DONE=1
  exit 0
}
