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
 * call when the 465 carried no token). A new instance of such an app goes the same way ({@code POST
 * /apps/{id}/instances}, committed by the same call with the 465's token).
 * <p>
 * A commit the service refuses (466 expired, 467 verification failed, 468 not found on chain, {@link OnChainRefusal})
 * is never sent again with the same transaction: the rollout forgets it and asks again, saying why
 * ({@value RolloutVariables#ON_CHAIN_REFUSAL}, shown in the task, kept in the history and in the stage).
 * <p>
 * Only a step that declares {@value RolloutVariables#ON_CHAIN_STEP} (rollout.bpmn's slot update, which catches the error) gets the
 * task; elsewhere a 465 fails the job with what to register and how to give the transaction, as an incident.
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
        return send(execution, cvm.name(), update, commit);
    }

    /** As above for what has no CVM yet: {@code subject} names it (a slot whose CVM is being created). */
    public <T> T send(DelegateExecution execution, String subject, Supplier<T> update, Commit<T> commit) {
        try {
            return update.get();
        } catch (PhalaApiException e) {
            OnChainHashRequired required = e.onChainHashRequired().orElseThrow(() -> e);
            Optional<String> transaction = transactionFor(execution, required.composeHash());
            if (transaction.isEmpty()) {
                throw askForRegistration(execution, subject, required, null);
            }
            try {
                T outcome = commit.commit(required, transaction.get());
                log.info("Committed {} at compose hash {} with transaction {}", subject, required.composeHash(),
                        transaction.get());
                return outcome;
            } catch (PhalaApiException refused) {
                String reason = OnChainRefusal.of(refused, required, transaction.get()).orElseThrow(() -> refused);
                log.warn("Phala refused the commit of {} with transaction {}: {}", subject, transaction.get(), refused.getMessage());
                // the transaction is not sent again: the next run of the step asks phase 1 afresh, with a new one
                forget(execution);
                throw askForRegistration(execution, subject, required, reason);
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

    /** {@code refusal}: why the last commit was refused, null on the first ask for this registration. */
    private RuntimeException askForRegistration(DelegateExecution execution, String subject, OnChainHashRequired required,
                                                String refusal) {
        String message = "compose hash " + required.composeHash() + " of app " + required.appId()
                + " must be registered on chain: " + required.contractCall() + " on " + required.appContractAddress();
        if (!Boolean.TRUE.equals(execution.getVariable(RolloutVariables.ON_CHAIN_STEP))) {
            return new IllegalStateException((refusal == null ? "Phala answered 465 for " + subject : refusal
                    + "; for " + subject) + ": " + message + "; register it, set the process variables "
                    + RolloutVariables.ON_CHAIN_REGISTERED_HASH + " = " + required.composeHash() + " and "
                    + RolloutVariables.ON_CHAIN_TRANSACTION_HASH + " = the transaction's hash, then retry this job");
        }
        VariableScope rollout = execution.getProcessInstance();
        rollout.setVariable(RolloutVariables.ON_CHAIN_REFUSAL, refusal);
        rollout.setVariable(RolloutVariables.ON_CHAIN_COMPOSE_HASH, required.composeHash());
        rollout.setVariable(RolloutVariables.ON_CHAIN_APP_ID, required.appId());
        rollout.setVariable(RolloutVariables.ON_CHAIN_CONTRACT, required.appContractAddress());
        rollout.setVariable(RolloutVariables.ON_CHAIN_CONTRACT_CALL, required.contractCall());
        rollout.setVariable(RolloutVariables.ON_CHAIN_DEVICE_ID, required.deviceId());
        rollout.setVariable(RolloutVariables.ON_CHAIN_KMS_INFO, required.kmsInfo());
        rollout.setVariable(RolloutVariables.ON_CHAIN_STATUS, required.onchainStatus());
        log.info("{} waits for its compose hash on chain: {}{}", subject, message, refusal == null ? "" : " (" + refusal + ")");
        return new BpmnError(ERROR_CODE, refusal == null ? message : message + "; asked again: " + refusal);
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
