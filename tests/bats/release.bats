#!/usr/bin/env bats
# setup/release.sh: what the release workflow checks (the tag) and reads (the
# notes from CHANGELOG.md) before it publishes.

bats_require_minimum_version 1.5.0

setup() {
  load test_helper
  cat >"${BATS_TEST_TMPDIR}/CHANGELOG.md" <<'EOF'
# Changelog

## [Unreleased]

- not yet

## [0.2.0] - 2027-01-02

- second


## [0.1.0] - 2026-11-25

First release.

### Added
- one
- two

## [0.0.1] - 2026-01-01
- oldest
EOF
}

release() {
  "${DBA_LAB_ROOT}/setup/release.sh" "$@"
}

@test "notes prints a version's section without its heading, up to the next version" {
  run release notes 0.1.0 "${BATS_TEST_TMPDIR}/CHANGELOG.md"
  assert_success
  assert_output "$(printf 'First release.\n\n### Added\n- one\n- two')"
}

@test "notes leaves out the blank lines around a section" {
  run release notes 0.2.0 "${BATS_TEST_TMPDIR}/CHANGELOG.md"
  assert_success
  assert_output "- second"
}

@test "notes reads the last section to the end of the file" {
  run release notes 0.0.1 "${BATS_TEST_TMPDIR}/CHANGELOG.md"
  assert_success
  assert_output "- oldest"
}

@test "notes of a version with no section fails in one line" {
  run --separate-stderr release notes 0.3.0 "${BATS_TEST_TMPDIR}/CHANGELOG.md"
  assert_failure 1
  assert_output ""
  [[ "$stderr" == "release: CHANGELOG.md has no section '## [0.3.0]' (or it is empty): write the release notes there first" ]]
}

@test "notes does not take a version's prefix for the version" {
  run release notes 0.1 "${BATS_TEST_TMPDIR}/CHANGELOG.md"
  assert_failure 1
}

@test "CHANGELOG.md has the notes of package.json's version" {
  local version
  version=$(jq -r .version "${DBA_LAB_ROOT}/package.json")
  run release notes "$version"
  assert_success
  assert_line --regexp '^### '
}

@test "check-tag accepts v followed by package.json's version" {
  local version
  version=$(jq -r .version "${DBA_LAB_ROOT}/package.json")
  run release check-tag "v${version}"
  assert_success
}

@test "check-tag refuses a tag that is not package.json's version, in one line" {
  local version
  version=$(jq -r .version "${DBA_LAB_ROOT}/package.json")
  run release check-tag "v${version}.1"
  assert_failure 1
  assert_output "release: tag 'v${version}.1' is not v${version}, the version in package.json: change one of them"
  run release check-tag "${version}"
  assert_failure 1
}

@test "the release workflow runs check-tag and notes before it publishes anything" {
  local workflow="${DBA_LAB_ROOT}/.github/workflows/release.yml" check notes publish release
  # The first line that runs each (comments left out).
  check=$(grep -nE -m1 '^ +run: \./setup/release\.sh check-tag ' "$workflow" | cut -d: -f1)
  notes=$(grep -nE -m1 '^ +run: \./setup/release\.sh notes ' "$workflow" | cut -d: -f1)
  publish=$(grep -nE -m1 '^ +npm publish --provenance ' "$workflow" | cut -d: -f1)
  release=$(grep -nE -m1 '^ +gh release create ' "$workflow" | cut -d: -f1)
  [[ -n "$check" && -n "$notes" && -n "$publish" && -n "$release" ]]
  ((check < publish && notes < publish && publish < release))
}

@test "an unknown command is a usage error" {
  run release publish
  assert_failure 2
  assert_output --partial "usage: setup/release.sh check-tag TAG | notes VERSION"
}
