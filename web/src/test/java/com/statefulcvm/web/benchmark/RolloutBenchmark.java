package com.statefulcvm.web.benchmark;

import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import org.awaitility.core.ConditionTimeoutException;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.runtime.Incident;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rollout time against the theoretical minimum of the policy, rounds x (update time + min ready), against the
 * embedded simulator over real HTTP with short, fixed CVM timings (profile {@code benchmark}). Not a CI test: it
 * asserts only that every rollout completed as planned and prints its figures (no wall-clock asserts). Run it with
 * {@code benchmarks/rollout/run.sh}; the report is printed and written to {@code web/target/rollout-benchmark.md}.
 *
 * <p>A case whose rollout does not complete (an incident, a halt, another end) is reported as failed, its rollouts
 * are deleted, the other cases go on, and the test fails at the end, after the report.
 *
 * <p>System properties: {@code benchmark.runs} (default 3), {@code benchmark.cases} (comma-separated case ids,
 * default all: {@code 3x1,10x1,50x10pct,50x1,20x3-concurrent}) and {@code benchmark.warmup} ({@code full}, the
 * default: a rollout of 10 and a concurrent batch; {@code small}: a rollout of 3).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("benchmark")
class RolloutBenchmark {

    private static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    private static final String WARM_UP = System.getProperty("benchmark.warmup", "full");
    private static final List<String> ONLY = Arrays.stream(System.getProperty("benchmark.cases", "").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).toList();
    private static final Path REPORT = Path.of("target", "rollout-benchmark.md");

    /** One benchmark case: the sets rolled out at once, and the per-rollout policy override (null: the file's). */
    record Case(String id, String policy, int replicas, List<String> sets, Map<String, Object> override) {
        boolean concurrent() { return sets.size() > 1; }
    }

    /** One run of a case: a rollout per set, started together; cpuNanos: this JVM's CPU time meanwhile. */
    record Run(List<BenchmarkTimeline> rollouts, long cpuNanos) {
        long makespan() {
            return rollouts.stream().mapToLong(BenchmarkTimeline::ended).max().orElse(0)
                    - rollouts.stream().mapToLong(BenchmarkTimeline::posted).min().orElse(0);
        }

        double medianMeasured() { return median(rollouts.stream().mapToDouble(BenchmarkTimeline::measured).boxed().toList()); }

        long maxMeasured() { return rollouts.stream().mapToLong(BenchmarkTimeline::measured).max().orElse(0); }
    }

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        int port = E2eSupport.freePort();
        registry.add("server.port", () -> port);
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Autowired
    ManagementService management;
    @Autowired
    ValidatedFleet fleet;

    @Value("${simulator.timings.update-ms}")
    long updateMs;
    @Value("${orchestrator.rollout.cvm-poll-interval}")
    Duration cvmPollInterval;
    @Value("${camunda.bpm.job-execution.wait-time-in-millis}")
    long jobWait;
    @Value("${camunda.bpm.job-execution.max-wait}")
    long jobMaxWait;
    @Value("${camunda.bpm.job-execution.core-pool-size}")
    int jobThreads;

    private SimulatorView simulator;

    private static String compose(String tag) {
        return "services:\n  web:\n    image: nginxdemos/hello:" + tag + "\n";
    }

    private List<Case> cases() {
        List<String> concurrent = concurrentSets();
        List<Case> all = List.of(
                new Case("3x1", "maxUnavailable 1", 3, List.of("bench-3"), null),
                new Case("10x1", "maxUnavailable 1", 10, List.of("bench-10"), null),
                new Case("50x10pct", "maxUnavailable 10% (5 at a time)", 50, List.of("bench-50"), Map.of("maxUnavailable", "10%")),
                new Case("50x1", "maxUnavailable 1", 50, List.of("bench-50"), Map.of("maxUnavailable", 1)),
                new Case("20x3-concurrent", "20 sets x 3, maxUnavailable 1, started together", 3, concurrent, null));
        return all.stream().filter(c -> ONLY.isEmpty() || ONLY.contains(c.id())).toList();
    }

    private static List<String> concurrentSets() {
        return IntStream.rangeClosed(1, 20).mapToObj(i -> String.format("conc-%02d", i)).toList();
    }

    @Test
    void rolloutTimeAgainstTheTheoreticalMinimum() throws Exception {
        simulator = new SimulatorView(http);
        for (ReplicaSetSpec spec : fleet.fleet().getReplicaSets()) {
            new RolloutDriver(http, tasks, history, spec.getName()).awaitAllRunning(spec.getReplicas());
        }

        // Warm-up, not measured: connection pools, the engine's caches and above all the JIT, which keeps compiling
        // (most of a core on 2 cores) for the first few hundred jobs. "small": one rollout of 3; default: one of 10
        // and one concurrent batch, which runs every code path of the measured cases a few dozen times.
        List<Case> warmUp = "small".equals(WARM_UP)
                ? List.of(new Case("warm-up", "maxUnavailable 1", 3, List.of("bench-3"), null))
                : List.of(new Case("warm-up", "maxUnavailable 1", 10, List.of("bench-10"), null),
                new Case("warm-up-concurrent", "maxUnavailable 1", 3, concurrentSets(), null));
        Map<Case, List<Run>> results = new LinkedHashMap<>();
        Map<Case, String> failures = new LinkedHashMap<>();
        for (Case c : warmUp) {
            try {
                runOnce(c, 0);
            } catch (RolloutFailed e) {
                failures.put(c, e.getMessage());
            }
        }
        String loadBefore = loadAverage();

        Map<Case, String> loads = new LinkedHashMap<>();
        for (Case c : cases()) {
            List<Run> runs = new ArrayList<>();
            for (int run = 1; run <= RUNS; run++) {
                Run r;
                try {
                    r = runOnce(c, run);
                } catch (RolloutFailed | AssertionError e) {
                    // AssertionError: a completed rollout whose journal does not show the planned rounds (on a
                    // starved machine the serial PATCHes of one wave can fall into two rounds); the other cases
                    // still run and the report is still printed
                    failures.put(c, "run " + run + ": " + e.getMessage());
                    System.out.printf(Locale.ROOT, "%s run %d FAILED: %s%n", c.id(), run, e.getMessage());
                    break;
                }
                runs.add(r);
                System.out.printf(Locale.ROOT, "%s run %d: %s%n", c.id(), run, c.concurrent()
                        ? String.format(Locale.ROOT, "median %.2f s, max %.2f s, makespan %.2f s", r.medianMeasured() / 1000,
                        r.maxMeasured() / 1000.0, r.makespan() / 1000.0)
                        : String.format(Locale.ROOT, "%.2f s", r.rollouts().get(0).measured() / 1000.0));
                Thread.sleep(500);
            }
            if (!runs.isEmpty()) {
                results.put(c, runs);
                loads.put(c, loadAverage().split(" ")[0]);
            }
        }
        StringBuilder report = new StringBuilder(report(results, loads, loadBefore, loadAverage()));
        failures.forEach((c, why) -> report.append(String.format(Locale.ROOT, "%nFAILED %s (%s): %s%n", c.id(), c.policy(), why)));
        System.out.println(report);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        assertThat(failures).as("cases whose rollouts did not complete").isEmpty();
    }

    /** A rollout of the run did not complete; its rollouts have been deleted. */
    static final class RolloutFailed extends Exception {
        RolloutFailed(String message) {
            super(message);
        }
    }

    /** Starts one rollout per set of the case at once, waits for all, and reads each from history and the journal. */
    private Run runOnce(Case c, int run) throws Exception {
        long since = simulator.lastEventSeq();
        long cpu = processCpuNanos();
        String compose = compose("bench-" + c.id().toLowerCase(Locale.ROOT) + "-r" + run);
        ExecutorService pool = Executors.newFixedThreadPool(c.sets().size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<long[]>> started = new ArrayList<>();
        List<String> pids = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(c.sets().size(), null)));
        try {
            for (int i = 0; i < c.sets().size(); i++) {
                int index = i;
                RolloutDriver driver = new RolloutDriver(http, tasks, history, c.sets().get(i));
                started.add(pool.submit(() -> {
                    go.await();
                    long posted = System.currentTimeMillis();
                    pids.set(index, driver.startRollout(compose, c.override()));
                    return new long[]{posted};
                }));
            }
            go.countDown();
            long[] posted = new long[c.sets().size()];
            for (int i = 0; i < posted.length; i++) {
                posted[i] = started.get(i).get()[0];
            }
            long theoretical = c.replicas() * (updateMs + 1000L * minReadySeconds(c.sets().get(0)));
            // generous: a shared machine can be slow; a rollout that cannot end by itself is caught by problem()
            Duration limit = Duration.ofMillis(theoretical * 10 + 120_000);
            for (String pid : pids) {
                String problem;
                try {
                    // the end time comes from history, so this poll's pace changes no figure; slower polls leave the CPU to the rollouts
                    problem = await().atMost(limit).pollInterval(Duration.ofMillis(250)).until(() -> problem(pid), p -> p != null);
                } catch (ConditionTimeoutException e) {
                    problem = "did not end within " + limit.toSeconds() + " s";
                }
                if (!problem.isEmpty()) {
                    for (String p : pids) {
                        if (runtime.createProcessInstanceQuery().processInstanceId(p).count() > 0) {
                            runtime.deleteProcessInstance(p, "rollout benchmark: " + problem, true, true);
                        }
                    }
                    throw new RolloutFailed(c.sets().get(pids.indexOf(pid)) + ": " + problem);
                }
            }
            cpu = processCpuNanos() - cpu;
            List<JsonNode> events = simulator.eventsSince(since);
            List<BenchmarkTimeline> rollouts = new ArrayList<>();
            for (int i = 0; i < posted.length; i++) {
                String set = c.sets().get(i);
                BenchmarkTimeline t = BenchmarkTimeline.read(history, set, pids.get(i), posted[i], SimulatorView.of(events, set + "-"));
                assertThat(t.endActivity()).as("%s rollout of %s", c.id(), set).isEqualTo("EndEvent_RolloutCompleted");
                assertThat(t.journalRounds()).as("rounds in the journal of %s", set).isEqualTo(t.plannedRounds());
                rollouts.add(t);
            }
            return new Run(rollouts, cpu);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * "" once the rollout completed; a description once it cannot complete by itself (an incident anywhere, since
     * the benchmark is the engine's only load; a halt for the operator; another end); null while it runs.
     */
    private String problem(String pid) {
        HistoricProcessInstance ended = history.createHistoricProcessInstanceQuery().processInstanceId(pid).finished().singleResult();
        if (ended != null) {
            return "EndEvent_RolloutCompleted".equals(ended.getEndActivityId()) ? "" : "ended at " + ended.getEndActivityId();
        }
        Incident incident = runtime.createIncidentQuery().list().stream().findFirst().orElse(null);
        if (incident != null) {
            return "incident at " + incident.getActivityId() + ": " + incident.getIncidentMessage() + rootCause(incident);
        }
        if (tasks.createTaskQuery().processInstanceId(pid).count() > 0) {
            return "waiting for the operator: " + tasks.createTaskQuery().processInstanceId(pid).list().get(0).getName();
        }
        return null;
    }

    /** The innermost cause of a failed job's exception, which the incident's message often hides. */
    private String rootCause(Incident incident) {
        try {
            String trace = management.getJobExceptionStacktrace(incident.getConfiguration());
            String cause = trace == null ? null : trace.lines().filter(l -> l.startsWith("Caused by:")).reduce((a, b) -> b).orElse(null);
            return cause == null ? "" : " (" + (cause.length() > 300 ? cause.substring(0, 300) + "..." : cause) + ")";
        } catch (RuntimeException e) {
            return "";
        }
    }

    private int minReadySeconds(String set) {
        return spec(set).getUpdatePolicy().getMinReadySeconds();
    }

    private ReplicaSetSpec spec(String set) {
        return fleet.fleet().getReplicaSets().stream().filter(s -> s.getName().equals(set)).findFirst().orElseThrow();
    }

    // ---------------------------------------------------------------- the report

    private String report(Map<Case, List<Run>> results, Map<Case, String> loads, String loadBefore, String loadAfter) {
        StringBuilder out = new StringBuilder();
        ReplicaSetSpec bench = spec("bench-3");
        long minReadyMs = 1000L * bench.getUpdatePolicy().getMinReadySeconds();
        long round = updateMs + minReadyMs;
        out.append(String.format(Locale.ROOT, "# Rollout benchmark, %s%n%n", LocalDate.now()));
        out.append(String.format(Locale.ROOT, "Simulator update %d ms, min ready %d s, health probe every %d s (threshold %d), "
                        + "CVM poll %d ms, job executor wait %d ms / max %d ms, %d threads; theoretical round %d ms.%n",
                updateMs, bench.getUpdatePolicy().getMinReadySeconds(), bench.getHealthCheck().getIntervalSeconds(),
                bench.getHealthCheck().getHealthyThreshold(), cvmPollInterval.toMillis(), jobWait, jobMaxWait, jobThreads, round));
        out.append(String.format(Locale.ROOT, "Machine: %d cores, %d MiB memory, Java %s; load average (1, 5, 15 min) after the warm-up %s, at the end %s "
                        + "(load: the 1-minute load average when the case ended); "
                        + "warm-up %s; %d runs per case.%n%n", Runtime.getRuntime().availableProcessors(), memoryMiB(),
                System.getProperty("java.version"), loadBefore, loadAfter, WARM_UP, RUNS));

        out.append("| case | policy | rounds (plan / journal) | theoretical s | each run s | median s | ratio | overhead per step ms | load |\n");
        out.append("|---|---|---:|---:|---|---:|---:|---:|---:|\n");
        for (Map.Entry<Case, List<Run>> e : results.entrySet()) {
            Case c = e.getKey();
            List<Run> runs = e.getValue();
            BenchmarkTimeline first = runs.get(0).rollouts().get(0);
            int rounds = first.plannedRounds();
            long theoretical = rounds * round;
            List<Double> measured = runs.stream().map(r -> c.concurrent() ? r.medianMeasured() : r.rollouts().get(0).measured()).toList();
            double median = median(measured);
            String each = String.join(", ", measured.stream().map(m -> String.format(Locale.ROOT, "%.2f", m / 1000)).toList());
            out.append(String.format(Locale.ROOT, "| %s | %s | %d / %d | %.1f | %s | %.2f | %.3f | %.0f | %s |%n",
                    c.concurrent() ? c.id() + " (median rollout)" : c.id(), c.policy(), rounds, first.journalRounds(),
                    theoretical / 1000.0, each, median / 1000, median / theoretical, (median - theoretical) / rounds, loads.get(c)));
        }
        results.forEach((c, runs) -> {
            if (c.concurrent()) {
                int rounds = runs.get(0).rollouts().get(0).plannedRounds();
                long theoretical = rounds * round;
                out.append(String.format(Locale.ROOT, "%n%s: %d rollouts per run; per run the median, slowest and makespan "
                        + "(first POST to last end) against %.1f s:%n%n", c.id(), c.sets().size(), theoretical / 1000.0));
                out.append("| run | median s | slowest s | makespan s | median ratio | slowest ratio | makespan ratio |\n");
                out.append("|---:|---:|---:|---:|---:|---:|---:|\n");
                for (int i = 0; i < runs.size(); i++) {
                    Run r = runs.get(i);
                    out.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f |%n", i + 1,
                            r.medianMeasured() / 1000, r.maxMeasured() / 1000.0, r.makespan() / 1000.0,
                            r.medianMeasured() / theoretical, (double) r.maxMeasured() / theoretical, (double) r.makespan() / theoretical));
                }
            }
        });

        out.append("\nWhere the overhead goes (means over every run and rollout of a case, ms). Per round: the rollout's "
                + "time = plan + waves + gaps between waves + finish, and each wave = the theoretical round + its overhead "
                + "(wave). Per instance step: before update = drain hook (if any; also shown alone), apply job pickup and "
                + "PATCH; update = simulated update beyond " + updateMs + " ms; detect = CVM running again until its first "
                + "check starts (the last poll); admission = attestation and health gate beyond min ready (in sequence "
                + "or side by side, as the diagram does; attestation, and the gate from its first probe to the passing one beyond min ready, also shown "
                + "alone); after = rejoin hook (if any), recording the instance, leaving the step. CPU = this JVM's CPU "
                + "time (orchestrator, engine and simulator together) per instance step: on 2 cores, 20 concurrent "
                + "rollouts need 20 / round x CPU per step.\n\n");
        out.append("| case | overhead per round | plan | wave | gap | finish | step: before update | (drain) | update | detect "
                + "| admission | (attest) | (gate) | after | polls | probes | CPU |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        results.forEach((c, runs) -> {
            List<BenchmarkTimeline> all = runs.stream().flatMap(r -> r.rollouts().stream()).toList();
            List<BenchmarkTimeline.Step> steps = all.stream().flatMap(t -> t.steps().stream()).toList();
            ToDoubleFunction<ToDoubleFunction<BenchmarkTimeline>> perRound = f -> all.stream()
                    .mapToDouble(t -> f.applyAsDouble(t) / t.plannedRounds()).average().orElse(0);
            ToDoubleFunction<ToDoubleFunction<BenchmarkTimeline.Step>> perStep = f -> steps.stream().mapToDouble(f).average().orElse(0);
            out.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f "
                            + "| %.0f | %.0f | %.0f | %.1f | %.1f | %.0f |%n",
                    c.id(),
                    perRound.applyAsDouble(t -> t.measured() - (double) t.plannedRounds() * round),
                    perRound.applyAsDouble(BenchmarkTimeline::plan),
                    perRound.applyAsDouble(t -> t.wavesTime() - (double) t.waves().size() * round),
                    perRound.applyAsDouble(BenchmarkTimeline::gaps),
                    perRound.applyAsDouble(BenchmarkTimeline::finish),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::beforeUpdate),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::drain),
                    perStep.applyAsDouble(s -> s.update() - updateMs),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::detectRunning),
                    perStep.applyAsDouble(s -> s.admission() - minReadyMs),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::attest),
                    perStep.applyAsDouble(s -> s.healthGate() - minReadyMs),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::afterGate),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::polls),
                    perStep.applyAsDouble(BenchmarkTimeline.Step::probes),
                    runs.stream().mapToLong(Run::cpuNanos).sum() / 1e6 / Math.max(1, steps.size())));
        });
        return out.toString();
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? 0 : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /** CPU time of this JVM: the orchestrator, the engine, the simulator and the benchmark's own polling. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    private static long memoryMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return Runtime.getRuntime().maxMemory() / (1024 * 1024);
    }
}
