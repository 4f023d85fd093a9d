package com.statefulcvm.processes;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.complete;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.historyService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.task;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.withVariables;

/**
 * Every path of rollout.bpmn with the delegates replaced by stand-ins. The stand-in planner hands the diagram a plan
 * (waves, surge slots, onFailure); the tests check the diagram executes it: approval, waves in order with their
 * instances in parallel, pause at the next wave and resume, abort, halt with retry/skip/abort, approval between waves,
 * surge instances created first and removed on every way out, a refused plan, and rollback on failure.
 */
@Deployment(resources = {"processes/rollout.bpmn", "processes/attest-instance.bpmn", "processes/run-hook.bpmn",
        "processes/drain-generic.bpmn", "processes/rejoin-generic.bpmn", "processes/leave-generic.bpmn",
        "processes/add-generic.bpmn", "processes/join-generic.bpmn", "processes/approve-rollout.form",
        "processes/approve-next-instance.form", "processes/rollout-halted.form", "processes/hook-failed.form",
        "processes/approve-leader.form", "processes/register-compose-hash.form"})
class RolloutProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    /** What the stand-in planner returns; tests change it before starting. */
    private List<List<String>> waves = List.of(List.of("webdemo-2"), List.of("webdemo-1"), List.of("webdemo-0"));
    private List<String> surge = List.of();
    private String onFailure = "PAUSE";
    private boolean refused = false;
    private boolean approvalBetween = false;
    /** The plan's leaderSteps; null: a plan from before updatePolicy.approveLeader, which does not set them. */
    private List<String> leaderSteps = null;
    private String hookDefaultResult = "ABANDON";
    /** What the stand-in planner says of the set's hooks; null: it says nothing (the diagram then runs both). */
    private Boolean drainHookNeeded = null;
    private Boolean rejoinHookNeeded = null;
    /** Slots the plan replaces (the others it restarts). */
    private Set<String> replaced = Set.of();
    private Boolean replacementIsNewMember = null;
    /** Every probe and attestation, in order: "probe slot" / "attest slot". */
    private final List<String> checks = new ArrayList<>();
    /** "slot" for every pre-stop call (the generic drain), in order. */
    private final List<String> drained = new ArrayList<>();
    private boolean drainFails = false;

    /** "slot@compose" for every apply, in the order the diagram ran them. */
    private final List<String> applied = new ArrayList<>();
    private final List<String> recorded = new ArrayList<>();
    /** Slots fenced after a failed attestation. */
    private final List<String> fenced = new ArrayList<>();
    private final List<String> removedSurge = new ArrayList<>();
    private final List<String> attestedWith = new ArrayList<>();
    private final Set<String> unhealthy = new HashSet<>();
    private boolean admitted = true;
    private boolean completedRecorded = false;

    @BeforeEach
    void standIns() {
        ProcessEngine engine = extension.getProcessEngine();
        init(engine);
        Mocks.register("planRollout", (JavaDelegate) ex -> {
            boolean rollback = ex.getVariable("rollbackOf") != null;
            List<List<String>> planned = new ArrayList<>();
            if (!surge.isEmpty() && !rollback) {
                planned.add(new ArrayList<>(surge));
            }
            waves.forEach(w -> planned.add(new ArrayList<>(w)));
            Map<String, String> actions = new HashMap<>();
            waves.forEach(w -> w.forEach(s -> actions.put(s, replaced.contains(s) ? "REPLACE" : "RESTART")));
            if (!rollback) {
                surge.forEach(s -> actions.put(s, "ADD_SURGE"));
            }
            ex.setVariable("planRefused", refused);
            if (refused) {
                ex.setVariable("outcome", "refused: webdemo-1: needs REPLACE");
                return;
            }
            ex.setVariable("waves", planned);
            ex.setVariable("surgeSlots", new ArrayList<>(rollback ? List.of() : surge));
            ex.setVariable("actions", actions);
            ex.setVariable("approvalBeforeRollout", !rollback && (ex.getVariable("approvalBeforeRollout") == null || (Boolean) ex.getVariable("approvalBeforeRollout")));
            ex.setVariable("approvalBetweenInstances", !rollback && approvalBetween);
            if (leaderSteps != null) {
                ex.setVariable("leaderSteps", new ArrayList<>(rollback ? List.of() : leaderSteps));
            }
            ex.setVariable("onFailure", rollback ? "PAUSE" : onFailure);
            ex.setVariable("pauseRequested", false);
            ex.setVariable("lastGoodCompose", "services: {old: 1}");
            ex.setVariable("lastGoodRevision", 1);
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("workloadType", "generic");
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", hookDefaultResult);
            if (drainHookNeeded != null) {
                ex.setVariable("drainHookNeeded", drainHookNeeded);
            }
            if (rejoinHookNeeded != null) {
                ex.setVariable("rejoinHookNeeded", rejoinHookNeeded);
            }
            if (replacementIsNewMember != null) {
                ex.setVariable("replacementIsNewMember", replacementIsNewMember);
            }
            ex.setVariable("healthProbeInterval", "PT1S");
            ex.setVariable("progressDeadline", "PT60S");
            ex.setVariable("planSummary", "1. webdemo-2 ...");
            ex.setVariable("stage", "planned");
            ex.setVariable("allowedComposeHashes", new ArrayList<>(List.of("aa")));
            ex.setVariable("boundInstanceIds", new HashMap<>(Map.of("webdemo-2", "i2", "webdemo-1", "i1", "webdemo-0", "i0")));
        });
        Mocks.register("fenceInstance", (JavaDelegate) ex -> {
            fenced.add((String) ex.getVariable("slot"));
            ex.setVariable("fenceAction", "STOP");
            ex.setVariable("fenceHolds", true);
        });
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            attestedWith.add(ex.getVariable("slot") + "/" + ex.getVariable("boundInstanceId") + "/" + ex.getVariable("allowedComposeHashes"));
            checks.add("attest " + ex.getVariable("slot"));
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "ADMISSION_REJECTED");
            ex.setVariable("attestationReason", admitted ? "admitted" : "ADMISSION_REJECTED: compose_hash ff… is not an allowed revision");
        });
        Mocks.register("applyPlannedAction", (JavaDelegate) ex -> {
            applied.add(ex.getVariable("slot") + "@" + ex.getVariable("targetCompose"));
            ex.setVariable("stage", "update requested");
        });
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", true));
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            boolean healthy = !unhealthy.contains((String) ex.getVariable("slot"));
            checks.add("probe " + ex.getVariable("slot"));
            ex.setVariable("healthGatePassed", healthy);
            ex.setVariable("nextProbeAt", new java.util.Date(System.currentTimeMillis() + 1000));
            ex.setVariable("stage", healthy ? "healthy" : "waiting for health: last probe 503");
        });
        Mocks.register("recordInstanceUpdated", (JavaDelegate) ex -> recorded.add((String) ex.getVariable("slot")));
        Mocks.register("removeSurgeInstance", (JavaDelegate) ex -> {
            removedSurge.add((String) ex.getVariable("slot"));
            ex.setVariable("surgeRemoved", true);
        });
        Mocks.register("recordRolloutCompleted", (JavaDelegate) ex -> {
            completedRecorded = true;
            ex.setVariable("outcome", "completed");
        });
        Mocks.register("callPreStopEndpoint", (JavaDelegate) ex -> {
            if (drainFails) {
                throw new org.camunda.bpm.engine.delegate.BpmnError("HOOK_FAILED", "pre-stop answered 500");
            }
            drained.add((String) ex.getVariable("slot"));
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> {
            if (!List.of("retry", "continue", "abort").contains(task.getVariable("decision"))) {
                throw new FormFieldValidationException("decision", "decision must be retry, continue or abort");
            }
        });
        Mocks.register("requireApprovalDecision", (TaskListener) RolloutProcessTest::requireBoolean);
        Mocks.register("describeLeaderStep", (TaskListener) task -> {
            task.setVariableLocal("leaderSlot", ((List<?>) task.getVariable("wave")).get(0));
            task.setVariableLocal("stepsSoFar", "2 steps done");
        });
        Mocks.register("requireHaltDecision", (TaskListener) RolloutProcessTest::requireDecision);
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    // Minimal stand-ins for the real validators in the delegates module, so the listener wiring is exercised.
    private static void requireBoolean(DelegateTask task) {
        if (!(task.getVariable("approved") instanceof Boolean)) {
            throw new FormFieldValidationException("approved", "approved must be true or false");
        }
    }

    private static void requireDecision(DelegateTask task) {
        Object d = task.getVariable("decision");
        if (d == null || !List.of("retry", "skip", "abort").contains(d)) {
            throw new FormFieldValidationException("decision", "decision must be retry, skip or abort (was '" + d + "')");
        }
    }

    private ProcessInstance start() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("rollout", "webdemo",
                Map.of("replicaSet", "webdemo", "targetCompose", "services: {new: 2}"));
        assertThat(pi).isWaitingAt("Task_PlanRollout");
        execute(job());
        return pi;
    }

    private ProcessInstance startApproved() {
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        return pi;
    }

    /** Runs every waiting job of one kind (the instances of a wave each have their own), in any process instance. */
    private int runAll(String activityId) {
        List<Job> jobs = managementService().createJobQuery().activityId(activityId).list();
        jobs.forEach(j -> managementService().executeJob(j.getId()));
        return jobs.size();
    }

    /** Runs the current wave's instance steps: each from its async apply step through the health gate. */
    private int runWave() {
        runAll("CallActivity_DrainInstance");
        runAll("CallActivity_WorkloadHook"); // the drains
        int instances = runAll("Task_ApplyPlannedAction");
        runAll("CallActivity_WorkloadHook"); // the rejoins
        return instances;
    }

    /** After a timer let a slot through its health gate: its rejoin runs as a job of its own. */
    private void runRejoins() {
        runAll("CallActivity_WorkloadHook");
    }

    private static org.assertj.core.api.ListAssert<String> that(List<String> list) {
        return org.assertj.core.api.Assertions.assertThat(list);
    }

    @Test
    void approvedRolloutRunsTheWavesInPlanOrder() {
        ProcessInstance pi = start();
        assertThat(pi).isWaitingAt("UserTask_ApproveRollout");
        assertThat(task()).hasCandidateGroup("approvers").hasName("Approve rollout of webdemo");
        complete(task(), withVariables("approved", true, "comment", "ship it"));
        for (int i = 0; i < 3; i++) {
            assertThat(pi).isWaitingAt("CallActivity_DrainInstance");
            org.assertj.core.api.Assertions.assertThat(runWave()).isEqualTo(1);
        }
        assertThat(pi).isEnded().hasPassed("Task_RecordRolloutCompleted", "EndEvent_RolloutCompleted").hasNotPassed("UserTask_RolloutHalted");
        that(applied).containsExactly("webdemo-2@services: {new: 2}", "webdemo-1@services: {new: 2}", "webdemo-0@services: {new: 2}");
        that(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        org.assertj.core.api.Assertions.assertThat(completedRecorded).isTrue();
    }

    @Test
    void theInstancesOfAWaveGoTogetherAndTheNextWaveWaitsForAllOfThem() {
        waves = List.of(List.of("webdemo-4", "webdemo-3"), List.of("webdemo-2", "webdemo-1"), List.of("webdemo-0"));
        unhealthy.add("webdemo-3");
        ProcessInstance pi = startApproved();
        org.assertj.core.api.Assertions.assertThat(runWave()).isEqualTo(2);
        // webdemo-4 is ready, webdemo-3 still waits for health: the second wave has not started
        assertThat(pi).isWaitingAt("Gateway_WaitForProbe");
        that(recorded).containsExactly("webdemo-4");
        org.assertj.core.api.Assertions.assertThat(managementService().createJobQuery().activityId("CallActivity_DrainInstance").count()).isZero();
        unhealthy.clear();
        execute(job("Timer_WaitForHealth"));
        runRejoins();
        org.assertj.core.api.Assertions.assertThat(runWave()).isEqualTo(2);
        org.assertj.core.api.Assertions.assertThat(runWave()).isEqualTo(1);
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-4", "webdemo-3", "webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void aPartitionedPlanTouchesOnlyThePlannedOrdinals() {
        waves = List.of(List.of("webdemo-4"), List.of("webdemo-3"));
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-4", "webdemo-3");
    }

    @Test
    void rejectedRolloutTouchesNothing() {
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", false));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutRejected").hasNotPassed("Task_ApplyPlannedAction");
        that(applied).isEmpty();
    }

    @Test
    void aRefusedPlanEndsBeforeAnyApprovalOrChange() {
        refused = true;
        ProcessInstance pi = start();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutRefused").hasNotPassed("UserTask_ApproveRollout", "Task_ApplyPlannedAction");
        that(applied).isEmpty();
    }

    @Test
    void approvalMustBeABoolean() {
        ProcessInstance pi = start();
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId, Map.of("approved", "yes please")))
                .hasMessageContaining("approved must be true or false");
        assertThat(pi).isWaitingAt("UserTask_ApproveRollout");
    }

    @Test
    void withoutApprovalTheRolloutStartsAtOnce() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("rollout",
                Map.of("replicaSet", "webdemo", "targetCompose", "x", "approvalBeforeRollout", false));
        assertThat(pi).isWaitingAt("Task_PlanRollout");
        execute(job());
        assertThat(pi).isWaitingAt("CallActivity_DrainInstance").hasNotPassed("UserTask_ApproveRollout");
    }

    @Test
    void theStepWakerWakesAStepWaitingForItsCvmAndForItsNextProbeWithoutAJob() {
        int[] polls = {0};
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", ++polls[0] >= 2));
        waves = List.of(List.of("webdemo-2"));
        unhealthy.add("webdemo-2");
        ProcessInstance pi = startApproved();
        runWave();
        assertThat(pi).isWaitingAt("Gateway_WaitForCvm");
        long jobsBefore = historyService().createHistoricJobLogQuery().successLog().count();
        // what the waker reads of a wait, on the execution that holds its subscription
        org.assertj.core.api.Assertions.assertThat(runtimeService().getVariableLocal(waitingExecution(pi, "CvmChanged"), "awaitedSlot"))
                .isEqualTo("webdemo-2");
        runtimeService().messageEventReceived("CvmChanged", waitingExecution(pi, "CvmChanged"));
        assertThat(pi).isWaitingAt("Gateway_WaitForProbe");
        org.assertj.core.api.Assertions.assertThat(runtimeService().getVariableLocal(waitingExecution(pi, "ProbeDue"), "nextProbeAt"))
                .isInstanceOf(java.util.Date.class);
        unhealthy.clear();
        runtimeService().messageEventReceived("ProbeDue", waitingExecution(pi, "ProbeDue"));
        org.assertj.core.api.Assertions.assertThat(historyService().createHistoricJobLogQuery().successLog().count())
                .as("both waits ended without an engine job").isEqualTo(jobsBefore);
        org.assertj.core.api.Assertions.assertThat(managementService().createJobQuery().activityId("Timer_WaitForCvm").count())
                .as("the fallback timers are gone with the waits").isZero();
        runRejoins();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-2");
    }

    private static String waitingExecution(ProcessInstance pi, String message) {
        return runtimeService().createEventSubscriptionQuery().processInstanceId(pi.getId()).eventName(message).singleResult()
                .getExecutionId();
    }

    @Test
    void cvmNotYetRunningIsPolledAgainAfterATimer() {
        int[] polls = {0};
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", ++polls[0] >= 3));
        ProcessInstance pi = startApproved();
        runWave();
        assertThat(pi).isWaitingAt("Gateway_WaitForCvm");
        execute(job("Timer_WaitForCvm"));
        assertThat(pi).isWaitingAt("Gateway_WaitForCvm");
        execute(job("Timer_WaitForCvm"));
        runRejoins();
        assertThat(pi).isWaitingAt("CallActivity_DrainInstance");
        that(recorded).containsExactly("webdemo-2");
    }

    @Test
    void pauseTakesEffectAtTheNextWaveAndResumeContinues() {
        ProcessInstance pi = startApproved();
        runtimeService().createMessageCorrelation("PauseRollout").processInstanceId(pi.getId()).correlate();
        // the wave under way finishes; the next one does not start
        runWave();
        assertThat(pi).isWaitingAt("Event_WaitForResume");
        that(recorded).containsExactly("webdemo-2");
        org.assertj.core.api.Assertions.assertThat(managementService().createJobQuery().activityId("CallActivity_DrainInstance").count()).isZero();

        runtimeService().createMessageCorrelation("ResumeRollout").processInstanceId(pi.getId()).correlate();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void resumeWithoutPauseFindsNoWaitingRollout() {
        ProcessInstance pi = startApproved();
        assertThatThrownBy(() -> runtimeService().createMessageCorrelation("ResumeRollout").processInstanceId(pi.getId()).correlate())
                .hasMessageContaining("ResumeRollout");
    }

    @Test
    void abortStopsAtOnceAndRemovesTheSurgeInstance() {
        surge = List.of("webdemo-3");
        ProcessInstance pi = startApproved();
        runWave(); // wave 0: the surge instance
        runWave(); // webdemo-2
        runtimeService().createMessageCorrelation("AbortRollout").processInstanceId(pi.getId()).correlate();
        runAll("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_WorkloadHook");
        runAll("Task_RemoveSurgeInstance");
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted").hasNotPassed("Task_RecordRolloutCompleted");
        that(recorded).containsExactly("webdemo-3", "webdemo-2");
        that(removedSurge).containsExactly("webdemo-3");
        org.assertj.core.api.Assertions.assertThat(historyOutcome(pi)).isEqualTo("aborted by the operator (AbortRollout)");
    }

    @Test
    void surgeInstancesAreAddedBeforeTheFirstWaveAndRemovedAfterTheLast() {
        surge = List.of("webdemo-3");
        ProcessInstance pi = startApproved();
        runWave();
        that(recorded).containsExactly("webdemo-3");
        that(attestedWith).first().asString().startsWith("webdemo-3/null/");
        runWave();
        runWave();
        runWave();
        assertThat(pi).isWaitingAt("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_WorkloadHook");
        runAll("Task_RemoveSurgeInstance");
        assertThat(pi).isEnded().hasPassed("SubProcess_RemoveSurge", "EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-3", "webdemo-2", "webdemo-1", "webdemo-0");
        that(removedSurge).containsExactly("webdemo-3");
    }

    @Test
    void aSurgeInstanceThatIsNotGoneYetIsCheckedAgain() {
        surge = List.of("webdemo-3");
        int[] checks = {0};
        Mocks.register("removeSurgeInstance", (JavaDelegate) ex -> ex.setVariable("surgeRemoved", ++checks[0] >= 2));
        ProcessInstance pi = startApproved();
        for (int i = 0; i < 4; i++) {
            runWave();
        }
        runAll("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_WorkloadHook");
        runAll("Task_RemoveSurgeInstance");
        assertThat(pi).isWaitingAt("Timer_WaitForSurgeRemoval");
        execute(job("Timer_WaitForSurgeRemoval"));
        runAll("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_WorkloadHook");
        runAll("Task_RemoveSurgeInstance");
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
    }

    /** The first instance never gets healthy: the deadline fires, no further slot is touched, the operator decides. */
    private ProcessInstance haltAtFirstSlot() {
        unhealthy.add("webdemo-2");
        ProcessInstance pi = startApproved();
        runWave();
        assertThat(pi).isWaitingAt("Gateway_WaitForProbe");
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted");
        assertThat(task()).hasName("Rollout halted at webdemo-2: retry, skip or abort");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "haltReason"))
                .asString().contains("webdemo-2").contains("waiting for health");
        that(applied).hasSize(1);
        return pi;
    }

    @Test
    void haltedThenRetriedEntersTheSameSlotAgainAndFinishes() {
        ProcessInstance pi = haltAtFirstSlot();
        unhealthy.clear();
        complete(task(), withVariables("decision", "retry"));
        runWave();
        assertThat(pi).isWaitingAt("CallActivity_DrainInstance");
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(applied).extracting(a -> a.split("@")[0]).containsExactly("webdemo-2", "webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void haltedThenSkippedGoesOnWithTheNextSlot() {
        ProcessInstance pi = haltAtFirstSlot();
        unhealthy.clear();
        complete(task(), withVariables("decision", "skip"));
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-1", "webdemo-0");
    }

    @Test
    void haltedThenAbortedTouchesNoFurtherInstance() {
        ProcessInstance pi = haltAtFirstSlot();
        complete(task(), withVariables("decision", "abort"));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted").hasNotPassed("EndEvent_RolloutCompleted");
        that(applied).hasSize(1);
    }

    @Test
    void anUnknownDecisionIsRefusedAndTheTaskStays() {
        ProcessInstance pi = haltAtFirstSlot();
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId, Map.of("decision", "rollback")))
                .hasMessageContaining("decision must be retry, skip or abort (was 'rollback')");
        assertThatThrownBy(() -> taskService().complete(taskId))
                .hasMessageContaining("decision must be retry, skip or abort (was 'null')");
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted");
    }

    @Test
    void aSecondHaltNeedsAFreshDecision() {
        ProcessInstance pi = haltAtFirstSlot();
        complete(task(), withVariables("decision", "retry"));
        runWave();
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted");
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId)).hasMessageContaining("decision must be");
    }

    @Test
    void onFailureRollbackRollsTheUpdatedInstancesBackWithoutAnOperator() {
        onFailure = "ROLLBACK";
        unhealthy.add("webdemo-1");
        ProcessInstance pi = startApproved();
        runWave(); // webdemo-2 updated
        runWave(); // webdemo-1 never healthy
        org.assertj.core.api.Assertions.assertThat(runtimeService().getVariable(pi.getId(), "phalaCloudUnreachable")).as("Phala answers").isNull();
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("CallActivity_RollBack").hasNotPassed("UserTask_RolloutHalted");
        ProcessInstance rollback = runtimeService().createProcessInstanceQuery().superProcessInstanceId(pi.getId()).singleResult();
        org.assertj.core.api.Assertions.assertThat(rollback.getBusinessKey()).isEqualTo("webdemo");
        org.assertj.core.api.Assertions.assertThat(runtimeService().getVariable(rollback.getId(), "rollbackOf")).isEqualTo(pi.getId());
        runAll("Task_PlanRollout"); // the rollback's plan
        unhealthy.clear();
        runWave();
        runWave();
        runWave();
        assertThat(rollback).isEnded().hasPassed("EndEvent_RolloutCompleted").hasNotPassed("UserTask_ApproveRollout");
        assertThat(pi).isEnded().hasPassed("EndEvent_RolledBack");
        that(applied.subList(applied.size() - 3, applied.size())).allMatch(a -> a.endsWith("@services: {old: 1}"));
        org.assertj.core.api.Assertions.assertThat(historyOutcome(pi)).contains("rolled back after: progress deadline");
    }

    @Test
    void underRollbackAnOutageOfPhalaHandsOverInsteadOfStartingARollbackThatNeedsPhalaToo() {
        onFailure = "ROLLBACK";
        unhealthy.add("webdemo-1");
        ProcessInstance pi = startApproved();
        runWave(); // webdemo-2 updated
        runWave(); // webdemo-1 stuck
        // a step of this rollout waits for Phala Cloud (PhalaOutagePause sets this on the procedure while it does)
        runtimeService().setVariable(pi.getId(), "phalaCloudUnreachable", "Phala Cloud unreachable since 12:00 (503)");
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted").hasNotPassed("CallActivity_RollBack");
        org.assertj.core.api.Assertions.assertThat(runtimeService().createProcessInstanceQuery().superProcessInstanceId(pi.getId()).count())
                .as("no rollback started").isZero();
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "haltReason")).asString()
                .contains("progress deadline").contains("not rolled back while Phala Cloud unreachable since 12:00");
    }

    @Test
    void everyRestartedInstanceIsDrainedFirstButASurgeInstanceOnlyBeforeItsRemoval() {
        surge = List.of("webdemo-3");
        ProcessInstance pi = startApproved();
        for (int i = 0; i < 4; i++) {
            runWave();
        }
        that(drained).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        runAll("CallActivity_DrainSurgeInstance");
        runAll("CallActivity_WorkloadHook");
        runAll("Task_RemoveSurgeInstance");
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(drained).containsExactly("webdemo-2", "webdemo-1", "webdemo-0", "webdemo-3");
    }

    @Test
    void aFailedDrainUnderAbandonRetainsTheInstanceAndAsksTheOperator() {
        drainFails = true;
        ProcessInstance pi = startApproved();
        runWave();
        that(applied).as("the instance was left as it is").isEmpty();
        ProcessInstance hook = runtimeService().createProcessInstanceQuery().processDefinitionKey("run-hook").active().singleResult();
        assertThat(hook).isWaitingAt("UserTask_HookDidNotFinish");
        org.camunda.bpm.engine.task.Task task = taskService().createTaskQuery().processInstanceId(hook.getId()).singleResult();
        org.assertj.core.api.Assertions.assertThat(task.getName()).isEqualTo("The drain of webdemo-2 did not finish: retry, continue anyway or abort");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task.getId(), "hookFailure"))
                .isEqualTo("the drain of webdemo-2 failed: pre-stop answered 500");

        drainFails = false;
        taskService().complete(task.getId(), Map.of("decision", "retry"));
        runAll("CallActivity_WorkloadHook");
        runAll("Task_ApplyPlannedAction");
        runRejoins();
        that(drained).containsExactly("webdemo-2");
        that(recorded).containsExactly("webdemo-2");
    }

    @Test
    void anAbortAtAFailedDrainStopsTheRollout() {
        drainFails = true;
        ProcessInstance pi = startApproved();
        runWave();
        org.camunda.bpm.engine.task.Task task = taskService().createTaskQuery().taskDefinitionKey("UserTask_HookDidNotFinish").singleResult();
        taskService().complete(task.getId(), Map.of("decision", "abort"));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted");
        that(applied).isEmpty();
        org.assertj.core.api.Assertions.assertThat(historyOutcome(pi)).isEqualTo("stopped by the operator at a halt or an approval");
    }

    @Test
    void aFailedDrainUnderContinueGoesOnWithoutTheOperator() {
        drainFails = true;
        hookDefaultResult = "CONTINUE";
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        org.assertj.core.api.Assertions.assertThat(taskService().createTaskQuery().count()).isZero();
    }

    private String historyOutcome(ProcessInstance pi) {
        return (String) extension.getProcessEngine().getHistoryService().createHistoricVariableInstanceQuery()
                .processInstanceId(pi.getId()).variableName("outcome").singleResult().getValue();
    }

    @Test
    void everyInstanceIsAttestedWithItsBoundIdentityBeforeItPassesItsHealthGate() {
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(attestedWith).containsExactly("webdemo-2/i2/[aa]", "webdemo-1/i1/[aa]", "webdemo-0/i0/[aa]");
    }

    @Test
    void attestationRunsOnceWhileMinReadyRunsAndTheGateWaitsForIt() {
        waves = List.of(List.of("webdemo-2"));
        unhealthy.add("webdemo-2");
        ProcessInstance pi = startApproved();
        runWave();
        // the first probe starts the health clock, attestation follows in the same job; min ready runs meanwhile
        assertThat(pi).isWaitingAt("Gateway_WaitForProbe");
        that(checks).containsExactly("probe webdemo-2", "attest webdemo-2");
        that(recorded).isEmpty();
        execute(job("Timer_WaitForHealth"));
        unhealthy.clear();
        execute(job("Timer_WaitForHealth"));
        runRejoins();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(checks).as("attested once, not again at each probe")
                .containsExactly("probe webdemo-2", "attest webdemo-2", "probe webdemo-2", "probe webdemo-2");
        that(recorded).containsExactly("webdemo-2");
    }

    @Test
    void hooksThatWouldDoNothingAreSkippedAndTheOthersRun() {
        drainHookNeeded = false;
        rejoinHookNeeded = false;
        ProcessInstance pi = startApproved();
        // no drain job, no rejoin call: the wave goes from its apply job straight through the checks
        assertThat(pi).isWaitingAt("Task_ApplyPlannedAction");
        org.assertj.core.api.Assertions.assertThat(runAll("Task_ApplyPlannedAction")).isEqualTo(1);
        runAll("Task_ApplyPlannedAction");
        runAll("Task_ApplyPlannedAction");
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted")
                .hasNotPassed("CallActivity_DrainInstance", "CallActivity_RejoinInstance");
        that(drained).isEmpty();
        that(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        org.assertj.core.api.Assertions.assertThat(runtimeService().createProcessInstanceQuery().processDefinitionKey("run-hook").count()).isZero();
        org.assertj.core.api.Assertions.assertThat(extension.getProcessEngine().getHistoryService().createHistoricProcessInstanceQuery()
                .processDefinitionKey("run-hook").count()).isZero();

        drainHookNeeded = true;
        rejoinHookNeeded = true;
        drained.clear();
        ProcessInstance withHooks = startApproved();
        runWave();
        runWave();
        runWave();
        assertThat(withHooks).isEnded().hasPassed("EndEvent_RolloutCompleted", "CallActivity_DrainInstance", "CallActivity_RejoinInstance");
        that(drained).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void aReplacementThatIsANewMemberLeavesAndAddsBeforeItsCvmIsReplacedAndJoinsAfterItsHealthGate() {
        replaced = Set.of("webdemo-1");
        replacementIsNewMember = true;
        ProcessInstance pi = startApproved();
        runJobsUntilEnded(pi);
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted", "CallActivity_RemoveOldMember",
                "CallActivity_AddNewMember", "CallActivity_JoinNewMember");
        // the hooks each slot ran, in order: only the replaced one leaves, is added and joins
        that(hooksRun("webdemo-1")).containsExactly("drain", "leave", "add", "join", "rejoin");
        that(hooksRun("webdemo-2")).containsExactly("drain", "rejoin");
        that(hooksRun("webdemo-0")).containsExactly("drain", "rejoin");
    }

    @Test
    void aReplacementOfATypeWhoseReplacementIsTheSameMemberRunsNoLeaveAddOrJoin() {
        replaced = Set.of("webdemo-1");
        ProcessInstance pi = startApproved();
        runJobsUntilEnded(pi);
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted").hasNotPassed("CallActivity_RemoveOldMember",
                "CallActivity_AddNewMember", "CallActivity_JoinNewMember");
        that(hooksRun("webdemo-1")).containsExactly("drain", "rejoin");
    }

    /** Runs every due job, round after round, until the rollout has ended (at most 40 rounds). */
    private void runJobsUntilEnded(ProcessInstance pi) {
        for (int round = 0; round < 40 && !isEnded(pi); round++) {
            managementService().createJobQuery().executable().list().forEach(j -> managementService().executeJob(j.getId()));
        }
    }

    private boolean isEnded(ProcessInstance pi) {
        return runtimeService().createProcessInstanceQuery().processInstanceId(pi.getId()).count() == 0;
    }

    /** The hooks run-hook.bpmn ran for the slot, in the order they started. */
    private List<String> hooksRun(String slot) {
        org.camunda.bpm.engine.HistoryService history = extension.getProcessEngine().getHistoryService();
        List<String> hooks = new ArrayList<>();
        // by start, then by id (the engine's ids grow; two runs may start in the same millisecond)
        history.createHistoricProcessInstanceQuery().processDefinitionKey("run-hook").list().stream()
                .sorted(java.util.Comparator.comparing(org.camunda.bpm.engine.history.HistoricProcessInstance::getStartTime)
                        .thenComparing(run -> Long.parseLong(run.getId())))
                .forEach(run -> {
                    Map<String, Object> vars = new HashMap<>();
                    history.createHistoricVariableInstanceQuery().processInstanceId(run.getId()).list()
                            .forEach(v -> vars.put(v.getName(), v.getValue()));
                    if (slot.equals(vars.get("slot"))) {
                        hooks.add(String.valueOf(vars.get("hook")));
                    }
                });
        return hooks;
    }

    @Test
    void anInstanceThatFailsAttestationIsFencedAndHaltsTheRolloutAtItsSlot() {
        admitted = false;
        ProcessInstance pi = startApproved();
        runWave();
        runAll("Task_FenceInstance"); // attest-instance's fence step, asynchronous
        // probed first (the health clock runs while attestation does), but never through the gate, rejoined or recorded
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted").hasNotPassed("Gateway_RejoinNeeded", "CallActivity_RejoinInstance", "Task_RecordInstanceUpdated");
        that(fenced).containsExactly("webdemo-2");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "haltReason")).asString()
                .isEqualTo("attestation of webdemo-2 failed, the instance is not admitted: ADMISSION_REJECTED: compose_hash ff… is not an allowed revision");
        that(recorded).isEmpty();

        admitted = true;
        complete(task(), withVariables("decision", "retry"));
        runWave();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void approvalBetweenWavesIsAskedBeforeEachButTheLast() {
        approvalBetween = true;
        ProcessInstance pi = startApproved();
        runWave();
        assertThat(pi).isWaitingAt("UserTask_ApproveNextWave");
        assertThat(task()).hasName("Approve continuing after wave 1 of 3");
        // the form's fields are the task's own: the wave just updated, not a per-instance variable of another scope
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "updatedInstances")).isEqualTo("webdemo-2");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "waveProgress")).isEqualTo("wave 1 of 3 done");
        complete(task(), withVariables("approved", true));
        runWave();
        complete(task(), withVariables("approved", true));
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(applied).hasSize(3);
    }

    @Test
    void rejectingBetweenWavesStopsTheRollout() {
        approvalBetween = true;
        ProcessInstance pi = startApproved();
        runWave();
        complete(task(), withVariables("approved", false));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted");
        that(applied).hasSize(1);
    }

    @Test
    void anApprovalIsNotCarriedOverToTheNextApprovalTask() {
        approvalBetween = true;
        ProcessInstance pi = startApproved();
        runWave();
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId)).hasMessageContaining("approved must be true or false");
        assertThat(pi).isWaitingAt("UserTask_ApproveNextWave");
    }

    @Test
    void theLeadersWaveWaitsForItsOwnApprovalWithTheStepDescribed() {
        leaderSteps = List.of("webdemo-0");
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runAll("UserTask_ApproveLeaderStep"); // asynchronous before: the replicas' steps are committed first
        assertThat(pi).isWaitingAt("UserTask_ApproveLeaderStep");
        that(applied).containsExactly("webdemo-2@services: {new: 2}", "webdemo-1@services: {new: 2}");
        assertThat(task()).hasName("Approve the leader's step: webdemo-0").hasCandidateGroup("approvers");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariableLocal(task().getId(), "leaderSlot")).isEqualTo("webdemo-0");
        complete(task(), withVariables("approved", true));
        runWave();
        assertThat(pi).isEnded().hasPassed("UserTask_ApproveLeaderStep", "EndEvent_RolloutCompleted");
        that(applied).hasSize(3).last().isEqualTo("webdemo-0@services: {new: 2}");
    }

    @Test
    void rejectingTheLeadersStepStopsTheRolloutWithTheLeaderUntouched() {
        leaderSteps = List.of("webdemo-0");
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runAll("UserTask_ApproveLeaderStep");
        complete(task(), withVariables("approved", false));
        assertThat(pi).isEnded().hasPassed("EndEvent_LeaderRejected", "EndEvent_RolloutAborted").hasNotPassed("EndEvent_RolloutCompleted");
        that(applied).containsExactly("webdemo-2@services: {new: 2}", "webdemo-1@services: {new: 2}");
        that(drained).doesNotContain("webdemo-0");
    }

    @Test
    void theLeadersApprovalMustBeABoolean() {
        leaderSteps = List.of("webdemo-0");
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runAll("UserTask_ApproveLeaderStep");
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId, Map.of("approved", "yes"))).hasMessageContaining("approved must be true or false");
        assertThat(pi).isWaitingAt("UserTask_ApproveLeaderStep");
    }

    @Test
    void theLeadersApprovalTakesThePlaceOfTheApprovalBetweenWavesBeforeIt() {
        approvalBetween = true;
        leaderSteps = List.of("webdemo-0");
        ProcessInstance pi = startApproved();
        runWave();
        assertThat(pi).isWaitingAt("UserTask_ApproveNextWave");
        complete(task(), withVariables("approved", true));
        runWave();
        runAll("UserTask_ApproveLeaderStep");
        assertThat(pi).isWaitingAt("UserTask_ApproveLeaderStep");
        org.assertj.core.api.Assertions.assertThat(taskService().createTaskQuery().processInstanceId(pi.getId()).count()).isEqualTo(1);
        complete(task(), withVariables("approved", true));
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
    }

    @Test
    void aWaveWithoutTheLeaderNeedsNoLeaderApproval() {
        leaderSteps = List.of();
        ProcessInstance pi = startApproved();
        runWave();
        runWave();
        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted").hasNotPassed("UserTask_ApproveLeaderStep");
    }

    @Test
    void aCommitRefusedWith468ReopensTheRegistrationWithTheReasonAndIsNeverSentAgainWithThatTransaction() {
        waves = List.of(List.of("webdemo-2"));
        String refusedTx = "0x" + "68".repeat(32);
        String goodTx = "0x" + "0d".repeat(32);
        List<String> commits = new ArrayList<>();
        com.statefulcvm.delegates.support.OnChainRegistrations onChain = new com.statefulcvm.delegates.support.OnChainRegistrations();
        Mocks.register("requireTransactionHash", new com.statefulcvm.delegates.rollout.RequireTransactionHash());
        Mocks.register("applyPlannedAction", (JavaDelegate) ex -> ex.setVariable("stage", onChain.send(ex, (String) ex.getVariable("slot"),
                () -> {
                    throw onChain465();
                },
                (required, transaction) -> {
                    commits.add(transaction);
                    if (transaction.equals(refusedTx)) {
                        throw new com.statefulcvm.connectors.phala.PhalaApiException(468, null, "Compose hash not found on-chain",
                                null, "POST", "/cvms/cvm_2/commit-update", null);
                    }
                    applied.add(ex.getVariable("slot") + "@committed");
                    return "committed";
                })));
        ProcessInstance pi = startApproved();

        runWave();
        assertThat(pi).isWaitingAt("UserTask_RegisterComposeHash");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "onChainRefusal")).isNull();
        complete(task(), withVariables("transactionHash", refusedTx));

        runWave();
        assertThat(pi).isWaitingAt("UserTask_RegisterComposeHash");
        org.assertj.core.api.Assertions.assertThat((String) taskService().getVariable(task().getId(), "onChainRefusal"))
                .startsWith("Phala answered 468").contains("not found on chain", refusedTx);
        org.assertj.core.api.Assertions.assertThat((String) runtimeService().getVariable(task().getExecutionId(), "stage"))
                .contains("to be registered on chain again: Phala answered 468");
        org.assertj.core.api.Assertions.assertThat(runtimeService().getVariable(pi.getId(), "onChainTransactionHash"))
                .as("the refused transaction is forgotten").isNull();
        complete(task(), withVariables("transactionHash", goodTx));

        runWave();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        that(commits).as("each transaction committed once").containsExactly(refusedTx, goodTx);
        that(applied).containsExactly("webdemo-2@committed");
        org.assertj.core.api.Assertions.assertThat(historyService().createHistoricDetailQuery().processInstanceId(pi.getId())
                        .variableUpdates().list().stream()
                        .map(d -> (org.camunda.bpm.engine.history.HistoricVariableUpdate) d)
                        .filter(d -> "onChainRefusal".equals(d.getVariableName()) && d.getValue() != null)
                        .map(d -> (String) d.getValue()))
                .as("the reason stays in the history").singleElement().asString().startsWith("Phala answered 468");
        org.assertj.core.api.Assertions.assertThat(String.valueOf(historyService().createHistoricVariableInstanceQuery()
                        .processInstanceId(pi.getId()).variableName("decisions").singleResult().getValue()))
                .contains("registered " + "ab".repeat(32) + " on chain: " + goodTx + " (asked again: Phala answered 468");
    }

    private static com.statefulcvm.connectors.phala.PhalaApiException onChain465() {
        Map<String, com.fasterxml.jackson.databind.JsonNode> fields = Map.of(
                "compose_hash", com.fasterxml.jackson.databind.node.TextNode.valueOf("ab".repeat(32)),
                "app_id", com.fasterxml.jackson.databind.node.TextNode.valueOf("a".repeat(40)),
                "commit_token", com.fasterxml.jackson.databind.node.TextNode.valueOf("tok"));
        return new com.statefulcvm.connectors.phala.PhalaApiException(465, null, "register it", null, "PATCH",
                "/cvms/cvm_2/docker-compose", fields, true, null);
    }
}
