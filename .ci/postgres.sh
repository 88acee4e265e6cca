#!/usr/bin/env bash
# Installs (from Debian's packages, if missing) and starts a throwaway
# PostgreSQL on loopback for the PostgreSQL half of the test suite, then
# prints the URL the tests read from SESSIONKIT_TEST_POSTGRES_URL.
# Usage: eval "$(bash .ci/postgres.sh)"
set -euo pipefail
port="${SESSIONKIT_PG_PORT:-55432}"
pgdata="${SESSIONKIT_PG_DATA:-/tmp/sessionkit-pg-$port}"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin="$(find_bin)"
if [ -z "$bin" ] || [ ! -x "$bin/postgres" ]; then
  echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin="$(find_bin)"
fi

run_as_postgres() {
  # From /, which user postgres can enter (a clone in root's temp folder is not).
  if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/bash -c "$*"); else bash -c "$*"; fi
}

if [ -f "$pgdata/postmaster.pid" ] && run_as_postgres "'$bin/pg_ctl' -D '$pgdata' status" >/dev/null 2>&1; then
  echo "postgres.sh: reusing the server already running in $pgdata" >&2
else
  rm -rf "$pgdata"
  mkdir -p "$pgdata"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$pgdata"
  run_as_postgres "'$bin/initdb' -D '$pgdata' -A trust -U postgres" >/dev/null
  # The default socket folder may not exist here; keep the socket beside the data.
  run_as_postgres "'$bin/pg_ctl' -D '$pgdata' -l '$pgdata/server.log' -w \
    -o \"-k '$pgdata' -c listen_addresses=127.0.0.1 -p $port -c max_connections=200 -c fsync=off\" start" >&2
fi
run_as_postgres "'$bin/psql' -h 127.0.0.1 -p $port -U postgres -tAc \"SELECT 1 FROM pg_database WHERE datname='sessionkit_test'\"" \
  | grep -q 1 || run_as_postgres "'$bin/createdb' -h 127.0.0.1 -p $port -U postgres sessionkit_test"
echo "export SESSIONKIT_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/sessionkit_test"
