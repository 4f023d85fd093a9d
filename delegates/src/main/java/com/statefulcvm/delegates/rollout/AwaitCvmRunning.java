package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.TargetCompose;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Objects;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_RUNNING;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Check the CVM is running and settled": ready means running, no operation in progress, and the target compose in
 * place (for a replacement: on a new instance), an env rollout's env applied, and no effect of this attempt whose
 * outcome is unknown (a restart or env update its job asked for before it died: looked at again through
 * {@link PhalaEffects}, and asked once more only if Phala shows it did not take). A CVM that settled without the
 * compose is asked for it (once per attempt); a slot that a replacement or a surge leaves empty gets its new CVM here.
 */
@Component("awaitCvmRunning")
public class AwaitCvmRunning implements JavaDelegate {

    private final SlotReader slots;
    private final ComposeUpdater updater;
    private final SlotProvisioner provisioner;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final EnvUpdater envs;
    private final RestartOnce restarts;
    private final TargetCompose targets;

    public AwaitCvmRunning(SlotReader slots, ComposeUpdater updater, SlotProvisioner provisioner, ReplicaSetObserver observer,
                           SlotConditions conditions, EnvUpdater envs, RestartOnce restarts, TargetCompose targets) {
        this.targets = targets;
        this.envs = envs;
        this.restarts = restarts;
        this.slots = slots;
        this.updater = updater;
        this.provisioner = provisioner;
        this.observer = observer;
        this.conditions = conditions;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        RolloutAction action = slots.action(execution);
        String target = targets.of(execution);
        Optional<CvmInfo> found = slots.find(spec, slot);
        EffectScope scope = EffectScope.of(execution);
        boolean running = false;
        String stage;
        if (found.isEmpty()) {
            stage = action == RolloutAction.ADD_SURGE || action == RolloutAction.REPLACE
                    ? provisioner.ensureCreated(scope, spec, slot, found, target)
                    : "slot " + slot + " has no CVM any more; waiting (the progress deadline hands it to the operator)";
        } else {
            CvmInfo cvm = found.get();
            observer.observe(spec, cvm);
            String replaced = slots.boundInstanceId(execution);
            boolean hasTarget = ComposeText.same(cvm.dockerCompose(), target);
            if (action == RolloutAction.REPLACE && replaced != null && Objects.equals(replaced, cvm.instanceId())) {
                stage = "old CVM of " + slot + " still present: " + provisioner.ensureDeleteRequested(scope, cvm);
            } else if (cvm.isSettled() && hasTarget && envs.pending(execution, action)) {
                // an env rollout's env goes in once the CVM has the compose: a new CVM, or one that took a compose change first
                stage = envs.ensureUpdateRequested(execution, cvm);
            } else if (cvm.isRunning() && cvm.isSettled() && hasTarget && envs.unfinished(execution)) {
                stage = envs.ensureUpdateRequested(execution, cvm);
            } else if (cvm.isRunning() && cvm.isSettled() && hasTarget && restarts.unfinished(scope)) {
                stage = "CVM " + cvm.name() + ": " + restarts.again(scope, cvm).map(o -> o.text()).orElse("restart asked");
            } else if (cvm.isRunning() && cvm.isSettled() && hasTarget) {
                running = true;
                stage = "CVM " + cvm.name() + " is running the target compose; attesting and probing health";
            } else if (cvm.isSettled() && !hasTarget) {
                stage = updater.ensureUpdateRequested(execution, scope, cvm, target);
            } else {
                stage = "waiting for CVM " + cvm.name() + ": status " + cvm.status() + (cvm.isSettled() ? "" : ", operation in progress");
            }
            conditions.set(spec, slot, ConditionType.Running, running, "status " + cvm.status()
                    + (hasTarget ? "" : ", compose not yet the target"));
        }
        execution.setVariable(CVM_RUNNING, running);
        execution.setVariable(STAGE, stage);
    }
}
