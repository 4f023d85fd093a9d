package com.statefulcvm.processes;

import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.historyService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * Drives a procedure in a process test as the job executor would, with time compressed: every asynchronous step and
 * every poll timer runs as if its time had come, but the deadline timers named here (progress deadlines, hook
 * timeouts) fire only when a test says so.
 */
final class DueJobs {

    private final Set<String> deadlines;

    DueJobs(Set<String> deadlines) {
        this.deadlines = deadlines;
    }

    /** Runs due jobs until none is left (at most {@code rounds} rounds). */
    void drive(int rounds) {
        for (int round = 0; round < rounds; round++) {
            List<String> armed = new ArrayList<>();
            deadlines.forEach(id -> managementService().createJobQuery().activityId(id).list().forEach(j -> armed.add(j.getId())));
            List<Job> jobs = managementService().createJobQuery().list().stream().filter(j -> !armed.contains(j.getId())).toList();
            if (jobs.isEmpty()) {
                return;
            }
            jobs.forEach(j -> managementService().executeJob(j.getId()));
        }
    }

    /** The deadline timer on {@code boundaryEvent} fires now; then the procedure runs on. */
    void deadlinePasses(String boundaryEvent, int rounds) {
        Job deadline = managementService().createJobQuery().activityId(boundaryEvent).singleResult();
        assertThat(deadline).as(boundaryEvent + " is armed").isNotNull();
        managementService().executeJob(deadline.getId());
        drive(rounds);
    }

    /** Completes the waiting task {@code key} of the instance with one variable; then the procedure runs on. */
    void complete(ProcessInstance pi, String key, String variable, Object value, int rounds) {
        Task task = taskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey(key).singleResult();
        assertThat(task).as(key + " is waiting").isNotNull();
        taskService().complete(task.getId(), Map.of(variable, value));
        drive(rounds);
    }

    static org.camunda.bpm.engine.test.assertions.bpmn.ProcessInstanceAssert that(ProcessInstance pi) {
        return org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat(pi);
    }

    /** The instance's variable {@code outcome}, from history. */
    static String outcome(ProcessInstance pi) {
        return (String) historyService().createHistoricVariableInstanceQuery().processInstanceId(pi.getId())
                .variableName("outcome").singleResult().getValue();
    }
}
