package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.EnvDriftVariables;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * "Record the env they run as their env" (decide-env-drift.bpmn): each slot that still runs the drifted env the
 * approver saw keeps it, accepted by the approver; nothing is restarted. A slot whose env changed again since is left
 * drifted, and the decision is asked again.
 */
@Component("adoptRunningEnv")
public class AdoptRunningEnv implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(AdoptRunningEnv.class);

    private final EnvRegistry envs;
    private final Clock clock;

    public AdoptRunningEnv(EnvRegistry envs, Clock clock) {
        this.envs = envs;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(EnvDriftVariables.REPLICA_SET);
        String by = String.valueOf(execution.getVariable(EnvDriftVariables.DECIDED_BY));
        List<String> seen = List.of(String.valueOf(execution.getVariable(EnvDriftVariables.DRIFTED_ORDINALS)).split(","));
        List<String> adopted = new ArrayList<>();
        for (SlotEnv slot : DescribeEnvDrift.drifted(envs, set)) {
            if (seen.contains(String.valueOf(slot.ordinal()))) {
                envs.save(slot.driftAccepted(by, clock.instant()));
                adopted.add(Slots.name(set, slot.ordinal()));
            }
        }
        execution.setVariable(EnvDriftVariables.OUTCOME, adopted.isEmpty() ? "no slot runs the drifted env any more: nothing adopted"
                : "the env " + String.join(", ", adopted) + " run is theirs now, accepted by " + by);
        log.warn("'{}': the env {} run, changed behind our back, accepted by {}", set, adopted, by);
    }
}
