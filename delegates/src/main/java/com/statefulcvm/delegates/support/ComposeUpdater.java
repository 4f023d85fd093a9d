package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CommitUpdateResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.fleet.ComposeText;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Asks Phala to move a CVM to a compose only when the CVM shows it has not got it yet. Deciding from observed state
 * (not from a flag we wrote) keeps a step idempotent: a job that runs again after a crash finds the compose already
 * applied, or the CVM busy with it, and never restarts the CVM a second time.
 */
@Component
public class ComposeUpdater {

    private static final Logger log = LoggerFactory.getLogger(ComposeUpdater.class);

    private final PhalaCloudClient phala;
    private final OnChainRegistrations onChain;

    public ComposeUpdater(PhalaCloudClient phala, OnChainRegistrations onChain) {
        this.phala = phala;
        this.onChain = onChain;
    }

    /**
     * An on-chain KMS app's update is committed with the rollout's registration, or waits for it
     * ({@link OnChainRegistrations}).
     *
     * @return what happened, in words for the process's {@code stage} variable
     */
    public String ensureUpdateRequested(DelegateExecution execution, CvmInfo cvm, String targetCompose) {
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); waiting for it to settle";
        }
        if (ComposeText.same(cvm.dockerCompose(), targetCompose)) {
            return "CVM " + cvm.name() + " already has the target compose; not updated again";
        }
        return onChain.send(execution, cvm, () -> {
            UpdateResult result = phala.updateDockerCompose(cvm.id(), targetCompose);
            log.info("Requested compose update of {} ({}): {} correlation {}", cvm.name(), cvm.id(), result.status(), result.correlationId());
            return "compose update of " + cvm.name() + " accepted (" + result.status() + ", correlation " + result.correlationId() + ")";
        }, (required, transaction) -> {
            if (required.commitToken() != null) {
                CommitUpdateResult committed = phala.commitUpdate(cvm.id(), required.commitToken(), required.composeHash(), transaction);
                return "compose update of " + cvm.name() + " committed on chain (transaction " + transaction + "; "
                        + committed.status() + ", correlation " + committed.correlationId() + ")";
            }
            UpdateResult result = phala.updateDockerCompose(cvm.id(), targetCompose, required.composeHash(), transaction);
            return "compose update of " + cvm.name() + " sent with its on-chain registration (transaction " + transaction
                    + "; " + result.status() + ", correlation " + result.correlationId() + ")";
        });
    }
}
