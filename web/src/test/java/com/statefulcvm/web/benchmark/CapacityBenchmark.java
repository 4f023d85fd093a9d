package com.statefulcvm.web.benchmark;

import com.statefulcvm.web.OrchestratorApplication;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.web.cluster.SeparateJvmRollouts;
import com.statefulcvm.web.healing.HealthMonitorScheduler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Capacity of one application node with the embedded simulator, and of two nodes on one PostgreSQL (profile
 * {@code capacity}; the fleet is generated here). Not a CI test: run it with {@code benchmarks/capacity/run.sh}; it
 * prints its figures and writes them to {@code web/target/capacity-benchmark.md}, and asserts only that the work
 * completed (every rollout completed, every crash healed, both nodes took jobs), never a time.
 *
 * <ol>
 *   <li><b>Monitoring:</b> SETS sets of SET_SIZE instances, each set's health monitor probing every INTERVAL
 *   seconds, measured for MONITOR_SECONDS once the node is in its steady state (bootstrap over, every instance
 *   attested, every monitor past its first round): rounds done against the interval, rounds that began more than 1 s
 *   after their due time (the monitor's lateness meter), the round's duration, the Phala calls (the client's meter,
 *   by operation), this JVM's CPU (cores used) and heap; then CRASHES CVMs crash and the time to each heal's start
 *   is compared with interval x unhealthyThreshold + 1 s.</li>
 *   <li><b>Rollouts at once:</b> ROLLOUTS of those sets get a rollout at the same moment (maxUnavailable
 *   ROLLOUT_MAX_UNAVAILABLE): all must complete; the makespan against the theoretical minimum of one rollout, and
 *   the engine's successful jobs per second and per instance step meanwhile.</li>
 *   <li><b>Two nodes on PostgreSQL</b> (needs ORCH_TEST_PG_URL, _USER, _PASSWORD and the built jars; said so
 *   without): TWO_NODE_SETS sets of SET_SIZE and as many rollouts at once, first on one node, then on a fresh
 *   database with two nodes, each node its own JVM (SeparateJvmRollouts): jobs per node, nothing run twice, the
 *   throughput ratio two / one (instance steps per second).</li>
 * </ol>
 * Every goal of issue 23 is printed as met or not met with its figure.
 * Sizes come from environment variables (or system properties of the same name, lower case): the defaults are the
 * issue's (500 x 10, 10 s, 200 rollouts); e.g. {@code SETS=50 ROLLOUTS=20 MONITOR_SECONDS=60} proves it on a small
 * machine.
 */
class CapacityBenchmark {

    private static final int SETS = setting("SETS", 500);
    private static final int SET_SIZE = setting("SET_SIZE", 10);
    private static final int INTERVAL = setting("INTERVAL_SECONDS", 10);
    private static final int UNHEALTHY_THRESHOLD = setting("UNHEALTHY_THRESHOLD", 3);
    private static final int MONITOR_SECONDS = setting("MONITOR_SECONDS", 120);
    /** A round is late when it begins more than this after its due time (the scheduler's lateness bucket). */
    private static final int LATE_MS = 1000;
    private static final int CRASHES = setting("CRASHES", 5);
    private static final int ROLLOUTS = setting("ROLLOUTS", 200);
    private static final String ROLLOUT_MAX_UNAVAILABLE = java.util.Objects.requireNonNullElse(setting("ROLLOUT_MAX_UNAVAILABLE"), "50%");
    private static final int TWO_NODE_SETS = setting("TWO_NODE_SETS", 40);
    /** Which parts run: 1 monitoring and crashes, 2 rollouts at once (on the same node), 3 two nodes. */
    private static final String PHASES = java.util.Objects.requireNonNullElse(setting("PHASES"), "1,2,3");
    private static final int MIN_READY_SECONDS = 1;
    private static final long UPDATE_MS = 1000;
    private static final Path REPORT = Path.of("target", "capacity-benchmark.md");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final StringBuilder report = new StringBuilder();
    private final List<String> failures = new ArrayList<>();
    private final List<String> goals = new ArrayList<>();
    /** The nodes (by port) that reached their steady state. */
    private final java.util.Set<Integer> steady = new java.util.HashSet<>();

    @Test
    void capacityOfOneNodeAndOfTwo() throws Exception {
        report.append(String.format(Locale.ROOT, "# Capacity benchmark, %s%n%n", LocalDate.now()));
        report.append(String.format(Locale.ROOT, "Machine: %d cores, Java %s, heap max %d MiB; load average at the start %s. "
                        + "Sizes: %d sets x %d, health check every %d s (unhealthy after %d), measured %d s, %d crashes, "
                        + "%d rollouts at once (maxUnavailable %s), two nodes: %d sets. Simulator update %d ms, min ready %d s.%n%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20, loadAverage(), SETS, SET_SIZE, INTERVAL, UNHEALTHY_THRESHOLD,
                MONITOR_SECONDS, CRASHES, Math.min(ROLLOUTS, SETS), ROLLOUT_MAX_UNAVAILABLE, TWO_NODE_SETS, UPDATE_MS, MIN_READY_SECONDS));

        int port = E2eSupport.freePort();
        if (PHASES.contains("1") || PHASES.contains("2")) {
            String h2 = "jdbc:h2:mem:capacity-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
            try (Node node = Node.start("node-1", port, SETS, h2, null, null)) {
                if (PHASES.contains("1")) {
                    phase("monitoring", () -> monitoring(node));
                    phase("crashes", () -> crashesHeal(node));
                }
                if (PHASES.contains("2")) {
                    phase("rollouts at once", () -> {
                        awaitSteadyState(node);
                        rolloutsAtOnce(node, Math.min(ROLLOUTS, SETS), "one node, H2", true);
                    });
                }
            }
        }
        if (PHASES.contains("3")) {
            phase("two nodes", this::twoNodes);
        }

        report.append("\n## Goals\n\n");
        goals.forEach(g -> report.append(g).append('\n'));
        report.append(String.format(Locale.ROOT, "%nLoad average at the end: %s.%n", loadAverage()));
        failures.forEach(f -> report.append("\nFAILED: ").append(f).append('\n'));
        System.out.println(report);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        assertThat(failures).as("work that did not complete").isEmpty();
    }

    interface Phase {
        void run() throws Exception;
    }

    /** A phase that throws is reported as failed; the others still run and the report is still printed. */
    private void phase(String name, Phase phase) {
        System.out.printf(Locale.ROOT, "%s: %s starts%n", java.time.Instant.now(), name);
        try {
            phase.run();
        } catch (Exception | AssertionError e) {
            failures.add(name + ": " + e);
            report.append(String.format(Locale.ROOT, "%n%s: FAILED (%s)%n%n", name, e));
        }
        System.out.printf(Locale.ROOT, "%s: %s ends%n", java.time.Instant.now(), name);
    }

    // ---------------------------------------------------------------- 1. monitoring

    private void monitoring(Node node) throws Exception {
        // Measure only the steady state: every set created and bootstrapped (readiness), every instance running and
        // attested (the first rounds re-attest every instance the bootstrap created: 5,000 admit-instance processes
        // at full size), no re-attestation running, and every set's monitor held and past its first round.
        awaitSteadyState(node);
        HealthMonitorScheduler monitors = node.monitors();

        MeterRegistry meters = node.meters();
        Map<String, Long> roundsBefore = roundsBySet(monitors);
        double monitorRoundsBefore = counter(meters, HealthMonitorScheduler.ROUNDS, "monitor");
        Lateness latenessBefore = Lateness.of(meters);
        Map<String, Long> callsBefore = phalaCalls(meters);
        Sampler sampler = Sampler.start();
        Thread.sleep(MONITOR_SECONDS * 1000L);
        Sampler.Result used = sampler.stop();
        Map<String, Long> roundsAfter = roundsBySet(monitors);
        double monitorRounds = counter(meters, HealthMonitorScheduler.ROUNDS, "monitor") - monitorRoundsBefore;
        Lateness lateness = Lateness.of(meters).minus(latenessBefore);
        Map<String, Long> calls = phalaCalls(meters);
        callsBefore.forEach((op, n) -> calls.merge(op, -n, Long::sum));
        calls.values().removeIf(n -> n == 0);

        long sets = roundsAfter.entrySet().stream().filter(e -> e.getValue() > roundsBefore.getOrDefault(e.getKey(), 0L)).count();
        long expected = (long) SETS * (MONITOR_SECONDS / INTERVAL);
        long totalCalls = calls.values().stream().mapToLong(Long::longValue).sum();
        double callsPerSecond = totalCalls / (double) MONITOR_SECONDS;
        double callsPerSetRound = totalCalls / Math.max(1.0, monitorRounds);
        Timer duration = meters.find(HealthMonitorScheduler.DURATION).timer();
        report.append("## 1. Monitoring: one node, H2, embedded simulator\n\n");
        report.append("| instances | sets with rounds | rounds done / at the interval | rounds > " + LATE_MS + " ms after their due time "
                + "| lateness p50 / p95 / p99 ms | round (probes included) p50 / p95 ms | CPU cores used (whole JVM, simulator included) "
                + "| heap used: mean / max MiB | Phala calls/s (by operation) | Phala calls per set and round |\n");
        report.append("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        report.append(String.format(Locale.ROOT, "| %d | %d of %d | %.0f / %d (%.1f %%) | %d of %d (%.2f %%) | %s | %s | %.2f of %d | %d / %d | %.1f (%s) | %.2f |%n%n",
                SETS * SET_SIZE, sets, SETS, monitorRounds, expected, 100.0 * monitorRounds / Math.max(1, expected),
                lateness.late(), lateness.count(), 100.0 * lateness.late() / Math.max(1, lateness.count()),
                lateness.percentiles(), percentiles(duration), used.cores(), Runtime.getRuntime().availableProcessors(),
                used.meanHeapMiB(), used.maxHeapMiB(), callsPerSecond, perSecond(calls, MONITOR_SECONDS), callsPerSetRound));
        goal("monitoring: every round on time (at most 1 % of rounds more than " + LATE_MS + " ms after their due time, and at "
                        + "least 99 % of the rounds the interval asks for)",
                String.format(Locale.ROOT, "%.2f %% late, %.1f %% of the rounds", 100.0 * lateness.late() / Math.max(1, lateness.count()),
                        100.0 * monitorRounds / Math.max(1, expected)),
                lateness.late() <= 0.01 * lateness.count() && monitorRounds >= 0.99 * expected && sets == SETS);
        goal("monitoring: under 1 core", String.format(Locale.ROOT, "%.2f cores", used.cores()), used.cores() < 1.0);
        goal("Phala: at most one call per set per round (the shared status batch counted in full)",
                String.format(Locale.ROOT, "%.2f calls per set and round", callsPerSetRound), callsPerSetRound <= 1.0);
        double allowed = 50.0 * SETS / 500.0 * (10.0 / INTERVAL);
        goal(String.format(Locale.ROOT, "Phala: steady state at most about 50 calls/s for 500 sets every 10 s (here %.1f calls/s for %d sets every %d s)",
                allowed, SETS, INTERVAL), String.format(Locale.ROOT, "%.1f calls/s", callsPerSecond), callsPerSecond <= allowed);
    }

    /**
     * Every set created and bootstrapped (readiness), every instance running and attested (the monitors' first rounds
     * re-attest every instance the bootstrap created: 5,000 admit-instance processes at full size, with their jobs), no
     * re-attestation running, and every set's monitor past its first round: what is measured after this is the steady
     * state, not the start-up. Once per node.
     */
    private void awaitSteadyState(Node node) throws Exception {
        if (steady.contains(node.port())) {
            return;
        }
        long bootstrapStart = System.currentTimeMillis();
        node.awaitAll(Duration.ofMinutes(30), node::ready, "the fleet bootstrap (readiness)");
        long bootstrapped = System.currentTimeMillis();
        node.awaitAll(Duration.ofMinutes(30), () -> node.instancesRunningAndAttested() == (long) SETS * SET_SIZE
                && node.runningProcesses("admit-instance") == 0, "every instance running and attested");
        long attested = System.currentTimeMillis();
        HealthMonitorScheduler monitors = node.monitors();
        node.awaitAll(Duration.ofMinutes(10), () -> IntStream.range(0, SETS).allMatch(i -> monitors.localView(setName(i))
                .map(v -> v.rounds() >= 1).orElse(false)), "a first round of every set's monitor");
        report.append(String.format(Locale.ROOT, "Before measuring: fleet bootstrap %.0f s, every instance running and attested "
                + "%.0f s later, every monitor past its first round %.0f s later.%n%n", (bootstrapped - bootstrapStart) / 1000.0,
                (attested - bootstrapped) / 1000.0, (System.currentTimeMillis() - attested) / 1000.0));
        steady.add(node.port());
    }

    private void crashesHeal(Node node) throws Exception {
        int crashes = Math.min(CRASHES, SETS);
        long bound = INTERVAL * 1000L * UNHEALTHY_THRESHOLD + 1000;
        Map<String, Long> crashedAt = new LinkedHashMap<>();
        for (int i = 0; i < crashes; i++) {
            // spread over the fleet; the last ordinal, so that the rollouts later find the first sets untouched
            String set = setName(SETS - 1 - i * Math.max(1, SETS / crashes));
            String cvm = set + "-" + (SET_SIZE - 1);
            crashedAt.put(set + "/" + (SET_SIZE - 1), System.currentTimeMillis());
            node.post("/simulator/_admin/cvms/" + cvm + "/crash", null);
            // crashes at different moments of the sets' intervals, so that the delays show the spread
            Thread.sleep(INTERVAL * 1000L / Math.max(1, crashes));
        }
        Map<String, Long> healStart = new HashMap<>();
        try {
            node.awaitAll(Duration.ofMillis(bound * 4 + 60_000), () -> {
                for (String key : crashedAt.keySet()) {
                    node.history().createHistoricProcessInstanceQuery().processDefinitionKey("heal").processInstanceBusinessKey(key)
                            .list().stream().map(p -> p.getStartTime().getTime()).filter(t -> t >= crashedAt.get(key)).min(Long::compare)
                            .ifPresent(t -> healStart.put(key, t));
                }
                return healStart.size() == crashedAt.size();
            }, "a heal of every crashed instance");
            node.awaitAll(Duration.ofMinutes(5), () -> crashedAt.keySet().stream().allMatch(key -> node.history()
                    .createHistoricProcessInstanceQuery().processDefinitionKey("heal").processInstanceBusinessKey(key)
                    .unfinished().count() == 0), "every heal to end");
        } catch (AssertionError e) {
            failures.add(e.getMessage());
        }
        List<Long> delays = crashedAt.entrySet().stream().filter(e -> healStart.containsKey(e.getKey()))
                .map(e -> healStart.get(e.getKey()) - e.getValue()).toList();
        long healed = crashedAt.keySet().stream().filter(key -> node.history().createHistoricProcessInstanceQuery()
                .processDefinitionKey("heal").processInstanceBusinessKey(key).finished().count() > 0).count();
        boolean within = delays.size() == crashes && percentile(delays, 100) <= bound;
        report.append(String.format(Locale.ROOT, "Crash to heal start (%d crashes at that load): %s ms; median %d ms, max %d ms, bound "
                        + "interval x threshold + 1 s = %d ms: %s; heals ended %d of %d.%n%n", crashes, delays, percentile(delays, 50),
                percentile(delays, 100), bound, within ? "within" : "NOT within", healed, crashes));
        goal("heals on time: crash to heal start within interval x threshold + 1 s, every time",
                String.format(Locale.ROOT, "max %d ms of %d ms, %d of %d heals started", percentile(delays, 100), bound, delays.size(), crashes),
                within);
    }

    /** One goal of the issue, printed with its figure as met or not met, in the report's list of goals. */
    private void goal(String what, String figure, boolean met) {
        goals.add(String.format(Locale.ROOT, "- %s: **%s** (%s)", what, met ? "met" : "not met", figure));
    }

    private static Map<String, Long> roundsBySet(HealthMonitorScheduler monitors) {
        Map<String, Long> rounds = new HashMap<>();
        for (int i = 0; i < SETS; i++) {
            String set = setName(i);
            monitors.localView(set).ifPresent(v -> rounds.put(set, v.rounds()));
        }
        return rounds;
    }

    private static double counter(MeterRegistry meters, String name, String mode) {
        Counter counter = meters.find(name).tag("mode", mode).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Phala calls so far by operation ({@code orchestrator.phala.calls}: every HTTP attempt, whatever its answer). */
    static Map<String, Long> phalaCalls(MeterRegistry meters) {
        Map<String, Long> calls = new java.util.TreeMap<>();
        for (Timer timer : meters.find("orchestrator.phala.calls").timers()) {
            calls.merge(timer.getId().getTag("operation"), timer.count(), Long::sum);
        }
        return calls;
    }

    private static String perSecond(Map<String, Long> calls, int seconds) {
        return calls.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() / (double) seconds))
                .collect(Collectors.joining(", "));
    }

    private static String percentiles(Timer timer) {
        if (timer == null) {
            return "-";
        }
        Map<Double, Double> p = new HashMap<>();
        for (ValueAtPercentile v : timer.takeSnapshot().percentileValues()) {
            p.put(v.percentile(), v.value(TimeUnit.MILLISECONDS));
        }
        return String.format(Locale.ROOT, "%.0f / %.0f", p.getOrDefault(0.5, 0.0), p.getOrDefault(0.95, 0.0));
    }

    /** The lateness timer's count and the count within 1 s (its SLO bucket), to take differences over a window. */
    record Lateness(long count, long withinOneSecond, String percentiles) {

        static Lateness of(MeterRegistry meters) {
            Timer timer = meters.find(HealthMonitorScheduler.LATENESS).timer();
            if (timer == null) {
                return new Lateness(0, 0, "-");
            }
            HistogramSnapshot snapshot = timer.takeSnapshot();
            long within = 0;
            for (CountAtBucket bucket : snapshot.histogramCounts()) {
                if (bucket.bucket(TimeUnit.MILLISECONDS) <= LATE_MS) {
                    within = Math.max(within, (long) bucket.count());
                }
            }
            Map<Double, Double> p = new HashMap<>();
            for (ValueAtPercentile v : snapshot.percentileValues()) {
                p.put(v.percentile(), v.value(TimeUnit.MILLISECONDS));
            }
            return new Lateness(snapshot.count(), within, String.format(Locale.ROOT, "%.0f / %.0f / %.0f",
                    p.getOrDefault(0.5, 0.0), p.getOrDefault(0.95, 0.0), p.getOrDefault(0.99, 0.0)));
        }

        Lateness minus(Lateness before) {
            return new Lateness(count - before.count, withinOneSecond - before.withinOneSecond, percentiles);
        }

        long late() {
            return count - withinOneSecond;
        }
    }

    // ---------------------------------------------------------------- 2. rollouts at once

    /** Rollouts of the first {@code count} sets at once; answers instance steps per second. */
    private double rolloutsAtOnce(Node node, int count, String label, boolean header) throws Exception {
        List<String> sets = IntStream.range(0, count).mapToObj(CapacityBenchmark::setName).toList();
        int perRound = maxUnavailable(ROLLOUT_MAX_UNAVAILABLE);
        int rounds = (SET_SIZE + perRound - 1) / perRound;
        long theoretical = rounds * (UPDATE_MS + MIN_READY_SECONDS * 1000L);
        long jobsBefore = node.successfulJobs();
        Map<String, Long> jobsByNodeBefore = node.jobsByHost();
        String compose = "services:\n  web:\n    image: nginxdemos/hello:capacity-" + UUID.randomUUID() + "\n";
        ExecutorService pool = Executors.newFixedThreadPool(16);
        long first = System.currentTimeMillis();
        List<Future<String>> started = new ArrayList<>();
        for (String set : sets) {
            started.add(pool.submit(() -> {
                String body = JSON.writeValueAsString(Map.of("dockerCompose", compose, "updatePolicy",
                        Map.of("maxUnavailable", ROLLOUT_MAX_UNAVAILABLE.endsWith("%") ? ROLLOUT_MAX_UNAVAILABLE : Integer.parseInt(ROLLOUT_MAX_UNAVAILABLE))));
                return JSON.readTree(node.post("/api/replica-sets/" + set + "/rollouts", body)).get("processInstanceId").asText();
            }));
        }
        List<String> pids = new ArrayList<>();
        for (Future<String> f : started) {
            pids.add(f.get());
        }
        pool.shutdown();
        long posted = System.currentTimeMillis() - first;
        try {
            node.awaitAll(Duration.ofMillis(theoretical * count + 600_000), () -> node.history().createHistoricProcessInstanceQuery()
                    .processInstanceIds(new java.util.HashSet<>(pids)).finished().count() == pids.size(), "every rollout to end");
        } catch (AssertionError e) {
            failures.add(label + ": " + e.getMessage());
        }
        List<HistoricProcessInstance> ended = node.history().createHistoricProcessInstanceQuery()
                .processInstanceIds(new java.util.HashSet<>(pids)).finished().list();
        long completed = ended.stream().filter(p -> "EndEvent_RolloutCompleted".equals(p.getEndActivityId())).count();
        if (completed < pids.size()) {
            failures.add(label + ": " + completed + " of " + pids.size() + " rollouts completed; ends: " + ended.stream()
                    .collect(Collectors.groupingBy(p -> String.valueOf(p.getEndActivityId()), Collectors.counting())));
        }
        long makespan = ended.stream().mapToLong(p -> p.getEndTime().getTime()).max().orElse(first) - first;
        List<Long> each = ended.stream().map(p -> p.getEndTime().getTime() - p.getStartTime().getTime()).toList();
        long jobs = node.successfulJobs() - jobsBefore;
        long steps = (long) completed * SET_SIZE;
        double stepsPerSecond = steps * 1000.0 / Math.max(1, makespan);
        Map<String, Long> jobsByNode = new LinkedHashMap<>(node.jobsByHost());
        jobsByNodeBefore.forEach((host, n) -> jobsByNode.merge(host, -n, Long::sum));
        if (header) {
            report.append("## 2. Rollouts started at once\n\n");
            report.append("| setup | rollouts (completed) | POSTs took s | theoretical s (one rollout) | rollout: median / max s | makespan s "
                    + "| makespan / theoretical | instance steps/s | engine jobs/s | engine jobs per step | jobs per node |\n");
            report.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        }
        double jobsPerStep = jobs / (double) Math.max(1, steps);
        report.append(String.format(Locale.ROOT, "| %s | %d (%d) | %.1f | %.1f | %.1f / %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %s |%n",
                label, pids.size(), completed, posted / 1000.0, theoretical / 1000.0, percentile(each, 50) / 1000.0,
                percentile(each, 100) / 1000.0, makespan / 1000.0, (double) makespan / theoretical, stepsPerSecond,
                jobs * 1000.0 / Math.max(1, makespan), jobsPerStep, jobsByNode));
        if (header) {
            report.append(String.format(Locale.ROOT, "%nEngine jobs of these rollouts by activity: %s%n%n", node.jobsByActivity(pids)));
            report.append(String.format(Locale.ROOT, "Where an instance step's time goes (mean ms per activity instance): %s%n%n",
                    node.meanMillisByActivity(pids)));
            goal(String.format(Locale.ROOT, "%d rollouts at once: makespan at most 5 x the theoretical minimum", count),
                    String.format(Locale.ROOT, "%.1f x (%.1f s against %.1f s), %.1f instance steps/s", (double) makespan / theoretical,
                            makespan / 1000.0, theoretical / 1000.0, stepsPerSecond), makespan <= 5 * theoretical && completed == count);
            goal(String.format(Locale.ROOT, "%d rollouts at once: at most 2 engine jobs per instance step", count),
                    String.format(Locale.ROOT, "%.2f jobs per step (%d jobs, %d steps)", jobsPerStep, jobs, steps), jobsPerStep <= 2.0);
        }
        return stepsPerSecond;
    }

    // ---------------------------------------------------------------- 3. two nodes on PostgreSQL

    /**
     * TWO_NODE_SETS rollouts at once on one node, then on two nodes, each node its own JVM on one PostgreSQL database
     * (SeparateJvmRollouts: the built jars, the standalone simulator in a third JVM).
     */
    private void twoNodes() throws Exception {
        report.append("\n## 3. One node and two nodes on one PostgreSQL, each node its own JVM\n\n");
        if (setting("ORCH_TEST_PG_URL") == null || setting("ORCH_TEST_PG_USER") == null || setting("ORCH_TEST_PG_PASSWORD") == null) {
            report.append("Skipped: ORCH_TEST_PG_URL, ORCH_TEST_PG_USER and ORCH_TEST_PG_PASSWORD are not all set "
                    + "(workloads/postgres-server.sh start <dir>; source <dir>/env).\n");
            goal("two nodes in two JVMs: jobs split, nothing run twice", "not run: no PostgreSQL", false);
            return;
        }
        int perRound = maxUnavailable(ROLLOUT_MAX_UNAVAILABLE);
        int rounds = (SET_SIZE + perRound - 1) / perRound;
        report.append("| setup | rollouts (completed) | POSTs took s | theoretical s (one rollout) | rollout: median / max s | makespan s "
                + "| makespan / theoretical | instance steps/s | engine jobs/s | engine jobs per step | jobs per node |\n");
        report.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        SeparateJvmRollouts.Result one = SeparateJvmRollouts.run(1, TWO_NODE_SETS, SET_SIZE, ROLLOUT_MAX_UNAVAILABLE, rounds);
        report.append(one.row("one node (its own JVM), PostgreSQL")).append('\n');
        SeparateJvmRollouts.Result two = SeparateJvmRollouts.run(2, TWO_NODE_SETS, SET_SIZE, ROLLOUT_MAX_UNAVAILABLE, rounds);
        report.append(two.row("two nodes (two JVMs), PostgreSQL")).append('\n');
        double ratio = two.stepsPerSecond() / Math.max(0.001, one.stepsPerSecond());
        report.append(String.format(Locale.ROOT, "%nThroughput ratio two nodes / one (instance steps per second): %.2f. "
                + "Checks, one node: %s; two nodes: %s.%n", ratio, SeparateJvmRollouts.checks(one), SeparateJvmRollouts.checks(two)));
        one.problems().forEach(p -> failures.add("one node (JVM): " + p));
        two.problems().forEach(p -> failures.add("two nodes (JVMs): " + p));
        goal("two nodes in two JVMs on one PostgreSQL: jobs split, nothing run twice",
                String.format(Locale.ROOT, "jobs %s; %s; throughput two / one %.2f", two.jobsByNode(), SeparateJvmRollouts.checks(two), ratio),
                two.problems().isEmpty() && one.problems().isEmpty());
    }

    // ---------------------------------------------------------------- a node

    /** One application node in this JVM, with its own engine (name = host name, which the job log records). */
    record Node(String name, int port, ConfigurableApplicationContext context) implements AutoCloseable {

        static Node start(String name, int port, int sets, String dbUrl, String user, String password) {
            List<String> args = common(name, port, sets, dbUrl, user, password);
            return started(name, port, args);
        }

        private static Node started(String name, int port, List<String> args) {
            return started(name, port, args, context -> { });
        }

        private static Node started(String name, int port, List<String> args,
                                    org.springframework.context.ApplicationContextInitializer<ConfigurableApplicationContext> initializer) {
            long t0 = System.currentTimeMillis();
            ConfigurableApplicationContext context = new SpringApplicationBuilder(OrchestratorApplication.class)
                    .profiles("capacity").initializers(initializer).run(args.toArray(String[]::new));
            Node node = new Node(name, port, context);
            System.out.printf(Locale.ROOT, "%s started on port %d in %.1f s%n", name, port, (System.currentTimeMillis() - t0) / 1000.0);
            return node;
        }

        private static List<String> common(String name, int port, int sets, String dbUrl, String user, String password) {
            List<String> args = new ArrayList<>(List.of(
                    "--server.port=" + port,
                    "--spring.datasource.url=" + dbUrl,
                    "--camunda.bpm.generic-properties.properties.hostname=" + name));
            if (user != null) {
                args.add("--spring.datasource.username=" + user);
                args.add("--spring.datasource.password=" + password);
            }
            for (int i = 0; i < sets; i++) {
                String p = "--orchestrator.fleet.replica-sets[" + i + "].";
                args.addAll(List.of(
                        p + "name=" + setName(i),
                        p + "replicas=" + SET_SIZE,
                        p + "workload-type=generic",
                        p + "docker-compose=services:\n  web:\n    image: nginxdemos/hello:0.3\n",
                        p + "update-policy.max-unavailable=1",
                        p + "update-policy.min-ready-seconds=" + MIN_READY_SECONDS,
                        p + "update-policy.progress-deadline-seconds=600",
                        p + "update-policy.on-failure=PAUSE",
                        p + "health-check.http.port=8080",
                        p + "health-check.http.path=/health",
                        p + "health-check.http.expect-status=200",
                        p + "health-check.interval-seconds=" + INTERVAL,
                        p + "health-check.timeout-seconds=" + Math.min(5, INTERVAL),
                        p + "health-check.healthy-threshold=1",
                        p + "health-check.unhealthy-threshold=" + UNHEALTHY_THRESHOLD,
                        p + "approvals.before-rollout=false",
                        p + "approvals.between-instances=false",
                        p + "auto-healing.enabled=true",
                        p + "auto-healing.initial-delay-seconds=2",
                        p + "auto-healing.max-concurrent=1",
                        p + "auto-healing.approval=none"));
            }
            return args;
        }

        HistoryService history() {
            return context.getBean(ProcessEngine.class).getHistoryService();
        }

        HealthMonitorScheduler monitors() {
            return context.getBean(HealthMonitorScheduler.class);
        }

        MeterRegistry meters() {
            return context.getBean(MeterRegistry.class);
        }

        /** Readiness: UP once the fleet bootstrap is over (FleetBootstrap). */
        boolean ready() {
            try {
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/health/readiness")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                return answer.statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        }

        long instancesRunningAndAttested() {
            Long n = new JdbcTemplate(context.getBean(javax.sql.DataSource.class)).queryForObject(
                    "SELECT COUNT(*) FROM orch_instance WHERE status = 'running' AND attested = TRUE", Long.class);
            return n == null ? 0 : n;
        }

        long runningProcesses(String key) {
            return context.getBean(ProcessEngine.class).getRuntimeService().createProcessInstanceQuery().processDefinitionKey(key).count();
        }

        long successfulJobs() {
            return history().createHistoricJobLogQuery().successLog().count();
        }

        /** Successful jobs by the host name of the engine that ran them (ACT_HI_JOB_LOG.HOSTNAME_). */
        Map<String, Long> jobsByHost() {
            Map<String, Long> out = new LinkedHashMap<>();
            new JdbcTemplate(context.getBean(javax.sql.DataSource.class)).query(
                    "SELECT HOSTNAME_, COUNT(*) FROM ACT_HI_JOB_LOG WHERE JOB_STATE_ = 2 GROUP BY HOSTNAME_ ORDER BY HOSTNAME_",
                    rs -> {
                        out.put(rs.getString(1), rs.getLong(2));
                    });
            return out;
        }

        /** Successful jobs of the given rollouts and everything they called (root process instance), by activity. */
        Map<String, Long> jobsByActivity(Collection<String> rollouts) {
            Map<String, Long> out = new LinkedHashMap<>();
            for (String pid : rollouts) {
                new JdbcTemplate(context.getBean(javax.sql.DataSource.class)).query(
                        "SELECT ACT_ID_, COUNT(*) FROM ACT_HI_JOB_LOG WHERE JOB_STATE_ = 2 AND ROOT_PROC_INST_ID_ = ? GROUP BY ACT_ID_",
                        rs -> {
                            out.merge(rs.getString(1), rs.getLong(2), Long::sum);
                        }, pid);
            }
            return out;
        }

        /** The mean duration of the instance step's activities in the given rollouts, in their order in a step. */
        Map<String, Long> meanMillisByActivity(Collection<String> rollouts) {
            List<String> activities = List.of("Task_ApplyPlannedAction", "Task_AwaitCvmRunning", "Gateway_WaitForCvm",
                    "Task_ProbeHealth", "CallActivity_AttestInstance", "Gateway_WaitForProbe", "Task_RecordInstanceUpdated",
                    "SubProcess_UpdateSlot");
            Map<String, List<Long>> durations = new LinkedHashMap<>();
            activities.forEach(a -> durations.put(a, new ArrayList<>()));
            for (String pid : rollouts) {
                for (HistoricActivityInstance a : history().createHistoricActivityInstanceQuery().processInstanceId(pid).finished().list()) {
                    List<Long> of = durations.get(a.getActivityId());
                    if (of != null && a.getDurationInMillis() != null) {
                        of.add(a.getDurationInMillis());
                    }
                }
            }
            Map<String, Long> means = new LinkedHashMap<>();
            durations.forEach((a, d) -> means.put(a, d.isEmpty() ? 0 : d.stream().mapToLong(Long::longValue).sum() / d.size()));
            return means;
        }

        String post(String path, String json) throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8)));
            request = json == null ? request.POST(HttpRequest.BodyPublishers.noBody())
                    : request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
            HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() >= 300) {
                throw new IllegalStateException("POST " + path + " answered " + answer.statusCode() + ": " + answer.body());
            }
            return answer.body();
        }

        void awaitAll(Duration limit, java.util.concurrent.Callable<Boolean> done, String what) throws Exception {
            long until = System.currentTimeMillis() + limit.toMillis();
            while (!done.call()) {
                if (System.currentTimeMillis() > until) {
                    throw new AssertionError(name + ": waited " + limit.toSeconds() + " s for " + what);
                }
                Thread.sleep(1000);
            }
        }

        @Override
        public void close() {
            context.close();
        }
    }

    /** This JVM's CPU time and heap, sampled every second over a window. */
    static final class Sampler {
        private final long cpu0 = cpuNanos();
        private final long t0 = System.nanoTime();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong heapSum = new AtomicLong();
        private final AtomicLong heapMax = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();
        private final Thread thread;

        private Sampler() {
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            thread = new Thread(() -> {
                while (running.get()) {
                    long used = memory.getHeapMemoryUsage().getUsed();
                    heapSum.addAndGet(used);
                    heapMax.accumulateAndGet(used, Math::max);
                    samples.incrementAndGet();
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "capacity-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        static Sampler start() {
            return new Sampler();
        }

        Result stop() throws InterruptedException {
            running.set(false);
            thread.join();
            return new Result((cpuNanos() - cpu0) / (double) (System.nanoTime() - t0),
                    heapSum.get() / Math.max(1, samples.get()) >> 20, heapMax.get() >> 20);
        }

        record Result(double cores, long meanHeapMiB, long maxHeapMiB) {
        }

        private static long cpuNanos() {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os.getProcessCpuTime() : 0;
        }
    }

    // ---------------------------------------------------------------- helpers

    static String setName(int i) {
        return String.format(Locale.ROOT, "cap-%03d", i);
    }

    private static int maxUnavailable(String value) {
        return value.endsWith("%")
                ? Math.max(1, SET_SIZE * Integer.parseInt(value.substring(0, value.length() - 1)) / 100)
                : Integer.parseInt(value);
    }

    private static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = values.stream().sorted(Comparator.naturalOrder()).toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - (p == 0 ? 0 : 1)));
    }

    private static int setting(String name, int fallback) {
        String value = setting(name);
        return value == null ? fallback : Integer.parseInt(value.trim());
    }

    private static String setting(String name) {
        String value = System.getProperty(name.toLowerCase(Locale.ROOT).replace('_', '.'));
        if (value == null || value.isBlank()) {
            value = System.getenv(name);
        }
        return value == null || value.isBlank() ? null : value;
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
