#!/usr/bin/env bash
# array-push-oplog: what array updates really cost in the oplog, by version
# (the array-push-oplog article, docs/articles.md#array-push-oplog: every $push replicated as a $set of the whole array, SERVER-9784).
# shellcheck disable=SC2329 # stage_* and playbook_* are called by pb::main
set -euo pipefail
# shellcheck source=playbooks/lib/playbook.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/playbook.sh"

PB_NAME=array-push-oplog
PB_TITLE="Array updates and the oplog: does a \$push still replicate the whole array?"
PB_DESCRIPTION="'Arrays and Replication: A MongoDB Performance Pitfall' (Gigi Sayfan, MongoDB 2.2): hourly documents of 3600 readings, each \$push logged as a \$set
of the whole array, an 1800x blow-up of replicated bytes; fixed with one document per second
compacted hourly (440x less). On a replica set, per version, this measures the oplog bytes of one
update of each pattern at several array lengths (oplogEntrySize with a function: only the
update's own entry counts), the fix counted whole (3600 inserts, the hourly insert, the deletes),
then runs the article's load (devices x simulated seconds, back to back, w:1) with the worst and
the best way to ingest a reading, and samples the secondaries' lag.
Patterns: push, push-slice, push-sort, push-position0, addtoset, pull, pop-first, pop-last,
set-one, per-second (the fix).
Defaults: 4.4 (\$v:1 update entries) and 8.0 (\$v:2 diffs); 3 data nodes, the article's topology
(a primary and two secondaries; --nodes 2 is the least that replicates)."
PB_DEFAULT_VERSIONS=4.4,8.0
PB_DEFAULT_VERSION_ROLE[4.4]="the \$v:1 update entries (3.6-4.4: a \$set of a position or of the whole array) beside the \$v:2 diffs of 8.0"
PB_TOPOLOGY=replset
PB_URI_NEEDS=replset
PB_URI_NEEDS_WHY="it measures every update in the oplog, which only replica set members keep"
PB_NODES=3
PB_WHERE="a replica set it launches (the default; --nodes 2 or more)
  judged: push, push-slice, fix (each per version, when --patterns has it), versions (2+ versions)
a deployment given with --uri: a replica set member (the oplog is read)
  judged: push, push-slice, fix (when --patterns has it)
  NOT APPLICABLE: versions (one deployment is one version)
FerretDB: does not run (a standalone without an oplog: preflight stops, exit 3)"
PB_EXAMPLES="  playbooks/array-push-oplog.sh --dry-run
  playbooks/array-push-oplog.sh --mongodb-version 4.4,6.0,8.0 --scale medium
  playbooks/array-push-oplog.sh --patterns push,push-slice,per-second --lengths 100,1800,3599
  playbooks/array-push-oplog.sh --uri 'mongodb://host1,host2/?replicaSet=rs0' --load-seconds 0"

# Load sizes: whole-array loads write about devices x seconds^2 x 50 bytes.
# tiny: the curves at the default lengths (63 one-update measurements, each an insert and
# an update: ~5 s), the fix's 3600 single inserts (~10-20 s at w:majority on 3 nodes), two
# loads of 2 devices x 60 s (120 updates each plus lag sampling: ~5 s each), on a 3-node
# set launched in ~20-30 s: about 1 minute per version. Every verdict comes from the curves.
PB_DEFAULT_SCALE=small
pb::scale tiny "about 1 minute per version (rehearsal, CI on real servers): 2 devices x 60 s" devices=2 load-seconds=60 oplog_mb=512 disk_mb=2000
pb::scale small "about 5 minutes per version: 10 devices x 600 s" devices=10 load-seconds=600 oplog_mb=2048 disk_mb=8000
pb::scale medium "about 30 minutes per version: 50 devices x 900 s" devices=50 load-seconds=900 oplog_mb=8192 disk_mb=30000
pb::scale full "the article's hour, hours per version: 50 devices x 3600 s" devices=50 load-seconds=3600 oplog_mb=51200 disk_mb=170000

pb::option --patterns PATTERNS list "push,push-slice,push-sort,push-position0,addtoset,pull,pop-first,pop-last,set-one,per-second" \
  "update patterns to measure (see the list above)"
pb::option --lengths LENGTHS intlist:1-3600 "1,600,1200,1800,2400,3000,3599" "array lengths at which each pattern is measured (at least two)"
pb::option --devices DEVICES int:1-1000 @scale "devices in the load"
pb::option --load-seconds LOAD_SECONDS int:1-86400 @scale "simulated seconds of the load"
pb::option --no-load NO_LOAD flag 0 "measure the update patterns only, skip the load"
pb::topology_options nodes
SCENARIO_OPLOG_MB=''  # the scale's oplog_mb (playbook_configure)

pb::narration prepare <<'TEXT'
One sensor-hourly document (the article's shape: 3600 readings of about 100 bytes) is seeded;
every reading the run writes is copied from it.
TEXT
pb::narration run <<'TEXT'
For each pattern and array length, one update runs inside oplogEntrySize(): watch the bytes
per update on the ticker line. Flat means the entry names only what changed; linear means
the whole array is in every entry.

Then the load (unless --no-load): the worst and the best way to ingest a reading, with the
secondaries' lag sampled every second; the ticker line shows the largest lag so far.
TEXT
pb::narration analyze <<'TEXT'
The curves are classified flat or linear (least squares) and an hour of each pattern is added
up; the checker then decides the claims from those numbers.
TEXT

# The pattern names come from model.js, the one list of patterns: prints
# nothing when LIST names only known patterns, else model.js's one line.
scenario::unknown_patterns() {
  node -e "try { require(process.argv[1]).selectPatterns(process.argv[2]); } catch (e) { console.log(e.message); }" \
    "${PB_SCENARIO}/model.js" "$1"
}

playbook_configure() {
  local unknown
  if [[ "$PB_TOPOLOGY" != uri ]] && ((PB_NODES < 2)); then
    pb::usage_error "--nodes must be at least 2: replication needs a secondary"
  fi
  [[ "$LENGTHS" == *,* ]] || pb::usage_error "--lengths needs at least two lengths to draw a curve, got '${LENGTHS}'"
  unknown=$(scenario::unknown_patterns "$PATTERNS")
  [[ -z "$unknown" ]] || pb::usage_error "--patterns: ${unknown#array-push-oplog: }"
  pb::scale_get SCENARIO_OPLOG_MB oplog_mb
  # A whole-array load must fit in the oplog, or its bytes could not be added up.
  PB_MONGOD_ARGS+=(--oplogSize "$SCENARIO_OPLOG_MB" --wiredTigerCacheSizeGB 0.5)
}

stage_prepare() {
  pb::mongosh_stage "${PB_SCENARIO}/prepare.js"
}

stage_run() {
  pb::mongosh_stage --progress "measuring each pattern at each length" "${PB_SCENARIO}/run.js" \
    "lengths=${LENGTHS}" "patterns=${PATTERNS}"
  if ((NO_LOAD)); then
    pb::note "Load skipped (--no-load)."
    return 0
  fi
  local which
  for which in worst best; do
    pb::mongosh_stage --progress "load (${which} pattern): ${DEVICES} devices x ${LOAD_SECONDS} s" "${PB_SCENARIO}/run-load.js" \
      "which=${which}" "devices=${DEVICES}" "seconds=${LOAD_SECONDS}"
  done
}

# Tables are per version (the framework's charts group by one column): the
# tag common.js's versionTag gives the version.
scenario::tag() {
  local tag="${PB_VERSION:-uri}"
  tag=${tag//[^0-9a-zA-Z]/-}
  printf '%s' "${tag,,}"
}

stage_analyze() {
  local tag
  tag=$(scenario::tag)
  pb::mongosh_stage "${PB_SCENARIO}/measure.js"
  pb::chart "curve-${tag}" --table "curve-${tag}" --x length --y bytes --group pattern --logy --answers push,push-slice,fix,versions \
    --title "Oplog bytes per update vs array length (${PB_VERSION:-uri})" \
    --xlabel "readings in the array" --ylabel "bytes per oplog entry (log scale)"
  if ((!NO_LOAD)); then
    pb::chart "lag-${tag}" --table "lag-${tag}" --x elapsed_s --y lag_ms --group series --style lines \
      --title "Secondary lag during the load (${PB_VERSION:-uri})" --xlabel "seconds since the load began" --ylabel "lag (ms)"
  fi
}

stage_report() {
  pb::note "Every pattern update was measured with oplogEntrySize(fn): only the entry carrying the measuring session's lsid counts, so the sizes include a retryable write's lsid, txnNumber and stmtId (what drivers write by default). The fix's deletes (deleteMany, not retryable) were counted by namespace."
  if ((!NO_LOAD)); then
    pb::note "The load writes with w:1 (the article's era; 5.0+ defaults to w:majority, which would hold the primary back to the secondaries' pace and hide the lag). Simulated seconds run back to back: lag shows how far the secondaries fall behind at full speed, not at one reading per second."
  fi
}

# Sourced by the tests for the scenario:: functions; run, it is the playbook.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  pb::main "$@"
fi
