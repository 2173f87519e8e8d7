#!/usr/bin/env bats
# Options of every playbook (playbooks/lib/options.sh) through the demo playbook:
# declared and common options, generated --help, one-line usage errors (exit 2).

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  load playbook_helper
}

@test "--help lists the scenario options, the common options and the scales, exit 0" {
  run "$DEMO" --help
  assert_success
  assert_line --partial "Usage: ${DEMO} [options]"
  assert_line --regexp '^  --topology single\|replset\|sharded\|none$'
  assert_line --regexp '^  --mongodb-version A,B .*\(default: 7\.0\)$'
  assert_line --regexp '^  --dry-run +print every step and every command whole \(the plan\), change nothing$'
  assert_line --regexp '^  small +seconds \(default\)$'
  assert_line --regexp '^ +docs=100000 disk_mb=900000000$'
  assert_line --partial 'Exit codes: 0 done (verdicts in the report), 1 failure, 2 usage error, 3 preflight failed'
}

@test "-h is --help" {
  run "$DEMO" -h
  assert_success
  assert_line --partial 'Common options:'
}

@test "an unknown option is one line on stderr and exit 2" {
  run --separate-stderr "$DEMO" --frobnicate
  assert_failure 2
  assert_equal "$stderr" "demo-lab: unknown option --frobnicate (see --help)"
  assert_output ''
}

@test "a positional argument is refused" {
  run --separate-stderr "$DEMO" replset
  assert_failure 2
  assert_equal "$stderr" "demo-lab: unexpected argument 'replset': options start with -- (see --help)"
}

@test "an option without its value is refused" {
  run --separate-stderr "$DEMO" --port
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --port needs a value (see --help)"
}

@test "an option followed by another option instead of its value is refused" {
  run --separate-stderr "$DEMO" --scale --dry-run
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --scale needs a value, got option --dry-run (see --help)"
}

@test "a whole number option refuses text" {
  run --separate-stderr "$DEMO" --nodes three
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --nodes expects a whole number, got 'three' (see --help)"
}

@test "a ranged number option refuses values outside its range" {
  run --separate-stderr "$DEMO" --port 80
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --port must be between 1024 and 65000, got 80 (see --help)"
}

@test "an enum option names the accepted values" {
  run --separate-stderr "$DEMO" --scale huge
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --scale must be one of small, medium, full, got 'huge' (see --help)"
}

@test "a flag refuses a value" {
  run --separate-stderr "$DEMO" --keep=yes
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --keep takes no value (see --help)"
}

@test "--option=value is the same as --option value" {
  run "$DEMO" --dry-run --topology=none --scale=medium
  assert_success
  assert_line --partial 'playbook demo-lab, scale medium, no server'
}

@test "--mongodb-version refuses anything but X.Y or X.Y.Z" {
  run --separate-stderr "$DEMO" --mongodb-version 7.0,latest
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --mongodb-version expects X.Y or X.Y.Z (such as 7.0 or 7.0.12), got 'latest' (see --help)"
}

@test "--mongodb-version refuses an empty item in its list" {
  run --separate-stderr "$DEMO" --mongodb-version 7.0,,8.0
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --mongodb-version expects a comma-separated list such as 1,10,40, got '7.0,,8.0' (see --help)"
}

@test "--uri must be a MongoDB connection string" {
  run --separate-stderr "$DEMO" --uri localhost:27017
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --uri must start with mongodb:// or mongodb+srv://, got 'localhost:27017' (see --help)"
}

@test "--uri excludes the launch options" {
  run --separate-stderr "$DEMO" --uri mongodb://localhost:1/ --port 30000
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --uri runs against an existing deployment: --port does not apply (see --help)"
}

@test "DBA_LAB_URI stands for --uri, and an error names it" {
  DBA_LAB_URI=mongodb://localhost:1/ run --separate-stderr "$DEMO" --port 30000
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --uri (from DBA_LAB_URI) runs against an existing deployment: --port does not apply (see --help)"
}

@test "--help lists --uri where the playbook takes it" {
  run "$DEMO" --help
  assert_success
  assert_line --regexp '^  --uri URI +run against an existing deployment'
  assert_line --regexp '^  --keep +leave the cluster \(or, with --uri, the database\) after the report$'
  refute_line 'Not offered by this playbook:'
}

@test "--help of a playbook that refuses --uri lists it only as not offered, with the reason" {
  local p
  for p in change-stream-resume routing-refresh; do
    run "${DBA_LAB_ROOT}/playbooks/${p}.sh" --help
    assert_success
    refute_line --regexp '^  --uri URI'
    assert_line 'Not offered by this playbook:'
    assert_line --regexp '^  --uri +it runs only on a cluster it launches: .+'
    assert_line --regexp '^  --keep +leave the cluster after the report$'
    run --separate-stderr "${DBA_LAB_ROOT}/playbooks/${p}.sh" --uri mongodb://localhost:1/
    assert_failure 2
    assert_output ''
    assert_equal "${stderr%%:*}" "$p"
    [[ "$stderr" == *"--uri is not supported by this playbook"* ]]
  done
}

@test "--binarypath and --mongodb-version exclude each other" {
  run --separate-stderr "$DEMO" --binarypath "$FAKE_BIN" --mongodb-version 7.0
  assert_failure 2
  assert_output ''
  assert_equal "$stderr" "demo-lab: --binarypath and --mongodb-version exclude each other: the binaries in the folder decide the version (see --help)"
}

@test "--dir with white space is planned quoted (mlaunch quotes --dbpath and --logpath)" {
  run "$DEMO" --dry-run --binarypath "$FAKE_BIN" --dir "${BATS_TEST_TMPDIR}/My Labs"
  assert_success
  assert_line --partial "--dir '${BATS_TEST_TMPDIR}/My Labs/7.0.12'"
  [[ ! -e "${BATS_TEST_TMPDIR}/My Labs" ]]
}

@test "--dir holding \$, a backtick, a double quote or a backslash is refused: mlaunch's sh -c would expand it" {
  local ch
  for ch in '$' '`' '"' "\\"; do
    run --separate-stderr "$DEMO" --binarypath "$FAKE_BIN" --dir "${BATS_TEST_TMPDIR}/a${ch}(id)b"
    assert_failure 2
    assert_output ''
    assert_equal "$stderr" "demo-lab: --dir ${BATS_TEST_TMPDIR}/a${ch}(id)b holds ${ch}: mlaunch starts the servers through sh -c, which would expand it; choose a folder whose path holds none of \$ \` \" \\ (see --help)"
    [[ ! -e "${BATS_TEST_TMPDIR}/a${ch}(id)b" ]]
  done
}

@test "a relative --dir is checked as mlaunch will see it: from a working folder whose path holds \$" {
  mkdir -p "${BATS_TEST_TMPDIR}/price\$5"
  cd "${BATS_TEST_TMPDIR}/price\$5"
  run --separate-stderr "$DEMO" --binarypath "$FAKE_BIN" --dir data
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --dir ${BATS_TEST_TMPDIR}/price\$5/data holds \$: mlaunch starts the servers through sh -c, which would expand it; choose a folder whose path holds none of \$ \` \" \\ (see --help)"
}

@test "--binarypath holding \$ is refused as well: its mongod path is in the same command line" {
  mkdir -p "${BATS_TEST_TMPDIR}/bin\$x"
  run --separate-stderr "$DEMO" --binarypath "${BATS_TEST_TMPDIR}/bin\$x"
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --binarypath ${BATS_TEST_TMPDIR}/bin\$x holds \$: mlaunch starts the servers through sh -c, which would expand it; choose a folder whose path holds none of \$ \` \" \\ (see --help)"
}

@test "a playbook's own validation is a usage error too" {
  run --separate-stderr "$DEMO" --knob slowms
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --knob expects NAME=VALUE, got 'slowms' (see --help)"
}

@test "the last of a repeated option wins" {
  run "$DEMO" --dry-run --topology none --scale full --scale small
  assert_success
  assert_line --partial 'scale small'
}

# --- intlist:MIN-MAX, the one way to take a list of whole numbers

@test "an intlist option takes ascending whole numbers in range, in plain decimal" {
  run "$DEMO" --dry-run --topology none --sizes 1,007,00000000000000000000100
  assert_success
  assert_line --partial 'sizes: 1,7,100'
}

@test "an intlist option refuses text, empty items and signs in one line" {
  local bad
  for bad in 1,x '1,,2' ',1' '1,' '-1' '1 2' ''; do
    run --separate-stderr "$DEMO" --topology none --sizes "$bad"
    assert_failure 2
    assert_equal "$stderr" "demo-lab: --sizes expects whole numbers separated by commas such as 1,10,40, got '${bad}' (see --help)"
  done
}

@test "an intlist option refuses a number out of its range" {
  run --separate-stderr "$DEMO" --topology none --sizes 1,101
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --sizes: 101 is not between 1 and 100 (see --help)"
  run --separate-stderr "$DEMO" --topology none --sizes 0,5
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --sizes: 0 is not between 1 and 100 (see --help)"
}

@test "an intlist option refuses repeats and a descending order" {
  run --separate-stderr "$DEMO" --topology none --sizes 5,5
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --sizes must list each number once, in ascending order, got '5,5' (see --help)"
  run --separate-stderr "$DEMO" --topology none --sizes 10,2
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --sizes must list each number once, in ascending order, got '10,2' (see --help)"
}

@test "a huge number in an intlist is out of range, not an overflow" {
  run --separate-stderr "$DEMO" --topology none --sizes 99999999999999999999999
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --sizes: 99999999999999999999999 is not between 1 and 100 (see --help)"
}

# --- @scale defaults

@test "an @scale option takes the chosen scale's value of its own name" {
  run "$DEMO" --dry-run --topology none --scale medium
  assert_success
  run "$DEMO" --topology none --scale medium --report-dir "${BATS_TEST_TMPDIR}/r"
  assert_success
  run jq -r '.measurements[] | select(.key == "counted") | .value' "${BATS_TEST_TMPDIR}/r/results.json"
  assert_success
  assert_output 1000
}

@test "an @scale option given on the command line wins over the scale" {
  run "$DEMO" --topology none --scale medium --docs 7 --report-dir "${BATS_TEST_TMPDIR}/r"
  assert_success
  run jq -r '.measurements[] | select(.key == "counted") | .value' "${BATS_TEST_TMPDIR}/r/results.json"
  assert_success
  assert_output 7
}

@test "--help says an @scale option defaults to the scale's value" {
  run "$DEMO" --help
  assert_success
  assert_line --regexp "^  --docs N +documents to write \(default: the scale's \(small: 10\)\)$"
}

@test "an @scale option is validated like a given value" {
  run --separate-stderr "$DEMO" --topology none --docs 0
  assert_failure 2
  assert_equal "$stderr" "demo-lab: --docs must be between 1 and 1000000, got 0 (see --help)"
}

@test "scales with different keys are a playbook bug, said before anything runs" {
  load_framework
  pb::scale small "s" docs=1 disk_mb=1
  pb::scale big "b" docs=2
  pb::_declare_common_options
  pb::parse_args
  run pb::_load_scale
  assert_failure
  assert_output --partial "playbook bug: scale 'big' has keys docs where 'small' has disk_mb docs (every scale defines the same keys)"
}

@test "an @scale option whose key no scale has is a playbook bug" {
  load_framework
  pb::scale small "s" docs=1
  pb::option --rate RATE int @scale "rate"
  pb::_declare_common_options
  pb::parse_args
  run pb::_load_scale
  assert_failure
  assert_output --partial "playbook bug: --rate defaults to @scale but scale 'small' has no 'rate'"
}

@test "pb::scale_get sets a variable, and an unknown key stops the caller itself" {
  load_framework
  pb::scale small "s" docs=12 cache_gb=0.25
  pb::_declare_common_options
  pb::parse_args
  pb::_load_scale
  local docs=''
  pb::scale_get docs docs
  assert_equal "$docs" 12
  run pb::scale_get docs nothing
  assert_failure
  assert_output --partial "scale 'small' has no value 'nothing'"
}

# --- "Where it runs" (PB_WHERE): the places a playbook runs and its claims there

PLAYBOOKS=(array-push-oplog capped-pubsub change-stream-resume mongodump-raw-bson routing-refresh)

@test "every playbook's --help says where it runs: what it launches, --uri and FerretDB, in 100 columns" {
  local p section
  for p in "${PLAYBOOKS[@]}"; do
    run -0 "${DBA_LAB_ROOT}/playbooks/${p}.sh" --help
    section=$(sed -n '/^Where it runs (claims by their ids in the report; NOT APPLICABLE: not judged there):$/,/^$/p' <<<"$output")
    [[ -n "$section" ]] || fail "${p}: no Where it runs section"
    assert_regex "$section" $'\n  an? [a-z ]+ it launches \\(the default'
    assert_regex "$section" $'\n  a deployment given with --uri: '
    assert_regex "$section" $'\n  FerretDB[ :]'
    run -0 awk 'length > 100' <<<"$section"
    assert_output ''
  done
  # PB_WHERE unset (the demo playbook): no section at all.
  run -0 "$DEMO" --help
  refute_line --partial 'Where it runs'
}

# where_claims: reads a --help on stdin and prints, for each place of its
# Where it runs section that has a "judged" line, the place and the claim ids
# its "judged" and "NOT APPLICABLE" lines name (notes in parentheses left out),
# sorted: "PLACE|id id id".
where_claims() {
  # shellcheck disable=SC2016 # JavaScript: its ${...} are the template's
  node -e '
    const text = require("fs").readFileSync(0, "utf8").split("\n");
    const start = text.findIndex((l) => l.startsWith("Where it runs ("));
    const places = [];
    for (const line of text.slice(start + 1)) {
      if (line === "") break;
      const body = line.slice(2);
      if (!body.startsWith(" ")) places.push({ name: body, fields: [] });
      else if (!body.startsWith("   ")) places[places.length - 1].fields.push(body.trim());
      else { const f = places[places.length - 1].fields; f[f.length - 1] += " " + body.trim(); }
    }
    // The text with what is inside parentheses (nested too) left out.
    const outside = (s) => { let depth = 0, out = ""; for (const c of s) { if (c === "(") depth++; else if (c === ")") depth--; else if (!depth) out += c; } return out; };
    for (const p of places) {
      const lists = p.fields.filter((f) => /^(judged|NOT APPLICABLE)\b/.test(f));
      if (!lists.some((f) => f.startsWith("judged"))) continue;
      const ids = new Set();
      for (const f of lists) {
        const bare = outside(f);
        for (const id of bare.slice(bare.indexOf(":") + 1).split(/[,;]/).map((x) => x.trim()).filter(Boolean)) ids.add(id);
      }
      console.log(`${p.name}|${[...ids].sort().join(" ")}`);
    }'
}

@test "each place where a playbook runs accounts for every claim of its checker by id, judged or NOT APPLICABLE, and names no other" {
  local p ids line places
  for p in "${PLAYBOOKS[@]}"; do
    ids=$(node -e 'console.log(require(process.argv[1]).claims.map((c) => c.id).sort().join(" "))' \
      "${DBA_LAB_ROOT}/playbooks/lib/scenarios/${p}/checker.js")
    run -0 "${DBA_LAB_ROOT}/playbooks/${p}.sh" --help
    run -0 where_claims <<<"$output"
    places=0
    while IFS= read -r line; do
      assert_equal "${p}: ${line}" "${p}: ${line%%|*}|${ids}"
      places=$((places + 1))
    done <<<"$output"
    ((places >= 1)) || fail "${p}: no place with a judged line"
  done
}
