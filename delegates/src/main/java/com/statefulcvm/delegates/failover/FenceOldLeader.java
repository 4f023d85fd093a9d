package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.FailoverVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Fence the old leader: stop its CVM". A leader that lost its Patroni may still run PostgreSQL, or come back with it:
 * stopped, its CVM cannot serve writes as a second primary. A hard stop, since nothing on it is to be saved. The step
 * answers {@code oldLeaderFenced} and the diagram polls: a stopped CVM, or one that is gone, is fenced; a CVM busy
 * with another operation is left to settle first; a settled one that is not stopped is stopped, once per run of the
 * CVM ({@link PhalaEffects#stopUntilItHolds}: a stop whose intent shows it took is not asked again, unless the CVM has
 * booted again since), so running the step twice never does harm.
 */
@Component("fenceOldLeader")
public class FenceOldLeader implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(FenceOldLeader.class);
    static final String STOPPED = "stopped";

    private final SlotReader slots;
    private final PhalaEffects effects;

    public FenceOldLeader(SlotReader slots, PhalaEffects effects) {
        this.slots = slots;
        this.effects = effects;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String oldLeader = (String) execution.getVariable(OLD_LEADER);
        if (oldLeader == null) {
            fenced(execution, "no old leader is known (Patroni no longer lists it): nothing to fence");
            return;
        }
        Optional<CvmInfo> found = slots.find(spec, oldLeader);
        if (found.isEmpty() || "deleted".equals(found.get().status())) {
            fenced(execution, "the CVM of " + oldLeader + " is gone: it cannot come back");
            return;
        }
        CvmInfo cvm = found.get();
        if (STOPPED.equals(cvm.status()) && cvm.isSettled()) {
            fenced(execution, "the CVM of " + oldLeader + " (" + cvm.id() + ") is stopped");
            return;
        }
        execution.setVariable(OLD_LEADER_FENCED, false);
        if (!cvm.isSettled()) {
            execution.setVariable(STAGE, "fencing " + oldLeader + ": its CVM is " + cvm.status() + ", waiting for it to settle");
            return;
        }
        EffectOutcome outcome;
        try {
            outcome = effects.stopUntilItHolds(EffectScope.of(execution, oldLeader), cvm);
        } catch (PhalaApiException e) {
            if (e.isRetryable() || e.isNoResponse() || e.status() == 400) {
                // 400: it stopped between the read and the request; 409 and no answer: the next poll sees where it is
                execution.setVariable(STAGE, "fencing " + oldLeader + ": stop not taken yet (" + e.getMessage() + ")");
                return;
            }
            throw e;
        }
        execution.setVariable(FENCE_REQUESTED, outcome.taken());
        execution.setVariable(STAGE, "fencing " + oldLeader + ": stop of CVM " + cvm.id() + " (it was " + cvm.status() + "): " + outcome.text());
        log.info("Failover of {}: stopping the old leader's CVM {} ({}), which was {}", spec.getName(), oldLeader, cvm.id(), cvm.status());
    }

    private static void fenced(DelegateExecution execution, String stage) {
        execution.setVariable(OLD_LEADER_FENCED, true);
        execution.setVariable(STAGE, stage);
    }
}
