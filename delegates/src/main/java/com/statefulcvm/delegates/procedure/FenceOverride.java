package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.delegate.DelegateExecution;

/**
 * Who may bring a fenced slot back: only an operator's explicit readmit (a heal started with {@code healTrigger:
 * readmit}) or a lights-out recovery started with the recorded override {@code readmitFenced}. Every other procedure
 * (a rollout, a scale, a monitor's heal, a re-attestation) neither starts, counts, promotes nor unfences a fenced slot;
 * its attestation of one refuses it. Decided from the procedure the operator started: the top of the call chain.
 */
public final class FenceOverride {

    private FenceOverride() {
    }

    /** The operator procedure at the top of the execution's call chain (a called attest-instance's caller's caller...). */
    public static DelegateExecution procedureOf(DelegateExecution execution) {
        DelegateExecution top = execution.getProcessInstance();
        while (top.getSuperExecution() != null) {
            top = top.getSuperExecution().getProcessInstance();
        }
        return top;
    }

    /** The BPMN process id of a process instance's definition ("heal" of "heal:3:abc"); "?" when unknown. */
    public static String processKeyOf(DelegateExecution processInstance) {
        String definition = processInstance.getProcessDefinitionId();
        return definition == null ? "?" : definition.split(":")[0];
    }

    /** Why this procedure may lift a fence, or null when it may not. */
    public static String liftedBy(DelegateExecution execution) {
        DelegateExecution procedure = procedureOf(execution);
        String key = processKeyOf(procedure);
        if (HealVariables.HEAL_PROCESS.equals(key)
                && HealVariables.TRIGGER_READMIT.equals(procedure.getVariable(HealVariables.HEAL_TRIGGER))) {
            return "readmit " + procedure.getProcessInstanceId() + " requested by " + procedure.getVariable(HealVariables.REQUESTED_BY);
        }
        if (LightsOutVariables.PROCESS_KEY.equals(key) && Boolean.TRUE.equals(procedure.getVariable(LightsOutVariables.READMIT_FENCED))) {
            return "lights-out recovery " + procedure.getProcessInstanceId() + " with readmitFenced, requested by "
                    + procedure.getVariable(LightsOutVariables.REQUESTED_BY);
        }
        return null;
    }
}
