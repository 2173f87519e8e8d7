# shellcheck shell=bash
# Loaded by every bats file: the project's root and the assertion libraries.
if [[ -z "${DBA_LAB_ROOT:-}" ]]; then
  DBA_LAB_ROOT="$(cd "$(dirname "${BATS_TEST_FILENAME}")" && git rev-parse --show-toplevel)"
fi
export DBA_LAB_ROOT

# bats-support and bats-assert, their src/*.bash sourced directly: what each
# load.bash sources (test-helper.bats checks it). bats sources a file's
# helpers again for every test, under a DEBUG trap that makes each command
# cost about 0.1 ms, and bats_load_library runs load.bash, which starts a
# `dirname` per file: 30 ms of CPU a test, 50 s in a run of 1,600 tests.
for dba_lab_lib in "${DBA_LAB_ROOT}/node_modules/bats-support/src/"*.bash \
  "${DBA_LAB_ROOT}/node_modules/bats-assert/src/"*.bash; do
  # shellcheck source=/dev/null
  source "$dba_lab_lib"
done
unset dba_lab_lib

# A PATH holding every command of the usual ones except those named.
path_without() {
  local dir="${BATS_TEST_TMPDIR}/bin" d f name links
  local -A seen=()
  mkdir -p "$dir"
  for d in /usr/local/bin /usr/bin /bin "$(dirname "$(command -v python3)")" "$(dirname "$(command -v go || echo /nonexistent/go)")"; do
    [[ -d "$d" ]] || continue
    # One ln per folder: a process per command of /usr/bin was 8 s a test.
    links=()
    for f in "$d"/*; do
      name=${f##*/}
      [[ -z "${seen[$name]:-}" ]] || continue
      seen[$name]=1
      [[ " $* " == *" ${name} "* ]] && continue
      links+=("$f")
    done
    ((${#links[@]} == 0)) || ln -s "${links[@]}" "${dir}/"
  done
  printf '%s\n' "$dir"
}

# sed_literal TEXT: an extended regular expression (sed -E, grep -E) that
# matches TEXT only, "#" escaped too (the delimiter of our sed commands): a
# checkout's path may hold any of these characters.
sed_literal() {
  printf '%s' "$1" | sed 's/[][\.*^$#+?(){}|/]/\\&/g'
}

# shown ARG...: the arguments as a playbook's "$ command" lines and its
# failpoint record show them (pb::quote): a path with a space comes quoted.
shown() {
  (
    # shellcheck source=playbooks/lib/run.sh
    source "${DBA_LAB_ROOT}/playbooks/lib/run.sh"
    pb::quote "$@"
  )
}
