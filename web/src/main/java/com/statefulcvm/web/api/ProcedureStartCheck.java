package com.statefulcvm.web.api;

import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;

import java.util.Set;

/**
 * The checks of one operator procedure's start, run by {@link ProcedureStarts} as the process instance starts, for every
 * start: our REST API, a Tasklist start form, the engine's REST API or Java API. Adding a procedure to this is one
 * Spring bean extending this class (and a start form on its start event): it names its process and the variables a
 * start may carry, and checks the start of its replica set.
 */
public abstract class ProcedureStartCheck {

    private final String processKey;
    private final Set<String> startVariables;
    private final ReplicaSets replicaSets;

    /**
     * @param processKey     the BPMN process id of the procedure
     * @param startVariables every variable a start may carry (see {@link #startVariables()})
     * @param replicaSets    where the start's {@code replicaSet} is looked up
     */
    protected ProcedureStartCheck(String processKey, Set<String> startVariables, ReplicaSets replicaSets) {
        this.processKey = processKey;
        this.startVariables = Set.copyOf(startVariables);
        this.replicaSets = replicaSets;
    }

    /** The BPMN process id of the procedure. */
    public final String processKey() {
        return processKey;
    }

    /**
     * Every variable a start may carry: its start form's fields and what our REST API and our own code start it
     * with. Any other variable refuses the start ({@link ProcedureStarts}), so that what the procedure decides for
     * itself (an automatic rollback, its plan) can never be handed to it by the caller.
     */
    public final Set<String> startVariables() {
        return startVariables;
    }

    /**
     * Checks the start and brings its variables into the procedure's shape (a start form's fields into the variables
     * the procedure reads). Throws {@link ProcedureStartRefused} (or our API's own refusals) naming the field; an
     * unknown or missing {@code replicaSet} is refused before the procedure's own checks.
     *
     * @return the business key the procedure runs under (the set's name, or set/ordinal for one instance)
     */
    public final String check(ProcedureStart start) {
        return check(start, start.replicaSet(replicaSets));
    }

    /** The procedure's own checks of a start of {@code spec}'s set; see {@link #check(ProcedureStart)}. */
    protected abstract String check(ProcedureStart start, ReplicaSetSpec spec);
}
