package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.OnChainRegistrations;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

/**
 * "Register the compose hash on chain": the task completes only with a transaction hash ({@code 0x} and 32 bytes of
 * hex), which the rollout then holds for the compose hash the task showed, with who gave it and when.
 */
@Component("requireTransactionHash")
public class RequireTransactionHash implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        Object transaction = task.getVariable(OnChainRegistrations.TRANSACTION_HASH_FIELD);
        if (!OnChainRegistrations.isTransactionHash(transaction)) {
            throw TaskDecisionRefused.because(task, OnChainRegistrations.TRANSACTION_HASH_FIELD,
                    "transactionHash must be 0x followed by 64 hex digits (was " + RequireApprovalDecision.describe(transaction) + ")");
        }
        String hash = ((String) transaction).trim();
        task.getExecution().getProcessInstance().setVariable(OnChainRegistrations.TRANSACTION_HASH, hash);
        task.getExecution().getProcessInstance().setVariable(OnChainRegistrations.REGISTERED_HASH,
                task.getVariable(OnChainRegistrations.COMPOSE_HASH));
        TaskDecisions.record(task, "registered " + task.getVariable(OnChainRegistrations.COMPOSE_HASH) + " on chain: " + hash);
    }
}
