package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.connectors.phala.OnChainHashRequired;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The on-chain KMS step of a rollout. An app whose KMS is on chain answers an update to a compose hash its contract
 * does not allow with HTTP 465 ({@link OnChainHashRequired}). The hash is registered on the app's contract once per
 * rollout, by a person with the key of the contract's owner ({@code addComposeHash}, SDK {@code addComposeHash}: the
 * contract's allow-list is the app's, not one CVM's), in the Tasklist task "Register the compose hash on chain"; its
 * transaction hash is kept on the rollout, and each CVM's update is then committed with it ({@code POST
 * /cvms/{id}/commit-update} with the 465's one-time token, SDK {@code commitCvmUpdate}; or the SDK's phase 2 of the same
 * call when the 465 carried no token). A commit the service still refuses asks the person again.
 * <p>
 * Only a step that declares {@value RolloutVariables#ON_CHAIN_STEP} (rollout.bpmn's slot update, which catches the error) gets the
 * task; elsewhere a 465 fails the job with what to register, as an incident.
 */
@Component
public class OnChainRegistrations {

    private static final Logger log = LoggerFactory.getLogger(OnChainRegistrations.class);

    /** The BPMN error rollout.bpmn catches around a slot's update. */
    public static final String ERROR_CODE = "ON_CHAIN_HASH_REQUIRED";

    private static final Pattern TX = Pattern.compile("^0x[0-9a-fA-F]{64}$");

    /**
     * Sends an update; on a 465, commits it with the rollout's transaction hash for that compose hash, or asks for the
     * registration (a BPMN error) when the rollout has none.
     *
     * @param update the update request; throws the 465 as {@link PhalaApiException}
     * @param commit phase 2 for this update: (the 465's details, the transaction hash) to the outcome
     */
    public <T> T send(DelegateExecution execution, CvmInfo cvm, Supplier<T> update, Commit<T> commit) {
        try {
            return update.get();
        } catch (PhalaApiException e) {
            OnChainHashRequired required = e.onChainHashRequired().orElseThrow(() -> e);
            Optional<String> transaction = transactionFor(execution, required.composeHash());
            if (transaction.isEmpty()) {
                throw askForRegistration(execution, cvm, required);
            }
            try {
                T outcome = commit.commit(required, transaction.get());
                log.info("Committed the update of {} to compose hash {} with transaction {}", cvm.name(),
                        required.composeHash(), transaction.get());
                return outcome;
            } catch (PhalaApiException refused) {
                if (refused.isOnChainHashRequired() || refused.status() == 400) {
                    // the transaction does not register this hash (or no longer): ask again
                    log.warn("Phala refused the commit of {}'s update with transaction {}: {}", cvm.name(), transaction.get(),
                            refused.getMessage());
                    forget(execution);
                    throw askForRegistration(execution, cvm, required);
                }
                throw refused;
            }
        }
    }

    /** Phase 2 of one update. */
    @FunctionalInterface
    public interface Commit<T> {
        T commit(OnChainHashRequired required, String transactionHash);
    }

    /** The rollout's transaction hash when it registered {@code composeHash}. */
    public static Optional<String> transactionFor(VariableScope scope, String composeHash) {
        Object registered = scope.getVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH);
        Object transaction = scope.getVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
        if (registered instanceof String hash && transaction instanceof String tx && same(hash, composeHash)) {
            return Optional.of(tx);
        }
        return Optional.empty();
    }

    /** Whether {@code text} is a transaction hash: {@code 0x} and 32 bytes of hex. */
    public static boolean isTransactionHash(Object text) {
        return text instanceof String s && TX.matcher(s.trim()).matches();
    }

    private RuntimeException askForRegistration(DelegateExecution execution, CvmInfo cvm, OnChainHashRequired required) {
        String message = "compose hash " + required.composeHash() + " of app " + required.appId()
                + " must be registered on chain: " + required.contractCall() + " on " + required.appContractAddress();
        if (!Boolean.TRUE.equals(execution.getVariable(RolloutVariables.ON_CHAIN_STEP))) {
            return new IllegalStateException("Phala answered 465 for " + cvm.name() + ": " + message
                    + "; register it, then retry this job");
        }
        VariableScope rollout = execution.getProcessInstance();
        rollout.setVariable(RolloutVariables.ON_CHAIN_COMPOSE_HASH, required.composeHash());
        rollout.setVariable(RolloutVariables.ON_CHAIN_APP_ID, required.appId());
        rollout.setVariable(RolloutVariables.ON_CHAIN_CONTRACT, required.appContractAddress());
        rollout.setVariable(RolloutVariables.ON_CHAIN_CONTRACT_CALL, required.contractCall());
        rollout.setVariable(RolloutVariables.ON_CHAIN_DEVICE_ID, required.deviceId());
        rollout.setVariable(RolloutVariables.ON_CHAIN_KMS_INFO, required.kmsInfo());
        rollout.setVariable(RolloutVariables.ON_CHAIN_STATUS, required.onchainStatus());
        log.info("Update of {} waits for its compose hash on chain: {}", cvm.name(), message);
        return new BpmnError(ERROR_CODE, message);
    }

    private static void forget(DelegateExecution execution) {
        execution.getProcessInstance().removeVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH);
        execution.getProcessInstance().removeVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH);
    }

    private static boolean same(String a, String b) {
        return strip(a).equalsIgnoreCase(strip(b));
    }

    private static String strip(String hash) {
        return hash.startsWith("0x") ? hash.substring(2) : hash;
    }
}
