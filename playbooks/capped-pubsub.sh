#!/usr/bin/env bash
# capped-pubsub: a capped collection as a pub/sub topic ("Topics: A Queue With
# Publishers and Subscribers", Learn MongoDB The Hard Way), measured, and the
# article's claims checked on the version at hand.
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

PB_NAME=capped-pubsub
PB_TITLE="Capped collection as a topic: publish/delivery latency, cost of many listeners, and the article's claims"
PB_DESCRIPTION="Models the article's stock ticker topic: a capped collection (finance.ticker style,
size and max as the article) with a time index, publishers inserting at a target total rate,
and subscribers tailing it with tailable awaitData cursors from the time they start. The
subscriber count is swept (1, 10, 40 by default); one Node process (the mongodb driver in
node_modules) holds all publishers and subscribers of a sweep point. A subscriber whose cursor
dies or loses its position (CappedPositionLost) reopens from the last time it saw; gaps,
lost and duplicated messages are counted. Per point: publish latency as the article's tables
(mean, stddev, p75, p95, p99, min, max), end-to-end delivery latency, server CPU seconds per
message (/proc for the processes mlaunch reports, serverStatus elsewhere). The same fan-out
runs with one change stream per subscriber on a normal collection, for comparison.
Claims checked: documents cannot grow (refused or allowed on this version, with the error);
in-memory only (every node stopped and started with mlaunch, documents counted); cannot be
sharded (--sharded, or --uri to a mongos); CPU grows markedly with listeners (fitted slope).
Capped collections replicate like any other: on the default replica set of one node the
lab counts the topic's inserts in the oplog."
PB_DEFAULT_VERSIONS=5.0,8.0
PB_DEFAULT_VERSION_ROLE[5.0]='the side where a capped document cannot grow (before 5.3), next to 8.0 where it can'
PB_TOPOLOGY=replset
PB_NODES=1
PB_SHARDS=1
PB_WHERE="a replica set it launches (the default; --nodes N)
  judged: grow, replicate, restart, cpu (3+ --subscribers counts), delivery, rate
  NOT APPLICABLE: shard (needs a sharded cluster: --sharded)
a sharded cluster it launches (--sharded)
  judged: grow, shard, restart, cpu (3+ --subscribers counts), delivery, rate
  NOT APPLICABLE: replicate (a mongos keeps no oplog)
a deployment given with --uri: a replica set member or a mongos; any, with --compare none
  judged: grow, cpu (3+ counts; the server's CPU: a local process, or serverStatus), delivery,
    rate, replicate (on a replica set member), shard (on a mongos)
  NOT APPLICABLE: restart (it restarts only what it launched), replicate (elsewhere),
    shard (elsewhere)
FerretDB (setup/ferretdb.sh start, then --uri with --compare none)
  judged, with no prediction (the predictions are MongoDB's): grow, cpu (3+ counts), delivery,
    rate
  NOT APPLICABLE: shard (no sharding), replicate (no oplog), restart (not launched by it)"
PB_EXAMPLES="  playbooks/capped-pubsub.sh
  playbooks/capped-pubsub.sh --subscribers 1,10,40,100 --rate 500 --seconds 30
  playbooks/capped-pubsub.sh --sharded --mongodb-version 8.0
  playbooks/capped-pubsub.sh --uri mongodb://localhost:27017/ --subscribers 1,5 --compare none"
# The workload is a Node program (run.js) on the mongodb driver.
PB_NEEDS_DRIVER=1

# rate: messages per second (all publishers); seconds: publishing time per point.
# publishers: concurrent inserters; the article's 1000/s came from 4 processes x 50 connections.
# tiny: 2 sweep points x 2 modes, each one node process: ~1 s start, 2 s idle CPU, 4 s
# publishing, a short drain (~8 s a point, ~35 s in all); the claims and a stop/start of
# the one-node set (~15 s); launch ~10 s: about 1 minute per version.
PB_DEFAULT_SCALE=small
pb::scale tiny "about 1 minute per version (rehearsal, CI on real servers)" rate=50 seconds=4 subscribers=1,8 publishers=2 disk_mb=1000
pb::scale small "about 4 minutes per version" rate=100 seconds=15 subscribers=1,10,40 publishers=4 disk_mb=1500
pb::scale medium "about 12 minutes per version" rate=500 seconds=30 subscribers=1,10,40,100 publishers=10 disk_mb=3000
pb::scale full "the article's load: 1000 messages/s for 25 s, up to its 40 readers" rate=1000 seconds=25 subscribers=1,10,40 publishers=50 disk_mb=3000

pb::option --subscribers SUBSCRIBERS intlist:1-2000 @scale "subscriber counts to sweep"
pb::option --publishers PUBLISHERS int:1-1000 @scale "concurrent publishers, each awaiting its insert"
pb::option --rate RATE int:1-100000 @scale "messages per second of all publishers together"
pb::option --seconds SECONDS_PER_POINT int:1-3600 @scale "publishing time per sweep point"
pb::option --capped-size CAPPED_SIZE int:4096-1099511627776 100000 "capped collection size in bytes (the article: 100000)"
pb::option --capped-max CAPPED_MAX int:0-1000000000 100000 "capped collection document limit (the article: 100000; 0: none)"
pb::option --write-concern WRITE_CONCERN "enum:1|majority" 1 "publishers' write concern (1: the article's era default)"
pb::option --first-batch FIRST_BATCH int:1-100000 1 "batchSize of a subscriber's find (getMores return what is there)"
pb::option --max-await-ms MAX_AWAIT_MS int:10-60000 1000 "how long a getMore waits for new messages"
pb::option --idle-seconds IDLE_SECONDS int:0-600 2 "server CPU with every subscriber waiting and nothing published, per point (0: skip)"
pb::option --drain-seconds DRAIN_SECONDS int:1-3600 10 "after publishing, wait this long for every delivery; later ones count as lost"
pb::option --compare COMPARE "enum:changestream|none" changestream "also run the fan-out with a change stream per subscriber"
pb::option --sharded SHARDED flag 0 "launch a sharded cluster (the capped collection on one shard) to check 'cannot be sharded'"
pb::topology_options nodes shards

# Figures of this run ({{NAME}}, pb::narration): a tiny run's 50 messages a
# second wrap the ring half as often as small's 100.
pb::narration prepare <<'TEXT'
Prepare creates the topic as the article does:
createCollection('ticker',{capped:true,size:100000,max:100000})
(this run: size {{CAPPED_SIZE}}, max {{CAPPED_MAX}}; --capped-size and --capped-max change them)
and the index on time. Note how small {{CAPPED_SIZE}} bytes is: at this run's {{RATE}} messages
a second (--scale {{PB_SCALE_NAME}}) of about 110 bytes the ring buffer wraps about every
{{SCENARIO_WRAP}}.
TEXT
pb::narration run <<'TEXT'
Run sweeps the subscriber count: for each point one Node process publishes at the target
rate while every subscriber tails the topic. Watch the ticker line: delivered should keep
pace with published times the subscriber count. With --compare changestream (the default)
the same sweep runs again with a change stream per subscriber.

Then the article's claims: a document is grown; sharding the topic is tried (on a mongos
only: --sharded); the topic's inserts are looked for in the oplog; and every node is stopped
and started with mlaunch to see whether the topic survives.
TEXT
pb::narration run uri <<'TEXT'
Run sweeps the subscriber count: for each point one Node process publishes at the target
rate while every subscriber tails the topic. Watch the ticker line: delivered should keep
pace with published times the subscriber count. With --compare changestream (the default)
the same sweep runs again with a change stream per subscriber.

Then the article's claims: a document is grown; sharding the topic is tried if the target
is a mongos; the topic's inserts are looked for in the oplog of a replica set member.
Nothing is stopped or restarted: this run did not launch the deployment, so the in-memory
claim is not applicable here.
TEXT
pb::narration analyze <<'TEXT'
Analyze turns each point into the article's latency tables and fits server CPU per message
against the number of listeners: the article says it rises markedly.
TEXT

playbook_configure() {
  IFS=, read -r -a SCENARIO_POINTS <<<"$SUBSCRIBERS"
  if ((SHARDED)); then
    pb::uri_mode && pb::usage_error "--sharded launches a cluster; with --uri point at a mongos instead"
    PB_TOPOLOGY=sharded
    # One mongos: a subscriber's getMore must reach the mongos that holds its cursor.
    PB_MONGOS=1
  fi
  if [[ "$COMPARE" == changestream ]]; then
    PB_URI_NEEDS=replset-or-mongos
    PB_URI_NEEDS_WHY="--compare changestream opens change streams, which a standalone does not have (--compare none runs there)"
  fi
  SCENARIO_DECLARED=0
  scenario::wrap_time
}

# SCENARIO_WRAP: how often the ring buffer wraps at this run's rate, for the
# prepare narration: the size or the document limit, whichever comes first.
scenario::wrap_time() {
  local docs=$((CAPPED_SIZE / 110)) seconds
  if ((CAPPED_MAX > 0 && CAPPED_MAX < docs)); then docs=$CAPPED_MAX; fi
  seconds=$(((docs + RATE / 2) / RATE))
  # shellcheck disable=SC2034 # read by name: {{SCENARIO_WRAP}} in the narration
  case "$seconds" in
    0) SCENARIO_WRAP='fraction of a second' ;;
    1) SCENARIO_WRAP='second' ;;
    *) SCENARIO_WRAP="${seconds} seconds" ;;
  esac
}

stage_prepare() {
  pb::mongosh_stage "${PB_SCENARIO}/prepare.js" "size=${CAPPED_SIZE}" "max=${CAPPED_MAX}"
}

# The server processes whose CPU is counted: every mongod and mongos of the
# launched cluster (none in --uri mode: run.js asks serverStatus).
scenario::server_pids() {
  local list
  SCENARIO_PIDS=''
  pb::uri_mode && return 0
  if pb::dry_run; then
    SCENARIO_PIDS='<mongod/mongos pids from mlaunch list>'
    return 0
  fi
  list=$(pb::tempfile processes)
  pb::cluster_processes "$PB_CLUSTER_DIR" >"$list" || true
  SCENARIO_PIDS=$(awk -F'\t' '$3 ~ /^[0-9]+$/ {print $3}' "$list" | paste -sd, -)
}

scenario::raw_dir() {
  printf '%s/raw/%s' "$PB_REPORT_DIR" "${PB_VERSION:-uri}"
}

scenario::sweep() {
  local mode="$1" collection="$2" n raw env=() conn=()
  raw=$(scenario::raw_dir)
  pb::connection env conn node "$PB_CONN_URI"
  for n in "${SCENARIO_POINTS[@]}"; do
    pb::run --progress "${mode}: ${n} subscriber(s), ${RATE} msg/s for ${SECONDS_PER_POINT} s" "${env[@]}" \
      node "${PB_SCENARIO}/run.js" "${conn[@]}" --db "$PB_DB_NAME" --collection "$collection" \
      --mode "$mode" --subscribers "$n" --publishers "$PUBLISHERS" --rate "$RATE" \
      --seconds "$SECONDS_PER_POINT" --run-tag "${mode}-${n}" --pids "$SCENARIO_PIDS" \
      --first-batch "$FIRST_BATCH" --max-await-ms "$MAX_AWAIT_MS" --write-concern "$WRITE_CONCERN" \
      --drain-seconds "$DRAIN_SECONDS" --idle-seconds "$IDLE_SECONDS" --out "${raw}/${mode}-${n}.json"
  done
}

stage_run() {
  local before=''
  pb::dry_run || mkdir -p "$(scenario::raw_dir)"
  scenario::server_pids
  scenario::sweep capped ticker
  if [[ "$COMPARE" == changestream ]]; then
    scenario::sweep changestream ticker_stream
  fi
  scenario::claim grow 'documents in a capped collection cannot grow'
  scenario::claim shard 'capped collections cannot be sharded'
  scenario::claim replicate 'capped collections replicate (their inserts are in the oplog)'
  # The restart claim needs a deployment this run launched (the checker
  # calls it not applicable with --uri).
  pb::uri_mode && return 0
  pb::capture --dry-value 0 before mongosh "$PB_CONN_URI" --quiet --norc --eval \
    "print(db.getSiblingDB('${PB_DB_NAME}').runCommand({count: 'ticker'}).n)"
  pb::cluster_restart
  scenario::claim restart 'capped collections are in-memory only: their documents are gone after a restart' \
    "before=$(tail -n 1 <<<"$before")"
}

# scenario::claim NAME CLAIM [KEY=VALUE...]: run-claims.js for one claim,
# after a line that says which: on a screen its command is the same short
# line for every claim.
scenario::claim() {
  local name="$1" claim="$2"
  shift 2
  pb::info "claim ${name}: ${claim}"
  pb::mongosh_stage "${PB_SCENARIO}/run-claims.js" "claim=${name}" "$@"
}

stage_analyze() {
  pb::mongosh_stage --nodb "${PB_SCENARIO}/measure.js" "dir=$(scenario::raw_dir)" "declare=$((SCENARIO_DECLARED == 0 ? 1 : 0))" \
    "article=${PB_SCENARIO}/article.json"
  SCENARIO_DECLARED=1
}

stage_report() {
  # No line through fewer points than the cpu verdict judges a trend on.
  pb::chart cpu-vs-subscribers --table cpu --x subscribers --y cpu_ms_per_msg --group mode --answers cpu --trend-of cpu \
    --title "Server CPU per published message" --xlabel "subscribers" --ylabel "CPU ms per message"
  pb::chart p99-vs-subscribers --table delivery --x subscribers --y p99_ms --group mode \
    --title "End-to-end delivery latency p99" --xlabel "subscribers" --ylabel "ms"
  pb::chart publish-p99-vs-subscribers --table publish-latency --x subscribers --y p99_ms --group mode \
    --title "Publish latency p99" --xlabel "subscribers" --ylabel "ms"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then pb::main "$@"; fi
