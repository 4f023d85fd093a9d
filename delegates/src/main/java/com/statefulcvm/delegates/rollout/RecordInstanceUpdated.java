package com.statefulcvm.delegates.rollout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import static com.statefulcvm.delegates.procedure.RolloutVariables.*;

/**
 * "Record the instance as updated": the registry takes the new compose hash, the revision learns Phala's hash, the
 * instance is Ready (it passed the health gate and was admitted: its last probe came before its attestation, so the
 * probe could not say so), and the step leaves its outcome in the engine's history (what GET /api/rollouts/{id} lists
 * as steps done).
 */
@Component("recordInstanceUpdated")
public class RecordInstanceUpdated implements JavaDelegate {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SlotReader slots;
    private final ReplicaSetObserver observer;
    private final ReplicaSets replicaSets;
    private final RevisionHistory revisions;
    private final Clock clock;
    private final SlotConditions conditions;

    public RecordInstanceUpdated(SlotReader slots, ReplicaSetObserver observer, ReplicaSets replicaSets,
                                 RevisionHistory revisions, Clock clock, SlotConditions conditions) {
        this.conditions = conditions;
        this.slots = slots;
        this.observer = observer;
        this.replicaSets = replicaSets;
        this.revisions = revisions;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) throws JsonProcessingException {
        SlotStep step = slots.read(execution);
        observer.observe(step.spec(), step.cvm());
        String action = slots.action(execution).name();
        Object revision = execution.getVariable(UPDATE_REVISION);
        if (revision instanceof Number number && step.cvm().composeHash() != null) {
            requireRunsRevision(step, number.intValue());
            revisions.recordComposeHash(step.spec().getName(), number.intValue(), step.cvm().composeHash());
        }
        String condition = "Ready: " + action + " done, compose " + step.cvm().composeHash() + ", rollout " + execution.getProcessInstanceId();
        observer.recordCondition(step.spec(), step.slot(), condition);
        conditions.set(step.spec(), step.slot(), ConditionType.Ready, true,
                "healthy for " + slots.policy(execution, step.spec()).getMinReadySeconds() + " s and admitted");

        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("slot", step.slot());
        outcome.put("ordinal", replicaSets.ordinalOf(step.spec(), step.slot()));
        outcome.put("action", action);
        outcome.put("result", "ready on compose " + step.cvm().composeHash() + " (instance " + step.cvm().instanceId() + ")");
        outcome.put("at", clock.instant().toString());
        execution.setVariableLocal(STEP_OUTCOME, JSON.writeValueAsString(outcome));
        execution.setVariable(STAGE, condition);
    }

    /**
     * A revision learns the compose hash of what its instances actually run, so the hash is recorded only from a CVM
     * that runs the revision's own compose; a CVM running anything else fails the step (and the engine's retries end in
     * an incident) rather than put another compose's hash under this revision.
     */
    private void requireRunsRevision(SlotStep step, int number) {
        Revision recorded = revisions.revision(step.spec().getName(), number).orElseThrow(() -> new IllegalStateException(
                "revision " + number + " of replica set '" + step.spec().getName() + "' is not recorded"));
        if (!ComposeText.same(recorded.dockerCompose(), step.cvm().dockerCompose())) {
            throw new IllegalStateException("CVM " + step.slot() + " runs compose " + step.cvm().composeHash() + ", which is not revision "
                    + number + "'s compose: its hash is not recorded under revision " + number + " and the step does not count as done");
        }
    }
}
