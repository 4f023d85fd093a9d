package com.statefulcvm.delegates.drift;

import com.statefulcvm.delegates.procedure.EnvDriftVariables;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.stream.Collectors;

/**
 * "Look at the slots whose env changed behind our back" (decide-env-drift.bpmn): each drifted slot, who changed its
 * env and when, the names it runs and the names recorded, for the approver; never a value (only a CVM can open them).
 */
@Component("describeEnvDrift")
public class DescribeEnvDrift implements JavaDelegate {

    private final EnvRegistry envs;

    public DescribeEnvDrift(EnvRegistry envs) {
        this.envs = envs;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(EnvDriftVariables.REPLICA_SET);
        List<SlotEnv> drifted = drifted(envs, set);
        execution.setVariable(EnvDriftVariables.DRIFTED_COUNT, drifted.size());
        execution.setVariable(EnvDriftVariables.DRIFTED_ORDINALS,
                drifted.stream().map(s -> String.valueOf(s.ordinal())).collect(Collectors.joining(",")));
        execution.setVariable(EnvDriftVariables.DRIFTED_ENVS, drifted.stream().map(s -> describe(set, s)).collect(Collectors.joining("\n")));
    }

    static List<SlotEnv> drifted(EnvRegistry envs, String set) {
        return envs.slots(set).stream().filter(SlotEnv::drifted).toList();
    }

    /** "db-1: update_env by alice at ... (revision r9): runs env 1a2b… (A, B); recorded env 3c4d… (A, B), from ...". */
    static String describe(String set, SlotEnv s) {
        return Slots.name(set, s.ordinal()) + ": " + s.drift().source() + ": runs " + s.drift().describe() + "; recorded "
                + s.known().describe() + ", " + s.known().source();
    }
}
