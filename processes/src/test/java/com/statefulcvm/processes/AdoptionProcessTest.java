package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.BpmnError;
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
 * adopt-replica-set.bpmn with stand-in delegates: the survey touches nothing, nothing is recorded before an approver
 * accepts, a rejection records nothing, a set that cannot be adopted never reaches an approver, and an app that changed
 * after the approval is surveyed and approved again.
 */
@Deployment(resources = {"processes/adopt-replica-set.bpmn", "processes/approve-adoption.form", "processes/start-adopt-replica-set.form",
        "processes/sequence-generic.bpmn"})
class AdoptionProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private final List<String> steps = new ArrayList<>();
    private boolean acceptable = true;
    /** How many more times the record step finds the app changed since the approval. */
    private int changesAfterApproval;
    private final DueJobs jobs = new DueJobs(Set.of());

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("surveyTheApp", (JavaDelegate) ex -> {
            steps.add("survey" + (ex.getVariable("surveyAgainBecause") == null ? "" : " again"));
            ex.setVariable("adoptionAcceptable", acceptable);
            ex.setVariable("adoptionSummary", acceptable ? "3 of 3 slots filled" : "cannot be adopted: no CVM fills a slot");
            ex.setVariable("surveyedSlots", new ArrayList<>(List.of("db-0", "db-1")));
            ex.setVariable("workloadType", "generic");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("sequenceTimeout", "PT30S");
        });
        // db-0 answers, db-1 has no endpoint: reported, never given a number
        Mocks.register("readSequenceEndpoint", (JavaDelegate) ex -> {
            if ("db-1".equals(ex.getVariable("slot"))) {
                throw new BpmnError("HOOK_FAILED", "no sequence endpoint (404)");
            }
            ex.setVariable("sequenceNumber", 42L);
            ex.setVariable("sequenceSource", "the compose's counter");
            ex.setVariable("hookReady", true);
        });
        Mocks.register("recordSequenceNumber", new com.statefulcvm.delegates.lightsout.RecordSequenceNumber());
        Mocks.register("describeSurveyedSequences", new com.statefulcvm.delegates.adoption.DescribeSurveyedSequences());
        Mocks.register("requireAdoptionDecision", (TaskListener) task -> task.getExecution().getProcessInstance()
                .setVariable("decidedBy", "bob"));
        Mocks.register("recordTheAdoption", (JavaDelegate) ex -> {
            if (changesAfterApproval-- > 0) {
                ex.setVariable("surveyAgainBecause", "the app's CVMs changed");
                steps.add("changed");
                throw new BpmnError("APP_CHANGED", "the app's CVMs changed");
            }
            steps.add("record as " + ex.getVariable("decidedBy"));
        });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance start() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("adopt-replica-set", "db", Map.of("replicaSet", "db"));
        jobs.drive(20);
        return pi;
    }

    private Task approval(ProcessInstance pi) {
        return taskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey("UserTask_ApproveAdoption").singleResult();
    }

    @Test
    void theSurveyWaitsForAnApproverAndOnlyTheApprovalRecordsTheAdoption() {
        ProcessInstance pi = start();
        Task task = approval(pi);
        assertThat(task).as("an approver is asked").isNotNull();
        assertThat(task.getName()).isEqualTo("Approve the adoption of db");
        assertThat(taskService().getIdentityLinksForTask(task.getId())).extracting(l -> l.getGroupId()).contains("approvers");
        assertThat(steps).as("nothing recorded before the approval").containsExactly("survey");

        jobs.complete(pi, "UserTask_ApproveAdoption", "approved", true, 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_RecordTheAdoption", "EndEvent_Adopted");
        assertThat(steps).containsExactly("survey", "record as bob");
    }

    @Test
    void theApproverSeesEachRunningSlotsSequenceNumberOrWhyItHasNone() {
        Task task = approval(start());
        assertThat(String.valueOf(taskService().getVariable(task.getId(), "adoptionSequences")))
                .contains("db-0: 42 (the compose's counter) <- largest: the most recent data")
                .contains("db-1: NO ANSWER: no sequence endpoint (404)");
    }

    @Test
    void aRejectionRecordsNothing() {
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_ApproveAdoption", "approved", false, 20);
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_Rejected").hasNotPassed("Task_RecordTheAdoption");
        assertThat(steps).containsExactly("survey");
    }

    @Test
    void aSetThatCannotBeAdoptedNeverReachesAnApprover() {
        acceptable = false;
        ProcessInstance pi = start();
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_CannotAdopt").hasNotPassed("UserTask_ApproveAdoption");
        assertThat(steps).containsExactly("survey");
    }

    @Test
    void anAppThatChangedAfterTheApprovalIsSurveyedAndApprovedAgain() {
        changesAfterApproval = 1;
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_ApproveAdoption", "approved", true, 20);
        assertThat(approval(pi)).as("asked again, with the new survey").isNotNull();
        assertThat(steps).containsExactly("survey", "changed", "survey again");

        jobs.complete(pi, "UserTask_ApproveAdoption", "approved", true, 20);
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_Adopted");
        assertThat(steps).containsExactly("survey", "changed", "survey again", "record as bob");
    }
}
