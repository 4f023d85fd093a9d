package com.statefulcvm.web.metrics;

import com.statefulcvm.web.api.ProcedureStarts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.camunda.bpm.engine.impl.history.event.HistoricActivityInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoricProcessInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoryEvent;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.camunda.bpm.engine.impl.history.handler.HistoryEventHandler;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The engine's history events as Micrometer meters, beside the engine's own history (it keeps writing its tables):
 * how each operator procedure ended, how long each step took, and the verdicts of attest-instance.bpmn and admit-instance.bpmn. Events are counted when the engine produces them, inside the step's
 * transaction; a step whose transaction then fails and is retried counts again, as it ran again.
 */
public class EngineMetrics implements HistoryEventHandler {

    static final String PROCEDURES = "orchestrator.procedures";
    static final String STEP_DURATION = "orchestrator.step.duration";
    static final String ATTESTATION_VERDICTS = "orchestrator.attestation.verdicts";

    /** A procedure's attestation of an instance, and the health monitor's re-attestation of one that restarted. */
    private static final Set<String> ATTEST_PROCESSES = Set.of("attest-instance", "admit-instance");
    /** The activity types that are steps someone waits for; gateways and plain events take no time worth a series. */
    private static final Set<String> STEP_TYPES = Set.of("serviceTask", "userTask", "callActivity", "subProcess",
            "sendTask", "scriptTask", "receiveTask", "intermediateTimer", "intermediateMessageCatch", "businessRuleTask");

    private final ObjectProvider<MeterRegistry> registry;
    private final ObjectProvider<ProcedureStarts> procedures;

    public EngineMetrics(ObjectProvider<MeterRegistry> registry, ObjectProvider<ProcedureStarts> procedures) {
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
    }
}
