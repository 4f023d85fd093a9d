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
 * decide-env-drift.bpmn with stand-in delegates: nothing is adopted or rolled back before the approver decides;
 * "adopt" records what they run; "rollback" starts a rollout, or asks again when none could start; "wait" asks again
 * while they drift and ends once none does.
 */
@Deployment(resources = {"processes/decide-env-drift.bpmn", "processes/decide-env-drift.form"})
class EnvDriftDecisionProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private final List<String> drifted = new ArrayList<>(List.of("db-1", "db-2"));
    private boolean rollbackStarts = true;
    /** Whether the rollback's rollout, once ended, left no slot drifted. */
    private boolean rollbackFixes = true;
    private final List<String> steps = new ArrayList<>();
    private final DueJobs jobs = new DueJobs(Set.of());

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("describeEnvDrift", (JavaDelegate) ex -> {
            steps.add("look:" + drifted);
            ex.setVariable("driftedCount", drifted.size());
            ex.setVariable("driftedEnvs", String.join("\n", drifted));
        });
        Mocks.register("adoptRunningEnv", (JavaDelegate) ex -> {
            steps.add("adopt:" + drifted + " as " + ex.getVariable("decidedBy"));
            drifted.clear();
        });
        Mocks.register("rollBackDriftedEnv", (JavaDelegate) ex -> {
            steps.add("rollback:" + drifted + " as " + ex.getVariable("decidedBy"));
            ex.setVariable("rollbackRollout", rollbackStarts ? "rollout-1" : null);
        });
        Mocks.register("checkRollbackEnded", (JavaDelegate) ex -> {
            steps.add("rollback ended: " + rollbackFixes);
            ex.setVariable("rollbackEnded", true);
            ex.setVariable("rollbackOutcome", rollbackFixes ? "completed" : "refused: no instance can be taken down");
            if (rollbackFixes) {
                drifted.clear();
            }
        });
        Mocks.register("requireEnvDriftDecision", (TaskListener) task -> task.getExecution().getProcessInstance()
                .setVariable("decidedBy", "alice"));
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance start() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("decide-env-drift", "db",
                Map.of("replicaSet", "db", "askAgainAfter", "PT10M"));
        jobs.drive(20);
        return pi;
    }

    private Task decision(ProcessInstance pi) {
        return taskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey("UserTask_DecideEnvDrift").singleResult();
    }

    @Test
    void nothingHappensBeforeTheApproverDecidesAndAdoptRecordsWhatTheyRun() {
        ProcessInstance pi = start();
        Task task = decision(pi);
        assertThat(task).as("an approver is asked").isNotNull();
        assertThat(task.getName()).isEqualTo("Decide on the env of db changed behind our back");
        assertThat(taskService().getIdentityLinksForTask(task.getId())).extracting(l -> l.getGroupId()).contains("approvers");
        assertThat(steps).containsExactly("look:[db-1, db-2]");

        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "adopt", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_AdoptRunningEnv", "EndEvent_Adopted").hasNotPassed("Task_RollBackEnv");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "adopt:[db-1, db-2] as alice");
    }

    @Test
    void rollbackStartsARolloutOrAsksAgainWhenNoneCouldStart() {
        rollbackStarts = false;
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "rollback", 20);
        assertThat(decision(pi)).as("asked again: no rollout started").isNotNull();

        rollbackStarts = true;
        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "rollback", 20);
        DueJobs.that(pi).isEnded().hasPassed("Task_RollBackEnv", "Task_CheckRollback", "EndEvent_NoneDrifted").hasNotPassed("Task_AdoptRunningEnv");
        assertThat(steps).containsExactly("look:[db-1, db-2]", "rollback:[db-1, db-2] as alice", "look:[db-1, db-2]",
                "rollback:[db-1, db-2] as alice", "rollback ended: true", "look:[]");
    }

    /** The decision waits for its rollback; one that left them drifted (refused by the budget, failed) asks again, saying so. */
    @Test
    void aRollbackThatLeftThemDriftedAsksAgainSayingHowItEnded() {
        rollbackFixes = false;
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "rollback", 20);
        Task again = decision(pi);
        assertThat(again).as("asked again").isNotNull();
        assertThat(taskService().getVariable(again.getId(), "rollbackOutcome")).isEqualTo("refused: no instance can be taken down");
    }

    @Test
    void waitAsksAgainWhileTheyDriftAndEndsOnceNoneDoes() {
        ProcessInstance pi = start();
        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "wait", 20);
        assertThat(decision(pi)).as("asked again: they still drift").isNotNull();
        drifted.clear();
        jobs.complete(pi, "UserTask_DecideEnvDrift", "decision", "wait", 20);
        DueJobs.that(pi).isEnded().hasPassed("Timer_AskAgain", "EndEvent_NoneDrifted").hasNotPassed("Task_AdoptRunningEnv", "Task_RollBackEnv");
    }
}
