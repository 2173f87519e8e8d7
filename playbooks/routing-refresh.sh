#!/usr/bin/env bash
# routing-refresh: how long mongos and shards take to refresh a collection's
# routing table as its chunk count grows ("MongoDB Routing Info Storage &
# Refresh Optimization", Tencent's MongoDB team), per version.
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

# The most chunks one reshardCollection gets through _presetReshardedChunks: the
# list travels in one command and is kept in the coordinator's document, both
# under 16 MB; 150,000 entries of {min: {k: <double>}, max: {k: <double>},
# recipientShardId: "shard01"} are about 12.6 MB (tests/bats/routing-refresh.bats).
SCENARIO_PRESET_MAX=150000

PB_NAME=routing-refresh
PB_TITLE="Routing table refresh time grows with the chunk count (MongoDB Routing Info Storage & Refresh Optimization, Tencent)"
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
${SCENARIO_PRESET_MAX} chunks per command, split loop beyond; before 5.0 shardCollection
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
PB_WHERE="a sharded cluster it launches (the default: 2 shards, a config server, a mongos)
  judged: linear (per node and kind of refresh; 3+ --chunks counts), near-constant (on
    versions with chunk grouping, SERVER-71627)
  NOT APPLICABLE: near-constant (versions without chunk grouping), linear (a shard's full
    refresh, where the shards refuse the commands that force it)
a deployment given with --uri: not offered (see above)
FerretDB: does not run (no sharding, and --uri is not offered)"
PB_EXAMPLES="  playbooks/routing-refresh.sh                                  # 6.0 and 8.0, 1k/10k/50k chunks
  playbooks/routing-refresh.sh --mongodb-version 4.4,7.0 --scale medium
  playbooks/routing-refresh.sh --chunks 1000,20000,100000 --reps 5 --method split
  playbooks/routing-refresh.sh --dry-run                         # the plan: methods, estimates, commands"

# numInitialChunks: at most 8192 per shard (and 1,000,000), hashed keys, empty
# collections, ignored from 7.2 (SERVER-74747).
SCENARIO_HASHED_PER_SHARD=8192
# Rough creation rates for the estimate shown before starting (the run shows
# the measured rate): one split is a config transaction plus a refresh on the
# shard, which itself slows down as chunks grow in versions without grouping.
SCENARIO_SPLITS_PER_SECOND=40
SCENARIO_RESHARD_CHUNKS_PER_SECOND=20000
SCENARIO_RESHARD_OVERHEAD_SECONDS=15
# Disk per chunk, all nodes together: config.chunks (+ indexes and oplog) on the
# config server, config.cache.chunks.<ns> on every shard node.
SCENARIO_KB_PER_CHUNK_CONFIG=1
SCENARIO_KB_PER_CHUNK_SHARD_NODE=1

# tiny: three counts (a fit needs more than two points), each made by one reshardCollection
# (5.0+, ~5-15 s) or numInitialChunks (4.4, ~2 s), 3 incremental and 3 full refreshes a
# count (~0.5 s each); a sharded cluster of 4 processes launched in ~30 s: about
# 1.5 minutes per version.
PB_DEFAULT_SCALE=small
pb::scale tiny "about 1.5 minutes per version (rehearsal, CI on real servers)" chunks=500,2000,10000
pb::scale small "about 10-20 minutes per version" chunks=1000,10000,50000
pb::scale medium "about 1-2 hours per version (split loops take longest)" chunks=1000,10000,50000,100000,250000
pb::scale full "the article's sizes: hours; 1M+ chunks" chunks=10000,100000,250000,500000,1000000,1500000

pb::option --chunks CHUNKS intlist:10-10000000 @scale "chunk counts to measure, ascending"
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

# scenario::version_ge VERSION X.Y: VERSION (X.Y or X.Y.Z) is at least X.Y.
scenario::version_ge() {
  local v="$1" want="$2" a b c d
  IFS=. read -r a b _ <<<"$v"
  IFS=. read -r c d <<<"$want"
  ((a > c || (a == c && b >= d)))
}

# scenario::method VERSION COUNT: the creation method for COUNT chunks on VERSION.
scenario::method() {
  local v="$1" n="$2" hashed_max=$((SCENARIO_HASHED_PER_SHARD * PB_SHARDS))
  case "$METHOD" in
    split) printf 'split' ;;
    hashed) printf 'hashed' ;;
    reshard|auto)
      if scenario::version_ge "$v" 5.0; then
        if ((n <= SCENARIO_PRESET_MAX)); then printf 'reshard'; else printf 'reshard+split'; fi
      elif ((n <= hashed_max && n <= 1000000)); then
        printf 'hashed'
      else
        printf 'split'
      fi
      ;;
  esac
}

# scenario::check_method VERSION: the chosen --method works on VERSION, or why not.
scenario::check_method() {
  local v="$1" n
  case "$METHOD" in
    reshard)
      scenario::version_ge "$v" 5.0 || { printf '%s' "--method reshard needs MongoDB 5.0 or newer (reshardCollection), not ${v}"; return 1; }
      ;;
    hashed)
      ! scenario::version_ge "$v" 7.2 || { printf '%s' "--method hashed needs MongoDB before 7.2 (numInitialChunks is ignored from 7.2), not ${v}"; return 1; }
      for n in "${SCENARIO_COUNTS[@]}"; do
        ((n <= SCENARIO_HASHED_PER_SHARD * PB_SHARDS && n <= 1000000)) \
          || { printf '%s' "--method hashed makes at most $((SCENARIO_HASHED_PER_SHARD * PB_SHARDS)) chunks with ${PB_SHARDS} shards (8192 per shard), not ${n}"; return 1; }
      done
      ;;
  esac
  return 0
}

# scenario::methods VERSION: "count:method" words for the whole sweep.
scenario::methods() {
  local v="$1" n out=()
  for n in "${SCENARIO_COUNTS[@]}"; do out+=("${n}:$(scenario::method "$v" "$n")"); done
  printf '%s' "${out[*]}"
}

# scenario::needs_test_commands VERSION: some count of the sweep uses reshard.
scenario::needs_test_commands() {
  [[ " $(scenario::methods "$1") " == *":reshard"* ]]
}

# scenario::disk_mb: disk for the sweep's largest count (rough, see the sizes above);
# the same for every version (the cluster of a version goes before the next).
scenario::disk_mb() {
  local max=${SCENARIO_COUNTS[-1]} pieces
  pieces=$((SCENARIO_KB_PER_CHUNK_CONFIG * PB_CONFIG_SERVERS + SCENARIO_KB_PER_CHUNK_SHARD_NODE * PB_SHARDS * PB_NODES))
  printf '%d' $((max * pieces / 1024 + 300 * (PB_CONFIG_SERVERS + PB_SHARDS * PB_NODES)))
}

# scenario::seconds VERSION: time for the sweep (rough, see the rates above).
scenario::seconds() {
  local v="$1" n m seconds=0 prev_split=0
  for n in "${SCENARIO_COUNTS[@]}"; do
    m=$(scenario::method "$v" "$n")
    case "$m" in
      reshard) seconds=$((seconds + SCENARIO_RESHARD_OVERHEAD_SECONDS + n / SCENARIO_RESHARD_CHUNKS_PER_SECOND)) ;;
      reshard+split)
        seconds=$((seconds + SCENARIO_RESHARD_OVERHEAD_SECONDS + SCENARIO_PRESET_MAX / SCENARIO_RESHARD_CHUNKS_PER_SECOND))
        seconds=$((seconds + (n - SCENARIO_PRESET_MAX) / SCENARIO_SPLITS_PER_SECOND))
        ;;
      hashed) seconds=$((seconds + 2 + n / SCENARIO_RESHARD_CHUNKS_PER_SECOND)) ;;
      split)
        # The split collection grows from the last count it reached.
        seconds=$((seconds + (n - prev_split) / SCENARIO_SPLITS_PER_SECOND))
        prev_split=$n
        ;;
    esac
  done
  # Refreshes: reps x 2 kinds, a second each on top of the creation.
  printf '%d' $((seconds + ${#SCENARIO_COUNTS[@]} * REPS * 2))
}

scenario::human_seconds() {
  local s="$1"
  if ((s < 120)); then printf '%d s' "$s"
  elif ((s < 7200)); then printf '%d min' $(((s + 59) / 60))
  else printf '%d h %02d min' $((s / 3600)) $(((s % 3600) / 60)); fi
}

playbook_configure() {
  local v why
  IFS=',' read -r -a SCENARIO_COUNTS <<<"$CHUNKS"
  ((PB_SHARDS >= 2)) || pb::usage_error "--shards must be at least 2: the chunks are spread over the shards and moved between them"
  if [[ -z "$PB_BINARYPATH" ]]; then
    for v in "${PB_VERSIONS[@]}"; do
      why=$(scenario::check_method "$v") || pb::usage_error "$why"
    done
  fi
  PB_EXTRA_TOOLS+=(python3)
  PB_DISK_ESTIMATE_MB=$(scenario::disk_mb)
}

# Before each version's launch: its methods, the test commands they need, the
# estimate; shown in the plan (--dry-run) too.
playbook_version() {
  local why seconds line
  why=$(scenario::check_method "$PB_VERSION") || pb::die "$why"
  SCENARIO_METHODS=$(scenario::methods "$PB_VERSION")
  PB_MONGOD_ARGS=()
  if scenario::needs_test_commands "$PB_VERSION"; then
    SCENARIO_TEST_COMMANDS=1
    PB_MONGOD_ARGS+=(--setParameter enableTestCommands=1)
  else
    SCENARIO_TEST_COMMANDS=0
  fi
  pb::info "MongoDB ${PB_VERSION}: sweep ${SCENARIO_COUNTS[*]} chunks, ${REPS} repetition(s) of each refresh"
  pb::info "  methods: ${SCENARIO_METHODS// /, }"
  pb::info "  enableTestCommands: $( ((SCENARIO_TEST_COMMANDS)) && printf 'yes (reshardCollection with _presetReshardedChunks is test-only)' || printf 'no (not needed by these methods)')"
  pb::info "  full refresh, each repetition, then the first query through mongos:"
  while IFS= read -r line; do
    pb::info "    ${line}"
  done < <(node -e 'for (const l of require(process.argv[1]).describe(process.argv[2])) console.log(l)' \
    "${PB_SCENARIO}/refresh-plan.js" "${PB_DB_NAME}.<collection>")
  seconds=$(scenario::seconds "$PB_VERSION")
  pb::info "  estimate (rough; the run shows the measured rate): $(scenario::human_seconds "$seconds"), about $(scenario::disk_mb) MB of disk"
  if ((seconds > 7200)); then
    pb::warn "MongoDB ${PB_VERSION}: split loops make this sweep take hours; fewer or smaller counts (--chunks) finish sooner"
  fi
}

playbook_preflight() {
  [[ -x "${PB_ROOT}/playbooks/analyze" ]] || pb::preflight_fail "playbooks/analyze is missing" "update the checkout"
}

stage_prepare() {
  local config mongos
  config=$(pb::config_uri)
  mongos=$(pb::mongos_hosts)
  if ((SCENARIO_TEST_COMMANDS)); then
    # The coordinator (config server) waits this long at least; 0 as in MongoDB's own tests.
    pb::set_parameter reshardingMinimumOperationDurationMillis 0 "$config"
    # The commit of a large preset (100k+ chunks) outlasts the 5 s default
    # (jstests/sharding/resharding_large_number_of_initial_chunks.js uses a day).
    pb::set_parameter reshardingCriticalSectionTimeoutMillis 86400000 "$config"
  fi
  pb::mongosh_stage "${PB_SCENARIO}/prepare.js" "mongos=${mongos}"
}

stage_run() {
  local mongos
  mongos=$(pb::mongos_hosts)
  pb::mongosh_stage "${PB_SCENARIO}/run.js" "counts=${CHUNKS}" \
    "methods=${SCENARIO_METHODS}" "reps=${REPS}" "presetMax=${SCENARIO_PRESET_MAX}" "testCommands=${SCENARIO_TEST_COMMANDS}" \
    "mongos=${mongos}"
}

# Every refresh line of the mongos and shard logs, as JSON lines, per role.
stage_analyze() {
  local role port log shard out events=() json
  local processes="${PB_WORK}/layout-${PB_VERSION}.tsv"
  if pb::dry_run; then
    pb::run "${PB_ROOT}/playbooks/analyze" refresh --json "<mongos log>" "<shard primary logs>"
  else
    pb::cluster_layout "$PB_CLUSTER_DIR" >"$processes"
    while IFS=$'\t' read -r role port _ _ log shard; do
      case "$role" in
        mongos) ;;
        'shard member') role=shard ;;
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
  pb::mongosh_stage --nodb "${PB_SCENARIO}/measure.js" "events=$(IFS=';'; printf '%s' "${events[*]:-}")"
  if ! pb::dry_run; then
    pb::measure clusterDiskMB "$(du -sm "${PB_CLUSTER_DIR}" | cut -f1)" MB
  fi
}

stage_report() {
  pb::chart refresh-durations --table durations --x chunks --y medianMs --group series --logx --answers linear,near-constant \
    --title "Routing refresh duration (server durationMillis, median) vs chunk count" \
    --xlabel "chunks" --ylabel "ms" --style linespoints
  pb::chart first-query --table durations --x chunks --y firstQueryMs --group series --logx \
    --title "First query through mongos after the refresh was triggered (client)" \
    --xlabel "chunks" --ylabel "ms" --style linespoints
  pb::chart creation-rate --table creation --x chunks --y chunksPerSecond --group method --logx \
    --title "Chunk creation rate" --xlabel "chunks" --ylabel "chunks/s" --style points
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then pb::main "$@"; fi
