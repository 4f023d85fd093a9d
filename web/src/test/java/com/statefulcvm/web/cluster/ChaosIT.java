package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.workloads.WorkloadScripts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static com.statefulcvm.web.cluster.ProcessHarness.JSON;
import static com.statefulcvm.web.cluster.ProcessHarness.log;
import static com.statefulcvm.web.cluster.ProcessHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chaos checker (docs/chaos.md): {@value ChaosCluster#NODES} orchestrator nodes on one PostgreSQL, the standalone
 * simulator as Phala Cloud, real etcd and Patroni behind simulated CVMs; per seed, a schedule of operations and faults
 * ({@link ChaosPlan}), then the invariants over the journal, the intents, the samples and the workloads
 * ({@link ChaosCheck}); per seed one report of faults, operations and violations. First, the cluster-wide
 * one-procedure-per-set lock: both nodes asked at the same instant to roll out one set, round after round.
 *
 * <p>./run-tests runs the short form: seed {@value #CI_SEEDS} after {@value #CI_LOCK_ROUNDS} lock rounds. The long form
 * (benchmarks/chaos/run.sh) sets {@code -Dchaos.seeds=1-50} ("1,2,5", "1-50" or a mix), {@code -Dchaos.lock-rounds=10}
 * and, optionally, {@code -Dchaos.budget=PT50M}: no seed starts after that much time, and the summary says how many of
 * the seeds asked ran. Needs the PostgreSQL server binaries, etcd and Patroni (.ci/run installs them).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChaosIT {

    static final String CI_SEEDS = "7";
    static final int CI_LOCK_ROUNDS = 4;
    private static final int LOCK_ROUNDS = Integer.getInteger("chaos.lock-rounds", CI_LOCK_ROUNDS);
    private static final Duration BUDGET = Duration.parse(System.getProperty("chaos.budget", "PT87600H"));
    private ChaosCluster cluster;
    private final List<ChaosRun.Report> reports = new ArrayList<>();

    @BeforeAll
    void cluster() throws Exception {
        assumeTrue(WorkloadScripts.run(30, "postgres-server.sh", "available").exitCode() == 0,
                "no PostgreSQL server binaries: the chaos checker is skipped");
        WorkloadScripts.assumeEtcd();
        WorkloadScripts.assumePatroni();
        cluster = new ChaosCluster();
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            if (!reports.isEmpty()) {
                Path summary = cluster.harness.runDir().resolve("chaos-report.txt");
                StringBuilder text = new StringBuilder();
                reports.forEach(r -> text.append(r.text()));
                Files.writeString(summary, text.toString());
            }
            cluster.close();
        }
    }

    /**
     * Both nodes asked to roll out one set at the same instant, round after round ({@code chaos.lock-rounds}): exactly one start each
     * round, the other refused with 409. With the old per-JVM lock both nodes' checks could pass before either
     * committed, and the set ran two rollouts.
     */
    @Test
    @Order(1)
    void twoNodesNeverStartTwoProceduresOfOneSet() throws Exception {
        int doubles = 0;
        List<String> rounds = new ArrayList<>();
        for (int round = 0; round < LOCK_ROUNDS; round++) {
            CyclicBarrier together = new CyclicBarrier(ChaosCluster.NODES);
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int n = 0; n < ChaosCluster.NODES; n++) {
                ChaosCluster.Node node = cluster.node(n);
                String compose = ChaosFleet.compose(ChaosFleet.WEB, "lock-" + round + "-" + n);
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        together.await(30, TimeUnit.SECONDS);
                        return node.api.postJson("/api/replica-sets/web/rollouts", Map.of("dockerCompose", compose));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            List<String> started = new ArrayList<>();
            List<Integer> statuses = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> r = answer.get(60, TimeUnit.SECONDS);
                statuses.add(r.statusCode());
                if (r.statusCode() == 201) {
                    started.add(JSON.readTree(r.body()).get("processInstanceId").asText());
                }
            }
            rounds.add(statuses.toString());
            if (started.size() > 1) {
                doubles++;
            }
            for (String pid : started) {
                // gone before its plan runs, as a rule: nothing of the set is touched
                cluster.node(0).api.delete("/engine-rest/process-instance/" + pid + "?skipCustomListeners=true&skipIoMappings=true");
            }
            awaitNoRollout();
        }
        log("procedure lock: " + LOCK_ROUNDS + " rounds of " + ChaosCluster.NODES + " simultaneous starts on " + ChaosCluster.NODES
                + " nodes, answers " + rounds + "; rounds with two rollouts of one set: " + doubles);
        assertThat(doubles).as("rounds in which both nodes started a rollout of the set: " + rounds).isZero();
        assertThat(rounds).as("each round started one").allSatisfy(r -> assertThat(r).contains("201"));
        cluster.awaitFleetRunning(Duration.ofSeconds(180));
    }

    /** A delete that met a running job of the rollout failed (optimistic locking): it is asked again until none runs. */
    private void awaitNoRollout() {
        waitUntil(Duration.ofSeconds(180), "the lock test's rollouts to end", () -> {
            try {
                JsonNode running = cluster.node(0).api.getJson("/engine-rest/process-instance?maxResults=1000&processDefinitionKey=rollout");
                for (JsonNode instance : running) {
                    cluster.node(0).api.delete("/engine-rest/process-instance/" + instance.path("id").asText()
                            + "?skipCustomListeners=true&skipIoMappings=true");
                }
                return running.isEmpty();
            } catch (Exception notNow) {
                return false;
            }
        });
    }

    @Test
    @Order(2)
    void everySeedEndsWithoutAViolation() throws Exception {
        List<Long> seeds = seeds(System.getProperty("chaos.seeds", CI_SEEDS));
        long start = System.nanoTime();
        int violations = 0;
        for (long seed : seeds) {
            if (System.nanoTime() - start > BUDGET.toNanos()) {
                log("chaos: budget " + BUDGET + " spent, no further seed starts");
                break;
            }
            ChaosRun.Report report = new ChaosRun(cluster, seed).run();
            reports.add(report);
            System.out.print(report.text());
            violations += report.violations();
        }
        System.out.println(summary() + total(seeds.size(), Duration.ofNanos(System.nanoTime() - start)));
        assertThat(violations).as("violations over seeds " + seeds + " (the reports above)").isZero();
    }

    private String total(int asked, Duration took) {
        return String.format("=== chaos total: seeds run %d of %d asked, faults injected %d, operations %d, invariant violations %d, %.0f s%n",
                reports.size(), asked, reports.stream().mapToInt(r -> r.faults().values().stream().mapToInt(i -> i).sum()).sum(),
                reports.stream().mapToInt(r -> r.operations().values().stream().mapToInt(i -> i).sum()).sum(),
                reports.stream().mapToInt(ChaosRun.Report::violations).sum(), took.toMillis() / 1000.0);
    }

    private String summary() {
        StringBuilder out = new StringBuilder("=== chaos summary: ").append(reports.size()).append(" seed(s)\n");
        out.append(String.format("  %-6s %-7s %-9s %-10s %s%n", "seed", "faults", "ops", "violations", "took"));
        for (ChaosRun.Report r : reports) {
            out.append(String.format("  %-6d %-7d %-9d %-10d %.0f s%n", r.seed(), r.faults().values().stream().mapToInt(i -> i).sum(),
                    r.operations().values().stream().mapToInt(i -> i).sum(), r.violations(), r.took().toMillis() / 1000.0));
        }
        return out.toString();
    }

    /** "1,2,5" or "1-50" or a mix. */
    static List<Long> seeds(String text) {
        List<Long> seeds = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            if (p.contains("-")) {
                long from = Long.parseLong(p.substring(0, p.indexOf('-')));
                long to = Long.parseLong(p.substring(p.indexOf('-') + 1));
                for (long s = from; s <= to; s++) {
                    seeds.add(s);
                }
            } else if (!p.isEmpty()) {
                seeds.add(Long.parseLong(p));
            }
        }
        return seeds;
    }
}
