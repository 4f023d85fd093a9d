package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * decide-attestation-refusals.bpmn with stand-in delegates: the approver's decision on instances refused beyond the
 * disruption budget. Nothing is fenced without the approver's "fence"; "pin" pins their platforms and fences nothing; a
 * "wait" asks again while refusals stand and ends once none does; under on-failure DRAIN each fenced instance is
 * drained.
 */
@Deployment(resources = {"processes/decide-attestation-refusals.bpmn", "processes/run-hook.bpmn",
        "processes/drain-generic.bpmn", "processes/hook-failed.form", "processes/decide-attestation-refusals.form"})
class RefusalDecisionProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    /** The set's standing refusals, as the registry would answer each look. */
    private final List<String> refused = new ArrayList<>(List.of("db-1", "db-2"));
    private String onFailure = "STOP";
    /** Whether the drifted instances still run one compose when the adopt step looks. */
    private boolean adoptable = true;
    /** Whether the rollback's rollout can start (no other rollout of the set runs). */
    private boolean rollbackStarts = true;
    private final List<String> steps = new ArrayList<>();
    private final DueJobs jobs = new DueJobs(Set.of("BoundaryEvent_HookTimedOut"));

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("describeRefusedInstances", (JavaDelegate) ex -> {
            steps.add("look:" + refused);
            ex.setVariable("refusedCount", refused.size());
            ex.setVariable("refusedInstances", String.join("\n", refused));
            ex.setVariable("pinnedPlatforms", "none pinned");
        });
        Mocks.register("fenceRefusedInstances", (JavaDelegate) ex -> {
            steps.add("fence:" + refused + " as " + ex.getVariable("decidedBy"));
            ex.setVariable("fencedSlots", new ArrayList<>(refused));
            refused.clear();
            ex.setVariable("fenceAction", onFailure);
            ex.setVariable("workloadType", "generic");
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", "ABANDON");
        });
        Mocks.register("pinRefusedPlatforms", (JavaDelegate) ex -> {
            steps.add("pin:" + refused + " as " + ex.getVariable("decidedBy"));
            refused.clear();
        });
        Mocks.register("adoptRunningCompose", (JavaDelegate) ex -> {
            steps.add("adopt:" + refused + " as " + ex.getVariable("decidedBy"));
            ex.setVariable("adoptedRevision", adoptable ? 2 : null);
            if (adoptable) {
                refused.clear();
            }
        });
        Mocks.register("rollBackDriftedCompose", (JavaDelegate) ex -> {
            steps.add("rollback:" + refused + " as " + ex.getVariable("decidedBy"));
            ex.setVariable("rollbackRollout", rollbackStarts ? "rollout-1" : null);
        });
        Mocks.register("checkRollbackEnded", (JavaDelegate) ex -> {
            steps.add("rollback ended");
            ex.setVariable("rollbackEnded", true);
            refused.clear();
        });
        Mocks.register("requireRefusalDecision", (TaskListener) task -> task.getExecution().getProcessInstance()
                .setVariable("decidedBy", "alice"));
        Mocks.register("callPreStopEndpoint", (JavaDelegate) ex -> steps.add("drain:" + ex.getVariable("slot")));
        Mocks.register("requireHookDecision", (TaskListener) task -> { });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance start() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("decide-attestation-refusals", "db",
                Map.of("replicaSet", "db", "askAgainAfter", "PT10M"));
        jobs.drive(20);
        return pi;
    }

    private Task decision(ProcessInstance pi) {
        return taskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey("UserTask_DecideRefusals").singleResult();
    }

    @Test
    void nothingIsFencedBeforeTheApproverDecidesAndFenceFencesEveryStandingRefusal() {
        ProcessInstance pi = start();
        Task task = decision(pi);
        assertThat(task).as("an approver is asked").isNotNull();
        assertThat(task.getName()).isEqualTo("Decide on the instances of db refused beyond the budget");
        assertThat(taskService().getIdentityLinksForTask(task.getId())).extracting(l -> l.getGroupId())
                .contains("approvers");
        assertThat(steps).containsExactly("look:[db-1, db-2]");

        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "fence", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_FenceRefused", "EndEvent_Fenced").hasNotPassed("CallActivity_DrainFenced");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "fence:[db-1, db-2] as alice");
    }

    @Test
    void pinPinsTheirPlatformsAndFencesNothing() {
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "pin", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_PinPlatforms", "EndEvent_Pinned").hasNotPassed("Task_FenceRefused");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "pin:[db-1, db-2] as alice");
    }

    @Test
    void adoptRecordsTheRunningComposeAndFencesNothing() {
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "adopt", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_AdoptRunningCompose", "EndEvent_Adopted").hasNotPassed("Task_FenceRefused");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "adopt:[db-1, db-2] as alice");
    }

    /** Another drift arrived between the decision and the step: nothing is adopted, and the approver is asked again. */
    @Test
    void anAdoptThatFindsTwoComposesAdoptsNothingAndAsksAgain() {
        adoptable = false;
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "adopt", 20);
        assertThat(decision(pi)).as("asked again").isNotNull();
        DueJobs.that(pi).hasPassed("Gateway_Adopted").hasNotPassed("EndEvent_Adopted");
    }

    /** "rollback" starts a rollout of the drifted ones and fences nothing; one that could not start asks again. */
    @Test
    void rollbackStartsARolloutFencesNothingAndAsksAgainWhenNoneCouldStart() {
        rollbackStarts = false;
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "rollback", 20);
        assertThat(decision(pi)).as("asked again: no rollout started").isNotNull();
        rollbackStarts = true;
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "rollback", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_RollBackDrifted", "Task_CheckRollback", "EndEvent_NoneRefused").hasNotPassed("Task_FenceRefused");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "rollback:[db-1, db-2] as alice", "look:[db-1, db-2]",
                "rollback:[db-1, db-2] as alice", "rollback ended", "look:[]");
    }

    @Test
    void underDrainEachFencedInstanceIsDrained() {
        onFailure = "DRAIN";
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "fence", 40);
        DueJobs.that(pi).isEnded().hasPassed("CallActivity_DrainFenced", "EndEvent_Fenced");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "fence:[db-1, db-2] as alice", "drain:db-1", "drain:db-2");
    }

    @Test
    void waitAsksAgainWhileRefusalsStandAndEndsOnceNoneDoes() {
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "wait", 20);
        assertThat(decision(pi)).as("asked again: the refusals stand").isNotNull();
        assertThat(steps).containsExactly("look:[db-1, db-2]", "look:[db-1, db-2]");

        refused.clear(); // both admitted meanwhile
        jobs.complete(pi, "UserTask_DecideRefusals", "decision", "wait", 20);
        DueJobs.that(pi).isEnded().hasPassed("Timer_AskAgain", "EndEvent_NoneRefused").hasNotPassed("Task_FenceRefused");
    }

    @Test
    void aDecisionStartedWhenNothingStandsRefusedEndsWithoutAsking() {
        refused.clear();
        ProcessInstance pi = start();
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_NoneRefused").hasNotPassed("UserTask_DecideRefusals");
    }
}
