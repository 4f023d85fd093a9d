package com.statefulcvm.web.engine;

import com.statefulcvm.delegates.support.PhalaCircuit;
import com.statefulcvm.delegates.support.StepHeld;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.StandaloneInMemProcessEngineConfiguration;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A step held by the disruption budget ({@link StepHeld}, thrown by the rollout's apply step) in a real engine with
 * this node's failed-job handling ({@link PhalaOutagePause}): the job is due again at the hold's time, keeps its
 * retries however often it is held, gets no incident, says why in its exception message and the step's stage, and
 * the deadline of the scope it waits in still fires.
 */
class StepHoldTest {

    private static ProcessEngine engine;
    static final AtomicBoolean BUDGET_SPENT = new AtomicBoolean();

    /** The apply step's stand-in: holds while the budget is spent, then acts. */
    public static class HoldingStep implements JavaDelegate {
        @Override
        public void execute(DelegateExecution execution) {
            if (BUDGET_SPENT.get()) {
                Instant next = ClockUtil.getCurrentTime().toInstant().plusSeconds(5);
                throw new StepHeld("Holding: Disruption budget of 'web' spent: web-0 (CVM status stopped)", next,
                        "holding before taking web-1 down");
            }
            execution.setVariable("stage", "restart of web-1 asked");
        }
    }

    @BeforeAll
    static void engine() {
        StandaloneInMemProcessEngineConfiguration cfg = new StandaloneInMemProcessEngineConfiguration();
        cfg.setJdbcUrl("jdbc:h2:mem:step-hold;DB_CLOSE_DELAY=-1");
        cfg.setJobExecutorActivate(false);
        cfg.setHistory("none");
        Clock clock = Clock.systemUTC();
        cfg.setProcessEnginePlugins(List.of(new PhalaOutagePause(new PhalaCircuit(clock, Duration.ofSeconds(1), Duration.ofSeconds(10)), clock)));
        engine = cfg.buildProcessEngine();
        BpmnModelInstance model = Bpmn.createExecutableProcess("held")
                .startEvent()
                .subProcess("SubProcess_UpdateSlot").embeddedSubProcess()
                    .startEvent()
                    .serviceTask("Task_ApplyPlannedAction").camundaAsyncBefore().camundaClass(HoldingStep.class.getName())
                    .userTask("Task_Probe")
                    .endEvent()
                .subProcessDone()
                .endEvent("EndEvent_Updated")
                .moveToActivity("SubProcess_UpdateSlot").boundaryEvent("BoundaryEvent_ProgressDeadline").timerWithDuration("PT10M")
                .endEvent("EndEvent_DeadlinePassed")
                .done();
        engine.getRepositoryService().createDeployment().addModelInstance("held.bpmn", model).deploy();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @AfterEach
    void resetClock() {
        ClockUtil.reset();
        BUDGET_SPENT.set(false);
    }

    private Job applyJob(ProcessInstance pi) {
        return engine.getManagementService().createJobQuery().processInstanceId(pi.getId()).activityId("Task_ApplyPlannedAction").singleResult();
    }

    @Test
    void aHeldStepKeepsItsRetriesAndActsOnceTheBudgetAllows() {
        // the engine's clock stands still: "held until 5 s from now" is compared with the same now, however slow the
        // machine is between the step and the assertion
        ClockUtil.setCurrentTime(new Date());
        BUDGET_SPENT.set(true);
        ProcessInstance pi = engine.getRuntimeService().startProcessInstanceByKey("held");
        int retries = applyJob(pi).getRetries();
        for (int round = 0; round < retries + 2; round++) {
            Job job = applyJob(pi);
            assertThatThrownBy(() -> engine.getManagementService().executeJob(job.getId())).hasMessageContaining("Holding");
            Job held = applyJob(pi);
            assertThat(held.getRetries()).as("a hold costs no retry").isEqualTo(retries);
            assertThat(held.getExceptionMessage()).startsWith("Holding: Disruption budget of 'web' spent");
            assertThat(held.getDuedate()).isAfter(new Date(ClockUtil.getCurrentTime().getTime() + 4_000));
        }
        assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(pi.getId()).count()).isZero();
        assertThat(engine.getRuntimeService().getVariable(pi.getId(), "stage")).isEqualTo("holding before taking web-1 down");

        BUDGET_SPENT.set(false);
        engine.getManagementService().executeJob(applyJob(pi).getId());
        assertThat(engine.getTaskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey("Task_Probe").count()).isOne();
    }

    @Test
    void theDeadlineStillFiresWhileTheStepIsHeld() {
        BUDGET_SPENT.set(true);
        ProcessInstance pi = engine.getRuntimeService().startProcessInstanceByKey("held");
        Job job = applyJob(pi);
        assertThatThrownBy(() -> engine.getManagementService().executeJob(job.getId())).hasMessageContaining("Holding");

        ClockUtil.setCurrentTime(new Date(System.currentTimeMillis() + Duration.ofMinutes(11).toMillis()));
        Job deadline = engine.getManagementService().createJobQuery().processInstanceId(pi.getId()).timers().singleResult();
        engine.getManagementService().executeJob(deadline.getId());
        assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(pi.getId()).count())
                .as("the progress deadline ended the held step's scope").isZero();
    }
}
