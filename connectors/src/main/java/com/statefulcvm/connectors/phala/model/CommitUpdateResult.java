package com.statefulcvm.connectors.phala.model;

/** Answer of {@code POST /cvms/{id}/commit-update} (SDK {@code commitCvmUpdate}): the update is under way. */
public record CommitUpdateResult(String correlationId, String status) {
}
