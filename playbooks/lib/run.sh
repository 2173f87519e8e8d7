# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# The one runner for external commands. Every command a playbook runs (m,
# mlaunch, mongosh with its script, mongodump, ...) goes through pb::run or
# pb::capture, which print it as "$ command" first. With --dry-run the same
# lines are printed in the same order and nothing runs, except commands marked
# --read-only (they only look, such as `m installed --json`).
#
# Each command runs in its own process group with stdin from /dev/null, so
# Ctrl-C and TERM reach the playbook, whose cleanup stops the group.

PB_CHILD_PID=''
PB_SPAWNING=0      # 1 from a job's start until PB_CHILD_PID names it
PB_SPAWN_PREV=''   # $! before that job
PB_DRY_RUN=${PB_DRY_RUN:-0}

# pb::quote ARG...: the arguments as one line a shell would split back the same.
pb::quote() {
  local out='' a q="'"
  for a in "$@"; do
    if [[ "$a" =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then
      out+=" $a"
    else
      out+=" '${a//$q/$q\\$q$q}'"
    fi
  done
  printf '%s' "${out# }"
}

# Hides passwords in connection strings shown on screen and in logs. In bash,
# not sed: every command shown goes through it (150 in one dry run). Line by
# line, as sed would: a match never spans a newline.
PB_REDACT_RE=$'(mongodb(\\+srv)?://[^:/@ \n]+:)[^@ \n]*@'
pb::redact() {
  local rest="$1" out=''
  while [[ "$rest" =~ $PB_REDACT_RE ]]; do
    out+="${rest%%"${BASH_REMATCH[0]}"*}${BASH_REMATCH[1]}***@"
    rest=${rest#*"${BASH_REMATCH[0]}"}
  done
  printf '%s\n' "${out}${rest}"
}

# pb::short_cmd WIDTH ARG...: the command as people can read it on a screen
# WIDTH columns wide, on one line: a wrapped command pushes what matters off
# a projector's 24 lines. The whole line when it fits. Otherwise a
# connection string becomes <uri>, a checkout path is shown from
# playbooks/lib (or the checkout), an argument too long to read (a script
# given to --eval) becomes "…", and the line ends with where the whole
# command is. Still too long, arguments go from the middle outwards: a
# command's first words say what it is, its last ones are often the
# settings people are told to look for (mlaunch init's --oplogSize ...
# --slowms 0), the middle is folders and ports; a flag goes with its value.
# The command, a <uri> and the last script file (.js, .py, .sh: the step's
# own, after a harness such as js/stage.js) stay; past that the script is
# shown by its name alone, and only a screen narrower than those wraps.
pb::short_cmd() {
  local width="$1" a i j n best dist best_dist line note toks=() keep=() scripts=() units=() paths=() args
  shift
  args=("$@")
  # A dry run has no run log: its plan is whole where it is piped.
  note=' (full command: run.log)'
  if ((PB_DRY_RUN)); then note=' (whole: piped)'; fi
  line=$(pb::redact "$(pb::quote "$@")")
  if ((${#line} <= width)); then
    printf '%s' "$line"
    return 0
  fi
  for a in "$@"; do
    keep+=(0)
    if [[ "$a" =~ ^mongodb(\+srv)?:// ]]; then toks+=('<uri>') keep[-1]=1
    elif [[ "$a" == "${PB_LIB}/"* ]]; then toks+=("$(pb::quote "${a#"${PB_LIB}/"}")")
    elif [[ "$a" == "${PB_ROOT}/"* ]]; then toks+=("$(pb::quote "${a#"${PB_ROOT}/"}")")
    elif ((${#a} > 40)) || [[ "$a" == *$'\n'* ]]; then toks+=('…')
    else toks+=("$(pb::quote "$a")")
    fi
    if [[ "$a" == "${PB_ROOT}/"* && "$a" =~ \.(js|py|sh)$ ]]; then scripts+=("$((${#toks[@]} - 1))"); fi
  done
  n=${#toks[@]}
  # The command and its subcommand (mlaunch init, m bin) say what it does.
  keep[0]=1
  if ((n > 1)) && [[ "${args[1]}" =~ ^[a-z][a-z-]*$ ]]; then keep[1]=1; fi
  # The last script is the step's own (run-claims.js); those before it
  # (js/stage.js) are the harness that loads it.
  if ((${#scripts[@]})); then keep[scripts[-1]]=1; fi
  # Arguments go by units: a flag with its value (--port 27100), so that
  # neither is left without the other. Units holding a path go first: a
  # folder says less than a setting (mlaunch's --dir, --binarypath).
  for ((i = 0; i < n; i++)); do
    if [[ "${args[i]}" == -* && $((i + 1)) -lt n && "${args[i + 1]}" != -* ]]; then
      units+=("${i}:$((i + 1))")
      if ((keep[i + 1])); then keep[i]=1; fi
      i=$((i + 1))
    else
      units+=("${i}:${i}")
    fi
    if [[ "${args[i]}" == /* || "${args[i]}" == '<'* ]]; then paths+=(1); else paths+=(0); fi
  done
  while :; do
    line=$(pb::_join_short "${toks[@]}")
    ((${#line} + ${#note} > width)) || break
    best=-1
    for ((j = 1; j < ${#units[@]}; j++)); do
      i=${units[j]%:*}
      if ((keep[i])) || [[ "${toks[i]}" == '…' ]]; then continue; fi
      dist=$((2 * j - ${#units[@]}))
      dist=$((${dist#-} + (1 - paths[j]) * 2 * ${#units[@]}))
      if ((best < 0 || dist < best_dist)); then best=$j best_dist=$dist; fi
    done
    if ((best > 0)); then
      for ((i = ${units[best]%:*}; i <= ${units[best]#*:}; i++)); do toks[i]='…'; done
    elif ((${#scripts[@]})) && [[ "${toks[scripts[-1]]}" == */* ]]; then
      # The script's name says which step it is; its folder goes first.
      i=${scripts[-1]}
      toks[i]=$(pb::quote "${args[i]##*/}")
    else
      break
    fi
  done
  printf '%s%s' "$(pb::redact "$line")" "$note"
}

# The tokens joined by spaces, each run of "…" as one.
pb::_join_short() {
  local t out=''
  for t in "$@"; do
    [[ "$t" == '…' && "$out" == *' …' ]] && continue
    out+=" $t"
  done
  printf '%s' "${out# }"
}

# pb::show_cmd [--env NAME=VALUE]... COMMAND [ARG...]: the "$ command" line,
# with the environment the runner gives the command (--env) in front of it.
pb::show_cmd() {
  local line='' envs='' short_envs='' kv
  while [[ "${1:-}" == --env ]]; do
    kv=$2
    envs+="${kv%%=*}=$(pb::quote "${kv#*=}") "
    if [[ "${kv#*=}" =~ ^mongodb(\+srv)?:// ]]; then
      short_envs+="${kv%%=*}=<uri> "
    else
      short_envs+="${kv%%=*}=$(pb::quote "${kv#*=}") "
    fi
    shift 2
  done
  line=$(pb::redact "${envs}$(pb::quote "$@")")
  pb::_to_log "\$ ${line}"
  # Read by people (pb::for_people), a mongosh command carrying a stage's
  # configuration is hundreds of characters that push the output around it
  # off the screen: the short form, the whole in the run log. A piped run
  # without --step (CI logs, tests, scripts) keeps every command whole, and
  # so does a piped --dry-run: its plan is the command list to copy.
  if pb::for_people; then
    line="$(pb::redact "$short_envs")$(pb::short_cmd $(($(pb::term_cols) - 2 - ${#short_envs})) "$@")"
  fi
  if ((PB_DRY_RUN)); then
    printf '$ %s\n' "$line" >&"$PB_FD"
    return 0
  fi
  printf '%s$ %s%s\n' "$PB_C_DIM" "$line" "$PB_C_OFF" >&"$PB_FD"
}

# Runs "$@" in a process group of its own. Output: MODE live (terminal and run
# log), log (run log only) or FILE:path (stdout to path, stderr to the run log).
# --env NAME=VALUE (after MODE, repeatable): in the command's environment only.
pb::_spawn() {
  local mode="$1" envs=()
  shift
  while [[ "${1:-}" == --env ]]; do
    envs+=("$2")
    shift 2
  done
  if ((${#envs[@]})); then set -- pb::_exec_with_env "${#envs[@]}" "${envs[@]}" "$@"; fi
  # A signal's trap may run between the job's start and the line that notes
  # its pid: pb::stop_child then knows it by $! differing from this.
  PB_SPAWN_PREV=${!:-none}
  PB_SPAWNING=1
  set -m
  case "$mode" in
    live) { "$@" 2>&1 </dev/null | tee -a "$PB_LOG" >&"$PB_FD"; } & ;;
    log) "$@" </dev/null >>"$PB_LOG" 2>&1 & ;;
    FILE:*) "$@" </dev/null >"${mode#FILE:}" 2>>"$PB_LOG" & ;;
  esac
  PB_CHILD_PID=$!
  PB_SPAWNING=0
  set +m
}

# pb::_exec_with_env N NAME=VALUE... COMMAND [ARG...]: COMMAND with the N
# variables exported. Runs in the subshell pb::_spawn starts, so they reach
# no other process; exec keeps the command's pid the job's pid.
pb::_exec_with_env() {
  local n="$1"
  shift
  export "${@:1:n}"
  shift "$n"
  if [[ "$(type -t "$1")" == file ]]; then exec "$@"; fi
  "$@"
}

pb::_wait_child() {
  local progress="$1" limit="${2:-}" rc=0
  # The failpoint's "during": the command has started; a moment for it to run.
  pb::_failpoint_pending 0.2
  if [[ -n "$progress" ]]; then
    pb::progress_wait "$PB_CHILD_PID" "$progress" "$limit" || rc=$?
    if ((rc == 124)) && [[ -n "$limit" ]]; then
      pb::_to_log "stopping it: its time limit of ${limit} s is over"
      pb::stop_child
      return 124
    fi
  else
    wait "$PB_CHILD_PID" || rc=$?
  fi
  PB_CHILD_PID=''
  return "$rc"
}

# Stops the running command's process group (cleanup, signals).
pb::stop_child() {
  local pid="$PB_CHILD_PID" _
  if [[ -z "$pid" && "${PB_SPAWNING:-0}" == 1 && "${!:-none}" != "${PB_SPAWN_PREV:-none}" ]]; then
    pid=$!
  fi
  [[ -n "$pid" ]] || return 0
  kill -TERM -- "-${pid}" 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 -- "-${pid}" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL -- "-${pid}" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  PB_CHILD_PID=''
}

# The last failed command, for the failure line of the summary and report.
PB_LAST_FAILED=''
pb::_note_status() {
  local rc="$1"
  shift
  if ((rc == 0)); then
    PB_LAST_FAILED=''
  else
    PB_LAST_FAILED="$(pb::redact "$(pb::quote "$@")") (exit ${rc})"
  fi
}

pb::_show_failure_tail() {
  local rc="$1"
  shift
  pb::error "command failed (exit ${rc}): $(pb::redact "$(pb::quote "$@")")"
  if [[ -f "$PB_LOG" ]]; then
    printf '  last lines of the run log (%s):\n' "$PB_LOG" >&2
    tail -n 15 "$PB_LOG" | sed 's/^/  | /' >&2
  fi
}

# Failpoints: TEST-ONLY (tests/faults/README.md), never for a lab run.
# DBA_LAB_FAILPOINT_RECORD=FILE appends one line per external command the run
# starts, "N<TAB>WHERE<TAB>command" (WHERE: the stage, or "cleanup" once the
# exit handler runs), numbered across the whole run, subshells included (hence
# a file, not a variable): what the walk counts and names each N by.
# With DBA_LAB_FAILPOINT=N as well (a positive number), the playbook gets
# SIGINT just before its Nth command, as a Ctrl-C would deliver it; with
# DBA_LAB_FAILPOINT=match:ERE, before the first command whose
# "WHERE<TAB>command" matches ERE (its N goes to FILE.fired): a run's command
# count varies by one or two (retries, polling), a command's name does not.
# Either variable alone, or a value of neither form, does nothing.
# DBA_LAB_FAILPOINT_SIGNAL=INT (default), TERM or HUP picks the signal, as
# Ctrl-C, a kill or a closed terminal sends it; DBA_LAB_FAILPOINT_WHEN=during
# sends it once command N runs (its process group started) instead of before.
PB_FAILPOINT_PENDING=''
pb::_failpoint() {
  local record="${DBA_LAB_FAILPOINT_RECORD:-}" at="${DBA_LAB_FAILPOINT:-}" n=1 where line
  [[ -n "$record" ]] || return 0
  if [[ -f "$record" ]]; then n=$(($(wc -l <"$record") + 1)); fi
  where=${PB_CURRENT_STAGE:--}
  if ((${PB_CLEANING:-0})); then where=cleanup; fi
  line=$(pb::redact "$(pb::quote "$@")")
  printf '%d\t%s\t%s\n' "$n" "$where" "${line//$'\n'/\\n}" >>"$record"
  if [[ "$at" =~ ^[1-9][0-9]{0,8}$ ]] && ((n == at)); then
    pb::_failpoint_fire
  elif [[ "$at" == match:?* && ! -e "${record}.fired" && "${where}"$'\t'"${line}" =~ ${at#match:} ]]; then
    printf '%d\n' "$n" >"${record}.fired"
    pb::_failpoint_fire
  fi
}

# pb::_failpoint_pending [DELAY]: sends a "during" failpoint's signal, if one
# is pending, after DELAY seconds. pb::_wait_child calls it once the command
# runs; a foreground command before it starts (nothing waits for it); a
# command the shell runs itself (the process table, a kill) as soon as it
# returned, "during" a few milliseconds being no moment to aim at.
pb::_failpoint_pending() {
  [[ -n "$PB_FAILPOINT_PENDING" ]] || return 0
  local sig=$PB_FAILPOINT_PENDING
  PB_FAILPOINT_PENDING=''
  [[ -z "${1:-}" ]] || sleep "$1"
  pb::_failpoint_signal "$sig"
}

# Now, or (DBA_LAB_FAILPOINT_WHEN=during) once the command runs: pb::_wait_child
# sends what is pending.
pb::_failpoint_fire() {
  local sig
  case "${DBA_LAB_FAILPOINT_SIGNAL:-INT}" in
    TERM) sig=TERM ;;
    HUP) sig=HUP ;;
    *) sig=INT ;;
  esac
  if [[ "${DBA_LAB_FAILPOINT_WHEN:-before}" == during ]]; then
    PB_FAILPOINT_PENDING=$sig
  else
    pb::_failpoint_signal "$sig"
  fi
}

# A Ctrl-C (or a terminal's hang-up) reaches the playbook's shell and every
# subshell of it on the way to this one (they share its process group;
# commands run in groups of their own). Signalled top down: the shell's trap
# runs once its child is gone. A subshell that ignores the signal (process
# substitution) does not start the command either.
pb::_failpoint_signal() {
  local sig="$1" pid=$BASHPID chain=() i
  while [[ "$pid" != "$$" && "$pid" =~ ^[0-9]+$ && "$pid" -gt 1 ]]; do
    chain+=("$pid")
    pid=$(ps -o ppid= -p "$pid" | tr -d ' ')
  done
  kill "-${sig}" "$$"
  for ((i = ${#chain[@]} - 1; i >= 0; i--)); do
    kill "-${sig}" "${chain[i]}" 2>/dev/null || true
  done
  if [[ "$BASHPID" != "$$" ]]; then
    case "$sig" in INT) exit 130 ;; HUP) exit 129 ;; *) exit 143 ;; esac
  fi
}

# pb::run [--read-only] [--progress LABEL [--timeout SECONDS]] [--quiet] [--env NAME=VALUE]... COMMAND [ARG...]
#   --read-only      it changes nothing: run it with --dry-run too
#   --progress LABEL long step: output goes to the run log, a ticker shows time
#   --timeout SECS   with --progress: past SECS its process group is stopped and
#                    pb::run returns 124 without a failure message (the caller
#                    says what was stuck)
#   --quiet          output goes to the run log only
#   --env NAME=VALUE VALUE in the command's environment, not on its command
#                    line (any local user can read those, ps): for passwords.
#                    Shown as NAME=VALUE before the command, redacted.
# Returns the command's exit status (a failure stops the playbook unless the
# call is tested, as in `if pb::run ...`).
pb::run() {
  local read_only=0 progress='' limit='' mode=live rc=0 envs=()
  while (($#)); do
    case "$1" in
      --read-only) read_only=1 ;;
      --env) pb::_env_option "$2"; envs+=(--env "$2"); shift ;;
      --progress) progress="$2"; mode=log; shift ;;
      --timeout) limit="$2"; shift ;;
      --quiet) mode=log ;;
      *) break ;;
    esac
    shift
  done
  (($#)) || pb::die "pb::run: no command"
  pb::show_cmd "${envs[@]}" "$@"
  if ((PB_DRY_RUN && !read_only)); then
    return 0
  fi
  pb::_failpoint "$@"
  [[ -z "$progress" ]] || pb::progress_mark
  pb::_spawn "$mode" "${envs[@]}" "$@"
  pb::_wait_child "$progress" "$limit" || rc=$?
  pb::_note_status "$rc" "$@"
  if ((rc != 0 && !(rc == 124 && ${#limit}))) && [[ "$mode" == log ]]; then
    pb::_show_failure_tail "$rc" "$@"
  fi
  return "$rc"
}

# pb::capture [--read-only] [--dry-value TEXT] [--progress LABEL [--timeout SECONDS]] [--env NAME=VALUE]... VAR COMMAND [ARG...]
# Runs the command (shown like pb::run) and stores its stdout, without the
# trailing newline, in VAR; stderr goes to the run log. With --dry-run a
# command that is not --read-only is only shown and VAR gets TEXT.
pb::capture() {
  # Locals are prefixed: VAR is assigned by name and must not be one of them.
  local _pbc_ro=0 _pbc_dry='' _pbc_progress='' _pbc_limit='' _pbc_var _pbc_out _pbc_rc=0 _pbc_env=()
  while (($#)); do
    case "$1" in
      --read-only) _pbc_ro=1 ;;
      --env) pb::_env_option "$2"; _pbc_env+=(--env "$2"); shift ;;
      --dry-value) _pbc_dry="$2"; shift ;;
      --progress) _pbc_progress="$2"; shift ;;
      --timeout) _pbc_limit="$2"; shift ;;
      *) break ;;
    esac
    shift
  done
  _pbc_var="$1"
  shift
  (($#)) || pb::die "pb::capture: no command"
  pb::show_cmd "${_pbc_env[@]}" "$@"
  if ((PB_DRY_RUN && !_pbc_ro)); then
    printf -v "$_pbc_var" '%s' "$_pbc_dry"
    return 0
  fi
  pb::_failpoint "$@"
  [[ -z "$_pbc_progress" ]] || pb::progress_mark
  _pbc_out=$(pb::tempfile capture)
  pb::_spawn "FILE:${_pbc_out}" "${_pbc_env[@]}" "$@"
  pb::_wait_child "$_pbc_progress" "$_pbc_limit" || _pbc_rc=$?
  pb::_note_status "$_pbc_rc" "$@"
  printf -v "$_pbc_var" '%s' "$(<"$_pbc_out")"
  rm -f "$_pbc_out"
  return "$_pbc_rc"
}

# PB_CPU="USER SYS": children's CPU seconds so far. `times` must run in this
# shell (a subshell starts its own count), hence the file.
pb::_children_cpu() {
  local f="${PB_WORK}/times"
  times >"$f"
  PB_CPU=$(awk 'NR == 2 {
    for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t[i] = p[1] * 60 + p[2] }
    printf "%.3f %.3f", t[1], t[2] }' "$f")
}

# pb::run_timed VAR [pb::run options] COMMAND [ARG...]: runs the command like
# pb::run and sets VAR to "WALL USER SYS" in seconds: wall clock, and the CPU
# time of the command and the processes it waited for (not of servers it
# talked to). With --dry-run VAR is empty.
pb::run_timed() {
  local _pbt_var="$1" _pbt_t0 _pbt_cpu0 _pbt_cpu1 _pbt_rc=0
  shift
  printf -v "$_pbt_var" '%s' ''
  pb::_children_cpu
  _pbt_cpu0=$PB_CPU
  _pbt_t0=$(pb::_now)
  pb::run "$@" || _pbt_rc=$?
  ((PB_DRY_RUN)) && return "$_pbt_rc"
  pb::_children_cpu
  _pbt_cpu1=$PB_CPU
  printf -v "$_pbt_var" '%s' "$(awk -v t0="$_pbt_t0" -v t1="$(pb::_now)" -v c0="$_pbt_cpu0" -v c1="$_pbt_cpu1" \
    'BEGIN { split(c0, a, " "); split(c1, b, " "); printf "%.3f %.3f %.3f", t1 - t0, b[1] - a[1], b[2] - a[2] }')"
  return "$_pbt_rc"
}

# Seconds since the epoch with milliseconds (EPOCHREALTIME needs bash 5).
pb::_now() {
  if [[ -n "${EPOCHREALTIME:-}" ]]; then
    printf '%s' "${EPOCHREALTIME/,/.}"
  else
    date +%s.%N | sed 's/\.N$/.0/'
  fi
}

pb::_env_option() {
  [[ "$1" =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || pb::die "runner: --env expects NAME=VALUE, got '$(pb::redact "$1")'"
}

# pb::run_foreground COMMAND [ARG...]: for the rare command that must talk to
# the user (setup asking before a system-wide install). Shown like pb::run.
pb::run_foreground() {
  pb::show_cmd "$@"
  if ((PB_DRY_RUN)); then
    return 0
  fi
  pb::_failpoint "$@"
  # A foreground command is not waited for by pb::_wait_child: a failpoint
  # "during" it fires before it, as it would for the command itself.
  pb::_failpoint_pending
  "$@"
}

# pb::tempfile NAME: a new file under the run's temporary directory (removed at exit).
pb::tempfile() {
  mktemp "${PB_WORK}/${1:-tmp}.XXXXXX"
}
