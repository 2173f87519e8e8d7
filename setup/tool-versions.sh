# shellcheck shell=bash
# The versions of mongosh and mlaunch, read without starting them, for
# setup/install.sh --check and the playbooks' preflight. Starting them only to
# ask costs: `mongosh --version` loads the whole shell (0.8 s of CPU) and
# `mlaunch --version` imports pymongo (0.25 s); both are asked at every
# preflight and every dry run (docs/mongodb-facts.md#tool-versions).

# tool_versions::link_target FILE: FILE with its symlinks followed to the file
# itself (the folder of a command on PATH, not of its link in .tools/bin);
# readlink -f is missing on older macOS.
tool_versions::link_target() {
  local file="$1" link
  while [[ -L "$file" ]]; do
    link=$(readlink "$file")
    [[ "$link" == /* ]] || link="$(dirname "$file")/${link}"
    file=$link
  done
  printf '%s' "$file"
}

# tool_versions::mongosh MONGOSH: the npm package it runs from
# (node_modules/.bin/mongosh is its bin/mongosh.js) names the same version as
# `mongosh --version` in its package.json; a mongosh of another kind (brew's,
# a download's single binary) is asked.
tool_versions::mongosh() {
  local pkg version=''
  [[ -f "$1" ]] || return 1
  pkg="$(dirname "$(tool_versions::link_target "$1")")/../package.json"
  if [[ -f "$pkg" ]]; then
    version=$(jq -r 'select(.name == "@mongosh/cli-repl") | .version // empty' "$pkg" 2>/dev/null) || version=''
  fi
  if [[ -n "$version" ]]; then printf '%s\n' "$version"; else "$1" --version 2>/dev/null | head -n 1; fi
}

# The second line of a pip script whose Python's path holds a space or is too
# long for a #! line: pip writes #!/bin/sh, then this line, which execs the
# Python (distlib's ScriptMaker._build_shebang).
TOOL_VERSIONS_PIP_SH_EXEC="^'''exec' (\"([^\"]+)\"|([^ \"]+)) \"\\\$0\" \"\\\$@\"\$"

# tool_versions::script_python SCRIPT: the Python that runs a script pip
# installed (a venv's, as setup makes it, or pipx's): named on its #! line, or
# on pip's exec line after #!/bin/sh. Fails for a script of another kind.
tool_versions::script_python() {
  local first='' second='' python=''
  [[ -f "$1" ]] || return 1
  { IFS= read -r first && IFS= read -r second; } <"$1" || true
  if [[ "$first" == '#!/bin/sh' && "$second" =~ $TOOL_VERSIONS_PIP_SH_EXEC ]]; then
    python=${BASH_REMATCH[2]:-${BASH_REMATCH[3]}}
  elif [[ "$first" == '#!/'* && "$first" != *[[:space:]]* ]]; then
    python=${first#\#!}
  fi
  [[ -n "$python" && -x "$python" ]] || return 1
  printf '%s\n' "$python"
}

# tool_versions::mlaunch MLAUNCH: the mtools version the Python that runs it
# has installed; any other mlaunch is asked.
tool_versions::mlaunch() {
  local python version=''
  [[ -f "$1" ]] || return 1
  if python=$(tool_versions::script_python "$1"); then
    version=$("$python" -c 'from importlib.metadata import version; print(version("mtools"))' 2>/dev/null) || version=''
  fi
  if [[ -n "$version" ]]; then
    printf '%s\n' "$version"
  else
    # mlaunch first prints "Detected mongod version: X" when a mongod is on PATH.
    "$1" --version 2>&1 | awk '$1 == "mtools" && $2 == "version" {print $3; exit}'
  fi
}
