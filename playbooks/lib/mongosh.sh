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
  # One jq for everything: a stage runs this once per mongosh, and a run
  # starts dozens (jq's start is most of what this costs).
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
    --arg nscale "${#scale_pairs[@]}" --args "${scale_pairs[@]}" "$@"
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
