# shellcheck shell=bash
# The Node.js this checkout needs, read from package.json "engines" (one place
# to change it), for setup/install.sh and the playbooks' preflight. The mongodb
# driver 7 and bson 7 in devDependencies declare node >= 20.19.0
# (node_modules/mongodb/package.json "engines"); mongosh's own minimum is lower.

# node_version::minimum PACKAGE_JSON: prints X.Y.Z from "node": ">=X.Y.Z".
node_version::minimum() {
  sed -nE 's/^ *"node": *">= *([0-9]+(\.[0-9]+){0,2})".*/\1/p' "$1" | head -n 1
}

# node_version::at_least HAVE WANT: HAVE (vX.Y.Z or X.Y.Z) >= WANT (X[.Y[.Z]]).
node_version::at_least() {
  local have="${1#v}" want="$2" h w i
  IFS=. read -r -a h <<<"${have%%[-+]*}"
  IFS=. read -r -a w <<<"$want"
  for i in 0 1 2; do
    ((10#${h[i]:-0} > 10#${w[i]:-0})) && return 0
    ((10#${h[i]:-0} < 10#${w[i]:-0})) && return 1
  done
  return 0
}

# node_version::problem PACKAGE_JSON: prints one line, "what is wrong: what to
# do", about the node on PATH, or nothing when it will do.
node_version::problem() {
  local want have
  want=$(node_version::minimum "$1")
  have=$(node --version 2>/dev/null || true)
  if [[ -z "$have" ]]; then
    printf 'node not found: install Node.js %s or newer (https://nodejs.org, or your package manager)\n' "${want:-20.19}"
  elif [[ -n "$want" ]] && ! node_version::at_least "$have" "$want"; then
    printf 'node %s is too old: the mongodb driver and bson this project installs need Node.js %s or newer (package.json "engines"): install a newer Node.js (https://nodejs.org, or nvm)\n' "$have" "$want"
  fi
}
