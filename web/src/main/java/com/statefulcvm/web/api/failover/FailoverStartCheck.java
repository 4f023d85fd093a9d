package com.statefulcvm.web.api.failover;

import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

import java.util.Set;

/**
 * failover.bpmn's start, from the start form ({@code replicaSet}, optional {@code reason}) or our REST API: a Patroni
 * set, no failover, rollout or scale of it running ({@link FailoverController}'s rules and messages).
 */
@Component
class FailoverStartCheck extends ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(FailoverVariables.REPLICA_SET, ProcedureVariables.REASON, FailoverVariables.FAILOVER_REASON,
            FailoverVariables.REQUESTED_BY);

    private final FailoverController failovers;

    FailoverStartCheck(ReplicaSets replicaSets, FailoverController failovers) {
        super(FailoverVariables.PROCESS_KEY, START_VARIABLES, replicaSets);
        this.failovers = failovers;
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        FailoverController.requireFailoverType(spec);
        failovers.requireNoneRunning(spec.getName());
        start.recordRequest(FailoverVariables.FAILOVER_REASON, start.text(ProcedureVariables.REASON));
        return spec.getName();
    }
}
