package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstantiationBuilder;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What starts rollout.bpmn (business key: the set's name) with its variables. The caller decides whether it may
 * (one per set, the outage rule) and executes the instantiation: our API hands an env rollout's sealed env over to
 * the start check while it does.
 */
@Component
public class RolloutStarter {

    private final RuntimeService runtime;

    public RolloutStarter(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /**
     * What a rollout is started with. {@code updatePolicyOverride}: the request's updatePolicy object as JSON text,
     * already validated (null: the set's policy); {@code targetOrdinals}: empty for every slot in the policy's scope;
     * {@code rollbackToRevision}: set when the compose is a recorded revision the operator goes back to.
     */
    public record Start(String dockerCompose, String updatePolicyOverride, Set<Integer> targetOrdinals, Integer rollbackToRevision) {
    }

    /** The rollout of {@code replicaSet} as {@code start} says, ready to execute. */
    public ProcessInstantiationBuilder instantiation(String replicaSet, Start start, String requestedBy) {
        Map<String, Object> variables = new HashMap<>();
        variables.put(RolloutVariables.REPLICA_SET, replicaSet);
        variables.put(RolloutVariables.TARGET_COMPOSE, ComposeValue.of(start.dockerCompose()));
        if (start.updatePolicyOverride() != null) {
            variables.put(RolloutVariables.UPDATE_POLICY_OVERRIDE, start.updatePolicyOverride());
        }
        if (start.targetOrdinals() != null && !start.targetOrdinals().isEmpty()) {
            variables.put(RolloutVariables.TARGET_ORDINALS,
                    start.targetOrdinals().stream().sorted().map(String::valueOf).collect(Collectors.joining(",")));
        }
        if (start.rollbackToRevision() != null) {
            variables.put(RolloutVariables.ROLLBACK_TO_REVISION, start.rollbackToRevision());
        }
        variables.put(RolloutVariables.REQUESTED_BY, requestedBy);
        return runtime.createProcessInstanceByKey(RolloutVariables.PROCESS_KEY).businessKey(replicaSet).setVariables(variables);
    }
}
