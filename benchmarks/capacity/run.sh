#!/usr/bin/env bash
# Capacity of one application node with the embedded simulator, and of two nodes on one PostgreSQL
# (web/src/test/java/com/statefulcvm/web/benchmark/CapacityBenchmark.java, profile web/src/test/resources/application-capacity.yaml):
#   1. SETS sets of SET_SIZE instances monitored every INTERVAL_SECONDS for MONITOR_SECONDS: late rounds, CPU, heap;
#      CRASHES crashes and the time to each heal's start against interval x UNHEALTHY_THRESHOLD + 2 s;
#   2. ROLLOUTS rollouts started at once (maxUnavailable ROLLOUT_MAX_UNAVAILABLE): all complete, makespan, jobs/s;
#   3. TWO_NODE_SETS rollouts at once on one node, then on two nodes sharing a fresh PostgreSQL database, each node
#      its own JVM of the built jar beside the standalone simulator's (needs ORCH_TEST_PG_URL/_USER/_PASSWORD:
#      workloads/postgres-server.sh start <dir>; source <dir>/env; the jars are built first when part 3 runs).
# Defaults: SETS=500 SET_SIZE=10 INTERVAL_SECONDS=10 MONITOR_SECONDS=120 CRASHES=5 ROLLOUTS=200 TWO_NODE_SETS=40.
# PHASES=1,2,3 (default) picks the parts: 1 monitoring and crashes, 2 rollouts at once, 3 two nodes.
# A reduced run: SETS=50 ROLLOUTS=20 MONITOR_SECONDS=60 TWO_NODE_SETS=10 benchmarks/capacity/run.sh
# Extra arguments go to Maven (e.g. -o). JFR: ARGLINE='-XX:StartFlightRecording=filename=/tmp/capacity.jfr,settings=profile'.
# Not part of ./run-tests. The report is printed at the end and kept in web/target/capacity-benchmark.md (the whole
# output in web/target/surefire-reports/com.statefulcvm.web.CapacityBenchmark-output.txt). It exits non-zero when
# work did not complete (a rollout, a heal) or the two nodes did not both take jobs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

rm -f web/target/capacity-benchmark.md
status=0
args=()
if [ -n "${ARGLINE:-}" ]; then
  args+=("-DargLine=$ARGLINE")
fi
if [[ "${PHASES:-1,2,3}" == *3* ]]; then
  # part 3 runs the built jars (web/target/stateful-cvm-orchestrator.jar, simulator/target/simulator-*-exec.jar)
  mvn -B -q -Dstyle.color=never -DskipTests package "$@"
fi
# -Dtest selects the benchmark in every module of the -am build; the other modules have no such test and run none.
mvn -B -q -Dstyle.color=never -pl web -am test -Dtest=CapacityBenchmark -Dsurefire.failIfNoSpecifiedTests=false "${args[@]}" "$@" || status=$?
if [ -f web/target/capacity-benchmark.md ]; then
  cat web/target/capacity-benchmark.md
fi
exit "$status"
