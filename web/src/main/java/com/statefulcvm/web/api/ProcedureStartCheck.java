package com.statefulcvm.web.api;

/**
 * The checks of one operator procedure's start, run by {@link ProcedureStarts} as the process instance starts, for every
 * start: our REST API, a Tasklist start form, the engine's REST API or Java API. Adding a procedure to this is one
 * Spring bean implementing this interface (and a start form on its start event).
 */
public interface ProcedureStartCheck {

    /** The BPMN process id of the procedure. */
    String processKey();

    /**
     * Checks the start and brings its variables into the procedure's shape (a start form's fields into the variables
     * the procedure reads). Throws {@link ProcedureStartRefused} (or our API's own refusals) naming the field.
     *
     * @return the business key the procedure runs under (the set's name, or set/ordinal for one instance)
     */
    String check(ProcedureStart start);
}
