#!/usr/bin/env bash
# A real MariaDB Galera cluster on loopback for tests: each member with its own SQL, Galera (gmcast), IST, SST and
# hold-back ports, its data, config, error log and pid under <dir>/<name>/. Debian's mariadb-server (10.11) and galera-4
# (26.4) provide mariadbd and libgalera_smm.so; state transfers use rsync. Run as root, the servers run as mysql.
#
#   galera-cluster.sh start <dir> [n=3] [name-prefix=galera]  members <prefix>-0 .. <prefix>-(n-1), the first
#        bootstrapping the cluster, the others joining it by SST; returns once every member is Synced; one JSON line
#   galera-cluster.sh info  <dir>                            the same JSON line, pids as they are now
#   galera-cluster.sh stop  <dir>                            stops every member (SIGTERM, then SIGKILL after 60 s)
#   galera-cluster.sh member-stop  <dir> <name>              SIGTERM, waits until it has exited (grastate.dat keeps its seqno)
#   galera-cluster.sh member-kill  <dir> <name>              SIGKILL (a crash: grastate.dat says seqno -1)
#   galera-cluster.sh member-start <dir> <name>              starts it again, joining the members that run
#   galera-cluster.sh member-start-held <dir> <name>         starts it through the hold-back agent
#        (config/compose/holdback-agent.py --store galera) as a compose would: mariadbd runs only once released (POST
#        /release on the member's holdPort), when another member's Galera port answers, or when it has no data; until
#        then GET /sequence on holdPort answers its grastate.dat seqno (mariadbd --wsrep-recover when it is -1); once
#        released GET /health there answers 200 while the server is Synced
#   galera-cluster.sh hold-all <dir>                         restarts each running member, one at a time, through its
#        hold-back agent (it joins the others by IST and is Synced before the next): a cluster run as composes run it
#   galera-cluster.sh member-run <dir> <name>                the workload command the agent runs: mariadbd bootstrapping a new
#        cluster when HOLDBACK_ROLE is seed (--wsrep-new-cluster), joining HOLDBACK_PRIMARIES when it is follower
#   galera-cluster.sh sql <dir> <name> <statement>           runs SQL on the member (its socket, as root), tab-separated
#
# The JSON line: {"dir":…,"members":[{"name","port","galeraPort","holdPort","socket","pid"}…]} (pid 0: not running).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MARIADBD=${MARIADBD:-/usr/sbin/mariadbd}
START_TIMEOUT=${START_TIMEOUT:-90}
STOP_GRACE=${STOP_GRACE:-60}
PYTHON=${PYTHON:-/usr/bin/python3}
SCRIPT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
HOLDBACK_AGENT=${HOLDBACK_AGENT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../config/compose" && pwd)/holdback-agent.py}

usage() {
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

member_dir() { echo "$DIR/$1"; }

load_member() {
  local env
  env="$(member_dir "$1")/member.env"
  [ -f "$env" ] || die "no member $1 in $DIR (no $env; run start first)"
  # shellcheck disable=SC1090
  source "$env"
}

member_names() {
  [ -f "$DIR/members" ] || die "no cluster in $DIR (run start first)"
  cat "$DIR/members"
}

member_pid() {
  local pid
  pid=$(read_pid "$(member_dir "$1")/pid")
  if [ -n "$pid" ] && pid_is "$pid" "$(member_dir "$1")/my.cnf"; then echo "$pid"; else echo 0; fi
}

member_json() {
  load_member "$1"
  printf '{"name":"%s","port":%s,"galeraPort":%s,"holdPort":%s,"socket":"%s","pid":%s}' "$1" "$PORT" "$GALERA_PORT" \
    "$HOLD_PORT" "$(member_dir "$1")/mysqld.sock" "$(member_pid "$1")"
}

cluster_json() {
  local first=1 members=""
  for name in $(member_names); do
    members="$members$([ $first = 1 ] || echo ,)$(member_json "$name")"
    first=0
  done
  printf '{"dir":"%s","members":[%s]}\n' "$DIR" "$members"
}

# The gmcast addresses of the named members (all when none are named), comma-separated.
galera_addresses() {
  local names=${1:-$(member_names | paste -sd, -)} out="" name
  for name in ${names//,/ }; do
    out="$out${out:+,}$(load_member "$name"; echo "127.0.0.1:$GALERA_PORT")"
  done
  echo "$out"
}

sql() {
  local name=$1
  shift
  mariadb --no-defaults -uroot -S "$(member_dir "$name")/mysqld.sock" -N -B -e "$*"
}

synced() {
  [ "$(sql "$1" "SHOW STATUS LIKE 'wsrep_local_state'" 2>/dev/null | cut -f2)" = 4 ]
}

write_config() {
  local name=$1 dir
  dir=$(member_dir "$name")
  load_member "$name"
  cat >"$dir/my.cnf" <<EOF
[mysqld]
datadir=$dir/data
socket=$dir/mysqld.sock
port=$PORT
bind-address=127.0.0.1
pid-file=$dir/mysqld.pid
log-error=$dir/error.log
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=32M
innodb_log_file_size=16M
performance_schema=OFF
skip-name-resolve
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=fixture-$(basename "$DIR")
wsrep_node_name=$name
wsrep_node_address=127.0.0.1:$GALERA_PORT
wsrep_cluster_address=gcomm://$(galera_addresses)
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$GALERA_PORT;ist.recv_addr=127.0.0.1:$IST_PORT;gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$SST_PORT
EOF
  chown -R mysql: "$dir"
}

# mariadbd for the member, in the background as mysql; extra arguments after the name.
launch() {
  local name=$1 dir
  shift
  dir=$(member_dir "$name")
  load_member "$name"
  launch_process "$name" "$(member_pid "$name")" "$PORT" "SQL port" "$dir/pid" "$dir/run.log" \
    "$MARIADBD" --defaults-file="$dir/my.cnf" "$@"
}

launch_held() {
  local name=$1 dir others="" other
  dir=$(member_dir "$name")
  for other in $(member_names); do
    [ "$other" != "$name" ] || continue
    others="$others${others:+,}$(load_member "$other"; echo "127.0.0.1:$GALERA_PORT")"
  done
  load_member "$name"
  launch_process "$name" "$(member_pid "$name")" "$HOLD_PORT" "hold-back port" "$dir/pid" "$dir/run.log" \
    "$PYTHON" "$HOLDBACK_AGENT" --store galera --port "$HOLD_PORT" --bind 127.0.0.1 --data-dir "$dir/data" \
    --galera-defaults-file "$dir/my.cnf" --galera-peers "$others" --galera-socket "$dir/mysqld.sock" \
    --events "$dir/holdback.events" \
    -- "$SCRIPT" member-run "$DIR" "$name"
}

cmd_member_run() {
  local name=$1 dir
  dir=$(member_dir "$name")
  case "${HOLDBACK_ROLE:-}" in
    seed) exec "$MARIADBD" --defaults-file="$dir/my.cnf" --wsrep-new-cluster ;;
    follower) exec "$MARIADBD" --defaults-file="$dir/my.cnf" --wsrep_cluster_address="gcomm://$(galera_addresses "${HOLDBACK_PRIMARIES:-}")" ;;
    *) exec "$MARIADBD" --defaults-file="$dir/my.cnf" ;;
  esac
}

halt() {
  local name=$1 signal=$2 pid
  pid=$(member_pid "$name")
  if [ "$pid" = 0 ]; then
    note "$name is not running"
  elif [ "$signal" = KILL ]; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    pkill -KILL -f -- "--defaults-file=$(member_dir "$name")/my.cnf" 2>/dev/null || true
    wait_until 10 "$name (pid $pid) to die" pid_gone "$pid" || die "$name (pid $pid) survived SIGKILL"
  else
    # the agent forwards SIGTERM to mariadbd; a plain mariadbd shuts down and saves its seqno
    stop_pid "$pid" "$STOP_GRACE" TERM || die "could not stop $name (pid $pid)"
  fi
  rm -f "$(member_dir "$name")/pid"
}

cleanup_previous() {
  local pidfile pid
  for pidfile in "$DIR"/*/pid; do
    [ -f "$pidfile" ] || continue
    pid=$(read_pid "$pidfile")
    if [ -n "$pid" ] && pid_is "$pid" "$DIR/"; then
      note "stopping leftover member pid $pid from a previous run"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  pkill -KILL -f -- "--defaults-file=$DIR/" 2>/dev/null || true
  if [ -f "$DIR/members" ]; then
    while read -r name; do rm -rf "${DIR:?}/$name"; done <"$DIR/members"
  fi
  rm -f "$DIR/members"
}

cmd_start() {
  local n=${1:-3} prefix=${2:-galera} names=() name i dir
  [[ "$n" =~ ^[1-9]$ ]] || die "n must be a number from 1 to 9, not '$n'"
  [[ "$prefix" =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die "name prefix must be letters, digits and dashes: '$prefix'"
  [ -x "$MARIADBD" ] || die "no $MARIADBD (apt-get install mariadb-server galera-4 rsync)"
  [ -f /usr/lib/galera/libgalera_smm.so ] || die "no Galera provider (apt-get install galera-4)"
  need_cmd rsync "apt-get install rsync"
  id mysql >/dev/null 2>&1 || die "no mysql user (apt-get install mariadb-server)"
  [ "$(id -u)" = 0 ] || die "galera-cluster.sh runs as root (the servers run as mysql)"
  RUN_AS=mysql
  cleanup_previous
  chmod 755 "$DIR"
  for ((i = 0; i < n; i++)); do
    name="$prefix-$i"
    names+=("$name")
    dir=$(member_dir "$name")
    mkdir -p "$dir"
    printf 'PORT=%s\nGALERA_PORT=%s\nIST_PORT=%s\nSST_PORT=%s\nHOLD_PORT=%s\n' "$(free_port)" "$(free_port)" \
      "$(free_port)" "$(free_port)" "$(free_port)" >"$dir/member.env"
  done
  printf '%s\n' "${names[@]}" >"$DIR/members"
  for name in "${names[@]}"; do write_config "$name"; done
  dir=$(member_dir "${names[0]}")
  mariadb-install-db --no-defaults --datadir="$dir/data" --user=mysql --auth-root-authentication-method=socket \
    --skip-test-db >"$dir/install.log" 2>&1 || { tail_log "$dir/install.log"; die "mariadb-install-db failed"; }
  chown -R mysql: "$dir"
  launch "${names[0]}" --wsrep-new-cluster
  wait_until "$START_TIMEOUT" "${names[0]} to bootstrap" synced "${names[0]}" || { tail_log "$dir/error.log"; die "${names[0]} did not bootstrap"; }
  for name in "${names[@]:1}"; do
    mkdir -p "$(member_dir "$name")/data"
    chown -R mysql: "$(member_dir "$name")"
    launch "$name"
    wait_until "$START_TIMEOUT" "$name to join (SST)" synced "$name" || { tail_log "$(member_dir "$name")/error.log"; die "$name did not join"; }
  done
  cluster_json
}

cmd_stop() {
  [ -f "$DIR/members" ] || { note "no cluster in $DIR"; return 0; }
  for name in $(member_names); do halt "$name" TERM; done
}

cmd_member_start() {
  RUN_AS=mysql
  launch "$1"
  wait_until "$START_TIMEOUT" "$1 to be Synced" synced "$1" || { tail_log "$(member_dir "$1")/error.log"; die "$1 did not join"; }
  member_json "$1"
  echo
}

cmd_hold_all() {
  local name
  for name in $(member_names); do
    halt "$name" TERM
    cmd_member_start_held "$name" >/dev/null
    wait_until "$START_TIMEOUT" "$name to rejoin through its agent" synced "$name" ||
      { tail_log "$(member_dir "$name")/error.log"; die "$name did not rejoin"; }
  done
  cluster_json
}

cmd_member_start_held() {
  local name=$1
  RUN_AS=mysql
  load_member "$name"
  if [ "$(member_pid "$name")" != 0 ]; then
    note "$name already running (pid $(member_pid "$name"))"
  else
    launch_held "$name"
    wait_started "$name" "$(member_dir "$name")/pid" "$(member_dir "$name")/run.log" 30 "$name's hold-back agent on $HOLD_PORT" \
      port_open "$HOLD_PORT"
  fi
  member_json "$name"
  echo
}

[ $# -ge 2 ] || usage
command=$1
DIR=$(abs_dir "$2")
shift 2
case "$command" in
  start) cmd_start "$@" ;;
  info) cluster_json ;;
  stop) cmd_stop ;;
  member-start) [ $# -eq 1 ] || usage; cmd_member_start "$1" ;;
  member-start-held) [ $# -eq 1 ] || usage; cmd_member_start_held "$1" ;;
  member-run) [ $# -eq 1 ] || usage; cmd_member_run "$1" ;;
  member-stop) [ $# -eq 1 ] || usage; load_member "$1"; halt "$1" TERM ;;
  member-kill) [ $# -eq 1 ] || usage; load_member "$1"; halt "$1" KILL ;;
  hold-all) cmd_hold_all ;;
  sql) [ $# -ge 2 ] || usage; name=$1; shift; sql "$name" "$@" ;;
  *) usage ;;
esac
