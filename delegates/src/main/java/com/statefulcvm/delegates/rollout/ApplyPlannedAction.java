package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EffectivePolicy;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.TakeDownCheck;
import com.statefulcvm.delegates.support.TargetCompose;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

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
 */
@Component("applyPlannedAction")
public class ApplyPlannedAction implements JavaDelegate {

    /** Set by the plan: the slots whose compose differed from the target then, so their planned RESTART is the update. */
    static final String COMPOSE_CHANGE_SLOTS = "composeChangeSlots";

    private final SlotReader slots;
    private final ComposeUpdater updater;
    private final SlotProvisioner provisioner;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final RestartOnce restarts;
    private final EnvUpdater envs;
    private final TargetCompose targets;
    private final TakeDownCheck budget;
    private final EffectivePolicy policies;
    private final PhalaEffects effects;

    public ApplyPlannedAction(SlotReader slots, ComposeUpdater updater, SlotProvisioner provisioner,
                              ReplicaSetObserver observer, SlotConditions conditions, RestartOnce restarts, EnvUpdater envs,
                              TargetCompose targets, TakeDownCheck budget, EffectivePolicy policies, PhalaEffects effects) {
        this.targets = targets;
        this.budget = budget;
        this.policies = policies;
        this.effects = effects;
        this.envs = envs;
        this.slots = slots;
        this.updater = updater;
        this.provisioner = provisioner;
        this.observer = observer;
        this.conditions = conditions;
        this.restarts = restarts;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        RolloutAction action = slots.action(execution);
        String target = targets.of(execution);
        Optional<CvmInfo> cvm = slots.find(spec, slot);
        EffectScope scope = EffectScope.of(execution);
        if (takesSlotDown(action) && cvm.filter(CvmInfo::isRunning).isPresent() && !effects.askedBefore(scope)) {
            budget.requireRoom(spec, policies.of(spec, execution), slot);
        }
        String outcome = switch (action) {
            case ADD_SURGE -> provisioner.ensureCreated(scope, spec, slot, cvm, target);
            case REFRESH -> "refresh: the CVM is not changed; it is re-attested and recorded on the target";
            case RESTART -> restart(execution, scope, slot, cvm, target);
            case REPLACE -> replace(execution, scope, slot, cvm);
            case NONE, REMOVE_SURGE -> throw new IllegalArgumentException("action " + action + " is not an instance update");
        };
        cvm.ifPresent(c -> observer.observe(spec, c));
        conditions.set(spec, slot, ConditionType.Programmed, true, outcome);
        if (action != RolloutAction.REFRESH) {
            conditions.reset(spec, slot, "being updated: " + action);
        }
        execution.setVariable(STAGE, outcome);
    }

    private String restart(DelegateExecution execution, EffectScope scope, String slot, Optional<CvmInfo> found, String target) {
        CvmInfo cvm = found.orElseThrow(() -> new IllegalStateException(
                "slot " + slot + " has no CVM to update in place; heal or scale creates it"));
        if (!ComposeText.same(cvm.dockerCompose(), target)) {
            // with an env change too, the env update follows once the CVM has settled on the compose (AwaitCvmRunning)
            return updater.ensureUpdateRequested(execution, scope, cvm, target);
        }
        if (envs.pending(execution, RolloutAction.RESTART)) {
            // the env update restarts the CVM: it is this slot's update
            return envs.ensureUpdateRequested(execution, cvm);
        }
        if (envs.requested(execution)) {
            return "env update of " + cvm.name() + " already requested; not restarted on top of it";
        }
        Optional<EffectOutcome> asked = restarts.again(scope, cvm);
        if (asked.isPresent()) {
            return "restart of " + cvm.name() + ": " + asked.get().text();
        }
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); waiting for it to settle";
        }
        if (cvm.isRunning() && composeChangePlanned(execution, slot)) {
            // The plan moves this slot to the target compose and the CVM runs it: an earlier attempt at the slot
            // requested the update (the operator retried it since). That update was the restart; another one would
            // take the instance down a second time.
            return "CVM " + cvm.name() + " already runs the target compose (its update was requested by an earlier attempt); not restarted again";
        }
        // Phala refuses to restart a stopped CVM (400): one that crashed during its update has the target and only
        // needs to run again, when the operator retries the slot.
        return (cvm.isRunning() ? "restart of " : "start of ") + cvm.name() + " (compose unchanged): "
                + restarts.restartOrStart(scope, cvm).text();
    }

    private static boolean takesSlotDown(RolloutAction action) {
        return action == RolloutAction.RESTART || action == RolloutAction.REPLACE;
    }

    /** True when the slot's compose differed from the target when the rollout was planned (PlanRollout). */
    private static boolean composeChangePlanned(DelegateExecution execution, String slot) {
        return execution.getVariable(COMPOSE_CHANGE_SLOTS) instanceof Collection<?> planned && planned.contains(slot);
    }

    private String replace(DelegateExecution execution, EffectScope scope, String slot, Optional<CvmInfo> found) {
        String old = slots.boundInstanceId(execution);
        if (found.isEmpty()) {
            return "the old CVM of " + slot + " is gone; a new one is created next";
        }
        CvmInfo cvm = found.get();
        if (old != null && !Objects.equals(old, cvm.instanceId())) {
            return "CVM " + slot + " is already a new instance (" + cvm.instanceId() + ")";
        }
        return provisioner.ensureDeleteRequested(scope, cvm) + "; a new CVM takes the slot";
    }
}
