package com.statefulcvm.web.e2e;

import com.statefulcvm.web.RolloutDriver;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.web.e2e.SoakRun.Halt;
import com.statefulcvm.web.e2e.SoakRun.Scenario;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricIncident;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricTaskInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Soak: 50 rollouts over 10 replica sets of 3 (profile {@code soak}), 5 per set one after the other, the sets side by
 * side, against the embedded simulator over real HTTP while faults are injected: in the background, untargeted 503s,
 * 429s with {@code Retry-After}, 409s and answers slower than the Phala client's read timeout; and per rollout, by
 * {@link Scenario}: targeted transient faults, a compose PATCH held past the client's timeout (the update is made all
 * the same), a CVM crashed while it is {@code updating}, and an instance that never gets healthy under a short progress
 * deadline. The test plays the operator: at every halted task it reads the reason, then retries (healing the
 * instance first where the scenario made it unhealthy) or aborts (the DEADLINE scenario on odd sets, and any rollout
 * after {@value #MAX_HALTS_PER_ROLLOUT} halts), so that every rollout ends.
 *
 * <p>What must hold at the end:
 * <ul>
 *   <li><b>Rollouts complete</b>: every scenario at least once, and at least half of the rollouts the operator does not
 *   mean to abort (all but the DEADLINE runs on odd sets); the others were given up after repeated halts.</li>
 *   <li><b>Every rollout ended</b> either completed ({@code EndEvent_RolloutCompleted}), or aborted after it halted at
 *   an operator task ({@code UserTask_RolloutHalted} with a non-empty {@code haltReason}, or
 *   {@code UserTask_HookDidNotFinish} with a non-empty {@code hookFailure}) that the test resolved. A completed rollout
 *   may have halted and been retried on the way; every halt had a non-empty reason.</li>
 *   <li><b>Nothing half-applied without a record.</b> A CVM update is <em>half-applied</em> when the simulator's
 *   journal shows the CVM entering {@code updating} (Phala accepted a compose change) and the orchestrator's history
 *   holds no account of that slot for the rollout that changed it. Precisely: every journal event
 *   {@code to=updating} of a soak CVM must fall within the lifetime (start to end, engine history) of a rollout of
 *   that CVM's set (sets run one rollout at a time, so there is at most one), and that rollout must have either a
 *   {@code stepOutcome} for the slot in its history (the step recorded the instance as updated), or a halt that names
 *   the slot (a halted task of that slot, whose reason the operator saw). Also, no slot may enter {@code updating}
 *   twice within one rollout (the update is never sent twice, even when a timed-out PATCH is retried by the
 *   engine).</li>
 *   <li><b>No incident without a message</b>, runtime or historic; their counts are printed (ideally zero).</li>
 *   <li>Every CVM runs at the end, and a set whose last rollout completed runs that rollout's compose everywhere;
 *   every second start of a running set's rollout was refused with 409; each fault kind was met at least once.</li>
 * </ul>
 * The summary (rollouts completed, halted-then-retried, aborted; faults injected and met per kind; crashes; incidents;
 * engine job failures; total time) is printed to standard output, with one line per rollout as it ends. With
 * {@code -Dsoak.debug=true} (surefire: {@code -DargLine=-Dsoak.debug=true}) every halt also prints the activities and
 * jobs of the last 40 s of its rollout and the procedures it called, to see what the deadline interrupted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("soak")
@DirtiesContext
class SoakTest {

    private static final int SETS = 10;
    private static final int REPLICAS = 3;
    private static final int ROLLOUTS_PER_SET = 5;
    private static final int MAX_HALTS_PER_ROLLOUT = 4;
    /**
     * The progress deadlines of the CRASH and DEADLINE scenarios: well above a normal instance step (about 2 s here,
     * several times that on a loaded machine), far below the fleet file's 45 s (which leaves room for a failed job's
     * 10 s retry wait on a loaded machine). A step that misses its deadline for slowness halts like any other, and
     * the operator retries it.
     */
    private static final int CRASH_DEADLINE_SECONDS = 15;
    private static final int HEALTH_DEADLINE_SECONDS = 10;
    private static final Duration ROLLOUT_LIMIT = Duration.ofSeconds(240);
    private static final Duration OVERALL_LIMIT = Duration.ofMinutes(8);
    private static final ObjectMapper JSON = new ObjectMapper();

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
    ManagementService managementService;

    private SoakFaults faults;
    /** CVM name to its {@code cvm_…} id, the id the orchestrator's client puts in its paths. */
    private Map<String, String> cvmIds;
    private final AtomicInteger backgroundTick = new AtomicInteger();

    private static String set(int s) {
        return String.format("soak-%02d", s);
    }

    private static String slot(String set, int ordinal) {
        return set + "-" + ordinal;
    }

    private static String compose(String set, int index) {
        return "services:\n  web:\n    image: nginxdemos/hello:" + set + "-r" + index + "\n";
    }

    @Test
    void fiftyRolloutsUnderFaultsEndCompletedOrHaltedWithAReasonAndNothingIsHalfApplied() throws Exception {
        faults = new SoakFaults(http);
        awaitEveryCvmRunning();
        cvmIds = new HashMap<>();
        faults.cvmsByName().forEach((name, cvm) -> cvmIds.put(name, cvm.get("id").asText()));
        long seqBefore = faults.lastSeq();

        List<List<SoakRun>> perSet = new ArrayList<>();
        for (int s = 0; s < SETS; s++) {
            List<SoakRun> runs = new ArrayList<>();
            for (int r = 0; r < ROLLOUTS_PER_SET; r++) {
                Scenario scenario = Scenario.values()[(s + r) % Scenario.values().length];
                Map<String, Object> override = switch (scenario) {
                    case CRASH -> Map.of("progressDeadlineSeconds", CRASH_DEADLINE_SECONDS);
                    case DEADLINE -> Map.of("progressDeadlineSeconds", HEALTH_DEADLINE_SECONDS);
                    default -> null;
                };
                runs.add(new SoakRun(set(s), r, scenario, compose(set(s), r), override, s % 2 == 1));
            }
            perSet.add(runs);
        }

        long started = System.nanoTime();
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        chaos.scheduleAtFixedRate(this::backgroundFault, 500, 1500, TimeUnit.MILLISECONDS);
        ExecutorService operators = Executors.newFixedThreadPool(SETS);
        List<Future<?>> done = new ArrayList<>();
        for (List<SoakRun> runs : perSet) {
            done.add(operators.submit(() -> {
                for (SoakRun run : runs) {
                    execute(run);
                }
                return null;
            }));
        }
        List<Throwable> errors = new ArrayList<>();
        long deadline = System.nanoTime() + OVERALL_LIMIT.toNanos();
        for (Future<?> future : done) {
            try {
                future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                errors.add(e.getCause());
            } catch (java.util.concurrent.TimeoutException e) {
                errors.add(new AssertionError("the rollouts did not all end within " + OVERALL_LIMIT));
                printUnfinished(perSet.stream().flatMap(List::stream).toList());
                break;
            }
        }
        chaos.shutdownNow();
        operators.shutdownNow();
        chaos.awaitTermination(5, TimeUnit.SECONDS);
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;

        errors.forEach(Throwable::printStackTrace);
        Map<String, int[]> tally = faults.tallyAndClear();
        for (String cvm : cvmIds.keySet()) {
            faults.healthy(cvm, true);
        }
        List<SoakRun> all = perSet.stream().flatMap(List::stream).toList();
        List<String> halfApplied = new ArrayList<>();
        Map<String, Integer> journal = checkJournal(faults.eventsSince(seqBefore), all, halfApplied);
        List<Incident> openIncidents = runtime.createIncidentQuery().list();
        List<HistoricIncident> historicIncidents = history.createHistoricIncidentQuery().list();
        long jobFailures = history.createHistoricJobLogQuery().failureLog().count();

        printSummary(all, tally, journal, openIncidents, historicIncidents, jobFailures, elapsedMs);
        assertThat(errors).as("operator threads failed").isEmpty();

        // Every rollout ended: completed, or aborted by the operator at a halt whose reason it read.
        for (SoakRun run : all) {
            assertThat(run.endActivity).as(run.toString()).isIn("EndEvent_RolloutCompleted", "EndEvent_RolloutAborted");
            run.halts.forEach(h -> assertThat(h.reason()).as("halt reason in " + run).isNotBlank());
            if (!run.completed()) {
                assertThat(run.halts).as("a rollout that did not complete halted first: " + run).isNotEmpty();
                assertThat(run.halts.get(run.halts.size() - 1).decision()).as(run.toString()).isEqualTo("abort");
            }
            assertThat(run.secondStartRefused).as("a second rollout of a running set is refused: " + run).isTrue();
        }
        // Issue 20: rollouts complete under faults, not merely end: a soak in which every rollout aborted proves nothing.
        // Every scenario completes at least once, and at least half of the rollouts the operator does not mean to abort
        // complete (the others were given up after MAX_HALTS_PER_ROLLOUT halts on a loaded machine).
        List<SoakRun> meantToComplete = all.stream().filter(r -> !r.abortIntended()).toList();
        long completedAsMeant = meantToComplete.stream().filter(SoakRun::completed).count();
        assertThat(completedAsMeant).as("rollouts completed of %d meant to complete: %s", meantToComplete.size(),
                meantToComplete.stream().filter(r -> !r.completed()).toList()).isGreaterThanOrEqualTo((meantToComplete.size() + 1) / 2);
        for (Scenario scenario : Scenario.values()) {
            assertThat(all.stream().filter(r -> r.scenario == scenario).anyMatch(SoakRun::completed))
                    .as("a rollout of scenario %s completed", scenario).isTrue();
        }
        for (SoakRun run : all.stream().filter(SoakRun::abortIntended).toList()) {
            assertThat(run.aborted()).as("the operator aborted " + run).isTrue();
        }
        for (SoakRun run : all.stream().filter(r -> r.scenario == Scenario.DEADLINE).toList()) {
            assertThat(run.halts).as("the progress deadline halted " + run).isNotEmpty();
            assertThat(run.halts.get(0).reason()).as(run.toString()).contains("progress deadline").contains(slot(run.set, 0));
        }
        assertThat(halfApplied).as("CVM updates without a recorded step or a halt naming the slot").isEmpty();

        // No incident without a message.
        openIncidents.forEach(i -> assertThat(i.getIncidentMessage()).as("incident at " + i.getActivityId()).isNotBlank());
        historicIncidents.forEach(i -> assertThat(i.getIncidentMessage()).as("incident at " + i.getActivityId()).isNotBlank());

        // Every fault kind was met by the orchestrator, and a crash hit a CVM while it was updating.
        tally.forEach((kind, counts) -> assertThat(counts[1]).as("fault kind met: " + kind).isPositive());
        assertThat(journal.get("crashed while updating")).as("crashes that hit an update").isPositive();

        // The fleet ends up running; a set whose last rollout completed runs its compose everywhere.
        awaitEveryCvmRunning();
        for (List<SoakRun> runs : perSet) {
            SoakRun last = runs.get(runs.size() - 1);
            if (last.completed()) {
                for (int ordinal = 0; ordinal < REPLICAS; ordinal++) {
                    assertThat(faults.cvm(slot(last.set, ordinal)).get("compose_file").get("docker_compose_file").asText())
                            .as(slot(last.set, ordinal) + " after " + last).isEqualTo(last.compose);
                }
            }
        }
    }

    // --- one rollout, played by its set's operator thread -------------------------------------------------------------

    private void execute(SoakRun run) throws Exception {
        String s2 = slot(run.set, 2);
        String s1 = slot(run.set, 1);
        String s0 = slot(run.set, 0);
        switch (run.scenario) {
            case TRANSIENT -> {
                faults.inject("503", true, SoakFaults.fault("PATCH", "/cvms/" + cvmIds.get(s2) + "/docker-compose", 503, 2));
                faults.inject("429 Retry-After", true, SoakFaults.with(
                        SoakFaults.fault("PATCH", "/cvms/" + cvmIds.get(s1) + "/docker-compose", 429, 2), "retryAfterSeconds", 1));
                faults.inject("409", true, SoakFaults.fault("PATCH", "/cvms/" + cvmIds.get(s0) + "/docker-compose", 409, 1));
                faults.inject("503", true, SoakFaults.fault("GET", "/cvms/" + cvmIds.get(s1), 503, 2));
            }
            case TIMEOUT -> {
                // Held past the client's read timeout, then let through: the CVM is updated though the client saw no
                // answer; the apply job fails and the engine's retry must find the update made, not send it again.
                faults.inject("timeout (slow answer)", true, SoakFaults.with(
                        SoakFaults.fault("PATCH", "/cvms/" + cvmIds.get(s2) + "/docker-compose", null, 1), "delayMs", 4500));
                faults.inject("timeout (slow answer)", true, SoakFaults.with(
                        SoakFaults.fault("GET", "/cvms/" + cvmIds.get(s1), null, 1), "delayMs", 4000));
            }
            case CRASH -> run.crashPending = s1;
            case DEADLINE -> {
                faults.healthy(s0, false);
                run.unhealthy = s0;
            }
            case CLEAN -> {
                // the background faults only
            }
        }
        run.journalSeqAtStart = faults.lastSeq();
        long started = System.nanoTime();
        run.processInstanceId = start(run, HttpStatus.CREATED);
        run.secondStartRefused = start(run, HttpStatus.CONFLICT) == null;

        await().atMost(ROLLOUT_LIMIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> tick(run));
        HistoricProcessInstance ended = history.createHistoricProcessInstanceQuery()
                .processInstanceId(run.processInstanceId).singleResult();
        run.endActivity = ended.getEndActivityId();
        if (run.unhealthy != null) {
            faults.healthy(run.unhealthy, true);
        }
        System.out.printf("soak: %-22s -> %s in %.1f s, halts %s%n", run.name(), run.endActivity,
                (System.nanoTime() - started) / 1e9, run.halts.stream().map(h -> h.slot() + ":" + h.decision() + " ("
                        + h.reason() + ")").toList());
    }

    /** What holds each rollout that has not ended: its stages, open tasks, incidents and failing jobs. */
    private void printUnfinished(List<SoakRun> runs) {
        for (SoakRun run : runs) {
            if (run.processInstanceId == null || run.endActivity != null) {
                continue;
            }
            String pid = run.processInstanceId;
            System.out.printf("soak: unfinished %s %s: stages %s; tasks %s; incidents %s; failing jobs %s%n", run.name(), pid,
                    runtime.createVariableInstanceQuery().processInstanceIdIn(pid).variableName("stage").list().stream()
                            .map(v -> String.valueOf(v.getValue())).toList(),
                    tasks.createTaskQuery().processInstanceId(pid).list().stream().map(Task::getName).toList(),
                    runtime.createIncidentQuery().processInstanceId(pid).list().stream()
                            .map(i -> i.getActivityId() + ": " + i.getIncidentMessage()).toList(),
                    managementService.createJobQuery().processInstanceId(pid).withException().list().stream()
                            .map(j -> j.getRetries() + " retries: " + j.getExceptionMessage()).toList());
        }
    }

    /** POSTs the rollout; answers its process instance id on 201, null on the expected refusal. */
    private String start(SoakRun run, HttpStatus expected) throws Exception {
        Map<String, Object> body = new HashMap<>();
        body.put("dockerCompose", run.compose);
        if (run.override != null) {
            body.put("updatePolicy", run.override);
        }
        ResponseEntity<String> answer = http.withBasicAuth("admin", "admin")
                .postForEntity("/api/replica-sets/" + run.set + "/rollouts", RolloutDriver.json(body), String.class);
        assertThat(answer.getStatusCode()).as(run.name() + ": " + answer.getBody()).isEqualTo(expected);
        return expected == HttpStatus.CREATED ? JSON.readTree(answer.getBody()).get("processInstanceId").asText() : null;
    }

    /** One look at the rollout: crash its CVM if it is due, resolve any operator task; true once it has ended. */
    private boolean tick(SoakRun run) {
        if (run.crashPending != null) {
            for (JsonNode event : faults.eventsSince(run.journalSeqAtStart)) {
                if (run.crashPending.equals(event.get("cvm").asText()) && "updating".equals(event.get("to").asText())) {
                    faults.crash(run.crashPending);
                    run.crashed = run.crashPending;
                    run.crashPending = null;
                    break;
                }
            }
        }
        List<String> instances = new ArrayList<>(List.of(run.processInstanceId));
        runtime.createProcessInstanceQuery().superProcessInstanceId(run.processInstanceId).list().stream()
                .map(ProcessInstance::getId).forEach(instances::add);
        for (Task task : tasks.createTaskQuery().processInstanceIdIn(instances.toArray(String[]::new)).list()) {
            resolve(run, task);
        }
        return history.createHistoricProcessInstanceQuery().processInstanceId(run.processInstanceId).finished().count() == 1;
    }

    /** The operator: reads the reason, decides, completes the task through the engine's REST API as Tasklist does. */
    private void resolve(SoakRun run, Task task) {
        String key = task.getTaskDefinitionKey();
        String reasonVariable = switch (key) {
            case "UserTask_RolloutHalted" -> "haltReason";
            case "UserTask_HookDidNotFinish" -> "hookFailure";
            default -> throw new AssertionError("unexpected task in " + run + ": " + key + " " + task.getName());
        };
        Object reason = tasks.getVariable(task.getId(), reasonVariable);
        String slot = (String) tasks.getVariable(task.getId(), "slot");
        String decision;
        if (run.halts.size() + 1 >= MAX_HALTS_PER_ROLLOUT) {
            decision = "abort";
        } else if (run.scenario == Scenario.DEADLINE && slot.equals(run.unhealthy)) {
            if (run.abortAtHalt) {
                decision = "abort";
            } else {
                faults.healthy(slot, true);
                run.unhealthy = null;
                decision = "retry";
            }
        } else {
            decision = "retry";
        }
        if (Boolean.getBoolean("soak.debug")) {
            debugHalt(run, slot, String.valueOf(reason));
        }
        ResponseEntity<String> completed = http.withBasicAuth("admin", "admin").postForEntity(
                "/engine-rest/task/" + task.getId() + "/complete",
                RolloutDriver.json(Map.of("variables", Map.of("decision", Map.of("value", decision, "type", "String")))),
                String.class);
        if (completed.getStatusCode() == HttpStatus.NO_CONTENT) {
            run.halts.add(new Halt(key, task.getName(), slot, reason == null ? null : reason.toString(), decision));
        } else {
            // left open: the next tick tries again
            System.out.printf("soak: completing %s of %s answered %s %s%n", key, run.name(), completed.getStatusCode(),
                    completed.getBody());
        }
    }

    private void debugHalt(SoakRun run, String slot, String reason) {
        StringBuilder out = new StringBuilder("soak-debug: halt of " + run.name() + " at " + slot + ": " + reason + "\n");
        List<String> pids = new ArrayList<>(List.of(run.processInstanceId));
        history.createHistoricProcessInstanceQuery().superProcessInstanceId(run.processInstanceId).list()
                .forEach(p -> pids.add(p.getId()));
        for (String pid : pids) {
            history.createHistoricActivityInstanceQuery().processInstanceId(pid).orderByHistoricActivityInstanceStartTime().asc()
                    .list().stream().filter(a -> a.getStartTime().toInstant().isAfter(Instant.now().minusSeconds(40)))
                    .forEach(a -> out.append(String.format("  %s %-40s %s -> %s%s%n", pid.substring(0, 8), a.getActivityId(),
                            a.getStartTime().toInstant(), a.getEndTime() == null ? "-" : a.getEndTime().toInstant(),
                            a.isCanceled() ? " CANCELED" : "")));
            history.createHistoricJobLogQuery().processInstanceId(pid).orderByTimestamp().asc().list().stream()
                    .filter(j -> j.getTimestamp().toInstant().isAfter(Instant.now().minusSeconds(40)))
                    .forEach(j -> out.append(String.format("  %s job %s %s %s%s%s%n", pid.substring(0, 8), j.getActivityId(),
                            j.getTimestamp().toInstant(), j.isCreationLog() ? "created" : j.isSuccessLog() ? "succeeded"
                                    : j.isFailureLog() ? "FAILED" : "deleted", j.getJobDueDate() == null ? "" : " due " + j.getJobDueDate().toInstant(),
                            j.getJobExceptionMessage() == null ? "" : ": " + j.getJobExceptionMessage())));
        }
        System.out.print(out);
    }

    /**
     * Untargeted faults, one every 1.5 s while the rollouts run, each within the client's own attempts, and one at a
     * time: a fault waits for the calls it matches, and while the Phala circuit is open (a fault met after the
     * client's attempts) only a probe now and then calls Phala, so faults queued meanwhile would each meet the next
     * probe and keep Phala "down" for minutes, an outage no real service has from a few transient answers.
     */
    private void backgroundFault() {
        try {
            if (faults.untargetedPending()) {
                return;
            }
            switch (backgroundTick.getAndIncrement() % 6) {
                case 0 -> faults.inject("503", false, SoakFaults.fault("GET", "/cvms/*", 503, 2));
                case 1 -> faults.inject("429 Retry-After", false,
                        SoakFaults.with(SoakFaults.fault("GET", "/apps/*/cvms", 429, 1), "retryAfterSeconds", 1));
                case 2 -> faults.inject("409", false, SoakFaults.fault("PATCH", "/cvms/*/docker-compose", 409, 1));
                case 3 -> faults.inject("timeout (slow answer)", false,
                        SoakFaults.with(SoakFaults.fault("GET", "/cvms/*", null, 1), "delayMs", 4000));
                case 4 -> faults.inject("503", false, SoakFaults.fault("PATCH", "/cvms/*/docker-compose", 503, 1));
                default -> faults.inject("429 Retry-After", false,
                        SoakFaults.with(SoakFaults.fault("GET", "/cvms/*", 429, 1), "retryAfterSeconds", 1));
            }
        } catch (RuntimeException | AssertionError e) {
            System.out.println("soak: background fault not injected: " + e);
        }
    }

    // --- the journal against the history ------------------------------------------------------------------------

    /**
     * Checks every update in the journal against the rollouts' history (see the class comment), adding each violation
     * to {@code halfApplied}; answers counts for the summary.
     */
    private Map<String, Integer> checkJournal(List<JsonNode> events, List<SoakRun> runs, List<String> halfApplied) {
        Map<String, List<SoakRun>> bySet = runs.stream().collect(Collectors.groupingBy(r -> r.set));
        Map<SoakRun, HistoricProcessInstance> instances = new HashMap<>();
        Map<SoakRun, Set<String>> recorded = new HashMap<>();
        for (SoakRun run : runs) {
            if (run.processInstanceId != null) {
                instances.put(run, history.createHistoricProcessInstanceQuery().processInstanceId(run.processInstanceId).singleResult());
                recorded.put(run, recordedSlots(run));
            }
        }
        int updates = 0;
        int accounted = 0;
        int doubled = 0;
        int crashedWhileUpdating = 0;
        Set<String> seen = new HashSet<>();
        for (JsonNode event : events) {
            String cvm = event.get("cvm").asText();
            if (!cvm.startsWith("soak-")) {
                continue;
            }
            String from = event.get("from").isNull() ? null : event.get("from").asText();
            String to = event.get("to").asText();
            if ("updating".equals(from) && "stopped".equals(to)) {
                crashedWhileUpdating++;
            }
            if (!"updating".equals(to)) {
                continue;
            }
            updates++;
            Instant at = Instant.parse(event.get("at").asText());
            String set = cvm.substring(0, cvm.lastIndexOf('-'));
            SoakRun owner = null;
            for (SoakRun run : bySet.getOrDefault(set, List.of())) {
                HistoricProcessInstance instance = instances.get(run);
                if (instance == null) {
                    continue;
                }
                Instant start = instance.getStartTime().toInstant();
                Instant end = instance.getEndTime() == null ? Instant.MAX : instance.getEndTime().toInstant();
                if (!at.isBefore(start) && !at.isAfter(end)) {
                    owner = run;
                }
            }
            if (owner == null) {
                halfApplied.add(cvm + " entered updating at " + at + " outside every rollout of " + set);
                continue;
            }
            if (!seen.add(owner.processInstanceId + "/" + cvm)) {
                doubled++;
                halfApplied.add(cvm + " entered updating twice in " + owner);
            }
            if (recorded.get(owner).contains(cvm)) {
                accounted++;
            } else {
                halfApplied.add(cvm + " entered updating at " + at + " in " + owner + " with neither a stepOutcome nor a halt naming it");
            }
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("CVM updates in the journal", updates);
        counts.put("accounted for (stepOutcome or halt of the slot)", accounted);
        counts.put("updated twice within one rollout", doubled);
        counts.put("crashed while updating", crashedWhileUpdating);
        return counts;
    }

    /** The slots a rollout recorded: a stepOutcome in its history, or a halted task of that slot. */
    private Set<String> recordedSlots(SoakRun run) {
        Set<String> slots = new HashSet<>();
        for (HistoricVariableInstance step : history.createHistoricVariableInstanceQuery()
                .processInstanceId(run.processInstanceId).variableName("stepOutcome").list()) {
            try {
                slots.add(JSON.readTree(step.getValue().toString()).get("slot").asText());
            } catch (Exception e) {
                throw new IllegalStateException("stepOutcome is not JSON: " + step.getValue(), e);
            }
        }
        for (HistoricTaskInstance halted : history.createHistoricTaskInstanceQuery().processInstanceId(run.processInstanceId)
                .taskDefinitionKey("UserTask_RolloutHalted").list()) {
            String name = halted.getName();
            slots.add(name.substring("Rollout halted at ".length(), name.indexOf(':')));
        }
        run.halts.forEach(h -> slots.add(h.slot()));
        return slots;
    }

    // --- setup and summary ------------------------------------------------------------------------------------------

    private void awaitEveryCvmRunning() {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Map<String, JsonNode> cvms = faults.cvmsByName();
            long running = cvms.entrySet().stream().filter(e -> e.getKey().startsWith("soak-"))
                    .filter(e -> "running".equals(e.getValue().get("status").asText())
                            && !e.getValue().path("in_progress").asBoolean(false))
                    .count();
            return running == (long) SETS * REPLICAS;
        });
    }

    private void printSummary(List<SoakRun> runs, Map<String, int[]> tally, Map<String, Integer> journal,
                              List<Incident> open, List<HistoricIncident> historic, long jobFailures, long elapsedMs) {
        long clean = runs.stream().filter(r -> r.completed() && r.halts.isEmpty()).count();
        long retried = runs.stream().filter(r -> r.completed() && !r.halts.isEmpty()).count();
        long aborted = runs.stream().filter(SoakRun::aborted).count();
        long other = runs.size() - clean - retried - aborted;
        StringBuilder out = new StringBuilder("\n=== Soak: ").append(runs.size()).append(" rollouts over ").append(SETS)
                .append(" sets of ").append(REPLICAS).append(" ===\n");
        out.append(String.format("rollouts: %d completed without a halt, %d halted then retried and completed, %d aborted at a halt, %d other%n",
                clean, retried, aborted, other));
        out.append(String.format("halts: %d (%d retried, %d aborted); second starts refused with 409: %d of %d%n",
                runs.stream().mapToLong(r -> r.halts.size()).sum(),
                runs.stream().flatMap(r -> r.halts.stream()).filter(h -> h.decision().equals("retry")).count(),
                runs.stream().flatMap(r -> r.halts.stream()).filter(h -> h.decision().equals("abort")).count(),
                runs.stream().filter(r -> r.secondStartRefused).count(), runs.size()));
        Map<Scenario, String> byScenario = new TreeMap<>();
        for (Scenario scenario : Scenario.values()) {
            List<SoakRun> of = runs.stream().filter(r -> r.scenario == scenario).toList();
            byScenario.put(scenario, String.format("%d completed (%d after a halt), %d aborted",
                    of.stream().filter(SoakRun::completed).count(),
                    of.stream().filter(r -> r.completed() && !r.halts.isEmpty()).count(),
                    of.stream().filter(SoakRun::aborted).count()));
        }
        byScenario.forEach((scenario, line) -> out.append(String.format("  %-9s %s%n", scenario, line)));
        out.append(String.format("faults: %d injected (%d targeted at a rollout's CVMs); uses injected / met by kind:%n",
                faults.faultsInjected(), faults.targetedInjected()));
        tally.forEach((kind, counts) -> out.append(String.format("  %-22s %3d / %3d%n", kind, counts[0], counts[1])));
        out.append(String.format("crashes: %d requested, %d hit a CVM while updating%n", faults.crashesRequested(),
                journal.get("crashed while updating")));
        journal.forEach((what, count) -> out.append(String.format("journal: %s: %d%n", what, count)));
        out.append(String.format("incidents: %d open, %d in history; engine job failures (retried): %d%n",
                open.size(), historic.size(), jobFailures));
        historic.stream().collect(Collectors.groupingBy(i -> i.getActivityId() + ": " + i.getIncidentMessage(), TreeMap::new,
                Collectors.counting())).forEach((what, n) -> out.append(String.format("  incident x%d at %s%n", n, what)));
        out.append(String.format("total time: %.1f s%n", elapsedMs / 1000.0));
        out.append("halt reasons met (first of each rollout):\n");
        runs.stream().filter(r -> !r.halts.isEmpty()).forEach(r -> out.append(String.format("  %-22s %s -> %s: %s%n",
                r.name(), r.halts.get(0).slot(), r.halts.stream().map(Halt::decision).collect(Collectors.joining(",")),
                r.halts.get(0).reason())));
        System.out.println(out);
    }
}
