package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * The compose an instance step puts on its CVM. In a rollout, the update revision's, read from the registry where
 * "Plan the rollout" recorded it: the revision the audit trail names is then by construction what the CVMs get,
 * whatever a {@code targetCompose} variable says by then (a variable an admin may still overwrite). A heal or a scale
 * has no update revision and takes the compose it planned ({@code targetCompose}).
 */
@Component
public class TargetCompose {


    private final RevisionHistory revisions;

    public TargetCompose(RevisionHistory revisions) {
        this.revisions = revisions;
    }

    public String of(DelegateExecution execution) {
        if (execution.getVariable(RolloutVariables.UPDATE_REVISION) instanceof Number number) {
            String set = (String) execution.getVariable(RolloutVariables.REPLICA_SET);
            return revisions.revision(set, number.intValue()).map(Revision::dockerCompose)
                    .orElseThrow(() -> new IllegalStateException("revision " + number + " of replica set '" + set
                            + "' is not recorded: nothing to roll out"));
        }
        return (String) execution.getVariable(RolloutVariables.TARGET_COMPOSE);
    }
}
