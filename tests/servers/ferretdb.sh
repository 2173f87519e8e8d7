#!/usr/bin/env bash
# The integration tests' wire-protocol server, FerretDB v1 on SQLite: the
# same command users start for the playbooks' --uri (setup/ferretdb.sh:
# build, start, uri, stop; --help), so the tests stand on what users run.
# tests/run.sh gives each run its own server through DBA_LAB_FERRETDB_STATE.
#
# FerretDB is a test stand-in only: no change streams, oplog, replica set
# commands, setParameter, transactions or sharding. Product code targets
# MongoDB and must not special-case it.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../../setup/ferretdb.sh" "$@"
