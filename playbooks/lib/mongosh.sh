# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# Stages written in JavaScript, run by mongosh: the work that belongs in the
# shell (seeding, change streams, timing from a client) lives in small .js
# files that see the snippets (seedCollection, oplogEntrySize, ...) and a
# `stage` object (lib/js/stage.js) to report measurements, rows and notes
# (verdicts come from the scenario's checker.js, pb::check).

PB_KNOBS_SEEN=0

# pb::stage_config [KEY=VALUE...]: the JSON mongosh stages receive as
# globalThis.dbaLabStage (typed values; see lib/js/stage.js).
pb::stage_config() {
  local kv
  for kv in "$@"; do
    [[ "$kv" == *=* ]] || pb::die "stage parameter '${kv}' is not KEY=VALUE"
  done
  local scale_pairs=() k
  for k in "${!PB_SCALE[@]}"; do scale_pairs+=("${k}=${PB_SCALE[$k]}"); done
  pb::_stage_config_bash "${#scale_pairs[@]}" "${scale_pairs[@]}" "$@" \
    || pb::_stage_config_jq "${#scale_pairs[@]}" "${scale_pairs[@]}" "$@"
}

# pb::_stage_config_jq NSCALE SCALE_PAIR... PAIR...: the config, written by jq.
pb::_stage_config_jq() {
  local nscale="$1"
  shift
  jq -nc "${PB_JQ_TYPED}"'
    def pairs: map(capture("^(?<k>[^=]+)=(?<v>.*)$") | {(.k): (.v | typed)}) | add // {};
    ($nscale | tonumber) as $n |
    {root: $root, records: $records, playbook: $playbook, dbName: $db, runId: $run,
     version: $version, stage: $stage, scale: $scale, uriMode: ($uri == "1"), target: $target,
     scaleParams: ($ARGS.positional[:$n] | pairs),
     params: ($ARGS.positional[$n:] | pairs)}' \
    --arg root "$PB_ROOT" --arg records "$PB_RECORDS" --arg playbook "$PB_NAME" \
    --arg db "$PB_DB_NAME" --arg run "$PB_RUN_ID" --arg version "${PB_VERSION:-}" \
    --arg target "${PB_STAGE_TARGET:-}" --arg stage "${PB_CURRENT_STAGE:-}" \
    --arg scale "$PB_SCALE_NAME" --arg uri "$([[ -n "$PB_URI" ]] && printf 1)" \
    --arg nscale "$nscale" --args "$@"
}

# pb::_stage_config_bash NSCALE SCALE_PAIR... PAIR...: the same bytes as
# pb::_stage_config_jq, written by bash: a run starts a stage per mongosh, and
# jq 1.6 takes 16 ms to start (docs/mongodb-facts.md#jq-startup). Fails, and
# leaves it to jq, for any value bash would not write byte for byte as jq does:
# a character outside printable ASCII, tab and CR, a key jq's capture would
# skip or that is not a plain name, a number jq rewrites (pb::_json_typed).
pb::_stage_config_bash() {
  local LC_ALL=C nscale="$1" out='{' s i
  shift
  local fields=(root "$PB_ROOT" records "$PB_RECORDS" playbook "$PB_NAME" dbName "$PB_DB_NAME"
    runId "$PB_RUN_ID" version "${PB_VERSION:-}" stage "${PB_CURRENT_STAGE:-}" scale "$PB_SCALE_NAME")
  for ((i = 0; i < ${#fields[@]}; i += 2)); do
    pb::_json_string s "${fields[i + 1]}" || return 1
    out+="\"${fields[i]}\":${s},"
  done
  if [[ -n "$PB_URI" ]]; then out+='"uriMode":true,'; else out+='"uriMode":false,'; fi
  pb::_json_string s "${PB_STAGE_TARGET:-}" || return 1
  out+="\"target\":${s},"
  pb::_json_pairs s "${@:1:nscale}" || return 1
  out+="\"scaleParams\":${s},"
  pb::_json_pairs s "${@:nscale+1}" || return 1
  printf '%s"params":%s}\n' "$out" "$s"
}

# pb::_json_string VAR TEXT: VAR = TEXT as jq writes a JSON string, for TEXT of
# printable ASCII, tab and CR; fails for anything else (under LC_ALL=C, which
# pb::_stage_config_bash sets, [[:print:]] is printable ASCII). Locals are
# prefixed: printf -v sets VAR in the caller's scope, unless a local hides it.
pb::_json_string() {
  local _pjs_s="$2" _pjs_rest
  _pjs_rest=${_pjs_s//[[:print:]]/}
  _pjs_rest=${_pjs_rest//$'\t'/}
  _pjs_rest=${_pjs_rest//$'\r'/}
  [[ -z "$_pjs_rest" ]] || return 1
  _pjs_s=${_pjs_s//\\/\\\\}
  _pjs_s=${_pjs_s//\"/\\\"}
  _pjs_s=${_pjs_s//$'\t'/\\t}
  _pjs_s=${_pjs_s//$'\r'/\\r}
  printf -v "$1" '"%s"' "$_pjs_s"
}

# pb::_json_typed VAR TEXT: VAR = PB_JQ_TYPED's value of TEXT, as jq -c writes
# it: true, false, a number, else a string. Numbers only in the forms jq writes
# back unchanged: an integer of up to 15 digits, or a decimal of up to 15
# significant digits with no trailing zero and no "0.000" in it (jq writes
# 0.00001 as 1e-05; 10.0001 goes to jq too, to keep the rule simple). Fails
# for the other numbers PB_JQ_TYPED reads (1e3, 1.50, 0.00001, ...).
pb::_json_typed() {
  local _pjt_v="$2" _pjt_digits
  case "$_pjt_v" in
    true | false) printf -v "$1" '%s' "$_pjt_v"; return 0 ;;
  esac
  if [[ "$_pjt_v" =~ ^-?(0|[1-9][0-9]{0,14})(\.[0-9]+)?([eE][-+]?[0-9]{1,3})?$ ]]; then
    if [[ ! "$_pjt_v" =~ ^-?(0|[1-9][0-9]{0,14})$ ]]; then
      [[ "$_pjt_v" =~ ^-?(0|[1-9][0-9]*)\.[0-9]*[1-9]$ && "$_pjt_v" != *0.000* ]] || return 1
      _pjt_digits=${_pjt_v#-}
      _pjt_digits=${_pjt_digits/./}
      _pjt_digits=${_pjt_digits#"${_pjt_digits%%[1-9]*}"}
      ((${#_pjt_digits} <= 15)) || return 1
    fi
    printf -v "$1" '%s' "$_pjt_v"
    return 0
  fi
  pb::_json_string "$1" "$_pjt_v"
}

# pb::_json_pairs VAR KEY=VALUE...: VAR = the object jq's `pairs` makes: each
# value typed, a repeated key in its first place with its last value. Fails
# for a key that is not a plain name or a value with a newline (jq's capture
# skips those pairs).
pb::_json_pairs() {
  local _pjp_var="$1"
  shift
  local -A _pjp_val=()
  local _pjp_keys=() _pjp_kv _pjp_k _pjp_typed _pjp_obj='' _pjp_sep=''
  for _pjp_kv in "$@"; do
    _pjp_k=${_pjp_kv%%=*}
    [[ "$_pjp_k" =~ ^[A-Za-z0-9_.-]+$ && "$_pjp_kv" != *$'\n'* ]] || return 1
    pb::_json_typed _pjp_typed "${_pjp_kv#*=}" || return 1
    [[ -v "_pjp_val[$_pjp_k]" ]] || _pjp_keys+=("$_pjp_k")
    _pjp_val[$_pjp_k]=$_pjp_typed
  done
  for _pjp_k in "${_pjp_keys[@]}"; do
    _pjp_obj+="${_pjp_sep}\"${_pjp_k}\":${_pjp_val[$_pjp_k]}"
    _pjp_sep=','
  done
  printf -v "$_pjp_var" '{%s}' "$_pjp_obj"
}

# pb::mongosh_stage [--nodb] [--uri URI] [--progress LABEL] FILE [KEY=VALUE...]
# Runs FILE in mongosh connected to the cluster (PB_CONN_URI) or URI, after
# lib/js/stage.js. KEY=VALUE pairs arrive as stage.params. Server parameters the
# stage changed with stage.setParameter() are restored at cleanup, also when
# the stage fails.
pb::mongosh_stage() {
  local target="${PB_CONN_URI:-}" progress=() file cfg kv rc=0 env=() conn=()
  while (($#)); do
    case "$1" in
      --nodb) target=--nodb ;;
      --uri) target="$2"; shift ;;
      --progress) progress=(--progress "$2"); shift ;;
      *) break ;;
    esac
    shift
  done
  file="$1"
  shift
  [[ -f "$file" ]] || pb::die "mongosh stage file not found: ${file}"
  [[ -n "$target" ]] || pb::die "pb::mongosh_stage ${file}: no connection (launch first, or pass --nodb)"
  # Checked here: pb::stage_config's own die would be lost in the $(...) below.
  for kv in "$@"; do
    [[ "$kv" == *=* ]] || pb::die "pb::mongosh_stage ${file}: stage parameter '${kv}' is not KEY=VALUE"
  done
  # The stage (and its knob records) sees the target redacted; the knob
  # restores find the real one again (pb::conn_unredact).
  cfg=$(PB_STAGE_TARGET=$(pb::redact "$target") pb::stage_config "$@")
  pb::connection env conn mongosh "$target"
  pb::run "${progress[@]}" "${env[@]}" mongosh "${conn[@]}" --quiet --norc \
    --eval "globalThis.dbaLabStage = ${cfg}; void 0" "${PB_LIB}/js/stage.js" "$file" || rc=$?
  pb::_register_knob_restores
  return "$rc"
}

# pb::mongosh_eval VAR [--nodb] [--uri URI] [--read-only] JS: the output of a
# short script (print EJSON or JSON from it) into VAR.
pb::mongosh_eval() {
  local var="$1" target="${PB_CONN_URI:-}" flags=() env=() conn=()
  shift
  while (($#)); do
    case "$1" in
      --nodb) target=--nodb ;;
      --uri) target="$2"; shift ;;
      --read-only) flags+=(--read-only) ;;
      *) break ;;
    esac
    shift
  done
  pb::connection env conn mongosh "$target"
  pb::capture "${flags[@]}" "${env[@]}" "$var" mongosh "${conn[@]}" --quiet --norc --eval "$1"
}

# pb::set_parameter NAME VALUE [URI]: setParameter on one server (default: the
# connection target), restored to its old value at cleanup.
# With --dry-run the restore is planned with the old value unknown.
pb::set_parameter() {
  local uri="${3:-${PB_CONN_URI:-}}"
  pb::mongosh_stage --uri "$uri" "${PB_LIB}/js/set-parameter.js" "name=$1" "value=$2"
  if ((PB_DRY_RUN)); then
    pb::on_exit "restore $1 on $(pb::redact "$uri")" \
      pb::mongosh_stage --uri "$uri" "${PB_LIB}/js/set-parameter.js" "name=$1" "json=<value before the run>" restore=1
  fi
}

# Reads knob records written since the last call and registers their restore.
pb::_register_knob_restores() {
  local knobs=() i target name old
  # Most stages change no knob: no jq then. stage.js writes JSON.stringify's
  # "knob" for every one, so a file without that string has none.
  [[ -f "$PB_RECORDS" ]] && grep -qF '"knob"' "$PB_RECORDS" || return 0
  mapfile -t knobs < <(jq -r 'select(.type == "knob") | [.target, .name, (.old | tojson)] | @tsv' "$PB_RECORDS")
  for ((i = PB_KNOBS_SEEN; i < ${#knobs[@]}; i++)); do
    IFS=$'\t' read -r target name old <<<"${knobs[i]}"
    pb::on_exit "restore ${name} on ${target}" \
      pb::mongosh_stage --uri "$(pb::conn_unredact "$target")" "${PB_LIB}/js/set-parameter.js" "name=${name}" "json=${old}" restore=1
  done
  PB_KNOBS_SEEN=${#knobs[@]}
}

# pb::hello VAR [URI]: the hello answer (isMaster where hello is missing,
# lib/js/hello.js) of URI (default: the connection target), as one line of
# relaxed EJSON, into VAR.
pb::hello() {
  local var="$1" uri="${2:-${PB_CONN_URI:-}}" js
  js="load($(jq -nc --arg f "${PB_LIB}/js/hello.js" '$f')); "
  js+='print(EJSON.stringify(dbaLabHello(db), {relaxed: true}))'
  pb::mongosh_eval "$var" --uri "$uri" --read-only "$js"
}

# pb::primary_port VAR SET: the port of the member of replica set SET
# (PB_REPLSET_NAME, a shard name or configRepl) that says it is primary
# (hello, asked of each member directly), waiting up to 60 s for an
# election. In --dry-run: the first member of the planned layout.
pb::primary_port() {
  local _pp_var="$1" set="$2" ports js _pp_out=''
  ports=$(pb::cluster_layout "$PB_CLUSTER_DIR" |
    awk -F'\t' -v s="$set" '$6 == s && ($1 == "replset member" || $1 == "shard member" || $1 == "config server") {print $2}' | paste -sd, -)
  [[ -n "$ports" ]] || pb::die "pb::primary_port: no member of replica set '${set}' in ${PB_CLUSTER_DIR}"
  js="load($(jq -nc --arg f "${PB_LIB}/js/hello.js" '$f')); "
  js+="const ports = [${ports}], until = Date.now() + 60000; let found = null; "
  js+='while (found === null && Date.now() < until) { '
  js+='for (const p of ports) { try { '
  # shellcheck disable=SC2016 # a JS template literal
  js+='const m = new Mongo(`mongodb://localhost:${p}/?directConnection=true&serverSelectionTimeoutMS=2000`); '
  js+='const h = dbaLabHello(m.getDB("admin")); m.close(); '
  js+='if (h.isWritablePrimary) { found = p; break; } } catch (e) { /* not up yet */ } } '
  js+='if (found === null) sleep(500); } '
  js+='print(found === null ? "none" : found)'
  # Not read-only: in a dry run there is no cluster to ask, and the probe
  # would wait out its 60 s; the plan shows it and takes the first member.
  pb::capture --dry-value "${ports%%,*}" _pp_out mongosh --nodb --quiet --norc --eval "$js" || return 1
  _pp_out=${_pp_out##*$'\n'}
  [[ "$_pp_out" =~ ^[0-9]+$ ]] || pb::die "replica set ${set}: no member said it is primary within 60 s"
  printf -v "$_pp_var" '%s' "$_pp_out"
}
