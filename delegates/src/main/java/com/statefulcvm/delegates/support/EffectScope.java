package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.fleet.effects.Effect;
import org.camunda.bpm.engine.delegate.DelegateExecution;

/**
 * The intention a step's effects belong to: one procedure instance, one slot, one attempt at that slot. Every run of
 * the step, first or repeated after a crash, builds the same scope, and so the same intent keys; only an operator's
 * "retry" of a halted slot starts a new attempt ({@value ProcedureVariables#SLOT_ATTEMPT}, counted by the diagram), whose effects are
 * asked for anew.
 *
 * @param procedure           the process definition key, or the caller outside the engine ("bootstrap", "monitor")
 * @param procedureInstanceId the process instance id; null outside the engine
 * @param id                  what every intent key of the scope starts with
 */
public record EffectScope(String replicaSet, String slot, String procedure, String procedureInstanceId, String id) {


    /** The step's own slot ({@code slot}) of its set ({@code replicaSet}). */
    public static EffectScope of(DelegateExecution execution) {
        return of(execution, (String) execution.getVariable(ProcedureVariables.SLOT));
    }

    /** Another slot of the step's set, such as the old leader a failover fences. */
    public static EffectScope of(DelegateExecution execution, String slot) {
        Object attempt = execution.getVariable(ProcedureVariables.SLOT_ATTEMPT);
        String processKey = execution.getProcessDefinitionId() == null ? "process" : execution.getProcessDefinitionId().split(":")[0];
        String pid = execution.getProcessInstanceId();
        return new EffectScope((String) execution.getVariable(ProcedureVariables.REPLICA_SET), slot, processKey, pid,
                pid + "/" + slot + "#" + (attempt == null ? 1 : attempt));
    }

    /** A caller outside any procedure; {@code occasion} tells one of its intentions from the next (e.g. a boot). */
    public static EffectScope outside(String caller, String replicaSet, String slot, String occasion) {
        return new EffectScope(replicaSet, slot, caller, null, caller + "/" + slot + "@" + occasion);
    }

    /** The key of one effect of the scope; {@code target} (may be null) tells two effects of one kind apart. */
    public String key(Effect effect, String target) {
        return id + "/" + effect.name() + (target == null ? "" : "/" + target);
    }
}
