package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ComposeText;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Asks Phala to move a CVM to a compose only when the CVM shows it has not got it yet, and then only once per
 * intention ({@link PhalaEffects}): a job that runs again after a crash finds the compose applied, the CVM busy with
 * it, or the intent recorded, and never restarts the CVM a second time.
 */
@Component
public class ComposeUpdater {

    private static final Logger log = LoggerFactory.getLogger(ComposeUpdater.class);

    private final PhalaEffects effects;
    private final OnChainRegistrations onChain;

    public ComposeUpdater(PhalaEffects effects, OnChainRegistrations onChain) {
        this.effects = effects;
        this.onChain = onChain;
    }

    /**
     * An on-chain KMS app's update is committed with the rollout's registration, or waits for it
     * ({@link OnChainRegistrations}): the same intention, delivered in its phase 2.
     *
     * @return what happened, in words for the process's {@code stage} variable
     */
    public String ensureUpdateRequested(DelegateExecution execution, EffectScope scope, CvmInfo cvm, String targetCompose) {
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); waiting for it to settle";
        }
        if (ComposeText.same(cvm.dockerCompose(), targetCompose)) {
            return "CVM " + cvm.name() + " already has the target compose; not updated again";
        }
        EffectOutcome outcome = onChain.send(execution, cvm, () -> effects.updateCompose(scope, cvm, targetCompose),
                (required, transaction) -> effects.commitComposeUpdate(scope, cvm, targetCompose, required, transaction));
        if (outcome.kind() == EffectOutcome.Kind.REQUESTED) {
            log.info("Requested compose update of {} ({}): {}", cvm.name(), cvm.id(), outcome.intent().outcome());
        }
        if (outcome.kind() == EffectOutcome.Kind.ALREADY_APPLIED) {
            // accepted once, yet the CVM settled without it: asking again would be a second update; the progress
            // deadline hands the slot to the operator, whose retry is a new attempt
            return "compose update of " + cvm.name() + " was accepted before, yet the CVM settled without it ("
                    + outcome.text() + "); waiting";
        }
        return "compose update of " + cvm.name() + ": " + outcome.text();
    }
}
