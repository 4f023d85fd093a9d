package com.statefulcvm.web.api;

import java.util.Set;

/**
 * The checks of one operator procedure's start, run by {@link ProcedureStarts} as the process instance starts, for every
 * start: our REST API, a Tasklist start form, the engine's REST API or Java API. Adding a procedure to this is one
 * Spring bean implementing this interface (and a start form on its start event).
 */
public interface ProcedureStartCheck {

    /** The BPMN process id of the procedure. */
    String processKey();

    /**
     * Every variable a start may carry: its start form's fields and what our REST API and our own code start it
     * with. Any other variable refuses the start ({@link ProcedureStarts}), so that what the procedure decides for
     * itself (an automatic rollback, its plan) can never be handed to it by the caller.
     */
    Set<String> startVariables();

    /**
     * Checks the start and brings its variables into the procedure's shape (a start form's fields into the variables
     * the procedure reads). Throws {@link ProcedureStartRefused} (or our API's own refusals) naming the field.
     *
     * @return the business key the procedure runs under (the set's name, or set/ordinal for one instance)
     */
    String check(ProcedureStart start);
}
