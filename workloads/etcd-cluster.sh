#!/usr/bin/env bash
# A real etcd cluster on loopback for tests and demos: each member with its own client and peer port, its data,
# config, log and pid under <dir>/<name>/. Debian's etcd-server package (etcd 3.4) provides /usr/bin/etcd.
#
#   etcd-cluster.sh start <dir> [n=3] [name-prefix=etcd]   members <prefix>-0 .. <prefix>-(n-1); prints one JSON line
#   etcd-cluster.sh info  <dir>                            the same JSON line, pids as they are now
#   etcd-cluster.sh stop  <dir>                            stops every member (SIGTERM, then SIGKILL after 15 s)
#   etcd-cluster.sh member-stop  <dir> <name>              SIGTERM, waits until the member has exited
#   etcd-cluster.sh member-kill  <dir> <name>              SIGKILL (a crash)
#   etcd-cluster.sh member-start <dir> <name>              starts it again on its ports and data (no-op if running)
#   etcd-cluster.sh member-start-held <dir> <name>         starts it through the hold-back agent
#        (config/compose/holdback-agent.py --store etcd) as a compose would: etcd runs only once released (POST /release on
#        the member's holdPort), when another member reports a healthy cluster, or when it has no data; until then
#        GET /sequence on holdPort answers its raft log's last (term, index). Releases go to <dir>/<name>/holdback.events
#   etcd-cluster.sh member-wipe  <dir> <name>              its disk is gone (a deleted CVM): stops it, moves its data
#        aside (<dir>/<name>/data.lost-<pid>) and from now on starts it as a prepared member: empty, joining the live
#        cluster only if that lists it as added (a new member), else with its old config, as a new CVM would
#   etcd-cluster.sh prepare <dir> <name>                   a further member, not started: ports and a directory only.
#        Add it to the cluster first (POST /v3/cluster/member/add with its peerURL, as a learner or a voter); its
#        member-start then writes a config with initial-cluster-state existing and the live membership, and starts it
#        with an empty data directory whenever the cluster lists it as added but never started (a member removed
#        earlier comes back as a new one: etcd never lets a removed member ID join again)
#
# The JSON line: {"dir":…,"endpoints":"http://127.0.0.1:P,…","members":[{"name","clientURL","peerURL","holdPort","pid"}…]}
# (pid 0 for a member that is not running). The v3 JSON gateway is on each client URL: POST /v3/kv/put,
# /v3/maintenance/status, /v3/cluster/member/list, GET /health. `start` cleans up what a previous run left in <dir>
# (processes and data) and returns once every member reports healthy.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ETCD_BIN=${ETCD_BIN:-etcd}
START_TIMEOUT=${START_TIMEOUT:-45}
STOP_GRACE=${STOP_GRACE:-15}
PYTHON=${PYTHON:-python3}
HOLDBACK_AGENT=${HOLDBACK_AGENT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../config/compose" && pwd)/holdback-agent.py}

usage() {
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

member_dir() { echo "$DIR/$1"; }

load_member() {
  local name=$1 env
  env="$(member_dir "$name")/member.env"
  [ -f "$env" ] || die "no member $name in $DIR (no $env; run start first)"
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
  if [ -n "$pid" ] && pid_is "$pid" "$(member_dir "$1")/etcd.yaml"; then echo "$pid"; else echo 0; fi
}

member_json() {
  local name=$1
  load_member "$name"
  printf '{"name":"%s","clientURL":"http://127.0.0.1:%s","peerURL":"http://127.0.0.1:%s","holdPort":%s,"pid":%s}' \
    "$name" "$CLIENT_PORT" "$PEER_PORT" "${HOLD_PORT:-0}" "$(member_pid "$name")"
}

cluster_json() {
  local first=1 endpoints="" members=""
  [ -f "$DIR/members" ] || die "no cluster in $DIR (run start first)"
  for name in $(member_names); do
    load_member "$name"
    endpoints="$endpoints${endpoints:+,}http://127.0.0.1:$CLIENT_PORT"
    members="$members$([ $first = 1 ] || echo ,)$(member_json "$name")"
    first=0
  done
  printf '{"dir":"%s","endpoints":"%s","members":[%s]}\n' "$DIR" "$endpoints" "$members"
}

healthy() {
  http GET "http://127.0.0.1:$1/health" 2>/dev/null | grep -q '"health":"true"'
}

# Starts the member's etcd in the background unless it runs.
launch() {
  local name=$1 dir
  dir=$(member_dir "$name")
  load_member "$name"
  launch_process "$name" "$(member_pid "$name")" "$CLIENT_PORT" "client port" "$dir/pid" "$dir/etcd.log" \
    "$ETCD_BIN" --config-file "$dir/etcd.yaml"
}

# The member through the hold-back agent: the agent is the member's process (its command line names etcd.yaml, so
# member_pid finds it), etcd its child, started when the agent releases it.
launch_held() {
  local name=$1 dir others="" other
  dir=$(member_dir "$name")
  for other in $(member_names); do
    [ "$other" != "$name" ] || continue
    others="$others${others:+,}$(load_member "$other"; echo "http://127.0.0.1:$CLIENT_PORT")"
  done
  load_member "$name"
  [ -n "${HOLD_PORT:-}" ] || die "$name has no hold-back port (a cluster started before member-start-held existed)"
  launch_process "$name" "$(member_pid "$name")" "$HOLD_PORT" "hold-back port" "$dir/pid" "$dir/etcd.log" \
    "$PYTHON" "$HOLDBACK_AGENT" --store etcd --port "$HOLD_PORT" --bind 127.0.0.1 --data-dir "$dir/data" \
    --etcd-endpoints "$others" --events "$dir/holdback.events" -- "$ETCD_BIN" --config-file "$dir/etcd.yaml"
}

agent_answers() {
  curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$1/sequence"
}

wait_listening() {
  local name=$1 dir
  dir=$(member_dir "$name")
  load_member "$name"
  wait_started "$name" "$dir/pid" "$dir/etcd.log" "$START_TIMEOUT" "$name to listen on $CLIENT_PORT" port_open "$CLIENT_PORT"
}

halt() {
  local name=$1 signal=$2 pid
  pid=$(member_pid "$name")
  if [ "$pid" = 0 ]; then
    note "$name is not running"
  elif [ "$signal" = KILL ]; then
    # the member's whole process group: a hold-back agent and the etcd it started go together (a crash)
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait_until 10 "$name (pid $pid) to die" pid_gone "$pid" || die "$name (pid $pid) survived SIGKILL"
  else
    stop_pid "$pid" "$STOP_GRACE" TERM || die "could not stop $name (pid $pid)"
  fi
  rm -f "$(member_dir "$name")/pid"
}

# Whatever a previous run left in DIR: its processes (only those whose command line names DIR) and its data.
cleanup_previous() {
  local pidfile pid
  for pidfile in "$DIR"/*/pid; do
    [ -f "$pidfile" ] || continue
    pid=$(read_pid "$pidfile")
    if [ -n "$pid" ] && pid_is "$pid" "$DIR/"; then
      note "stopping leftover etcd pid $pid from a previous run"
      stop_pid "$pid" 5 TERM || true
    fi
  done
  if [ -f "$DIR/members" ]; then
    while read -r name; do rm -rf "${DIR:?}/$name"; done <"$DIR/members"
  fi
  rm -f "$DIR/members"
}

# write_config <name> <initial-cluster> <initial-cluster-token> <new|existing>
write_config() {
  local name=$1 initial=$2 token=$3 state=$4 dir
  dir=$(member_dir "$name")
  load_member "$name"
  cat >"$dir/etcd.yaml" <<EOF
name: $name
data-dir: $dir/data
listen-client-urls: http://127.0.0.1:$CLIENT_PORT
advertise-client-urls: http://127.0.0.1:$CLIENT_PORT
listen-peer-urls: http://127.0.0.1:$PEER_PORT
initial-advertise-peer-urls: http://127.0.0.1:$PEER_PORT
initial-cluster: $initial
initial-cluster-token: $token
initial-cluster-state: $state
heartbeat-interval: 100
election-timeout: 1000
enable-v2: false
enable-grpc-gateway: true
logger: zap
log-outputs: [stderr]
log-level: info
EOF
}

cmd_prepare() {
  local name=$1 dir
  [[ "$name" =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die "member name must be letters, digits and dashes: '$name'"
  [ -f "$DIR/members" ] || die "no cluster in $DIR (run start first)"
  dir=$(member_dir "$name")
  if [ -f "$dir/member.env" ]; then
    note "$name is prepared already"
  else
    mkdir -p "$dir"
    printf 'CLIENT_PORT=%s\nPEER_PORT=%s\nJOINS=1\n' "$(free_port)" "$(free_port)" >"$dir/member.env"
    echo "$name" >>"$DIR/members"
  fi
  member_json "$name"
  echo
}

# The live membership from the first other member that answers, as two lines: "name=peerURL,..." (the member added
# with <my peer URL>, not started and so without a name yet, under <my name>), then "fresh" when the cluster lists that
# member as added but never started, "known" when it has started before, "absent" when it is not a member.
live_membership() {
  local me=$1 my_url=$2 other
  for other in $(member_names); do
    [ "$other" != "$me" ] || continue
    (load_member "$other"
     curl -sS --max-time 3 -X POST -d '{}' "http://127.0.0.1:$CLIENT_PORT/v3/cluster/member/list" 2>/dev/null) |
      "${PYTHON:-python3}" -c "
import json, sys
members = json.load(sys.stdin)['members']
mine = [m for m in members if '$my_url' in m.get('peerURLs', [])]
print(','.join((m.get('name') or '$me') + '=' + m['peerURLs'][0] for m in members))
print('fresh' if mine and not mine[0].get('name') else 'known' if mine else 'absent')
" 2>/dev/null && return 0
  done
  return 1
}

# A prepared member joins an existing cluster: the config names the live membership, and a member the cluster lists as
# added but never started starts from an empty data directory (an earlier, removed member's data is moved aside).
prepare_join() {
  local name=$1 dir answer initial state
  dir=$(member_dir "$name")
  load_member "$name"
  answer=$(live_membership "$name" "http://127.0.0.1:$PEER_PORT") || die "$name: no running member answers its member list"
  initial=$(echo "$answer" | sed -n 1p)
  state=$(echo "$answer" | sed -n 2p)
  case "$state" in
    absent) die "$name is not a member of the cluster: add it first (POST /v3/cluster/member/add, peerURL http://127.0.0.1:$PEER_PORT)" ;;
    fresh)
      if [ -d "$dir/data" ]; then
        note "$name was removed from the cluster before: its old data moves to $dir/data.removed-$$"
        rm -rf "$dir/data.removed-$$"
        mv "$dir/data" "$dir/data.removed-$$"
      fi
      write_config "$name" "$initial" "joined-$(basename "$DIR")" existing ;;
    *) : ;;
  esac
}

cmd_start() {
  local n=${1:-3} prefix=${2:-etcd} token names=() initial="" name i dir
  [[ "$n" =~ ^[1-9][0-9]?$ ]] || die "n must be a number from 1 to 99, not '$n'"
  [[ "$prefix" =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die "name prefix must be letters, digits and dashes: '$prefix'"
  need_cmd "$ETCD_BIN" "apt-get install etcd-server"
  need_cmd curl "apt-get install curl"
  cleanup_previous
  token="fixture-$(basename "$DIR")-$$-$RANDOM"
  for ((i = 0; i < n; i++)); do
    name="$prefix-$i"
    names+=("$name")
    dir=$(member_dir "$name")
    mkdir -p "$dir"
    printf 'CLIENT_PORT=%s\nPEER_PORT=%s\nHOLD_PORT=%s\n' "$(free_port)" "$(free_port)" "$(free_port)" >"$dir/member.env"
    load_member "$name"
    initial="$initial${initial:+,}$name=http://127.0.0.1:$PEER_PORT"
  done
  for name in "${names[@]}"; do write_config "$name" "$initial" "$token" new; done
  printf '%s\n' "${names[@]}" >"$DIR/members"
  for name in "${names[@]}"; do launch "$name"; done
  for name in "${names[@]}"; do wait_listening "$name"; done
  for name in "${names[@]}"; do
    load_member "$name"
    wait_until "$START_TIMEOUT" "$name to report healthy" healthy "$CLIENT_PORT" ||
      { tail_log "$(member_dir "$name")/etcd.log"; die "$name is not healthy"; }
  done
  cluster_json
}

cmd_stop() {
  [ -f "$DIR/members" ] || { note "no cluster in $DIR"; return 0; }
  for name in $(member_names); do halt "$name" TERM; done
}

cmd_member_start_held() {
  local name=$1 dir
  load_member "$name"
  dir=$(member_dir "$name")
  if [ "$(member_pid "$name")" != 0 ]; then
    note "$name already running (pid $(member_pid "$name"))"
  else
    launch_held "$name"
    wait_started "$name" "$dir/pid" "$dir/etcd.log" 30 "$name's hold-back agent on $HOLD_PORT" agent_answers "$HOLD_PORT"
  fi
  member_json "$name"
  echo
}

cmd_member_wipe() {
  local name=$1 dir
  load_member "$name"
  dir=$(member_dir "$name")
  [ "$(member_pid "$name")" = 0 ] || halt "$name" TERM
  if [ -d "$dir/data" ]; then
    rm -rf "$dir/data.lost-$$"
    mv "$dir/data" "$dir/data.lost-$$"
    note "$name's disk is gone: its data moved to $dir/data.lost-$$"
  fi
  grep -q '^JOINS=1$' "$dir/member.env" || echo 'JOINS=1' >>"$dir/member.env"
}

cmd_member_start() {
  local name=$1
  load_member "$name"
  if [ "${JOINS:-0}" = 1 ] && [ "$(member_pid "$name")" = 0 ]; then prepare_join "$name"; fi
  launch "$name"
  wait_listening "$name"
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
  prepare) [ $# -eq 1 ] || usage; cmd_prepare "$1" ;;
  member-stop) [ $# -eq 1 ] || usage; load_member "$1"; halt "$1" TERM ;;
  member-kill) [ $# -eq 1 ] || usage; load_member "$1"; halt "$1" KILL ;;
  member-wipe) [ $# -eq 1 ] || usage; cmd_member_wipe "$1" ;;
  *) usage ;;
esac
