package com.statefulcvm.web.metrics;

import com.statefulcvm.web.api.ProcedureStarts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.camunda.bpm.engine.impl.history.event.HistoricActivityInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoricProcessInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import java.util.Date;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The history events EngineMetrics turns into meters, without an engine: a step's duration, a procedure's outcome, a
 * cancelled one, an attestation verdict, and what is not a step.
 */
class EngineMetricsTest {

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final EngineMetrics metrics;

    EngineMetricsTest() {
        ProcedureStarts procedures = mock(ProcedureStarts.class);
        when(procedures.procedures()).thenReturn(java.util.Set.of("rollout", "heal"));
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("meters", meters);
        beans.addBean("procedures", procedures);
        metrics = new EngineMetrics(beans.getBeanProvider(MeterRegistry.class), beans.getBeanProvider(ProcedureStarts.class));
    }

    private static HistoricActivityInstanceEventEntity activityEnded(String process, String activity, String type, long millis) {
        HistoricActivityInstanceEventEntity event = new HistoricActivityInstanceEventEntity();
        event.setEventType(HistoryEventTypes.ACTIVITY_INSTANCE_END.getEventName());
        event.setProcessDefinitionKey(process);
        event.setActivityId(activity);
        event.setActivityType(type);
        event.setStartTime(new Date(1_000));
        event.setEndTime(new Date(1_000 + millis));
        event.setDurationInMillis(millis);
        return event;
    }

    private static HistoricProcessInstanceEventEntity processEnded(String process, String endActivity) {
        HistoricProcessInstanceEventEntity event = new HistoricProcessInstanceEventEntity();
        event.setEventType(HistoryEventTypes.PROCESS_INSTANCE_END.getEventName());
        event.setProcessDefinitionKey(process);
        event.setEndActivityId(endActivity);
        return event;
    }

    @Test
    void stepDurationsAreCounted() {
        metrics.handleEvent(activityEnded("rollout", "Task_ApplyPlannedAction", "serviceTask", 40));
        metrics.handleEvent(activityEnded("rollout", "Task_ApplyPlannedAction", "serviceTask", 60));
        metrics.handleEvent(activityEnded("rollout", "Gateway_DrainFirst", "exclusiveGateway", 0));

        var probe = meters.get(EngineMetrics.STEP_DURATION).tags("procedure", "rollout", "step", "Task_ApplyPlannedAction").timer();
        assertThat(probe.count()).isEqualTo(2);
        assertThat(probe.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(100);
        assertThat(meters.find(EngineMetrics.STEP_DURATION).tag("step", "Gateway_DrainFirst").timer()).as("a gateway is no step").isNull();
    }

    @Test
    void proceduresEndWithTheirEndEventAndAttestationsWithTheirVerdict() {
        metrics.handleEvent(processEnded("rollout", "EndEvent_RolloutCompleted"));
        metrics.handleEvent(processEnded("heal", null));
        metrics.handleEvent(processEnded("attest-instance", "EndEvent_AttestationFailed"));
        metrics.handleEvent(processEnded("run-hook", "EndEvent_HookDone"));

        assertThat(meters.counter(EngineMetrics.PROCEDURES, "procedure", "rollout", "outcome", "RolloutCompleted").count()).isEqualTo(1);
        assertThat(meters.counter(EngineMetrics.PROCEDURES, "procedure", "heal", "outcome", "Cancelled").count()).isEqualTo(1);
        assertThat(meters.counter(EngineMetrics.ATTESTATION_VERDICTS, "process", "attest-instance", "verdict", "AttestationFailed").count())
                .isEqualTo(1);
        assertThat(meters.find(EngineMetrics.PROCEDURES).tag("procedure", "run-hook").counter()).as("a helper is no procedure").isNull();
    }
}
