package com.statefulcvm.processes;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.complete;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.execute;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.job;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.task;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.withVariables;

/**
 * Every path of rollout.bpmn with the delegates replaced by stand-ins: approved, rejected, halted on the progress
 * deadline then retried, skipped, aborted, and the approval between instances.
 */
@Deployment(resources = {"processes/rollout.bpmn", "processes/attest-instance.bpmn", "processes/approve-rollout.form",
        "processes/approve-next-instance.form", "processes/rollout-halted.form"})
class RolloutProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    /** Slots whose CVM the stand-in "applies" the compose to, in the order the process visits them. */
    private final List<String> applied = new ArrayList<>();
    private final List<String> recorded = new ArrayList<>();
    private boolean healthy = true;
    private boolean admitted = true;
    private final List<String> attestedWith = new ArrayList<>();
    private boolean approvalBetween = false;

    @BeforeEach
    void standIns() {
        ProcessEngine engine = extension.getProcessEngine();
        init(engine);
        Mocks.register("planRollout", (JavaDelegate) ex -> {
            ex.setVariable("slots", List.of("webdemo-2", "webdemo-1", "webdemo-0"));
            ex.setVariable("approvalBeforeRollout", ex.getVariable("approvalBeforeRollout") == null || (Boolean) ex.getVariable("approvalBeforeRollout"));
            ex.setVariable("approvalBetweenInstances", approvalBetween);
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("healthProbeInterval", "PT1S");
            ex.setVariable("progressDeadline", "PT60S");
            ex.setVariable("planSummary", "1. webdemo-2 ...");
            ex.setVariable("stage", "planned");
            ex.setVariable("allowedComposeHashes", new ArrayList<>(List.of("aa")));
            ex.setVariable("boundInstanceIds", new java.util.HashMap<>(Map.of("webdemo-2", "i2", "webdemo-1", "i1", "webdemo-0", "i0")));
        });
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            attestedWith.add(ex.getVariable("slot") + "/" + ex.getVariable("boundInstanceId") + "/" + ex.getVariable("allowedComposeHashes"));
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "ADMISSION_REJECTED");
            ex.setVariable("attestationReason", admitted ? "admitted" : "ADMISSION_REJECTED: compose_hash ff… is not an allowed revision");
        });
        Mocks.register("applyComposeUpdate", (JavaDelegate) ex -> {
            applied.add((String) ex.getVariable("slot"));
            ex.setVariable("stage", "update requested");
        });
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", true));
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            ex.setVariable("healthGatePassed", healthy);
            ex.setVariable("stage", healthy ? "healthy" : "waiting for health: last probe 503");
        });
        Mocks.register("recordInstanceUpdated", (JavaDelegate) ex -> recorded.add((String) ex.getVariable("slot")));
        Mocks.register("requireApprovalDecision", (TaskListener) RolloutProcessTest::requireBoolean);
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
                Map.of("replicaSet", "webdemo", "targetCompose", "services: {}"));
        assertThat(pi).isWaitingAt("Task_PlanRollout");
        execute(job());
        return pi;
    }

    /** Runs one slot from its async apply step through the health gate. */
    private void runSlot() {
        execute(job("Task_ApplyComposeUpdate"));
    }

    @Test
    void approvedRolloutUpdatesEveryInstanceInPlanOrder() {
        ProcessInstance pi = start();
        assertThat(pi).isWaitingAt("UserTask_ApproveRollout");
        assertThat(task()).hasCandidateGroup("operators").hasName("Approve rollout of webdemo");
        complete(task(), withVariables("approved", true, "comment", "ship it"));
        for (int i = 0; i < 3; i++) {
            assertThat(pi).isWaitingAt("Task_ApplyComposeUpdate");
            runSlot();
        }
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted").hasNotPassed("UserTask_RolloutHalted");
        org.assertj.core.api.Assertions.assertThat(applied).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
        org.assertj.core.api.Assertions.assertThat(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void rejectedRolloutTouchesNothing() {
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", false));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutRejected").hasNotPassed("Task_ApplyComposeUpdate");
        org.assertj.core.api.Assertions.assertThat(applied).isEmpty();
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
        assertThat(pi).isWaitingAt("Task_ApplyComposeUpdate").hasNotPassed("UserTask_ApproveRollout");
    }

    @Test
    void cvmNotYetRunningIsPolledAgainAfterATimer() {
        int[] polls = {0};
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> ex.setVariable("cvmRunning", ++polls[0] >= 3));
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        assertThat(pi).isWaitingAt("Timer_WaitForCvm");
        execute(job("Timer_WaitForCvm"));
        assertThat(pi).isWaitingAt("Timer_WaitForCvm");
        execute(job("Timer_WaitForCvm"));
        assertThat(pi).isWaitingAt("Task_ApplyComposeUpdate");
        org.assertj.core.api.Assertions.assertThat(recorded).containsExactly("webdemo-2");
    }

    /** The instance never gets healthy: the deadline fires, no further slot is touched, the operator decides. */
    private ProcessInstance haltAtFirstSlot() {
        healthy = false;
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        assertThat(pi).isWaitingAt("Timer_WaitForHealth");
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted");
        assertThat(task()).hasName("Rollout halted at webdemo-2: retry, skip or abort");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "haltReason"))
                .asString().contains("webdemo-2").contains("waiting for health");
        org.assertj.core.api.Assertions.assertThat(applied).containsExactly("webdemo-2");
        return pi;
    }

    @Test
    void haltedThenRetriedEntersTheSameSlotAgainAndFinishes() {
        ProcessInstance pi = haltAtFirstSlot();
        healthy = true;
        complete(task(), withVariables("decision", "retry"));
        runSlot();
        assertThat(pi).isWaitingAt("Task_ApplyComposeUpdate");
        runSlot();
        runSlot();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(applied).containsExactly("webdemo-2", "webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void haltedThenSkippedGoesOnWithTheNextSlot() {
        ProcessInstance pi = haltAtFirstSlot();
        healthy = true;
        complete(task(), withVariables("decision", "skip"));
        runSlot();
        runSlot();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(recorded).containsExactly("webdemo-1", "webdemo-0");
    }

    @Test
    void haltedThenAbortedTouchesNoFurtherInstance() {
        ProcessInstance pi = haltAtFirstSlot();
        complete(task(), withVariables("decision", "abort"));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted").hasNotPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(applied).containsExactly("webdemo-2");
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
        runSlot();
        execute(job("BoundaryEvent_ProgressDeadline"));
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted");
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId)).hasMessageContaining("decision must be");
    }

    @Test
    void everyInstanceIsAttestedWithItsBoundIdentityBeforeItsHealthGate() {
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        runSlot();
        runSlot();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(attestedWith).containsExactly("webdemo-2/i2/[aa]", "webdemo-1/i1/[aa]", "webdemo-0/i0/[aa]");
    }

    @Test
    void anInstanceThatFailsAttestationHaltsTheRolloutAtItsSlot() {
        admitted = false;
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        assertThat(pi).isWaitingAt("UserTask_RolloutHalted").hasNotPassed("Task_ProbeHealth", "Task_RecordInstanceUpdated");
        assertThat(task()).hasName("Rollout halted at webdemo-2: retry, skip or abort");
        org.assertj.core.api.Assertions.assertThat(taskService().getVariable(task().getId(), "haltReason")).asString()
                .isEqualTo("attestation of webdemo-2 failed, the instance is not admitted: ADMISSION_REJECTED: compose_hash ff… is not an allowed revision");
        org.assertj.core.api.Assertions.assertThat(recorded).isEmpty();

        admitted = true;
        complete(task(), withVariables("decision", "retry"));
        runSlot();
        runSlot();
        runSlot();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(recorded).containsExactly("webdemo-2", "webdemo-1", "webdemo-0");
    }

    @Test
    void approvalBetweenInstancesIsAskedBeforeEachButTheLast() {
        approvalBetween = true;
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        assertThat(pi).isWaitingAt("UserTask_ApproveNextInstance");
        assertThat(task()).hasName("Approve continuing after webdemo-2");
        complete(task(), withVariables("approved", true));
        runSlot();
        complete(task(), withVariables("approved", true));
        runSlot();
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutCompleted");
        org.assertj.core.api.Assertions.assertThat(applied).hasSize(3);
    }

    @Test
    void rejectingBetweenInstancesStopsTheRollout() {
        approvalBetween = true;
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        complete(task(), withVariables("approved", false));
        assertThat(pi).isEnded().hasPassed("EndEvent_RolloutAborted");
        org.assertj.core.api.Assertions.assertThat(applied).containsExactly("webdemo-2");
    }

    @Test
    void anApprovalIsNotCarriedOverToTheNextApprovalTask() {
        approvalBetween = true;
        ProcessInstance pi = start();
        complete(task(), withVariables("approved", true));
        runSlot();
        String taskId = task().getId();
        assertThatThrownBy(() -> taskService().complete(taskId)).hasMessageContaining("approved must be true or false");
        assertThat(pi).isWaitingAt("UserTask_ApproveNextInstance");
    }
}
