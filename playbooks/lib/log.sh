# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Logging for playbooks: stage headers with elapsed time, timestamped lines,
# warnings and errors, a progress ticker, colour only on a terminal (NO_COLOR
# honoured). Everything shown is also appended to the run log ($PB_LOG).
#
# Human output goes to $PB_FD (the playbook's original stdout), so functions
# can still return data on stdout; warnings and errors go to stderr.

PB_LOG=${PB_LOG:-/dev/null}
PB_T0=${PB_T0:-$SECONDS}
PB_C_BOLD='' PB_C_DIM='' PB_C_RED='' PB_C_GREEN='' PB_C_YELLOW='' PB_C_BLUE='' PB_C_OFF=''

pb::log_init() {
  if [[ -z "${PB_FD:-}" ]]; then
    exec {PB_FD}>&1
  fi
  if [[ -z "${NO_COLOR:-}" && "${TERM:-}" != dumb ]] && [[ -t "$PB_FD" ]]; then
    PB_C_BOLD=$'\e[1m' PB_C_DIM=$'\e[2m' PB_C_RED=$'\e[31m' PB_C_GREEN=$'\e[32m'
    PB_C_YELLOW=$'\e[33m' PB_C_BLUE=$'\e[34m' PB_C_OFF=$'\e[0m'
  fi
}

# True when the playbook's output is a terminal (progress tickers, pauses).
pb::on_terminal() {
  [[ -t "${PB_FD:-1}" ]]
}

# pb::_utc VAR FORMAT: the UTC time now, strftime FORMAT, into VAR. printf's
# own %(...)T: a line of output would otherwise start a `date` (a run prints
# hundreds of lines).
pb::_utc() {
  TZ=UTC0 printf -v "$1" "%(${2})T" -1
}

pb::_clock() {
  local _clock
  pb::_utc _clock %H:%M:%S
  printf '%s' "$_clock"
}

# mm:ss (or h:mm:ss) since the playbook started, or since $1 (a $SECONDS value).
pb::elapsed() {
  local s=$((SECONDS - ${1:-$PB_T0}))
  if ((s >= 3600)); then
    printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
  else
    printf '%02d:%02d' $((s / 60)) $((s % 60))
  fi
}

pb::_to_log() {
  local _stamp
  pb::_utc _stamp %Y-%m-%dT%H:%M:%SZ
  printf '%s %s\n' "$_stamp" "$*" >>"$PB_LOG" 2>/dev/null || true
}

pb::info() {
  local _clock
  pb::_utc _clock %H:%M:%S
  printf '%s%s%s %s\n' "$PB_C_DIM" "$_clock" "$PB_C_OFF" "$*" >&"$PB_FD"
  pb::_to_log "$*"
}

pb::warn() {
  printf '%swarning:%s %s\n' "$PB_C_YELLOW" "$PB_C_OFF" "$*" >&2
  pb::_to_log "warning: $*"
}

pb::error() {
  printf '%serror:%s %s\n' "$PB_C_RED" "$PB_C_OFF" "$*" >&2
  pb::_to_log "error: $*"
}

# pb::die MESSAGE [EXIT_CODE]: stop the playbook (cleanup runs from the EXIT trap).
pb::die() {
  pb::error "$1"
  PB_FAILURE=${PB_FAILURE:-$1}
  exit "${2:-1}"
}

# Stage header: "==> launch (7.0.12)   +00:42  04:12:33Z". Records the stage
# for the summary and the report.
pb::stage_header() {
  local name="$1" label="${2:-}" line
  line="==> ${name}${label:+ (${label})}"
  printf '\n%s%s%s%s  %s+%s  %sZ%s\n' "$PB_C_BOLD" "$PB_C_BLUE" "$line" "$PB_C_OFF" \
    "$PB_C_DIM" "$(pb::elapsed)" "$(pb::_clock)" "$PB_C_OFF" >&"$PB_FD"
  pb::_to_log "$line (elapsed $(pb::elapsed))"
}

# A progress ticker for a background process: on a terminal one line updated
# in place every second, elsewhere a line every PB_PROGRESS_EVERY seconds.
# pb::progress_wait PID LABEL [LIMIT]; returns the process's exit status, or
# 124 with the process still running once it has run LIMIT seconds (the
# caller stops it).
PB_PROGRESS_EVERY=${PB_PROGRESS_EVERY:-30}
pb::progress_wait() {
  local pid="$1" label="$2" limit="${3:-}" start=$SECONDS rc=0 last=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    if [[ -n "$limit" ]] && ((SECONDS - start >= limit)); then
      rc=124
      break
    fi
    if pb::on_terminal; then
      printf '\r  %s ... %s%s ' "$label" "$(pb::elapsed "$start")" "${limit:+ (limit $(pb::elapsed $((SECONDS - limit))))}" >&"$PB_FD"
    elif ((SECONDS - last >= PB_PROGRESS_EVERY)); then
      printf '  %s: still running (%s)\n' "$label" "$(pb::elapsed "$start")" >&"$PB_FD"
      last=$SECONDS
    fi
    sleep 1
  done
  ((rc == 124)) || wait "$pid" || rc=$?
  if pb::on_terminal; then
    printf '\r\e[K' >&"$PB_FD"
  fi
  if ((rc == 0)); then
    pb::info "  ${label}: done in $(pb::elapsed "$start")"
  elif ((rc == 124)) && kill -0 "$pid" 2>/dev/null; then
    pb::info "  ${label}: still running after its limit of $(pb::elapsed $((SECONDS - limit)))"
  else
    pb::info "  ${label}: failed (exit ${rc}) after $(pb::elapsed "$start")"
  fi
  return "$rc"
}
