package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.fleet.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Arrays;
import java.util.List;

import static com.statefulcvm.delegates.rollout.RolloutVariables.ENV_UPDATE_REQUESTED;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_ENCRYPTED_ENV;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_ENV_KEYS;

/**
 * The env half of an instance update: replaces a CVM's encrypted environment with the rollout's ({@code PATCH
 * /cvms/{id}/envs}). Unlike a compose, an env cannot be read back from Phala, so the step remembers in the instance
 * step's own {@code envUpdateRequested} that Phala accepted it; a busy CVM is left alone (a job that runs again after
 * a crash finds the update under way). Only the variable names are ever logged.
 */
@Component
public class EnvUpdater {

    private static final Logger log = LoggerFactory.getLogger(EnvUpdater.class);

    private final PhalaCloudClient phala;
    private final OnChainRegistrations onChain;

    public EnvUpdater(PhalaCloudClient phala, OnChainRegistrations onChain) {
        this.phala = phala;
        this.onChain = onChain;
    }

    /** True when the rollout carries an env change that this slot's {@code action} still has to apply. */
    public boolean pending(DelegateExecution execution, RolloutAction action) {
        boolean updatesInstance = action == RolloutAction.RESTART || action == RolloutAction.REPLACE || action == RolloutAction.ADD_SURGE;
        return updatesInstance && !envKeys(execution).isEmpty()
                && !Boolean.TRUE.equals(execution.getVariable(ENV_UPDATE_REQUESTED));
    }

    /** True when this instance step's env update was accepted already. */
    public boolean requested(DelegateExecution execution) {
        return !envKeys(execution).isEmpty() && Boolean.TRUE.equals(execution.getVariable(ENV_UPDATE_REQUESTED));
    }

    /** @return what happened, in words for the process's {@code stage} variable */
    public String ensureUpdateRequested(DelegateExecution execution, CvmInfo cvm) {
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); its env update follows once it settles";
        }
        List<String> keys = envKeys(execution);
        EnvUpdate update = new EnvUpdate((String) execution.getVariable(TARGET_ENCRYPTED_ENV), keys);
        // new env_keys change an on-chain KMS app's compose hash: phase 2 sends the hashes in the body (SDK updateCvmEnvs)
        UpdateResult result = onChain.send(execution, cvm, () -> phala.updateEnvs(cvm.id(), update),
                (required, transaction) -> phala.updateEnvs(cvm.id(), update.withOnChainCommit(required.composeHash(), transaction)));
        execution.setVariable(ENV_UPDATE_REQUESTED, true);
        log.info("Requested env update of {} ({}), variables {}: {} correlation {}", cvm.name(), cvm.id(), keys,
                result.status(), result.correlationId());
        return "env update of " + cvm.name() + " accepted (" + String.join(", ", keys) + "; " + result.status()
                + ", correlation " + result.correlationId() + ")";
    }

    /** The names the rollout sets; empty without an env change. */
    public static List<String> envKeys(DelegateExecution execution) {
        Object keys = execution.getVariable(TARGET_ENV_KEYS);
        return keys == null || keys.toString().isBlank() ? List.of() : Arrays.asList(keys.toString().split(","));
    }
}
