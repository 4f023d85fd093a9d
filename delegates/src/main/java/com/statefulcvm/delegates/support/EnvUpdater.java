package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.EnvValue;
import com.statefulcvm.fleet.rollout.RolloutAction;
import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectState;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.ROLLBACK_RECORDED_ENV;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_ENCRYPTED_ENV;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_ENV_KEYS;

/**
 * The env half of an instance update: replaces a CVM's encrypted environment with the rollout's ({@code PATCH
 * /cvms/{id}/envs}). Unlike a compose, an env cannot be read back from Phala, so whether this attempt at the slot has
 * asked for it is its intent ({@link PhalaEffects}), committed before the call: a job that runs again after a crash, a
 * kill or a database restart finds it and asks nothing twice. A busy CVM is left alone. Only the variable names are
 * ever logged. What it asked for is recorded as the slot's sent env ({@link SlotEnvs}), so that the attestation after
 * the restart knows it from an env changed behind our back. A rollback of such a change sends each slot its own
 * recorded ciphertext again.
 */
@Component
public class EnvUpdater {

    private static final Logger log = LoggerFactory.getLogger(EnvUpdater.class);

    private final PhalaEffects effects;
    private final OnChainRegistrations onChain;
    private final SlotEnvs slotEnvs;
    private final EnvRegistry envs;

    public EnvUpdater(PhalaEffects effects, OnChainRegistrations onChain, SlotEnvs slotEnvs, EnvRegistry envs) {
        this.effects = effects;
        this.onChain = onChain;
        this.slotEnvs = slotEnvs;
        this.envs = envs;
    }

    /** True when the rollout carries an env change that this slot's {@code action} still has to ask for. */
    public boolean pending(DelegateExecution execution, RolloutAction action, Optional<EffectIntent> requested) {
        boolean updatesInstance = action == RolloutAction.RESTART || action == RolloutAction.REPLACE || action == RolloutAction.ADD_SURGE;
        return updatesInstance && !envKeys(execution).isEmpty() && requested.isEmpty();
    }

    /**
     * The env update this attempt at the slot asked for (taken, or its outcome not known yet: {@code state().open()}),
     * empty when none was asked or the rollout carries no env change.
     */
    public Optional<EffectIntent> requested(DelegateExecution execution) {
        return envKeys(execution).isEmpty() ? Optional.empty() : intent(execution);
    }

    /** @return what happened, in words for the process's {@code stage} variable */
    public String ensureUpdateRequested(DelegateExecution execution, CvmInfo cvm) {
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); its env update follows once it settles";
        }
        List<String> keys = envKeys(execution);
        EffectScope scope = EffectScope.of(execution);
        int ordinal = Slots.ordinalOf(scope.replicaSet(), scope.slot()).orElseThrow();
        String ciphertext = (String) execution.getVariable(TARGET_ENCRYPTED_ENV);
        if (Boolean.TRUE.equals(execution.getVariable(ROLLBACK_RECORDED_ENV))) {
            EnvValue recorded = envs.slot(scope.replicaSet(), ordinal).map(s -> s.known()).filter(k -> k.encryptedEnv() != null)
                    .orElseThrow(() -> new IllegalStateException(scope.slot() + " has no recorded env to send again"));
            ciphertext = recorded.encryptedEnv();
            keys = recorded.keys();
        }
        EnvUpdate update = new EnvUpdate(ciphertext, keys);
        // new env_keys change an on-chain KMS app's compose hash: phase 2 sends the hashes in the body (SDK updateCvmEnvs)
        EffectOutcome outcome = onChain.send(execution, cvm, () -> effects.updateEnvs(scope, cvm, update),
                (required, transaction) -> effects.updateEnvs(scope, cvm, update.withOnChainCommit(required.composeHash(), transaction)));
        if (outcome.kind() == EffectOutcome.Kind.REQUESTED) {
            slotEnvs.sent(scope.replicaSet(), ordinal, cvm, ciphertext, keys, scope.procedure() + " " + scope.procedureInstanceId());
            log.info("Requested env update of {} ({}), variables {}: {}", cvm.name(), cvm.id(), keys, outcome.intent().outcome());
        }
        return "env update of " + cvm.name() + " (" + String.join(", ", keys) + "): " + outcome.text();
    }

    /** The attempt's env update intent, unless Phala refused it (then it may be asked again). */
    private Optional<EffectIntent> intent(DelegateExecution execution) {
        return effects.intent(EffectScope.of(execution), Effect.UPDATE_ENV).filter(i -> i.state() != EffectState.NOT_APPLIED);
    }

    /** The names the rollout sets; empty without an env change. */
    public static List<String> envKeys(DelegateExecution execution) {
        Object keys = execution.getVariable(TARGET_ENV_KEYS);
        return keys == null || keys.toString().isBlank() ? List.of() : Arrays.asList(keys.toString().split(","));
    }
}
