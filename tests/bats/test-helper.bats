#!/usr/bin/env bats
# test_helper.bash sources the assertion libraries' src/*.bash itself instead
# of their load.bash (a dirname process per file, at every test): it must
# load exactly what load.bash would.

setup() {
  load test_helper
}

# sourced_by LIBRARY: the files its load.bash sources, relative to it.
sourced_by() {
  sed -nE 's#^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/(.*)"$#\1#p' "${DBA_LAB_ROOT}/node_modules/$1/load.bash" | sort
}

# assert_loads_its_src LIBRARY: every line of its load.bash that is not a
# comment sources a file, and those files are its src/*.bash.
assert_loads_its_src() {
  run grep -cvE '^(#.*)?$' "${DBA_LAB_ROOT}/node_modules/$1/load.bash"
  assert_success
  assert_output "$(sourced_by "$1" | wc -l)"
  assert_equal "$(sourced_by "$1")" "$(cd "${DBA_LAB_ROOT}/node_modules/$1" && printf '%s\n' src/*.bash | sort)"
}

@test "bats-support's load.bash sources its src/*.bash and nothing else" {
  assert_loads_its_src bats-support
}

@test "bats-assert's load.bash sources its src/*.bash and nothing else" {
  assert_loads_its_src bats-assert
}

@test "the helper's assertions are the libraries' own" {
  run declare -F assert_output assert_line refute_output fail assert_equal
  assert_success
  assert_equal "${#lines[@]}" 5
}
