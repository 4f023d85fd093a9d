package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.OnChainRegistrations;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.springframework.stereotype.Component;

/**
 * "Register the compose hash on chain": the task completes only with a transaction hash ({@code 0x} and 32 bytes of
 * hex), which the rollout then holds for the compose hash the task showed, with who gave it and when, and why it
 * was asked again when the service had refused the previous one.
 */
@Component("requireTransactionHash")
public class RequireTransactionHash implements TaskListener {

    @Override
    public void notify(DelegateTask task) {
        Object transaction = task.getVariable(RolloutVariables.TRANSACTION_HASH);
        if (!OnChainRegistrations.isTransactionHash(transaction)) {
            throw TaskDecisionRefused.because(task, RolloutVariables.TRANSACTION_HASH,
                    "transactionHash must be 0x followed by 64 hex digits (was " + RequireApprovalDecision.describe(transaction) + ")");
        }
        String hash = ((String) transaction).trim();
        task.getExecution().getProcessInstance().setVariable(RolloutVariables.ON_CHAIN_TRANSACTION_HASH, hash);
        task.getExecution().getProcessInstance().setVariable(RolloutVariables.ON_CHAIN_REGISTERED_HASH,
                task.getVariable(RolloutVariables.ON_CHAIN_COMPOSE_HASH));
        Object refusal = task.getVariable(RolloutVariables.ON_CHAIN_REFUSAL);
        TaskDecisions.record(task, "registered " + task.getVariable(RolloutVariables.ON_CHAIN_COMPOSE_HASH) + " on chain: " + hash
                + (refusal == null ? "" : " (asked again: " + refusal + ")"));
    }
}
