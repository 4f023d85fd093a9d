package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

import java.util.Optional;

/**
 * Whether a rollout is the automatic rollback a failed rollout started (onFailure ROLLBACK), which runs without any
 * approval: decided from the engine's own state, the execution that called it (a rollout's "Roll back to the last
 * good revision"), never from a variable, since a caller could give a rollout any variable it likes.
 */
public final class AutomaticRollback {

    private AutomaticRollback() {
    }

    /** The failed rollout's process instance id when {@code scope} belongs to its automatic rollback; else empty. */
    public static Optional<String> of(VariableScope scope) {
        if (!(scope instanceof ExecutionEntity execution)) {
            return Optional.empty();
        }
        ExecutionEntity caller = execution.getProcessInstance().getSuperExecution();
        if (caller == null || !RolloutVariables.PROCESS_KEY.equals(caller.getProcessDefinition().getKey())) {
            return Optional.empty();
        }
        return Optional.of(caller.getProcessInstanceId());
    }
}
