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

# True when the playbook's output is a terminal (progress tickers, colour).
pb::on_terminal() {
  [[ -t "${PB_FD:-1}" ]]
}

# pb::_utc VAR FORMAT: the UTC time now, strftime FORMAT, into VAR. printf's
# own %(...)T: a line of output would otherwise start a `date` (a run prints
# hundreds of lines).
pb::_utc() {
  TZ=UTC0 printf -v "$1" "%(${2})T" -1
}

# pb::term_cols: the columns people read the run in: COLUMNS, else the
# controlling terminal's width (also under `| tee`), else 80; bounded to
# 44..104 so that a very wide or narrow window still gets readable lines.
pb::term_cols() {
  local cols
  pb::_term_cols cols
  printf '%d' "$cols"
}

# pb::_term_cols VAR: pb::term_cols into VAR, with no subshell when COLUMNS
# says it (pb::info asks for every long line).
pb::_term_cols() {
  local -n _pbtc_cols="$1"
  local size
  _pbtc_cols="${COLUMNS:-}"
  if ! [[ "$_pbtc_cols" =~ ^[0-9]+$ ]]; then
    _pbtc_cols=80
    if size=$(stty size 2>/dev/null </dev/tty) && [[ "${size#* }" =~ ^[0-9]+$ ]] && ((${size#* } > 0)); then
      _pbtc_cols=${size#* }
    fi
  fi
  ((_pbtc_cols >= 44)) || _pbtc_cols=44
  ((_pbtc_cols <= 104)) || _pbtc_cols=104
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

# pb::_plain VAR TEXT: TEXT without its colour codes, into VAR. The run log
# is read with less, grep and editors, where a code is noise (\e[33m), and a
# line's width on screen is that of its visible characters.
PB_SGR_RE=$'\e\\[[0-9;]*m'
pb::_plain() {
  local -n _pbp_out="$1"
  _pbp_out=$2
  while [[ "$_pbp_out" == *$'\e'* && "$_pbp_out" =~ $PB_SGR_RE ]]; do
    _pbp_out=${_pbp_out//"${BASH_REMATCH[0]}"/}
  done
}

pb::_to_log() {
  local _stamp _line
  pb::_utc _stamp %Y-%m-%dT%H:%M:%SZ
  pb::_plain _line "$*"
  printf '%s %s\n' "$_stamp" "$_line" >>"$PB_LOG" 2>/dev/null || true
}

# True when people read the output as it comes: a terminal, or --step even
# when piped (`--step | tee class.log` to a projector). Other piped runs (CI
# logs, tests, scripts) get every line and command whole, one per line.
pb::for_people() {
  pb::on_terminal || ((${PB_STEP:-0}))
}

# pb::_wrap VAR WIDTH USED INDENT TEXT: TEXT broken between words into lines
# that fit WIDTH columns, the first after USED columns already taken, the
# others after INDENT spaces; into VAR (lines joined by newlines). Colour
# codes take no column. A word longer than a line stays whole on a line of
# its own: a path or a URI must stay copyable. A terminal would cut inside a
# word ("cannot g|row"), which a class cannot read.
pb::_wrap() {
  local -n _pbw_out="$1"
  local width="$2" room=$(($2 - $3)) indent="$4" rest="$5" word seen line used fresh=1 pad
  printf -v pad '%*s' "$indent" ''
  # The text's own indentation stays; the spaces at a break go.
  line=${rest%%[! ]*}
  rest=${rest#"$line"}
  used=${#line}
  _pbw_out=''
  while :; do
    word=${rest%% *}
    pb::_plain seen "$word"
    if ((!fresh)) && ((used + 1 + ${#seen} <= room)); then
      line+=" ${word}" used=$((used + 1 + ${#seen}))
    else
      if ((!fresh)); then
        _pbw_out+="${line}"$'\n'"${pad}"
        room=$((width - indent)) line='' used=0 fresh=1
      fi
      if [[ -n "$word" ]]; then line+=$word used=$((used + ${#seen})) fresh=0; fi
    fi
    [[ "$rest" == *' '* ]] || break
    rest=${rest#* }
  done
  _pbw_out+=$line
}

# pb::_fit VAR USED TEXT: TEXT as people read it after USED columns of
# prefix (a clock, "warning: "): broken between words (pb::_wrap) when wider
# than the screen, the rest indented past the prefix and TEXT's own
# indentation; whole for the tools that read a piped run.
pb::_fit() {
  local -n _pbf_out="$1"
  local used="$2" cols lead
  _pbf_out=$3
  # 44 columns is the narrowest pb::term_cols gives: shorter lines fit as they are.
  if ((${#_pbf_out} + used > 44)) && pb::for_people; then
    pb::_term_cols cols
    if ((${#_pbf_out} + used > cols)); then
      lead=${_pbf_out%%[! ]*}
      pb::_wrap _pbf_out "$cols" "$used" $((used + ${#lead} + 2)) "$_pbf_out"
    fi
  fi
}

pb::info() {
  local _clock _text
  pb::_utc _clock %H:%M:%S
  pb::_fit _text 9 "$*"
  printf '%s%s%s %s\n' "$PB_C_DIM" "$_clock" "$PB_C_OFF" "$_text" >&"$PB_FD"
  pb::_to_log "$*"
}

pb::warn() {
  local _text
  pb::_fit _text 9 "$*"
  printf '%swarning:%s %s\n' "$PB_C_YELLOW" "$PB_C_OFF" "$_text" >&2
  pb::_to_log "warning: $*"
}

pb::error() {
  local _text
  pb::_fit _text 7 "$*"
  printf '%serror:%s %s\n' "$PB_C_RED" "$PB_C_OFF" "$_text" >&2
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
  local name="$1" label="${2:-}" line _clock
  pb::_utc _clock %H:%M:%S
  line="==> ${name}${label:+ (${label})}"
  printf '\n%s%s%s%s  %s+%s  %sZ%s\n' "$PB_C_BOLD" "$PB_C_BLUE" "$line" "$PB_C_OFF" \
    "$PB_C_DIM" "$(pb::elapsed)" "$_clock" "$PB_C_OFF" >&"$PB_FD"
  pb::_to_log "$line (elapsed $(pb::elapsed))"
}

# A progress line: what a long command says of its own progress, on a line
# of its output (run log) of this form: `progress: TEXT` (stage.progress in
# mongosh stages, the same words from Node workloads), or seedCollection's own
# line off a terminal (`seedCollection: N/M docs, ...`).
PB_PROGRESS_RE='^[[:space:]]*(progress|seedCollection): '

# pb::_progress_scan: PB_PROGRESS_TEXT becomes the newest progress line in
# what the run log gained since PB_PROGRESS_AT (bytes already read), which
# moves on. Reading only the new part keeps a second's scan small on a long
# log, and never shows an earlier command's line.
pb::_progress_scan() {
  local size line
  size=$(wc -c <"$PB_LOG" 2>/dev/null) || return 0
  size=${size//[[:space:]]/}
  [[ "$size" =~ ^[0-9]+$ ]] && ((size > PB_PROGRESS_AT)) || return 0
  line=$(tail -c "+$((PB_PROGRESS_AT + 1))" "$PB_LOG" 2>/dev/null | head -c "$((size - PB_PROGRESS_AT))" \
    | grep -aE "$PB_PROGRESS_RE" | tail -n 1) || true
  PB_PROGRESS_AT=$size
  line=${line//$'\r'/}
  line=${line#"${line%%[![:space:]]*}"}
  [[ -z "$line" ]] || PB_PROGRESS_TEXT=${line#progress: }
}

# pb::progress_mark [VAR]: the run log's size now into VAR (PB_PROGRESS_FROM),
# where the ticker of the command about to start reads from: taken before
# the start, a command's first line, written at once, is not missed.
PB_PROGRESS_FROM=''
pb::progress_mark() {
  local -n _pbm_at="${1:-PB_PROGRESS_FROM}"
  _pbm_at=$(wc -c <"$PB_LOG" 2>/dev/null) || _pbm_at=0
  _pbm_at=${_pbm_at//[[:space:]]/}
}

# A progress ticker for a background process, with the newest progress line
# the process wrote: on a terminal one line updated in place every second
# (cut to the width: a wrapped line cannot be redrawn), elsewhere a line every
# PB_PROGRESS_EVERY seconds (every 5 s at most with --step: a class watching
# through `| tee`).
# pb::progress_wait PID LABEL [LIMIT]; returns the process's exit status, or
# 124 with the process still running once it has run LIMIT seconds (the
# caller stops it).
PB_PROGRESS_EVERY=${PB_PROGRESS_EVERY:-30}
pb::progress_wait() {
  local pid="$1" label="$2" limit="${3:-}" start=$SECONDS rc=0 last=$SECONDS every="$PB_PROGRESS_EVERY" tick cols final
  PB_PROGRESS_TEXT=''
  PB_PROGRESS_AT=${PB_PROGRESS_FROM:-}
  PB_PROGRESS_FROM=''
  [[ -n "$PB_PROGRESS_AT" ]] || pb::progress_mark PB_PROGRESS_AT
  if ((${PB_STEP:-0} && every > 5)); then every=5; fi
  pb::on_terminal && cols=$(pb::term_cols)
  while kill -0 "$pid" 2>/dev/null; do
    if [[ -n "$limit" ]] && ((SECONDS - start >= limit)); then
      rc=124
      break
    fi
    pb::_progress_scan
    if pb::on_terminal; then
      pb::_tick_line tick "$((cols - 1))" "$label" \
        " ... $(pb::elapsed "$start")${limit:+ (limit $(pb::elapsed $((SECONDS - limit))))}${PB_PROGRESS_TEXT:+  ${PB_PROGRESS_TEXT}}"
      printf '\r\e[K%s' "$tick" >&"$PB_FD"
    elif ((SECONDS - last >= every)); then
      printf '  %s: still running (%s)%s\n' "$label" "$(pb::elapsed "$start")" "${PB_PROGRESS_TEXT:+, last progress: ${PB_PROGRESS_TEXT}}" >&"$PB_FD"
      last=$SECONDS
    fi
    sleep 1
  done
  ((rc == 124)) || wait "$pid" || rc=$?
  if pb::on_terminal; then
    printf '\r\e[K' >&"$PB_FD"
  fi
  # What the command wrote in its last second too: its final count is what
  # stays on the screen once the ticker is gone.
  pb::_progress_scan
  final=${PB_PROGRESS_TEXT:+ (${PB_PROGRESS_TEXT})}
  if ((rc == 0)); then
    pb::info "  ${label}: done in $(pb::elapsed "$start")${final}"
  elif ((rc == 124)) && kill -0 "$pid" 2>/dev/null; then
    pb::info "  ${label}: still running after its limit of $(pb::elapsed $((SECONDS - limit)))${final}"
  else
    pb::info "  ${label}: failed (exit ${rc}) after $(pb::elapsed "$start")${final}"
  fi
  return "$rc"
}

# pb::_tick_line VAR WIDTH LABEL TAIL: "  LABEL TAIL" in at most WIDTH
# columns, into VAR. The label is what was started, known from the command
# above it; the tail holds the time and the command's own figures, which a
# cut would make wrong (94/20 for 94/200): the label is cut first.
pb::_tick_line() {
  local -n _pbtl_line="$1"
  local width="$2" label="$3" tail="$4" room
  room=$((width - 2 - ${#tail}))
  if ((${#label} > room)); then
    # Never below a few characters of the label: then the tail is cut.
    ((room >= 9)) || room=9
    label="${label:0:room-1}…"
  fi
  _pbtl_line="  ${label}${tail}"
  _pbtl_line=${_pbtl_line:0:width}
}
