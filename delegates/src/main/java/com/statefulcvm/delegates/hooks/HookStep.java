package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * One step of a drain or rejoin procedure. A step answers {@code hookReady} (the diagram polls until true) and a
 * {@code stage} in words. A workload that does not answer, or answers "try later", is a reason to wait, not to fail:
 * the hook's timeout decides when waiting is over. A definite refusal ends the hook with the error HOOK_FAILED and
 * the workload's own message, for the set's default result to handle.
 */
public abstract class HookStep implements JavaDelegate {

    public static final String HOOK_FAILED = "HOOK_FAILED";

    @Autowired
    private SlotReader slots;
    @Autowired
    private ReplicaSets replicaSets;
    @Autowired
    private PhalaCloudClient phala;
    @Autowired
    private InstanceUrlTemplate urls;

    /** What the step found: whether the procedure may go on, and why (or why not yet). */
    protected record Answer(boolean ready, String stage) {
        static Answer ready(String stage) {
            return new Answer(true, stage);
        }

        static Answer notYet(String stage) {
            return new Answer(false, stage);
        }
    }

    protected abstract Answer run(HookContext context, DelegateExecution execution);

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        HookContext context = new HookContext(spec, slot, slots.find(spec, slot), SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec))),
                (String) execution.getVariable(ProcedureVariables.TARGET_COMPOSE), urls);
        Answer answer;
        try {
            answer = run(context, execution);
        } catch (WorkloadApiException e) {
            if (!e.isNoResponse() && !e.isRetryable()) {
                throw new BpmnError(HOOK_FAILED, e.getMessage());
            }
            answer = Answer.notYet("waiting: " + e.getMessage());
        }
        execution.setVariable(HookVariables.HOOK_READY, answer.ready());
        execution.setVariable(ProcedureVariables.STAGE, answer.stage());
        showToCallers(execution, answer.stage());
    }

    /**
     * A hook runs two call levels below the procedure that waits for it (procedure → run-hook → drain-&lt;type&gt;). Its
     * stage is copied up: to run-hook, so that a timeout can say what the hook was waiting for, and to the calling
     * step, so that the procedure's own report shows why the instance is held back.
     */
    private static void showToCallers(DelegateExecution execution, String stage) {
        DelegateExecution runHook = execution.getProcessInstance().getSuperExecution();
        if (runHook == null) {
            return;
        }
        runHook.setVariable(HookVariables.HOOK_STAGE, stage);
        DelegateExecution caller = runHook.getProcessInstance().getSuperExecution();
        if (caller != null) {
            caller.setVariable(ProcedureVariables.STAGE, runHook.getVariable(HookVariables.HOOK) + " of " + execution.getVariable(ProcedureVariables.SLOT) + ": " + stage);
        }
    }
}
