#!/usr/bin/env bash
# routing-refresh: how long mongos and shards take to refresh a collection's
# routing table as its chunk count grows (seed 004, Tencent), per version.
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

# The most chunks one reshardCollection gets through _presetReshardedChunks: the
# list travels in one command and is kept in the coordinator's document, both
# under 16 MB; 150,000 entries of {min: {k: <double>}, max: {k: <double>},
# recipientShardId: "shard01"} are about 12.6 MB (tests/bats/routing-refresh.bats).
RR_PRESET_MAX=150000

PB_NAME=routing-refresh
PB_TITLE="Routing table refresh time grows with the chunk count (seed 004)"
PB_DESCRIPTION="Launches a sharded cluster (2 shards as 1-node replica sets, a 1-node config
server replica set, 1 mongos), creates an empty collection with more and more
chunks (the sweep of --scale or --chunks) by the fastest method the version
allows, and at each count measures (a) an incremental refresh: split or move one
chunk, then the first query through mongos, and (b) a full refresh: every
mongos and every shard's primary drops its routing table (flushRouterConfig),
the shards are made to reload theirs at once (_flushRoutingTableCacheUpdates
with syncFromConfig: a shard never refreshes on flushRouterConfig alone), then
the first query makes mongos reload its own. The durations
are the servers' own (durationMillis of the 'Refreshed cached collection' lines
in the mongos and shard logs, read by playbooks/analyze refresh) next to the
client's first-query latency. The report fits ms per 10k chunks per version,
node and kind of refresh, and checks two claims: refresh time grows linearly
with the chunk count, and an incremental refresh stays near-constant where
chunk grouping (SERVER-71627, routingTableCacheChunkBucketSize) is present.

Chunk creation (--method auto): 5.0+ reshardCollection with _presetReshardedChunks
(test-only: the servers start with enableTestCommands=1, and only then), up to
${RR_PRESET_MAX} chunks per command, split loop beyond; before 5.0 shardCollection
with a hashed key and numInitialChunks up to 8192 per shard, split loop beyond."
PB_DEFAULT_VERSIONS=6.0,8.0
PB_TOPOLOGY=sharded
PB_SHARDS=2
PB_NODES=1
PB_CONFIG_SERVERS=1
PB_MONGOS=1
PB_SUPPORTS_URI=0
PB_URI_NEEDS=mongos   # what --uri would need, were it allowed (it is refused, exit 2)
PB_URI_UNSUPPORTED_WHY="it creates up to a million chunks, turns the balancer off and flushes every routing cache; run it on its own throw-away cluster"
PB_EXAMPLES="  playbooks/routing-refresh.sh                                  # 6.0 and 8.0, 1k/10k/50k chunks
  playbooks/routing-refresh.sh --mongodb-version 4.4,7.0 --scale medium
  playbooks/routing-refresh.sh --chunks 1000,20000,100000 --reps 5 --method split
  playbooks/routing-refresh.sh --dry-run                         # the plan: methods, estimates, commands"
RR_JS="${PB_LIB}/scenarios/routing-refresh"

# numInitialChunks: at most 8192 per shard (and 1,000,000), hashed keys, empty
# collections, ignored from 7.2 (SERVER-74747).
RR_HASHED_PER_SHARD=8192
# Rough creation rates for the estimate shown before starting (the run shows
# the measured rate): one split is a config transaction plus a refresh on the
# shard, which itself slows down as chunks grow in versions without grouping.
RR_SPLITS_PER_SECOND=40
RR_RESHARD_CHUNKS_PER_SECOND=20000
RR_RESHARD_OVERHEAD_SECONDS=15
# Disk per chunk, all nodes together: config.chunks (+ indexes and oplog) on the
# config server, config.cache.chunks.<ns> on every shard node.
RR_KB_PER_CHUNK_CONFIG=1
RR_KB_PER_CHUNK_SHARD_NODE=1

pb::scale small "about 10-20 minutes per version" chunks=1000,10000,50000
pb::scale medium "about 1-2 hours per version (split loops take longest)" chunks=1000,10000,50000,100000,250000
pb::scale full "the article's sizes: hours; 1M+ chunks" chunks=10000,100000,250000,500000,1000000,1500000

pb::option --chunks CHUNKS list "" "chunk counts to measure, ascending (default: the scale's sweep)"
pb::option --reps REPS int:1-50 3 "repetitions of each refresh (incremental and full) at each count"
pb::option --method METHOD "enum:auto|reshard|hashed|split" auto "how chunks are made (auto: the fastest the version allows)"
pb::topology_options shards nodes config-servers mongos

pb::narration prepare <<'TEXT'
Prepare turns the balancer off and raises the log verbosity of
sharding.shardingCatalogRefresh to 1 on every mongos and shard. A refresh that
found a new version is logged at the default level on every version; the
verbosity adds those that found nothing new (which of them are left out at the
default level changed between releases).
TEXT
pb::narration run <<'TEXT'
Run creates the chunks of each count of the sweep (watch the creation rate:
split loops slow down as the routing table grows on versions without chunk
grouping, which is the article's point), then refreshes: incremental (one
chunk split or moved, then a query) and full (every routing table dropped, the
shards told to reload theirs, then a query). Compare the first-query latency
with the chunk count.
TEXT
pb::narration analyze <<'TEXT'
Analyze reads the mongos and shard logs with playbooks/analyze refresh, the
same command you can run on a production log, and matches each refresh to the
step that caused it by time.
TEXT

# --- the plan: which method for which version and count -----------------------

# rr::version_ge VERSION X.Y: VERSION (X.Y or X.Y.Z) is at least X.Y.
rr::version_ge() {
  local v="$1" want="$2" a b c d
  IFS=. read -r a b _ <<<"$v"
  IFS=. read -r c d <<<"$want"
  ((a > c || (a == c && b >= d)))
}

# rr::method VERSION COUNT: the creation method for COUNT chunks on VERSION.
rr::method() {
  local v="$1" n="$2" hashed_max=$((RR_HASHED_PER_SHARD * PB_SHARDS))
  case "$METHOD" in
    split) printf 'split' ;;
    hashed) printf 'hashed' ;;
    reshard|auto)
      if rr::version_ge "$v" 5.0; then
        if ((n <= RR_PRESET_MAX)); then printf 'reshard'; else printf 'reshard+split'; fi
      elif ((n <= hashed_max && n <= 1000000)); then
        printf 'hashed'
      else
        printf 'split'
      fi
      ;;
  esac
}

# rr::check_method VERSION: the chosen --method works on VERSION, or why not.
rr::check_method() {
  local v="$1" n
  case "$METHOD" in
    reshard)
      rr::version_ge "$v" 5.0 || { printf '%s' "--method reshard needs MongoDB 5.0 or newer (reshardCollection), not ${v}"; return 1; }
      ;;
    hashed)
      ! rr::version_ge "$v" 7.2 || { printf '%s' "--method hashed needs MongoDB before 7.2 (numInitialChunks is ignored from 7.2), not ${v}"; return 1; }
      for n in "${RR_COUNTS[@]}"; do
        ((n <= RR_HASHED_PER_SHARD * PB_SHARDS && n <= 1000000)) \
          || { printf '%s' "--method hashed makes at most $((RR_HASHED_PER_SHARD * PB_SHARDS)) chunks with ${PB_SHARDS} shards (8192 per shard), not ${n}"; return 1; }
      done
      ;;
  esac
  return 0
}

# rr::methods VERSION: "count:method" words for the whole sweep.
rr::methods() {
  local v="$1" n out=()
  for n in "${RR_COUNTS[@]}"; do out+=("${n}:$(rr::method "$v" "$n")"); done
  printf '%s' "${out[*]}"
}

# rr::needs_test_commands VERSION: some count of the sweep uses reshard.
rr::needs_test_commands() {
  [[ " $(rr::methods "$1") " == *":reshard"* ]]
}

# rr::disk_mb: disk for the sweep's largest count (rough, see the sizes above);
# the same for every version (the cluster of a version goes before the next).
rr::disk_mb() {
  local max=${RR_COUNTS[-1]} pieces
  pieces=$((RR_KB_PER_CHUNK_CONFIG * PB_CONFIG_SERVERS + RR_KB_PER_CHUNK_SHARD_NODE * PB_SHARDS * PB_NODES))
  printf '%d' $((max * pieces / 1024 + 300 * (PB_CONFIG_SERVERS + PB_SHARDS * PB_NODES)))
}

# rr::seconds VERSION: time for the sweep (rough, see the rates above).
rr::seconds() {
  local v="$1" n m seconds=0 prev_split=0
  for n in "${RR_COUNTS[@]}"; do
    m=$(rr::method "$v" "$n")
    case "$m" in
      reshard) seconds=$((seconds + RR_RESHARD_OVERHEAD_SECONDS + n / RR_RESHARD_CHUNKS_PER_SECOND)) ;;
      reshard+split)
        seconds=$((seconds + RR_RESHARD_OVERHEAD_SECONDS + RR_PRESET_MAX / RR_RESHARD_CHUNKS_PER_SECOND))
        seconds=$((seconds + (n - RR_PRESET_MAX) / RR_SPLITS_PER_SECOND))
        ;;
      hashed) seconds=$((seconds + 2 + n / RR_RESHARD_CHUNKS_PER_SECOND)) ;;
      split)
        # The split collection grows from the last count it reached.
        seconds=$((seconds + (n - prev_split) / RR_SPLITS_PER_SECOND))
        prev_split=$n
        ;;
    esac
  done
  # Refreshes: reps x 2 kinds, a second each on top of the creation.
  printf '%d' $((seconds + ${#RR_COUNTS[@]} * REPS * 2))
}

rr::human_seconds() {
  local s="$1"
  if ((s < 120)); then printf '%d s' "$s"
  elif ((s < 7200)); then printf '%d min' $(((s + 59) / 60))
  else printf '%d h %02d min' $((s / 3600)) $(((s % 3600) / 60)); fi
}

playbook_configure() {
  local n prev=0 v why
  IFS=',' read -r -a RR_COUNTS <<<"${CHUNKS:-$(pb::scale_value chunks)}"
  for n in "${RR_COUNTS[@]}"; do
    [[ "$n" =~ ^[0-9]+$ ]] || pb::usage_error "--chunks expects whole numbers such as 1000,10000,50000, got '${n}'"
    n=$((10#$n))
    ((n >= 10)) || pb::usage_error "--chunks: each count must be at least 10, got ${n}"
    ((n <= 10000000)) || pb::usage_error "--chunks: at most 10,000,000 chunks, got ${n}"
    ((n > prev)) || pb::usage_error "--chunks must be ascending without repeats, got ${CHUNKS}"
    prev=$n
  done
  ((PB_SHARDS >= 2)) || pb::usage_error "--shards must be at least 2: the chunks are spread over the shards and moved between them"
  if [[ -z "$PB_BINARYPATH" ]]; then
    for v in "${PB_VERSIONS[@]}"; do
      why=$(rr::check_method "$v") || pb::usage_error "$why"
    done
  fi
  PB_EXTRA_TOOLS+=(python3)
  PB_DISK_ESTIMATE_MB=$(rr::disk_mb)
}

# Before each version's launch: its methods, the test commands they need, the
# estimate; shown in the plan (--dry-run) too.
playbook_version() {
  local why seconds line
  why=$(rr::check_method "$PB_VERSION") || pb::die "$why"
  RR_METHODS=$(rr::methods "$PB_VERSION")
  PB_MONGOD_ARGS=()
  if rr::needs_test_commands "$PB_VERSION"; then
    RR_TEST_COMMANDS=1
    PB_MONGOD_ARGS+=(--setParameter enableTestCommands=1)
  else
    RR_TEST_COMMANDS=0
  fi
  pb::info "MongoDB ${PB_VERSION}: sweep ${RR_COUNTS[*]} chunks, ${REPS} repetition(s) of each refresh"
  pb::info "  methods: ${RR_METHODS// /, }"
  pb::info "  enableTestCommands: $( ((RR_TEST_COMMANDS)) && printf 'yes (reshardCollection with _presetReshardedChunks is test-only)' || printf 'no (not needed by these methods)')"
  pb::info "  full refresh, each repetition, then the first query through mongos:"
  while IFS= read -r line; do
    pb::info "    ${line}"
  done < <(node -e 'for (const l of require(process.argv[1]).describe(process.argv[2])) console.log(l)' \
    "${RR_JS}/refresh-plan.js" "${PB_DB_NAME}.<collection>")
  seconds=$(rr::seconds "$PB_VERSION")
  pb::info "  estimate (rough; the run shows the measured rate): $(rr::human_seconds "$seconds"), about $(rr::disk_mb) MB of disk"
  if ((seconds > 7200)); then
    pb::warn "MongoDB ${PB_VERSION}: split loops make this sweep take hours; fewer or smaller counts (--chunks) finish sooner"
  fi
}

playbook_preflight() {
  [[ -x "${PB_ROOT}/playbooks/analyze" ]] || pb::preflight_fail "playbooks/analyze is missing" "update the checkout"
}

# The config server replica set's connection string (mlaunch: mongos ports
# first, then each shard's members, then the config servers, set configRepl).
rr::config_uri() {
  local first=$((PB_PORT + PB_MONGOS + PB_SHARDS * PB_NODES)) hosts=() i
  for ((i = 0; i < PB_CONFIG_SERVERS; i++)); do hosts+=("localhost:$((first + i))"); done
  printf 'mongodb://%s/?replicaSet=configRepl' "$(IFS=,; printf '%s' "${hosts[*]}")"
}

# The mongos routers, host:port, comma-separated (mlaunch gives them the first ports).
rr::mongos_hosts() {
  local hosts=() i
  for ((i = 0; i < PB_MONGOS; i++)); do hosts+=("localhost:$((PB_PORT + i))"); done
  (IFS=,; printf '%s' "${hosts[*]}")
}

stage_prepare() {
  if ((RR_TEST_COMMANDS)); then
    # The coordinator (config server) waits this long at least; 0 as in MongoDB's own tests.
    pb::set_parameter reshardingMinimumOperationDurationMillis 0 "$(rr::config_uri)"
    # The commit of a large preset (100k+ chunks) outlasts the 5 s default
    # (jstests/sharding/resharding_large_number_of_initial_chunks.js uses a day).
    pb::set_parameter reshardingCriticalSectionTimeoutMillis 86400000 "$(rr::config_uri)"
  fi
  pb::mongosh_stage "${RR_JS}/prepare.js" "mongos=$(rr::mongos_hosts)"
}

stage_run() {
  pb::mongosh_stage "${RR_JS}/run.js" "counts=$(IFS=,; printf '%s' "${RR_COUNTS[*]}")" \
    "methods=${RR_METHODS}" "reps=${REPS}" "presetMax=${RR_PRESET_MAX}" "testCommands=${RR_TEST_COMMANDS}" \
    "mongos=$(rr::mongos_hosts)"
}

# Every refresh line of the mongos and shard logs, as JSON lines, per role.
stage_analyze() {
  local role port log shard out events=() json
  local processes="${PB_WORK}/processes-${PB_VERSION}.tsv"
  if pb::dry_run; then
    pb::run "${PB_ROOT}/playbooks/analyze" refresh --json "<mongos log>" "<shard primary logs>"
  else
    pb::cluster_processes "$PB_CLUSTER_DIR" >"$processes"
    while IFS=$'\t' read -r role port _ _ log shard; do
      case "$role" in
        mongos) ;;
        primary|secondary) [[ -n "$shard" && "$shard" != configRepl ]] || continue ;;
        *) continue ;;
      esac
      out="${PB_WORK}/refresh-${PB_VERSION}-${port}.jsonl"
      pb::capture --read-only json "${PB_ROOT}/playbooks/analyze" refresh --json "$log"
      printf '%s\n' "$json" >"$out"
      events+=("$([[ "$role" == mongos ]] && printf mongos || printf shard):${port}:${out}")
      pb::excerpt "refresh-${PB_VERSION}-${role}-${port}.log" "$log" --grep 'Refresh(ed)? (for|cached) collection' --max 2000 \
        --note "refresh lines of ${role} ${port}${shard:+ (${shard})}"
    done <"$processes"
  fi
  pb::mongosh_stage --nodb "${RR_JS}/measure.js" "events=$(IFS=';'; printf '%s' "${events[*]:-}")"
  if ! pb::dry_run; then
    pb::measure clusterDiskMB "$(du -sm "${PB_CLUSTER_DIR}" | cut -f1)" MB
  fi
}

stage_report() {
  pb::chart refresh-durations --table durations --x chunks --y medianMs --group series --logx \
    --title "Routing refresh duration (server durationMillis, median) vs chunk count" \
    --xlabel "chunks" --ylabel "ms" --style linespoints
  pb::chart first-query --table durations --x chunks --y firstQueryMs --group series --logx \
    --title "First query through mongos after the refresh was triggered (client)" \
    --xlabel "chunks" --ylabel "ms" --style linespoints
  pb::chart creation-rate --table creation --x chunks --y chunksPerSecond --group method --logx \
    --title "Chunk creation rate" --xlabel "chunks" --ylabel "chunks/s" --style points
}

pb::main "$@"
