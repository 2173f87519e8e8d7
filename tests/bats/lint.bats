#!/usr/bin/env bats
# tests/lint.sh on a repository of three files: a framework entry point, a
# playbook that sources it, and a script that does not. A file that sources
# the framework is checked without shellcheck's data-flow pass (its cost
# grows with the whole program); every other file, the framework included,
# with it.

setup() {
  load test_helper
  REPO="${BATS_TEST_TMPDIR}/repo"
  mkdir -p "${REPO}/tests" "${REPO}/playbooks/lib"
  cp "${DBA_LAB_ROOT}/tests/lint.sh" "${REPO}/tests/lint.sh"
  # A quoting slip (SC2086) and an unreachable line (SC2317, which only the
  # data-flow pass finds) in each file.
  # shellcheck disable=SC2016 # the files' own expansions
  body='greet() {\n  local who="$1"\n  echo $who\n  return 0\n  echo never\n}\ngreet "$@"\n'
  printf '#!/usr/bin/env bash\n%b' "$body" >"${REPO}/playbooks/lib/playbook.sh"
  # shellcheck disable=SC2016 # the file's own expansion
  printf '#!/usr/bin/env bash\n# shellcheck source=playbooks/lib/playbook.sh\nsource "$(dirname "$0")/lib/playbook.sh"\n%b' \
    "$body" >"${REPO}/playbooks/demo.sh"
  printf '#!/usr/bin/env bash\n%b' "$body" >"${REPO}/tests/tool.sh"
  git -C "$REPO" init -q
  git -C "$REPO" add -A
}

@test "a playbook that sources the framework gets every check but the data-flow ones" {
  run "${REPO}/tests/lint.sh"
  assert_success
  assert_line --regexp '^# playbooks/demo.sh:6:[0-9]+: .*\[SC2086\]$'
  refute_line --regexp '^# playbooks/demo.sh:.*\[SC2317\]$'
}

@test "the framework and a file that sources nothing get the data-flow pass" {
  run "${REPO}/tests/lint.sh"
  assert_success
  assert_line --regexp '^# playbooks/lib/playbook.sh:6:[0-9]+: .*\[SC2317\]$'
  assert_line --regexp '^# tests/tool.sh:6:[0-9]+: .*\[SC2317\]$'
}

@test "one TAP result per file, each failing on its own findings" {
  run "${REPO}/tests/lint.sh"
  assert_success
  assert_line --index 0 '1..4'
  assert_line 'not ok 1 - shellcheck playbooks/demo.sh'
  assert_line 'not ok 2 - shellcheck playbooks/lib/playbook.sh'
  assert_line 'ok 3 - shellcheck tests/lint.sh'
  assert_line 'not ok 4 - shellcheck tests/tool.sh'
}
