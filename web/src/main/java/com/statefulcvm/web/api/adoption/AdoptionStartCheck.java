package com.statefulcvm.web.api.adoption;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.RunningProcesses;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Set;

/**
 * adopt-replica-set.bpmn's start, from the start form ({@code replicaSet}, optional {@code reason}), our REST API or the
 * start-up's proposal: the set names an app made elsewhere (400 for a set whose app this deployment created: it needs
 * no adoption), it is not adopted yet (409), and no adoption of it runs (409).
 */
@Component
public class AdoptionStartCheck extends ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(AdoptionVariables.REPLICA_SET, ProcedureVariables.REASON,
            AdoptionVariables.ADOPTION_REASON, AdoptionVariables.REQUESTED_BY);

    private final Adoptions adoptions;
    private final RunningProcesses running;

    AdoptionStartCheck(ReplicaSets replicaSets, Adoptions adoptions, RunningProcesses running) {
        super(AdoptionVariables.PROCESS_KEY, START_VARIABLES, replicaSets);
        this.adoptions = adoptions;
        this.running = running;
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        requireAdoptable(spec);
        start.recordRequest(AdoptionVariables.ADOPTION_REASON, start.text(ProcedureVariables.REASON));
        return spec.getName();
    }

    /** @throws ApiProblem 400 for a set that needs no adoption, 409 for one adopted or being adopted */
    void requireAdoptable(ReplicaSetSpec spec) {
        String set = spec.getName();
        if (spec.getAppId() == null || spec.getAppId().isBlank()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "replica set '" + set + "' names no appId: its app is one this deployment"
                    + " created, which needs no adoption");
        }
        adoptions.adoption(set).ifPresent(a -> {
            throw new ApiProblem(HttpStatus.CONFLICT, "replica set '" + set + "' was adopted by " + a.adoptedBy() + " at "
                    + a.adoptedAt() + " (revision " + a.revision() + ")");
        });
        running.requireNone(AdoptionVariables.PROCESS_KEY, set, "adoption %s of replica set '" + set + "' is running: decide it in Tasklist");
    }
}
