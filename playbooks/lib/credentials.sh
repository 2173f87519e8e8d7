# shellcheck shell=bash
# shellcheck disable=SC2034 # globals are shared between the framework files
# How a client reaches a connection string that carries a password: never on
# its command line, which every local user can read for as long as the
# process runs (ps, /proc/PID/cmdline), but in its environment (readable by
# its own user only: /proc/PID/environ is mode 0400) or in a file of mode
# 0600 in the run's private folder. A connection string without a password
# is an argument, as it always was. docs/credentials.md says why and how.

# The environment variable that carries the connection string to mongosh and
# to the scenarios' Node programs (they read it when no --uri is given).
PB_CONN_ENV=DBA_LAB_CONN_URI
# The connection strings with a password used so far, by their redacted form:
# what stage records and logs hold, turned back into a connection (knob restores).
declare -gA PB_CONN_SECRETS=()

# pb::uri_has_password URI: true when URI's user information has a password
# (mongodb://user:password@host/...).
pb::uri_has_password() {
  local authority="${1#*://}"
  [[ "$1" =~ ^mongodb(\+srv)?:// ]] || return 1
  authority=${authority%%/*}
  authority=${authority%%\?*}
  [[ "$authority" == *@* && "${authority%@*}" == *:* ]]
}

# pb::uri_argv_warning PROGRAM URI: what to say when URI, with its password,
# was given on PROGRAM's own command line (nothing when it has none).
pb::uri_argv_warning() {
  pb::uri_has_password "$2" || return 0
  printf "the password in --uri is on this %s's command line, which every local user can read (ps) while it runs; give the URI in the environment instead: DBA_LAB_URI='%s' %s ... (docs/credentials.md)" \
    "$([[ "$1" == check ]] && printf check || printf playbook)" "$(pb::redact "$2")" "$1"
}

# pb::_uri_without_password URI: URI with its user name and no password.
pb::_uri_without_password() {
  local scheme="${1%%://*}" rest="${1#*://}" user
  user=${rest%%:*}
  printf '%s://%s@%s' "$scheme" "$user" "$(pb::_uri_after_userinfo "$1")"
}

# The hosts and the rest of URI, after its user information's "@".
pb::_uri_after_userinfo() {
  local rest="${1#*://}" authority
  authority=${rest%%/*}
  authority=${authority%%\?*}
  printf '%s' "${rest#"${authority%@*}@"}"
}

# pb::_uri_password URI: the password of URI, percent-decoded (the Database
# Tools take it as it is, the connection string percent-encoded).
pb::_uri_password() {
  local rest="${1#*://}" userinfo
  userinfo=${rest%%"@$(pb::_uri_after_userinfo "$1")"}
  userinfo=${userinfo#*:}
  userinfo=${userinfo//\\/\\\\}
  printf '%b' "${userinfo//%/\\x}"
}

# pb::connection ENV_VAR ARGS_VAR CLIENT TARGET: how CLIENT (mongosh, node or
# tools) reaches TARGET, a connection string (or --nodb, for mongosh).
# ENV_VAR (an array) gets the runner's options for the command (pb::run and
# pb::capture --env), ARGS_VAR (an array) the client's own arguments.
# Without a password: no environment, and the connection string as argument
# (mongosh URI; node --uri URI; tools --uri URI). With one:
#   mongosh  --nodb --eval 'db = connect(process.env.DBA_LAB_CONN_URI)': the
#            same connection string parser as a positional one (mongosh's
#            Mongo constructor), and `db` the same for the files it loads
#   node     no argument: the scenarios' run.js read DBA_LAB_CONN_URI
#   tools    --uri without the password and --config FILE, a YAML file with
#            `password:` (mongo-tools common/options: ParseConfigFile), mode
#            0600 in the run's folder (removed at exit); not written in --dry-run
pb::connection() {
  local -n _pbconn_env="$1" _pbconn_args="$2"
  local client="$3" uri="$4" file
  _pbconn_env=()
  if [[ "$uri" == --nodb ]]; then
    [[ "$client" == mongosh ]] || pb::die "pb::connection: --nodb is for mongosh, not ${client}"
    _pbconn_args=(--nodb)
    return 0
  fi
  if ! pb::uri_has_password "$uri"; then
    case "$client" in
      mongosh) _pbconn_args=("$uri") ;;
      node | tools) _pbconn_args=(--uri "$uri") ;;
      *) pb::die "pb::connection: unknown client '${client}' (mongosh, node or tools)" ;;
    esac
    return 0
  fi
  PB_CONN_SECRETS[$(pb::redact "$uri")]=$uri
  case "$client" in
    mongosh)
      _pbconn_env=(--env "${PB_CONN_ENV}=${uri}")
      _pbconn_args=(--nodb --eval "db = connect(process.env.${PB_CONN_ENV})")
      ;;
    node)
      _pbconn_env=(--env "${PB_CONN_ENV}=${uri}")
      _pbconn_args=()
      ;;
    tools)
      # mktemp makes it 0600 whatever the umask.
      file=$(pb::tempfile db-tools-password)
      if ! pb::dry_run; then
        pb::_yaml_password "$(pb::_uri_password "$uri")" >"$file"
      fi
      _pbconn_args=(--uri "$(pb::_uri_without_password "$uri")" --config "$file")
      ;;
    *) pb::die "pb::connection: unknown client '${client}' (mongosh, node or tools)" ;;
  esac
}

# `password: '...'`: a single-quoted YAML scalar, where only ' is escaped ('').
pb::_yaml_password() {
  local q="'"
  printf "password: '%s'\n" "${1//$q/$q$q}"
}

# pb::conn_unredact URI: the connection string whose redacted form is URI
# (stage records keep only that), or URI itself.
pb::conn_unredact() {
  printf '%s' "${PB_CONN_SECRETS[$1]:-$1}"
}
