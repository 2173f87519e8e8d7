#!/usr/bin/env bats
# What npm would ship: `npm pack` makes the tarball a user installs with
# `snippet install dba-lab` when the package comes from the registry. Here
# mongosh installs that tarball (an index whose installSpec points at it, no
# network) in a fresh HOME, and the snippets must work from it alone.

# One call per concern (snippets/lib/concerns.json) that runs under --nodb:
# it loads the concern's module and everything the module requires.
declare -gA CALLS=(
  [resume-token]="decodeResumeToken('82612F653E000000022B0229296E04').timestamp.t"
  [oplog]="explainOplogEntry({op: 'u', ns: 't.c', o: {\$v: 2, diff: {sarr: {a: true, u3: 1}}}, o2: {_id: 1}}).arrays[0].action"
  [seed]="seedCollection('foo', {recipe: 'tiny-docs', dryRun: true}).docs"
  [stats]="(() => { try { collStatsSummary('foo'); } catch (e) { return e.code; } })()"
  [chunks]="(() => { try { chunkSummary('test.users'); } catch (e) { return e.code; } })()"
  [oplog-audit]="(() => { try { oplogAudit({last: '6h'}); } catch (e) { return e.code; } })()"
)

setup_file() {
  load test_helper
  local dir="$BATS_FILE_TMPDIR"
  # npm and mongosh keep caches, logs and config under HOME: never the user's.
  export HOME="${dir}/home" npm_config_cache="${dir}/npm-cache"
  mkdir -p "$HOME"
  (cd "$DBA_LAB_ROOT" && npm pack --ignore-scripts --pack-destination "$dir" --json) >"${dir}/pack.json" 2>"${dir}/pack.log"
  TARBALL="${dir}/$(jq -r '.[0].filename' "${dir}/pack.json")"
  export TARBALL
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" register --install-spec "file:${TARBALL}" >"${dir}/register.log"
  # No registry answers on this port: an install that needed the network fails.
  mongosh --nodb --quiet --norc --eval "config.set('snippetRegistryURL', 'http://127.0.0.1:9/')" >/dev/null
  mongosh --nodb --quiet --norc --eval "snippet('install', 'dba-lab')" >"${dir}/install.log"
}

setup() {
  load test_helper
  export HOME="${BATS_FILE_TMPDIR}/home"
  INSTALLED="${HOME}/.mongodb/mongosh/snippets/node_modules/mongosh-dba-lab"
}

# Runs JavaScript in a --nodb shell with the installed snippets loaded.
shell() {
  mongosh --nodb --quiet --norc --eval "snippet('load-all'); $1"
}

public_names() {
  jq -r '[.[]] | flatten | .[]' "${DBA_LAB_ROOT}/snippets/lib/concerns.json"
}

@test "snippet install dba-lab installed a copy from the packed tarball, not a link to the checkout" {
  [[ -f "$TARBALL" ]]
  run grep -c "Finished installing snippets: dba-lab" "${BATS_FILE_TMPDIR}/install.log"
  assert_success
  [[ -d "$INSTALLED" && ! -L "$INSTALLED" ]]
  [[ "$(realpath "${INSTALLED}/snippets/index.js")" != "${DBA_LAB_ROOT}"/* ]]
  cmp "${INSTALLED}/package.json" <(tar -xzOf "$TARBALL" package/package.json)
}

@test "every public global is defined by the installed package" {
  local names
  names=$(public_names | paste -sd ' ')
  [[ -n "$names" ]]
  run shell "print('${names}'.split(' ').map((n) => n + ':' + typeof globalThis[n]).join(' '))"
  assert_success
  assert_output "$(public_names | sed 's/$/:function/' | paste -sd ' ')"
}

# help() takes each function's purpose from the table in snippets/README.md:
# without that file in the tarball the purpose line is missing.
@test "every public global's help() prints its usage and its purpose from the shipped README" {
  local name row purpose all
  # One shell for all of them (a mongosh start is most of a second), each
  # help after a line naming its function.
  run shell "for (const n of $(public_names | jq -Rsc 'split("\n") | map(select(. != ""))')) { print('=== ' + n); globalThis[n].help(); }"
  assert_success
  all=$output
  for name in $(public_names); do
    row=$(grep -m1 "^| \`${name}(" "${DBA_LAB_ROOT}/snippets/README.md") || fail "snippets/README.md has no row for ${name}"
    purpose="${row#*\` | }"
    purpose="${purpose% |}"
    run sed -n "/^=== ${name}\$/,/^=== /p" <<<"$all"
    assert_success
    assert_line "=== ${name}"
    assert_line --regexp "^  ${name}\\(.*\\):$"
    assert_line "  ${purpose^}"
    assert_line "  For more information on usage: snippet help dba-lab"
  done
}

@test "every concern of concerns.json has a call in this file" {
  run jq -r 'keys[]' "${DBA_LAB_ROOT}/snippets/lib/concerns.json"
  assert_success
  [[ "$(sort <<<"$output")" == "$(printf '%s\n' "${!CALLS[@]}" | sort)" ]]
}

@test "resume-token: decodeResumeToken decodes a token under --nodb" {
  run shell "print(${CALLS[resume-token]})"
  assert_success
  assert_output "1630496062"
}

@test "oplog: explainOplogEntry explains an update entry under --nodb" {
  run shell "print(${CALLS[oplog]})"
  assert_success
  assert_output "elements"
}

@test "seed: a seedCollection dry run gives its figures under --nodb" {
  run shell "print(${CALLS[seed]})"
  assert_success
  assert_output "40000"
}

@test "stats: collStatsSummary under --nodb says it needs a connection" {
  run shell "print(${CALLS[stats]})"
  assert_success
  assert_output "DBALAB_NO_CONNECTION"
}

@test "oplog-audit: oplogAudit of a live oplog under --nodb says it needs a connection" {
  run shell "print(${CALLS[oplog-audit]})"
  assert_success
  assert_output "DBALAB_NO_CONNECTION"
}

@test "chunks: chunkSummary under --nodb says it needs a connection" {
  run shell "print(${CALLS[chunks]})"
  assert_success
  assert_output "DBALAB_NO_CONNECTION"
}

# Both ways: a file the snippets need but the tarball lacks fails a call
# above; a file the tarball carries that nothing loads (tests, fixtures,
# playbooks, tools, bench) fails here. Needed: what npm always packs
# (package.json, README.md, LICENSE), package.json's main (mongosh load()s it),
# snippets/README.md (help() reads it), and every module the snippets
# require()d once each public global's help and each concern's call ran.
@test "the tarball holds exactly the files the installed snippets use" {
  local calls
  calls=$(printf '%s;\n' "${CALLS[@]}")
  run shell "for (const n of $(public_names | jq -Rsc 'split("\n") | map(select(. != ""))')) globalThis[n].help();
    ${calls}
    const dir = $(jq -Rn --arg d "$INSTALLED/" '$d');
    for (const k of Object.keys(require.cache)) if (k.startsWith(dir)) print('loaded: ' + k.slice(dir.length))"
  assert_success
  local loaded main
  loaded=$(sed -n 's/^loaded: //p' <<<"$output")
  [[ -n "$loaded" ]]
  main=$(jq -r .main "${DBA_LAB_ROOT}/package.json")
  diff -u <(printf '%s\n' package.json README.md LICENSE "$main" snippets/README.md "$loaded" | sort -u) \
    <(tar -tzf "$TARBALL" | sed 's#^package/##' | sort)
}

# README's line for users without a checkout, with the release's URL replaced
# by a local server's: no `snippet refresh` is needed, because mongosh reads
# the indexes again when their list changes. The index served names the
# packed tarball as installSpec (the release's names none and goes to npm).
@test "README's config.set line adds the index in front of the user's and snippet install dba-lab works" {
  export HOME="${BATS_TEST_TMPDIR}/home"
  mkdir -p "$HOME"
  local line url served port existing
  line=$(grep -m1 "^> config.set('snippetIndexSourceURLs', 'https://" "${DBA_LAB_ROOT}/README.md")
  line="${line#> }"
  url=$(grep -oE "https://[^']+/index\.bson\.br" <<<"$line")
  [[ "$url" == "$(jq -r .homepage "${DBA_LAB_ROOT}/package.json")/releases/latest/download/index.bson.br" ]]
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" build --install-spec "file:${TARBALL}" \
    --out "${BATS_TEST_TMPDIR}/served/index.bson.br" >/dev/null
  # The index the user had: an empty one, as a data: URL (no network here).
  existing=$(node -e '
    const { BSON } = require(require.resolve("bson", { paths: [process.env.DBA_LAB_ROOT] }));
    const bytes = require("zlib").brotliCompressSync(BSON.serialize({ indexFileVersion: 1, metadata: { homepage: "https://example.invalid/" }, index: [] }));
    process.stdout.write("data:application/octet-stream," + [...bytes].map((b) => "%" + b.toString(16).padStart(2, "0")).join(""));')
  mongosh --nodb --quiet --norc --eval "config.set('snippetIndexSourceURLs', '${existing}'); config.set('snippetRegistryURL', 'http://127.0.0.1:9/')" >/dev/null
  node -e '
    const dir = process.argv[1];
    require("http").createServer((req, res) => {
      require("fs").readFile(require("path").join(dir, req.url), (err, body) => {
        if (err) { res.writeHead(404); res.end(); } else { res.end(body); }
      });
    }).listen(0, "127.0.0.1", function () { require("fs").writeFileSync(dir + "/port", String(this.address().port)); });
  ' "${BATS_TEST_TMPDIR}/served" &
  printf '%s\n' "$!" >"${BATS_TEST_TMPDIR}/server.pid"
  for _ in $(seq 100); do [[ -s "${BATS_TEST_TMPDIR}/served/port" ]] && break; sleep 0.1; done
  port=$(<"${BATS_TEST_TMPDIR}/served/port")
  served="http://127.0.0.1:${port}/index.bson.br"
  run mongosh --nodb --quiet --norc --eval "${line/"$url"/"$served"}; snippet('install', 'dba-lab')"
  assert_success
  assert_output --partial "Finished installing snippets: dba-lab"
  run mongosh --nodb --quiet --norc --eval "print(config.get('snippetIndexSourceURLs'))"
  assert_success
  assert_output "${served};${existing}"
  run shell "print(decodeResumeToken('82612F653E000000022B0229296E04').timestamp.t)"
  assert_success
  assert_output "1630496062"
}

# The local index server, also when the test failed.
teardown() {
  local pid
  [[ -f "${BATS_TEST_TMPDIR}/server.pid" ]] || return 0
  pid=$(<"${BATS_TEST_TMPDIR}/server.pid")
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
