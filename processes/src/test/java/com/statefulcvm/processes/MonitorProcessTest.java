package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.JavaDelegate;
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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;

/**
 * monitor-health.bpmn with its steps replaced by stand-ins: every round is one timer job whose time is the set's
 * health-check interval, the rounds go on until the monitor is told to stop, and after its rounds a monitor hands over
 * to a fresh instance in the same transaction.
 */
@Deployment(resources = "processes/monitor-health.bpmn")
class MonitorProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private final List<Integer> rounds = new ArrayList<>();
    private int stopAfter = Integer.MAX_VALUE;
    private int generation = Integer.MAX_VALUE;
    private int failures = 0;

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("probeReplicaSet", (JavaDelegate) ex -> {
            if (failures > 0) {
                failures--;
                throw new IllegalStateException("database unavailable");
            }
            int round = ((Number) ex.getVariable("round")).intValue() + 1;
            rounds.add(round);
            ex.setVariable("round", round);
            ex.setVariable("keepMonitoring", round < stopAfter);
            ex.setVariable("generationDone", round >= generation);
        });
        Mocks.register("startNextMonitor", (JavaDelegate) ex -> runtimeService().startProcessInstanceByKey("monitor-health",
                ex.getProcessBusinessKey(), variables((String) ex.getVariable("monitorStartedAt"))));
    }

    @AfterEach
    void reset() {
        Mocks.reset();
        runtimeService().createProcessInstanceQuery().processDefinitionKey("monitor-health").list()
                .forEach(pi -> runtimeService().deleteProcessInstance(pi.getId(), "test over"));
    }

    private static Map<String, Object> variables(String startedAt) {
        Map<String, Object> variables = new HashMap<>();
        variables.put("replicaSet", "db");
        variables.put("monitorInterval", "PT10S");
        variables.put("monitorStartedAt", startedAt);
        variables.put("round", 0);
        variables.put("keepMonitoring", true);
        variables.put("generationDone", false);
        variables.put("healsStarted", 0);
        return variables;
    }

    private ProcessInstance start() {
        return runtimeService().startProcessInstanceByKey("monitor-health", "db", variables("2026-01-01T00:00:00Z"));
    }

    private Job roundTimer() {
        return managementService().createJobQuery().activityId("Timer_WaitInterval").singleResult();
    }

    private static org.camunda.bpm.engine.test.assertions.bpmn.ProcessInstanceAssert that(ProcessInstance pi) {
        return org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat(pi);
    }

    @Test
    void eachRoundIsOneTimerJobAtTheHealthCheckInterval() {
        ProcessInstance pi = start();
        that(pi).isWaitingAt("Timer_WaitInterval");
        assertThat(rounds).as("the first round waits one interval").isEmpty();
        for (int i = 0; i < 3; i++) {
            Job timer = roundTimer();
            long inMillis = timer.getDuedate().getTime() - System.currentTimeMillis();
            assertThat(inMillis).isBetween(8_000L, 10_500L);
            managementService().executeJob(timer.getId());
        }
        assertThat(rounds).containsExactly(1, 2, 3);
        that(pi).isWaitingAt("Timer_WaitInterval");
        assertThat(managementService().createJobQuery().processInstanceId(pi.getId()).count()).as("one job at a time").isEqualTo(1);
    }

    @Test
    void theWaitAfterARoundIsTheIntervalLessTheRoundsDuration() {
        Mocks.register("probeReplicaSet", (JavaDelegate) ex -> {
            int round = ((Number) ex.getVariable("round")).intValue() + 1;
            rounds.add(round);
            ex.setVariable("round", round);
            ex.setVariable("keepMonitoring", true);
            ex.setVariable("generationDone", false);
            ex.setVariable("monitorWait", "PT7.5S"); // a round of 2.5 s
        });
        ProcessInstance pi = start();
        managementService().executeJob(roundTimer().getId());
        long inMillis = roundTimer().getDuedate().getTime() - System.currentTimeMillis();
        assertThat(inMillis).as("due one interval after the round started").isBetween(5_500L, 7_600L);
        that(pi).isWaitingAt("Timer_WaitInterval");
    }

    @Test
    void aRoundThatFailsIsRetriedAfterOneIntervalWithoutLosingTheMonitor() {
        failures = 1;
        ProcessInstance pi = start();
        Job timer = roundTimer();
        try {
            managementService().executeJob(timer.getId());
        } catch (RuntimeException expected) {
            // the job failed; the engine keeps it with one retry less, due again after one interval
        }
        Job retried = managementService().createJobQuery().jobId(timer.getId()).singleResult();
        assertThat(retried.getRetries()).isEqualTo(99);
        assertThat(retried.getExceptionMessage()).contains("database unavailable");
        assertThat(retried.getDuedate().getTime() - System.currentTimeMillis()).isBetween(8_000L, 10_500L);
        managementService().executeJob(retried.getId());
        assertThat(rounds).containsExactly(1);
        that(pi).isWaitingAt("Timer_WaitInterval");
    }

    @Test
    void aMonitorToldToStopEnds() {
        stopAfter = 2;
        ProcessInstance pi = start();
        managementService().executeJob(roundTimer().getId());
        managementService().executeJob(roundTimer().getId());
        that(pi).isEnded().hasPassed("EndEvent_MonitorStopped");
    }

    @Test
    void afterItsRoundsAMonitorHandsOverToANewInstanceInTheSameTransaction() {
        generation = 2;
        ProcessInstance first = start();
        managementService().executeJob(roundTimer().getId());
        managementService().executeJob(roundTimer().getId());
        that(first).isEnded().hasPassed("Task_StartNextMonitor", "EndEvent_HandedOver");
        List<ProcessInstance> running = runtimeService().createProcessInstanceQuery().processDefinitionKey("monitor-health")
                .processInstanceBusinessKey("db").list();
        assertThat(running).hasSize(1);
        assertThat(running.get(0).getId()).isNotEqualTo(first.getId());
        assertThat(runtimeService().getVariable(running.get(0).getId(), "monitorStartedAt")).as("keeps its age").isEqualTo("2026-01-01T00:00:00Z");
        assertThat(runtimeService().getVariable(running.get(0).getId(), "round")).isEqualTo(0);
    }
}
