package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.historyService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * Every path of scale.bpmn, with the etcd procedures it calls through run-hook.bpmn (add-etcd, join-etcd, drain-etcd,
 * leave-etcd), their delegates replaced by stand-ins: up (a new slot and a retained one), down (drained, left, stopped,
 * recorded highest first; a slot that cannot be reached is not drained), the approval below the workload's minimum
 * both ways, no change, a refused request, a slot that halts at the progress deadline (retry, stop), attestation
 * refusing a new instance, and an operator aborting a failed hook.
 */
@Deployment(resources = {"processes/scale.bpmn", "processes/attest-instance.bpmn", "processes/run-hook.bpmn",
        "processes/add-etcd.bpmn", "processes/join-etcd.bpmn", "processes/drain-etcd.bpmn", "processes/leave-etcd.bpmn",
        "processes/approve-scale.form", "processes/scale-halted.form", "processes/hook-failed.form"})
class ScaleProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private static final Set<String> DEADLINES = Set.of("BoundaryEvent_StartDeadline", "BoundaryEvent_StopDeadline",
            "BoundaryEvent_HookTimedOut");

    // what the stand-ins answer
    private String direction = "UP";
    private List<String> toAdd = List.of("kv-3", "kv-4");
    private List<String> toRemove = List.of();
    private boolean belowMinimum = false;
    private Set<String> retained = Set.of();
    private boolean reachable = true;
    private boolean admitted = true;
    private boolean healthy = true;
    private boolean addFails = false;
    private int removePolls = 1;

    /** Every step, in order: "plan", "look:kv-3", "add:kv-3", "start:kv-3", "attest:kv-3=null", ... */
    private final List<String> steps = new ArrayList<>();

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("planScale", (JavaDelegate) ex -> {
            steps.add("plan");
            ex.setVariable("scaleDirection", direction);
            ex.setVariable("scaleRefusal", "REFUSED".equals(direction) ? "replicas: must be at least 1 (was 0)" : null);
            ex.setVariable("currentReplicas", 3);
            ex.setVariable("fileReplicas", 3);
            ex.setVariable("slotsToAdd", new ArrayList<>(toAdd));
            ex.setVariable("slotsToRemove", new ArrayList<>(toRemove));
            ex.setVariable("minReplicas", 3);
            ex.setVariable("belowMinimum", belowMinimum);
            ex.setVariable("planSummary", "the plan");
            ex.setVariable("scaleDownPolicy", "RETAIN");
            ex.setVariable("targetCompose", "services: {kv: 1}");
            ex.setVariable("allowedComposeHashes", new ArrayList<>(List.of("aa")));
            ex.setVariable("workloadType", "etcd");
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", "ABANDON");
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("healthProbeInterval", "PT1S");
            ex.setVariable("progressDeadline", "PT60S");
            ex.setVariable("stage", "planned");
        });
        Mocks.register("lookAtScaleSlot", (JavaDelegate) ex -> {
            String slot = (String) ex.getVariable("slot");
            steps.add("look:" + slot);
            boolean back = retained.contains(slot);
            ex.setVariable("retainedSlot", back);
            ex.setVariable("boundInstanceId", back ? "i-" + slot : null);
            ex.setVariable("boundInstanceIds", back ? new HashMap<>(Map.of(slot, "i-" + slot)) : new HashMap<>());
            ex.setVariable("actions", new HashMap<>(Map.of(slot, "ADD_SURGE")));
            ex.setVariable("cvmReachable", reachable);
            if (back) {
                ex.setVariable("targetCompose", "services: {kv: old}");
            }
        });
        Mocks.register("addEtcdLearner", (JavaDelegate) ex -> {
            steps.add("add:" + ex.getVariable("slot"));
            if (addFails) {
                throw new BpmnError("HOOK_FAILED", "no etcd peer URL for " + ex.getVariable("slot"));
            }
            ex.setVariable("hookReady", true);
        });
        Mocks.register("startScaledSlot", (JavaDelegate) ex -> steps.add("start:" + ex.getVariable("slot") + "@" + ex.getVariable("targetCompose")));
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", true));
        Mocks.register("fenceInstance", (JavaDelegate) ex -> {
            steps.add("fence:" + ex.getVariable("slot"));
            ex.setVariable("fenceAction", "STOP");
            ex.setVariable("fenceHolds", true);
        });
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            steps.add("attest:" + ex.getVariable("slot") + "=" + ex.getVariable("boundInstanceId"));
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "ADMISSION_REJECTED");
            ex.setVariable("attestationReason", admitted ? "admitted" : "ADMISSION_REJECTED: compose_hash bb is not allowed");
        });
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            steps.add("probe:" + ex.getVariable("slot"));
            ex.setVariable("healthGatePassed", healthy);
            ex.setVariable("stage", healthy ? "healthy" : "waiting for health: last probe 502 no upstream");
        });
        Mocks.register("promoteEtcdLearner", (JavaDelegate) ex -> {
            steps.add("promote:" + ex.getVariable("slot"));
            ex.setVariable("hookReady", true);
        });
        Mocks.register("checkEtcdMemberCaughtUp", (JavaDelegate) ex -> ex.setVariable("hookReady", true));
        Mocks.register("checkEtcdQuorum", (JavaDelegate) ex -> {
            steps.add("drain:" + ex.getVariable("slot"));
            ex.setVariable("hookReady", true);
            ex.setVariable("isLeader", false);
        });
        Mocks.register("moveEtcdLeadership", (JavaDelegate) ex -> ex.setVariable("hookReady", true));
        Mocks.register("confirmEtcdLeader", (JavaDelegate) ex -> ex.setVariable("hookReady", true));
        Mocks.register("removeEtcdMember", (JavaDelegate) ex -> {
            steps.add("leave:" + ex.getVariable("slot"));
            ex.setVariable("hookReady", true);
        });
        Mocks.register("removeScaledSlot", (JavaDelegate) ex -> {
            steps.add("stop:" + ex.getVariable("slot"));
            long polls = steps.stream().filter(s -> s.equals("stop:" + ex.getVariable("slot"))).count();
            ex.setVariable("slotRemoved", polls >= removePolls);
        });
        Mocks.register("recordScaledSlot", (JavaDelegate) ex -> steps.add("record:" + ex.getVariable("slot")));
        Mocks.register("recordScale", (JavaDelegate) ex -> {
            steps.add("outcome:" + ex.getVariable("scaleResult"));
            ex.setVariable("outcome", ex.getVariable("scaleResult") + " " + ex.getVariable("haltReason"));
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> { });
        Mocks.register("requireApprovalDecision", (TaskListener) task -> {
            if (!(task.getVariable("approved") instanceof Boolean)) {
                throw new FormFieldValidationException("approved", "approved must be true or false");
            }
        });
        Mocks.register("requireScaleHaltDecision", (TaskListener) task -> {
            if (!List.of("retry", "stop").contains(task.getVariable("decision"))) {
                throw new FormFieldValidationException("decision", "decision must be retry or stop");
            }
        });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance scale() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("scale", "kv", Map.of("replicaSet", "kv",
                "requestedReplicas", 5, "requestedBy", "olivia", "scaleReason", "requested by olivia"));
        drive();
        return pi;
    }

    private final DueJobs jobs = new DueJobs(DEADLINES);

    private void drive() {
        jobs.drive(60);
    }

    private void deadlinePasses(String boundaryEvent) {
        jobs.deadlinePasses(boundaryEvent, 60);
    }

    private void complete(ProcessInstance pi, String key, String variable, Object value) {
        jobs.complete(pi, key, variable, value, 60);
    }

    private static org.camunda.bpm.engine.test.assertions.bpmn.ProcessInstanceAssert that(ProcessInstance pi) {
        return DueJobs.that(pi);
    }

    private static String outcome(ProcessInstance pi) {
        return DueJobs.outcome(pi);
    }

    private Task onlyTask() {
        return taskService().createTaskQuery().singleResult();
    }

    @Test
    void upAddsEachSlotAsALearnerStartsAttestsHealthGatesPromotesThenCountsIt() {
        ProcessInstance pi = scale();
        that(pi).isEnded().hasPassed("Task_PlanScale", "SubProcess_AddSlots", "CallActivity_AddToWorkload", "Task_StartCvm",
                "CallActivity_Attest", "Task_ProbeHealth", "CallActivity_JoinWorkload", "Task_RecordAdded", "EndEvent_Scaled")
                .hasNotPassed("SubProcess_RemoveSlots", "UserTask_ApproveScaleDown", "UserTask_AddHalted");
        assertThat(steps).containsExactly("plan",
                "look:kv-3", "add:kv-3", "start:kv-3@services: {kv: 1}", "attest:kv-3=null", "probe:kv-3", "promote:kv-3", "record:kv-3",
                "look:kv-4", "add:kv-4", "start:kv-4@services: {kv: 1}", "attest:kv-4=null", "probe:kv-4", "promote:kv-4", "record:kv-4",
                "outcome:scaled");
    }

    @Test
    void aRetainedSlotComesBackWithItsIdentityAndCompose() {
        retained = Set.of("kv-3");
        ProcessInstance pi = scale();
        that(pi).isEnded().hasPassed("EndEvent_Scaled");
        assertThat(steps).contains("start:kv-3@services: {kv: old}", "attest:kv-3=i-kv-3", "start:kv-4@services: {kv: 1}",
                "attest:kv-4=null");
    }

    @Test
    void downDrainsLetsGoStopsAndRecordsHighestFirst() {
        direction = "DOWN";
        toRemove = List.of("kv-4", "kv-3");
        removePolls = 2;
        ProcessInstance pi = scale();
        that(pi).isEnded().hasPassed("SubProcess_RemoveSlots", "CallActivity_Drain", "CallActivity_Leave", "Task_RemoveCvm",
                "Timer_WaitForRemoval", "Task_RecordRemoved", "EndEvent_Scaled").hasNotPassed("UserTask_ApproveScaleDown");
        assertThat(steps).containsExactly("plan",
                "look:kv-4", "drain:kv-4", "leave:kv-4", "stop:kv-4", "stop:kv-4", "record:kv-4",
                "look:kv-3", "drain:kv-3", "leave:kv-3", "stop:kv-3", "stop:kv-3", "record:kv-3", "outcome:scaled");
    }

    @Test
    void aSlotThatCannotBeReachedIsNotDrainedButStillLeavesTheWorkload() {
        direction = "DOWN";
        toRemove = List.of("kv-3");
        reachable = false;
        ProcessInstance pi = scale();
        that(pi).isEnded().hasPassed("EndEvent_Scaled").hasNotPassed("CallActivity_Drain");
        assertThat(steps).containsExactly("plan", "look:kv-3", "leave:kv-3", "stop:kv-3", "record:kv-3", "outcome:scaled");
    }

    @Test
    void belowTheMinimumAnApprovalComesFirst() {
        direction = "DOWN";
        toRemove = List.of("kv-2");
        belowMinimum = true;
        ProcessInstance pi = scale();
        Task approval = onlyTask();
        assertThat(approval.getName()).isEqualTo("Approve scaling kv down to 5, below its minimum of 3");
        assertThat(approval.getDescription()).isEqualTo("the plan");
        assertThat(steps).containsExactly("plan");
        complete(pi, "UserTask_ApproveScaleDown", "approved", true);
        that(pi).isEnded().hasPassed("Gateway_Approved", "SubProcess_RemoveSlots", "EndEvent_Scaled");
        assertThat(steps).containsExactly("plan", "look:kv-2", "drain:kv-2", "leave:kv-2", "stop:kv-2", "record:kv-2", "outcome:scaled");
    }

    @Test
    void aRejectedScaleDownChangesNothing() {
        direction = "DOWN";
        toRemove = List.of("kv-2");
        belowMinimum = true;
        ProcessInstance pi = scale();
        complete(pi, "UserTask_ApproveScaleDown", "approved", false);
        that(pi).isEnded().hasPassed("EndEvent_Rejected").hasNotPassed("SubProcess_RemoveSlots");
        assertThat(steps).containsExactly("plan", "outcome:rejected");
    }

    @Test
    void nothingToChangeAndARefusedRequestEndAtOnce() {
        direction = "NONE";
        that(scale()).isEnded().hasPassed("EndEvent_NoChange");
        direction = "REFUSED";
        that(scale()).isEnded().hasPassed("EndEvent_Refused");
        assertThat(steps).containsExactly("plan", "outcome:no-change", "plan", "outcome:refused");
    }

    @Test
    void aSlotThatIsNotHealthyAtTheDeadlineHaltsForTheOperatorWhoRetries() {
        toAdd = List.of("kv-3");
        healthy = false;
        ProcessInstance pi = scale();
        deadlinePasses("BoundaryEvent_StartDeadline");
        Task halted = onlyTask();
        assertThat(halted.getName()).isEqualTo("Scale of kv halted at kv-3: retry or stop");
        assertThat(halted.getDescription()).startsWith("kv-3 did not run, pass attestation and become healthy within PT60S; last: waiting for health");
        healthy = true;
        complete(pi, "UserTask_AddHalted", "decision", "retry");
        that(pi).isEnded().hasPassed("EndEvent_Scaled");
        assertThat(steps).endsWith("start:kv-3@services: {kv: 1}", "attest:kv-3=null", "probe:kv-3", "promote:kv-3", "record:kv-3", "outcome:scaled");
    }

    @Test
    void anOperatorStopsAHaltedScaleAndTheSlotsDoneSoFarCount() {
        toAdd = List.of("kv-3", "kv-4");
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("scale", "kv", Map.of("replicaSet", "kv",
                "requestedReplicas", 5, "requestedBy", "olivia", "scaleReason", "requested by olivia"));
        // kv-3 becomes healthy, kv-4 never does
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            steps.add("probe:" + ex.getVariable("slot"));
            ex.setVariable("healthGatePassed", "kv-3".equals(ex.getVariable("slot")));
            ex.setVariable("stage", "waiting");
        });
        drive();
        deadlinePasses("BoundaryEvent_StartDeadline");
        complete(pi, "UserTask_AddHalted", "decision", "stop");
        that(pi).isEnded().hasPassed("BoundaryEvent_AddingStopped", "EndEvent_Stopped");
        assertThat(steps).contains("record:kv-3").doesNotContain("record:kv-4", "promote:kv-4").endsWith("outcome:stopped");
        assertThat(outcome(pi)).startsWith("stopped kv-4 did not run");
    }

    @Test
    void aNewInstanceThatAttestationRefusesIsNotCounted() {
        toAdd = List.of("kv-3");
        admitted = false;
        ProcessInstance pi = scale();
        Task halted = onlyTask();
        assertThat(halted.getDescription()).isEqualTo("attestation of kv-3 failed, the instance is not admitted and not counted: "
                + "ADMISSION_REJECTED: compose_hash bb is not allowed");
        assertThat(steps).contains("fence:kv-3").doesNotContain("probe:kv-3", "record:kv-3");
        complete(pi, "UserTask_AddHalted", "decision", "stop");
        that(pi).isEnded().hasPassed("EndEvent_Stopped");
    }

    @Test
    void anAbortedHookStopsTheScale() {
        toAdd = List.of("kv-3");
        addFails = true;
        ProcessInstance pi = scale();
        Task hookTask = onlyTask();
        assertThat(hookTask.getName()).isEqualTo("The add of kv-3 did not finish: retry, continue anyway or abort");
        taskService().complete(hookTask.getId(), Map.of("decision", "abort"));
        drive();
        that(pi).isEnded().hasPassed("BoundaryEvent_AddingStopped", "EndEvent_Stopped");
        assertThat(steps).containsExactly("plan", "look:kv-3", "add:kv-3", "outcome:stopped");
    }
}
