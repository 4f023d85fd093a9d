#!/usr/bin/env bash
# A real Patroni + PostgreSQL cluster on loopback for tests and demos, with etcd (v3 API) as its DCS. Each node has
# its own PostgreSQL port and REST API port on 127.0.0.1; config, data, log and pid under <dir>/<name>/. PostgreSQL
# refuses to run as root, so when called as root the nodes run as the `postgres` user (the node directories are
# chown'ed to it; every parent of <dir> must be searchable by it). Debian packages: patroni, postgresql, etcd-server.
#
#   patroni-cluster.sh start <dir> [n=3] [name-prefix=pg] [--etcd host:port,...]
#        starts n nodes <prefix>-0 .. <prefix>-(n-1); without --etcd it first starts its own 3-member etcd cluster
#        under <dir>/etcd (etcd-cluster.sh). Returns when one node leads and the n-1 others stream from it; prints
#        one JSON line: {"dir","scope","etcd","leader","nodes":[{"name","restApi","pgPort","pid"}…]}
#   patroni-cluster.sh info <dir>              the same JSON line, as things are now (leader from GET /cluster)
#   patroni-cluster.sh stop <dir>              stops every node (replicas first), then its own etcd, if any
#   patroni-cluster.sh node-stop  <dir> <name> SIGTERM to Patroni: it stops PostgreSQL (a leader hands over the lock)
#   patroni-cluster.sh node-kill  <dir> <name> SIGKILL to Patroni and to PostgreSQL's whole process group (a crash)
#   patroni-cluster.sh node-start <dir> <name> starts Patroni again on its ports and data; returns once its REST API
#                                              answers (no-op if it runs)
#   patroni-cluster.sh node-start-held <dir> <name>  starts the node through the hold-back agent
#                                              (config/compose/holdback-agent.py) as a compose would: Patroni runs only
#                                              once released (POST /release on the node's holdPort), when a leader
#                                              already runs, or when the node has no data yet; returns once the agent
#                                              answers (no-op if it runs). Its releases go to <dir>/<name>/holdback.events
#   patroni-cluster.sh wait-streaming <dir> [timeout=60]   waits for one leader and n-1 streaming replicas
#   patroni-cluster.sh prepare <dir> <name>    a further node, not started: ports and config only; its node-start
#                                              clones the leader and streams from it (info and stop include it;
#                                              wait-streaming counts the nodes of start only)
#
# TEST-ONLY SECRETS: the superuser is postgres / fixture-superuser-secret, replication replicator /
# fixture-replication-secret, pg_rewind rewind_user / fixture-rewind-secret (override with PATRONI_FIXTURE_SUPERUSER_
# PASSWORD, ..._REPLICATION_PASSWORD, ..._REWIND_PASSWORD). The REST API has no authentication. Never use these
# settings outside a test machine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PATRONI_BIN=${PATRONI_BIN:-patroni}
PG_BIN_DIR=${PG_BIN_DIR:-}
PYTHON=${PYTHON:-/usr/bin/python3}
HOLDBACK_AGENT=${HOLDBACK_AGENT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../config/compose" && pwd)/holdback-agent.py}
START_TIMEOUT=${START_TIMEOUT:-90}
STOP_GRACE=${STOP_GRACE:-30}
SUPERUSER_PASSWORD=${PATRONI_FIXTURE_SUPERUSER_PASSWORD:-fixture-superuser-secret}
REPLICATION_PASSWORD=${PATRONI_FIXTURE_REPLICATION_PASSWORD:-fixture-replication-secret}
REWIND_PASSWORD=${PATRONI_FIXTURE_REWIND_PASSWORD:-fixture-rewind-secret}

usage() {
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

node_dir() { echo "$DIR/$1"; }

load_node() {
  local env
  env="$(node_dir "$1")/node.env"
  [ -f "$env" ] || die "no node $1 in $DIR (no $env; run start first)"
  # shellcheck disable=SC1090
  source "$env"
}

load_cluster() {
  [ -f "$DIR/cluster.env" ] || die "no cluster in $DIR (run start first)"
  # shellcheck disable=SC1090
  source "$DIR/cluster.env"
}

node_names() {
  [ -f "$DIR/nodes" ] || die "no cluster in $DIR (run start first)"
  cat "$DIR/nodes"
}

# The nodes of start and the prepared ones.
all_node_names() {
  node_names
  if [ -f "$DIR/prepared" ]; then cat "$DIR/prepared"; fi
}

node_pid() {
  local pid
  pid=$(read_pid "$(node_dir "$1")/pid")
  if [ -n "$pid" ] && pid_is "$pid" "$(node_dir "$1")/patroni.yml"; then echo "$pid"; else echo 0; fi
}

# The postmaster of the node, from postmaster.pid, if it runs (0 otherwise).
postmaster_pid() {
  local dir pid
  dir=$(node_dir "$1")
  pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null | tr -dc '0-9' || true)
  if [ -n "$pid" ] && pid_is "$pid" "$dir/data"; then echo "$pid"; else echo 0; fi
}

node_json() {
  load_node "$1"
  printf '{"name":"%s","restApi":"http://127.0.0.1:%s","pgPort":%s,"holdPort":%s,"pid":%s}' \
    "$1" "$REST_PORT" "$PG_PORT" "${HOLD_PORT:-0}" "$(node_pid "$1")"
}

# GET <url> and print one field of the JSON answer via a Python expression on `j` (empty on any failure).
json_get() {
  local url=$1 expr=$2
  curl -sS --max-time 3 "$url" 2>/dev/null | "$PYTHON" -c "
import json, sys
try:
    j = json.load(sys.stdin)
    v = $expr
    print('' if v is None else v)
except Exception:
    pass
" 2>/dev/null || true
}

# The leader's name as any running node's GET /cluster reports it (empty if none).
current_leader() {
  local name leader
  for name in $(all_node_names); do
    load_node "$name"
    leader=$(json_get "http://127.0.0.1:$REST_PORT/cluster" \
      "next((m['name'] for m in j['members'] if m['role'] in ('leader', 'standby_leader') and m.get('state') == 'running'), None)")
    if [ -n "$leader" ]; then
      echo "$leader"
      return 0
    fi
  done
}

cluster_json() {
  local first=1 nodes="" name
  load_cluster
  for name in $(all_node_names); do
    nodes="$nodes$([ $first = 1 ] || echo ,)$(node_json "$name")"
    first=0
  done
  printf '{"dir":"%s","scope":"%s","etcd":"%s","leader":"%s","nodes":[%s]}\n' \
    "$DIR" "$SCOPE" "$ETCD_HOSTS" "$(current_leader)" "$nodes"
}

# One leader and n-1 replicas that stream from it: GET /cluster shows them all running, and the leader's GET /patroni
# lists n-1 wal senders in state streaming.
all_streaming() {
  local n leader streaming members_running
  n=$(node_names | wc -l)
  leader=$(current_leader)
  [ -n "$leader" ] || return 1
  load_node "$leader"
  members_running=$(json_get "http://127.0.0.1:$REST_PORT/cluster" \
    "sum(1 for m in j['members'] if m.get('state') == 'running')")
  streaming=$(json_get "http://127.0.0.1:$REST_PORT/patroni" \
    "sum(1 for r in j.get('replication', []) if r.get('state') == 'streaming')")
  [ "${members_running:-0}" = "$n" ] && [ "${streaming:-0}" = "$((n - 1))" ]
}

cmd_wait_streaming() {
  local timeout=${1:-$START_TIMEOUT}
  if ! wait_until "$timeout" "a leader and $(($(node_names | wc -l) - 1)) streaming replicas" all_streaming; then
    for name in $(node_names); do tail_log "$(node_dir "$name")/patroni.log" 15; done
    die "the cluster in $DIR did not reach a leader with streaming replicas"
  fi
}

launch() {
  local name=$1 dir
  dir=$(node_dir "$name")
  load_node "$name"
  launch_process "$name" "$(node_pid "$name")" "$REST_PORT" "REST API port" "$dir/pid" "$dir/patroni.log" \
    "$PATRONI_BIN" "$dir/patroni.yml"
}

# The node through the hold-back agent: the agent is the node's process (its command line names patroni.yml, so
# node_pid finds it), Patroni its child, started when the agent releases it.
launch_held() {
  local name=$1 dir
  dir=$(node_dir "$name")
  load_node "$name"
  [ -n "${HOLD_PORT:-}" ] || die "$name has no hold-back port (a cluster started before node-start-held existed)"
  launch_process "$name" "$(node_pid "$name")" "$HOLD_PORT" "hold-back port" "$dir/pid" "$dir/patroni.log" \
    "$PYTHON" "$HOLDBACK_AGENT" --port "$HOLD_PORT" --bind 127.0.0.1 --data-dir "$dir/data" \
    --patronictl-config "$dir/patroni.yml" --events "$dir/holdback.events" --pg-controldata "$PG_BIN_DIR/pg_controldata" \
    -- "$PATRONI_BIN" "$dir/patroni.yml"
}

agent_answers() {
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$1/sequence"
}

rest_api_answers() {
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$1/patroni"
}

wait_rest_api() {
  local name=$1 dir
  dir=$(node_dir "$name")
  load_node "$name"
  wait_started "$name" "$dir/pid" "$dir/patroni.log" 30 "$name's REST API on $REST_PORT" rest_api_answers "$REST_PORT"
}

kill_postmaster() {
  local name=$1 pm
  pm=$(postmaster_pid "$name")
  if [ "$pm" != 0 ]; then
    # the postmaster leads its own process group (Patroni starts it with setsid): its backends go with it
    kill -KILL -- "-$pm" 2>/dev/null || kill -KILL "$pm" 2>/dev/null || true
    wait_until 10 "postmaster $pm of $name to die" pid_gone "$pm" || die "postmaster $pm of $name survived SIGKILL"
  fi
}

halt() {
  local name=$1 signal=$2 pid pm
  load_node "$name"
  pid=$(node_pid "$name")
  if [ "$signal" = KILL ]; then
    # the node's whole process group: a hold-back agent and the Patroni it started go together (a crash)
    [ "$pid" = 0 ] || kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    kill_postmaster "$name"
    [ "$pid" = 0 ] || wait_until 10 "$name (pid $pid) to die" pid_gone "$pid" || die "$name survived SIGKILL"
  else
    if [ "$pid" = 0 ]; then
      note "$name is not running"
    else
      stop_pid "$pid" "$STOP_GRACE" TERM || die "could not stop $name (pid $pid)"
    fi
    pm=$(postmaster_pid "$name")
    if [ "$pm" != 0 ]; then
      note "$name: PostgreSQL (pid $pm) outlived Patroni; fast shutdown"
      stop_pid "$pm" 15 INT || kill_postmaster "$name"
    fi
  fi
  rm -f "$(node_dir "$name")/pid"
}

cleanup_previous() {
  local name
  if [ -f "$DIR/nodes" ]; then
    for name in $(all_node_names); do
      [ -f "$(node_dir "$name")/node.env" ] || continue
      if [ "$(node_pid "$name")" != 0 ] || [ "$(postmaster_pid "$name")" != 0 ]; then
        note "killing leftover node $name from a previous run"
        halt "$name" KILL
      fi
      rm -rf "${DIR:?}/$name"
    done
  fi
  if [ -f "$DIR/etcd/members" ]; then
    "$WORKLOADS_DIR/etcd-cluster.sh" stop "$DIR/etcd" || true
  fi
  rm -rf "${DIR:?}/etcd" "$DIR/nodes" "$DIR/prepared" "$DIR/cluster.env"
}

write_config() {
  local name=$1 dir socket_dir hosts_yaml host
  dir=$(node_dir "$name")
  load_node "$name"
  socket_dir=$dir
  # a Unix socket path must stay under 108 bytes
  [ ${#socket_dir} -lt 80 ] || socket_dir=/tmp
  hosts_yaml=""
  for host in ${ETCD_HOSTS//,/ }; do hosts_yaml="$hosts_yaml    - $host"$'\n'; done
  cat >"$dir/patroni.yml" <<EOF
# Generated by workloads/patroni-cluster.sh. TEST-ONLY passwords: never use outside a test machine.
scope: $SCOPE
namespace: /service/
name: $name
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$REST_PORT
  connect_address: 127.0.0.1:$REST_PORT
etcd3:
  hosts:
$hosts_yaml
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    primary_start_timeout: 10
    synchronous_mode: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
        max_connections: 50
  initdb:
    - encoding: UTF8
    - locale: C
postgresql:
  listen: 127.0.0.1:$PG_PORT
  connect_address: 127.0.0.1:$PG_PORT
  data_dir: $dir/data
  bin_dir: $PG_BIN_DIR
  pgpass: $dir/pgpass
  pg_ctl_timeout: 30
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
  basebackup:
    - checkpoint: fast
  authentication:
    superuser:
      username: postgres
      password: $SUPERUSER_PASSWORD
    replication:
      username: replicator
      password: $REPLICATION_PASSWORD
    rewind:
      username: rewind_user
      password: $REWIND_PASSWORD
  parameters:
    unix_socket_directories: '$socket_dir'
    shared_buffers: 32MB
    logging_collector: "off"
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
watchdog:
  mode: "off"
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
EOF
  chmod 600 "$dir/patroni.yml"
}

cmd_start() {
  local n=3 prefix=pg etcd="" positional=() name i dir etcd_json
  while [ $# -gt 0 ]; do
    case "$1" in
      --etcd) [ $# -ge 2 ] || usage; etcd=$2; shift 2 ;;
      --etcd=*) etcd=${1#--etcd=}; shift ;;
      *) positional+=("$1"); shift ;;
    esac
  done
  [ ${#positional[@]} -le 2 ] || usage
  n=${positional[0]:-3}
  prefix=${positional[1]:-pg}
  [[ "$n" =~ ^[1-9]$ ]] || die "n must be a number from 1 to 9, not '$n'"
  [[ "$prefix" =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die "name prefix must be letters, digits and dashes: '$prefix'"
  need_cmd "$PATRONI_BIN" "apt-get install patroni"
  need_cmd curl "apt-get install curl"
  [ -x "$PYTHON" ] || die "$PYTHON not found (Patroni's own interpreter; set PYTHON)"
  find_pg_bin_dir
  set_run_as
  cleanup_previous

  if [ -z "$etcd" ]; then
    etcd_json=$("$WORKLOADS_DIR/etcd-cluster.sh" start "$DIR/etcd" 3 etcd) || die "could not start etcd under $DIR/etcd"
    etcd=$(echo "$etcd_json" | "$PYTHON" -c "import json,sys; print(','.join(m['clientURL'] for m in json.load(sys.stdin)['members']))")
    OWN_ETCD=1
  else
    OWN_ETCD=0
  fi
  ETCD_HOSTS=$(echo "$etcd" | sed -e 's#https\?://##g')
  SCOPE="fixture-$(date +%s)-$RANDOM"   # fresh, so leftover keys in a shared etcd never meet this cluster
  printf 'SCOPE=%s\nETCD_HOSTS=%s\nOWN_ETCD=%s\nPG_BIN_DIR=%s\n' "$SCOPE" "$ETCD_HOSTS" "$OWN_ETCD" "$PG_BIN_DIR" \
    >"$DIR/cluster.env"

  local names=()
  for ((i = 0; i < n; i++)); do
    name="$prefix-$i"
    names+=("$name")
    dir=$(node_dir "$name")
    mkdir -p "$dir"
    printf 'REST_PORT=%s\nPG_PORT=%s\nHOLD_PORT=%s\n' "$(free_port)" "$(free_port)" "$(free_port)" >"$dir/node.env"
    write_config "$name"
    if [ -n "$RUN_AS" ]; then
      chown -R "$RUN_AS:" "$dir"
      as_runner test -w "$dir" ||
        die "the $RUN_AS user cannot write $dir: every parent directory of $DIR must be searchable (chmod o+x)"
    fi
  done
  printf '%s\n' "${names[@]}" >"$DIR/nodes"
  for name in "${names[@]}"; do launch "$name"; done
  for name in "${names[@]}"; do wait_rest_api "$name"; done
  cmd_wait_streaming "$START_TIMEOUT"
  cluster_json
}

cmd_stop() {
  local name leader
  if [ -f "$DIR/nodes" ]; then
    load_cluster
    leader=$(current_leader)
    # the replicas together, then the leader (so it never fails over to a replica on its way down)
    local pids=() failed=0
    for name in $(all_node_names); do
      [ "$name" = "$leader" ] || { halt "$name" TERM & pids+=($!); }
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    [ -z "$leader" ] || halt "$leader" TERM || failed=1
    [ $failed = 0 ] || note "some nodes did not stop cleanly"
  else
    note "no Patroni cluster in $DIR"
  fi
  if [ -f "$DIR/etcd/members" ]; then
    "$WORKLOADS_DIR/etcd-cluster.sh" stop "$DIR/etcd"
  fi
}

cmd_prepare() {
  local name=$1 dir
  [[ "$name" =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die "node name must be letters, digits and dashes: '$name'"
  load_cluster
  set_run_as
  dir=$(node_dir "$name")
  if [ -f "$dir/node.env" ]; then
    note "$name is prepared already"
  else
    mkdir -p "$dir"
    printf 'REST_PORT=%s\nPG_PORT=%s\nHOLD_PORT=%s\n' "$(free_port)" "$(free_port)" "$(free_port)" >"$dir/node.env"
    write_config "$name"
    [ -z "$RUN_AS" ] || chown -R "$RUN_AS:" "$dir"
    echo "$name" >>"$DIR/prepared"
  fi
  node_json "$name"
  echo
}

cmd_node_start_held() {
  local name=$1 dir
  load_cluster
  load_node "$name"
  set_run_as
  dir=$(node_dir "$name")
  if [ "$(node_pid "$name")" != 0 ]; then
    # running already (with or without an agent): nothing to start, as node-start
    note "$name already running (pid $(node_pid "$name"))"
    node_json "$name"
    echo
    return 0
  fi
  launch_held "$name"
  wait_started "$name" "$dir/pid" "$dir/patroni.log" 30 "$name's hold-back agent on $HOLD_PORT" agent_answers "$HOLD_PORT"
  node_json "$name"
  echo
}

cmd_node_start() {
  local name=$1
  load_cluster
  load_node "$name"
  set_run_as
  launch "$name"
  wait_rest_api "$name"
  node_json "$name"
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
  wait-streaming) cmd_wait_streaming "${1:-$START_TIMEOUT}" ;;
  node-start) [ $# -eq 1 ] || usage; cmd_node_start "$1" ;;
  node-start-held) [ $# -eq 1 ] || usage; cmd_node_start_held "$1" ;;
  prepare) [ $# -eq 1 ] || usage; cmd_prepare "$1" ;;
  node-stop) [ $# -eq 1 ] || usage; halt "$1" TERM ;;
  node-kill) [ $# -eq 1 ] || usage; halt "$1" KILL ;;
  *) usage ;;
esac
