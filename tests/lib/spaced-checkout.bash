# shellcheck shell=bash
# spaced_checkout DIR: prints DIR/My Labs/dba-lab, made a link to this
# checkout (DBA_LAB_ROOT): a newcomer's "~/My Labs/dba-lab". The playbooks run
# from it take their own folder from the path they were called by, so every
# path they derive from it (the framework, m's prefix, binaries given inside
# the checkout, mlaunch's mongod and mongos lines) holds a space.
spaced_checkout() {
  local link="$1/My Labs/dba-lab"
  if [[ ! -L "$link" ]]; then
    mkdir -p "$1/My Labs"
    ln -s "$DBA_LAB_ROOT" "$link"
  fi
  printf '%s\n' "$link"
}
