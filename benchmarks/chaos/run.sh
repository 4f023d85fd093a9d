#!/usr/bin/env bash
# The chaos checker's long form (docs/chaos.md): web/src/test/java/com/statefulcvm/web/cluster/ChaosIT.java over many
# seeds. Two orchestrator nodes of the built jar on a PostgreSQL server of their own, the standalone simulator as
# Phala Cloud, a real etcd and a real Patroni behind simulated CVMs; per seed a schedule of operations (rollouts,
# scale, failover) and faults (kill -9 of a node, CVM crashes, Phala 5xx/429 bursts and timeouts, probe timeouts, a
# database restart), then the invariants. Prints one report per seed and a summary; exits non-zero on any violation.
#   SEEDS=50 benchmarks/chaos/run.sh        seeds 1..50 (default 50)
#   SEEDS=7,12-14 benchmarks/chaos/run.sh   those seeds
#   BUDGET=PT50M SEEDS=50 benchmarks/...    no seed starts after 50 minutes (the summary says how many ran)
# Extra arguments go to Maven (e.g. -o). Needs the PostgreSQL server binaries, etcd-server and patroni (.ci/run
# installs them). Each seed takes about 1.5 to 4 minutes on two cores. The reports are also kept in
# web/target/cluster-it/ChaosIT-<time>/chaos-report.txt, Maven's whole output in web/target/chaos-run.log. ./run-tests
# runs the short form only: seed 7 after 4 lock rounds.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

seeds=${SEEDS:-50}
budget=${BUDGET:-PT87600H}
lock_rounds=${LOCK_ROUNDS:-10}
if [[ "$seeds" =~ ^[0-9]+$ ]]; then
  seeds="1-$seeds"
fi
echo "chaos: seeds $seeds, budget $budget, lock rounds $lock_rounds; uptime before: $(uptime)"
status=0
mkdir -p web/target
# package builds the jars the nodes run; failsafe runs the IT; no other test runs
mvn -B -Dstyle.color=never -pl web -am verify -DskipTests=false -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=ChaosIT -Dfailsafe.failIfNoSpecifiedTests=false -Dchaos.seeds="$seeds" -Dchaos.budget="$budget" -Dchaos.lock-rounds="$lock_rounds" "$@" \
    | tee web/target/chaos-run.log | grep -E '^(===|  |\[[0-9:.]+\] (procedure lock|chaos))' || status=$?
echo "chaos: uptime after: $(uptime)"
latest=$(ls -td web/target/cluster-it/ChaosIT-* 2>/dev/null | head -1 || true)
if [ -n "$latest" ] && [ -f "$latest/chaos-report.txt" ]; then
  echo "chaos: reports in $latest/chaos-report.txt"
fi
exit "$status"
