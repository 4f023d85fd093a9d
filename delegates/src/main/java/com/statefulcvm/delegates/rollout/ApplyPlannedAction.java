package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectivePolicy;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
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
    private final ComposeUpdater updater;
    private final SlotProvisioner provisioner;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final RestartOnce restarts;
    private final EnvUpdater envs;
    private final TakeDownCheck budget;
    private final EffectivePolicy policies;

    public ApplyPlannedAction(SlotStateReader reads, ComposeUpdater updater, SlotProvisioner provisioner, ReplicaSetObserver observer,
                              SlotConditions conditions, RestartOnce restarts, EnvUpdater envs, TakeDownCheck budget,
                              EffectivePolicy policies) {
        this.reads = reads;
        this.updater = updater;
        this.provisioner = provisioner;
        this.observer = observer;
        this.conditions = conditions;
        this.restarts = restarts;
        this.envs = envs;
        this.budget = budget;
        this.policies = policies;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotState state = reads.read(execution);
        ReplicaSetSpec spec = state.spec();
        String slot = state.slot();
        if (SlotReconciler.takesRunningSlotDown(state)) {
            budget.requireRoom(spec, policies.of(spec, execution), slot);
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
        EffectScope scope = state.scope();
        String slot = state.slot();
        CvmInfo cvm = state.cvm().orElse(null);
        return switch (decision) {
            case CREATE_SURGE -> provisioner.ensureCreated(scope, state.spec(), slot, state.cvm(), state.targetCompose());
            case REFRESH_ONLY -> "refresh: the CVM is not changed; it is re-attested and recorded on the target";
            case NOT_AN_UPDATE -> throw new IllegalArgumentException("action " + state.action() + " is not an instance update");
            case NO_CVM_TO_UPDATE -> throw new IllegalStateException(
                    "slot " + slot + " has no CVM to update in place; heal or scale creates it");
            // with an env change too, the env update follows once the CVM has settled on the compose (AwaitCvmRunning)
            case UPDATE_COMPOSE -> updater.ensureUpdateRequested(execution, scope, cvm, state.targetCompose());
            case UPDATE_ENV -> envs.ensureUpdateRequested(execution, cvm);
            case ENV_ALREADY_REQUESTED -> "env update of " + cvm.name() + " already requested; not restarted on top of it";
            case LOOK_AT_RESTART_AGAIN -> "restart of " + cvm.name() + ": " + restarts.again(scope, cvm)
                    .orElseThrow(() -> new IllegalStateException("no restart of " + cvm.name() + " was asked")).text();
            case WAIT_TO_SETTLE -> "CVM " + cvm.name() + " is busy (" + cvm.status() + "); waiting for it to settle";
            case ALREADY_UPDATED -> "CVM " + cvm.name()
                    + " already runs the target compose (its update was requested by an earlier attempt); not restarted again";
            case RESTART -> "restart of " + cvm.name() + " (compose unchanged): " + restarts.restartOrStart(scope, cvm).text();
            case START -> "start of " + cvm.name() + " (compose unchanged): " + restarts.restartOrStart(scope, cvm).text();
            case OLD_CVM_GONE -> "the old CVM of " + slot + " is gone; a new one is created next";
            case ALREADY_REPLACED -> "CVM " + slot + " is already a new instance (" + cvm.instanceId() + ")";
            case DELETE_OLD_CVM -> provisioner.ensureDeleteRequested(scope, cvm) + "; a new CVM takes the slot";
        };
    }
}
