#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests that need a real database (the postgres profile, two
# engine nodes on one database). One server per <dir>: data in <dir>/data, log in <dir>/postgres.log, the Unix
# socket in <dir>. PostgreSQL refuses to run as root, so when called as root the server runs as the `postgres` user
# (<dir> is chown'ed to it; every parent of <dir> must be searchable by it); otherwise as the calling user.
#
#   postgres-server.sh available            exit 0 when a server can be started here (binaries, and the postgres
#                                           user when we are root); says why not on stderr otherwise
#   postgres-server.sh start <dir> [database=orchestrator_test] [user=orch_test]
#        initdb, a free port on 127.0.0.1, a login user with a random test password (CREATEDB, so a test can make
#        a database of its own) and a database it owns. Prints the variables the tests read, one per line:
#          ORCH_TEST_PG_URL=jdbc:postgresql://127.0.0.1:<port>/<database>
#          ORCH_TEST_PG_USER=<user>
#          ORCH_TEST_PG_PASSWORD=<password>
#        and writes them as `export` lines to <dir>/env (source it). A server left in <dir> is stopped first.
#   postgres-server.sh env  <dir>           prints the same lines again
#   postgres-server.sh stop <dir>           fast shutdown (immediate after STOP_GRACE seconds); <dir> is kept
#   postgres-server.sh restart <dir> [down-seconds=0]
#                                           the server of <dir> stopped (fast: sessions cut, a checkpoint), down that
#                                           long, then started again on the same port with the same data (a database
#                                           restart for the chaos tests); returns once it accepts connections again
#
# TEST ONLY: fsync, synchronous_commit and full_page_writes are off (a crash of the machine loses the data, which
# is thrown away anyway), local socket connections are trusted. Never use this server for anything else.
# PG_BIN_DIR picks the server binaries (default: the newest /usr/lib/postgresql/*/bin).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_BIN_DIR=${PG_BIN_DIR:-}
START_TIMEOUT=${START_TIMEOUT:-60}
STOP_GRACE=${STOP_GRACE:-20}

usage() {
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The postmaster's pid if the server of <dir> runs, else empty.
server_pid() {
  local pid
  pid=$(head -n 1 "$DIR/data/postmaster.pid" 2>/dev/null | tr -dc '0-9' || true)
  if [ -n "$pid" ] && pid_is "$pid" "$DIR/data"; then echo "$pid"; fi
}

print_env() {
  [ -f "$DIR/server.env" ] || die "no server in $DIR (run start first)"
  # shellcheck disable=SC1091
  source "$DIR/server.env"
  echo "ORCH_TEST_PG_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DATABASE"
  echo "ORCH_TEST_PG_USER=$PG_USER"
  echo "ORCH_TEST_PG_PASSWORD=$PG_PASSWORD"
}

psql_super() {
  as_runner "$PG_BIN_DIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PG_PORT" -U postgres -d postgres "$@"
}

cmd_available() {
  find_pg_bin_dir
  set_run_as
  command -v setpriv >/dev/null 2>&1 || [ -z "$RUN_AS" ] || die "setpriv is missing (util-linux)"
}

cmd_stop() {
  local pid
  find_pg_bin_dir
  set_run_as
  pid=$(server_pid)
  [ -n "$pid" ] || return 0
  as_runner "$PG_BIN_DIR/pg_ctl" -D "$DIR/data" -m fast -t "$STOP_GRACE" -w stop >/dev/null 2>&1 \
    || as_runner "$PG_BIN_DIR/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 \
    || stop_pid "$pid" 5 KILL
  wait_until 10 "the server of $DIR to exit" pid_gone "$pid"
}

cmd_restart() {
  local pid down=${1:-0}
  [[ "$down" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "down-seconds '$down': a number of seconds"
  find_pg_bin_dir
  set_run_as
  [ -f "$DIR/server.env" ] || die "no server in $DIR (run start first)"
  pid=$(server_pid)
  if [ -n "$pid" ]; then
    # fast, not immediate: this test server runs without fsync and synchronous_commit, so a crash would lose commits
    as_runner "$PG_BIN_DIR/pg_ctl" -D "$DIR/data" -m fast -t "$STOP_GRACE" -w stop >/dev/null 2>&1 || stop_pid "$pid" 5 KILL
    wait_until 10 "the server of $DIR to exit" pid_gone "$pid"
  fi
  sleep "$down"
  as_runner "$PG_BIN_DIR/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -t "$START_TIMEOUT" -w start >/dev/null \
    || { tail_log "$DIR/postgres.log"; die "the server did not start again"; }
}

cmd_start() {
  local database=${1:-orchestrator_test} user=${2:-orch_test} password
  [[ "$database" =~ ^[a-z_][a-z0-9_]*$ ]] || die "database name '$database': lower-case letters, digits, '_'"
  [[ "$user" =~ ^[a-z_][a-z0-9_]*$ ]] || die "user name '$user': lower-case letters, digits, '_'"
  find_pg_bin_dir
  set_run_as
  cmd_stop
  rm -rf "$DIR/data" "$DIR/postgres.log" "$DIR/server.env" "$DIR/env"
  if [ -n "$RUN_AS" ]; then
    chown "$RUN_AS:" "$DIR"
    chmod 700 "$DIR"
    as_runner test -x "$DIR" || die "user $RUN_AS cannot reach $DIR (every parent must be searchable)"
  fi
  PG_PORT=$(free_port)
  password=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
  as_runner "$PG_BIN_DIR/initdb" -D "$DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 || { tail_log "$DIR/initdb.log"; die "initdb failed"; }
  cat >>"$DIR/data/postgresql.conf" <<EOF
# postgres-server.sh: a throwaway test server
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$DIR'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
EOF
  as_runner "$PG_BIN_DIR/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -t "$START_TIMEOUT" -w start >/dev/null \
    || { tail_log "$DIR/postgres.log"; die "the server did not start"; }
  psql_super -c "CREATE ROLE $user LOGIN CREATEDB PASSWORD '$password'" \
    -c "CREATE DATABASE $database OWNER $user" >/dev/null
  printf 'PG_PORT=%s\nPG_DATABASE=%s\nPG_USER=%s\nPG_PASSWORD=%s\nPG_BIN_DIR=%s\n' \
    "$PG_PORT" "$database" "$user" "$password" "$PG_BIN_DIR" >"$DIR/server.env"
  print_env | sed 's/^/export /' >"$DIR/env"
  note "PostgreSQL $("$PG_BIN_DIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (data $DIR/data${RUN_AS:+, user $RUN_AS})"
  print_env
}

[ $# -ge 1 ] || usage
command=$1
shift
case "$command" in
  available) cmd_available ;;
  start|stop|restart|env)
    [ $# -ge 1 ] || usage
    DIR=$(abs_dir "$1")
    shift
    case "$command" in
      start) cmd_start "$@" ;;
      stop) cmd_stop ;;
      restart) cmd_restart "$@" ;;
      env) print_env ;;
    esac
    ;;
  *) usage ;;
esac
