#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the store tests' PostgreSQL pass and prints its connection
# string (admin database; each test creates and drops a database of its own). Idempotent: a server this script
# already started is reused. `scripts/start-test-postgres.sh stop` stops it and deletes its files; `down` and `up`
# (below) restart it on its files.
# Test settings only: trust authentication on 127.0.0.1, no fsync (the data is thrown away).
set -euo pipefail

dir=${IFI_TEST_PG_DIR:-/tmp/ifi-test-postgres}
port=${IFI_TEST_PG_PORT:-55439}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed: run scripts/install-test-dependencies.sh" >&2; exit 1; }

# initdb and postgres refuse to run as root: as root, run them as the postgres user the Debian package created.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# `down` stops the server and keeps its files, `up` starts it again on them: a restart of the store, for a test that
# owns this server (IFI_TEST_PG_DIR of its own), never the shared one.
if [ "${1:-start}" = "down" ]; then
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  exit 0
fi
if [ "${1:-start}" = "up" ]; then
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  exit 0
fi

if [ "${1:-start}" = "stop" ]; then
  [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi

if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U ifi --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
fi

echo "Host=127.0.0.1;Port=$port;Username=ifi;Database=postgres"
