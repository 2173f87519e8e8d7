#!/usr/bin/env bats
# The snippet index: built from package.json and snippets/README.md, registered
# for the current user so that `snippet install dba-lab` works with no network.

# test-runner: long

shell() {
  mongosh --nodb --quiet --norc --eval "$1"
}

source_urls() {
  shell "print(config.get('snippetIndexSourceURLs'))"
}

# No registry answers on this port: whatever needs the network fails.
go_offline() {
  shell "config.set('snippetRegistryURL', 'http://127.0.0.1:9/')" >/dev/null
}

# Two homes made once, each test working on a copy of its own (registering
# and installing take five mongosh and npm starts): "registered", where the
# index is registered and the network is off, and "installed", the same after
# `snippet install dba-lab` (its output in install.log).
setup_file() {
  load test_helper
  local dir="$BATS_FILE_TMPDIR"
  mkdir -p "${dir}/registered"
  HOME="${dir}/registered" "${DBA_LAB_ROOT}/setup/install.sh" --snippet-index >/dev/null
  HOME="${dir}/registered" go_offline
  cp -a "${dir}/registered" "${dir}/installed"
  HOME="${dir}/installed" shell "snippet('install', 'dba-lab')" >"${dir}/install.log"
}

setup() {
  load test_helper
  export HOME="${BATS_TEST_TMPDIR}/home"
  mkdir -p "$HOME"
}

# home_from NAME: this test's HOME becomes a copy of the home setup_file made.
home_from() {
  rm -rf "$HOME"
  cp -a "${BATS_FILE_TMPDIR}/$1" "$HOME"
}

@test "the built index decodes to the snippet-manager schema with this package's fields" {
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" build --install-spec file:/x --out "${BATS_TEST_TMPDIR}/i.br"
  run node "${DBA_LAB_ROOT}/setup/snippet-index.js" decode "${BATS_TEST_TMPDIR}/i.br"
  assert_success
  run jq -r '[.indexFileVersion, .index[0].name, .index[0].snippetName, .index[0].license, .index[0].installSpec,
              (.index[0].readme | startswith("# dba-lab")), (.metadata.homepage | length > 0)] | join(" ")' <<<"$output"
  assert_success
  assert_output "1 mongosh-dba-lab dba-lab Apache-2.0 file:/x true true"
}

@test "the index version and description come from package.json" {
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" build --out "${BATS_TEST_TMPDIR}/i.br"
  run node "${DBA_LAB_ROOT}/setup/snippet-index.js" decode "${BATS_TEST_TMPDIR}/i.br"
  assert_success
  local version description
  version=$(jq -r .version "${DBA_LAB_ROOT}/package.json")
  description=$(jq -r .description "${DBA_LAB_ROOT}/package.json")
  [[ "$(jq -r '.index[0].version' <<<"$output")" == "$version" ]]
  [[ "$(jq -r '.index[0].description' <<<"$output")" == "$description" ]]
}

@test "registering keeps the URLs the user already had and adds one index" {
  shell "config.set('snippetIndexSourceURLs', 'https://example.invalid/a.bson.br;https://example.invalid/b.bson.br')" >/dev/null
  run "${DBA_LAB_ROOT}/setup/install.sh" --snippet-index
  assert_success
  run source_urls
  assert_success
  assert_output --regexp '^https://example\.invalid/a\.bson\.br;https://example\.invalid/b\.bson\.br;data:application/octet-stream,%[0-9a-f]{2}'
}

@test "registering twice leaves one dba-lab index, not two" {
  home_from registered
  "${DBA_LAB_ROOT}/setup/install.sh" --snippet-index >/dev/null
  run source_urls
  assert_success
  [[ "$(grep -o 'data:' <<<"$output" | wc -l)" -eq 1 ]]
  assert_output --partial "https://compass.mongodb.com/mongosh/snippets-index.bson.br;data:"
}

@test "unregistering removes only the dba-lab index" {
  home_from registered
  run node "${DBA_LAB_ROOT}/setup/snippet-index.js" unregister
  assert_success
  run source_urls
  assert_success
  assert_output "https://compass.mongodb.com/mongosh/snippets-index.bson.br"
}

@test "with an empty HOME and no network, snippet install dba-lab defines the public globals" {
  run cat "${BATS_FILE_TMPDIR}/install.log"
  assert_success
  assert_output --partial "Finished installing snippets: dba-lab"
  home_from installed
  local names
  names=$(jq -r '[.[]] | flatten | join(" ")' "${DBA_LAB_ROOT}/snippets/lib/concerns.json")
  [[ -n "$names" ]]
  run shell "snippet('load-all'); print('$names'.split(' ').map((n) => n + ':' + typeof globalThis[n]).join(' '))"
  assert_success
  refute_output --partial ":undefined"
  assert_output --partial "decodeResumeToken:function"
}

@test "snippet ls and snippet help dba-lab work offline" {
  home_from installed
  run shell "print(snippet('ls'))"
  assert_success
  assert_output --partial "mongosh:dba-lab@"
  run shell "print(snippet('help', 'dba-lab'))"
  assert_success
  assert_output --partial "# dba-lab: mongosh snippets for MongoDB DBAs"
}

@test "snippet update works offline" {
  home_from installed
  run shell "print(snippet('update'))"
  assert_success
  assert_output --partial "Done!"
}

@test "after snippet uninstall dba-lab the next session has none of its globals" {
  home_from installed
  run shell "print(snippet('uninstall', 'dba-lab'))"
  assert_success
  assert_output --partial "Done!"
  run shell "snippet('load-all'); print(typeof decodeResumeToken)"
  assert_success
  assert_output "undefined"
}

@test "the index carries an error matcher naming every public function" {
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" build --out "${BATS_TEST_TMPDIR}/i.br"
  run node "${DBA_LAB_ROOT}/setup/snippet-index.js" decode "${BATS_TEST_TMPDIR}/i.br"
  assert_success
  local index="$output" name regex
  regex=$(jq -r '.index[0].errorMatchers[0].matches[0]' <<<"$index")
  [[ -n "$regex" && "$regex" != null ]]
  # The pattern uses only \b and (?:...), which PCRE reads as JavaScript does.
  for name in $(jq -r '[.[]] | flatten | .[]' "${DBA_LAB_ROOT}/snippets/lib/concerns.json"); do
    run grep -cP "$regex" <<<"ReferenceError: ${name} is not defined"
    assert_success
    assert_output "1"
  done
  run grep -cP "$regex" <<<"ReferenceError: decodeResumeTokens is not defined"
  assert_failure
  [[ "$(jq -r '.index[0].errorMatchers[0].message' <<<"$index")" == *"snippet install dba-lab"* ]]
}

# An interactive shell reads the index in the background as it starts; a piped
# one reads it at its first snippet command (here `snippet info`).
@test "a shell that has read the index but lacks the package suggests snippet install dba-lab" {
  home_from registered
  run mongosh --nodb --quiet --norc <<<$'snippet(\'info\')\ndecodeResumeToken(\'82\')'
  assert_success
  assert_output --partial "decodeResumeToken is not defined (it is a dba-lab helper: run \`snippet install dba-lab\`)"
}

@test "README's one-liner: --eval scripts and files see the helpers after snippet('load-all')" {
  home_from installed
  run mongosh --nodb --quiet --norc --eval "print(typeof decodeResumeToken)"
  assert_success
  assert_output "undefined"
  run mongosh --nodb --quiet --norc --eval "snippet('load-all'); print(decodeResumeToken('82612F653E000000022B0229296E04').timestamp.t)"
  assert_success
  assert_output "1630496062"
  printf '%s\n' "print(compareResumeTokens('82612F653E000000022B0229296E04', '82612F653E000000032B0229296E04'))" >"${BATS_TEST_TMPDIR}/script.js"
  run mongosh --nodb --quiet --norc --eval "void snippet('load-all')" "${BATS_TEST_TMPDIR}/script.js"
  assert_success
  assert_output "-1"
}

# The index a release attaches (`release`): mongosh installs the package from
# npm by the name and version it names, so each field must be package.json's.
release_index() {
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" release --out "${BATS_TEST_TMPDIR}/index.bson.br" >/dev/null
  node "${DBA_LAB_ROOT}/setup/snippet-index.js" decode "${BATS_TEST_TMPDIR}/index.bson.br"
}

@test "the release index names package.json's name, snippetName, version, description and license" {
  run release_index
  assert_success
  local field
  for field in name snippetName version description license; do
    [[ "$(jq -r ".index[0].${field}" <<<"$output")" == "$(jq -r ".${field}" "${DBA_LAB_ROOT}/package.json")" ]] \
      || fail "index field ${field}: $(jq -c ".index[0].${field}" <<<"$output")"
  done
  [[ "$(jq '.index | length' <<<"$output")" -eq 1 ]]
  [[ "$(jq -r .indexFileVersion <<<"$output")" == 1 ]]
}

@test "the release index has no installSpec, so mongosh installs the package from npm" {
  run release_index
  assert_success
  [[ "$(jq '.index[0] | has("installSpec")' <<<"$output")" == false ]]
}

@test "the release index's homepage is package.json's" {
  run release_index
  assert_success
  [[ "$(jq -r .metadata.homepage <<<"$output")" == "$(jq -r .homepage "${DBA_LAB_ROOT}/package.json")" ]]
}

@test "the release index's readme is the snippets' README that the package ships" {
  run release_index
  assert_success
  jq -j '.index[0].readme' <<<"$output" >"${BATS_TEST_TMPDIR}/readme"
  run jq -r '.files[]' "${DBA_LAB_ROOT}/package.json"
  assert_success
  assert_line "snippets/"
  cmp "${BATS_TEST_TMPDIR}/readme" "${DBA_LAB_ROOT}/snippets/README.md"
}

@test "the release index keeps package.json's error matchers, as regular expressions" {
  run release_index
  assert_success
  [[ "$(jq -c .index[0].errorMatchers <<<"$output")" == "$(jq -c .errorMatchers "${DBA_LAB_ROOT}/package.json")" ]]
  # decode prints a regular expression as its source: ask bson for the type.
  run node -e '
    const { BSON } = require(require.resolve("bson", { paths: [process.env.DBA_LAB_ROOT] }));
    const raw = require("zlib").brotliDecompressSync(require("fs").readFileSync(process.argv[1]));
    const { index } = BSON.deserialize(raw);
    console.log(index[0].errorMatchers.flatMap((m) => m.matches).map((r) => r instanceof RegExp).join(" "));
  ' "${BATS_TEST_TMPDIR}/index.bson.br"
  assert_success
  assert_output "true"
}

@test "a release index refuses an --install-spec" {
  run node "${DBA_LAB_ROOT}/setup/snippet-index.js" release --install-spec file:/x --out "${BATS_TEST_TMPDIR}/i.br"
  assert_failure 1
  assert_output "snippet-index: a release index names no --install-spec: mongosh installs the package from npm"
  [[ ! -e "${BATS_TEST_TMPDIR}/i.br" ]]
}
