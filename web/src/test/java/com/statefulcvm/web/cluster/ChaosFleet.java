package com.statefulcvm.web.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The chaos fleet, and what the checker knows about it independently of the orchestrator: each set's size, its
 * maxUnavailable and whether its workload has a quorum. The budget the checker holds the orchestrator to is computed
 * here from those alone ({@link #budget}), not from any class of the orchestrator.
 */
final class ChaosFleet {

    /** One set: {@code quorum} true for workloads that need a majority of their members (etcd, Patroni). */
    record Set(String name, String workloadType, int replicas, int maxUnavailable, boolean quorum, boolean backed) {

        /**
         * How many slots the orchestrator may have down at once by its own hand, given how many are down by a fault:
         * never more than maxUnavailable counting the faults, and for a quorum never below a majority up.
         */
        int budget(int downByFault) {
            int byPolicy = maxUnavailable - downByFault;
            int byQuorum = quorum ? replicas - (replicas / 2 + 1) - downByFault : Integer.MAX_VALUE;
            return Math.max(0, Math.min(byPolicy, byQuorum));
        }

        int majority() {
            return replicas / 2 + 1;
        }

        String slot(int ordinal) {
            return name + "-" + ordinal;
        }
    }

    static final Set WEB = new Set("web", "generic", 5, 1, false, false);
    static final Set SCALE = new Set("scale", "generic", 3, 1, false, false);
    static final Set ETCD = new Set("etcd", "etcd", 3, 1, true, true);
    static final Set PGHA = new Set("pgha", "patroni", 3, 1, true, true);
    static final List<Set> SETS = List.of(WEB, SCALE, ETCD, PGHA);
    /** The scale set grows by one and back during a seed: that slot is the only one that may come and go. */
    static final int SCALE_MAX = 4;

    private ChaosFleet() {
    }

    static Set of(String cvmName) {
        for (Set set : SETS) {
            if (cvmName.startsWith(set.name() + "-")) {
                return set;
            }
        }
        return null;
    }

    static int ordinal(String cvmName) {
        return Integer.parseInt(cvmName.substring(cvmName.lastIndexOf('-') + 1));
    }

    /** The slots that must run between seeds. */
    static List<String> slots() {
        List<String> slots = new ArrayList<>();
        for (Set set : SETS) {
            for (int i = 0; i < set.replicas(); i++) {
                slots.add(set.slot(i));
            }
        }
        return slots;
    }

    static String compose(Set set, String tag) {
        return switch (set.workloadType()) {
            case "etcd" -> "services:\n  etcd:\n    image: quay.io/coreos/etcd:" + tag + "\n    ports:\n      - \"2379:2379\"\n";
            case "patroni" -> "services:\n  patroni:\n    image: ghcr.io/zalando/spilo-15:" + tag
                    + "\n    ports:\n      - \"8008:8008\"\n      - \"5432:5432\"\n";
            default -> "services:\n  web:\n    image: nginxdemos/hello:" + tag + "\n";
        };
    }

    /** The nodes' own profile: Phala is the standalone simulator; short timings; the fleet. */
    static void writeProfile(Path file, int simPort, String authoritySeed) throws Exception {
        Files.createDirectories(file.getParent());
        String sim = "http://127.0.0.1:" + simPort;
        StringBuilder yaml = new StringBuilder("""
                # ChaosIT: the postgres profile, Phala Cloud = the standalone simulator on %1$s
                simulator:
                  # only for the attestation root it shares with the standalone simulator (the same seed); nothing calls it
                  enabled: true
                  authority-seed: %2$s
                  state-file: ""
                camunda:
                  bpm:
                    job-execution:
                      lock-time-in-millis: %3$d
                      wait-time-in-millis: 200
                      max-wait: 1000
                orchestrator:
                  phala:
                    base-url: %1$s/simulator/api/v1
                    connect-timeout: PT2S
                    read-timeout: PT3S
                    initial-backoff: PT0.2S
                    max-backoff: PT1S
                    max-attempts: 3
                  phala-outage:
                    first-wait: PT2S
                    max-wait: PT5S
                  effects:
                    # above any call with the client's retries (3 x 3 s and the waits), below the lock time
                    in-flight-guard: PT14S
                  health:
                    url-template: %1$s/simulator/gateway/{instanceId}-{port}{path}
                  rollout:
                    cvm-poll-interval: PT0.5S
                  bootstrap:
                    create-missing-apps: true
                  healing:
                    enabled: true
                  attestation:
                    verifier: local
                    pccs-url: %1$s/simulator/pccs
                  fleet:
                    # the harness's operator is the admin who started the procedure: no second person to decide
                    four-eyes: false
                    replica-sets:
                """.formatted(sim, authoritySeed, ChaosCluster.LOCK_TIME_MS));
        for (Set set : SETS) {
            yaml.append(set(set));
        }
        Files.writeString(file, yaml.toString());
    }

    private static String set(Set set) {
        String indentedCompose = compose(set, "chaos-0").lines().map(l -> "              " + l).reduce((a, b) -> a + "\n" + b).orElse("");
        String health = switch (set.workloadType()) {
            case "etcd" -> "{ port: 2379, path: /health, expect-status: 200 }";
            case "patroni" -> "{ port: 8008, path: /health, expect-status: 200 }";
            default -> "{ port: 8080, path: /health, expect-status: 200 }";
        };
        return """
                      - name: %1$s
                        replicas: %2$d
                        workload-type: %3$s
                        docker-compose: |
                %4$s
                        update-policy:
                          max-unavailable: %5$d
                          min-ready-seconds: 0
                          order: ordinal-descending
                          progress-deadline-seconds: 45
                        health-check:
                          http: %6$s
                          interval-seconds: 1
                          timeout-seconds: 1
                          healthy-threshold: 1
                          unhealthy-threshold: 3
                        hooks:
                          timeout-seconds: 60
                          default-result: ABANDON
                        approvals:
                          before-rollout: false
                          between-instances: false
                        auto-healing:
                          initial-delay-seconds: 5
                          max-concurrent: 1
                          approval: none
                          on-data-loss: escalate
                """.formatted(set.name(), set.replicas(), set.workloadType(), indentedCompose, set.maxUnavailable(), health)
                + ("patroni".equals(set.workloadType()) ? """
                        failover:
                          grace-seconds: 5
                          approval: none
                          verify-timeout-seconds: 60
                """ : "");
    }
}
