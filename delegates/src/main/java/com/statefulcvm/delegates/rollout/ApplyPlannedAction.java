package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.TakeDownCheck;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Apply the planned action": asks Phala for what the plan says this slot needs: a compose update, an env update
 * (an env rollout; both, compose first, when it carries both), a restart, a new CVM or a deletion. Each branch decides
 * from what Phala shows, and each call is made through {@link PhalaEffects}: its intent is committed first, so a job
 * that runs again (after a crash, a kill -9 or a database restart) reads it back and never restarts, updates, creates
 * or deletes twice for one attempt at the slot ({@link EffectScope}).
 * <p>
 * Before a restart or a replacement takes the slot down (its CVM runs), the step looks at the set as it is now
 * ({@link TakeDownCheck}: Phala's live statuses and the fences, judged by the set's disruption budget under the
 * rollout's effective policy): another slot that went down since the plan (a crash a second ago) may have spent the
 * budget. Then it holds: nothing is asked, the job is due again shortly with its retries intact, and the slot's
 * progress deadline keeps running. A re-run of an attempt that already asked Phala is not held: its effect is under
 * way and is read back, never made twice.
 * <p>
 * What to do is decided by {@link SlotReconciler} from the slot's state as read ({@link SlotStateReader}); this step
 * carries the decision out.
 */
@Component("applyPlannedAction")
public class ApplyPlannedAction implements JavaDelegate {

    private final SlotStateReader reads;
    private final SlotControl control;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final TakeDownCheck budget;
    private final SlotReader slots;

    public ApplyPlannedAction(SlotStateReader reads, SlotControl control, ReplicaSetObserver observer, SlotConditions conditions,
                              TakeDownCheck budget, SlotReader slots) {
        this.reads = reads;
        this.control = control;
        this.observer = observer;
        this.conditions = conditions;
        this.budget = budget;
        this.slots = slots;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotState state = reads.read(execution);
        ReplicaSetSpec spec = state.spec();
        String slot = state.slot();
        if (SlotReconciler.takesRunningSlotDown(state)) {
            budget.requireRoom(spec, slots.policy(execution, spec), slot);
        }
        String outcome = carryOut(execution, state, SlotReconciler.apply(state));
        state.cvm().ifPresent(c -> observer.observe(spec, c));
        conditions.set(spec, slot, ConditionType.Programmed, true, outcome);
        if (state.action() != RolloutAction.REFRESH) {
            conditions.reset(spec, slot, "being updated: " + state.action());
        }
        execution.setVariable(STAGE, outcome);
    }

    /** @return what happened, in words for the process's {@code stage} variable */
    private String carryOut(DelegateExecution execution, SlotState state, SlotReconciler.Apply decision) {
        String name = state.cvm().map(CvmInfo::name).orElse(null);
        return switch (decision) {
            case CREATE_SURGE -> control.create(execution, state);
            case REFRESH_ONLY -> "refresh: the CVM is not changed; it is re-attested and recorded on the target";
            case NOT_AN_UPDATE -> throw new IllegalArgumentException("action " + state.action() + " is not an instance update");
            case NO_CVM_TO_UPDATE -> throw new IllegalStateException(
                    "slot " + state.slot() + " has no CVM to update in place; heal or scale creates it");
            // with an env change too, the env update follows once the CVM has settled on the compose (AwaitCvmRunning)
            case UPDATE_COMPOSE -> control.updateCompose(execution, state);
            case UPDATE_ENV -> control.updateEnv(execution, state);
            case ENV_ALREADY_REQUESTED -> "env update of " + name + " already requested; not restarted on top of it";
            case LOOK_AT_RESTART_AGAIN -> "restart of " + name + ": " + control.restartAgain(state)
                    .orElseThrow(() -> new IllegalStateException("no restart of " + name + " was asked"));
            case WAIT_TO_SETTLE -> "CVM " + name + " is busy (" + state.found().status() + "); waiting for it to settle";
            case ALREADY_UPDATED -> "CVM " + name
                    + " already runs the target compose (its update was requested by an earlier attempt); not restarted again";
            case RESTART -> "restart of " + name + " (compose unchanged): " + control.restartOrStart(state);
            case START -> "start of " + name + " (compose unchanged): " + control.restartOrStart(state);
            case OLD_CVM_GONE -> "the old CVM of " + state.slot() + " is gone; a new one is created next";
            case ALREADY_REPLACED -> "CVM " + state.slot() + " is already a new instance (" + state.found().instanceId() + ")";
            case DELETE_OLD_CVM -> control.delete(state) + "; a new CVM takes the slot";
        };
    }
}
