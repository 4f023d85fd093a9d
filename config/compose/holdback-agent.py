#!/usr/bin/env python3
# The hold-back agent: a small entrypoint for a compose that must not start its workload on its own after a lights-out
# (every replica down at once). It starts with the CVM, but runs the workload (the command after "--") only when:
#   - the orchestrator releases it: POST <release-path> (lights-out-recovery.bpmn: the seed first, then each follower;
#     its JSON body says which, and the members already serving: HOLDBACK_ROLE, HOLDBACK_SEED, HOLDBACK_PRIMARIES in
#     the workload's environment), or
#   - there is nothing to protect: the data directory holds no data yet (a new member, the first boot), or
#   - with --patronictl-config: a Patroni leader already runs, its PostgreSQL accepting connections (this member
#     restarted alone, the set is not down: it joins that leader as a replica, as it would have without the agent), or
#   - with --etcd-endpoints: another etcd member reports a healthy cluster (a leader and a quorum without this member).
#   - with --galera-peers: another Galera member's group port answers (a cluster runs: this member joins it by IST/SST).
# Until then it answers GET <sequence-path> with how far this member's data goes, read from the data directory while
# the workload does not run, so no member has caught up from another before it is asked:
#   --store postgres (the default): pg_controldata, {"generation": <timeline>, "sequence": <WAL position>, "lsn": "X/Y"};
#   --store etcd: the member's raft log (<data-dir>/member/wal), {"generation": <term of the last entry>, "sequence":
#     <index of the last entry>, "commit": <committed index>}. The member whose (term, index) is largest is at least as
#     up to date as every other, as raft's election rule compares logs, so it holds every committed entry.
#   --store galera: <data-dir>/grastate.dat, {"sequence": <seqno>, "uuid": <cluster state uuid>, "safeToBootstrap": ..,
#     "recovered": ..}; a seqno of -1 (the server crashed) is recovered from InnoDB with mariadbd --wsrep-recover
#     (--galera-defaults-file). Released as the seed, it marks grastate.dat safe_to_bootstrap: 1 first (the recovery
#     chose it as the most advanced member, as mariadb-operator does), so that --wsrep-new-cluster is accepted.
# The recovery compares (generation, sequence) and seeds from the most recent. After the release it answers 503 there.
# With --galera-socket it also answers GET <health-path> (clustercheck's job): 200 once released and the server is
# Synced (wsrep_local_state 4, read with the mariadb client as the agent's own OS user), else 503 with the state;
# POST <drain-path> desyncs the node and makes it reject client queries (wsrep_desync, wsrep_reject_queries=ALL),
# answering {"drained": <its receive queue is empty>, "recvQueue", "state"}, and POST <resume-path> undoes it.
# It forwards SIGTERM/SIGINT to the workload and exits with the workload's status. Python 3 standard library only.
# Documented in docs/lights-out.md (Holding the workload back); used by config/compose/patroni-demo.yaml and by the
# real-Patroni tests (workloads/patroni-cluster.sh node-start-held).
import argparse
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LSN = re.compile(r"^(Latest checkpoint location|Minimum recovery ending location):\s+([0-9A-Fa-f]+)/([0-9A-Fa-f]+)\s*$", re.M)
TIMELINE = re.compile(r"^(Latest checkpoint's TimeLineID|Min recovery ending loc's timeline):\s+(\d+)\s*$", re.M)


def log(message):
    print(f"holdback-agent: {message}", file=sys.stderr, flush=True)


def pg_controldata_binary(given):
    if given:
        return given
    found = shutil.which("pg_controldata")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_controldata"))
    return candidates[-1] if candidates else "pg_controldata"


def position(binary, data_dir):
    """(timeline, position in bytes, 'X/Y') of the data directory: the further of the latest checkpoint and a
    replica's minimum recovery point, each with its own timeline."""
    out = subprocess.run([binary, "-D", data_dir], capture_output=True, text=True, timeout=30,
                         env={**os.environ, "LC_ALL": "C"})
    if out.returncode != 0:
        raise RuntimeError(f"pg_controldata failed: {out.stderr.strip() or out.stdout.strip()}")
    lsns = {m.group(1): (int(m.group(2), 16) << 32) + int(m.group(3), 16) for m in LSN.finditer(out.stdout)}
    timelines = {m.group(1): int(m.group(2)) for m in TIMELINE.finditer(out.stdout)}
    points = []
    if "Latest checkpoint location" in lsns:
        points.append((timelines.get("Latest checkpoint's TimeLineID", 0), lsns["Latest checkpoint location"]))
    recovery = lsns.get("Minimum recovery ending location", 0)
    if recovery > 0:
        points.append((timelines.get("Min recovery ending loc's timeline", 0), recovery))
    if not points:
        raise RuntimeError("no WAL position in pg_controldata's output")
    timeline, lsn = max(points)
    return timeline, lsn, f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}"


def varint(data, at):
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise ValueError("truncated varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7


def fields(message):
    """The (number, value) pairs of a protobuf message: an int for varints, bytes for length-delimited fields."""
    at = 0
    while at < len(message):
        key, at = varint(message, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(message, at)
        elif wire == 2:
            size, at = varint(message, at)
            value, at = message[at:at + size], at + size
        elif wire == 1:
            value, at = message[at:at + 8], at + 8
        elif wire == 5:
            value, at = message[at:at + 4], at + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, value


# etcd's WAL (go.etcd.io/etcd/wal, stable since 3.0): frames of an 8-byte little-endian length (its top byte: padding)
# holding a walpb.Record {type = 1, crc = 2, data = 3}; entry records hold a raftpb.Entry {Type = 1, Term = 2,
# Index = 3}, state records a raftpb.HardState {term = 1, vote = 2, commit = 3}, snapshot records a walpb.Snapshot
# {index = 1, term = 2}.
WAL_ENTRY, WAL_STATE, WAL_SNAPSHOT = 2, 3, 5


def etcd_wal_records(wal_dir):
    for name in sorted(f for f in os.listdir(wal_dir) if f.endswith(".wal")):
        with open(os.path.join(wal_dir, name), "rb") as f:
            data = f.read()
        at = 0
        while at + 8 <= len(data):
            frame = int.from_bytes(data[at:at + 8], "little")
            size = frame & 0x00FFFFFFFFFFFFFF
            padding = (frame >> 56) & 0x7 if frame & (1 << 63) else 0
            if size == 0:
                break  # the preallocated, zero-filled rest of the last segment
            record = data[at + 8:at + 8 + size]
            if len(record) < size:
                break  # a torn write at the end: etcd ignores it too
            at += 8 + size + padding
            kind, payload = 0, b""
            for number, value in fields(record):
                if number == 1:
                    kind = value
                elif number == 3:
                    payload = value
            yield kind, payload


def etcd_position(data_dir):
    """(term of the last entry, index of the last entry, committed index) of the member's raft log."""
    wal_dir = os.path.join(data_dir, "member", "wal")
    if not os.path.isdir(wal_dir):
        raise RuntimeError(f"no raft log in {wal_dir}")
    term = index = commit = 0
    for kind, payload in etcd_wal_records(wal_dir):
        values = dict(fields(payload))
        if kind == WAL_ENTRY:
            term, index = values.get(2, 0), values.get(3, 0)  # a later entry of an index replaces the earlier ones
        elif kind == WAL_STATE:
            commit = max(commit, values.get(3, 0))
        elif kind == WAL_SNAPSHOT and values.get(1, 0) > index:
            index, term = values.get(1, 0), values.get(2, 0)
    if index == 0:
        raise RuntimeError(f"no raft entry in {wal_dir}")
    return term, index, commit


GRASTATE_FIELD = re.compile(r"^(uuid|seqno|safe_to_bootstrap):\s*(\S+)\s*$", re.M)
RECOVERED = re.compile(r"WSREP: Recovered position: ([0-9a-fA-F-]+):(-?\d+)\s*$", re.M)


def galera_position(data_dir, defaults_file, mariadbd):
    """(uuid, seqno, safe_to_bootstrap, recovered) of a Galera member that does not run."""
    path = os.path.join(data_dir, "grastate.dat")
    with open(path, encoding="utf-8") as f:
        state = dict(GRASTATE_FIELD.findall(f.read()))
    uuid, seqno = state.get("uuid"), int(state.get("seqno", "-1"))
    safe = state.get("safe_to_bootstrap") == "1"
    if seqno >= 0:
        return uuid, seqno, safe, False
    if not defaults_file:
        raise RuntimeError(f"{path} says seqno -1 (a crash) and --galera-defaults-file is not given to recover it")
    log_file = os.path.join(data_dir, "wsrep-recover.log")
    if os.path.exists(log_file):
        os.remove(log_file)
    subprocess.run([mariadbd, f"--defaults-file={defaults_file}", "--wsrep-recover", f"--log-error={log_file}"],
                   capture_output=True, text=True, timeout=120)
    with open(log_file, encoding="utf-8", errors="replace") as f:
        found = RECOVERED.findall(f.read())
    if not found:
        raise RuntimeError(f"mariadbd --wsrep-recover found no position (see {log_file})")
    return found[-1][0], int(found[-1][1]), safe, True


def mark_safe_to_bootstrap(data_dir):
    path = os.path.join(data_dir, "grastate.dat")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^safe_to_bootstrap:.*$", "safe_to_bootstrap: 1", text, flags=re.M))


def galera_peer_answers(peers):
    """The first other member whose Galera group port accepts a connection: a cluster runs there."""
    for peer in peers:
        host, _, port = peer.strip().rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=2):
                return peer.strip()
        except (OSError, ValueError):
            continue
    return None


WSREP_STATES = {"1": "Joining", "2": "Donor/Desynced", "3": "Joined", "4": "Synced"}


def galera_sql(socket_path, statements):
    """Runs SQL on the server as the agent's own OS user (unix_socket authentication): (rows, None) or (None, why)."""
    import getpass
    try:
        out = subprocess.run(["mariadb", "--no-defaults", "-u", getpass.getuser(), "-S", socket_path, "-N", "-B", "-e",
                              statements], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as e:
        return None, str(e)
    if out.returncode != 0:
        return None, (out.stderr.strip() or f"mariadb exited {out.returncode}")[:200]
    return [line.split("\t") for line in out.stdout.splitlines() if line.strip()], None


def galera_state(socket_path):
    """The server's wsrep_local_state as (number, name), or (None, why) when it does not answer."""
    rows, error = galera_sql(socket_path, "SHOW STATUS LIKE 'wsrep_local_state'")
    if rows is None:
        return None, error
    value = rows[-1][-1] if rows else ""
    return value, WSREP_STATES.get(value, f"state {value or 'unknown'}")


# A drained node is desynced (flow control no longer waits for it) and refuses client queries (error 1047, so that
# clients and clustercheck move to the other nodes); it has drained once the write-sets it received are applied.
DRAIN_SQL = ("SET GLOBAL wsrep_desync=ON; SET GLOBAL wsrep_reject_queries=ALL; "
             "SHOW STATUS WHERE Variable_name IN ('wsrep_local_recv_queue', 'wsrep_local_state_comment')")
RESUME_SQL = ("SET GLOBAL wsrep_reject_queries=NONE; SET GLOBAL wsrep_desync=OFF; "
              "SHOW STATUS LIKE 'wsrep_local_state_comment'")


def galera_drain(socket_path):
    rows, error = galera_sql(socket_path, DRAIN_SQL)
    if rows is None:
        return 503, {"error": error}
    status = {row[0]: row[-1] for row in rows}
    queue = int(status.get("wsrep_local_recv_queue", "0") or 0)
    return 200, {"drained": queue == 0, "recvQueue": queue, "state": status.get("wsrep_local_state_comment"),
                 "desync": "ON", "rejectQueries": "ALL"}


def galera_resume(socket_path):
    rows, error = galera_sql(socket_path, RESUME_SQL)
    if rows is None:
        return 503, {"error": error}
    return 200, {"resumed": True, "state": rows[-1][-1] if rows else None, "desync": "OFF", "rejectQueries": "NONE"}


def etcd_cluster_healthy(endpoints):
    """The first of the other members' client URLs that reports a healthy cluster (GET /health: a leader, a quorum)."""
    for endpoint in endpoints:
        try:
            with urllib.request.urlopen(endpoint.rstrip("/") + "/health", timeout=3) as response:
                if json.loads(response.read().decode("utf-8")).get("health") == "true":
                    return endpoint
        except (OSError, ValueError):
            continue
    return None


class Agent:
    def __init__(self, args):
        self.args = args
        self.command = args.command
        self.child = None
        self.released = threading.Event()
        self.lock = threading.Lock()
        self.pg_controldata = pg_controldata_binary(args.pg_controldata)

    def event(self, what):
        line = f"{datetime.now(timezone.utc).isoformat()} {what}"
        log(line)
        if self.args.events:
            with open(self.args.events, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def release(self, how, order=None):
        """order: what the recovery's POST said this member is ({"role": "seed"|"follower", "seed", "primaries"}),
        handed to the workload as HOLDBACK_ROLE, HOLDBACK_SEED and HOLDBACK_PRIMARIES (comma-separated): a Galera
        follower's wsrep_cluster_address, an etcd member's initial cluster. None: released without one."""
        with self.lock:
            if self.released.is_set():
                return False
            self.released.set()
            env = dict(os.environ)
            if order:
                env["HOLDBACK_ROLE"] = str(order.get("role", ""))
                env["HOLDBACK_SEED"] = str(order.get("seed", ""))
                env["HOLDBACK_PRIMARIES"] = ",".join(str(p) for p in order.get("primaries") or [])
                role = order.get("role")
                how += " as the seed" if role == "seed" else \
                    f" as a follower of {order.get('seed')}, joining {env['HOLDBACK_PRIMARIES'] or 'none'}"
                if role == "seed" and self.args.store == "galera":
                    mark_safe_to_bootstrap(self.args.data_dir)
                    how += " (grastate.dat marked safe_to_bootstrap: 1)"
            self.event(f"released: {how}")
            self.child = subprocess.Popen(self.command, env=env)
            return True

    def has_data(self):
        if self.args.store == "etcd":
            return os.path.isdir(os.path.join(self.args.data_dir, "member", "wal"))
        if self.args.store == "galera":
            return os.path.exists(os.path.join(self.args.data_dir, "grastate.dat"))
        return os.path.exists(os.path.join(self.args.data_dir, "PG_VERSION"))

    def position(self):
        """The body GET <sequence-path> answers: how far this member's data goes."""
        if self.args.store == "etcd":
            term, index, commit = etcd_position(self.args.data_dir)
            return {"generation": term, "sequence": index, "commit": commit}
        if self.args.store == "galera":
            uuid, seqno, safe, recovered = galera_position(self.args.data_dir, self.args.galera_defaults_file,
                                                           self.args.galera_mariadbd)
            return {"sequence": seqno, "uuid": uuid, "safeToBootstrap": safe, "recovered": recovered}
        timeline, lsn, text = position(self.pg_controldata, self.args.data_dir)
        return {"generation": timeline, "sequence": lsn, "lsn": text}

    def cluster_runs(self):
        """Who shows that the set runs without this member (then it joins, as it would have without the agent)."""
        if self.args.galera_peers:
            peer = galera_peer_answers([p for p in self.args.galera_peers.split(",") if p.strip()])
            return f"the Galera member at {peer} runs" if peer else None
        if self.args.etcd_endpoints:
            healthy = etcd_cluster_healthy([e for e in self.args.etcd_endpoints.split(",") if e.strip()])
            return f"etcd at {healthy} reports a healthy cluster" if healthy else None
        leader = self.leader_runs()
        return f"a leader runs ({leader})" if leader else None

    def leader_runs(self):
        try:
            out = subprocess.run(["patronictl", "-c", self.args.patronictl_config, "list", "-f", "json"],
                                 capture_output=True, text=True, timeout=20)
            members = json.loads(out.stdout) if out.returncode == 0 and out.stdout.strip() else []
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
        for m in members:
            if m.get("Role") in ("Leader", "Standby Leader") and m.get("State") in ("running", "streaming") \
                    and accepts_connections(m.get("Host", "")):
                return m.get("Member")
        return None

    def watch_cluster(self):
        while not self.released.is_set():
            running = self.cluster_runs()
            if running:
                self.release(f"{running}: joining it")
                return
            self.released.wait(self.args.leader_check_seconds)


def accepts_connections(host):
    """Whether the PostgreSQL at patronictl's "host" or "host:port" accepts a connection. The DCS keeps a dead
    leader's key, "running", until its ttl ends: after a lights-out the members come back within that time, and
    joining a leader that is gone would release every member before the operator chose the seed."""
    name, port = (host.rsplit(":", 1) + ["5432"])[:2] if host.count(":") <= 1 else (host, "5432")
    try:
        with socket.create_connection((name, int(port)), timeout=3):
            return True
    except (OSError, ValueError):
        return False


def handler_for(agent):
    class Handler(BaseHTTPRequestHandler):
        def answer(self, status, body, content_type="application/json"):
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if agent.args.galera_socket and self.path.split("?")[0] == agent.args.health_path:
                if not agent.released.is_set():
                    return self.answer(503, json.dumps({"error": "held back: not released yet"}))
                value, state = galera_state(agent.args.galera_socket)
                return self.answer(200 if value == "4" else 503, json.dumps({"wsrep_local_state": value, "state": state}))
            if self.path.split("?")[0] != agent.args.sequence_path:
                return self.answer(404, json.dumps({"error": "unknown path"}))
            if agent.released.is_set():
                return self.answer(503, json.dumps({"error": "released: the workload answers for itself"}))
            try:
                body = agent.position()
            except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as e:
                return self.answer(503, json.dumps({"error": str(e)}))
            self.answer(200, json.dumps(body))

        def do_POST(self):
            path = self.path.split("?")[0]
            if agent.args.galera_socket and path in (agent.args.drain_path, agent.args.resume_path):
                if not agent.released.is_set():
                    # nothing runs: nothing to drain, nothing to resume
                    return self.answer(200, json.dumps({"drained": True, "resumed": True, "state": "held back: not released"}))
                status, body = (galera_drain if path == agent.args.drain_path else galera_resume)(agent.args.galera_socket)
                log(f"POST {path}: {json.dumps(body)}")
                return self.answer(status, json.dumps(body))
            if path != agent.args.release_path:
                return self.answer(404, json.dumps({"error": "unknown path"}))
            order = None
            length = int(self.headers.get("Content-Length") or 0)
            if length > 0:
                try:
                    order = json.loads(self.rfile.read(length))
                except ValueError:
                    return self.answer(400, json.dumps({"error": "the release's body is not JSON"}))
                if not isinstance(order, dict) or order.get("role") not in ("seed", "follower"):
                    return self.answer(400, json.dumps({"error": "the release's role must be seed or follower"}))
            agent.release(f"POST {agent.args.release_path} from {self.client_address[0]}", order)
            self.answer(202, json.dumps({"released": True}))

        def log_message(self, fmt, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser(description="Hold a workload back until the orchestrator releases it.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("HOLDBACK_PORT", "9000")))
    parser.add_argument("--bind", default=os.environ.get("HOLDBACK_BIND", "0.0.0.0"))
    parser.add_argument("--data-dir", default=os.environ.get("HOLDBACK_DATA_DIR"), required="HOLDBACK_DATA_DIR" not in os.environ)
    parser.add_argument("--sequence-path", default=os.environ.get("HOLDBACK_SEQUENCE_PATH", "/sequence"))
    parser.add_argument("--release-path", default=os.environ.get("HOLDBACK_RELEASE_PATH", "/release"))
    parser.add_argument("--store", choices=["postgres", "etcd", "galera"], default=os.environ.get("HOLDBACK_STORE", "postgres"))
    parser.add_argument("--patronictl-config", default=os.environ.get("HOLDBACK_PATRONICTL_CONFIG"))
    parser.add_argument("--etcd-endpoints", default=os.environ.get("HOLDBACK_ETCD_ENDPOINTS"),
                        help="the other members' client URLs, comma-separated: a healthy cluster there releases this one")
    parser.add_argument("--galera-peers", default=os.environ.get("HOLDBACK_GALERA_PEERS"),
                        help="the other members' Galera group addresses (host:4567), comma-separated")
    parser.add_argument("--galera-defaults-file", default=os.environ.get("HOLDBACK_GALERA_DEFAULTS_FILE"),
                        help="the server's my.cnf, for mariadbd --wsrep-recover when grastate.dat says seqno -1")
    parser.add_argument("--galera-socket", default=os.environ.get("HOLDBACK_GALERA_SOCKET"),
                        help="the server's socket: GET <health-path> answers 200 while it is Synced")
    parser.add_argument("--health-path", default=os.environ.get("HOLDBACK_HEALTH_PATH", "/health"))
    parser.add_argument("--drain-path", default=os.environ.get("HOLDBACK_DRAIN_PATH", "/drain"),
                        help="with --galera-socket: POST desyncs the node and rejects client queries; drained once its"
                             " receive queue is empty")
    parser.add_argument("--resume-path", default=os.environ.get("HOLDBACK_RESUME_PATH", "/resume"),
                        help="with --galera-socket: POST undoes the drain (the node takes queries and flow control again)")
    parser.add_argument("--galera-mariadbd", default=os.environ.get("HOLDBACK_GALERA_MARIADBD", "/usr/sbin/mariadbd"))
    parser.add_argument("--leader-check-seconds", type=float, default=float(os.environ.get("HOLDBACK_LEADER_CHECK_SECONDS", "2")))
    parser.add_argument("--pg-controldata", default=os.environ.get("HOLDBACK_PG_CONTROLDATA"))
    parser.add_argument("--events", default=os.environ.get("HOLDBACK_EVENTS"))
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        parser.error("the workload's command goes after --")

    agent = Agent(args)
    server = ThreadingHTTPServer((args.bind, args.port), handler_for(agent))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def stop(signum, _frame):
        with agent.lock:
            agent.released.set()  # nothing starts after a stop
            child = agent.child
        if child and child.poll() is None:
            child.send_signal(signum)
        else:
            server.shutdown()
            sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    if not agent.has_data():
        agent.release(f"no data in {args.data_dir} yet: nothing to protect")
    else:
        agent.event(f"holding back: {args.sequence_path} answers this member's position, {args.release_path} releases it")
        if args.patronictl_config or args.etcd_endpoints or args.galera_peers:
            threading.Thread(target=agent.watch_cluster, daemon=True).start()
    while True:
        with agent.lock:
            child = agent.child
        if child is not None:
            code = child.wait()
            server.shutdown()
            agent.event(f"workload exited with status {code}")
            sys.exit(code if code >= 0 else 128 - code)
        agent.released.wait(0.5)


if __name__ == "__main__":
    main()
