package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.http.HttpStatus;

/** One start of an operator procedure as its start check sees it: the variables it was started with, and who. */
public final class ProcedureStart {

    private final String processKey;
    private final DelegateExecution execution;
    private final String caller;

    ProcedureStart(String processKey, DelegateExecution execution, String caller) {
        this.processKey = processKey;
        this.execution = execution;
        this.caller = caller;
    }

    public String processKey() {
        return processKey;
    }

    public Object variable(String name) {
        return execution.getVariable(name);
    }

    /**
     * This start as the body our REST API would take: {@code field} with {@code value}, then the {@code reason} as
     * text, each only when given. A start through the engine is then judged by the API's own request check, with its
     * messages.
     */
    public ObjectNode requestBody(ObjectMapper json, String field, Object value) {
        ObjectNode body = json.createObjectNode();
        if (value != null) {
            body.set(field, json.valueToTree(value));
        }
        String reason = text(ProcedureVariables.REASON);
        if (reason != null) {
            body.put(ProcedureVariables.REASON, reason);
        }
        return body;
    }

    /** A text variable, stripped; null when absent or blank. */
    public String text(String name) {
        Object value = execution.getVariable(name);
        if (value == null) {
            return null;
        }
        String text = String.valueOf(value).strip();
        return text.isEmpty() ? null : text;
    }

    public void set(String name, Object value) {
        execution.setVariable(name, value);
    }

    public void remove(String name) {
        execution.removeVariable(name);
    }

    /** The business key the start was given; null when none (a Tasklist start form has none). */
    public String businessKey() {
        return execution.getProcessBusinessKey();
    }

    /**
     * Who started it, for the procedure's record: the authenticated user (REST, Tasklist), else what the starting code
     * said (the health monitor), else "unknown". A caller cannot claim another user's name.
     */
    public String requestedBy(String variable) {
        if (caller != null) {
            return caller;
        }
        String given = text(variable);
        return given == null ? "unknown" : given;
    }

    /** Started by an authenticated user (REST, Tasklist, our API), not by the application's own code. */
    public boolean byUser() {
        return caller != null;
    }

    /**
     * Records who asked and why, as every procedure keeps it: {@code requestedBy} (see {@link #requestedBy}), and the
     * start form's generic {@code reason} folded into the procedure's own {@code reasonVariable} (worded as
     * {@link ProcedureVariables#requestedByWithReason}) unless the starting code worded that already. Returns who asked.
     */
    public String recordRequest(String reasonVariable, String reason) {
        String requestedBy = requestedBy(ProcedureVariables.REQUESTED_BY);
        remove(ProcedureVariables.REASON);
        set(ProcedureVariables.REQUESTED_BY, requestedBy);
        if (text(reasonVariable) == null) {
            set(reasonVariable, ProcedureVariables.requestedByWithReason(requestedBy, reason));
        }
        return requestedBy;
    }

    /** The replica set named by {@code variable}; 400 naming the field when it is missing. */
    public String requiredText(String variable) {
        String value = text(variable);
        if (value == null) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, variable + ": is required");
        }
        return value;
    }

    /** The replica set named by the variable {@code replicaSet}; 400 naming the field when it is missing or unknown. */
    public ReplicaSetSpec replicaSet(ReplicaSets sets) {
        String name = requiredText(ProcedureVariables.REPLICA_SET);
        if (!sets.exists(name)) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, "replicaSet: unknown replica set '" + name + "'");
        }
        return sets.spec(name);
    }

    /**
     * The first of the variables that is set, a whole number as a Long: a start form's number field may arrive as a
     * Double (3.0), which our REST API's checks would refuse as not whole. Anything else is returned as it is.
     */
    public Object firstOf(String... names) {
        for (String name : names) {
            Object value = execution.getVariable(name);
            if (value instanceof String text && text.isBlank()) {
                continue;
            }
            if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
                return d.longValue();
            }
            if (value != null) {
                return value;
            }
        }
        return null;
    }
}
