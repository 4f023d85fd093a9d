package com.statefulcvm.web.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * The HELP text of every {@code orchestrator_*} metric, in one place: meters are registered where they are counted
 * (often with {@code registry.counter(name, tags)}, which takes no description), and this filter gives each its
 * description as it is registered. A meter added without an entry here fails {@code MetricHelpTest}.
 */
@Component
public class MetricHelp implements MeterFilter {

    static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("orchestrator.procedures",
                    "Procedures (rollout, heal, failover, scale, lights-out recovery, ...) that ended, by procedure and the end event they reached"),
            Map.entry("orchestrator.procedure.starts",
                    "Starts of operator procedures by any path (our API, Tasklist, Cockpit, engine REST), by procedure and result: started or refused"),
            Map.entry("orchestrator.step.duration",
                    "Time each BPMN step of a procedure took, from its start to its end, by procedure and step id"),
            Map.entry("orchestrator.health.monitor.rounds",
                    "Rounds of the health monitors this node ran, by mode: monitor (sets with auto-healing), observe (the others)"),
            Map.entry("orchestrator.health.monitor.lateness", "How long after its due time each health-monitor round began"),
            Map.entry("orchestrator.health.monitor.round.duration", "How long a health-monitor round took, its probes included"),
            Map.entry("orchestrator.health.monitor.sets", "Replica sets whose health monitor this node holds"),
            Map.entry("orchestrator.attestation.verdicts",
                    "TDX attestation verdicts on instances, by the process that asked (attest-instance, admit-instance) and the verdict"),
            Map.entry("orchestrator.approvals.open",
                    "User tasks waiting in Tasklist: approvals and decisions on halted procedures"),
            Map.entry("orchestrator.phala.calls", "Calls to the Phala Cloud API, by operation and HTTP status (0: no answer)"),
            Map.entry("orchestrator.phala.retries", "Phala Cloud API calls repeated after a retryable answer, by operation and status"));

    @Override
    public Meter.Id map(Meter.Id id) {
        String description = DESCRIPTIONS.get(id.getName());
        if (description == null || (id.getDescription() != null && !id.getDescription().isBlank())) {
            return id;
        }
        return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), description, id.getType());
    }
}
