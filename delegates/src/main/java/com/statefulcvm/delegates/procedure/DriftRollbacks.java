package com.statefulcvm.delegates.procedure;

import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstantiationBuilder;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.Set;

/**
 * Starts the rollout an approver's "roll back" of a change made behind our back asks for: rollout.bpmn on the drifted
 * slots alone, with the set's current revision, requested by the approver. The rollout drains, updates, attests and
 * gates each as any rollout does, within the budget, after its own approval. While another rollout of the set runs,
 * nothing starts and the caller says so.
 */
@Component
public class DriftRollbacks {

    /** The rollout a decision's "rollback" started; null when none could start. */
    public static final String ROLLBACK_ROLLOUT = "rollbackRollout";
    /** Set by "Has the rollback ended?": true once that rollout ended (or none was started). */
    public static final String ROLLBACK_ENDED = "rollbackEnded";
    /** How that rollout ended, for the approver asked again. */
    public static final String ROLLBACK_OUTCOME = "rollbackOutcome";

    /** The rollout started, or why none was. */
    public record Started(String rolloutId, String problem) {
    }

    private final RevisionHistory revisions;
    private final RolloutStarter rollouts;
    private final RuntimeService runtime;

    public DriftRollbacks(RevisionHistory revisions, RolloutStarter rollouts, RuntimeService runtime) {
        this.revisions = revisions;
        this.rollouts = rollouts;
        this.runtime = runtime;
    }

    /**
     * @param recordedEnv each slot is sent its own recorded env again (an env changed behind our back); otherwise the
     *                    current revision's compose is rolled out to them again as a rollback to it
     */
    public Started start(String set, Set<Integer> ordinals, String by, boolean recordedEnv) {
        Optional<Revision> current = revisions.currentRevision(set);
        if (current.isEmpty()) {
            return new Started(null, "needs the set's current revision; it has none");
        }
        if (runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY)
                .processInstanceBusinessKey(set).active().count() > 0) {
            return new Started(null, "waits for the rollout of " + set + " that runs");
        }
        ProcessInstantiationBuilder start = rollouts.instantiation(set, new RolloutStarter.Start(current.get().dockerCompose(), null,
                ordinals, recordedEnv ? null : current.get().number()), by);
        if (recordedEnv) {
            start.setVariable(RolloutVariables.ROLLBACK_RECORDED_ENV, true);
        }
        return new Started(start.execute().getId(), null);
    }
}
