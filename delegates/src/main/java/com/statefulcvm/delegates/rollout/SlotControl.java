package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.SlotProvisioner;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * The effects a rollout step carries out on its slot once {@link SlotReconciler} has decided (what the StatefulSet
 * controller's pod control is to its decisions). Each asks Phala through the attempt's committed intent
 * ({@link PhalaEffects}), so at most once per attempt at the slot, and answers what happened in words for the
 * process's {@code stage} variable.
 */
@Component
public class SlotControl {

    private final ComposeUpdater updater;
    private final SlotProvisioner provisioner;
    private final EnvUpdater envs;
    private final RestartOnce restarts;

    public SlotControl(ComposeUpdater updater, SlotProvisioner provisioner, EnvUpdater envs, RestartOnce restarts) {
        this.updater = updater;
        this.provisioner = provisioner;
        this.envs = envs;
        this.restarts = restarts;
    }

    /** Creates the slot's CVM on the target compose, unless one of that name exists (an on-chain app's 465 as an update's). */
    public String create(DelegateExecution execution, SlotState state) {
        return provisioner.ensureCreated(execution, state.scope(), state.spec(), state.slot(), state.cvm(), state.targetCompose());
    }

    /** Deletes the slot's CVM, unless it is being deleted or busy. */
    public String delete(SlotState state) {
        return provisioner.ensureDeleteRequested(state.scope(), state.found());
    }

    public String updateCompose(DelegateExecution execution, SlotState state) {
        return updater.ensureUpdateRequested(execution, state.scope(), state.found(), state.targetCompose());
    }

    public String updateEnv(DelegateExecution execution, SlotState state) {
        return envs.ensureUpdateRequested(execution, state.found());
    }

    /** The attempt's restart or start looked at again (asked once more only if Phala shows it did not take); empty when none was asked. */
    public Optional<String> restartAgain(SlotState state) {
        return restarts.again(state.scope(), state.found()).map(EffectOutcome::text);
    }

    /** Restarts the settled CVM, or starts it when it is not running. */
    public String restartOrStart(SlotState state) {
        return restarts.restartOrStart(state.scope(), state.found()).text();
    }
}
