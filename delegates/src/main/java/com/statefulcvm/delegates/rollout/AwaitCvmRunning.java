package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.fleet.ConditionType;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_RUNNING;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Check the CVM is running and settled": ready means running, no operation in progress, and the target compose in
 * place (for a replacement: on a new instance), an env rollout's env applied, and no effect of this attempt whose
 * outcome is unknown (a restart or env update its job asked for before it died: looked at again through
 * {@link PhalaEffects}, and asked once more only if Phala shows it did not take). A CVM that settled without the
 * compose is asked for it (once per attempt); a slot that a replacement or a surge leaves empty gets its new CVM here.
 * What to do is decided by {@link SlotReconciler} from the slot's state as read ({@link SlotStateReader}); this step
 * carries the decision out.
 */
@Component("awaitCvmRunning")
public class AwaitCvmRunning implements JavaDelegate {

    private final SlotStateReader reads;
    private final SlotControl control;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;

    public AwaitCvmRunning(SlotStateReader reads, SlotControl control, ReplicaSetObserver observer, SlotConditions conditions) {
        this.reads = reads;
        this.control = control;
        this.observer = observer;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotState state = reads.read(execution);
        SlotReconciler.Await decision = SlotReconciler.await(state);
        boolean running = decision == SlotReconciler.Await.RUNNING;
        state.cvm().ifPresent(cvm -> observer.observe(state.spec(), cvm));
        String stage = carryOut(execution, state, decision);
        state.cvm().ifPresent(cvm -> conditions.set(state.spec(), state.slot(), ConditionType.Running, running,
                "status " + cvm.status() + (state.hasTarget() ? "" : ", compose not yet the target")));
        execution.setVariable(CVM_RUNNING, running);
        execution.setVariable(STAGE, stage);
    }

    /** @return what happened, in words for the process's {@code stage} variable */
    private String carryOut(DelegateExecution execution, SlotState state, SlotReconciler.Await decision) {
        return switch (decision) {
            case CREATE -> control.create(execution, state);
            case WAIT_FOR_A_CVM -> "slot " + state.slot() + " has no CVM any more; waiting (the progress deadline hands it to the operator)";
            case DELETE_OLD_CVM -> "old CVM of " + state.slot() + " still present: " + control.delete(state);
            case UPDATE_ENV, LOOK_AT_ENV_UPDATE_AGAIN -> control.updateEnv(execution, state);
            case LOOK_AT_RESTART_AGAIN -> "CVM " + state.found().name() + ": " + control.restartAgain(state).orElse("restart asked");
            case RUNNING -> "CVM " + state.found().name() + " is running the target compose; attesting and probing health";
            case UPDATE_COMPOSE -> control.updateCompose(execution, state);
            case WAIT -> "waiting for CVM " + state.found().name() + ": status " + state.found().status()
                    + (state.found().isSettled() ? "" : ", operation in progress");
        };
    }
}
