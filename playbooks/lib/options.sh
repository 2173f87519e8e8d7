# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Command-line options: the common options of every playbook (README.md#playbooks) and the
# ones a playbook declares with pb::option, parsed in one place; --help is
# generated from the declarations, the scale table and the stage list.

# Declared options, one entry per index.
PB_OPT_FLAGS=()
PB_OPT_VARS=()
PB_OPT_TYPES=()
PB_OPT_DEFAULTS=()
PB_OPT_HELPS=()
PB_OPT_COMMON=()

# The scale table: PB_SCALES lists the names in order; PB_SCALE_ROWS[name] is
# "key=value key=value ...", PB_SCALE_NOTES[name] a one-line description.
PB_SCALES=()
declare -gA PB_SCALE_ROWS=()
declare -gA PB_SCALE_NOTES=()
declare -gA PB_SCALE=()

# pb::usage_error MESSAGE: one line on stderr, exit 2.
pb::usage_error() {
  PB_EXIT_KIND=usage
  printf '%s: %s (see --help)\n' "${PB_NAME:-playbook}" "$1" >&2
  exit 2
}

# pb::option --flag VAR TYPE DEFAULT "help text"
#   TYPE: flag (no value; VAR becomes 1), int, int:MIN-MAX, number, string,
#         list (comma-separated, stored as given), enum:a|b|c, path,
#         intlist:MIN-MAX (comma-separated whole numbers in range, strictly
#         ascending: the one way to take a list of integers)
#   DEFAULT @scale: the chosen scale's value of the key named like the option
#         without its dashes (--load-seconds -> load-seconds), set after parsing
#         unless the option was given.
# VAR is set to DEFAULT before parsing (flags default to 0; @scale to '').
pb::option() {
  local flag="$1" var="$2" type="$3" default="$4" help="$5"
  [[ "$flag" == --[a-z0-9]* ]] || pb::die "pb::option: '${flag}' must look like --name"
  [[ "$var" =~ ^[A-Z_][A-Z0-9_]*$ ]] || pb::die "pb::option: variable '${var}' must be UPPER_CASE"
  case "$type" in
    flag|int|int:*|number|string|list|enum:*|path) ;;
    intlist:*)
      [[ "$type" =~ ^intlist:[0-9]+-[0-9]+$ ]] || pb::die "pb::option ${flag}: type '${type}' must be intlist:MIN-MAX"
      ;;
    *) pb::die "pb::option ${flag}: unknown type '${type}'" ;;
  esac
  [[ "$default" != @scale || "$type" != flag ]] || pb::die "pb::option ${flag}: a flag cannot default to @scale"
  PB_OPT_FLAGS+=("$flag")
  PB_OPT_VARS+=("$var")
  PB_OPT_TYPES+=("$type")
  PB_OPT_DEFAULTS+=("$default")
  PB_OPT_HELPS+=("$help")
  PB_OPT_COMMON+=("${PB_DECLARING_COMMON:-0}")
  if [[ "$type" == flag ]]; then
    printf -v "$var" '%s' "${default:-0}"
  elif [[ "$default" == @scale ]]; then
    printf -v "$var" '%s' ''
  else
    printf -v "$var" '%s' "$default"
  fi
}

# pb::scale NAME "one-line description" key=value...
# The first declared scale is the default unless PB_DEFAULT_SCALE says otherwise.
pb::scale() {
  local name="$1" note="$2" kv
  shift 2
  [[ "$name" =~ ^[a-z][a-z0-9-]*$ ]] || pb::die "pb::scale: bad scale name '${name}'"
  for kv in "$@"; do
    [[ "$kv" =~ ^[a-z_][a-z0-9_-]*=.*$ ]] || pb::die "pb::scale ${name}: '${kv}' is not key=value"
  done
  PB_SCALES+=("$name")
  PB_SCALE_NOTES[$name]="$note"
  PB_SCALE_ROWS[$name]="$*"
}

# pb::scale_get VAR KEY [DEFAULT]: VAR = the chosen scale's value of KEY
# (after parsing). Safe anywhere: an unknown KEY stops the run here, not in a
# subshell.
pb::scale_get() {
  local _pbs_value
  if [[ -v "PB_SCALE[$2]" ]]; then
    _pbs_value=${PB_SCALE[$2]}
  elif (($# > 2)); then
    _pbs_value=$3
  else
    pb::die "scale '${PB_SCALE_NAME}' has no value '${2}' (playbook bug: add it to every pb::scale line)"
  fi
  printf -v "$1" '%s' "$_pbs_value"
}

pb::_declare_common_options() {
  local PB_DECLARING_COMMON=1
  pb::option --mongodb-version PB_VERSION_LIST list "${PB_DEFAULT_VERSIONS:-8.0}" \
    "server version(s) X.Y or X.Y.Z to install with m and compare, comma-separated"
  pb::option --binarypath PB_BINARYPATH path "" \
    "use the mongod/mongos in DIR instead of installing with m"
  pb::option --uri PB_URI string "" \
    "run against an existing deployment: no launch; uses only database dbalab_${PB_NAME}, dropped at the end"
  pb::option --scale PB_SCALE_NAME "enum:$(IFS='|'; printf '%s' "${PB_SCALES[*]}")" \
    "${PB_DEFAULT_SCALE:-${PB_SCALES[0]}}" "data size, see Scales below"
  pb::option --dir PB_DIR path "" \
    "cluster data directory (default: data/${PB_NAME}-<UTC time>/ in the checkout)"
  pb::option --port PB_PORT int:1024-65000 "${PB_DEFAULT_PORT:-27100}" \
    "first port of the cluster (kept away from 27017)"
  pb::option --report-dir PB_REPORT_DIR path "" \
    "where the report goes (default: reports/${PB_NAME}/<UTC time>/)"
  pb::option --keep PB_KEEP flag 0 "leave the cluster$([[ "${PB_SUPPORTS_URI:-1}" != 1 ]] || printf ' (or, with --uri, the database)') after the report"
  pb::option --dry-run PB_DRY_RUN flag 0 "print every step and every command whole (the plan), change nothing"
  pb::option --step PB_STEP flag 0 "training mode: narrate each stage and wait for Enter (read from the terminal, also when piped to tee); long commands shown short, whole in run.log"
  pb::option --yes PB_YES flag 0 "no confirmation prompts"
}

pb::_option_index() {
  local flag="$1" i
  for i in "${!PB_OPT_FLAGS[@]}"; do
    if [[ "${PB_OPT_FLAGS[$i]}" == "$flag" ]]; then
      printf '%s' "$i"
      return 0
    fi
  done
  return 1
}

# Validates VALUE for option index I and assigns it.
pb::_set_option() {
  local i="$1" value="$2" flag="${PB_OPT_FLAGS[$1]}" type="${PB_OPT_TYPES[$1]}" var="${PB_OPT_VARS[$1]}"
  local min max choices
  case "$type" in
    int|int:*)
      [[ "$value" =~ ^[0-9]+$ ]] || pb::usage_error "${flag} expects a whole number, got '${value}'"
      value=$((10#$value))
      if [[ "$type" == int:* ]]; then
        min=${type#int:}
        max=${min#*-}
        min=${min%-*}
        ((value >= min && value <= max)) || pb::usage_error "${flag} must be between ${min} and ${max}, got ${value}"
      fi
      ;;
    number)
      [[ "$value" =~ ^[0-9]+(\.[0-9]+)?$ ]] || pb::usage_error "${flag} expects a number such as 2 or 0.25, got '${value}'"
      ;;
    list)
      [[ -n "$value" && "$value" != *,,* && "$value" != ,* && "$value" != *, ]] \
        || pb::usage_error "${flag} expects a comma-separated list such as 1,10,40, got '${value}'"
      ;;
    intlist:*)
      pb::_check_intlist "$flag" "${type#intlist:}" "$value"
      value=$PB_INTLIST
      ;;
    enum:*)
      choices=${type#enum:}
      [[ "|${choices}|" == *"|${value}|"* ]] || pb::usage_error "${flag} must be one of ${choices//|/, }, got '${value}'"
      ;;
    string|path)
      [[ -n "$value" ]] || pb::usage_error "${flag} expects a value"
      ;;
  esac
  printf -v "$var" '%s' "$value"
}

# pb::_check_intlist FLAG MIN-MAX VALUE: usage error unless VALUE is
# comma-separated whole numbers in range, strictly ascending; PB_INTLIST gets
# them in plain decimal (007 -> 7).
pb::_check_intlist() {
  local flag="$1" range="$2" value="$3" min max n prev='' out=()
  min=${range%-*}
  max=${range#*-}
  [[ "$value" =~ ^[0-9]+(,[0-9]+)*$ ]] \
    || pb::usage_error "${flag} expects whole numbers separated by commas such as 1,10,40, got '${value}'"
  IFS=',' read -r -a PB_INTLIST_ITEMS <<<"$value"
  for n in "${PB_INTLIST_ITEMS[@]}"; do
    # Leading zeros off first, so only a number too big for bash is refused by length.
    n=${n#"${n%%[!0]*}"}
    n=${n:-0}
    ((${#n} <= 18)) || pb::usage_error "${flag}: ${n} is not between ${min} and ${max}"
    n=$((10#$n))
    ((n >= min && n <= max)) || pb::usage_error "${flag}: ${n} is not between ${min} and ${max}"
    if [[ -n "$prev" ]] && ((n <= prev)); then
      pb::usage_error "${flag} must list each number once, in ascending order, got '${value}'"
    fi
    prev=$n
    out+=("$n")
  done
  PB_INTLIST=$(IFS=,; printf '%s' "${out[*]}")
}

# Parses the command line into the declared variables. Sets PB_HELP=1 on -h/--help.
pb::parse_args() {
  local arg flag value i
  PB_HELP=0
  PB_ARGV=("$@")
  PB_GIVEN=" "
  while (($#)); do
    arg="$1"
    shift
    case "$arg" in
      -h|--help) PB_HELP=1; continue ;;
      --*=*) flag=${arg%%=*}; value=${arg#*=} ;;
      --*) flag=$arg; value='' ;;
      *) pb::usage_error "unexpected argument '${arg}': options start with --" ;;
    esac
    i=$(pb::_option_index "$flag") || pb::usage_error "unknown option ${flag}"
    if [[ "${PB_OPT_TYPES[$i]}" == flag ]]; then
      [[ "$arg" != *=* ]] || pb::usage_error "${flag} takes no value"
      printf -v "${PB_OPT_VARS[$i]}" '%s' 1
    else
      if [[ "$arg" != *=* ]]; then
        (($#)) || pb::usage_error "${flag} needs a value"
        [[ "$1" != --* ]] || pb::usage_error "${flag} needs a value, got option $1"
        value="$1"
        shift
      fi
      pb::_set_option "$i" "$value"
    fi
    PB_GIVEN+="${flag} "
  done
}

# True when FLAG was on the command line.
pb::given() {
  [[ "$PB_GIVEN" == *" $1 "* ]]
}

# Checks between common options, after parsing.
pb::_check_common_options() {
  local v uri=--uri
  # A --uri with a password is better kept off the process list (ps shows
  # every command line): DBA_LAB_URI stands for it (playbooks/check uses it).
  if [[ -z "$PB_URI" && -n "${DBA_LAB_URI:-}" ]]; then
    PB_URI=$DBA_LAB_URI
    uri="--uri (from DBA_LAB_URI)"
  fi
  if [[ -n "$PB_URI" ]]; then
    [[ "$PB_URI" =~ ^mongodb(\+srv)?:// ]] || pb::usage_error "${uri} must start with mongodb:// or mongodb+srv://, got '${PB_URI}'"
    # Its clients never get it on their command lines (credentials.sh), but
    # this playbook's own is readable by every local user for the whole run.
    if [[ "$uri" == --uri ]] && pb::uri_has_password "$PB_URI"; then
      pb::warn "$(pb::uri_argv_warning "${0##*/}" "$PB_URI")"
    fi
    for v in --mongodb-version --binarypath --dir --port; do
      if pb::given "$v"; then pb::usage_error "${uri} runs against an existing deployment: ${v} does not apply"; fi
    done
    [[ "${PB_SUPPORTS_URI:-1}" == 1 ]] || pb::usage_error "${uri} is not supported by this playbook: ${PB_URI_UNSUPPORTED_WHY:-it must launch its own cluster}"
  fi
  if [[ -n "$PB_BINARYPATH" ]] && pb::given --mongodb-version; then
    pb::usage_error "--binarypath and --mongodb-version exclude each other: the binaries in the folder decide the version"
  fi
  if ! pb::uri_mode; then
    [[ -z "$PB_DIR" ]] || pb::_check_shell_safe_path --dir "$(pb::_absolute "$PB_DIR")"
    [[ -z "$PB_BINARYPATH" ]] || pb::_check_shell_safe_path --binarypath "$(pb::_absolute "$PB_BINARYPATH")"
  fi
  IFS=',' read -r -a PB_VERSIONS <<<"$PB_VERSION_LIST"
  for v in "${PB_VERSIONS[@]}"; do
    [[ "$v" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || pb::usage_error "--mongodb-version expects X.Y or X.Y.Z (such as 7.0 or 7.0.12), got '${v}'"
  done
}

# pb::_check_shell_safe_path WHAT PATH: a usage error when PATH holds $, `,
# " or \. mlaunch builds each mongod and mongos command line as a
# "%s"-quoted string and runs it with sh -c (mlaunch.py), where inside double
# quotes the shell still expands $ and `, eats \ and ends the string at ":
# the server would get another folder, or run a command.
pb::_check_shell_safe_path() {
  local what="$1" path="$2" ch
  for ch in '$' '`' '"' "\\"; do
    if [[ "$path" == *"$ch"* ]]; then
      pb::usage_error "${what} ${path} holds ${ch}: mlaunch starts the servers through sh -c, which would expand it; choose a folder whose path holds none of \$ \` \" \\"
    fi
  done
}

# The keys of scale NAME, sorted, on one line.
pb::_scale_keys() {
  local kv keys=()
  for kv in ${PB_SCALE_ROWS[$1]}; do keys+=("${kv%%=*}"); done
  printf '%s\n' "${keys[@]}" | sort | tr '\n' ' '
}

# Fills PB_SCALE from the chosen scale's row, then gives every option whose
# default is @scale the scale's value (unless it was on the command line).
pb::_load_scale() {
  local kv row name keys i key
  PB_SCALE=()
  ((${#PB_SCALES[@]})) || return 0
  keys=$(pb::_scale_keys "${PB_SCALES[0]}")
  for name in "${PB_SCALES[@]}"; do
    [[ "$(pb::_scale_keys "$name")" == "$keys" ]] \
      || pb::die "playbook bug: scale '${name}' has keys $(pb::_scale_keys "$name")where '${PB_SCALES[0]}' has ${keys}(every scale defines the same keys)"
  done
  row=${PB_SCALE_ROWS[$PB_SCALE_NAME]}
  for kv in $row; do
    PB_SCALE[${kv%%=*}]=${kv#*=}
  done
  for i in "${!PB_OPT_FLAGS[@]}"; do
    [[ "${PB_OPT_DEFAULTS[$i]}" == @scale ]] || continue
    pb::given "${PB_OPT_FLAGS[$i]}" && continue
    key=${PB_OPT_FLAGS[$i]#--}
    [[ -v "PB_SCALE[$key]" ]] \
      || pb::die "playbook bug: ${PB_OPT_FLAGS[$i]} defaults to @scale but scale '${PB_SCALE_NAME}' has no '${key}'"
    pb::_set_option "$i" "${PB_SCALE[$key]}"
  done
}

pb::_help_value() {
  local i="$1" type="${PB_OPT_TYPES[$1]}"
  case "$type" in
    flag) printf '' ;;
    int|int:*) printf ' N' ;;
    intlist:*) printf ' N,N' ;;
    number) printf ' X' ;;
    list) printf ' A,B' ;;
    enum:*) printf ' %s' "${type#enum:}" ;;
    path) printf ' DIR' ;;
    string)
      if [[ "${PB_OPT_FLAGS[$i]}" == --uri ]]; then printf ' URI'; else printf ' TEXT'; fi
      ;;
  esac
}

pb::_help_options() {
  local want_common="$1" i left default
  for i in "${!PB_OPT_FLAGS[@]}"; do
    [[ "${PB_OPT_COMMON[$i]}" == "$want_common" ]] || continue
    # An option is listed only where it works: pb::help says why --uri is not.
    [[ "${PB_OPT_FLAGS[$i]}" != --uri || "${PB_SUPPORTS_URI:-1}" == 1 ]] || continue
    left="  ${PB_OPT_FLAGS[$i]}$(pb::_help_value "$i")"
    default=${PB_OPT_DEFAULTS[$i]}
    if [[ "${PB_OPT_TYPES[$i]}" == flag || -z "$default" ]]; then
      default=''
    elif [[ "$default" == @scale ]]; then
      default=" (default: the scale's$(pb::_scale_default_text "${PB_OPT_FLAGS[$i]#--}"))"
    else
      default=" (default: ${default})"
    fi
    if ((${#left} > 27)); then
      printf '%s\n%-28s %s%s\n' "$left" '' "${PB_OPT_HELPS[$i]}" "$default"
    else
      printf '%-28s %s%s\n' "$left" "${PB_OPT_HELPS[$i]}" "$default"
    fi
  done
}

# " (small: 100)": the default scale's value of KEY, for --help.
pb::_scale_default_text() {
  local name="${PB_DEFAULT_SCALE:-${PB_SCALES[0]:-}}" kv
  [[ -n "$name" ]] || return 0
  for kv in ${PB_SCALE_ROWS[$name]}; do
    if [[ "${kv%%=*}" == "$1" ]]; then
      printf ' (%s: %s)' "$name" "${kv#*=}"
      return 0
    fi
  done
}

# PB_WHERE, set by each playbook: where it runs and which of its checker's
# claims it can judge there, for the trainer who has no MongoDB download and
# must pick a place from --help. One line per place at the left margin
# (a launched topology and the option that makes it, --uri and the kind of
# deployment it needs, FerretDB); under it, indented by two, a line
# "judged: ID, ID (note), ..." and one "NOT APPLICABLE: ID (why), ...", by
# the claim ids the report shows (a longer list goes on in lines indented
# deeper), or one line saying why it does not run there.
# tests/bats/playbook-options.bats holds every place to its checker's claims.
pb::_help_where() {
  local line
  [[ -n "${PB_WHERE:-}" ]] || return 0
  printf '\nWhere it runs (claims by their ids in the report; NOT APPLICABLE: not judged there):\n'
  while IFS= read -r line; do printf '  %s\n' "$line"; done <<<"$PB_WHERE"
}

pb::help() {
  local name default_scale="${PB_DEFAULT_SCALE:-${PB_SCALES[0]:-}}"
  printf 'Usage: %s [options]\n\n' "$0"
  printf '%s\n' "$PB_TITLE"
  if [[ -n "${PB_DESCRIPTION:-}" ]]; then
    printf '\n%s\n' "$PB_DESCRIPTION"
  fi
  printf '\nStages: %s\n' "preflight -> launch -> prepare -> run -> analyze -> report -> teardown"
  printf '(teardown also runs on error and Ctrl-C, unless --keep; a second Ctrl-C forces it)\n'
  if [[ " ${PB_OPT_COMMON[*]} " == *" 0 "* ]]; then
    printf '\nScenario options:\n'
    pb::_help_options 0
  fi
  printf '\nCommon options:\n'
  pb::_help_options 1
  printf '  %-26s %s\n' "-h, --help" "this text"
  if [[ "${PB_SUPPORTS_URI:-1}" != 1 ]]; then
    printf '\nNot offered by this playbook:\n  %-26s %s\n' "--uri" \
      "it runs only on a cluster it launches: ${PB_URI_UNSUPPORTED_WHY:-it must launch its own cluster}"
  fi
  pb::_help_where
  if ((${#PB_SCALES[@]})); then
    printf '\nScales (their times are estimates for a cluster launched on a laptop; measured\nfigures, FerretDB included, are in the lab guide'"'"'s time plan):\n'
    for name in "${PB_SCALES[@]}"; do
      printf '  %-8s %s%s\n' "$name" "${PB_SCALE_NOTES[$name]}" \
        "$([[ "$name" == "$default_scale" ]] && printf ' (default)')"
      printf '  %-8s %s\n' '' "${PB_SCALE_ROWS[$name]}"
    done
  fi
  if [[ -n "${PB_EXAMPLES:-}" ]]; then
    printf '\nExamples:\n%s\n' "$PB_EXAMPLES"
  fi
  printf '\nReport: report.html, report.md, results.json, a CSV per table, SVG charts, log excerpts.\n'
  printf 'Exit codes: 0 done (verdicts in the report), 1 failure, 2 usage error, 3 preflight failed,\n'
  printf '            130/143 interrupted (Ctrl-C / TERM) after cleanup.\n'
  if [[ -f "${PB_ROOT}/playbooks/${PB_NAME}.md" ]]; then
    printf 'Lab guide: playbooks/%s.md\n' "$PB_NAME"
  fi
}
