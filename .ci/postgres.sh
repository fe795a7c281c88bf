#!/usr/bin/env bash
# A throwaway Postgres 15 cluster for the store tests (chatrail/store's postgresStore).
#
# Source it, then call the two functions:
#
#   source .ci/postgres.sh
#   chatrail_postgres_start          # exports CHATRAIL_TEST_POSTGRES_URL
#   trap chatrail_postgres_stop EXIT
#
# or run it directly (`.ci/postgres.sh`) to start a cluster and print `export CHATRAIL_TEST_POSTGRES_URL=…`
# (stop it later with `.ci/postgres.sh stop <dir>`, the directory it printed).
#
# The cluster lives in a temp dir owned by the `postgres` user (initdb refuses to run as root), listens on
# 127.0.0.1 and a unix socket in that dir, trusts local connections (it is a test cluster) and is deleted
# by the stop function. On a fresh machine the Debian `postgresql` package is installed with apt.

chatrail_postgres_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

chatrail_postgres_free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'
}

chatrail_postgres_start() {
  local bin
  if ! bin="$(chatrail_postgres_bin)"; then
    echo "postgres.sh: no Postgres binaries under /usr/lib/postgresql; installing the postgresql package" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    bin="$(chatrail_postgres_bin)" || { echo "postgres.sh: postgresql installed but initdb/pg_ctl not found" >&2; return 1; }
  fi
  local run_as=()
  if [ "$(id -u)" = 0 ]; then run_as=(runuser -u postgres --); fi

  CHATRAIL_POSTGRES_DIR="$(mktemp -d /tmp/chatrail-pg.XXXXXX)"
  chmod 755 "$CHATRAIL_POSTGRES_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres "$CHATRAIL_POSTGRES_DIR"; fi
  local port
  port="$(chatrail_postgres_free_port)"
  "${run_as[@]}" "$bin/initdb" -D "$CHATRAIL_POSTGRES_DIR/data" -U postgres --auth=trust -E UTF8 --no-locale >"$CHATRAIL_POSTGRES_DIR/initdb.log" 2>&1 \
    || { cat "$CHATRAIL_POSTGRES_DIR/initdb.log" >&2; return 1; }
  "${run_as[@]}" "$bin/pg_ctl" -D "$CHATRAIL_POSTGRES_DIR/data" -l "$CHATRAIL_POSTGRES_DIR/server.log" -w -t 60 \
    -o "-k $CHATRAIL_POSTGRES_DIR -h 127.0.0.1 -p $port -c fsync=off -c full_page_writes=off" start >/dev/null \
    || { cat "$CHATRAIL_POSTGRES_DIR/server.log" >&2; return 1; }
  "${run_as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres chatrail_test
  export CHATRAIL_POSTGRES_DIR
  export CHATRAIL_POSTGRES_BIN="$bin"
  export CHATRAIL_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/chatrail_test"
  echo "postgres.sh: Postgres $("$bin/postgres" --version | awk '{print $3}') at $CHATRAIL_TEST_POSTGRES_URL (data in $CHATRAIL_POSTGRES_DIR)" >&2
}

chatrail_postgres_stop() {
  local dir="${1:-${CHATRAIL_POSTGRES_DIR:-}}"
  [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
  local bin="${CHATRAIL_POSTGRES_BIN:-$(chatrail_postgres_bin)}"
  local run_as=()
  if [ "$(id -u)" = 0 ]; then run_as=(runuser -u postgres --); fi
  "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

# Run directly (not sourced): start, print the export line, or stop a cluster by its directory.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-start}" in
    start)
      chatrail_postgres_start
      echo "export CHATRAIL_TEST_POSTGRES_URL=$CHATRAIL_TEST_POSTGRES_URL"
      echo "export CHATRAIL_POSTGRES_DIR=$CHATRAIL_POSTGRES_DIR"
      ;;
    stop) chatrail_postgres_stop "${2:-}" ;;
    *) echo "usage: .ci/postgres.sh [start | stop <dir>]" >&2; exit 2 ;;
  esac
fi
