package com.statefulcvm.web.metrics;

import com.statefulcvm.delegates.heal.HealVariables;
import com.statefulcvm.web.api.ProcedureStarts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.history.event.HistoricActivityInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoricProcessInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoryEvent;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.camunda.bpm.engine.impl.history.handler.HistoryEventHandler;
import org.camunda.bpm.engine.impl.jobexecutor.JobExecutorContext;
import org.camunda.bpm.engine.impl.persistence.entity.JobEntity;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * The engine's history events as Micrometer meters, beside the engine's own history (it keeps writing its tables):
 * how each operator procedure ended, how long each step took, the health monitor's rounds and how late each began, and
 * the verdicts of attest-instance.bpmn and admit-instance.bpmn. Events are counted when the engine produces them, inside the step's
 * transaction; a step whose transaction then fails and is retried counts again, as it ran again.
 */
class EngineMetrics implements HistoryEventHandler {

    static final String PROCEDURES = "orchestrator.procedures";
    static final String STEP_DURATION = "orchestrator.step.duration";
    static final String MONITOR_ROUNDS = "orchestrator.health.monitor.rounds";
    static final String MONITOR_LATENESS = "orchestrator.health.monitor.lateness";
    static final String ATTESTATION_VERDICTS = "orchestrator.attestation.verdicts";

    /** A procedure's attestation of an instance, and the health monitor's re-attestation of one that restarted. */
    private static final Set<String> ATTEST_PROCESSES = Set.of("attest-instance", "admit-instance");
    private static final String MONITOR_ROUND_STEP = "Task_ProbeReplicaSet";
    private static final String MONITOR_TIMER = "Timer_WaitInterval";
    /** The activity types that are steps someone waits for; gateways and plain events take no time worth a series. */
    private static final Set<String> STEP_TYPES = Set.of("serviceTask", "userTask", "callActivity", "subProcess",
            "sendTask", "scriptTask", "receiveTask", "intermediateTimer", "intermediateMessageCatch", "businessRuleTask");

    private final ObjectProvider<MeterRegistry> registry;
    private final ObjectProvider<ProcedureStarts> procedures;

    EngineMetrics(ObjectProvider<MeterRegistry> registry, ObjectProvider<ProcedureStarts> procedures) {
        this.registry = registry;
        this.procedures = procedures;
    }

    @Override
    public void handleEvent(HistoryEvent event) {
        MeterRegistry meters = registry.getIfAvailable();
        if (meters == null) {
            return;
        }
        if (event instanceof HistoricProcessInstanceEventEntity process
                && HistoryEventTypes.PROCESS_INSTANCE_END.getEventName().equals(process.getEventType())) {
            processEnded(meters, process);
        } else if (event instanceof HistoricActivityInstanceEventEntity activity
                && HistoryEventTypes.ACTIVITY_INSTANCE_END.getEventName().equals(activity.getEventType())) {
            activityEnded(meters, activity);
        }
    }

    @Override
    public void handleEvents(List<HistoryEvent> events) {
        events.forEach(this::handleEvent);
    }

    private void processEnded(MeterRegistry meters, HistoricProcessInstanceEventEntity process) {
        String key = process.getProcessDefinitionKey();
        String outcome = outcome(process);
        if (ATTEST_PROCESSES.contains(key)) {
            meters.counter(ATTESTATION_VERDICTS, "process", key, "verdict", outcome).increment();
        } else if (procedures.getObject().procedures().contains(key)) {
            meters.counter(PROCEDURES, "procedure", key, "outcome", outcome).increment();
        }
    }

    /** The end event's id without its "EndEvent_" prefix (RolloutCompleted, RolledBack, ...), or "Cancelled". */
    static String outcome(HistoricProcessInstanceEventEntity process) {
        String end = process.getEndActivityId();
        if (end == null) {
            return "Cancelled";
        }
        return end.startsWith("EndEvent_") ? end.substring("EndEvent_".length()) : end;
    }

    private void activityEnded(MeterRegistry meters, HistoricActivityInstanceEventEntity activity) {
        String key = activity.getProcessDefinitionKey();
        if (STEP_TYPES.contains(activity.getActivityType())) {
            Long millis = activity.getDurationInMillis();
            if (millis == null && activity.getStartTime() != null && activity.getEndTime() != null) {
                millis = activity.getEndTime().getTime() - activity.getStartTime().getTime();
            }
            if (millis != null) {
                Timer.builder(STEP_DURATION).tags("procedure", key, "step", activity.getActivityId())
                        .register(meters).record(Duration.ofMillis(millis));
            }
        }
        if (HealVariables.MONITOR_PROCESS.equals(key)) {
            if (MONITOR_ROUND_STEP.equals(activity.getActivityId())) {
                meters.counter(MONITOR_ROUNDS).increment();
            } else if (MONITOR_TIMER.equals(activity.getActivityId())) {
                lateness(activity.getEndTime()).ifPresent(late -> Timer.builder(MONITOR_LATENESS).register(meters).record(late));
            }
        }
    }

    /** How long after its due date the timer job that ends the wait ran (the job executor's pickup delay). */
    private static java.util.Optional<Duration> lateness(Date fired) {
        JobExecutorContext jobs = Context.getJobExecutorContext();
        JobEntity job = jobs == null ? null : jobs.getCurrentJob();
        if (job == null || job.getDuedate() == null || fired == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Duration.ofMillis(Math.max(0, fired.getTime() - job.getDuedate().getTime())));
    }
}
