package com.statefulcvm.connectors.phala.model;

/** Answer of an asynchronous update (202). {@code status}: in_progress, precondition_required or no_change. */
public record UpdateResult(String status, String correlationId, Boolean requiresOnChainHash) {

    public static final String IN_PROGRESS = "in_progress";
    public static final String PRECONDITION_REQUIRED = "precondition_required";
    public static final String NO_CHANGE = "no_change";
}
