# Shared helpers of the workload fixtures (sourced, not run). Loopback only; every wait has a timeout.
# shellcheck shell=bash

WORKLOADS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

note() {
  echo "$(basename "$0"): $*" >&2
}

# An absolute path for a directory given on the command line (created if missing).
abs_dir() {
  mkdir -p "$1" || die "cannot create directory $1"
  (cd "$1" && pwd)
}

# True when a TCP socket (any state) uses this local port, on any address, IPv4 or IPv6.
port_in_use() {
  local hex
  hex=$(printf ':%04X' "$1")
  awk -v h="$hex" 'FNR > 1 && substr($2, length($2) - 4) == h { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Prints a free loopback port below the ephemeral range that no other caller holds. Callers run in command
# substitutions (subshells) and in parallel test forks, so a shell variable cannot remember what was handed out:
# each port is claimed with an atomic mkdir under PORT_CLAIMS_DIR until its member's process binds it; claims
# older than an hour are released. Probes random ports, gives up after 200 tries.
PORT_CLAIMS_DIR="${PORT_CLAIMS_DIR:-${TMPDIR:-/tmp}/statefulcvm-port-claims}"
free_port() {
  local low=20000 high=32000 ephemeral_low tries=0 port
  if read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null && [ "$ephemeral_low" -gt 21000 ]; then
    high=$((ephemeral_low - 1))
  fi
  mkdir -p "$PORT_CLAIMS_DIR" || die "cannot create $PORT_CLAIMS_DIR"
  find "$PORT_CLAIMS_DIR" -mindepth 1 -maxdepth 1 -mmin +60 -exec rmdir {} + 2>/dev/null
  while [ $tries -lt 200 ]; do
    port=$((low + (RANDOM * 32768 + RANDOM) % (high - low)))
    tries=$((tries + 1))
    if ! port_in_use "$port" && mkdir "$PORT_CLAIMS_DIR/$port" 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  die "no free port found between $low and $high"
}

# True when something accepts TCP connections on 127.0.0.1:port.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when the process exists and is not a zombie.
pid_alive() {
  local pid=$1 state
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# True when the process is alive and its command line contains the given text (so a reused pid is never touched).
pid_is() {
  local pid=$1 text=$2
  pid_alive "$pid" && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$text"
}

read_pid() {
  [ -s "$1" ] && tr -dc '0-9' <"$1" || true
}

# wait_until <timeout seconds> <description> <command...>: polls every 0.2 s; fails with the description.
wait_until() {
  local timeout=$1 what=$2
  shift 2
  local deadline=$((SECONDS + timeout))
  until "$@"; do
    if [ $SECONDS -ge "$deadline" ]; then
      note "timed out after ${timeout}s waiting for $what"
      return 1
    fi
    sleep 0.2
  done
}

pid_gone() {
  ! pid_alive "$1"
}

# stop_pid <pid> <grace seconds> [signal]: sends the signal (TERM), waits for the process to end, then KILLs it.
stop_pid() {
  local pid=$1 grace=$2 signal=${3:-TERM}
  pid_alive "$pid" || return 0
  kill "-$signal" "$pid" 2>/dev/null || true
  if ! wait_until "$grace" "pid $pid to exit after SIG$signal" pid_gone "$pid"; then
    note "pid $pid still alive after ${grace}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_until 5 "pid $pid to exit after SIGKILL" pid_gone "$pid" || return 1
  fi
}

# Starts a command in its own session (so the caller's signals and terminal do not reach it), output appended
# to a log, and prints its pid. With RUN_AS set, the command runs as that user (setpriv execs, so the pid is
# the command's own).
spawn() {
  local log=$1
  shift
  if [ -n "${RUN_AS:-}" ]; then
    setsid setpriv --reuid="$RUN_AS" --regid="$RUN_AS" --init-groups --reset-env -- "$@" </dev/null >>"$log" 2>&1 &
  else
    setsid "$@" </dev/null >>"$log" 2>&1 &
  fi
  echo $!
}

# Prints the last lines of a log, to make a failed start explain itself.
tail_log() {
  [ -f "$1" ] && { echo "---- last lines of $1:" >&2; tail -n "${2:-20}" "$1" >&2; }
  true
}

need_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is not installed ($2)"
}

# An HTTP call to loopback: http <method> <url> [json body]; prints the body, fails on no answer.
http() {
  local method=$1 url=$2 body=${3:-}
  if [ -n "$body" ]; then
    curl -sS --max-time 3 -X "$method" -H 'Content-Type: application/json' -d "$body" "$url"
  else
    curl -sS --max-time 3 -X "$method" "$url"
  fi
}

# Starts a member's process in the background unless it already runs (its pid, 0 when not), refusing a port another
# process holds (a stale port would make the member look started), and writes its pid file.
# launch_process <name> <running pid> <port> <port's role> <pid file> <log> <command...>
launch_process() {
  local name=$1 running=$2 port=$3 role=$4 pidfile=$5 log=$6
  shift 6
  if [ "$running" != 0 ]; then
    note "$name already running (pid $running)"
    return 0
  fi
  if port_open "$port"; then
    die "$name: $role $port is taken by another process"
  fi
  echo "==== $(date -u +%FT%TZ) start" >>"$log"
  [ -z "${RUN_AS:-}" ] || chown "$RUN_AS:" "$log"
  spawn "$log" "$@" >"$pidfile"
}

# Waits until the process of a pid file answers, failing at once (with its log) if it exits meanwhile.
# wait_started <name> <pid file> <log> <timeout seconds> <what it waits for> <ready command...>
wait_started() {
  local name=$1 pidfile=$2 log=$3 timeout=$4 what=$5 pid
  shift 5
  pid=$(read_pid "$pidfile")
  alive_and_ready() {
    pid_alive "$pid" || { tail_log "$log"; die "$name (pid $pid) exited during start"; }
    "$@"
  }
  wait_until "$timeout" "$what" alive_and_ready "$@" || { tail_log "$log"; die "$name did not start"; }
}

# --- PostgreSQL (patroni-cluster.sh, postgres-server.sh) ---------------------------------------------------------

# The user PostgreSQL runs as: postgres when we are root (PostgreSQL refuses root), else ourselves.
set_run_as() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || die "running as root but there is no postgres user (apt-get install postgresql)"
    RUN_AS=postgres
  else
    RUN_AS=
  fi
}

as_runner() {
  if [ -n "${RUN_AS:-}" ]; then
    setpriv --reuid="$RUN_AS" --regid="$RUN_AS" --init-groups -- "$@"
  else
    "$@"
  fi
}

# Sets PG_BIN_DIR to the newest /usr/lib/postgresql/*/bin with a server, initdb and pg_ctl (or checks the one given).
find_pg_bin_dir() {
  if [ -n "${PG_BIN_DIR:-}" ]; then
    [ -x "$PG_BIN_DIR/postgres" ] && [ -x "$PG_BIN_DIR/initdb" ] || die "PG_BIN_DIR=$PG_BIN_DIR has no postgres/initdb"
    return
  fi
  local candidate
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$candidate/postgres" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
      PG_BIN_DIR=$candidate
      return
    fi
  done
  die "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)"
}
