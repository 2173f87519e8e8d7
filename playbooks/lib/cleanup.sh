# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Cleanup on success, error, Ctrl-C, TERM and HUP: a stack of steps registered
# with pb::on_exit, run last-in first-out from the EXIT trap. A first Ctrl-C
# (or TERM, or HUP: a closed terminal, a lost SSH session) stops the running
# command and starts the cleanup; a second one during the cleanup forces it
# (running step killed, cluster processes SIGKILLed).

PB_CLEANUP_LABELS=()
PB_CLEANUP_CMDS=()
PB_CLEANUP_DONE=()
PB_LAST_CLEANUP_ID=''
PB_CLEANING=0
PB_FORCE=0
PB_SIGNAL=''
PB_FAILURE=${PB_FAILURE:-}

# pb::on_exit LABEL COMMAND [ARG...]: run COMMAND at exit (even after a failure
# or an interrupt). PB_LAST_CLEANUP_ID names the entry for pb::cleanup_now.
pb::on_exit() {
  local label="$1"
  shift
  PB_CLEANUP_LABELS+=("$label")
  PB_CLEANUP_CMDS+=("$(printf '%q ' "$@")")
  PB_CLEANUP_DONE+=(0)
  PB_LAST_CLEANUP_ID=$((${#PB_CLEANUP_CMDS[@]} - 1))
}

# pb::cleanup_now ID: run one registered step now (it will not run again).
pb::cleanup_now() {
  local id="$1"
  ((PB_CLEANUP_DONE[id])) && return 0
  PB_CLEANUP_DONE[id]=1
  eval "${PB_CLEANUP_CMDS[$id]}"
}

# pb::_run_cleanups [AFTER]: every step not yet run, last first (with AFTER:
# only those registered after step AFTER, e.g. a cluster's knob restores
# before the cluster stops).
pb::_run_cleanups() {
  local id after="${1:--1}"
  for ((id = ${#PB_CLEANUP_CMDS[@]} - 1; id > after; id--)); do
    ((PB_CLEANUP_DONE[id])) && continue
    PB_CLEANUP_DONE[id]=1
    pb::info "cleanup: ${PB_CLEANUP_LABELS[$id]}"
    if ! eval "${PB_CLEANUP_CMDS[$id]}"; then
      pb::warn "cleanup step failed: ${PB_CLEANUP_LABELS[$id]}"
    fi
  done
}

pb::_on_err() {
  local rc="$1" line="$2" cmd="$3"
  if [[ -z "$PB_FAILURE" && "$cmd" == return* && -n "$PB_LAST_FAILED" ]]; then
    PB_FAILURE="command failed: ${PB_LAST_FAILED}${PB_CURRENT_STAGE:+ in stage ${PB_CURRENT_STAGE}}"
  elif [[ -z "$PB_FAILURE" ]]; then
    cmd=${cmd%%$'\n'*}
    ((${#cmd} <= 120)) || cmd="${cmd:0:117}..."
    PB_FAILURE="'$(pb::redact "$cmd")' failed (exit ${rc})${PB_CURRENT_STAGE:+ in stage ${PB_CURRENT_STAGE}}${line:+, line ${line}}"
  fi
}

pb::_on_signal() {
  local sig="$1"
  # The terminal is gone: what the cleanup says goes to the run log, and a
  # write to the dead terminal cannot stop it half way.
  if [[ "$sig" == SIGHUP ]]; then pb::_detach_terminal; fi
  if ((PB_CLEANING)); then
    PB_FORCE=1
    printf '\n' >&"$PB_FD"
    pb::warn "second ${sig}: forcing the cleanup (running step killed, cluster processes SIGKILLed)"
    pb::stop_child
    return 0
  fi
  PB_SIGNAL=$sig
  printf '\n' >&"$PB_FD"
  pb::warn "interrupted by ${sig}${PB_CURRENT_STAGE:+ during ${PB_CURRENT_STAGE}}: cleaning up (press Ctrl-C again to force)"
  PB_FAILURE=${PB_FAILURE:-interrupted by ${sig}${PB_CURRENT_STAGE:+ during ${PB_CURRENT_STAGE}}}
  pb::stop_child
  case "$sig" in
    SIGINT) exit 130 ;;
    SIGHUP) exit 129 ;;
    *) exit 143 ;;
  esac
}

# After a hang-up: the run's output (human lines, stdout, stderr) goes to the
# end of its log instead of the terminal that closed.
pb::_detach_terminal() {
  [[ -n "${PB_LOG:-}" ]] || return 0
  exec >>"$PB_LOG" 2>&1
  eval "exec ${PB_FD}>&1"
}

# The EXIT trap: partial report on failure, cleanup, summary, exit code
# (0 done, 1 failure, 2 usage, 3 preflight, 130/143 interrupted).
pb::_on_exit() {
  local rc=$? code status
  ((PB_CLEANING)) && return 0
  PB_CLEANING=1
  # A Ctrl-C that lands in `IFS=X read` (waiting on a command's output) runs
  # this handler with IFS still X: pb::dir_pids then split nothing, found none
  # of the run's servers and the folder was deleted under them.
  IFS=$' \t\n'
  set +e
  trap - ERR
  # 2 and 3 only when the framework said so: a tool exiting 2 or 3 is a failure.
  case "$rc" in
    0) code=0 ;;
    2) if [[ "${PB_EXIT_KIND:-}" == usage ]]; then code=2; else code=1; fi ;;
    3) if [[ "${PB_EXIT_KIND:-}" == preflight ]]; then code=3; else code=1; fi ;;
    129|130|143) if [[ -n "$PB_SIGNAL" ]]; then code=$rc; else code=1; fi ;;
    *) code=1 ;;
  esac
  if ((code == 0 && PB_MAIN_DONE == 0 && ${#PB_CLEANUP_CMDS[@]} == 0)); then
    # exit 0 before anything was started needs no teardown and no summary.
    rm -rf "$PB_WORK"
    return 0
  fi
  if ((code != 0 && code != 2)) && [[ -z "$PB_FAILURE" ]]; then
    PB_FAILURE="exit ${rc}${PB_CURRENT_STAGE:+ in stage ${PB_CURRENT_STAGE}}"
  fi
  # Interrupted before the report folder was made (preflight): the report
  # still says so, unless --report-dir names a folder that holds files.
  if ((code >= 128)) && [[ -z "${PB_REPORT_READY:-}" ]] && pb::report_dir_unused; then
    pb::_report_init
  fi
  if ((code != 0 && code != 2 && code != 3)) && [[ -n "${PB_REPORT_READY:-}" ]] && ((!PB_REPORT_WRITTEN)); then
    if ((code >= 128)); then status=interrupted; else status=failed; fi
    pb::report_write "$status" || pb::warn "could not write the partial report"
  fi
  if ((code != 2)); then
    if ((${#PB_CLEANUP_CMDS[@]})); then
      pb::stage teardown
      pb::_run_cleanups
      pb::stage_end
    fi
    pb::summary "$code"
  fi
  rm -rf "$PB_WORK"
  exit "$code"
}

pb::install_traps() {
  set -E
  trap 'pb::_on_err "$?" "$LINENO" "$BASH_COMMAND"' ERR
  trap 'pb::_on_exit' EXIT
  trap 'pb::_on_signal SIGINT' INT
  trap 'pb::_on_signal SIGTERM' TERM
  trap 'pb::_on_signal SIGHUP' HUP
}
