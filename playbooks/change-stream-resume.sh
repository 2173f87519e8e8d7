#!/usr/bin/env bash
# change-stream-resume: the change-stream-resume article
# (docs/articles.md#change-stream-resume). Resume a change stream whose filter matches
# ten small documents buried among thousands of 6 MB ones, and time when each
# event arrives with the default batch size, batchSize 1, and a lowered
# internalDocumentSourceCursorBatchSizeBytes; then resume from the
# postBatchResumeToken instead.
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

PB_NAME=change-stream-resume
PB_TITLE="Resuming a change stream after many large non-matching events: when do the events arrive?"
PB_DESCRIPTION="Reproduces 'Performance Analysis of Resuming a MongoDB Change Stream' (Alex Bevilacqua; MongoDB 5.2, 3 nodes): a stream filtered on fullDocument.msg
is resumed after a token that thousands of 6 MB non-matching inserts follow. Five runs, each
from a fresh connection, record the arrival of every event:
  A  resumeAfter the first event's token, default batch size
  B  the same with batchSize 1
  C  resumeAfter the token of \"200 6MB documents added\", batchSize 1
  D  C again with internalDocumentSourceCursorBatchSizeBytes lowered (restored after D,
     also on failure): it bounds the opening aggregate's internal batch; a getMore
     stops waiting at its first event and, with batchSize 1, returns just that one
  E  resumeAfter the postBatchResumeToken saved at the end of A (its one answer
     includes an awaitData getMore: about 1 s of waiting, not scanning)
The mongod logs every command (--slowms 0); playbooks/analyze cursors gives each run's
docsExamined and bytesRead; changeStreamResumeCheck sizes what a resume from each token reads.
The WiredTiger cache is kept well below the data so the scans read from disk as in the article.
Give several versions (--mongodb-version 4.4,8.0) to see what 5.1's \$match pushdown changed."
PB_DEFAULT_VERSIONS=8.0
PB_TOPOLOGY=replset
PB_NODES=1
PB_SUPPORTS_URI=0
PB_URI_NEEDS=replset  # what --uri would need, were it allowed (it is refused, exit 2)
PB_URI_UNSUPPORTED_WHY="run D changes a server-wide query knob, every command is logged (slowms 0) and the analysis reads the mongod log file; launch a throw-away replica set instead"
PB_WHERE="a replica set it launches (the default; --nodes N)
  judged: A, B, C, D, E (each per version, E from the mongod log's slow-query lines)
a deployment given with --uri: not offered (see above)
FerretDB: does not run (no change streams, and --uri is not offered)"
PB_EXAMPLES="  playbooks/change-stream-resume.sh                      # 1 node, about 1.9 GB of data
  playbooks/change-stream-resume.sh --mongodb-version 4.4,8.0 --step
  playbooks/change-stream-resume.sh --scale full --nodes 3   # the article's 19 GB on 3 nodes
  playbooks/change-stream-resume.sh --dry-run              # the plan, nothing run"
SCENARIO_COLL=foo
SCENARIO_KNOB=internalDocumentSourceCursorBatchSizeBytes
# shellcheck disable=SC2016 # a JSON filter: $exists is MongoDB's, not the shell's
SCENARIO_FILTER='{"fullDocument.msg":{"$exists":true}}'
SCENARIO_RUNS=(A B C D E)
SCENARIO_TABLES_DECLARED=0
SCENARIO_JUNK=''  # the scale's junk count (playbook_configure)

# junk = 6 MiB documents in all (the article's 3000 at full), split 100:100:100:500:200:2000
# by seedCollection's change-stream-resume recipe around the ten markers.
# cache-gb stays well below the data (at least 7x) so the scans read pages from disk.
# tiny: 60 junk documents (2:2:2:10:4:40 around the markers, 360 MiB) seeded one insert at a
# time at ~50-100 MB/s (~5-10 s), five resumes that scan at most those 360 MiB (~1-3 s each),
# the log analysis (~5 s), a one-node set launched in ~10 s: about 1 minute. The data fits in
# the smallest cache (0.25 GB is 256 MiB): timings are not the article's, every verdict is
# still decided from what the runs measured.
PB_DEFAULT_SCALE=small
pb::scale tiny "about 1 minute (rehearsal, CI on real servers): 360 MiB, mostly in cache" junk=60 cache-gb=0.25
pb::scale small "about 5-10 minutes on a laptop: 1.9 GB, a tenth of the article" junk=300 cache-gb=0.25
pb::scale medium "about 20 minutes: 6.3 GB" junk=1000 cache-gb=0.5
pb::scale full "the article's sizes: 3000 junk documents, 18.9 GB per node" junk=3000 cache-gb=1

pb::option --knob-bytes KNOB_BYTES int:1-16777216 128 \
  "internalDocumentSourceCursorBatchSizeBytes during run D (the server's default is 4194304; the article used 128)"
pb::option --cache-gb CACHE_GB number @scale "WiredTiger cache per mongod in GB (0.25 is the least mongod takes)"
pb::option --run-timeout RUN_TIMEOUT int:10-86400 900 "seconds a run may wait for its next event before it fails"
pb::topology_options nodes

pb::narration launch <<'TEXT'
A replica set starts (change streams need one) with three things set on purpose:
an oplog big enough for everything the seeding writes (sized from seedCollection's
dry run, as the article resized it to 20 GB), a WiredTiger cache far smaller than
the data (so resuming reads oplog pages from disk: the article's log shows 19 GB
bytesRead), and slowms 0 so every aggregate and getMore is logged.
TEXT
pb::narration prepare <<'TEXT'
A change stream with the article's filter {"fullDocument.msg":{$exists:true}}
sees the first insert; its event _id is the token every run resumes after.
Then seedCollection writes the article's sequence: ten small "marker" documents that
match the filter, between runs of 6 MB documents that do not. Watch the MB/s on the
ticker line: it is seedCollection's own progress line.
TEXT
pb::narration run <<'TEXT'
Five resumes, each from a new connection. Watch the seconds printed before each
event: A waits and then gets everything at once; B gets the first event early
and the rest as the scan finds them; C (two events) gets both together; D, with
the knob lowered, gets the first at once (the knob shapes the opening aggregate
only); E starts after everything and finds nothing to scan: its answer still
takes about a second, an awaitData getMore waiting for new entries.
TEXT
pb::narration analyze <<'TEXT'
The mongod log holds one slow-query line per aggregate and getMore (slowms 0).
playbooks/analyze cursors adds them up per run: how many documents each resume
examined and how many bytes it read, then the claims are decided from the
measured arrival times.
TEXT

playbook_configure() {
  pb::scale_get SCENARIO_JUNK junk
  awk -v c="$CACHE_GB" 'BEGIN { exit !(c >= 0.25) }' \
    || pb::usage_error "--cache-gb must be at least 0.25 (mongod's smallest WiredTiger cache), got ${CACHE_GB}"
}

# seedCollection's dry run (no connection) sizes the oplog and the disk.
playbook_preflight() {
  local js dry=''
  js="load($(jq -nc --arg f "${PB_ROOT}/snippets/index.js" '$f')); "
  js+="print(JSON.stringify(seedCollection('${SCENARIO_COLL}', {recipe: 'change-stream-resume', docs: ${SCENARIO_JUNK}, dryRun: true})))"
  if ! pb::mongosh_eval dry --nodb --read-only "$js" || ! jq -e '.oplogSizeMB' >/dev/null 2>&1 <<<"${dry##*$'\n'}"; then
    pb::preflight_fail "seedCollection's dry run failed: ${dry}" "check that snippets/ is complete (git status)"
    return 0
  fi
  dry=${dry##*$'\n'}
  SCENARIO_DATA_BYTES=$(jq -r '.bytes' <<<"$dry")
  SCENARIO_OPLOG_MB=$(jq -r '.oplogSizeMB' <<<"$dry")
  PB_MONGOD_ARGS+=(--oplogSize "$SCENARIO_OPLOG_MB" --wiredTigerCacheSizeGB "$CACHE_GB" --slowms 0)
  # Each node holds the collection and the oplog, plus room for the journal.
  PB_DISK_ESTIMATE_MB=$(awk -v b="$SCENARIO_DATA_BYTES" -v o="$SCENARIO_OPLOG_MB" -v n="$PB_NODES" \
    'BEGIN { printf "%d", n * (b / 1048576 + o) * 1.15 + 500 }')
  pb::preflight_ok "seedCollection dry run: $(jq -r '.docs' <<<"$dry") documents, $((SCENARIO_DATA_BYTES / 1048576)) MiB; oplog ${SCENARIO_OPLOG_MB} MB per node"
  if awk -v c="$CACHE_GB" -v b="$SCENARIO_DATA_BYTES" 'BEGIN { exit !(c * 1073741824 * 4 > b) }'; then
    pb::warn "the WiredTiger cache (${CACHE_GB} GB) is not well below the data ($((SCENARIO_DATA_BYTES / 1048576)) MiB): the scans may be served from cache, unlike the article's"
  fi
}

# The connection string of one run: its own appName, so the mongod log lines
# of that run (attr.appName, curop.cpp) can be told apart.
scenario::run_uri() {
  local sep='?'
  [[ "$PB_CONN_URI" != *\?* ]] || sep='&'
  printf '%s%sappName=dbalab-csr-%s' "$PB_CONN_URI" "$sep" "$1"
}

# The file the runs of this version share (tokens, arrivals; state.js).
scenario::state_file() {
  printf '%s/csr-%s.json' "$PB_WORK" "$PB_VERSION"
}

# Where the analyze records of each run's cursors go: this prefix, RUN.jsonl.
scenario::cursors_prefix() {
  printf '%s/csr-%s-cursors-' "$PB_WORK" "$PB_VERSION"
}

stage_prepare() {
  pb::mongosh_stage --progress "seeding ${SCENARIO_JUNK} documents of 6 MiB and ten markers" \
    "${PB_SCENARIO}/prepare.js" "coll=${SCENARIO_COLL}" "junk=${SCENARIO_JUNK}" \
    "stateFile=$(scenario::state_file)" "filter=${SCENARIO_FILTER}"
}

# scenario::resume RUN FROM BATCH_SIZE EXPECTED_EVENTS
scenario::resume() {
  pb::info "run $1: resumeAfter ${2}, batchSize ${3/#0/default}, ${4} event(s) expected"
  pb::mongosh_stage --uri "$(scenario::run_uri "$1")" "${PB_SCENARIO}/run.js" "run=$1" "from=$2" \
    "batchSize=$3" "expect=$4" "coll=${SCENARIO_COLL}" "stateFile=$(scenario::state_file)" \
    "filter=${SCENARIO_FILTER}" "timeout=${RUN_TIMEOUT}"
}

# D with the knob lowered on the primary, restored right after D; the restore
# is also registered for cleanup, so a failing D still puts it back.
scenario::run_d() {
  local id
  pb::set_parameter "$SCENARIO_KNOB" "$KNOB_BYTES"
  id=$PB_LAST_CLEANUP_ID
  [[ "${PB_CLEANUP_LABELS[$id]:-}" == "restore ${SCENARIO_KNOB} on "* ]] \
    || pb::die "no restore of ${SCENARIO_KNOB} was registered (setParameter did not record the old value)"
  scenario::resume D marker200 1 2
  pb::cleanup_now "$id"
}

stage_run() {
  if ((!SCENARIO_TABLES_DECLARED)); then
    pb::table timeline "Event arrival per run (seconds since the stream was opened)" \
      series run event msg seconds gapSeconds
    pb::table server "Server figures per run (mongod log, playbooks/analyze cursors)" \
      run cursors commands getMores nreturned docsExamined bytesRead durationMillis
    pb::table tokens "What a resume from each token reads (changeStreamResumeCheck)" \
      token tokenType position resumable oplogEntries oplogBytes sameCollection complete advice
    SCENARIO_TABLES_DECLARED=1
  fi
  scenario::resume A first 0 10
  pb::pause "A is done. Next, B: the same resume with batchSize 1."
  scenario::resume B first 1 10
  pb::pause "Next, C: resume after \"200 6MB documents added\" with batchSize 1 (two events to come)."
  scenario::resume C marker200 1 2
  pb::pause "Next, D: C again with ${SCENARIO_KNOB} set to ${KNOB_BYTES}."
  scenario::run_d
  pb::pause "Next, E: resume from the postBatchResumeToken A saved."
  scenario::resume E pbrtA 0 0
}

# One run's cursors: its log lines (by appName) through playbooks/analyze,
# as analyze's JSON records in $(scenario::cursors_prefix)RUN.jsonl.
scenario::cursor_figures() {
  local run="$1" log="$2" lines='' json='' file
  file="${PB_WORK}/csr-${PB_VERSION}-${run}.log"
  if ! pb::capture lines grep -F -- "\"appName\":\"dbalab-csr-${run}\"" "$log"; then
    lines=''
  fi
  printf '%s\n' "$lines" >"$file"
  pb::capture json "${PB_ROOT}/playbooks/analyze" cursors --json "$file"
  printf '%s\n' "$json" >"$(scenario::cursors_prefix)${run}.jsonl"
}

stage_analyze() {
  local log='' run primary
  # The member that is primary now (mlaunch's list tags are racy); --uri has
  # no log this run can read.
  if ! pb::uri_mode; then
    pb::primary_port primary "$PB_REPLSET_NAME"
    log=$(pb::node_log "$primary")
  fi
  for run in "${SCENARIO_RUNS[@]}"; do
    scenario::cursor_figures "$run" "$log"
    pb::excerpt "slow-queries-${PB_VERSION}-${run}.log" "$log" --grep "\"appName\":\"dbalab-csr-${run}\"" \
      --note "run ${run}: every command of its connection (slowms 0)"
  done
  pb::mongosh_stage "${PB_SCENARIO}/measure.js" "stateFile=$(scenario::state_file)" \
    "cursorsPrefix=$(scenario::cursors_prefix)" "runs=$(IFS=,; printf '%s' "${SCENARIO_RUNS[*]}")"
}

stage_report() {
  pb::chart timeline --table timeline --x seconds --y event --group series --style points --answers A,B,C,D \
    --title "Change stream events by arrival (seconds since the stream was opened)" \
    --xlabel "seconds since open" --ylabel "event number"
  pb::note "The runs follow the article ('Performance Analysis of Resuming a MongoDB Change Stream'): a stream filtered on fullDocument.msg resumed after tokens that ${SCENARIO_JUNK} junk documents of 6 MiB follow. Scale ${PB_SCALE_NAME}; WiredTiger cache ${CACHE_GB} GB per node; oplog ${SCENARIO_OPLOG_MB:-?} MB; slowms 0."
}

# Sourced by the tests for the scenario:: functions; run, it is the playbook.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  pb::main "$@"
fi
