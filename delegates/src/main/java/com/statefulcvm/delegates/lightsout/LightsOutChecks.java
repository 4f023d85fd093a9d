package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Whether a set can be recovered from a lights-out at all: it exists and its workload type has a
 * {@code sequence-<type>} procedure deployed (a type without one would have every replica unanswered). Made by the
 * REST API before the start (400) and by the procedure's first step (a start from Tasklist or the engine's API).
 */
@Component
public class LightsOutChecks {

    private final ReplicaSets replicaSets;

    public LightsOutChecks(ReplicaSets replicaSets) {
        this.replicaSets = replicaSets;
    }

    public Optional<String> refusal(String set, RepositoryService repository) {
        if (set == null || !replicaSets.exists(set)) {
            return Optional.of("unknown replica set '" + set + "'");
        }
        String type = replicaSets.spec(set).getWorkloadType();
        String procedure = "sequence-" + type;
        if (repository.createProcessDefinitionQuery().processDefinitionKey(procedure).latestVersion().count() == 0) {
            return Optional.of("workload type '" + type + "' cannot be recovered from a lights-out: no procedure " + procedure
                    + " is deployed (docs/lights-out.md, adding a workload type)");
        }
        return Optional.empty();
    }
}
