#!/usr/bin/env bash
# A PostgreSQL cluster of a test's own, which the test may crash and restart
# without touching the server every other PostgreSQL test shares
# (.ci/postgres.sh). Debian's packages must be installed (CI's postgres.sh
# installs them).
#
#   throwaway-postgres.sh start DIR PORT     # initdb, start, create the database; prints its URL
#   throwaway-postgres.sh crash-restart DIR  # pg_ctl restart -m immediate: no checkpoint, crash recovery on start
#   throwaway-postgres.sh stop DIR           # pg_ctl stop -m immediate: the server process is gone
#   throwaway-postgres.sh resume DIR         # starts a stopped cluster again (crash recovery)
#   throwaway-postgres.sh destroy DIR        # stops it if running and deletes DIR
set -euo pipefail
command="${1:?usage: throwaway-postgres.sh start|crash-restart|stop|resume|destroy DIR [PORT]}"
dir="${2:?a data folder}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$bin/pg_ctl" ] || { echo "throwaway-postgres.sh: PostgreSQL is not installed (run .ci/postgres.sh once)" >&2; exit 3; }

as_postgres() {
  # From /, which user postgres can enter; root cannot run PostgreSQL itself.
  if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/bash -c "$*"); else bash -c "$*"; fi
}

case "$command" in
  start)
    port="${3:?a port}"
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_postgres "'$bin/initdb' -D '$dir' -A trust -U postgres" >/dev/null
    # fsync stays on: crash recovery is what the restart tests are about.
    echo "-k '$dir' -c listen_addresses=127.0.0.1 -p $port -c max_connections=200" > "$dir/options"
    as_postgres "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -o \"$(cat "$dir/options")\" start" >/dev/null
    as_postgres "'$bin/createdb' -h 127.0.0.1 -p $port -U postgres sessionkit" >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/sessionkit"
    ;;
  crash-restart)
    as_postgres "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -m immediate -o \"$(cat "$dir/options")\" restart" >/dev/null
    ;;
  stop)
    as_postgres "'$bin/pg_ctl' -D '$dir' -w -m immediate stop" >/dev/null
    ;;
  resume)
    as_postgres "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -o \"$(cat "$dir/options")\" start" >/dev/null
    ;;
  destroy)
    if [ -f "$dir/postmaster.pid" ]; then as_postgres "'$bin/pg_ctl' -D '$dir' -w -m immediate stop" >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *) echo "throwaway-postgres.sh: unknown command $command" >&2; exit 2 ;;
esac
