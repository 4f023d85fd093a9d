package com.statefulcvm.web.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * One seed's schedule: the operations an operator asks for and the faults that hit them, each at a moment of the
 * seed's window, all drawn from {@code new Random(seed)}: the same seed gives the same schedule (what the processes
 * then do is as timing-dependent as real life; the checker does not need it to be repeatable, only the schedule).
 */
record ChaosPlan(long seed, List<Step> steps) {

    /** How long the steps are spread over; the seed then waits for everything it started to end. */
    static final int WINDOW_MS = 40_000;

    enum Kind {
        // operations
        ROLLOUT, SCALE_UP, SCALE_DOWN, FAILOVER,
        // faults
        KILL_NODE, START_NODE, CRASH_CVM, PHALA_5XX, PHALA_429, PHALA_TIMEOUT, PROBE_TIMEOUT, DB_RESTART;

        boolean fault() {
            return ordinal() >= KILL_NODE.ordinal() && this != START_NODE;
        }
    }

    /**
     * @param target a set (operations), a node index (KILL_NODE, START_NODE), a CVM name (CRASH_CVM, PROBE_TIMEOUT) or an
     *               HTTP status (PHALA_5XX)
     * @param amount calls the fault hits (PHALA_*), seconds it lasts (PROBE_TIMEOUT, DB_RESTART), the new count (SCALE_*)
     */
    record Step(int atMs, Kind kind, String target, int amount) {
        @Override
        public String toString() {
            return String.format("+%5.1fs %s %s%s", atMs / 1000.0, kind, target, amount == 0 ? "" : " x" + amount);
        }
    }

    static ChaosPlan of(long seed) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();

        // 2 or 3 operations: rollouts of distinct sets, a scale up and down, a failover drill
        List<ChaosFleet.Set> rolloutSets = new ArrayList<>(ChaosFleet.SETS);
        java.util.Collections.shuffle(rolloutSets, random);
        int operations = 2 + random.nextInt(2);
        boolean scaled = false;
        for (int i = 0; i < operations; i++) {
            int at = random.nextInt(WINDOW_MS / 2);
            int pick = random.nextInt(10);
            if (pick < 6 || scaled) {
                ChaosFleet.Set set = rolloutSets.remove(0);
                steps.add(new Step(at, Kind.ROLLOUT, set.name(), 0));
                if (set == ChaosFleet.SCALE) {
                    scaled = true; // no scale beside a rollout of the same set: the second would only be refused
                }
            } else if (pick < 8) {
                steps.add(new Step(at, Kind.SCALE_UP, ChaosFleet.SCALE.name(), ChaosFleet.SCALE_MAX));
                steps.add(new Step(at + 12_000 + random.nextInt(8_000), Kind.SCALE_DOWN, ChaosFleet.SCALE.name(), ChaosFleet.SCALE.replicas()));
                rolloutSets.remove(ChaosFleet.SCALE);
                scaled = true;
            } else {
                steps.add(new Step(at, Kind.FAILOVER, ChaosFleet.PGHA.name(), 0));
            }
        }

        // 4 to 7 faults
        int faults = 4 + random.nextInt(4);
        boolean killed = false;
        boolean restarted = false;
        for (int i = 0; i < faults; i++) {
            int at = 1_000 + random.nextInt(WINDOW_MS - 6_000);
            int pick = random.nextInt(100);
            if (pick < 14 && !killed) {
                int node = random.nextInt(ChaosCluster.NODES);
                steps.add(new Step(at, Kind.KILL_NODE, Integer.toString(node), 0));
                steps.add(new Step(at + 6_000 + random.nextInt(8_000), Kind.START_NODE, Integer.toString(node), 0));
                killed = true;
            } else if (pick < 26 && !restarted) {
                steps.add(new Step(at, Kind.DB_RESTART, "orchestrator", 2 + random.nextInt(4)));
                restarted = true;
            } else if (pick < 46) {
                steps.add(new Step(at, Kind.CRASH_CVM, crashable(random), 0));
            } else if (pick < 62) {
                int[] statuses = {500, 502, 503, 504};
                steps.add(new Step(at, Kind.PHALA_5XX, Integer.toString(statuses[random.nextInt(4)]), 10 + random.nextInt(60)));
            } else if (pick < 74) {
                steps.add(new Step(at, Kind.PHALA_429, "429", 10 + random.nextInt(40)));
            } else if (pick < 87) {
                steps.add(new Step(at, Kind.PHALA_TIMEOUT, "4000ms", 2 + random.nextInt(5)));
            } else {
                String member = (random.nextBoolean() ? ChaosFleet.ETCD : ChaosFleet.PGHA).slot(random.nextInt(3));
                steps.add(new Step(at, Kind.PROBE_TIMEOUT, member, 3 + random.nextInt(4)));
            }
        }
        steps.sort(Comparator.comparingInt(Step::atMs));
        return new ChaosPlan(seed, List.copyOf(steps));
    }

    /**
     * A CVM to crash. Not Patroni's leader: its replication is asynchronous, so a crashed leader loses the commits it
     * had not shipped yet, by the fault and not by the orchestrator's hand; the harness picks a replica when it runs.
     */
    private static String crashable(Random random) {
        ChaosFleet.Set set = ChaosFleet.SETS.get(random.nextInt(ChaosFleet.SETS.size()));
        return set.slot(random.nextInt(set.replicas()));
    }

    long faults() {
        return steps.stream().filter(s -> s.kind().fault()).count();
    }
}
